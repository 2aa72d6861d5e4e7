"""Brute-force oracle for hands with wild cards and one to three decks (Three Thirteen).

A hand is a list of (rank, suit) pairs, possibly with repeats. Every card of the wild rank
is wild: it may stand for any card, or for itself. A meld is any sub-multiset of the hand,
of 3+ cards, that is a set (all naturals one rank) or a run (naturals of one suit at
distinct places of a line of consecutive ranks; the ace low, or also high with ace_high;
K-A-2 never), where a wild standing for itself counts as a natural. Every sub-multiset is
a candidate; every disjoint combination is searched.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations, product

POINTS = (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10)


@dataclass(frozen=True)
class WildSpec:
    wild_rank: int
    points: tuple[int, ...] = POINTS
    ace_high: bool = False
    max_wilds_per_meld: int | None = None
    min_non_wild: int = 0
    identical_in_set: bool = True
    wild_as_self: bool = True
    """A card of the wild rank may stand for itself."""


def _as_set(naturals: list[tuple[int, int]], n: int, spec: WildSpec) -> bool:
    if len({r for r, _ in naturals}) > 1:
        return False
    return spec.identical_in_set or len({s for _, s in naturals}) == len(naturals)


def _as_run(naturals: list[tuple[int, int]], n: int, spec: WildSpec) -> bool:
    if n > 13 or len({s for _, s in naturals}) > 1:
        return False
    lines = [[r for r, _ in naturals]]
    if spec.ace_high:
        lines.append([13 if r == 0 else r for r, _ in naturals])
    top = 13 if spec.ace_high else 12
    for places in lines:
        if len(set(places)) != len(places):
            continue
        if not places:
            return True
        lo, hi = min(places), max(places)
        # the run of n places must hold lo..hi and fit on the line 0..top
        if hi - lo + 1 <= n <= top + 1 and max(0, hi - n + 1) <= min(lo, top - n + 1):
            return True
    return False


def is_meld(cards: list[tuple[int, int]], spec: WildSpec) -> bool:
    """Can these cards, as one meld, be a set or a run (trying each wild as itself or wild)?"""
    n = len(cards)
    if n < 3:
        return False
    fixed = [c for c in cards if c[0] != spec.wild_rank]
    wilds = [c for c in cards if c[0] == spec.wild_rank]
    for as_self in product((False, True) if spec.wild_as_self else (False,), repeat=len(wilds)):
        naturals = fixed + [w for w, keep in zip(wilds, as_self, strict=True) if keep]
        n_wild = n - len(naturals)
        if spec.max_wilds_per_meld is not None and n_wild > spec.max_wilds_per_meld:
            continue
        if len(naturals) < spec.min_non_wild:
            continue
        if _as_set(naturals, n, spec) or _as_run(naturals, n, spec):
            return True
    return False


class WildOracle:
    """Least penalty of a hand (a list of (rank, suit), repeats allowed) and of its subsets."""

    def __init__(self, hand: list[tuple[int, int]], spec: WildSpec) -> None:
        self.hand = list(hand)
        self.spec = spec
        self.values = [spec.points[r] for r, _ in self.hand]
        n = len(self.hand)
        self.melds: dict[int, list[int]] = {}
        wild = [i for i, (r, _) in enumerate(self.hand) if r == spec.wild_rank]
        groups: dict[tuple[str, int], list[int]] = {}
        for i, (r, s) in enumerate(self.hand):
            if r != spec.wild_rank:
                groups.setdefault(("rank", r), []).append(i)
                groups.setdefault(("suit", s), []).append(i)
        # wilds standing for themselves join their own rank and suit groups too
        for i in wild:
            r, s = self.hand[i]
            groups.setdefault(("rank", r), [])
            groups.setdefault(("suit", s), [])
        seen: set[int] = set()
        pools = [idx for idx in groups.values()] + [[]]
        for idx in pools:
            pool = sorted(set(idx) | set(wild))
            for k in range(3, len(pool) + 1):
                for sub in combinations(pool, k):
                    m = sum(1 << i for i in sub)
                    if m in seen:
                        continue
                    seen.add(m)
                    if is_meld([self.hand[i] for i in sub], spec):
                        self.melds.setdefault(sub[0], []).append(m)
        self.best = lru_cache(maxsize=None)(self._best)
        self.all = (1 << n) - 1

    def _best(self, avail: int) -> int:
        """Most points melded using only the positions in avail."""
        if avail == 0:
            return 0
        low = (avail & -avail).bit_length() - 1
        best = self.best(avail & ~(1 << low))
        for m in self.melds.get(low, ()):
            if m & ~avail == 0:
                v = self.best(avail & ~m) + sum(self.values[i] for i in range(len(self.hand)) if m >> i & 1)
                best = max(best, v)
        return best

    def penalty(self, skip: int | None = None) -> int:
        avail = self.all if skip is None else self.all & ~(1 << skip)
        return sum(self.values[i] for i in range(len(self.hand)) if avail >> i & 1) - self.best(avail)

    def going_out(self) -> set[int]:
        """Positions whose discard leaves every other card melded."""
        return {i for i in range(len(self.hand)) if self.penalty(i) == 0}
