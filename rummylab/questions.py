"""Questions analysts ask about gin play, each answered by one call (a polars table with standard
errors) and one chart.

Hands of one game are not independent (the scores steer the bots), so every standard error here
treats the game as the unit: a ratio estimator over games, with its delta-method variance.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

import numpy as np
import polars as pl

from .cards import SeedLike, rng_from
from .gin import bots as gin_bots
from .gin.rules import DEFAULT, Rules
from .simulation import check_count

ENDINGS = {"knock": ("knock", "undercut"), "gin": ("gin", "big_gin"), "dead": ("dead",)}
"""How a hand ends, as the questions group HandRecord kinds."""

Z95 = 1.959963984540054


def ratio_estimate(totals: np.ndarray, sizes: np.ndarray) -> tuple[float, float]:
    """(estimate, standard error) of sum(totals) / sum(sizes), games as the sampling unit."""
    totals, sizes = np.asarray(totals, dtype=float), np.asarray(sizes, dtype=float)
    g = len(sizes)
    if g == 0 or sizes.sum() == 0:
        return float("nan"), float("nan")
    p = totals.sum() / sizes.sum()
    if g < 2:
        return float(p), float("nan")
    resid = (totals - p * sizes) / sizes.mean()
    return float(p), float(np.sqrt((resid**2).sum() / (g * (g - 1))))


def _per_game(df: pl.DataFrame, value: pl.Expr) -> tuple[np.ndarray, np.ndarray]:
    g = df.group_by("game").agg(total=value.sum(), size=pl.len())
    return g["total"].to_numpy(), g["size"].to_numpy()


def hand_endings(bots: Sequence[str] = ("greedy", "greedy"), rules: Rules = DEFAULT, n_games: int = 2_000,
                 seed: SeedLike = 0, **simulate: Any) -> pl.DataFrame:
    """When hands end: for each turn k, the share of hands over by turn k by a knock (undercuts
    included), by gin (big gin included), as dead hands, and in all, each with its SE."""
    df = gin_bots.simulate(n_games, bots, rules, seed, **simulate)
    last = int(df["turns"].max() or 0)
    rows = []
    for k in range(1, last + 1):
        row: dict[str, Any] = {"turn": k}
        for name, kinds in {**ENDINGS, "ended": tuple(k for ks in ENDINGS.values() for k in ks)}.items():
            est, se = ratio_estimate(*_per_game(df, (pl.col("kind").is_in(kinds) & (pl.col("turns") <= k))
                                                .cast(pl.Int64)))
            row[f"p_{name}"], row[f"se_{name}"] = est, se
        rows.append(row)
    return pl.DataFrame(rows).with_columns(bots=pl.lit(" vs ".join(bots)), hands=pl.lit(df.height),
                                           games=pl.lit(n_games))


def chart_hand_endings(table: pl.DataFrame) -> Any:
    """P(the hand is over by turn k), one line per ending, a band of ±2 SE."""
    import altair as alt

    long = pl.concat([table.select("turn", p=pl.col(f"p_{e}"), se=pl.col(f"se_{e}"), ending=pl.lit(e))
                      for e in (*ENDINGS, "ended")])
    long = long.with_columns(lo=pl.col("p") - 2 * pl.col("se"), hi=pl.col("p") + 2 * pl.col("se"))
    base = alt.Chart(long).encode(
        x=alt.X("turn:Q", title="turn"), color=alt.Color("ending:N", title="ended by"))
    line = base.mark_line().encode(y=alt.Y("p:Q", title="share of hands over by this turn",
                                           axis=alt.Axis(format="%")))
    band = base.mark_area(opacity=0.25).encode(y="lo:Q", y2="hi:Q")
    return (band + line).properties(title=f"When do hands end? {table['bots'][0]}, {table['hands'][0]:,} hands",
                                    width=420, height=260)


def pairing_results(pairs: Sequence[tuple[str, str]] = (("strong", "greedy"), ("greedy", "random")),
                    rules: Rules = DEFAULT, n_games: int = 2_000, seed: SeedLike = 0,
                    **simulate: Any) -> pl.DataFrame:
    """Each pairing, seats alternated (half the games each way): the first bot's share of games
    won, of hands won, and its net points per hand, each with a 95% confidence interval."""
    check_count("n_games", n_games)
    rng = rng_from(seed)
    rows = []
    for first, second in pairs:
        half = max(1, n_games // 2)
        a = gin_bots.simulate(half, (first, second), rules, int(rng.integers(2**31)), **simulate)
        b = gin_bots.simulate(half, (second, first), rules, int(rng.integers(2**31)), **simulate)
        df = pl.concat([a.with_columns(seat=pl.lit(0)), b.with_columns(seat=pl.lit(1), game=pl.col("game") + half)])
        df = df.with_columns(
            won=(pl.col("winner") == pl.col("seat")).fill_null(False).cast(pl.Int64),
            net=pl.when(pl.col("winner") == pl.col("seat")).then(pl.col("points"))
            .when(pl.col("winner") == 1 - pl.col("seat")).then(-pl.col("points")).otherwise(0))
        per_game = df.group_by("game").agg(pl.col("net").sum())
        games_won = (per_game["net"] > 0).to_numpy().astype(float)
        hands_won, hands_se = ratio_estimate(*_per_game(df, pl.col("won")))
        points, points_se = ratio_estimate(*_per_game(df, pl.col("net")))
        g_se = float(games_won.std(ddof=1) / np.sqrt(len(games_won))) if len(games_won) > 1 else float("nan")
        rows.append({"first": first, "second": second, "games": per_game.height, "hands": df.height,
                     "games_won": float(games_won.mean()), "games_won_se": g_se,
                     "hands_won": hands_won, "hands_won_se": hands_se,
                     "points_per_hand": points, "points_per_hand_se": points_se})
    out = pl.DataFrame(rows)
    return out.with_columns(points_lo=pl.col("points_per_hand") - Z95 * pl.col("points_per_hand_se"),
                            points_hi=pl.col("points_per_hand") + Z95 * pl.col("points_per_hand_se"))


def chart_pairings(table: pl.DataFrame, by: str = "pairing") -> Any:
    """Net points per hand of the first bot, with 95% intervals (one row per pairing or value)."""
    import altair as alt

    if by == "pairing":
        table = table.with_columns(pairing=pl.col("first") + " vs " + pl.col("second"))
    table = table.with_columns(pl.col(by).cast(pl.Utf8))
    base = alt.Chart(table).encode(y=alt.Y(f"{by}:N", title=by.replace("_", " ")))
    bars = base.mark_rule(strokeWidth=2).encode(x=alt.X("points_lo:Q", title="net points per hand (95% CI)"),
                                                x2="points_hi:Q")
    dots = base.mark_point(filled=True, size=60).encode(x="points_per_hand:Q")
    zero = alt.Chart(pl.DataFrame({"x": [0]})).mark_rule(strokeDash=[4, 4], color="gray").encode(x="x:Q")
    return (zero + bars + dots).properties(width=420, height=40 * table.height + 20)


def rule_effect(option: str, values: Sequence[Any], pair: tuple[str, str] = ("strong", "greedy"),
                rules: Rules = DEFAULT, n_games: int = 2_000, seed: SeedLike = 0, **simulate: Any) -> pl.DataFrame:
    """How one rule option (``undercut_bonus``, ``big_gin_bonus``, ``knock_limit``, …) changes a
    pairing's results: ``pairing_results`` under each value, same seeds for every value."""
    fields = {f.name for f in dataclasses.fields(Rules)}
    if option not in fields:
        raise ValueError(f"unknown rule option {option!r}: one of {', '.join(sorted(fields))}")
    if not values:
        raise ValueError("values: give at least one value of the option")
    start = int(rng_from(seed).integers(2**31))
    parts = [pairing_results([pair], dataclasses.replace(rules, **{option: v}), n_games, start, **simulate)
             .with_columns(pl.lit(str(v)).alias(option)) for v in values]
    return pl.concat(parts)
