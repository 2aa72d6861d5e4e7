"""Three Thirteen hand analysis (docs/rules.md §3): the wild rank follows the round; one to three decks."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from ..cards import FULL_DECK, RANKS, Card, CardsLike, deck_masks, parse_cards
from ..display import result_html
from ..i18n import _
from ..kernel._wild_py import WildKernel, _remove
from ..kernel.wild_melds import WildMeld, melds_of
from .rules import DEFAULT as DEFAULT
from .rules import Rules as Rules

ROUNDS = range(1, 12)


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

    def _repr_html_(self) -> str:
        title = _("Round {round}, {rank}s wild: penalty {penalty}").format(round=self.round_no, rank=self.wild_rank,
                                                                            penalty=self.penalty)
        return result_html(title, self.melds, self.leftover, left_label=_("left over"))


Masks = tuple[int, int, int]
"""(once, twice, thrice): the cards held at least once, twice, three times."""


def _hand(hand: CardsLike, sizes: tuple[int, ...], rules: Rules) -> tuple[tuple[Card, ...], Masks]:
    copies = rules.decks or 2
    for c in parse_cards(hand, copies=copies, jokers=2):
        if c.is_joker:
            raise ValueError("JK: Three Thirteen has no printed jokers (the wild rank changes every round)")
    cards = parse_cards(hand, size=sizes, copies=copies, jokers=0)
    return cards, deck_masks(cards)[:3]


def penalty_of_masks(kernel: WildKernel, masks: Masks, wild: int) -> int:
    """Least penalty of validated (once, twice, thrice) masks with this wild rank."""
    once, twice, thrice = masks
    return int(kernel.penalty(once, twice, wild, thrice=thrice))


def penalty_after_discard(kernel: WildKernel, masks: Masks, wild: int) -> int:
    """Least penalty of validated (once, twice, thrice) masks after discarding one card."""
    once, twice, thrice = (np.array([m], dtype=np.uint64) for m in masks)
    out = np.empty(1, dtype=np.int32)
    kernel.penalty_batch(once, twice, wild, out, thrice=thrice, discard=True)
    return int(out[0])


def analyze(hand: CardsLike, round_no: int, rules: Rules = DEFAULT) -> Analysis:
    """Least penalty of exactly these cards (the round's r + 2), with melds and leftovers."""
    r = _round(round_no)
    cards, (once, twice, thrice) = _hand(hand, (r + 2, r + 3), rules)
    w = r + 1
    arrangement = rules.kernel().arrangement(once, twice, w, thrice=thrice)
    melds, leftover = melds_of(cards, arrangement, w, rules.ace_high)
    return Analysis(cards=cards, round_no=r, wild_rank=RANKS[w], penalty=int(arrangement[0]), melds=melds,
                    leftover=leftover)


def penalty_of_cards(cards: Any, round_no: int, rules: Rules) -> int:
    """Least penalty of already validated cards (a game's own hands)."""
    return penalty_of_masks(rules.kernel(), deck_masks(cards)[:3], round_no + 1)


def penalty(hand: CardsLike, round_no: int, rules: Rules = DEFAULT) -> int:
    """Least penalty of exactly these cards."""
    return analyze(hand, round_no, rules).penalty


def going_out_discards(hand: CardsLike, round_no: int, rules: Rules = DEFAULT) -> frozenset[Card]:
    """For r + 3 cards (after the draw): every discard that leaves all other cards melded."""
    r = _round(round_no)
    cards, masks = _hand(hand, (r + 3,), rules)
    k = rules.kernel()
    return frozenset(c for c in set(cards) if penalty_of_masks(k, _remove(masks, c.bit), r + 1) == 0)


def penalty_batch(once: Any, twice: Any, round_no: int, rules: Rules = DEFAULT, thrice: Any = None) -> np.ndarray:
    """Least penalty of each hand given as uint64 mask arrays: the cards held at least once, at
    least twice and (three decks only) three times."""
    r = _round(round_no)
    layers = [np.asarray(m, dtype=np.uint64) for m in (once, twice, np.zeros_like(once) if thrice is None else thrice)]
    if any(m.shape != layers[0].shape for m in layers) or layers[0].ndim != 1:
        raise ValueError("once, twice and thrice must be 1-d arrays of the same length")
    names = ("once", "twice", "thrice")
    for name, m in zip(names, layers, strict=True):
        bad = np.flatnonzero(m & np.uint64(~FULL_DECK & (2**64 - 1)))
        if bad.size:
            raise ValueError(f"hand {bad[0]}: {name} mask {int(m[bad[0]]):#x} sets bits that are no card")
    for outer, inner, (o_name, i_name) in ((layers[0], layers[1], names[:2]), (layers[1], layers[2], names[1:])):
        bad = np.flatnonzero(inner & ~outer)
        if bad.size:
            raise ValueError(f"hand {bad[0]}: {i_name} mask {int(inner[bad[0]]):#x} holds cards missing from "
                             f"{o_name} mask {int(outer[bad[0]]):#x}")
    a, b, c = (np.ascontiguousarray(m) for m in layers)
    out = np.empty(a.size, dtype=np.int32)
    k = rules.kernel()
    k.penalty_batch(a, b, r + 1, out, thrice=c)
    return out
