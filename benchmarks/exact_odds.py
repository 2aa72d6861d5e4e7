"""Time the exact enumeration of every gin hand (suit symmetry + the batch kernel), print the
distribution's mean, SD, knock and gin counts, and compare it with the table rummylab ships.

    python benchmarks/exact_odds.py [--workers 2] [--eleven]
"""

from __future__ import annotations

import argparse
import time

from rummylab import odds


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--eleven", action="store_true", help="also 11 cards, after the best discard and kept whole")
    args = p.parse_args()
    runs = [(10, False)] + ([(11, True), (11, False)] if args.eleven else [])
    for n, discard in runs:
        t = time.perf_counter()
        h = odds.exact_histogram(n, discard=discard, workers=args.workers, progress=False)
        dt = time.perf_counter() - t
        s = odds.summary(h)
        label = f"{n} cards" + ((" after the best discard" if discard else " kept whole") if n == 11 else "")
        print(f"{label}: {s['hands']:,} hands in {dt:.1f} s on {args.workers} threads "
              f"({s['hands'] / dt / 1e9:.2f} G hands/s)")
        same = h.select("deadwood", "hands").equals(odds.exact_gin(n, discard=discard).select("deadwood", "hands"))
        print(f"  equals the shipped table (rummylab/data, odds.exact_gin): {'yes' if same else 'NO'}")
        print(f"  mean deadwood {s['mean']:.6f}, sd {s['sd']:.6f}; can knock {s['p_knock']:.6%}; "
              f"deadwood 0: {s['gin_hands']:,} hands ({s['p_gin']:.4e})")


if __name__ == "__main__":
    main()
