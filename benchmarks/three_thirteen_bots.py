"""Three Thirteen: full 11-round games per second on one core (the compiled loop, and the
Python engine playing the same games), then the planner against greedy, seats swapped.

    python benchmarks/three_thirteen_bots.py [--games 150]
"""

from __future__ import annotations

import argparse
import time
from unittest import mock

import polars as pl

from rummylab.three_thirteen import simulation
from rummylab.three_thirteen.bots import simulate


def games_per_second(names: tuple[str, ...], n: int) -> float:
    t = time.perf_counter()
    simulate(n, names, seed=1)
    return n / (time.perf_counter() - t)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--games", type=int, default=150)
    args = p.parse_args()
    simulate(2, ("greedy", "greedy"), seed=0)  # warm up
    print("target: >= 500 full 11-round games/s on one core")
    for names, n in ((("greedy", "greedy"), 20 * args.games), (("greedy",) * 4, 5 * args.games),
                     (("planner", "planner"), args.games // 2)):
        fast = games_per_second(names, n)
        with mock.patch.object(simulation, "play_loops", lambda: None):
            engine = games_per_second(names, max(4, n // 20))
        print(f"{' vs '.join(names)}: {fast:,.0f} games/s; the Python engine {engine:,.0f} games/s "
              f"({fast / engine:.0f}x)")
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
