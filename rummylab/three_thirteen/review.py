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
from ..decisions import Evaluation, Option, Review, Reviewer, check_samples, valued, walk
from .analysis import penalty_of_cards
from .evaluation import evaluate, option_label, world
from .game import DRAW_STOCK, GAME, Action, Kind, Phase, State, apply, history_json
from .players import GreedyBot
from .rollout import penalties

INACCURACY = 3.0
"""Penalty points given up from which a decision is marked an inaccuracy (benchmarks/review_marks.py) ..."""
MISTAKE = 6.0
"""... a mistake ..."""
BLUNDER = 12.0
"""... a blunder."""
MARKS = (("blunder", BLUNDER), ("mistake", MISTAKE), ("inaccuracy", INACCURACY))
REVIEW_SAMPLES = 256
"""Worlds each option of a decision is played out in, by default."""


def _draw_value(state: State, samples: int, seed: SeedLike) -> Option:
    """The value of drawing from the stock, the round then played out by greedy bots (the same
    worlds as ``evaluate``'s for the same seed): the average over every card she could draw."""
    me = state.to_play
    return valued(state, [DRAW_STOCK], seat=me, phase=state.phase, samples=samples, seed=seed,
                  unit="penalty this round, negated", world=world,
                  played_out=lambda after, seeds: -penalties(after, seeds)[:, me], exact=lambda s, a: None,
                  label=option_label, apply=apply).best


def _played(state: State, action: Action, e: Evaluation) -> tuple[str, float, float]:
    o = e.of(action)
    return o.label, o.value, o.diff_se


def reason(state: State, e: Evaluation, label: str, value: float) -> str:
    """Why the best move is better, in words: what each leaves by the round's end, and what the
    hand counts now after each discard."""
    best = e.best
    if label == best.label:
        return "the best move"
    if best.action.kind is Kind.GO_OUT:
        return f"you could go out ({best.label}): the round ends and you pay nothing"
    out = (f"after {label} you pay {-value:.1f} points on average by the round's end; "
           f"after {best.label}, {-best.value:.1f}")
    hand = state.hands[state.to_play]
    mine = next(o.action.card for o in e.options if o.label == label)
    card = best.action.card
    assert mine is not None and card is not None
    if mine.rank == state.wild_rank:
        return out + f"; {mine} is wild this round: it fits any meld"
    left_mine = penalty_of_cards(without(hand, mine), state.round_no, state.rules)
    left_best = penalty_of_cards(without(hand, card), state.round_no, state.rules)
    return out + (f"; your hand counts {left_mine} without {mine}, {left_best} without {card}" if left_mine != left_best
                  else f"; both leave {left_mine} now, but {card} is the less useful card to keep")


def review(game: Mapping[str, Any] | State, seat: int = 0, *, seed: SeedLike = 0, samples: int = REVIEW_SAMPLES,
           last_round: bool = False) -> Review:
    """Every discard of ``seat`` in a played game (``history_json`` output, or a state with its
    history), judged from what she knew then; ``last_round``: of the last round only."""
    check_samples(samples)
    data = history_json(game) if isinstance(game, State) else game
    if not isinstance(data, Mapping) or "actions" not in data:
        raise ValueError(f"{type(game).__name__}: review takes a Three Thirteen history (history_json) or a State")
    players = int(data.get("players", 2))
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < players:
        raise ValueError(f"seat={seat!r}: a player of this game, 0 to {players - 1}")
    first = sum(1 for a in data["actions"] if a.get("kind") == "next_round") + 1 if last_round else 1
    reviewer = Reviewer(
        part="round", marks=MARKS, played=_played, reason=reason,
        decision=lambda s, a: evaluate(s, samples=samples, seed=seed) if s.phase is Phase.DISCARD else None,
        result=lambda s, p: -s.round_scores[-1][p] if s.phase in (Phase.ROUND_OVER, Phase.GAME_OVER) else None,
        draw_value=lambda s: _draw_value(s, samples, seed), follows=lambda s: GreedyBot(0).act(s),
        hand_no=lambda s: s.round_no, stock_draw=DRAW_STOCK)
    return walk(reviewer, GAME.steps(data), seat, first)
