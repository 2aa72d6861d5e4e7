"""The expert taught by the rollouts (issue 40: "an expert that learns from it"): the rollout
bot's decisions are recorded in games against the EAAI ports, and the expert's styles
(``expert.AGAINST_GIN``, ``AGAINST_KNOCKER``: how it weighs a discard and the top discard) are
chosen as those that make the moves the rollout bot made most often (imitation), over a grid;
then the learned styles play the shipped ones' deals in mirrored pairs against each port.

    python benchmarks/learn_expert.py [--games 60] [--first 9000] [--fit 3000] [--pairs 4000]

One core per process (the two ports' games recorded one after the other); the fit on the engine.
"""

from __future__ import annotations

import argparse
import itertools
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).parent))

import eaai_strength  # noqa: E402

from rummylab.gin import expert, game  # noqa: E402
from rummylab.gin.rollout_bot import RolloutBot  # noqa: E402

PORTS = ("marjj_v5", "eaai_simple")
GRID = {"look_ahead": (0.5, 1.0, 2.0, 4.0, 10.0), "ahead_best": (3, 5, 7, expert.EVERY_DRAW),
        "danger": (0.0, 1.5, 4.0, 8.0), "take_margin": (-1.5, 0.0, 1.5, 3.0)}
"""The styles tried: every combination (320)."""
Decision = tuple[game.State, game.Action]


class Recorder:
    """The rollout bot, its decisions with two options or more kept."""

    def __init__(self, seed: int, out: list[Decision]) -> None:
        self.bot, self.out, self.name = RolloutBot(seed), out, "rollout"

    def act(self, state: game.State) -> game.Action:
        action = self.bot.act(state)
        if state.phase in (game.Phase.FIRST_UPCARD, game.Phase.DRAW, game.Phase.DISCARD) and len(
                game.legal_actions(state)) > 1:
            self.out.append((state, action))
        return action


def record(games: int, first: int) -> list[Decision]:
    """The rollout bot's decisions in ``games`` mirrored pairs against each port."""
    out: list[Decision] = []
    eaai_strength.mirrored(games, first, lambda seed: Recorder(seed, out))
    return out


def agreement(decisions: list[Decision], style: expert.Style) -> float:
    """The share of ``decisions`` the expert makes as the rollout bot did, playing ``style``."""
    saved = expert.AGAINST_GIN, expert.AGAINST_KNOCKER
    expert.AGAINST_GIN = expert.AGAINST_KNOCKER = style
    try:
        return float(np.mean([expert.ExpertBot(np.random.default_rng(i)).act(s) == a
                              for i, (s, a) in enumerate(decisions)]))
    finally:
        expert.AGAINST_GIN, expert.AGAINST_KNOCKER = saved


def fit(decisions: list[Decision], size: int) -> dict[str, tuple[expert.Style, float, float]]:
    """Per reading of the opponent (``expert.plays_for_gin``): (the style of most agreement, its
    agreement, the shipped style's), over ``size`` of its decisions drawn at random."""
    out = {}
    for kind, shipped in (("gin", expert.AGAINST_GIN), ("knocker", expert.AGAINST_KNOCKER)):
        mine = [d for d in decisions
                if expert.plays_for_gin(d[0], 1 - d[0].to_play, expert.GIN_PRIOR) == (kind == "gin")]
        pick = np.random.default_rng(1).choice(len(mine), min(size, len(mine)), replace=False)
        sample = [mine[i] for i in sorted(pick)]
        scored = [(agreement(sample, s), s) for s in (expert.Style(look_ahead=la, ahead_best=int(ab), danger=dg,
                                                                   take_margin=tm)
                                                      for la, ab, dg, tm in itertools.product(*GRID.values()))]
        best, style = max(scored, key=lambda r: r[0])
        out[kind] = (style, best, agreement(sample, shipped))
        print(f"{kind}: {len(sample)} decisions; learned {style} agrees {best:.1%}, the shipped {shipped} "
              f"{out[kind][2]:.1%}", flush=True)
    return out


def strength(learned: dict[str, expert.Style], pairs: int, first: int) -> None:
    """The learned styles and the shipped ones on the same deals against each port, paired."""
    for port in PORTS:
        won = {}
        for name, styles in (("shipped", (expert.AGAINST_GIN, expert.AGAINST_KNOCKER)),
                             ("learned", (learned["gin"], learned["knocker"]))):
            saved = expert.AGAINST_GIN, expert.AGAINST_KNOCKER
            expert.AGAINST_GIN, expert.AGAINST_KNOCKER = styles
            try:
                won[name] = eaai_strength.pairs("expert", port, pairs, first)[0]
            finally:
                expert.AGAINST_GIN, expert.AGAINST_KNOCKER = saved
        d = won["learned"] - won["shipped"]
        print(f"against {port}: shipped {won['shipped'].mean():.1%}, learned {won['learned'].mean():.1%}, "
              f"learned less shipped {d.mean():+.1%} ± {1.96 * d.std(ddof=1) / np.sqrt(pairs):.1%} "
              f"over {pairs} mirrored pairs", flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=60, help="mirrored pairs recorded against each port")
    ap.add_argument("--first", type=int, default=9000)
    ap.add_argument("--fit", type=int, default=3000, help="decisions per reading the styles are fitted on")
    ap.add_argument("--pairs", type=int, default=4000)
    args = ap.parse_args()
    t = time.perf_counter()
    decisions = record(args.games, args.first)
    print(f"{len(decisions)} decisions of the rollout bot recorded ({time.perf_counter() - t:.0f} s)", flush=True)
    learned = fit(decisions, args.fit)
    strength({k: v[0] for k, v in learned.items()}, args.pairs, 20000)
    print(f"{time.perf_counter() - t:.0f} s")


if __name__ == "__main__":
    main()
