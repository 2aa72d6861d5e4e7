"""What each option of a Three Thirteen discard is worth to the player to act: each discard, and
going out where she can, in the penalty she pays this round (negated: higher is better), with
standard errors.

Going out is exact (she pays 0 this round). Each discard is valued by rollouts: worlds drawn from
what she sees only (her hand, the discard pile; every unseen card dealt at random to the other
hands and the stock), each played out to the round's end by greedy bots (``rollout.penalties``:
the compiled loop, or its twin the engine), the same worlds for every option (``rummylab.decisions``).
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from ..cards import SeedLike
from ..decisions import Evaluation, check_samples, redealt, valued
from ..i18n import N_, _
from .game import Action, Kind, Phase, State, apply, legal_actions
from .rollout import penalties

SAMPLES = 128
"""Worlds an option is played out in by default."""


def options(state: State) -> list[Action]:
    """Each distinct discard of the player to act, and going out with each card that allows it.
    ValueError unless she is to discard."""
    if state.phase is not Phase.DISCARD:
        raise ValueError(f"phase {state.phase.value}: a Three Thirteen decision is a discard")
    legal = legal_actions(state)
    return sorted({a for a in legal if a.kind in (Kind.DISCARD, Kind.GO_OUT)},
                  key=lambda a: (a.kind is not Kind.GO_OUT, a.card))


def world(state: State, rng: np.random.Generator) -> State:
    """``state`` with the cards its player to act cannot see dealt again at random: the other
    hands (each keeping the cards it was seen to take from the pile) and the stock."""
    hands, stock = redealt(state.hands, state.to_play, state.stock, rng, kept=state.picked)
    # its own seed: a stock rebuilt from the pile is shuffled unlike the game's (which she cannot know)
    return replace(state, hands=hands, stock=tuple(stock), seed=int(rng.integers(2**31)))


def _exact(state: State, action: Action) -> float | None:
    return 0.0 if action.kind is Kind.GO_OUT else None


def option_label(action: Action) -> str:
    """An option in words, in the language in use: "go out, throwing 5H", "discard KS"."""
    if action.kind is Kind.GO_OUT:
        return _("go out, throwing {card}").format(card=action.card)
    return _("discard {card}").format(card=action.card)


def valued_options(state: State, actions: list[Action], *, samples: int, seed: SeedLike) -> Evaluation:
    """``actions`` of ``state`` valued from the view of its player to act (``world``), each
    played out by greedy bots over the same ``samples`` worlds; going out exactly."""
    me = state.to_play
    return valued(state, actions, seat=me, phase=state.phase, samples=samples, seed=seed,
                  unit=N_("penalty this round, negated"), world=world,
                  played_out=lambda after, seeds: -penalties(after, seeds)[:, me], exact=_exact, label=option_label,
                  apply=apply)


def evaluate(state: State, *, samples: int = SAMPLES, seed: SeedLike = 0) -> Evaluation:
    """Every discard (and going out) of the player to act, valued from her view: ``samples``
    worlds, the same for every option, each played out by greedy bots. ValueError for a bad
    ``samples`` or a state that asks no discard."""
    check_samples(samples)
    return valued_options(state, options(state), samples=samples, seed=seed)
