"""What the bots of every family share, beside the engine (``rummylab.play``): a stalled deal's way out."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from .cards import Card
from .sim import codes

STALLED = codes.STALLED
"""Stock rebuilds that make a deal stalled (``rummylab.sim.codes.STALLED``): best-points play
alone can circle, hands each needing the cards the others keep; ordinary deals never get there."""


def stalled_throw(state: Any, hand: Iterable[Card], rng: Any) -> Card | None:
    """In a stalled deal, for a player who drew from the stock, half the time (by ``rng``, a numpy
    Generator): one of the hand's distinct natural cards (any card if all are wild), in Card
    order; else None."""
    if state.reshuffles < STALLED or state.taken is not None or rng.random() >= 0.5:
        return None
    w = state.wild_rank
    cards = sorted({c for c in hand if not (c.is_joker or c.rank == w)}) or sorted(set(hand))
    return cards[int(rng.integers(len(cards)))]
