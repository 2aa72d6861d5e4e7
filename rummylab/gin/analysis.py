"""Gin hand analysis: melds, deadwood, best discards, big gin; single hands and batches."""

from __future__ import annotations

import functools
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..cards import FULL_DECK, Card, CardsLike, parse_cards
from ..display import result_html
from ..i18n import _, ngettext
from ..kernel.melds import Meld, MeldRules, melds_of

GIN_MELDS = MeldRules()
"""Gin melds: sets of 3-4, runs of 3+ with the ace low only; A=1, 2-10, J/Q/K=10."""

KNOCK_LIMIT = 10


@functools.cache
def gin_kernel() -> Any:
    """The selected backend's kernel for gin melds."""
    return GIN_MELDS.kernel()


def _hand(hand: CardsLike, sizes: tuple[int, ...]) -> tuple[tuple[Card, ...], int]:
    cards = parse_cards(hand, size=sizes, copies=1, jokers=0)
    mask = 0
    for c in cards:
        mask |= c.bit
    return cards, mask


@dataclass(frozen=True)
class HandAnalysis:
    """The best arrangement of exactly these cards (no discard)."""

    cards: tuple[Card, ...]
    deadwood: int
    melds: tuple[Meld, ...]
    deadwood_cards: tuple[Card, ...]

    @property
    def gin(self) -> bool:
        """Every card melded (with 11 cards: big gin)."""
        return self.deadwood == 0

    def _repr_html_(self) -> str:
        title = (_("Deadwood {deadwood} (gin: every card melded)") if self.gin else
                 _("Deadwood {deadwood} (can knock)") if self.deadwood <= KNOCK_LIMIT else
                 _("Deadwood {deadwood} (cannot knock yet)"))
        return result_html(title.format(deadwood=self.deadwood), self.melds, self.deadwood_cards,
                           left_label=_("deadwood"))


@dataclass(frozen=True)
class DiscardAnalysis:
    """An 11-card hand: the least deadwood after one discard, and every discard reaching it."""

    cards: tuple[Card, ...]
    deadwood: int
    discards: frozenset[Card]
    big_gin: bool
    after_discard: tuple[tuple[Card, int], ...]
    """Deadwood after discarding each card, in hand order."""
    knock_limit: int = KNOCK_LIMIT

    @property
    def can_knock(self) -> bool:
        return self.deadwood <= self.knock_limit

    def _repr_html_(self) -> str:
        cards = sorted(self.discards)
        either = str(cards[0])
        for c in cards[1:]:
            either = _("{cards} or {card}").format(cards=either, card=c)
        said = (_("Discard {cards}: deadwood {deadwood} after the discard; big gin (all 11 cards melded)")
                if self.big_gin else _("Discard {cards}: deadwood {deadwood} after the discard; gin")
                if self.deadwood == 0 else _("Discard {cards}: deadwood {deadwood} after the discard; can knock")
                if self.can_knock else _("Discard {cards}: deadwood {deadwood} after the discard; cannot knock yet"))
        line = said.format(cards=either, deadwood=self.deadwood)
        title = ngettext("{n} card: {cards}", "{n} cards: {cards}", len(self.cards)).format(
            n=len(self.cards), cards=" ".join(map(str, self.cards)))
        return result_html(title, lines=[line], left=cards, left_label=_("best discards"))

    @property
    def gin(self) -> bool:
        """Some discard leaves 10 melded cards."""
        return self.deadwood == 0


def arrange(mask: int, rules: MeldRules = GIN_MELDS) -> tuple[int, tuple[Meld, ...], int]:
    """(deadwood, melds, mask of deadwood cards) of a validated mask."""
    dw, set_cards = (gin_kernel() if rules is GIN_MELDS else rules.kernel()).arrangement(mask)
    melds = tuple(melds_of(mask, set_cards, rules))
    melded = 0
    for m in melds:
        melded |= m.mask
    return dw, melds, mask & ~melded


def analyze(hand: CardsLike) -> HandAnalysis:
    """Melds, deadwood cards and minimum deadwood of exactly these 10 or 11 cards."""
    cards, mask = _hand(hand, (10, 11))
    dw, melds, loose = arrange(mask)
    order = {c: i for i, c in enumerate(cards)}
    return HandAnalysis(cards=cards, deadwood=dw, melds=melds,
                        deadwood_cards=tuple(sorted((c for c in cards if loose & c.bit), key=order.__getitem__)))


def best_discards(hand: CardsLike, *, knock_limit: int = KNOCK_LIMIT) -> DiscardAnalysis:
    """Every discard of an 11-card hand that leaves the least deadwood, and big gin."""
    cards, mask = _hand(hand, (11,))
    kernel = gin_kernel()
    after = tuple((c, int(kernel.deadwood(mask & ~c.bit))) for c in cards)
    best = min(dw for _card, dw in after)
    return DiscardAnalysis(cards=cards, deadwood=best,
                           discards=frozenset(c for c, dw in after if dw == best),
                           big_gin=kernel.deadwood(mask) == 0, after_discard=after,
                           knock_limit=knock_limit)


def deadwood(hand: CardsLike) -> int:
    """Minimum deadwood: of 10 cards as they are; of 11 cards after the best discard."""
    cards, mask = _hand(hand, (10, 11))
    kernel = gin_kernel()
    return int(kernel.discard_deadwood(mask) if len(cards) == 11 else kernel.deadwood(mask))


def check_masks(masks: object, sizes: tuple[int, ...]) -> np.ndarray:
    """Masks as a contiguous uint64 array of valid one-deck hands of the given sizes."""
    arr = np.asarray(masks)
    if arr.ndim != 1:
        raise ValueError(f"masks must be a 1-d array, not shape {arr.shape}")
    if arr.dtype != np.uint64:
        if arr.size and not np.issubdtype(arr.dtype, np.integer):
            raise ValueError(f"masks must be unsigned 64-bit integers, not {arr.dtype}")
        if arr.size and np.issubdtype(arr.dtype, np.signedinteger) and (arr < 0).any():
            i = int(np.flatnonzero(arr < 0)[0])
            raise ValueError(f"hand {i}: mask {int(arr[i])} is negative")
        arr = arr.astype(np.uint64)
    arr = np.ascontiguousarray(arr)
    bad = np.flatnonzero(arr & np.uint64(~FULL_DECK & (2**64 - 1)))
    if bad.size:
        i = int(bad[0])
        raise ValueError(f"hand {i}: mask {int(arr[i]):#x} sets bits that are no card")
    counts = np.bitwise_count(arr)
    ok = counts == sizes[0]
    for size in sizes[1:]:
        ok |= counts == size
    wrong = np.flatnonzero(~ok)
    if wrong.size:
        i = int(wrong[0])
        want = " or ".join(map(str, sizes))
        raise ValueError(f"hand {i}: mask {int(arr[i]):#x} has {int(counts[i])} cards; {want} expected")
    return arr


def deadwood_batch(masks: object, *, threads: int = 1) -> np.ndarray:
    """Minimum deadwood of each mask (10 cards as they are, 11 after the best discard),
    as an int32 array; the compiled kernel releases the GIL, so ``threads`` > 1 helps."""
    arr = check_masks(masks, (10, 11))
    out = np.empty(arr.shape[0], dtype=np.int32)
    kernel = gin_kernel()
    eleven = np.bitwise_count(arr) == 11
    if arr.size == 0 or eleven.all() or not eleven.any():
        _run_batch(kernel, arr, out, bool(eleven.any()), threads)
    else:
        for flag in (False, True):
            idx = np.flatnonzero(eleven == flag)
            part = np.empty(idx.size, dtype=np.int32)
            _run_batch(kernel, np.ascontiguousarray(arr[idx]), part, flag, threads)
            out[idx] = part
    return out


def _run_batch(kernel: object, arr: np.ndarray, out: np.ndarray, discard: bool, threads: int) -> None:
    if threads <= 1 or arr.size < 4096:
        kernel.deadwood_batch(arr, out, discard)  # type: ignore[attr-defined]
        return
    bounds = np.linspace(0, arr.size, threads + 1).astype(int)
    with ThreadPoolExecutor(threads) as pool:
        list(pool.map(lambda k: kernel.deadwood_batch(  # type: ignore[attr-defined]
            arr[bounds[k]:bounds[k + 1]], out[bounds[k]:bounds[k + 1]], discard), range(threads)))
