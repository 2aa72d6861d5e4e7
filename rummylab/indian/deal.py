"""Seeded deals from the Indian rummy pack: two decks and printed jokers."""

from __future__ import annotations

import numpy as np

from ..cards import DECK, SeedLike, rng_from

_BITS = np.array([c.bit for c in DECK], dtype=np.uint64)
_RANKS = np.array([c.rank for c in DECK] * 2, dtype=np.int8)


def random_hands(n: int, seed: SeedLike, size: int = 13,
                 printed_jokers: int = 2) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(once, twice, jokers) arrays of n hands of ``size`` cards, each dealt from its own
    shuffled pack of 104 cards plus the printed jokers."""
    if not 1 <= size <= 104 + printed_jokers or n < 0:
        raise ValueError(f"cannot deal {n} hands of {size} cards")
    rng = rng_from(seed)
    pack = 104 + printed_jokers
    held = np.zeros((n, pack), dtype=bool)
    chosen = np.argpartition(rng.random((n, pack)), size - 1, axis=1)[:, :size]
    np.put_along_axis(held, chosen, True, axis=1)
    first, second = held[:, :52], held[:, 52:104]
    once = ((first | second) * _BITS).sum(axis=1, dtype=np.uint64)
    twice = ((first & second) * _BITS).sum(axis=1, dtype=np.uint64)
    jokers = held[:, 104:].sum(axis=1).astype(np.uint8)
    return once, twice, jokers


def random_cuts(n: int, seed: SeedLike, printed_jokers: int = 2) -> np.ndarray:
    """n wild ranks (0 = ace … 12 = king) from cutting a card of the pack: a printed joker
    cut makes the aces wild."""
    rng = rng_from(seed)
    cut = rng.integers(0, 104 + printed_jokers, size=n)
    return np.where(cut < 104, _RANKS[np.minimum(cut, 103)], 0).astype(np.int8)
