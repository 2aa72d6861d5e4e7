"""The game-equity table: the chance of winning a game to ``target`` from any pair of scores, for
the player who deals the next hand or the one who does not.

It is computed from the distribution of one hand's result (who wins it, the dealer or the other
player, and by how many points; or nobody: a dead hand, a tie that scores nothing), measured by
the compiled loop over expert-against-expert hands and shipped (``rummylab/data/gin_hand_results.csv``,
rebuilt by ``python -m rummylab.gin.hand_results``). Hands are taken as independent of the score (the
bots hardly change their play with it); a dead hand is dealt again by the same dealer, any other
hand passes the deal, as ``game`` deals.
"""

from __future__ import annotations

import csv
import functools
from pathlib import Path

import numpy as np

from .rules import Rules

RESULTS = Path(__file__).resolve().parent.parent / "data" / "gin_hand_results.csv"
"""The shipped hand-result distributions, one per set of hand rules."""
HAND_FIELDS = ("gin_bonus", "undercut_bonus", "big_gin_bonus", "undercut_on_tie", "knock_limit", "dead_hand_stock")
"""The rules a hand's result depends on (the others only say when a game ends and what it pays)."""

Results = dict[tuple[str, int], float]
"""(who wins: "dealer", "other" or "none", points) -> probability."""


def hand_key(rules: Rules) -> str:
    """The hand rules of ``rules`` as a key of the shipped distributions."""
    return ";".join(f"{name}={getattr(rules, name)}" for name in HAND_FIELDS)


@functools.cache
def _shipped() -> dict[str, Results]:
    out: dict[str, Results] = {}
    with RESULTS.open(encoding="utf-8") as f:
        for row in csv.DictReader(f):
            out.setdefault(row["hand_rules"], {})[(row["who"], int(row["points"]))] = float(row["probability"])
    for dist in out.values():  # written to 8 places: make them add up to 1 again
        total = sum(dist.values())
        for k in dist:
            dist[k] /= total
    return out


def hand_results(rules: Rules) -> Results:
    """The shipped distribution of one hand's result under ``rules``' hand rules."""
    shipped = _shipped()
    key = hand_key(rules)
    if key not in shipped:
        raise ValueError(f"no hand results are shipped for {key}: measure them (rummylab.gin.hand_results) or "
                         "add the rules to its presets")
    return shipped[key]


@functools.lru_cache(maxsize=8)
def table(rules: Rules) -> np.ndarray:
    """W[a, b, d]: the chance that a player on ``a`` points wins the game against one on ``b``
    (both below the target), d = 1 when that player deals the next hand, 0 when the other does."""
    target = rules.target
    if target > TARGET_MOST:
        raise ValueError(f"a game to {target}: game-equity tables are made for games to at most {TARGET_MOST} points")
    dist = hand_results(rules)
    stay = sum(q for (w, p), q in dist.items() if w == "none" or p == 0)
    moves = [(w, p, q) for (w, p), q in dist.items() if w != "none" and p > 0]
    top = max((p for _w, p, _q in moves), default=0)
    # padded past the target: a player who reaches it has won (rows) or lost (columns)
    win = np.zeros((target + top, target + top, 2))
    win[target:, :target] = 1.0
    # scores only rise: fill from the highest total down, a diagonal at a time; a hand that scores
    # nothing keeps the state
    for total in range(2 * target - 2, -1, -1):
        a = np.arange(max(0, total - target + 1), min(target, total + 1))
        b = total - a
        for d in (0, 1):
            value = np.zeros(len(a))
            for w, p, q in moves:  # mine: the player deals and the dealer won, or neither
                value += q * (win[a + p, b, 1 - d] if (w == "dealer") == (d == 1) else win[a, b + p, 1 - d])
            win[a, b, d] = value / (1.0 - stay)
    out = np.ascontiguousarray(win[:target, :target])
    out.flags.writeable = False  # cached: shared by every caller
    return out


POINT_SPAN = 10
"""A point's worth at a game's start is measured over the first POINT_SPAN points (``point_worth``)."""
UNITS_A_POINT = 100
"""The game's chance in whole units (``game_units``): this many to a point at a game's start."""


TARGET_MOST = 1000
"""The longest game a table is made for (the compiled loop's game units take up to this); a
three-handed game's hands are dealt as games that never end (``box_game``): no table."""


def has_results(rules: Rules) -> bool:
    """Whether a hand-result distribution is shipped for ``rules``' hand rules."""
    return hand_key(rules) in _shipped()


def has_table(rules: Rules) -> bool:
    """Whether ``rules`` have a game-equity table: their hand results are shipped and the game
    ends within TARGET_MOST points."""
    return rules.target <= TARGET_MOST and has_results(rules)


def point_worth(rules: Rules) -> float:
    """What a point is worth at a game's start: the chance the first POINT_SPAN points add, for the
    player who does not deal the next hand, over POINT_SPAN (in a game to fewer, the first points
    that win it)."""
    win = table(rules)
    span = min(POINT_SPAN, rules.target)
    after = 1.0 if span >= rules.target else float(win[span, 0, 0])
    return (after - float(win[0, 0, 0])) / span


@functools.lru_cache(maxsize=8)
def game_units(rules: Rules) -> tuple[np.ndarray, int]:
    """(the table in whole units, a won game's units): the chance of winning the game counted in
    hundredths of a point at a game's start (``UNITS_A_POINT`` over ``point_worth``), rounded to
    integers, so that a rollout's sums are exact and the compiled loop's equal these (a chance is
    units over a won game's units). The table is int32 (the loop's ``set_rollout`` takes it), read only."""
    scale = UNITS_A_POINT / point_worth(rules)
    units = np.ascontiguousarray(np.rint(table(rules) * scale).astype(np.int32))
    units.flags.writeable = False
    return units, int(round(scale))


def game_win_chance(rules: Rules, score: int, other: int, deals_next: bool) -> float:
    """The chance a player on ``score`` wins the game against one on ``other`` (1 or 0 once the
    game is over)."""
    if score >= rules.target or other >= rules.target:
        return 1.0 if score > other else 0.0
    return float(table(rules)[score, other, int(deals_next)])


def match_win_chance(rules: Rules, won: int, lost: int, game_chance: float | np.ndarray) -> float | np.ndarray:
    """The chance of winning the match (best of ``rules.match_games``) for a player who has won
    ``won`` games and lost ``lost`` and wins the current game with ``game_chance``. Every later
    game is taken as an even chance: the table gives the player who deals a game's first hand
    0.50 ± 0.01 of it."""
    need = rules.match_games // 2 + 1
    if not (0 <= won < need and 0 <= lost < need):
        raise ValueError(f"games won {won}, lost {lost}: the match (best of {rules.match_games}) is over")

    @functools.cache
    def even(a: int, b: int) -> float:
        """The chance of winning from a games won and b lost, every game even."""
        if a >= need:
            return 1.0
        if b >= need:
            return 0.0
        return 0.5 * even(a + 1, b) + 0.5 * even(a, b + 1)

    return game_chance * even(won + 1, lost) + (1 - game_chance) * even(won, lost + 1)

