"""Brute-force oracle for Indian rummy hands (two decks, printed jokers, a wild rank).

A hand is a list of (rank, suit) pairs, repeats allowed; a printed joker is JOKER. A group
is any sub-multiset of 3+ cards; each is tried as a pure sequence, an impure sequence or a
set (its strongest role counts) straight from the definitions (every wild card as itself or as a joker), and every
disjoint choice of groups and roles is searched for the least count with the lives
required (at least two sequences, one of them pure).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations, product

JOKER = (-1, -1)
POINTS = (10, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10)
INF = 1 << 20


@dataclass(frozen=True)
class IndianSpec:
    wild_rank: int  # -1: none
    ace_high: bool = True
    jokers_only_group: bool = True
    wild_natural_in_pure: bool = True
    set_allow_duplicate_suits: bool = False
    set_max_size: int | None = 4
    max_jokers_per_group: int | None = None
    min_life_length: int = 3
    sequence_max_size: int | None = None
    no_second_life_rule: str = "all_cards"
    valid_show_points: int = 2
    cap: int = 80


def _fits_line(places: list[int], n: int, top: int) -> bool:
    if len(set(places)) != len(places) or not places:
        return False
    lo, hi = min(places), max(places)
    return hi - lo + 1 <= n <= top + 1 and max(0, hi - n + 1) <= min(lo, top - n + 1)


def _is_sequence(naturals: list[tuple[int, int]], n: int, ace_high: bool) -> bool:
    """Naturals of one suit at distinct places of n consecutive ones, ace low (A-2-3) or
    high (Q-K-A), never K-A-2."""
    if n < 3 or len({s for _, s in naturals}) != 1:
        return False
    low = [r for r, _ in naturals]
    high = [13 if r == 0 else r for r, _ in naturals]
    return n <= 13 and (_fits_line(low, n, 12) or (ace_high and _fits_line(high, n, 13)))


def best_role(cards: tuple[tuple[int, int], ...], spec: IndianSpec) -> str | None:
    """The strongest role these cards can take as one group: "pure" (a sequence of naturals),
    "impure" (a sequence with a joker standing in), "set", or None."""
    n = len(cards)
    if n < 3:
        return None
    wilds = [c for c in cards if c != JOKER and c[0] == spec.wild_rank]
    fixed = [c for c in cards if c != JOKER and c[0] != spec.wild_rank]
    # what the other cards already rule out, whatever the wild cards stand for: a sequence needs
    # one suit (and at most 13 places), a set one rank (and at most set_max_size cards)
    may_run = n <= (spec.sequence_max_size or 13) and len({s for _, s in fixed}) <= 1
    if may_run and fixed:  # more naturals never fit n places where these do not
        low = [r for r, _ in fixed]
        may_run = _fits_line(low, n, 12) or (spec.ace_high and _fits_line([13 if r == 0 else r for r in low], n, 13))
    may_set = len({r for r, _ in fixed}) <= 1 and (spec.set_max_size is None or n <= spec.set_max_size)
    if not (may_run or may_set):
        return None
    best = None
    # every wild card as itself first: the only way to a pure sequence
    for as_self in product((True, False), repeat=len(wilds)):
        naturals = fixed + [w for w, keep in zip(wilds, as_self, strict=True) if keep]
        jokers = n - len(naturals)
        if spec.max_jokers_per_group is not None and jokers > spec.max_jokers_per_group:
            continue
        if may_run and naturals and _is_sequence(naturals, n, spec.ace_high):
            if jokers == 0 and (spec.wild_natural_in_pure or not any(as_self)):
                return "pure"
            best = "impure"
        if may_set and best is None:
            same_rank = len({r for r, _ in naturals}) <= 1
            distinct = spec.set_allow_duplicate_suits or len({s for _, s in naturals}) == len(naturals)
            if same_rank and distinct and (naturals or spec.jokers_only_group):
                best = "set"  # a group of jokers only counts as a set
    return best


_ROLES: dict[IndianSpec, dict[tuple, str | None]] = {}
"""best_role's answers, per spec (emptied when large)."""


class IndianOracle:
    def __init__(self, hand: list[tuple[int, int]], spec: IndianSpec, values: tuple[int, ...] = POINTS,
                 joker_value: int = 0) -> None:
        self.hand = sorted(hand)  # so a sub-multiset taken in index order is sorted
        self.spec = spec
        self.values = [joker_value if c == JOKER or c[0] == spec.wild_rank else values[c[0]] for c in self.hand]
        jok = [i for i, c in enumerate(self.hand) if c == JOKER or c[0] == spec.wild_rank]
        pools: dict[tuple[str, int], set[int]] = {}
        for i, (r, s) in enumerate(self.hand):
            if (r, s) != JOKER:
                pools.setdefault(("rank", r), set()).add(i)
                pools.setdefault(("suit", s), set()).add(i)
        self.groups: dict[int, list[tuple[int, int, int, bool]]] = {}
        seen: set[int] = set()
        roles = _ROLES.setdefault(spec, {})
        if len(roles) > 1 << 18:
            roles.clear()
        bit, card = [1 << i for i in range(len(self.hand))], self.hand.__getitem__
        for idx in [*pools.values(), set()]:
            pool = sorted(idx | set(jok))
            for k in range(3, len(pool) + 1):
                for sub in combinations(pool, k):
                    m = sum(map(bit.__getitem__, sub))
                    if m in seen:
                        continue
                    seen.add(m)
                    cards = tuple(map(card, sub))
                    role = roles[cards] if cards in roles else roles.setdefault(cards, best_role(cards, spec))
                    if role:
                        # the strongest role is never worse: pure counts as a sequence too; a
                        # sequence shorter than min_life_length is a group but not a life
                        life = k >= spec.min_life_length
                        dp, dq = (1, 1) if role == "pure" else (0, 1) if role == "impure" else (0, 0)
                        if not life:
                            dp = dq = 0
                        self.groups.setdefault(sub[0], []).append((m, dp, dq, role == "pure" and life))
        self.all = (1 << len(self.hand)) - 1
        self.least = lru_cache(maxsize=None)(self._least)

    def _value(self, m: int) -> int:
        return sum(self.values[i] for i in range(len(self.hand)) if m >> i & 1)

    def _least(self, avail: int, pure: int, seqs: int, drops: int) -> int:
        """Least value left ungrouped in avail, with pure sequences and sequences still
        required and cards still to discard (INF: impossible)."""
        if avail == 0:
            return 0 if pure <= 0 and seqs <= 0 and drops == 0 else INF
        low = (avail & -avail).bit_length() - 1
        rest = avail & ~(1 << low)
        # the lowest card in a group, discarded, or left over (searched only when it could win)
        best = INF
        for m, dp, dq, _ in self.groups.get(low, ()):
            if not m & ~avail:
                best = min(best, self.least(avail & ~m, max(pure - dp, 0), max(seqs - dq, 0), drops))
                if not best:
                    return 0  # nothing beats 0
        if drops:
            best = min(best, self.least(rest, pure, seqs, drops - 1))
        if self.values[low] < best:
            best = min(best, self.values[low] + self.least(rest, pure, seqs, drops))
        return best

    def count(self, lives: bool = True, drops: int = 0) -> int | None:
        """Least value left ungrouped (after discarding ``drops`` cards); None: the lives
        cannot be made."""
        v = self.least(self.all, 1, 2, drops) if lives else self.least(self.all, 0, 0, drops)
        return None if v >= INF else v

    def best_pure(self, avail: int) -> int:
        return max((self._value(m) for gs in self.groups.values() for m, _, _, pure in gs
                    if pure and m & ~avail == 0), default=-1)

    def _without_lives(self, avail: int) -> int:
        v = self._value(avail)
        if self.spec.no_second_life_rule == "exclude_pure":
            v -= max(self.best_pure(avail), 0)
        return v

    def loser_points(self) -> int:
        """13 cards: the least count with two lives (valid show when 0), or every card (but a
        pure sequence, by option) when that is less; at most the cap."""
        return self._loser_points(self.all)

    def _loser_points(self, avail: int) -> int:
        """``loser_points`` of the cards in avail."""
        c = self.least(avail, 1, 2, 0)
        v = self.spec.valid_show_points if c == 0 else min(c, self._without_lives(avail))
        return min(v, self.spec.cap)

    def loser_points_each_discard(self) -> int:
        """14 cards: the definition of the points after the best discard, the least
        ``loser_points`` of the hand less each card (the 13 kept share this oracle's groups and memo)."""
        return min(self._loser_points(self.all & ~(1 << i)) for i in range(len(self.hand)))

    def loser_points_after_discard(self) -> int:
        """14 cards: the least loser points over the 13 kept (valid_show_points <= 2)."""
        c = self.count(drops=1)
        # a discard whose every-card count is 0 leaves a valid hand (all naturals in one pure
        # sequence, the rest jokers), which scores the valid show instead
        alt = min((v for i in range(len(self.hand)) if (v := self._without_lives(self.all & ~(1 << i))) > 0),
                  default=INF)
        v = min(self.spec.valid_show_points, alt) if c == 0 else min(INF if c is None else c, alt)
        return min(v, self.spec.cap)
