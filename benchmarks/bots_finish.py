"""Bots always finish: 10,000 games of every bot pairing of every family, to the end, on a
local Dask cluster (the planner's pairings, about a minute on two cores, are the ones make test
plays fewer of).

    python benchmarks/bots_finish.py [--games 10000] [--workers 2] [--only planner]
"""

from __future__ import annotations

import argparse
import itertools
import time

from rummylab.gin import bots as gin_bots
from rummylab.gin import three_handed
from rummylab.indian import bots as indian_bots
from rummylab.three_thirteen import bots as tt_bots


def tables() -> list[tuple[str, tuple[str, ...], object]]:
    """(family, bots, play(n, scheduler address) -> games finished)."""
    out: list[tuple[str, tuple[str, ...], object]] = []
    for pair in itertools.combinations_with_replacement(["random", "greedy", "strong"], 2):
        out.append(("gin", pair, lambda n, w, p=pair: gin_bots.simulate(n, p, seed=17, scheduler=w)["game"].n_unique()))
    for trio in [("greedy",) * 3, ("strong",) * 3, ("random",) * 3, ("random", "greedy", "strong")]:
        out.append(("gin_three_handed", trio, lambda n, w, p=trio: three_handed.simulate(
            n, p, seed=18, scheduler=w)["game"].n_unique()))
    for pair in itertools.combinations_with_replacement(["greedy", "planner"], 2):
        out.append(("three_thirteen", pair, lambda n, w, p=pair: tt_bots.simulate(
            n, p, seed=19, scheduler=w)["game"].n_unique()))
    for pair, pool in [(("greedy", "greedy"), None), (("greedy", "random"), None), (("random", "random"), 101),
                       (("greedy",) * 6, None)]:
        out.append(("indian", pair, lambda n, w, p=pair, q=pool: len(indian_bots.play_rows(
            n, p, seed=20, scheduler=w, pool=q)[0])))
    return out


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--games", type=int, default=10_000)
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--only", default=None, help="only tables with this bot")
    args = p.parse_args()
    from distributed import LocalCluster

    with LocalCluster(n_workers=args.workers, threads_per_worker=1, host="127.0.0.1", dashboard_address=None,
                      processes=True) as cluster:
        for family, bots, play in tables():
            if args.only and args.only not in bots:
                continue
            t = time.perf_counter()
            finished = play(args.games, cluster.scheduler_address)  # type: ignore[operator]
            print(f"{family:16s} {' vs '.join(bots):32s} {finished:,} of {args.games:,} games finished "
                  f"in {time.perf_counter() - t:.0f} s")


if __name__ == "__main__":
    main()
