"""Pool rummy standings: elimination at the pool limit, and re-joining (docs/rules.md)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from ..i18n import _, ngettext
from .rules import DEFAULT, Rules

POOLS = (101, 201)
REJOIN_MAX = {101: 79, 201: 174}
"""A player may re-join only while no remaining player is above this score."""
REJOIN_MIN_REMAINING = 2
"""A re-join needs this many players still in the pool: with the re-joiner, more than two play
(the brief); one player left has won, and nobody re-joins."""


def why_no_rejoin(pool: int | None, eliminated: bool, remaining: Sequence[int], rejoins: int, rules: Rules,
                  who: str | None = None) -> str | None:
    """The rule that stops ``who`` (words for the player, in the language in use; None: "this
    player") re-joining now, in the language in use (None: they may): pool rummy only, an
    eliminated player, at most ``max_rejoins`` times, at least two players still in the pool
    (``remaining``: their scores), none of them above the re-join limit."""
    who = who or _("this player")
    if pool is None:
        return _("only pool rummy has re-joins (points and deals rummy have none)")
    if not eliminated:
        return _("only an eliminated player re-joins: {who} is still in the pool").format(who=who)
    if rules.max_rejoins is not None and rejoins >= rules.max_rejoins:
        return ngettext("{who} has re-joined {n} time: max_rejoins={most}",
                        "{who} has re-joined {n} times: max_rejoins={most}", rejoins).format(
            who=who, n=rejoins, most=rules.max_rejoins)
    if len(remaining) < REJOIN_MIN_REMAINING:
        if len(remaining) == 1:
            return _("a re-join needs at least two players still in the pool (more than two then play); 1 left: "
                     "the game is decided")
        return _("a re-join needs at least two players still in the pool (more than two then play); {n} "
                 "left").format(n=len(remaining))
    top = max(remaining)
    if top > REJOIN_MAX[pool]:
        return _("a player still in the pool has {points} points, above {limit}: nobody may be, for a "
                 "re-join").format(points=top, limit=REJOIN_MAX[pool])
    return None


@dataclass(frozen=True)
class PoolStatus:
    player: str
    score: int
    pool: int
    eliminated: bool
    """The score reached the pool limit (or passed it, with ``elimination="exceed"``)."""
    can_rejoin: bool
    """Eliminated, at least two other players still in the pool, and none of them above the
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
    can_rejoin = why_no_rejoin(pool, eliminated, remaining, 0, rules) is None
    return PoolStatus(player=player, score=score, pool=pool, eliminated=eliminated, can_rejoin=can_rejoin,
                      rejoin_score=max(remaining) + 1 if can_rejoin else None)
