"""Brute-force meld oracle: every subset of a suit or a rank that is a meld is a
candidate, and every disjoint combination of candidates is searched.

It shares nothing with the kernel but the card type: cards are (rank, suit) pairs
with rank 0 = ace … 12 = king.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations

GIN_POINTS = (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10)


@dataclass(frozen=True)
class MeldSpec:
    points: tuple[int, ...] = GIN_POINTS
    ace_high: bool = False
    min_run: int = 3
    set_min: int = 3
    set_max: int = 4


def is_set(cards: Sequence[tuple[int, int]], spec: MeldSpec) -> bool:
    ranks = {r for r, _ in cards}
    suits = [s for _, s in cards]
    return len(ranks) == 1 and len(set(suits)) == len(suits) and spec.set_min <= len(cards) <= spec.set_max


def is_run(cards: Sequence[tuple[int, int]], spec: MeldSpec) -> bool:
    if len(cards) < spec.min_run or len({s for _, s in cards}) != 1:
        return False
    ranks = sorted(r for r, _ in cards)
    if ranks == list(range(ranks[0], ranks[0] + len(ranks))):
        return True
    if spec.ace_high and ranks[0] == 0:  # the ace on top: ... Q K A, never K A 2
        high = sorted(13 if r == 0 else r for r in ranks)
        return high == list(range(high[0], high[0] + len(high)))
    return False


def candidates(hand: Sequence[tuple[int, int]], spec: MeldSpec) -> list[int]:
    """Every meld in the hand, as a bitmask over hand positions."""
    out = []
    groups: dict[tuple[str, int], list[int]] = {}
    for i, (r, s) in enumerate(hand):
        groups.setdefault(("rank", r), []).append(i)
        groups.setdefault(("suit", s), []).append(i)
    for (kind, _), idx in groups.items():
        for k in range(3 if kind == "rank" else spec.min_run, len(idx) + 1):
            for sub in combinations(idx, k):
                cards = [hand[i] for i in sub]
                if (kind == "rank" and is_set(cards, spec)) or (kind == "suit" and is_run(cards, spec)):
                    out.append(sum(1 << i for i in sub))
    if spec.set_min < 3:  # pairs as sets
        for r in {r for r, _ in hand}:
            idx = [i for i, (rr, _) in enumerate(hand) if rr == r]
            for sub in combinations(idx, 2):
                if is_set([hand[i] for i in sub], spec):
                    out.append(sum(1 << i for i in sub))
    return out


class Oracle:
    """Least deadwood of a hand and of each of its subsets, by exhaustive search."""

    def __init__(self, hand: Sequence[tuple[int, int]], spec: MeldSpec = MeldSpec()) -> None:
        self.hand = list(hand)
        self.spec = spec
        self.values = [spec.points[r] for r, _ in self.hand]
        self.cands = candidates(self.hand, spec)
        self.by_low: dict[int, list[int]] = {}
        for m in self.cands:
            low = (m & -m).bit_length() - 1
            self.by_low.setdefault(low, []).append(m)
        self.melded = lru_cache(maxsize=None)(self._melded)

    def _melded(self, avail: int) -> tuple[int, tuple[int, ...]]:
        """(most points melded, the melds) using only the positions in avail."""
        if avail == 0:
            return 0, ()
        low = (avail & -avail).bit_length() - 1
        best = self.melded(avail & ~(1 << low))  # the lowest card is deadwood
        for m in self.by_low.get(low, ()):
            if m & ~avail == 0:
                v, ms = self.melded(avail & ~m)
                v += sum(self.values[i] for i in range(len(self.hand)) if m >> i & 1)
                if v > best[0]:
                    best = (v, (m, *ms))
        return best

    def deadwood(self, skip: int | None = None) -> int:
        """Least deadwood of the hand, or of the hand without position ``skip``."""
        avail = (1 << len(self.hand)) - 1
        if skip is not None:
            avail &= ~(1 << skip)
        total = sum(self.values[i] for i in range(len(self.hand)) if avail >> i & 1)
        return total - self.melded(avail)[0]

    def discard_deadwood(self) -> int:
        """Least deadwood after the best single discard."""
        return min(self.deadwood(i) for i in range(len(self.hand)))

    def discards(self) -> set[int]:
        """Every position whose discard leaves the least deadwood."""
        after = [self.deadwood(i) for i in range(len(self.hand))]
        return {i for i, dw in enumerate(after) if dw == min(after)}


def mask_to_pairs(mask: int) -> list[tuple[int, int]]:
    return [(b % 16, b // 16) for b in range(64) if mask >> b & 1]


def oracle_deadwood(mask: int, spec: MeldSpec = MeldSpec(), discard: bool = False) -> int:
    o = Oracle(mask_to_pairs(mask), spec)
    return o.discard_deadwood() if discard else o.deadwood()
