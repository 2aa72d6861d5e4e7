"""Three Thirteen hand analysis (rules.md §3): the wild rank follows the round; one or two decks."""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any

import numpy as np

from .._wild_py import WildKernel
from ..cards import RANKS, Card, CardsLike, parse_cards, two_deck_masks
from ..melds import wild_module
from ..wild_melds import WildMeld, melds_of

ROUNDS = range(1, 12)


@dataclass(frozen=True, kw_only=True)
class Rules:
    """Three Thirteen options; every default is the rules.md default."""

    ace_high: bool = False
    """Q-K-A is a run too (K-A-2 never)."""
    ace_penalty: int = 1
    """A leftover ace costs 1 (or 15 in the brief's variant)."""
    max_wilds_per_meld: int | None = None
    min_non_wild: int = 0
    """1: a meld needs a natural card (no melds of wilds only)."""
    decks: int | None = None
    """1 or 2; None: by the number of players (1 deck for 2 players, 2 for 3 or more)."""

    def __post_init__(self) -> None:
        if self.ace_penalty not in range(0, 20):
            raise ValueError(f"ace_penalty={self.ace_penalty}: 0 to 19")
        if self.max_wilds_per_meld is not None and self.max_wilds_per_meld < 0:
            raise ValueError(f"max_wilds_per_meld={self.max_wilds_per_meld}: None or >= 0")
        if not 0 <= self.min_non_wild <= 3:
            raise ValueError(f"min_non_wild={self.min_non_wild}: 0 to 3")
        if self.decks not in (None, 1, 2):
            raise ValueError(f"decks={self.decks}: 1, 2 or None")

    @property
    def points(self) -> tuple[int, ...]:
        return (self.ace_penalty, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10)

    def deck_count(self, players: int) -> int:
        return self.decks or (1 if players <= 2 else 2)

    def kernel(self, backend: str | None = None) -> WildKernel:
        """The wild-card search for these rules ("cython", "python", or the selected backend)."""
        return _kernel(self.points, self.ace_high, self.max_wilds_per_meld, self.min_non_wild, backend)


DEFAULT = Rules()
"""The rules.md defaults."""


@functools.cache
def _kernel(points: tuple[int, ...], ace_high: bool, max_wilds: int | None, min_non_wild: int,
            backend: str | None) -> WildKernel:
    kernel: WildKernel = wild_module(backend).WildKernel(points, ace_high=ace_high, max_wilds=max_wilds,
                                                         min_non_wild=min_non_wild, identical_in_set=True)
    return kernel


def _round(round_no: int) -> int:
    if isinstance(round_no, bool) or not isinstance(round_no, (int, np.integer)) or round_no not in ROUNDS:
        raise ValueError(f"round {round_no!r}: Three Thirteen has rounds 1 to 11")
    return int(round_no)


def wild_rank(round_no: int) -> str:
    """The wild rank of a round: 1 -> "3" … 8 -> "T", 9 -> "J", 10 -> "Q", 11 -> "K"."""
    return RANKS[_round(round_no) + 1]


def hand_size(round_no: int) -> int:
    """Cards dealt in a round: 3 in round 1 … 13 in round 11."""
    return _round(round_no) + 2


@dataclass(frozen=True)
class Analysis:
    cards: tuple[Card, ...]
    round_no: int
    wild_rank: str
    penalty: int
    melds: tuple[WildMeld, ...]
    leftover: tuple[Card, ...]


def _hand(hand: CardsLike, sizes: tuple[int, ...], rules: Rules) -> tuple[tuple[Card, ...], int, int]:
    copies = rules.decks or 2
    for c in parse_cards(hand, copies=2, jokers=2):
        if c.is_joker:
            raise ValueError("JK: Three Thirteen has no printed jokers (the wild rank changes every round)")
    cards = parse_cards(hand, size=sizes, copies=copies, jokers=0)
    once, twice, _ = two_deck_masks(cards)
    return cards, once, twice


def analyze(hand: CardsLike, round_no: int, rules: Rules = Rules()) -> Analysis:
    """Least penalty of exactly these cards (the round's r + 2), with melds and leftovers."""
    r = _round(round_no)
    cards, once, twice = _hand(hand, (r + 2, r + 3), rules)
    w = r + 1
    arrangement = rules.kernel().arrangement(once, twice, w)
    melds, leftover = melds_of(cards, arrangement, w, rules.ace_high)
    return Analysis(cards=cards, round_no=r, wild_rank=RANKS[w], penalty=int(arrangement[0]), melds=melds,
                    leftover=leftover)


def penalty_of_cards(cards: Any, round_no: int, rules: Rules) -> int:
    """Least penalty of already validated cards (a game's own hands)."""
    once, twice, _ = two_deck_masks(cards)
    return int(rules.kernel().penalty(once, twice, round_no + 1))


def penalty(hand: CardsLike, round_no: int, rules: Rules = Rules()) -> int:
    """Least penalty of exactly these cards."""
    return analyze(hand, round_no, rules).penalty


def going_out_discards(hand: CardsLike, round_no: int, rules: Rules = Rules()) -> frozenset[Card]:
    """For r + 3 cards (after the draw): every discard that leaves all other cards melded."""
    r = _round(round_no)
    cards, once, twice = _hand(hand, (r + 3,), rules)
    k = rules.kernel()
    out = set()
    for c in set(cards):
        o, t = (once, twice & ~c.bit) if twice & c.bit else (once & ~c.bit, twice)
        if k.penalty(o, t, r + 1) == 0:
            out.add(c)
    return frozenset(out)


def penalty_batch(once: Any, twice: Any, round_no: int, rules: Rules = Rules()) -> np.ndarray:
    """Least penalty of each two-deck hand given as (once, twice) uint64 mask arrays."""
    from ..cards import check_mask

    r = _round(round_no)
    a, b = np.asarray(once, dtype=np.uint64), np.asarray(twice, dtype=np.uint64)
    if a.shape != b.shape or a.ndim != 1:
        raise ValueError("once and twice must be 1-d arrays of the same length")
    for i, (o, t) in enumerate(zip(a.tolist(), b.tolist(), strict=True)):
        check_mask(o)
        check_mask(t)
        if t & ~o:
            raise ValueError(f"hand {i}: twice mask {t:#x} holds cards missing from once mask {o:#x}")
    out = np.empty(a.size, dtype=np.int32)
    k = rules.kernel()
    if hasattr(k, "penalty_batch"):
        k.penalty_batch(np.ascontiguousarray(a), np.ascontiguousarray(b), r + 1, out)
    else:
        for i, (o, t) in enumerate(zip(a.tolist(), b.tolist(), strict=True)):
            out[i] = k.penalty(o, t, r + 1)
    return out
