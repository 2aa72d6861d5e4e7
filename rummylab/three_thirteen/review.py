"""A played Three Thirteen game reviewed for one player: each discard (and going out) judged
from what she knew then (``evaluate``: never the history's hidden cards), the penalty it gave up
with its error, a mark by the thresholds below, the reason in words, the luck of each stock draw,
and per round an error rate and a luck-adjusted result.

The thresholds are points of the round's expected penalty: benchmarks/review_marks.py measures
what share of a greedy and of a random player's decisions each marks, and docs/evaluation.md
states them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..cards import SeedLike, without
from ..decisions import Evaluation, Review, Reviewer, first_hand, marks, reviewed, walk
from ..i18n import _
from .analysis import penalty_of_cards
from .evaluation import evaluate, valued_options
from .game import DRAW_STOCK, GAME, Kind, Phase, State, history_json
from .players import GreedyBot

MARKS = marks(inaccuracy=3.0, mistake=6.0, blunder=12.0)
"""Penalty points given up from which a decision is marked (benchmarks/review_marks.py)."""
REVIEW_SAMPLES = 256
"""Worlds each option of a decision is played out in, by default."""


def reason(state: State, e: Evaluation, label: str, value: float) -> str:
    """Why the best move is better, in words: what each leaves by the round's end, and what the
    hand counts now after each discard."""
    best = e.best
    if label == best.label or value >= best.value:  # another card that goes out as well: as good
        return _("the best move")
    if best.action.kind is Kind.GO_OUT:
        return _("you could go out ({best}): the round ends and you pay nothing").format(best=best.label)
    hand = state.hands[state.to_play]
    mine = next(o.action.card for o in e.options if o.label == label)
    card = best.action.card
    assert mine is not None and card is not None
    said = {"played": label, "paid": f"{-value:.1f}", "best": best.label, "best_paid": f"{-best.value:.1f}",
            "mine": mine, "card": card}
    if mine.rank == state.wild_rank:
        return _("after {played} you pay {paid} points on average by the round's end; after {best}, {best_paid}; "
                 "{mine} is wild this round: it fits any meld").format(**said)
    left_mine = penalty_of_cards(without(hand, mine), state.round_no, state.rules)
    left_best = penalty_of_cards(without(hand, card), state.round_no, state.rules)
    if left_mine != left_best:
        return _("after {played} you pay {paid} points on average by the round's end; after {best}, {best_paid}; "
                 "your hand counts {left_mine} without {mine}, {left_best} without {card}").format(
            **said, left_mine=left_mine, left_best=left_best)
    return _("after {played} you pay {paid} points on average by the round's end; after {best}, {best_paid}; "
             "both leave {left} now, but {card} is the less useful card to keep").format(**said, left=left_mine)


def review(game: Mapping[str, Any] | State, seat: int = 0, *, seed: SeedLike = 0, samples: int = REVIEW_SAMPLES,
           last_round: bool = False) -> Review:
    """Every discard of ``seat`` in a played game (``history_json`` output, or a state with its
    history), judged from what she knew then; ``last_round``: of the last round only."""
    data = reviewed(game, State, history_json, "a Three Thirteen", seat, samples)
    reviewer = Reviewer(
        part="round", marks=MARKS, played=lambda s, a, e: e.played(a), reason=reason,
        decision=lambda s, a: (evaluate(s, samples=samples, seed=seed, keep=(a,), every_diff=False)  # a: as sure as
                               if s.phase is Phase.DISCARD else None),  # the best, the others left at the screen
        result=lambda s, p: -s.round_scores[-1][p] if s.phase in (Phase.ROUND_OVER, Phase.GAME_OVER) else None,
        draw_value=lambda s: valued_options(s, [DRAW_STOCK], samples=samples, seed=seed).best,
        follows=lambda s: GreedyBot(0).act(s), hand_no=lambda s: s.round_no, stock_draw=DRAW_STOCK)
    return walk(reviewer, GAME.steps(data), seat, first_hand(data, "next_round", last_round))
