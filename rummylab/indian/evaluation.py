"""What each option of an Indian rummy decision is worth to the player to act: drop or play on
(at a draw), each discard or a declaration (after drawing), in the points she keeps off her score
this deal, with standard errors.

A declaration's value is exact (a valid show ends the deal: she pays 0), and so is a drop's (the
first or middle drop's points). Playing on and each discard are valued by rollouts: worlds drawn
from what she sees only (her hand, the discard pile, the cut card; every unseen card dealt at
random to the other hands and the stock), each played out to the deal's end by greedy bots
that never drop (``rollout.deal_points``: the compiled loop, or its twin the engine), the same
worlds for every option, so the difference of two options has a smaller error than either value.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

import numpy as np

from ..cards import Card, SeedLike
from ..decisions import Evaluation, Measure, Sizes, check_samples, valued
from ..hidden import Seen, near, redealt
from ..i18n import N_, _, pgettext
from . import equity
from .game import DROP, Action, Kind, Phase, State, apply, is_joker, legal_actions
from .players import GreedyBot
from .rollout import deal_points

SAMPLES = 512
"""Worlds an option is played out in at most, by default."""
SIZES = Sizes(screen=32, target_se=0.5, option_se=1.0)
"""Every option is played in 32 worlds first; the candidates' differences to the best are sure at
an error of 0.5 points, the others' at 1.0 (a deal runs to 80 points: its marks, ``review.MARKS``,
are twice gin's)."""
GAME_SIZES = Sizes(screen=32, target_se=0.005, option_se=0.01)
"""The same valued by the chance of winning the game: half a percentage point, and one."""
HORIZONS = ("deal", "game")
"""What an option's value counts: the points this deal (negated), or the chance of winning the game."""


def option_label(action: Action) -> str:
    """An option in words, in the language in use: "discard 5H", "declare, throwing 5H", "drop",
    "play on, drawing from the stock", "play on, taking the discard"."""
    if action.kind is Kind.DISCARD:
        return _("discard {card}").format(card=action.card)
    if action.kind is Kind.DECLARE:
        return _("declare, throwing {card}").format(card=action.card)
    if action.kind is Kind.DRAW_DISCARD:
        return pgettext("option", "play on, taking the discard")
    if action.kind is Kind.DRAW_STOCK:
        return pgettext("option", "play on, drawing from the stock")
    return pgettext("option", "drop")


def options(state: State) -> list[Action]:
    """The decision's options: at a draw, drop or play on by each draw she may make (the stock,
    the discard); after drawing, each distinct discard, and a declaration when one is valid
    (greedy's grouping). ValueError otherwise."""
    if state.phase is Phase.DRAW:
        legal = legal_actions(state)
        if DROP not in legal:
            raise ValueError("this draw allows no drop: there is no decision to value")
        return [DROP, *(a for a in legal if a.kind in (Kind.DRAW_STOCK, Kind.DRAW_DISCARD))]
    if state.phase is Phase.DISCARD:
        hand = state.hands[state.to_play]
        found = [Action(Kind.DISCARD, c) for c in sorted(set(hand))]
        show = GreedyBot(0, drops=False).act(state)
        return ([show] if show.kind is Kind.DECLARE else []) + found
    raise ValueError(f"phase {state.phase.value}: a decision is a draw or a discard")


def opponents(state: State) -> Seen:
    """Each other player's weights of holding each unseen card (``hidden.Seen``): from the
    cards she was seen to take, throw and leave this deal; jokers and wild cards tell nothing."""
    def related(a: Card, b: Card) -> bool:
        return not is_joker(state, a) and not is_joker(state, b) and near(a, b, state.rules.ace_high)

    return Seen(state.picked, state.discarded, state.declined, related)


def world(state: State, rng: np.random.Generator,
          seen: Seen | None = None) -> State:
    """``state`` with what its player to act cannot see dealt again: the other hands (each keeping
    the cards it was seen to take from the pile, the rest drawn by what each was ``seen`` to do, by default
    ``opponents(state)``) and the stock above the cut card (which stays face up at the bottom until
    it is drawn), in random order, and the chance of any later shuffle."""
    cut = state.stock[:1] if state.stock and not state.reshuffles else ()  # the face-up cut card, while it lies
    hands, stock = redealt(state.hands, state.to_play, state.stock[len(cut):], rng, kept=state.picked,
                           seen=opponents(state) if seen is None else seen)
    # its own seed: a stock rebuilt from the pile is shuffled unlike the game's (which she cannot know)
    return replace(state, hands=hands, stock=(*cut, *stock), seed=int(rng.integers(2**31)))


def _exact(state: State, action: Action) -> float | None:
    """The value of an option that needs no rollout: a drop's points, a valid show's 0."""
    if action.kind is Kind.DROP:
        return -float(apply(state, action).deal_points[state.to_play])
    if action.kind is Kind.DECLARE:
        return 0.0
    return None


def valued_options(state: State, actions: list[Action], *, samples: int, seed: SeedLike,
                   budget_ms: float | None = None, keep: Sequence[Action] = (), every_diff: bool = True,
                   horizon: str = "deal") -> Evaluation:
    """``actions`` of ``state`` valued from the view of its player to act (``world``), each
    played out by greedy bots in the same worlds (at most ``samples``, effort where it matters:
    ``decisions.valued``): by the points this deal (a drop and a show exactly) or, with
    ``horizon="game"``, by the chance of winning the pool or deals game from the scores or chips
    the deal leaves (``equity``)."""
    if horizon not in HORIZONS:
        raise ValueError(f"horizon {horizon!r}: one of {', '.join(HORIZONS)}")
    me, seen = state.to_play, opponents(state)
    measure = (Measure(unit=N_("points this deal, negated"), effort=SIZES, exact=_exact,
                       played_out=lambda after, seeds: -deal_points(after, seeds)[:, me])
               if horizon == "deal" else _game(state))
    return valued(state, actions, seat=me, phase=state.phase, measure=measure, samples=samples, seed=seed,
                  world=lambda s, rng: world(s, rng, seen), label=option_label, apply=apply, budget_ms=budget_ms,
                  keep=keep, every_diff=every_diff)


def _game(state: State) -> Measure:
    """An option valued by the chance of winning the pool or deals game from the scores or chips its
    deal leaves (``equity``: two players by the tables, three or more by the game played on); a drop
    and a show rolled out too (a show is worth what the others pay)."""
    if state.format == "points":
        raise ValueError("horizon 'game': a points rummy game is one deal (value its points: horizon 'deal')")
    equity.deal_results(state.rules)  # names rules with no table
    me, them = state.to_play, 1 - state.to_play
    if state.players > 2:
        equity.losses(state.rules, state.players)  # names rules with none

        def shares(after: Sequence[State], seeds: Sequence[int]) -> np.ndarray:
            paid = deal_points(after, seeds)
            if state.pool is not None:
                return equity.players_win_chance(state.rules, np.asarray(state.scores)[None, :] + paid, me,
                                                 np.asarray(seeds), pool=state.pool,
                                                 out=np.repeat(np.asarray(state.eliminated)[None, :], len(paid), 0))
            assert state.deals is not None
            winner = np.argmin(paid, axis=1)  # the first who pays nothing
            chips = np.asarray(state.chips)[None, :] - paid
            chips[np.arange(len(paid)), winner] += paid.sum(axis=1)
            return equity.players_win_chance(state.rules, chips, me, np.asarray(seeds),
                                             deals_left=max(0, state.deals - state.deal_no))

        return Measure(unit=N_("the chance of winning the game"), played_out=shares, effort=GAME_SIZES, chance=True)

    def chances(after: Sequence[State], seeds: Sequence[int]) -> np.ndarray:
        paid = deal_points(after, seeds)
        if state.pool is not None:
            return np.asarray(equity.pool_win_chance(state.rules, state.pool, state.scores[me] + paid[:, me],
                                                     state.scores[them] + paid[:, them]), dtype=float)
        assert state.deals is not None
        lead = state.chips[me] - state.chips[them] + 2 * (paid[:, them] - paid[:, me])
        return np.asarray(equity.deals_win_chance(state.rules, state.deals, max(0, state.deals - state.deal_no), lead),
                          dtype=float)

    return Measure(unit=N_("the chance of winning the game"), played_out=chances, effort=GAME_SIZES, chance=True)


def evaluate(state: State, *, samples: int | None = None, seed: SeedLike = 0, budget_ms: float | None = None,
             keep: Sequence[Action] = (), every_diff: bool = True, horizon: str = "deal") -> Evaluation:
    """Every option of the decision ``state`` asks of its player to act, valued from her view
    (``options``, ``world``): the same worlds for every option, each played out by greedy bots; a
    screen of ``SIZES.screen`` worlds for every option, then more only for the candidates until
    their differences are sure, then (``every_diff``) the others' too, within ``samples`` worlds
    and ``budget_ms``; ``keep``: options played as long as the best (a review keeps the move
    played); ``samples`` None: ``SAMPLES``; ``horizon``: "deal" (or "hand", as gin names it: the
    points this deal, negated) or "game" (the chance of winning the pool or deals game).
    ValueError for a bad ``samples`` or horizon, or a state with no decision."""
    samples = SAMPLES if samples is None else check_samples(samples)
    return valued_options(state, options(state), samples=samples, seed=seed, budget_ms=budget_ms, keep=keep,
                          every_diff=every_diff, horizon="deal" if horizon == "hand" else horizon)
