"""A played gin game reviewed for one seat: each of its decisions judged from what the seat knew
then (``evaluate``, never the history's hidden cards), the points it lost with their error, a mark
by the thresholds below, the reason in words (the expert's sentences for the better move and the
played one), the luck of each stock draw, and per hand an error rate and a luck-adjusted result.

A mark needs the loss to reach its threshold and to stand clear of noise (more than twice its
standard error). The thresholds are points of the hand's expected result; docs/evaluation.md
says how they were chosen.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

import numpy as np

from ..cards import SeedLike
from ..decisions import Decision, Draw, HandReview, Review, marked, thrown_cards
from ..i18n import _
from .advice import advise
from .evaluation import ENDINGS, POLICY, Evaluation, endings, evaluate
from .game import GAME, Action, Kind, Phase, State, history_json
from .loop import BotSpec, spec_bot

INACCURACY = 3.0
"""Points lost from which a decision is marked an inaccuracy (benchmarks/review_marks.py: about
11 % of the greedy, strong and expert bots' decisions, 42 % of the random bot's) ..."""
MISTAKE = 6.0
"""... a mistake (about 2 % of theirs, 22 % of the random bot's) ..."""
BLUNDER = 12.0
"""... a blunder (about 0.1 % of theirs, 10 % of the random bot's)."""
MARKS = (("blunder", BLUNDER), ("mistake", MISTAKE), ("inaccuracy", INACCURACY))
REVIEW_SAMPLES = 4096
"""Worlds an option is played in at most, per decision."""
DECISIONS = (Phase.FIRST_UPCARD, Phase.DRAW, Phase.DISCARD)


def _policy_move(state: State, policy: str) -> Action:
    """The move the rollout policy makes in ``state`` (a drawing bot: its first pick for seed 0)."""
    return spec_bot(BotSpec(policy), np.random.default_rng(0)).act(state)


def mark(loss: float, se: float) -> str | None:
    """The mark of a loss: the highest threshold it reaches, if it is more than twice its error."""
    return marked(loss, se, MARKS)


def reason(state: State, e: Evaluation, played: Action, seed: SeedLike) -> str:
    """Why the best move is better: how the hand ends after each (``endings``: the greatest
    difference), then the expert's words for the better move."""
    if played == e.best.action:
        return _("the best move")
    best, mine = e.best, e.of(played)
    after_best = endings(state, best.action, seed=seed, policy=e.policy[0])
    after_mine = endings(state, played, seed=seed, policy=e.policy[0])
    ending = max(ENDINGS, key=lambda k: abs(after_mine[k] - after_best[k]))
    said = {"played": mine.label, "ending": _(ending), "share": f"{after_mine[ending]:.0%}", "best": best.label,
            "best_share": f"{after_best[ending]:.0%}"}
    why_best = {o.action: o.reason for o in advise(state, top=40, seed=seed).options}.get(best.action, "")
    if why_best:
        return _("after {played}, {ending} in {share} of the ways the hidden cards can lie (after {best}: "
                 "{best_share}); the expert on {best}: {why}").format(**said, why=why_best)
    return _("after {played}, {ending} in {share} of the ways the hidden cards can lie (after {best}: "
             "{best_share})").format(**said)


def judge(state: State, action: Action, *, seed: SeedLike = 0, samples: int = REVIEW_SAMPLES,
          policy: str = POLICY) -> Decision:
    """``action`` made in ``state``, judged from what the player to act knew."""
    return judged(state, action, evaluate(state, samples=samples, seed=seed, policy=policy, keep=(action,)),
                  seed=seed)


def judged(state: State, action: Action, e: Evaluation, *, hand: int = 0, seed: SeedLike = 0) -> Decision:
    """``action`` judged by the evaluation ``e`` of ``state``."""
    played = e.of(action)
    loss, loss_se = (0.0, 0.0) if played is e.best else (max(0.0, -played.diff), played.diff_se)
    return Decision(hand=hand, turn=state.turns, phase=state.phase, played=played.label, best=e.best.label,
                    loss=loss, loss_se=loss_se, mark=mark(loss, loss_se), reason=reason(state, e, action, seed),
                    evaluation=e, cards=state.hand(state.to_play), **thrown_cards(action, e.best.action))


def review(game: Mapping[str, Any] | State, seat: int = 0, *, seed: SeedLike = 0, samples: int = REVIEW_SAMPLES,
           policy: str = POLICY, last_hand: bool = False) -> Review:
    """Every decision of ``seat`` in a played game (``history_json`` output, or a state with its
    history), judged from what the seat knew then; ``last_hand``: of the last hand only."""
    if seat not in (0, 1):
        raise ValueError(f"seat={seat!r}: 0 or 1")
    data = history_json(game) if isinstance(game, State) else game
    if not isinstance(data, Mapping) or "actions" not in data:
        raise ValueError(f"{type(game).__name__}: review takes a gin history (game.history_json) or a game.State")
    decisions: list[Decision] = []
    draws: list[Draw] = []
    hands: list[HandReview] = []
    pending: tuple[State, float, float] | None = None  # a stock draw: (state after, value before, its error)
    hand_no, hand_decisions, hand_loss, hand_luck, marks = 0, 0, 0.0, 0.0, {m: 0 for m, _t in MARKS}
    first = sum(1 for a in data["actions"] if a.get("kind") in ("next_hand", "next_game")) if last_hand else 0
    for state, action in GAME.steps(data):
        if hand_no < first:  # a hand before the one reviewed
            if action is not None and action.kind in (Kind.NEXT_HAND, Kind.NEXT_GAME):
                hand_no += 1
            continue
        if pending is not None and state.phase is Phase.DISCARD and state.to_play == seat:
            follows = _policy_move(state, policy)
            keep = (follows,) if action is None else (follows, action)
            e = evaluate(state, samples=samples, seed=seed, policy=policy, keep=keep)
            after = e.of(follows)
            drawn = next(c for c in state.hand(seat) if c.bit & ~pending[0].hands[seat])
            luck = after.value - pending[1]
            draws.append(Draw(hand=hand_no, turn=state.turns, card=str(drawn), luck=luck,
                              se=math.hypot(after.se, pending[2])))
            hand_luck += luck
            pending = None
            evaluated: Evaluation | None = e
        else:
            evaluated = None
        if state.phase in (Phase.HAND_OVER, Phase.GAME_OVER, Phase.MATCH_OVER):
            last = state.records[-1] if state.records else None
            if last is not None:
                result = 0 if last.winner is None else last.points if last.winner == seat else -last.points
                hands.append(HandReview(hand=hand_no, result=result, decisions=hand_decisions, loss=hand_loss,
                                        luck=hand_luck, marks=marks))
            hand_no, hand_decisions, hand_loss, hand_luck, marks = hand_no + 1, 0, 0.0, 0.0, {m: 0 for m, _t in MARKS}
        if action is None:
            break
        if state.phase not in DECISIONS or state.to_play != seat:
            continue
        e = evaluated or evaluate(state, samples=samples, seed=seed, policy=policy, keep=(action,))
        if action.kind is Kind.DRAW_STOCK:
            pending = (state, e.of(action).value, e.of(action).se)
        if len(e.options) < 2:
            continue
        d = judged(state, action, e, hand=hand_no, seed=seed)
        if d.mark:
            marks[d.mark] += 1
        decisions.append(d)
        hand_decisions += 1
        hand_loss += d.loss
    return Review(seat=seat, decisions=tuple(decisions), draws=tuple(draws), hands=tuple(hands))
