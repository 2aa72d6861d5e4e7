"""rummylab's gin bots against OpenSpiel's simple gin bot, under OpenSpiel's rules (one hand;
gin 25, undercut 25, knock at 10), seats swapped every hand: hands won and points per hand
with 95% confidence intervals. Needs pyspiel (`pip install open-spiel`; never a dependency).

    python benchmarks/bot_strength.py [--hands 10000] [--seed 1]
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from rummylab.gin import openspiel


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--hands", type=int, default=10_000)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--bots", default="greedy,strong,random")
    args = p.parse_args()
    print(f"against OpenSpiel's simple gin bot, {args.hands:,} hands each, seats swapped; target: strong's "
          "points per hand above zero (95% CI)")
    for name in args.bots.split(","):
        t = time.perf_counter()
        df = openspiel.bot_strength(name, args.hands, seed=args.seed)
        points = df["points"].to_numpy()
        won = (points > 0).astype(float)
        half = 1.96 * points.std(ddof=1) / np.sqrt(len(points))
        won_half = 1.96 * won.std(ddof=1) / np.sqrt(len(won))
        print(f"{name:>7}: points per hand {points.mean():+.2f} ± {half:.2f}, hands won {won.mean():.1%} ± "
              f"{won_half:.1%}, lost {(points < 0).mean():.1%}  [{len(points) / (time.perf_counter() - t):,.0f} "
              "hands/s]")


if __name__ == "__main__":
    main()
