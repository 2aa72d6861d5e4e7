"""Three Thirteen bots: mean penalty per round of the planner against greedy, seats swapped.

    python benchmarks/three_thirteen_bots.py [--games 150]
"""

from __future__ import annotations

import argparse
import time

import polars as pl

from rummylab.three_thirteen.bots import simulate


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--games", type=int, default=150)
    args = p.parse_args()
    t = time.perf_counter()
    rows = pl.concat([simulate(args.games, ("planner", "greedy"), seed=7),
                      simulate(args.games, ("greedy", "planner"), seed=8)])
    took = time.perf_counter() - t
    by_bot = rows.group_by("bot").agg(pl.col("penalty").mean().alias("mean"),
                                      pl.col("penalty").std().alias("sd"), pl.len().alias("n"))
    games = rows.filter(pl.col("round") == 11).group_by("bot").agg(pl.col("winner").mean().alias("won"))
    for r in by_bot.join(games, on="bot").sort("bot").iter_rows(named=True):
        print(f"{r['bot']:8s} mean penalty per round {r['mean']:.3f} (SE {r['sd'] / r['n'] ** 0.5:.3f}), "
              f"won {r['won']:.1%} of games")
    print(f"{2 * args.games} two-player games in {took:.0f} s")


if __name__ == "__main__":
    main()
