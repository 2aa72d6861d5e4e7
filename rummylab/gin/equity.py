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
    dist = hand_results(rules)
    target = rules.target
    stay = sum(q for (w, p), q in dist.items() if w == "none" or p == 0)
    moves = [(w, p, q) for (w, p), q in dist.items() if w != "none" and p > 0]
    win = np.zeros((target, target, 2))
    # scores only rise: fill from the highest total down; a hand that scores nothing keeps the state
    for total in range(2 * target - 2, -1, -1):
        for a in range(max(0, total - target + 1), min(target, total + 1)):
            b = total - a
            for d in (0, 1):
                value = 0.0
                for w, p, q in moves:
                    mine = (w == "dealer") == (d == 1)  # the player deals and the dealer won, or neither
                    if mine:
                        value += q * (1.0 if a + p >= target else win[a + p, b, 1 - d])
                    else:
                        value += q * (0.0 if b + p >= target else win[a, b + p, 1 - d])
                win[a, b, d] = value / (1.0 - stay)
    return win


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

