"""Pool rummy standings: elimination at the pool limit, and re-joining (docs/rules.md)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from .rules import DEFAULT, Rules

POOLS = (101, 201)
REJOIN_MAX = {101: 79, 201: 174}
"""A player may re-join only while no remaining player is above this score."""


@dataclass(frozen=True)
class PoolStatus:
    player: str
    score: int
    pool: int
    eliminated: bool
    """The score reached the pool limit (or passed it, with ``elimination="exceed"``)."""
    can_rejoin: bool
    """Eliminated, more than two players at the table, and no remaining player above the
    re-join limit."""
    rejoin_score: int | None
    """The score a re-joining player takes: the highest remaining score + 1 (rummylab's choice)."""


def pool_status(scores: Mapping[str, int], pool: int = 101, player: str = "A", rules: Rules = DEFAULT) -> PoolStatus:
    """Where a player stands in a 101 or 201 pool, given every player's total (re-joins made so
    far are not known here: see ``Rules.max_rejoins`` in a game)."""
    if pool not in POOLS:
        raise ValueError(f"pool={pool!r}: 101 or 201")
    if player not in scores:
        raise ValueError(f"player {player!r} is not in the scores ({', '.join(map(str, scores))})")
    for name, v in scores.items():
        if isinstance(v, bool) or not isinstance(v, int) or v < 0:
            raise ValueError(f"score of {name!r} is {v!r}: a whole number >= 0")
    score = scores[player]
    eliminated = rules.eliminated(score, pool)
    remaining = [v for name, v in scores.items() if name != player and not rules.eliminated(v, pool)]
    can_rejoin = eliminated and len(scores) > 2 and len(remaining) >= 1 and max(remaining) <= REJOIN_MAX[pool]
    return PoolStatus(player=player, score=score, pool=pool, eliminated=eliminated, can_rejoin=can_rejoin,
                      rejoin_score=max(remaining) + 1 if can_rejoin else None)
