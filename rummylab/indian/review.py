"""A played Indian rummy game reviewed for one player: each decision (drop, or play on by either draw,
each discard or declaration) judged from what she knew then (``evaluate``: never the history's
hidden cards), the points it gave up with their error, a mark by the thresholds below, the reason
in words, the luck of each stock draw, and per deal an error rate and a luck-adjusted result.

The thresholds are points of the deal's expected loser points (a deal's points run to 80, a drop
costs 20 or 40): benchmarks/review_marks.py measures what share of a greedy and of a random
player's decisions each marks, and docs/evaluation.md states them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..cards import SeedLike, without
from ..decisions import Evaluation, Review, Reviewer, first_hand, marks, reviewed, walk
from ..i18n import _
from .analysis import check_declaration
from .evaluation import evaluate, option_label, valued_options
from .game import (
    DRAW_STOCK,
    DROP,
    GAME,
    RANKS,
    Action,
    Kind,
    Phase,
    State,
    history_json,
    legal_actions,
    points_of,
)
from .players import GreedyBot

MARKS = marks(inaccuracy=4.0, mistake=8.0, blunder=16.0)
"""Points lost from which a decision is marked (benchmarks/review_marks.py)."""
REVIEW_SAMPLES = 256
"""Worlds each option of a decision is played out in, by default."""


def _follows(state: State) -> Action:
    """What the rollouts' greedy player does with the card just drawn (its discard or show)."""
    return GreedyBot(0, drops=False).act(state)


def _played(state: State, action: Action, e: Evaluation) -> tuple[str, float, float]:
    """(label, value, error of its difference to the best) of the move made; a declaration is
    exact, by its groups (a valid show pays 0, a wrong one the rules' points)."""
    if action.kind is Kind.DECLARE:
        assert action.card is not None and action.groups is not None
        rest = tuple(without(state.hands[state.to_play], action.card))
        valid = check_declaration(rest, action.groups, RANKS[state.wild_rank], state.rules).valid
        value = 0.0 if valid else -float(state.rules.wrong_show_points)
        label = option_label(action) if valid else _("declare, throwing {card} (a wrong show)").format(card=action.card)
        return label, value, e.best.se
    return e.played(action)


def reason(state: State, e: Evaluation, label: str, value: float) -> str:
    """Why the best move is better, in words: what each leaves by the deal's end, and what the
    hand counts now after each discard."""
    best = e.best
    if label == best.label or value >= best.value:  # another card that shows as well: as good
        return _("the best move")
    if best.action.kind is Kind.DECLARE:
        return _("a valid declaration was there: declaring ends the deal and you pay nothing")
    if best.action.kind is Kind.DROP:
        return _("dropping costs {drop} points now; playing this hand on costs {on} on average by the deal's "
                 "end").format(drop=f"{-best.value:.0f}", on=f"{-value:.1f}")
    said = {"played": label, "paid": f"{-value:.1f}", "best": best.label, "best_paid": f"{-best.value:.1f}"}
    played = next((o.action for o in e.options if o.label == label), None)
    if best.action.kind is Kind.DISCARD and played is not None and played.kind is Kind.DISCARD:
        hand, card, mine = state.hands[state.to_play], best.action.card, played.card
        assert card is not None and mine is not None
        if mine.is_joker or mine.rank == state.wild_rank:
            return _("after {played} you pay {paid} points on average by the deal's end; after {best}, {best_paid}; "
                     "{mine} is a joker: it fits any group and counts nothing in your hand").format(**said, mine=mine)
        left_best, left_mine = points_of(state, without(hand, card)), points_of(state, without(hand, mine))
        if left_mine != left_best:
            return _("after {played} you pay {paid} points on average by the deal's end; after {best}, {best_paid}; "
                     "your hand counts {left_mine} loser points without {mine}, {left_best} without {card}").format(
                **said, left_mine=left_mine, mine=mine, left_best=left_best, card=card)
        return _("after {played} you pay {paid} points on average by the deal's end; after {best}, {best_paid}; "
                 "both leave {left} loser points now, but {card} is the less useful card to keep").format(
            **said, left=left_mine, card=card)
    return _("after {played} you pay {paid} points on average by the deal's end; after {best}, "
             "{best_paid}").format(**said)


def review(game: Mapping[str, Any] | State, seat: int = 0, *, seed: SeedLike = 0, samples: int = REVIEW_SAMPLES,
           last_deal: bool = False) -> Review:
    """Every decision of ``seat`` in a played game (``history_json`` output, or a state with its
    history), judged from what she knew then; ``last_deal``: of the last deal only."""
    data = reviewed(game, State, history_json, "an Indian rummy", seat, samples)

    def decision(state: State, action: Action) -> Evaluation | None:
        if state.phase not in (Phase.DRAW, Phase.DISCARD) or action.kind in (Kind.MISS_TURN, Kind.LEAVE,
                                                                               Kind.RECONNECT):
            return None
        if state.phase is Phase.DRAW and DROP not in legal_actions(state):
            return None  # no drop allowed: nothing to decide but where to draw from
        # the move played kept as long as the best, its loss as sure; the other options left at the screen
        return evaluate(state, samples=samples, seed=seed, keep=(action,), every_diff=False)

    reviewer = Reviewer(
        part="deal", marks=MARKS, decision=decision, played=_played, reason=reason,
        result=lambda s, p: -s.deal_history[-1][p] if s.phase in (Phase.DEAL_OVER, Phase.GAME_OVER) else None,
        draw_value=lambda s: valued_options(s, [DRAW_STOCK], samples=samples, seed=seed).best, follows=_follows,
        hand_no=lambda s: s.deal_no, stock_draw=DRAW_STOCK)
    return walk(reviewer, GAME.steps(data), seat, first_hand(data, "next_deal", last_deal))
