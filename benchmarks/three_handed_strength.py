"""The rollout bot in three-handed gin "in the box" (``rummylab.three_handed``): P1 played by a
bot against two others, on the same seeds as P1 played by a baseline bot, so each game is paired
with itself (the roles are drawn by chance from the seed: no seat is favoured). Prints the share of
games P1 wins with each (95 % intervals), their paired difference, and P1's points a hand.

    python benchmarks/three_handed_strength.py --games 400 --bot rollout --baseline expert --others expert

In the compiled loop, on Dask with ``--workers`` processes.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from rummylab.gin import three_handed


def p1_results(bots: tuple[str, str, str], games: int, seed: int, workers: int) -> tuple[np.ndarray, np.ndarray]:
    """Per game: whether P1 won it (the game's leader), and P1's points a hand it scored in."""
    frame = three_handed.simulate(games, bots, seed=seed, scheduler="dask" if workers > 1 else None,
                                  workers=workers if workers > 1 else None)
    won = np.zeros(games)
    points = np.zeros(games)
    played = np.zeros(games)
    for game, winner, scorer, pts, box, captain in frame.select(
            "game", "winner", "scorer", "points", "box", "captain").iter_rows():
        won[game] = winner == "P1"
        points[game] += pts if scorer == "P1" else -pts if "P1" in (box, captain) and scorer is not None else 0
        played[game] += "P1" in (box, captain)
    return won, points / np.maximum(played, 1)


def interval(x: np.ndarray) -> str:
    se = x.std(ddof=1) / np.sqrt(len(x))
    return f"{100 * x.mean():.1f} % ± {196 * se:.1f}"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=400)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--bot", default="rollout")
    ap.add_argument("--baseline", default="expert")
    ap.add_argument("--others", default="expert")
    ap.add_argument("--workers", type=int, default=2)
    args = ap.parse_args()
    results = {}
    for who in (args.bot, args.baseline):
        t = time.perf_counter()
        results[who] = p1_results((who, args.others, args.others), args.games, args.seed, args.workers)
        print(f"P1 {who} against two {args.others}: {args.games} games in {time.perf_counter() - t:.0f} s")
    (won_a, pts_a), (won_b, pts_b) = results[args.bot], results[args.baseline]
    print("| P1 | games won (1/3 is level) | P1's net points a hand it played |")
    print("|---|---:|---:|")
    for who, (won, pts) in results.items():
        print(f"| {who} | {interval(won)} | {pts.mean():+.2f} ± {1.96 * pts.std(ddof=1) / np.sqrt(len(pts)):.2f} |")
    diff = won_a - won_b
    se = diff.std(ddof=1) / np.sqrt(len(diff))
    print(f"paired by seed: {100 * diff.mean():+.1f} ± {196 * se:.1f} points of games, "
          f"{(pts_a - pts_b).mean():+.2f} points a hand")


if __name__ == "__main__":
    main()
