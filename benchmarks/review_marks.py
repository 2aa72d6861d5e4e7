"""How often each bot's decisions are marked (issue 40: marks by thresholds measured on data):
games of each bot against the strong bot, reviewed for the bot's seat with ``gin.review_frame``.

    python benchmarks/review_marks.py [--games 20] [--workers 2]

Prints, per bot, the decisions reviewed, the points lost a decision, and the share marked
inaccuracy, mistake and blunder (thresholds in rummylab.gin.game_review: 3, 6 and 12 points).
"""

from __future__ import annotations

import argparse
import time

import polars as pl

from rummylab import gin


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    print("| bot (against strong) | decisions | points lost a decision | inaccuracy | mistake | blunder | s |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for bot in ("random", "greedy", "strong", "expert"):
        t = time.perf_counter()
        df = gin.review_frame(args.games, (bot, "strong"), seat=0, seed=args.seed,
                              scheduler="dask" if args.workers > 1 else None,
                              workers=args.workers if args.workers > 1 else None)
        n = df.height
        share = {m: df.filter(pl.col("mark") == m).height / n for m in ("inaccuracy", "mistake", "blunder")}
        print(f"| {bot} | {n:,} | {df['loss'].mean():.2f} | {share['inaccuracy']:.1%} | {share['mistake']:.1%} | "
              f"{share['blunder']:.1%} | {time.perf_counter() - t:.0f} |", flush=True)


if __name__ == "__main__":
    main()
