"""Judging gin decisions (issue: judge decisions, not only hands): how fast ``gin.evaluate`` and
``gin.review`` are, how sure their figures, and how often sampled rollouts agree with exact
enumeration on small endgames.

    python benchmarks/evaluation.py [--positions 60] [--hands 10] [--endgames 40] [--seed 1]

Positions are decisions met in games of the strong bot against the expert (every 7th decision);
one core. Targets: ``evaluate`` of one decision with every option's difference to the best
within ±0.5 points (one standard error) in ≤ 100 ms; a whole hand reviewed for one seat in ≤ 1 s
with every reported loss's error ≤ 0.5; rollouts within 2 standard errors of the exact values
on ≥ 95 % of options of small endgames.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from rummylab.gin import DEFAULT, evaluation, game, worlds
from rummylab.gin.expert import ExpertBot
from rummylab.gin.game_review import review
from rummylab.gin.players import StrongBot
from rummylab.gin.rollout_bot import RolloutBot

DECISIONS = (game.Phase.FIRST_UPCARD, game.Phase.DRAW, game.Phase.DISCARD)


def positions(n: int, seed: int, every: int = 7) -> list[game.State]:
    """``n`` decisions with two options or more from strong-against-expert hands."""
    out: list[game.State] = []
    g = 0
    while len(out) < n:
        s = game.new_game(DEFAULT, seed * 1000 + g)
        bots = (StrongBot(0), ExpertBot(g))
        k = 0
        while s.phase in DECISIONS and len(out) < n:
            if len(game.legal_actions(s)) > 1:
                k += 1
                if k % every == 0:
                    out.append(s)
            s = game.apply(s, bots[s.to_play].act(s))
        g += 1
    return out


def speed(states: list[game.State], policy: str, **options: object) -> str:
    times, worst, live = [], [], []
    for i, s in enumerate(states):
        t = time.perf_counter()
        e = evaluation.evaluate(s, seed=i, policy=policy, exact=False, **options)  # type: ignore[arg-type]
        times.append(time.perf_counter() - t)
        near = [o.diff_se for o in e.options[1:] if o.diff > -3]  # the options within 3 points of the best
        worst.append(max(near, default=0.0))
        live.append(len(near))
    t_ms = np.array(times) * 1000
    w = np.array(worst)
    return (f"policy {policy:<7} {options}: {np.median(t_ms):6.1f} ms median, {np.percentile(t_ms, 90):6.1f} ms p90 "
            f"a decision; the largest error of an option within 3 points of the best: median {np.median(w):.2f}, "
            f"p90 {np.percentile(w, 90):.2f}; {np.mean(w <= 0.5):.0%} of decisions all ≤ 0.5, "
            f"{np.mean((w <= 0.5) & (t_ms <= 100)):.0%} all ≤ 0.5 in ≤ 100 ms")


def rollout_bot_speed(states: list[game.State]) -> str:
    """The rollout bot's decision in the compiled loop (``RolloutBot.looped``) against the same
    decision valued by ``evaluate`` (the engine's path): ms each, and whether they agree."""
    looped, valued, same = [], [], 0
    for i, s in enumerate(states):
        t = time.perf_counter()
        a = RolloutBot(i).act(s)
        looped.append(time.perf_counter() - t)
        slow = RolloutBot(i)
        slow.use_loop = False
        t = time.perf_counter()
        same += slow.act(s) == a
        valued.append(time.perf_counter() - t)
    fast, slow_ms = np.median(looped) * 1000, np.median(valued) * 1000
    return (f"rollout bot: {fast:.1f} ms median a decision in the compiled loop, {slow_ms:.1f} ms valued by evaluate "
            f"({slow_ms / fast:.1f}x); the same action in {same}/{len(states)} decisions")


def hands_reviewed(n: int, seed: int, policy: str, samples: int) -> str:
    times, errors = [], []
    for h in range(n):
        s = game.new_game(DEFAULT, seed * 7919 + h)
        bots = (StrongBot(0), ExpertBot(h))
        while s.phase in DECISIONS:
            s = game.apply(s, bots[s.to_play].act(s))
        t = time.perf_counter()
        r = review(s, 0, seed=h, samples=samples, policy=policy)
        times.append(time.perf_counter() - t)
        errors += [d.loss_se for d in r.decisions if d.loss > 0]
    e = np.array(errors or [0.0])
    return (f"review, policy {policy}, samples {samples}: {np.median(times):.2f} s median, {max(times):.2f} s most "
            f"a hand; reported losses' errors: median {np.median(e):.2f}, p90 {np.percentile(e, 90):.2f}, "
            f"{np.mean(e <= 0.5):.0%} ≤ 0.5")


def endgames(n: int, seed: int) -> str:
    """Late decisions with few enough worlds to enumerate: sampled (800 worlds) against exact."""
    within, total, found, g = 0, 0, 0, 0
    while found < n:
        s = game.new_game(DEFAULT, seed * 31 + g)
        bots = (StrongBot(0), ExpertBot(g))
        g += 1
        while s.phase in DECISIONS:
            if len(game.legal_actions(s)) > 1 and worlds.count(s) <= 3000 and len(s.stock) <= 6:
                exact = evaluation.evaluate(s, exact=True)
                sampled = evaluation.evaluate(s, samples=800, seed=g, exact=False)
                for o in sampled.options:
                    if o.worlds >= 100:
                        total += 1
                        within += abs(o.value - exact.of(o.action).value) <= 2 * o.se + 1e-9
                found += 1
                break
            s = game.apply(s, bots[s.to_play].act(s))
    return (f"rollouts against exact enumeration: {within}/{total} options ({within / max(total, 1):.1%}) within 2 "
            f"standard errors, over {found} endgames")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--positions", type=int, default=60)
    p.add_argument("--hands", type=int, default=10)
    p.add_argument("--endgames", type=int, default=40)
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args()
    states = positions(args.positions, args.seed)
    print(rollout_bot_speed(states), flush=True)
    for policy in ("greedy", "strong"):
        print(speed(states, policy), flush=True)
        print(speed(states, policy, budget_ms=100), flush=True)
    for policy, samples in (("greedy", 4096), ("greedy", 1024), ("strong", 256)):
        print(hands_reviewed(args.hands, args.seed, policy, samples), flush=True)
    print(endgames(args.endgames, args.seed), flush=True)


if __name__ == "__main__":
    main()
