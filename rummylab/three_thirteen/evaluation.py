"""What each option of a Three Thirteen discard is worth to the player to act: each discard, and
going out where she can, in the penalty she pays this round (negated: higher is better), with
standard errors.

Going out is exact (she pays 0 this round). Each discard is valued by rollouts: worlds drawn from
what she sees only (her hand, the discard pile; every unseen card dealt at random to the other
hands and the stock), each played out to the round's end by greedy bots (``rollout.penalties``:
the compiled loop, or its twin the engine), the same worlds for every option (``rummylab.decisions``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

import numpy as np

from ..cards import Card, SeedLike
from ..decisions import Evaluation, Measure, Sizes, check_samples, valued
from ..hidden import Seen, near, redealt
from ..i18n import N_, _
from . import equity
from .game import Action, Kind, Phase, State, apply, legal_actions
from .rollout import penalties

SAMPLES = 512
"""Worlds an option is played out in at most, by default."""
SIZES = Sizes(screen=32, target_se=0.25, option_se=0.5)
"""Every option is played in 32 worlds first; the candidates' differences to the best are sure at
an error of 0.25 points, the others' at 0.5 (its penalties and marks are on gin's scale)."""
GAME_SIZES = Sizes(screen=32, target_se=0.005, option_se=0.01)
"""The same valued by the chance of winning the game: half a percentage point, and one."""
HORIZONS = ("round", "game")
"""What an option's value counts: the penalty this round (negated), or the chance of winning the game."""


def options(state: State) -> list[Action]:
    """Each distinct discard of the player to act, and going out with each card that allows it.
    ValueError unless she is to discard."""
    if state.phase is not Phase.DISCARD:
        raise ValueError(f"phase {state.phase.value}: a Three Thirteen decision is a discard")
    legal = legal_actions(state)
    return sorted({a for a in legal if a.kind in (Kind.DISCARD, Kind.GO_OUT)},
                  key=lambda a: (a.kind is not Kind.GO_OUT, a.card))


def opponents(state: State) -> Seen:
    """Each other player's weights of holding each unseen card (``hidden.Seen``): from the
    cards she was seen to take, throw and leave this round; wild cards tell nothing."""
    def related(a: Card, b: Card) -> bool:
        return a.rank != state.wild_rank and b.rank != state.wild_rank and near(a, b, state.rules.ace_high)

    return Seen(state.picked, state.discarded, state.declined, related)


def world(state: State, rng: np.random.Generator, seen: Seen | None = None) -> State:
    """``state`` with the cards its player to act cannot see dealt again: the other hands (each
    keeping the cards it was seen to take from the pile, the rest drawn by what each was ``seen``
    to do, by default ``opponents(state)``) and the stock, in random order."""
    hands, stock = redealt(state.hands, state.to_play, state.stock, rng, kept=state.picked,
                           seen=opponents(state) if seen is None else seen)
    # its own seed: a stock rebuilt from the pile is shuffled unlike the game's (which she cannot know)
    return replace(state, hands=hands, stock=tuple(stock), seed=int(rng.integers(2**31)))


def _exact(state: State, action: Action) -> float | None:
    return 0.0 if action.kind is Kind.GO_OUT else None


def option_label(action: Action) -> str:
    """An option in words, in the language in use: "go out, throwing 5H", "discard KS"."""
    if action.kind is Kind.GO_OUT:
        return _("go out, throwing {card}").format(card=action.card)
    return _("discard {card}").format(card=action.card)


def valued_options(state: State, actions: list[Action], *, samples: int, seed: SeedLike,
                   budget_ms: float | None = None, keep: Sequence[Action] = (), every_diff: bool = True,
                   horizon: str = "round") -> Evaluation:
    """``actions`` of ``state`` valued from the view of its player to act (``world``), each
    played out by greedy bots in the same worlds (at most ``samples``, effort where it matters:
    ``decisions.valued``): by the penalty this round (going out exactly) or, with
    ``horizon="game"``, by the chance of winning the game from the totals the round leaves
    (``equity``)."""
    if horizon not in HORIZONS:
        raise ValueError(f"horizon {horizon!r}: one of {', '.join(HORIZONS)}")
    me, seen = state.to_play, opponents(state)
    measure = (Measure(unit=N_("penalty this round, negated"), effort=SIZES, exact=_exact,
                       played_out=lambda after, seeds: -penalties(after, seeds)[:, me])
               if horizon == "round" else _game(state))
    return valued(state, actions, seat=me, phase=state.phase, measure=measure, samples=samples, seed=seed,
                  world=lambda s, rng: world(s, rng, seen), label=option_label, apply=apply, budget_ms=budget_ms,
                  keep=keep, every_diff=every_diff)


def _game(state: State) -> Measure:
    """An option valued by the chance of winning the game from the totals its round leaves
    (``equity``: two players by the lead, three or more each on her own); going out rolled out
    too (the others' last turns decide the totals)."""
    me, them = state.to_play, 1 - state.to_play
    if state.players > 2:
        equity.round_penalties(state.rules, state.players)  # names rules with none

        def shares(after: Sequence[State], seeds: Sequence[int]) -> np.ndarray:
            totals = np.asarray(state.scores)[None, :] + penalties(after, seeds)
            return equity.players_win_chance(state.rules, state.round_no + 1, totals, me)

        return Measure(unit=N_("the chance of winning the game"), played_out=shares, effort=GAME_SIZES, chance=True)
    equity.round_results(state.rules)  # names rules with no table

    def chances(after: Sequence[State], seeds: Sequence[int]) -> np.ndarray:
        paid = penalties(after, seeds)
        lead = (state.scores[them] + paid[:, them]) - (state.scores[me] + paid[:, me])
        return np.asarray(equity.win_chance(state.rules, state.round_no + 1, lead), dtype=float)

    return Measure(unit=N_("the chance of winning the game"), played_out=chances, effort=GAME_SIZES, chance=True)


def evaluate(state: State, *, samples: int | None = None, seed: SeedLike = 0, budget_ms: float | None = None,
             keep: Sequence[Action] = (), every_diff: bool = True, horizon: str = "round") -> Evaluation:
    """Every discard (and going out) of the player to act, valued from her view: the same worlds
    for every option, each played out by greedy bots; a screen of ``SIZES.screen`` worlds for
    every option, then more only for the candidates until their differences are sure, then
    (``every_diff``) the others' too, within ``samples`` worlds and ``budget_ms``; ``keep``:
    options played as long as the best (a review keeps the move played); ``samples`` None:
    ``SAMPLES``; ``horizon``: "round" (or "hand", as gin names it: the penalty this round, negated)
    or "game" (the chance of winning the game). ValueError for a bad ``samples`` or
    horizon, or a state that asks no discard."""
    samples = SAMPLES if samples is None else check_samples(samples)
    return valued_options(state, options(state), samples=samples, seed=seed, budget_ms=budget_ms, keep=keep,
                          every_diff=every_diff, horizon="round" if horizon == "hand" else horizon)
