"""Questions analysts ask about play (gin, and how Indian rummy deals end), each answered by one
call (a polars table with standard errors) and one chart.

Hands of one game are not independent (the scores steer the bots), so every standard error here
treats the game as the unit: a ratio estimator over games, with its delta-method variance.
"""

from __future__ import annotations

import dataclasses
import importlib
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    import polars as pl
else:
    class _Polars:
        """polars, imported when first used: a lesson's kernel that imports this module for
        ``pairing`` (numpy only) holds none of it (about 40 MB)."""

        def __getattr__(self, name: str) -> Any:
            return getattr(importlib.import_module("polars"), name)

    pl = _Polars()

from .cards import SeedLike, rng_from
from .charts import channel, figure
from .charts.svg import rows
from .gin import bots as gin_bots
from .gin.rules import DEFAULT, Rules
from .i18n import NP_, _, pgettext
from .sim import check_count

ENDINGS = {"knock": ("knock", "undercut", "tie"), "gin": ("gin", "big_gin"), "dead": ("dead",)}
SHOWN = {"knock": NP_("chart label", "knock"), "gin": NP_("chart label", "gin"), "dead": NP_("chart label", "dead"),
         "ended": NP_("chart label", "ended"), "valid show": NP_("chart label", "valid show"),
         "wrong show": NP_("chart label", "wrong show"), "drop": NP_("chart label", "drop"),
         "left": NP_("chart label", "left"), "non-dealer": NP_("chart label", "non-dealer"),
         "dealer": NP_("chart label", "dealer"), "take": NP_("chart label", "take"),
         "greedy": NP_("chart label", "greedy"), "pass": NP_("chart label", "pass")}
"""The words the charts draw for their data's categories (an ending, a role, a policy), shown in the
language in use; the tables keep the English values."""


def _shown(values: list[dict[str, Any]], *columns: str) -> list[dict[str, Any]]:
    """A chart's rows with ``columns``' category words in the language in use."""
    return [{**r, **{c: pgettext("chart label", SHOWN[r[c]]) if r[c] in SHOWN else r[c] for c in columns}}
            for r in values]
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
    long = pl.concat([table.select("turn", p=pl.col(f"p_{e}"), se=pl.col(f"se_{e}"), ending=pl.lit(e))
                      for e in (*ENDINGS, "ended")])
    long = long.with_columns(lo=pl.col("p") - 2 * pl.col("se"), hi=pl.col("p") + 2 * pl.col("se"))
    x, color = channel("turn", title=_("turn")), channel("ending", "N", title=_("ended by"))
    share = _("share of hands over by this turn")
    line = {"mark": "line", "encoding": {"x": x, "color": color, "y": channel("p", title=share, axis={"format": "%"})}}
    band = {"mark": {"type": "area", "opacity": 0.25},
            "encoding": {"x": x, "color": color, "y": channel("lo", title=share), "y2": {"field": "hi"}}}
    title = _("When do hands end? {bots}, {hands} hands").format(bots=table["bots"][0], hands=f"{table['hands'][0]:,}")
    return figure({"title": title, "width": 420, "height": 260, "data": {"values": _shown(rows(long), "ending")},
                   "layer": [band, line]})


def _seat_results(first: Any, second: Any, rules: Rules, half: int, seeds: tuple[int, int],
                  simulate: dict[str, Any]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Both seatings' hands (``half`` games each): each hand's game (numbered across both), whether
    the first bot won it, and its net points for the first bot."""
    from .gin.loop import HAND_COLUMNS
    from .gin.simulation import FAMILY
    from .sim.driver import play_rows

    game, won, net = [], [], []
    for seat, bots, seed in ((0, (first, second), seeds[0]), (1, (second, first), seeds[1])):
        hands = play_rows(FAMILY, half, bots, rules, seed, **simulate)[1][0]
        winner, points = hands[:, HAND_COLUMNS.index("winner")], hands[:, HAND_COLUMNS.index("points")]
        game.append(hands[:, HAND_COLUMNS.index("game")] + seat * half)
        won.append((winner == seat).astype(np.int64))
        net.append(np.where(winner == seat, points, np.where(winner == 1 - seat, -points, 0)))
    return np.concatenate(game), np.concatenate(won), np.concatenate(net)


def pairing(first: Any, second: Any, rules: Rules = DEFAULT, n_games: int = 2_000, seed: SeedLike = 0,
            **simulate: Any) -> dict[str, Any]:
    """One pairing as ``pairing_results`` reports it, as a dict (numpy only: no polars): the first
    bot's share of games won, of hands won, its net points per hand, the standard errors, and the
    95% interval of the points."""
    check_count("n_games", n_games)
    rng = rng_from(seed)
    return _pairing(first, second, rules, max(1, n_games // 2),
                    (int(rng.integers(2**31)), int(rng.integers(2**31))), dict(simulate))


def _pairing(first: Any, second: Any, rules: Rules, half: int, seeds: tuple[int, int],
             simulate: dict[str, Any]) -> dict[str, Any]:
    game, won, net = _seat_results(first, second, rules, half, seeds, simulate)
    games = 2 * half
    sizes = np.bincount(game, minlength=games)
    per_game = np.bincount(game, weights=net, minlength=games)
    games_won = (per_game > 0).astype(float)
    hands_won, hands_se = ratio_estimate(np.bincount(game, weights=won, minlength=games), sizes)
    points, points_se = ratio_estimate(per_game, sizes)
    g_se = float(games_won.std(ddof=1) / np.sqrt(games)) if games > 1 else float("nan")
    return {"first": _label(first), "second": _label(second), "games": games, "hands": int(len(game)),
            "games_won": float(games_won.mean()), "games_won_se": g_se, "hands_won": hands_won,
            "hands_won_se": hands_se, "points_per_hand": points, "points_per_hand_se": points_se,
            "points_lo": points - Z95 * points_se, "points_hi": points + Z95 * points_se}


def pairing_results(pairs: Sequence[tuple[Any, Any]] = (("strong", "greedy"), ("greedy", "random")),
                    rules: Rules = DEFAULT, n_games: int = 2_000, seed: SeedLike = 0,
                    **simulate: Any) -> pl.DataFrame:
    """Each pairing (bot names, or greedy and strong bots with options), seats alternated (half
    the games each way): the first bot's share of games won, of hands won, and its net points per
    hand, with standard errors and the 95% interval of the points (``pairing``, a row each)."""
    check_count("n_games", n_games)
    rng = rng_from(seed)
    half = max(1, n_games // 2)
    return pl.DataFrame([_pairing(first, second, rules, half, (int(rng.integers(2**31)), int(rng.integers(2**31))),
                                  dict(simulate)) for first, second in pairs])


def chart_pairings(table: pl.DataFrame, by: str = "pairing") -> Any:
    """Net points per hand of the first bot, with 95% intervals (one row per pairing or value)."""
    if by == "pairing":
        table = table.with_columns(pairing=pl.col("first") + _(" vs ") + pl.col("second"))
    table = table.with_columns(pl.col(by).cast(pl.Utf8))
    y = channel(by, "N", title=_("pairing") if by == "pairing" else by.replace("_", " "))
    net = _("net points per hand (95% CI)")
    bars = {"mark": {"type": "rule", "strokeWidth": 2}, "encoding": {
        "y": y, "x": channel("points_lo", title=net), "x2": {"field": "points_hi"}}}
    dots = {"mark": {"type": "point", "filled": True, "size": 60},
            "encoding": {"y": y, "x": channel("points_per_hand", title=net)}}
    zero = {"data": {"values": [{"x": 0}]}, "mark": {"type": "rule", "strokeDash": [4, 4], "color": "gray"},
            "encoding": {"x": channel("x", title=net)}}
    return figure({"width": 420, "height": 40 * table.height + 20,
                   "data": {"values": rows(table, [by, "points_lo", "points_hi", "points_per_hand"])},
                   "layer": [zero, bars, dots]})


def _label(bot: Any) -> str:
    if isinstance(bot, str):
        return bot
    opts = [f"knock_at={bot.knock_at}"] if getattr(bot, "knock_at", None) is not None else []
    if getattr(bot, "first_upcard", "greedy") != "greedy":
        opts.append(f"first_upcard={bot.first_upcard}")
    if getattr(bot, "takes", "lowers") != "lowers":
        opts.append(f"takes={bot.takes}")
    return f"{bot.name}({', '.join(opts)})" if opts else str(bot.name)


def knock_thresholds(thresholds: Sequence[int] = (0, 2, 4, 6, 8, 10), opponent: Any = "greedy",
                     rules: Rules = DEFAULT, n_games: int = 2_000, seed: SeedLike = 0, *, bot: str = "greedy",
                     **simulate: Any) -> pl.DataFrame:
    """A bot that knocks only at ``knock_at`` deadwood or less, for each threshold, against
    ``opponent``: ``pairing_results`` per threshold (same seeds for every threshold)."""
    if bot not in ("greedy", "strong"):
        raise ValueError(f"bot={bot!r}: 'greedy' or 'strong' (the bots with a knocking threshold)")
    if not thresholds:
        raise ValueError("thresholds: give at least one knocking threshold")
    start = int(rng_from(seed).integers(2**31))
    parts = [pairing_results([(gin_bots.BOTS[bot](0, knock_at=t), opponent)],  # type: ignore[call-arg]
                             rules, n_games, start, **simulate).with_columns(knock_at=pl.lit(t))
             for t in thresholds]
    return pl.concat(parts)


def rule_effect(option: str, values: Sequence[Any], thresholds: Sequence[int] = (0, 2, 4, 6, 8, 10),
                opponent: Any = "greedy", rules: Rules = DEFAULT, n_games: int = 2_000, seed: SeedLike = 0,
                **simulate: Any) -> pl.DataFrame:
    """How one rule option (``undercut_bonus``, ``big_gin_bonus``, ``knock_limit``, …) changes the
    results of each knocking threshold: ``knock_thresholds`` under each value of the option."""
    fields = {f.name for f in dataclasses.fields(Rules)}
    if option not in fields:
        raise ValueError(f"unknown rule option {option!r}: one of {', '.join(sorted(fields))}")
    if not values:
        raise ValueError("values: give at least one value of the option")
    variants = [dataclasses.replace(rules, **{option: v}) for v in values]  # a bad value is refused here
    start = int(rng_from(seed).integers(2**31))
    return pl.concat([knock_thresholds(thresholds, opponent, r, n_games, start, **simulate)
                      .with_columns(pl.lit(str(v)).alias(option)) for r, v in zip(variants, values, strict=True)])


def chart_thresholds(table: pl.DataFrame, by: str | None = None, by_title: str | None = None) -> Any:
    """Net points per hand against the knocking threshold, with 95% intervals; one line per
    value of the rule option ``by`` (a column of ``rule_effect``; ``by_title``: its name in the
    legend, default the option's name)."""
    color = channel(by, "N", title=by_title or by.replace("_", " ")) if by else {"value": "steelblue"}
    x = channel("knock_at", "O", title=_("knock at this deadwood or less"))
    net = _("net points per hand")
    line = {"mark": {"type": "line", "point": True}, "encoding": {
        "x": x, "color": color, "y": channel("points_per_hand", title=net)}}
    bars = {"mark": "errorbar", "encoding": {"x": x, "color": color, "y": channel(
        "points_lo", title=net), "y2": {"field": "points_hi"}}}
    columns = ["knock_at", "points_per_hand", "points_lo", "points_hi", *([by] if by else [])]
    title = _("Which knocking threshold pays? against {opponent}").format(opponent=table["second"][0])
    return figure({"title": title, "width": 420,
                   "height": 260, "data": {"values": rows(table, columns)}, "layer": [bars, line]})


def first_upcard_value(rules: Rules = DEFAULT, n_games: int = 4_000, seed: SeedLike = 0, opponent: Any = "greedy",
                       **simulate: Any) -> pl.DataFrame:
    """What the first upcard is worth: the first hand of each game played three times on the same
    deal, by a greedy player who always takes the first upcard, who decides greedily, and who
    always passes; the net points of each policy over passing, per role (the non-dealer decides
    first, the dealer second), with standard errors of the paired differences."""
    check_count("n_games", n_games)
    start = int(rng_from(seed).integers(2**31))
    # only the first hand counts: a game to 1 point ends with it (its scores start at 0, so no
    # bot plays it differently), and the hands after it are never played
    first_hand = dataclasses.replace(rules, target=1)
    nets = {}
    for policy in ("take", "greedy", "pass"):
        df = gin_bots.simulate(n_games, (gin_bots.GreedyBot(first_upcard=policy), opponent), first_hand, start,
                               **simulate).filter(pl.col("hand") == 0)
        nets[policy] = df.select("game", role=pl.when(pl.col("dealer") == 1).then(pl.lit("non-dealer"))
                                 .otherwise(pl.lit("dealer")),
                                 net=pl.when(pl.col("winner") == 0).then(pl.col("points"))
                                 .when(pl.col("winner") == 1).then(-pl.col("points")).otherwise(0))
    rows = []
    for policy in ("take", "greedy"):
        both = nets[policy].join(nets["pass"].select("game", pass_net="net"), on="game")
        for role in ("non-dealer", "dealer"):
            diff = both.filter(pl.col("role") == role).select(pl.col("net") - pl.col("pass_net")).to_series()
            n = diff.len()
            se = float(diff.std() / np.sqrt(n)) if n > 1 else float("nan")  # type: ignore[operator]
            rows.append({"role": role, "policy": policy, "games": n, "value": float(diff.mean() or 0.0),
                         "se": se, "opponent": _label(opponent)})
    return pl.DataFrame(rows).with_columns(lo=pl.col("value") - Z95 * pl.col("se"),
                                           hi=pl.col("value") + Z95 * pl.col("se"))


def chart_first_upcard(table: pl.DataFrame) -> Any:
    """Points the first upcard policy gains over always passing, per role, with 95% intervals."""
    base = {"y": channel("policy", "N", title=None), "color": channel("role", "N", title=_("role")),
            "yOffset": channel("role", "N")}
    over = _("net points over passing (first hand, 95% CI)")
    dots = {"mark": {"type": "point", "filled": True, "size": 60}, "encoding": {
        **base, "x": channel("value", title=over)}}
    bars = {"mark": {"type": "rule", "strokeWidth": 2}, "encoding": {
        **base, "x": channel("lo", title=over), "x2": {"field": "hi"}}}
    title = _("What is the first upcard worth? Against {opponent}").format(opponent=table["opponent"][0])
    values = _shown(rows(table, ["policy", "role", "value", "lo", "hi"]), "policy", "role")
    return figure({"title": title, "width": 420, "height": 120, "data": {"values": values}, "layer": [bars, dots]})


def deal_endings(players: int = 2, n_games: int = 100, seed: int = 0, *, pool: int | None = 101,
                 bots: Sequence[str] | None = None, rules: Any = None) -> pl.DataFrame:
    """Indian rummy: how deals end (a valid show, a wrong show, a drop, or the other players
    leaving), as shares of deals with game-clustered standard errors. The games are those of
    ``rummylab.indian.simulate`` with the same arguments."""
    from .indian import game as indian
    from .indian import simulation as indian_sim

    rules = indian.DEFAULT if rules is None else rules
    table = tuple(bots or ("greedy",) * players)
    if len(table) != players:
        raise ValueError(f"{len(table)} bots for {players} players")
    deal_rows = indian_sim.play_rows(n_games, table, rules, seed, pool=pool)[1]
    df = pl.DataFrame({"game": deal_rows[:, 0], "ending": [indian_sim.ENDINGS[e] for e in deal_rows[:, 3].tolist()]},
                      schema={"game": pl.Int64, "ending": pl.Utf8})
    out = []
    for ending in indian_sim.ENDINGS:
        est, se = ratio_estimate(*_per_game(df, (pl.col("ending") == ending).cast(pl.Int64)))
        out.append({"ending": ending, "share": est, "se": se})
    return pl.DataFrame(out).with_columns(deals=pl.lit(df.height), games=pl.lit(n_games))


def chart_deal_endings(table: pl.DataFrame) -> Any:
    """How Indian rummy deals end: shares with 95% intervals."""
    table = table.with_columns(lo=(pl.col("share") - Z95 * pl.col("se")).clip(0, 1),
                               hi=(pl.col("share") + Z95 * pl.col("se")).clip(0, 1))
    values = _shown(rows(table, ["ending", "share", "lo", "hi"]), "ending")
    y = channel("ending", "N", sort=[v["ending"] for v in values], title=None)
    share = _("share of deals")
    x = channel("share", title=share, axis={"format": "%"})
    bars = {"mark": "bar", "encoding": {"y": y, "x": x}}
    rules_ = {"mark": "rule", "encoding": {"y": y, "x": channel("lo", title=share, axis={"format": "%"}),
                                           "x2": {"field": "hi"}}}
    title = _("How do deals end? {deals} deals").format(deals=f"{table['deals'][0]:,}")
    return figure({"title": title, "width": 420, "height": 120, "data": {"values": values}, "layer": [bars, rules_]})
