"""Game-equity tables of two-player Indian rummy: the chance of winning a pool game from any pair
of scores (the other is eliminated first) and a deals game from any chip lead with the deals left;
and with three players or more each player's chance, the game played on from the standings
(``players_win_chance``).

Both are computed from the distribution of one deal's result (the points the loser pays; the
winner pays none), measured by the compiled loop over greedy-against-greedy deals and shipped
(``rummylab/data/indian_deal_results.json``, rebuilt by ``python -m rummylab.indian.equity``).
Deals are taken as independent of the scores and chips (greedy play does not look at them), each
player as likely to win one (the distribution is counted from both sides), and a pool player who
is eliminated as out of the game (a re-join is a new game, bought again).
"""

from __future__ import annotations

import functools
import json
from pathlib import Path

import numpy as np

from ..decisions import distribution, write_shipped
from .game import MAX_PLAYERS
from .rules import Rules

RESULTS = Path(__file__).resolve().parent.parent / "data" / "indian_deal_results.json"
"""The shipped deal-result distributions, one per set of rules."""
MEASURED_DEALS = 200_000
"""Deals the shipped distributions are measured over."""
PRESETS_MEASURED = ("DEFAULT", "BRIEF")
"""The presets whose deal results are shipped."""

Results = dict[int, float]
"""Points the loser pays -> probability."""


def rules_key(rules: Rules) -> str:
    """``rules`` as a key of the shipped distributions."""
    return repr(rules)


@functools.cache
def _shipped() -> dict[str, Results]:
    data = json.loads(RESULTS.read_text(encoding="utf-8"))
    return {entry["rules"]: distribution(entry["paid"]) for entry in data["results"]}


def has_results(rules: Rules) -> bool:
    """Whether deal results are shipped for ``rules`` (and so the tables)."""
    return rules_key(rules) in _shipped()


def deal_results(rules: Rules) -> Results:
    """The shipped distribution of the points a deal's loser pays under ``rules``; ValueError
    names rules with none."""
    if not has_results(rules):
        raise ValueError(f"no deal results are shipped for {rules_key(rules)}: measure them "
                         f"(python -m rummylab.indian.equity) or play with a preset ({', '.join(PRESETS_MEASURED)})")
    return _shipped()[rules_key(rules)]


@functools.lru_cache(maxsize=8)
def pool_table(rules: Rules, pool: int) -> np.ndarray:
    """W[a, b]: the chance that a player on ``a`` points wins a pool game against one on ``b``
    (both still in: below the first score that eliminates, ``rules.eliminated``), read only."""
    dist = deal_results(rules)
    out_at = next(v for v in range(pool + 2) if rules.eliminated(v, pool))
    top = max(dist)
    win = np.zeros((out_at + top, out_at + top))
    win[:out_at, out_at:] = 1.0  # the other is out
    for total in range(2 * out_at - 2, -1, -1):  # scores only rise: from the highest total down
        a = np.arange(max(0, total - out_at + 1), min(out_at, total + 1))
        b = total - a
        value = np.zeros(len(a))
        for x, q in dist.items():  # each player as likely to win the deal; its loser pays x
            if x:
                value += 0.5 * q * (win[a, b + x] + win[a + x, b])
        win[a, b] = value / (1.0 - dist.get(0, 0.0))  # a deal that costs nothing keeps the scores
    table = np.ascontiguousarray(win[:out_at, :out_at])
    table.flags.writeable = False  # cached: shared by every caller
    return table


def pool_win_chance(rules: Rules, pool: int, mine: int | np.ndarray, theirs: int | np.ndarray) -> float | np.ndarray:
    """The chance of winning a pool game on ``mine`` points against ``theirs`` (1 once the other is
    out, 0 once oneself is)."""
    win = pool_table(rules, pool)
    out_at = win.shape[0]
    mine, theirs = np.asarray(mine), np.asarray(theirs)
    inside = win[np.minimum(mine, out_at - 1), np.minimum(theirs, out_at - 1)]
    out = np.where(mine >= out_at, 0.0, np.where(theirs >= out_at, 1.0, inside))
    return float(out) if out.ndim == 0 else out


@functools.lru_cache(maxsize=8)
def deals_table(rules: Rules, deals: int) -> tuple[np.ndarray, int]:
    """(W, offset): W[k, d + offset] is the chance of winning a deals game with ``k`` deals left and
    a lead of ``d`` chips (the most chips wins; a tie counts half), read only."""
    dist = deal_results(rules)
    offset = 2 * max(dist) * deals
    d = np.arange(-offset, offset + 1)
    win = np.zeros((deals + 1, len(d)))
    win[0] = np.where(d > 0, 1.0, np.where(d == 0, 0.5, 0.0))
    idx = np.arange(len(d))
    for k in range(1, deals + 1):
        for x, q in dist.items():  # the winner takes the loser's x chips: the lead moves by 2x
            win[k] += 0.5 * q * (win[k - 1, np.clip(idx + 2 * x, 0, len(d) - 1)]
                                 + win[k - 1, np.clip(idx - 2 * x, 0, len(d) - 1)])
    win.flags.writeable = False
    return win, offset


def deals_win_chance(rules: Rules, deals: int, left: int, lead: int | np.ndarray) -> float | np.ndarray:
    """The chance of winning a game of ``deals`` deals with ``left`` of them still to play and a
    lead of ``lead`` chips."""
    if not 0 <= left <= deals:
        raise ValueError(f"{left} deals left of {deals}")
    win, offset = deals_table(rules, deals)
    out = win[left, np.clip(np.asarray(lead) + offset, 0, win.shape[1] - 1)]
    return float(out) if np.ndim(out) == 0 else out


LOSSES = Path(__file__).resolve().parent.parent / "data" / "indian_losses.json"
"""The shipped distributions of the points a deal's loser pays in deals of three players or more,
one per set of rules and number of players."""
PLAYERS_MEASURED = range(3, MAX_PLAYERS + 1)
"""The numbers of players whose losses are shipped (three to six: ``game.MAX_PLAYERS``)."""
PLAYER_DEALS = 40_000
"""Deals the shipped losses are measured over, for each number of players (every loser counted)."""
FUTURES = 64
"""Games played on from each world's standings by ``players_win_chance``."""
MOST_DEALS = 40
"""A pool game played on for this many deals with two players or more still in is shared by them
(``players_win_chance``: a loser pays 20 points or more in nine deals of ten, so it is all but
never reached)."""


@functools.cache
def _shipped_losses() -> dict[tuple[str, int], Results]:
    data = json.loads(LOSSES.read_text(encoding="utf-8"))
    return {(entry["rules"], int(k)): distribution(paid) for entry in data["results"]
            for k, paid in entry["players"].items()}


def losses(rules: Rules, players: int) -> Results:
    """The shipped distribution of the points a deal's loser pays in deals of ``players`` (two: the
    two-player ``deal_results``); ValueError names rules or a number of players with none."""
    if players == 2:
        return deal_results(rules)
    if (rules_key(rules), players) not in _shipped_losses():
        raise ValueError(f"no losses are shipped for {rules_key(rules)} with {players} players: measure them "
                         f"(python -m rummylab.indian.equity) or play a preset ({', '.join(PRESETS_MEASURED)}) "
                         f"with {PLAYERS_MEASURED[0]} to {PLAYERS_MEASURED[-1]} players")
    return _shipped_losses()[(rules_key(rules), players)]


def players_win_chance(rules: Rules, standings: np.ndarray, seat: int, seeds: np.ndarray, *,
                       pool: int | None = None, deals_left: int | None = None,
                       out: np.ndarray | None = None) -> np.ndarray:
    """Per row of ``standings`` (worlds x players, three players or more: pool scores, or chips in
    a deals game), the chance that ``seat`` wins the game: the game played on FUTURES times from
    each world's seed (the same futures for every option of a decision), each deal won by one of
    the players still in, alike, each of the others paying what a loser pays in deals of that many
    players (``losses``, on their own). A pool game is won by the last player in (``out``: players
    already eliminated; a re-join is not pictured), a deals game by the most chips after
    ``deals_left`` deals (a tie shared). An estimate: its error falls as the worlds add up."""
    standings = np.asarray(standings, dtype=np.int64)
    n, k = standings.shape if standings.ndim == 2 else (0, 0)
    if not 3 <= k <= MAX_PLAYERS or not 0 <= seat < k or len(seeds) != n:
        raise ValueError(f"standings of shape {standings.shape}, seat {seat}, {len(seeds)} seeds: worlds x three "
                         "to six players, a seat of them, a seed a world")
    if (pool is None) == (deals_left is None):
        raise ValueError("a pool game (pool=) or a deals game (deals_left=)")
    draws = {m: np.cumsum([q for _x, q in sorted(losses(rules, m).items())]) for m in range(2, k + 1)}
    points = {m: np.array(sorted(losses(rules, m)), dtype=np.int64) for m in range(2, k + 1)}
    deals = MOST_DEALS if pool is not None else int(deals_left)  # type: ignore[arg-type]
    gone = np.zeros((n, k), dtype=bool) if out is None else np.asarray(out, dtype=bool)
    chances = [_played_on(rules, standings[i:i + BLOCK], gone[i:i + BLOCK], seat, seeds[i:i + BLOCK], pool, deals,
                          draws, points) for i in range(0, n, BLOCK)]
    return np.concatenate(chances) if chances else np.zeros(0)


BLOCK = 32
"""Worlds ``players_win_chance`` plays on at a time (their futures' uniforms: 4.6 MB for six
players in a pool)."""


def _played_on(rules: Rules, standings: np.ndarray, out: np.ndarray, seat: int, seeds: np.ndarray, pool: int | None,
               deals: int, draws: dict[int, np.ndarray], points: dict[int, np.ndarray]) -> np.ndarray:
    """``players_win_chance`` for a block of worlds (``draws``, ``points``: each number of players'
    losses as a cumulative chance over their sorted points)."""
    k = standings.shape[1]
    uniforms = np.stack([np.random.default_rng(int(x)).random((FUTURES, max(deals, 1), k + 1)) for x in seeds])
    now = np.repeat(standings[:, None, :], FUTURES, axis=1)  # worlds x futures x players
    gone = np.repeat(out[:, None, :], FUTURES, axis=1)
    if pool is not None:
        gone |= rules.eliminated(now, pool)  # type: ignore[arg-type]  # elementwise on an array
    for d in range(deals):
        u = uniforms[:, :, d, :]
        left = (~gone).sum(axis=2)
        if pool is not None and (left <= 1).all():
            break
        # the deal's winner: the j-th player still in, j uniform
        rank = np.cumsum(~gone, axis=2) - 1
        j = np.minimum((u[..., k] * left).astype(np.int64), np.maximum(left - 1, 0))
        winner = (~gone) & (rank == j[..., None])
        paid = np.zeros_like(now)
        for m in range(2, k + 1):
            at = (left == m)[..., None] & ~gone & ~winner
            paid = np.where(at, points[m][np.minimum(np.searchsorted(draws[m], u[..., :k], side="right"),
                                                     len(points[m]) - 1)], paid)
        if pool is not None:
            now = now + paid
            gone |= rules.eliminated(now, pool)  # type: ignore[arg-type]
        else:
            now = now - paid + winner * paid.sum(axis=2, keepdims=True)
    if pool is not None:
        alive = ~gone
        share = np.where(alive[..., seat], 1.0 / np.maximum(alive.sum(axis=2), 1), 0.0)
    else:
        best = now.max(axis=2, keepdims=True)
        top = now == best
        share = np.where(top[..., seat], 1.0 / top.sum(axis=2), 0.0)
    return share.mean(axis=1)


def measure_losses(rules: Rules, players: int, deals: int = PLAYER_DEALS, seed: int = 0) -> Results:
    """The distribution of the points a deal's loser pays, over ``deals`` deals of ``players``
    greedy players (points rummy) in the compiled loop, every loser counted."""
    import polars as pl

    from .simulation import simulate

    df = simulate(deals, ("greedy",) * players, rules=rules, seed=seed, pool=None)
    paid = pl.concat([df.filter(pl.col("winner") != p).select(pl.col(f"score_{p}").alias("paid"))
                      for p in range(players)])
    return {int(x): n / paid.height for x, n in paid.group_by("paid").len().sort("paid").iter_rows()}


def measure(rules: Rules, deals: int = MEASURED_DEALS, seed: int = 0) -> Results:
    """The distribution of the points a deal's loser pays, over ``deals`` two-player deals of
    greedy against greedy (points rummy: one deal a game) in the compiled loop."""
    import polars as pl

    from .simulation import simulate

    df = simulate(deals, ("greedy", "greedy"), rules=rules, seed=seed, pool=None)
    paid = df.select(pl.max_horizontal("score_0", "score_1").alias("paid")).group_by("paid").len().sort("paid")
    return {int(x): n / deals for x, n in paid.iter_rows()}


def main() -> None:
    """Rebuild the shipped deal results and losses (a few minutes on one core)."""
    from . import rules as presets

    per = [{"preset": name, "rules": rules_key(getattr(presets, name)),
            "players": {str(k): {str(x): round(q, 8) for x, q in measure_losses(getattr(presets, name), k).items()}
                        for k in PLAYERS_MEASURED}} for name in PRESETS_MEASURED]
    write_shipped(LOSSES, "python -m rummylab.indian.equity", per, deals=PLAYER_DEALS)

    results = [{"preset": name, "rules": rules_key(getattr(presets, name)),
                "paid": {str(x): round(q, 8) for x, q in measure(getattr(presets, name)).items()}}
               for name in PRESETS_MEASURED]
    write_shipped(RESULTS, "python -m rummylab.indian.equity", results, deals=MEASURED_DEALS)


if __name__ == "__main__":
    main()
