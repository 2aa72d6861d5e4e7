"""Indian rummy: deals per second on one core (the compiled loop, and the Python engine playing
the same games), and how deals end for each table.

    python benchmarks/indian_games.py [--games 2000]
"""

from __future__ import annotations

import argparse
import time
from unittest import mock

from rummylab.indian import simulation

TABLES = [  # (bots, pool, deals): pool rummy 101 or 201, points rummy (None), deals rummy
    (("greedy", "greedy"), 101, None),
    (("greedy", "greedy"), None, None),
    (("greedy", "random"), 101, None),
    (("greedy",) * 4, 101, None),
    (("greedy",) * 6, 201, None),
    (("random", "random"), 101, None),
    (("greedy",) * 3, None, 3),
]


def deals_per_second(names: tuple[str, ...], pool: int | None, deals: int | None, n: int) -> tuple[float, list]:
    t = time.perf_counter()
    _, deal_rows, _ = simulation.play_rows(n, names, seed=1, pool=pool, deals=deals)
    took = time.perf_counter() - t
    return len(deal_rows) / took, deal_rows[:, 3].tolist()


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--games", type=int, default=2000)
    args = p.parse_args()
    deals_per_second(("greedy", "greedy"), 101, None, 5)  # warm up
    print("target: >= 5,000 deals/s on one core")
    for names, pool, deals in TABLES:
        n = args.games // (len(names) // 2 if len(names) > 2 else 1)
        fast, endings = deals_per_second(names, pool, deals, n)
        with mock.patch.object(simulation, "play_loops", lambda: None):
            engine, _ = deals_per_second(names, pool, deals, max(4, n // 50))
        shares = ", ".join(f"{e} {endings.count(i) / len(endings):.0%}" for i, e in enumerate(simulation.ENDINGS))
        game = f"pool {pool}" if pool else f"deals {deals}" if deals else "points"
        print(f"{' vs '.join(names)} ({game}): {fast:,.0f} deals/s; the Python engine {engine:,.0f} deals/s "
              f"({fast / engine:.0f}x); {len(endings):,} deals end: {shares}")


if __name__ == "__main__":
    main()
