"""Melds and meld rules (one deck, no wild cards); the kernels behind them are in ``backend``."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from ..cards import RANK_MASK, Card, cards_str, mask_cards
from . import meld_kernel
from ._kernel_py import MeldKernel

GIN_POINTS = (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10)
"""Deadwood values ace to king: A = 1, 2-10 face value, J/Q/K = 10."""


@dataclass(frozen=True, kw_only=True)
class MeldRules:
    """What counts as a meld and what an unmelded card costs (one deck, no wilds)."""

    points: tuple[int, ...] = GIN_POINTS
    ace_high: bool = False
    min_run: int = 3
    set_min: int = 3
    set_max: int = 4

    def kernel(self, backend: str | None = None) -> MeldKernel:
        """The search kernel for these rules ("cython", "python", or the selected one)."""
        return meld_kernel(self, backend)


@dataclass(frozen=True)
class Meld:
    """A set or a run; ``str(meld)`` lists its cards, e.g. ``"7H 7D 7C"``."""

    kind: Literal["set", "run"]
    cards: tuple[Card, ...]

    def __str__(self) -> str:
        return cards_str(self.cards)

    @property
    def mask(self) -> int:
        m = 0
        for c in self.cards:
            m |= c.bit
        return m


def _suit_cards(suit: int, ranks: list[int]) -> tuple[Card, ...]:
    return tuple(Card(r % 13, suit) for r in ranks)


def _runs_on_line(line: int, nbits: int, min_run: int, offset: int) -> list[list[int]]:
    """Each block of at least min_run adjacent bits of a line, as ranks."""
    runs: list[list[int]] = []
    i = 0
    while i < nbits:
        if line >> i & 1:
            j = i
            while j < nbits and line >> j & 1:
                j += 1
            if j - i >= min_run:
                runs.append([k + offset for k in range(i, j)])
            i = j
        else:
            i += 1
    return runs


def suit_runs(suit: int, suit_mask: int, rules: MeldRules) -> list[Meld]:
    """The runs of one suit's cards in a run-only arrangement of least deadwood."""
    runs = _runs_on_line(suit_mask, 13, rules.min_run, 0)
    if rules.ace_high and suit_mask & 1:
        kernel = rules.kernel()
        high_runs = _runs_on_line(suit_mask >> 1 | 1 << 12, 13, rules.min_run, 1)
        low_dw = sum(rules.points[r] for r in range(13)
                     if suit_mask >> r & 1 and not any(r in run for run in runs))
        if low_dw > kernel.suit_deadwood(suit_mask):
            runs = high_runs
    return [Meld("run", _suit_cards(suit, run)) for run in runs]


def melds_of(mask: int, set_cards: int, rules: MeldRules) -> list[Meld]:
    """The melds of an arrangement: sets from ``set_cards``, runs from the rest."""
    by_rank: dict[int, list[Card]] = {}
    for c in mask_cards(set_cards):
        by_rank.setdefault(c.rank, []).append(c)
    melds = [Meld("set", tuple(cards)) for _, cards in sorted(by_rank.items())]
    rest = mask & ~set_cards
    for s in range(4):
        melds.extend(suit_runs(s, rest >> (16 * s) & RANK_MASK, rules))
    return melds
