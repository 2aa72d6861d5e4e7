"""The expert's discard taught by the rollouts' values (issue 40: "an expert that learns from
it"): the expert's own discard decisions are recorded in games against the EAAI ports, every
discard of each valued by the rollout bot's rollouts (``evaluate``: its policy, its read of the
opponent, the kept worlds, the hand's points); a linear key over what the expert sees of a discard
(``expert.DISCARD_FEATURES``) is fitted to those values for each reading of the opponent: by least
squares on the values less each decision's mean, and by the weights that lose the fewest points
(a softmax choice, gradient descent from the classic key); the points each loses a decision, on
decisions it was not fitted on, against the classic key's. With ``--play PORT`` the keys fitted
on every decision play the classic ones on the same deals against a port.

    python benchmarks/learn_discards.py [--games 40] [--first 9000] [--samples 512]
    python benchmarks/learn_discards.py --play eaai_simple --pairs 2000 --learn knocker

One core. The knocker's fitted weights are ``expert.AGAINST_KNOCKER.learned``.
"""

from __future__ import annotations

import argparse
import dataclasses
import pickle
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).parent))

import eaai_strength  # noqa: E402

from rummylab.gin import expert, game  # noqa: E402
from rummylab.gin.evaluation import evaluate  # noqa: E402
from rummylab.gin.rollout_bot import ROLLOUT_POLICY, read_opponent  # noqa: E402


class Recorder:
    """The expert, its discard decisions (two discards or more) kept."""

    def __init__(self, seed: int, out: list[game.State]) -> None:
        self.bot, self.out, self.name = expert.ExpertBot(seed), out, "expert"

    def act(self, state: game.State) -> game.Action:
        if state.phase is game.Phase.DISCARD:
            self.out.append(state)
        return self.bot.act(state)


def record(games: int, first: int) -> list[game.State]:
    out: list[game.State] = []
    eaai_strength.mirrored(games, first, lambda seed: Recorder(seed, out))
    return out


def valued(states: list[game.State], samples: int) -> list[tuple[game.State, dict[int, float]]]:
    """Each decision's discards (card bit -> mean points) by the rollout bot's rollouts."""
    out = []
    for i, s in enumerate(states):
        e = evaluate(s, samples=samples, seed=i, policy=(ROLLOUT_POLICY, read_opponent(s, ROLLOUT_POLICY)),
                     model="kept", exact=False, every_diff=True)
        values = {o.action.card.bit: o.value for o in e.options if o.action.kind is game.Kind.DISCARD}
        if len(values) > 1:
            out.append((s, values))
    return out


CLASSIC = {True: expert.Style(look_ahead=10.0, ahead_best=5, danger=4.0, take_margin=0.0),
           False: expert.Style(look_ahead=1.0, ahead_best=expert.EVERY_DRAW, danger=1.5, take_margin=1.5)}
"""The keys before any was learned (against a gin player, against a knocker): deadwood + the
look-ahead x the deadwood after the next draw + danger x what the card feeds."""
AHEAD_BEST = 5
"""The features' best draws (``expert.discard_features``)."""


def discard_features(s: game.State) -> dict[int, np.ndarray]:
    """Per card the expert may discard (its bit): expert.DISCARD_FEATURES from its view of ``s``."""
    v = expert.view(s)
    hold = expert.holding(v, expert.weights(v))
    return {b: np.array(f) for b, f in expert.discard_features(v, hold, AHEAD_BEST, s.rules.knock_limit).items()}


def style_key(f: np.ndarray, style: expert.Style) -> float:
    """The classic key (``expert.discards``) from the features."""
    ahead = f[2] if style.ahead_best == AHEAD_BEST else f[1]
    return float((f[0] + style.look_ahead * ahead) + style.danger * f[3])


def table(data: list[tuple[game.State, dict[int, float]]]) -> list[tuple[bool, np.ndarray, np.ndarray, np.ndarray]]:
    """Per decision: (the opponent read as a gin player, features per discard, rollout values, the
    classic key)."""
    rows = []
    for s, values in data:
        feats = discard_features(s)
        cards = [c for c in feats if c in values]
        if len(cards) < 2:
            continue
        gin = expert.plays_for_gin(s, 1 - s.to_play, expert.GIN_PRIOR)
        style = CLASSIC[gin]
        f = np.array([feats[c] for c in cards])
        shipped = np.array([style_key(feats[c], style) for c in cards])
        rows.append((gin, f, np.array([values[c] for c in cards]), shipped))
    return rows


def fit(rows: list[tuple[bool, np.ndarray, np.ndarray, np.ndarray]]) -> np.ndarray:
    """Weights w: the key -w . features (least first) fitted to the values (most first), within decisions."""
    x = np.concatenate([f - f.mean(axis=0) for _, f, _, _ in rows])
    y = np.concatenate([v - v.mean() for _, _, v, _ in rows])
    w, *_ = np.linalg.lstsq(x, y, rcond=None)
    return w


def classic_weights(style: expert.Style) -> np.ndarray:
    """The classic key as weights of the features (least first)."""
    w = np.zeros(len(expert.DISCARD_FEATURES))
    w[0], w[3] = 1.0, style.danger
    w[2 if style.ahead_best == AHEAD_BEST else 1] = style.look_ahead
    return w


def fit_regret(rows: list[tuple[bool, np.ndarray, np.ndarray, np.ndarray]], start: np.ndarray,
               steps: int = 1500, rate: float = 0.02) -> np.ndarray:
    """Weights of the key (least first) that lose the fewest points: gradient descent (Adam) on the
    points a softmax choice over the key loses, from ``start`` (the features scaled to unit spread)."""
    scale = np.concatenate([f for _, f, _, _ in rows]).std(axis=0) + 1e-9
    fs = [f / scale for _, f, _, _ in rows]
    regrets = [v.max() - v for _, _, v, _ in rows]
    w = start * scale
    m = np.zeros_like(w)
    q = np.zeros_like(w)
    for t in range(1, steps + 1):
        grad = np.zeros_like(w)
        for f, r in zip(fs, regrets, strict=True):
            k = f @ w
            p = np.exp(-(k - k.min()))
            p /= p.sum()
            grad -= (p * r) @ (f - p @ f)
        grad /= len(fs)
        m = 0.9 * m + 0.1 * grad
        q = 0.999 * q + 0.001 * grad * grad
        w -= rate * (m / (1 - 0.9 ** t)) / (np.sqrt(q / (1 - 0.999 ** t)) + 1e-8)
    return w / scale


def loss(rows: list[tuple[bool, np.ndarray, np.ndarray, np.ndarray]], key: Any) -> float:
    """Points lost a decision by the discard of least key (the rollouts' best less its value)."""
    return float(np.mean([v.max() - v[int(np.argmin(key(f, s)))] for _, f, v, s in rows]))


def play(rows: list[tuple[bool, np.ndarray, np.ndarray, np.ndarray]], port: str, pairs: int, first: int,
         learn: tuple[bool, ...] = (True, False)) -> None:
    """The learned keys (fitted on every decision; for the readings in ``learn``, the others
    classic) and the classic ones on the same deals, paired."""
    weights = {gin: fit_regret([r for r in rows if r[0] == gin], classic_weights(CLASSIC[gin]))
               if gin in learn else classic_weights(CLASSIC[gin]) for gin in (True, False)}
    print({("gin" if g else "knocker"): np.round(w, 3).tolist() for g, w in weights.items()}, flush=True)
    saved = expert.AGAINST_GIN, expert.AGAINST_KNOCKER
    try:
        expert.AGAINST_GIN, expert.AGAINST_KNOCKER = CLASSIC[True], CLASSIC[False]
        shipped = eaai_strength.pairs("expert", port, pairs, first)[0]
        expert.AGAINST_GIN, expert.AGAINST_KNOCKER = (
            dataclasses.replace(CLASSIC[gin], ahead_best=AHEAD_BEST, learned=tuple(round(float(x), 3) for x in w))
            if gin in learn else CLASSIC[gin] for gin, w in weights.items())
        learned = eaai_strength.pairs("expert", port, pairs, first)[0]
    finally:
        expert.AGAINST_GIN, expert.AGAINST_KNOCKER = saved
    d = learned - shipped
    print(f"against {port}: classic {shipped.mean():.1%}, learned {learned.mean():.1%}, learned less classic "
          f"{d.mean():+.1%} ± {1.96 * d.std(ddof=1) / np.sqrt(pairs):.1%} over {pairs} mirrored pairs", flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=40)
    ap.add_argument("--first", type=int, default=9000)
    ap.add_argument("--samples", type=int, default=512)
    ap.add_argument("--cache", default="/tmp/learn_discards.pkl")
    ap.add_argument("--play", default="", help="a port's name: play the learned keys against it")
    ap.add_argument("--pairs", type=int, default=2000)
    ap.add_argument("--play-first", type=int, default=20000)
    ap.add_argument("--learn", default="gin,knocker", help="the readings whose key is learned")
    args = ap.parse_args()
    t = time.perf_counter()
    cache = Path(args.cache)
    if cache.exists():
        data = pickle.loads(cache.read_bytes())
    else:
        states = record(args.games, args.first)
        print(f"{len(states)} discard decisions of the expert ({time.perf_counter() - t:.0f} s)", flush=True)
        data = valued(states, args.samples)
        cache.write_bytes(pickle.dumps(data))
    print(f"{len(data)} valued ({time.perf_counter() - t:.0f} s)", flush=True)
    rows = table(data)
    if args.play:
        play(rows, args.play, args.pairs, args.play_first,
             tuple(name == "gin" for name in args.learn.split(",")))
        return
    for gin in (True, False):
        mine = [r for r in rows if r[0] == gin]
        half = len(mine) // 2
        w = fit(mine[:half])
        test = mine[half:]
        taught = fit_regret(mine[:half], classic_weights(CLASSIC[gin]))
        print(f"{'gin' if gin else 'knocker'}: {len(mine)} decisions; least squares {np.round(w, 3).tolist()}")
        print(f"  fewest points lost: {np.round(taught, 3).tolist()}")
        for name, part in (("fitted half", mine[:half]), ("other half", test)):
            print(f"  points lost a decision on the {name}: classic {loss(part, lambda f, s: s):.3f}, "
                  f"least squares {loss(part, lambda f, s, w=w: -(f @ w)):.3f}, "
                  f"fewest lost {loss(part, lambda f, s, t=taught: f @ t):.3f}, "
                  f"deadwood alone {loss(part, lambda f, s: f[:, 0]):.3f}")


if __name__ == "__main__":
    main()
