"""Gin game simulation: full hands per second (greedy vs greedy, one core) and the
win rates of each bot pair, seats alternated, over at least --hands hands each.

    python benchmarks/game_speed.py [--hands 10000] [--seed 1]
"""

from __future__ import annotations

import argparse
import time

import polars as pl

from rummylab import three_handed
from rummylab.gin import bots

PAIRS = [("greedy", "random"), ("strong", "greedy"), ("strong", "random")]


def play_until(n_hands: int, first: str, second: str, seed: int) -> tuple[pl.DataFrame, float]:
    """Games with alternating seats until n_hands hands; (rows with a 'first_won' column, seconds)."""
    frames, hands, k = [], 0, 0
    t = time.perf_counter()
    while hands < n_hands:
        seats = (first, second) if k % 2 == 0 else (second, first)
        df = bots.simulate(20, seats, seed=seed * 10_000 + k)
        first_seat = 0 if k % 2 == 0 else 1
        frames.append(df.with_columns(
            first_won=pl.col("winner") == first_seat, second_won=pl.col("winner") == 1 - first_seat,
            game=pl.col("game") + 1000 * k, first_seat=pl.lit(first_seat)))
        hands += df.height
        k += 1
    return pl.concat(frames), time.perf_counter() - t


def summarize(df: pl.DataFrame, first: str, second: str, seconds: float) -> None:
    games = df.group_by("game").agg(
        first=pl.col("points").filter(pl.col("first_won")).sum(),
        second=pl.col("points").filter(pl.col("second_won")).sum())
    gw = int((games["first"] > games["second"]).sum())
    hw, hl = int(df["first_won"].sum()), int(df["second_won"].sum())
    net = int(df.filter(pl.col("first_won"))["points"].sum() - df.filter(pl.col("second_won"))["points"].sum())
    print(f"{first} vs {second}: {df.height:,} hands, {games.height} games; {first} won "
          f"{gw / games.height:.1%} of games, {hw / df.height:.1%} of hands ({hl / df.height:.1%} lost, "
          f"{1 - (hw + hl) / df.height:.1%} dead), net {net / df.height:+.2f} points/hand  "
          f"[{df.height / seconds:,.0f} hands/s]")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--hands", type=int, default=10_000)
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args()

    bots.simulate(2, ("greedy", "greedy"), seed=0)  # warm up (kernel tables)
    t = time.perf_counter()
    rows = 0
    k = 0
    while rows < args.hands:
        rows += bots.simulate(50, ("greedy", "greedy"), seed=args.seed + k).height
        k += 1
    dt = time.perf_counter() - t
    print(f"greedy vs greedy: {rows:,} full hands in {dt:.1f} s = {rows / dt:,.0f} hands/s (one core)")

    t = time.perf_counter()
    df3 = three_handed.simulate(max(1, args.hands // 12), seed=args.seed)
    dt3 = time.perf_counter() - t
    print(f"three-handed, greedy x3: {df3.height:,} hands in {dt3:.1f} s = {df3.height / dt3:,.0f} hands/s")

    for first, second in PAIRS:
        df, seconds = play_until(args.hands, first, second, args.seed)
        summarize(df, first, second, seconds)


if __name__ == "__main__":
    main()
