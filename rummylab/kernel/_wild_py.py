"""Exact meld search with wild cards and up to three decks (Three Thirteen, Indian rummy).

A hand is three one-deck masks, ``once`` (cards held at least once), ``twice`` (held at
least twice) and ``thrice`` (held three times; three decks only), plus printed jokers.
Every card of the wild rank is wild: it stands for any card or for itself. The search
takes the lowest remaining natural card and tries it as deadwood, in a set with later
cards of its rank, or in a run of its suit; each meld notes how many more wilds it could
absorb, so leftover wilds are charged only when no meld can take them.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import product
from typing import Any

from ..cards import ACES, FULL_DECK, RANK_MASK, bits_of

UNLIMITED = 99
IMPOSSIBLE = 1 << 29  # the penalty when no arrangement meets the runs required


Hand = tuple[int, int, int]
"""(once, twice, thrice): the cards held at least once, twice, three times."""


def _remove(hand: Hand, bit: int) -> Hand:
    """Take one copy of a card out of a hand."""
    once, twice, thrice = hand
    if thrice & bit:
        return once, twice, thrice & ~bit
    return (once, twice & ~bit, thrice) if twice & bit else (once & ~bit, twice, thrice)


def _add(hand: Hand, bit: int) -> Hand:
    """Put one more copy of a card into a hand."""
    once, twice, thrice = hand
    if twice & bit:
        return once, twice, thrice | bit
    return (once, twice | bit, thrice) if once & bit else (once | bit, twice, thrice)


def _copies(hand: Hand, bit: int) -> int:
    return sum(1 for m in hand if m & bit)


def _dead(hand: Hand, total: int, ace_high: bool) -> int:
    """The cards (``total`` <= 1 wild cards left) that no meld can hold: with no wild card, not in
    three of a rank or three in a row; with one, no other card of the rank and no card of the
    suit within two places."""
    once = hand[0]
    h = once | ((once & ACES) << 13 if ace_high else 0)  # the ace again above the king
    if total == 0:
        starts = h & (h >> 1) & (h >> 2)
        near = starts | (starts << 1) | (starts << 2)
    else:
        near = (h >> 1) | (h << 1) | (h >> 2) | (h << 2)
    if ace_high:
        near |= (near >> 13) & ACES
    # copies of each rank, counted to three: fold the four suits' (>= 1, >= 2, >= 3) masks in pairs
    c1, c2, c3 = hand
    for shift in (32, 16):
        b1, b2, b3 = c1 >> shift, c2 >> shift, c3 >> shift
        c1, c2, c3 = c1 | b1, c2 | b2 | (c1 & b1), c3 | b3 | (c2 & b1) | (c1 & b2)
    near |= ((c3 if total == 0 else c2) & RANK_MASK) * ACES
    return once & ~near & FULL_DECK


class WildKernel:
    """Least penalty of two-deck hands with wild cards."""

    def __init__(self, points: Sequence[int], *, ace_high: bool = False, max_wilds: int | None = None,
                 min_non_wild: int = 0, identical_in_set: bool = True, set_max: int | None = None,
                 min_runs: int = 0, min_pure_runs: int = 0, wild_natural_in_pure: bool = True,
                 min_life_length: int = 3, wild_as_self: bool = True, run_max: int | None = None) -> None:
        if len(points) != 13 or not all(0 <= int(v) <= 19 for v in points):
            raise ValueError(f"points must be 13 values from 0 to 19, ace to king, not {points!r}")
        if not (0 <= min_runs <= 3 and 0 <= min_pure_runs <= 3):
            raise ValueError(f"min_runs and min_pure_runs must be 0..3, not {min_runs}, {min_pure_runs}")
        if not 3 <= min_life_length <= 13:
            raise ValueError(f"min_life_length must be 3..13, not {min_life_length}")
        self.min_life_length = int(min_life_length)
        self.run_max = 13 if run_max is None else int(run_max)
        """The longest run."""
        if not min_life_length <= self.run_max <= 13:
            raise ValueError(f"run_max must be min_life_length..13, not {run_max}")
        self.min_runs = max(int(min_runs), int(min_pure_runs))
        self.min_pure_runs = int(min_pure_runs)
        self.wild_natural_in_pure = bool(wild_natural_in_pure)
        self.wild_as_self = bool(wild_as_self)
        """A card of the wild rank may stand for itself (else it is always wild)."""
        self.points = tuple(int(v) for v in points)
        self.ace_high = bool(ace_high)
        self.max_wilds = UNLIMITED if max_wilds is None else int(max_wilds)
        self.min_non_wild = int(min_non_wild)
        self.identical_in_set = bool(identical_in_set)
        self.set_max = UNLIMITED if set_max is None else int(set_max)
        self._top = 13 if ace_high else 12

    # -- leftover wilds -----------------------------------------------------

    def _own_melds(self, n: int) -> int:
        """Most of n leftover wilds that can form melds of wilds only."""
        if self.min_non_wild > 0 or self.max_wilds < 3:
            return 0
        hi = min(self.max_wilds, self.set_max if self.set_max < UNLIMITED else UNLIMITED)
        best = [0] * (n + 1)  # best[k]: most of k wilds placed in melds of 3..hi
        for k in range(3, n + 1):
            best[k] = max(best[k - 1], max((best[k - size] + size for size in range(3, min(hi, k) + 1)), default=0))
        return best[n]

    # -- the search ---------------------------------------------------------

    def _wild_cards(self, hand: Hand, wild_rank: int) -> list[int]:
        if wild_rank < 0:
            return []
        return [b for s in range(4) for b in [1 << (16 * s + wild_rank)] for _ in range(_copies(hand, b))]

    def _choices_of_wilds(self, hand: Hand, wild_rank: int):  # type: ignore[no-untyped-def]
        """(naturals, wild cards left wild) for each way of letting wild cards stand for
        themselves; only one way unless melds limit their wilds or a wild card can keep a
        run pure."""
        wild_mask = sum(1 << (16 * s + wild_rank) for s in range(4)) if wild_rank >= 0 else 0
        wild_cards = self._wild_cards(hand, wild_rank)
        once = hand[0]
        limited = self.max_wilds < UNLIMITED or self.min_non_wild > 0
        pure = self.min_pure_runs > 0 and self.wild_natural_in_pure
        # a wild card standing for itself only helps where melds limit their wilds, or in a
        # pure run: next to two held cards of its suit
        free = [b for b in wild_cards if self.wild_as_self and (limited or (pure and self._in_run_of_three(once, b)))]
        seen = set()
        for as_self in product((False, True), repeat=len(free)):
            naturals: Hand = (hand[0] & ~wild_mask, hand[1] & ~wild_mask, hand[2] & ~wild_mask)
            for bit, keep in zip(free, as_self, strict=True):
                if keep:
                    naturals = _add(naturals, bit)
            if naturals in seen:
                continue
            seen.add(naturals)
            yield naturals, len(wild_cards) - sum(as_self)

    def _in_run_of_three(self, once: int, bit: int) -> bool:
        pos = bit.bit_length() - 1
        suit, rank = pos // 16, pos % 16
        held = once >> (16 * suit) & RANK_MASK
        if self._top == 13:
            held |= (held & 1) << 13  # the ace above the king
        starts = [lo for lo in range(rank - 2, rank + 1) if lo >= 0 and lo + 2 <= self._top]
        if rank == 0 and self._top == 13:
            starts.append(11)
        return any(held >> lo & 7 == 7 for lo in starts)

    def penalty(self, once: int, twice: int, wild_rank: int, jokers: int = 0, joker_value: int = 0,
                wild_value: int | None = None, thrice: int = 0) -> int:
        """Least penalty of the hand: cards of ``wild_rank`` (-1: none) are wild, each worth
        ``wild_value`` (default: its points) when left over; ``jokers`` printed jokers, each
        worth ``joker_value``. IMPOSSIBLE when no arrangement has the runs required."""
        return self._least(once, twice, wild_rank, jokers, joker_value, wild_value, thrice)

    def _least(self, once: int, twice: int, wild_rank: int, jokers: int, joker_value: int,
               wild_value: int | None, thrice: int, discard: bool = False) -> int:
        """``penalty``; with ``discard``, the least after discarding one card or joker, in one
        search (a card still to discard is part of the state)."""
        wv = (self.points[wild_rank] if wild_rank >= 0 else 0) if wild_value is None else int(wild_value)
        if self.min_pure_runs and self.best_pure_run(once, twice, wild_rank) < 0:
            return IMPOSSIBLE  # no pure run to be had (a discard never makes one)
        best = IMPOSSIBLE
        for naturals, n_wild in self._choices_of_wilds((once, twice, thrice), wild_rank):
            search = _Search(self, wild_rank, wv, joker_value)
            if wv == joker_value:  # then wild cards and jokers are alike
                n_wild, n_jokers = 0, jokers + n_wild
            else:
                n_jokers = jokers
            best = min(best, search.value(naturals, n_wild, n_jokers, 0, (0, 0), discard))
        return best

    def arrangement(self, once: int, twice: int, wild_rank: int, jokers: int = 0, joker_value: int = 0,
                    wild_value: int | None = None, thrice: int = 0) -> tuple[int, list[tuple], Hand, int]:
        """(penalty, melds, leftover naturals as (once, twice, thrice), wild cards left over).

        Each meld is ("set", rank, natural bits, wilds) or ("run", suit, first place, length,
        natural bits, wilds), where bits list one card bit per natural card (repeats allowed);
        a run whose first item is "pure" is a run without wilds that must stay so."""
        wv = (self.points[wild_rank] if wild_rank >= 0 else 0) if wild_value is None else int(wild_value)
        best = None
        for naturals, n_wild in self._choices_of_wilds((once, twice, thrice), wild_rank):
            search = _Search(self, wild_rank, wv, joker_value, walk=True)
            v = search.value(naturals, n_wild, jokers, 0, (0, 0))
            if v < IMPOSSIBLE and (best is None or v < best[0]):
                best = (v, search.walk(naturals, n_wild, jokers))
        if best is None:
            return IMPOSSIBLE, [], (once, twice, thrice), 0
        return best[0], *best[1]

    def best_pure_run(self, once: int, twice: int, wild_rank: int) -> int:
        """Most points held in one run without wilds that counts as a life (-1: none); a wild
        card in its own place counts there, worth nothing, when ``wild_natural_in_pure``."""
        best = -1
        for suit in range(4):
            values: list[int] = []  # the run ending here, nearest last
            for q in range(self._top + 1):
                r = q % 13
                if once >> (16 * suit + r) & 1 and (r != wild_rank or self.wild_natural_in_pure):
                    values.append(0 if r == wild_rank else self.points[r])
                    if len(values) >= self.min_life_length:
                        best = max(best, sum(values[-self.run_max:]))  # the longest run ending here is dearest
                else:
                    values = []
        return best

    def _loser(self, once: int, twice: int, jokers: int, wild_rank: int, exclude_pure: bool, cap: int,
               valid_show: int) -> int:
        return loser_count(self, once, twice, jokers, wild_rank, exclude_pure, cap, valid_show)

    def _every_card(self, once: int, twice: int, wild_rank: int) -> list[int]:
        """The points of each natural card held (wild cards count nothing), a copy each."""
        wild = (ACES << wild_rank) if wild_rank >= 0 else 0
        return [self.points[(b.bit_length() - 1) % 16] for m in (once, twice) for b in bits_of(m & ~wild)]

    def _every_but_pure_after_discard(self, once: int, twice: int, jokers: int, wild_rank: int) -> int:
        """The least, over each card (or joker) discarded, of every natural card's points less
        the best pure run's (the "exclude_pure" count without two lives)."""
        every = sum(self._every_card(once, twice, wild_rank))
        options = [every - max(self.best_pure_run(once, twice, wild_rank), 0)] if jokers else []
        for bit in bits_of(once):
            o2, t2, _ = _remove((once, twice, 0), bit)
            rank = (bit.bit_length() - 1) % 16
            value = 0 if rank == wild_rank else self.points[rank]
            options.append(every - value - max(self.best_pure_run(o2, t2, wild_rank), 0))
        return min(options, default=every)

    def loser_after_discard(self, once: int, twice: int, wild_rank: int, jokers: int = 0,
                            exclude_pure: bool = False, cap: int = 80, valid_show: int = 2) -> int:
        """Loser points of a hand after its best discard (a card or a printed joker), found in one
        search: the least of ``loser_points_batch``'s points over the hand less each card.

        The search with a card to discard gives the least count with the runs required; every
        card (bar the best pure run, by option) less the best card to discard, and the cap, bound
        it. When a discard leaves every card in groups (the valid show), another discard can
        only count less by its every-card count or by a natural card cheaper than the valid
        show: then (rarely, never under the Indian defaults) each discard is counted on its own."""
        if not -1 <= wild_rank <= 12 or not 0 <= jokers <= 4:
            raise ValueError("wild_rank must be -1..12 and jokers 0..4")
        once, twice = int(once), int(twice)
        shown = min(valid_show, cap)
        naturals = self._every_card(once, twice, wild_rank)
        if self.min_pure_runs and self.best_pure_run(once, twice, wild_rank) < 0:
            # no pure run with any discard: every card counts, bar the dearest
            return min(sum(naturals) - max(naturals, default=0), cap)
        if exclude_pure:
            every = self._every_but_pure_after_discard(once, twice, jokers, wild_rank)
        else:
            every = sum(naturals) - max(naturals, default=0)
        limit = min(every, cap)
        v = self._least(once, twice, wild_rank, jokers, 0, 0, 0, discard=True)
        if v > 0:
            return min(v, limit)
        if every >= shown and all(p >= shown for q, p in enumerate(self.points) if q != wild_rank):
            return shown
        kept = [(once, twice, jokers - 1)] if jokers else []
        kept += [(*_remove((once, twice, 0), bit)[:2], jokers) for bit in bits_of(once)]
        return min(self._loser(o, t, j, wild_rank, exclude_pure, cap, valid_show) for o, t, j in kept)

    def loser_points_batch(self, once: Any, twice: Any, jokers: Any, wild_rank: int,
                           out: Any, exclude_pure: bool = False, cap: int = 80, valid_show: int = 2,
                           discard: bool = False, each_card: bool = False) -> None:
        """out[i] = points of hand i: ``valid_show`` when every card fits the runs required, else
        the least of the cards left over with those runs and every card (or every card but the
        best pure run); at most ``cap``; wild cards and jokers count nothing. With ``discard``,
        the least such points after discarding one card, in one search (``each_card``: one
        search per distinct card, the same points, kept to compare)."""
        if not len(once) == len(twice) == len(jokers) == len(out):
            raise ValueError("once, twice, jokers and out must have the same length")
        if not -1 <= wild_rank <= 12:
            raise ValueError("wild_rank must be -1..12")
        for i, (o, t, n) in enumerate(zip(once, twice, jokers, strict=True)):
            o, t, n = int(o), int(t), int(n)
            if n > 4:
                raise ValueError(f"hand {i} holds {n} jokers; at most 4")
            if not discard:
                out[i] = self._loser(o, t, n, wild_rank, exclude_pure, cap, valid_show)
                continue
            if not each_card:
                out[i] = self.loser_after_discard(o, t, wild_rank, n, exclude_pure, cap, valid_show)
                continue
            options = [self._loser(o, t, n - 1, wild_rank, exclude_pure, cap, valid_show)] if n else []
            for bit in bits_of(o):
                o2, t2, _ = _remove((o, t, 0), bit)
                options.append(self._loser(o2, t2, n, wild_rank, exclude_pure, cap, valid_show))
            out[i] = min(options)

    def penalty_batch(self, once: Any, twice: Any, wild_rank: int, out: Any, jokers: int = 0,
                      joker_value: int = 0, thrice: Any = None, related: bool = False,
                      discard: bool = False) -> None:
        """out[i] = penalty of (once[i], twice[i], thrice[i]) (no thrice: two decks); ``related``
        (variations of one hand) lets the compiled kernel share its memo, and changes nothing here.
        ``discard``: the least penalty after discarding one card (each card tried in turn)."""
        if not len(once) == len(twice) == len(out) or (thrice is not None and len(thrice) != len(once)):
            raise ValueError("once, twice, thrice and out must have the same length")
        if not -1 <= wild_rank <= 12 or not 0 <= jokers <= 4:
            raise ValueError("wild_rank must be -1..12 and jokers 0..4")
        for i in range(len(once)):
            hand = (int(once[i]), int(twice[i]), int(thrice[i]) if thrice is not None else 0)
            if not discard:
                out[i] = self.penalty(hand[0], hand[1], wild_rank, jokers, joker_value, None, hand[2])
                continue
            kept = [(_remove(hand, 1 << b), jokers) for b in range(64) if hand[0] >> b & 1]
            kept += [(hand, jokers - 1)] if jokers else []
            out[i] = min((self.penalty(h[0], h[1], wild_rank, j, joker_value, None, h[2]) for h, j in kept),
                         default=IMPOSSIBLE)

    def _sets(self, hand: Hand, suit: int, rank: int):  # type: ignore[no-untyped-def]
        """(wilds needed, room for more, hand left, (rank, natural bits)) for each set holding
        the lowest card."""
        counts = []
        for s in range(4):
            bit = 1 << (16 * s + rank)
            n = _copies(hand, bit)
            if not self.identical_in_set:
                n = 0 if s == suit else min(n, 1)
            counts.append((bit, n))
        for take in product(*[range(n + 1) for _, n in counts]):
            naturals = 1 + sum(take)
            need = max(0, 3 - naturals)
            size = naturals + need
            if need > self.max_wilds or naturals < self.min_non_wild or size > self.set_max:
                continue
            left = hand
            bits = [1 << (16 * suit + rank)]
            for (bit, _), k in zip(counts, take, strict=True):
                for _ in range(k):
                    left = _remove(left, bit)
                    bits.append(bit)
            extra = min(self.max_wilds - need, self.set_max - size)
            yield need, extra, left, (rank, tuple(bits))

    def _runs(self, hand: Hand, suit: int, rank: int):  # type: ignore[no-untyped-def]
        """(wilds needed, room for more, hand left, (suit, first place, length, natural bits)) for
        each run holding the lowest card.

        The lowest card is the lowest remaining card of its suit, so on the ace-low line
        every other natural of the run lies above it; on the ace-high line (the ace at 13)
        every other natural lies below it."""
        shift = 16 * suit
        line_places = [rank] + ([13] if rank == 0 and self.ace_high else [])
        for p in line_places:
            step = -1 if p == 13 else 1
            # places beyond p, away from it, that hold a remaining natural of this suit
            others = []
            q = p + step
            while 0 <= q <= self._top and abs(q - p) <= 12:
                r = q % 13
                bit = 1 << (shift + r)
                if r != rank and hand[0] & bit:
                    others.append((q, bit))
                q += step
            for k in range(len(others) + 1):
                for chosen in _subsets(others, k):
                    far = chosen[-1][0] if chosen else p
                    span = abs(far - p) + 1
                    if span > self.run_max:
                        continue
                    naturals = 1 + len(chosen)
                    gaps = span - naturals
                    length = max(3, span)
                    need = gaps + (length - span)
                    if need > self.max_wilds or naturals < self.min_non_wild:
                        continue
                    left = hand
                    for _, bit in chosen:
                        left = _remove(left, bit)
                    extra = min(self.max_wilds - need, self.run_max - length)
                    places = sorted([p] + [q for q, _ in chosen])
                    first = min(places[0], self._top - length + 1)
                    bits = tuple(1 << (shift + q % 13) for q in places)
                    yield need, extra, left, (suit, first, length, bits)


class _Search:
    """One search of one hand: memo, the values of leftover wilds, the runs still required."""

    def __init__(self, k: WildKernel, wild_rank: int, wild_value: int, joker_value: int, walk: bool = False):
        self.k = k
        self.wild_value, self.joker_value = wild_value, joker_value
        self.wild_mask = sum(1 << (16 * s + wild_rank) for s in range(4)) if wild_rank >= 0 else 0
        self.memo: dict[tuple, int] = {}
        self.choices: dict[tuple, tuple] | None = {} if walk else None
        self.top = max(*k.points, wild_value, joker_value)
        """The most a card left over can cost: no card discarded later beats discarding one worth this."""

    def _pure_left(self, once: int) -> bool:
        """Do these naturals still hold a run without wilds long enough for a life?"""
        k = self.k
        h = once if k.wild_natural_in_pure else once & ~self.wild_mask
        if k.ace_high:
            h |= (h & ACES) << 13  # the ace again above the king
        starts = h
        for i in range(1, k.min_life_length):
            starts &= h >> i
        return starts != 0

    def _leaf(self, wilds: int, jokers: int, cap: int, lives: tuple[int, int]) -> int:
        k = self.k
        if lives[0] < k.min_pure_runs or lives[1] < k.min_runs:
            return IMPOSSIBLE
        total = wilds + jokers
        left = total - cap
        left -= k._own_melds(left)
        # the cheapest leftovers are charged: place the dearer kind first
        dear_first = sorted([self.wild_value] * wilds + [self.joker_value] * jokers, reverse=True)
        return sum(dear_first[total - left:]) if left > 0 else 0

    def value(self, hand: Hand, wilds: int, jokers: int, capacity: int, lives: tuple[int, int],
              drop: bool = False) -> int:
        """Least penalty of these naturals, with wilds and printed jokers still to place, room
        for ``capacity`` more of them in melds already made, and (pure runs, runs) made; with
        ``drop``, one card is still to be discarded for nothing (a natural card as the lowest,
        or a dead card, or else a wild card or joker left over)."""
        k = self.k
        total = wilds + jokers
        room_counts = bool(self.wild_value or self.joker_value)
        cap = min(capacity, total) if room_counts else 0  # room matters when leftovers cost
        key = (hand, wilds, jokers, cap, lives, drop)
        if key in self.memo:
            return self.memo[key]
        if lives[0] < k.min_pure_runs and not self._pure_left(hand[0]):
            self.memo[key] = IMPOSSIBLE  # the pure run required can no longer be made
            return IMPOSSIBLE
        dead = _dead(hand, total, k.ace_high) if total <= 1 else 0
        if dead:  # cards no meld can hold are deadwood
            rest: Hand = (hand[0] & ~dead, hand[1] & ~dead, hand[2] & ~dead)
            points = sum(k.points[p % 16] * _copies(hand, 1 << p) for p in range(64) if dead >> p & 1)
            dearest = max(k.points[p % 16] for p in range(64) if dead >> p & 1)
            best = IMPOSSIBLE
            if drop:  # the discard: the dearest of them, or a card found later (unless none is dearer)
                best = min(best, points - dearest + self.value(rest, wilds, jokers, capacity, lives))
            if not drop or dearest < self.top:
                best = min(best, points + self.value(rest, wilds, jokers, capacity, lives, drop))
            if self.choices is not None and not drop:
                dead_hand = (dead, hand[1] & dead, hand[2] & dead)
                self.choices[key] = ("dead", dead_hand, 0, 0, rest, 0, lives)
            self.memo[key] = best
            return best
        once = hand[0]
        if once == 0:
            if not drop:
                best = self._leaf(wilds, jokers, cap, lives)
            else:  # the discard is a wild card or a joker left over (none: impossible)
                cap = min(capacity, total - 1) if room_counts else 0
                best = IMPOSSIBLE
                if wilds:
                    best = self._leaf(wilds - 1, jokers, cap, lives)
                if jokers:
                    best = min(best, self._leaf(wilds, jokers - 1, cap, lives))
            self.memo[key] = best
            return best
        low = once & -once
        pos = low.bit_length() - 1
        suit, rank = pos // 16, pos % 16
        rest = _remove(hand, low)
        # melds first, the first best kept; then the card as deadwood, which wins a tie and is
        # only searched when its own points do not already exceed the best meld (0 is least)
        best = IMPOSSIBLE
        pick: tuple = ("dead", (low, 0, 0), 0, 0, rest, 0, lives)
        for kind, gen in (("set", k._sets), ("run", k._runs)):
            for used, extra, left, info in gen(rest, suit, rank):
                for pure, need, room, after, shape in self._lives(kind, used, extra, info, lives):
                    v, from_w = self._place(left, need, room, wilds, jokers, capacity, after, drop)
                    if v < best:
                        tag = "pure" if pure else kind
                        best, pick = v, (kind, (tag, *shape), need, room, left, from_w, after)
                if best == 0:
                    break
            if best == 0:
                break
        if drop and best > 0:  # the lowest card discarded
            best = min(best, self.value(rest, wilds, jokers, capacity, lives))
        # as deadwood; with a card still to discard, only while a later card may be dearer
        # (else discarding this one is never worse)
        if k.points[rank] <= best and not (drop and k.points[rank] >= self.top):
            v = min(IMPOSSIBLE, k.points[rank] + self.value(rest, wilds, jokers, capacity, lives, drop))
            if v <= best:
                best, pick = v, ("dead", (low, 0, 0), 0, 0, rest, 0, lives)
        if self.choices is not None and not drop:
            self.choices[key] = pick
        self.memo[key] = best
        return best

    def _lives(self, kind: str, used: int, extra: int, info: tuple, lives: tuple[int, int]):  # type: ignore[no-untyped-def]
        """(pure, wilds needed, room for wilds, lives after, meld shape) for a meld: a run without
        wilds may count as pure (and then takes no more wilds) or as a run that can take them; a
        run too short for a life counts as one only when padded with wilds to that length."""
        k = self.k
        if kind == "set":
            yield False, used, extra, lives, info
            return
        runs = min(lives[1] + 1, k.min_runs)
        suit, first, length, bits = info
        life = length >= k.min_life_length
        natural_wild = any(b & self.wild_mask for b in bits)
        if life and used == 0 and k.min_pure_runs and (k.wild_natural_in_pure or not natural_wild):
            yield True, 0, 0, (min(lives[0] + 1, k.min_pure_runs), runs), info
            if extra == 0 or (self.wild_value == 0 and self.joker_value == 0):
                return  # room for wilds is worth nothing
        yield False, used, extra, ((lives[0], runs) if life else lives), info
        pad = k.min_life_length - length
        if not life and lives[1] < k.min_runs and used + pad <= k.max_wilds:
            longer = k.min_life_length
            yield (False, used + pad, min(k.max_wilds - used - pad, k.run_max - longer), (lives[0], runs),
                   (suit, min(first, k._top - longer + 1), longer, bits))

    def _place(self, left: Hand, need: int, extra: int, wilds: int, jokers: int, capacity: int,
               lives: tuple[int, int], drop: bool = False) -> tuple[int, int]:
        """(least penalty, wild cards used) after a meld that needs ``need`` wild cards (wild
        cards or printed jokers) and can take ``extra`` more."""
        best, split = IMPOSSIBLE, 0
        if need > wilds + jokers:
            return best, split
        # which kind fills the meld only matters by value left over: try both splits
        for from_wilds in sorted({min(need, wilds), max(0, need - jokers)}):
            from_jokers = need - from_wilds
            if 0 <= from_wilds <= wilds and 0 <= from_jokers <= jokers:
                v = self.value(left, wilds - from_wilds, jokers - from_jokers, capacity + extra, lives, drop)
                if v < best:
                    best, split = v, from_wilds
        return best, split

    def walk(self, hand: Hand, wilds: int, jokers: int) -> tuple[list[tuple], Hand, int]:
        """The melds of an optimal arrangement found by ``value``."""
        melds: list[list] = []
        rooms: list[int] = []
        dead: Hand = (0, 0, 0)
        capacity = 0
        lives = (0, 0)
        assert self.choices is not None
        while hand[0]:
            cap = min(capacity, wilds + jokers) if self.wild_value or self.joker_value else 0
            key = (hand, wilds, jokers, cap, lives, False)
            kind, info, need, extra, left, from_w, lives = self.choices[key]
            if kind == "dead":
                for layer in info:
                    for bit in bits_of(layer):
                        dead = _add(dead, bit)
            else:
                melds.append([*info, need])
                rooms.append(extra)
                wilds, jokers = wilds - from_w, jokers - (need - from_w)
                capacity += extra
            hand = left
        left = wilds + jokers
        for i, room in enumerate(rooms):  # leftover wilds join melds with room
            n = min(room, left)
            melds[i][-1] += n
            left -= n
        own = self.k._own_melds(left)
        if own:
            melds.append(["wild", own])
            left -= own
        return [tuple(m) for m in melds], dead, left


def _subsets(items: list, k: int):  # type: ignore[no-untyped-def]
    from itertools import combinations

    for c in combinations(items, k):
        yield list(c)


def loser_count(kernel: Any, once: int, twice: int, jokers: int, wild_rank: int, exclude_pure: bool, cap: int,
                valid_show: int) -> int:
    """Loser points of one hand by either kernel: ``valid_show`` when every card fits the runs
    required, else the least of the count with those runs and every natural card (bar the best
    pure run, with ``exclude_pure``); at most ``cap``."""
    v = int(kernel.penalty(once, twice, wild_rank, jokers, 0, 0))
    if v == 0:
        return min(valid_show, cap)
    wild = (ACES << wild_rank) if wild_rank >= 0 else 0
    every = sum(kernel.points[(b.bit_length() - 1) % 16] for m in (once, twice) for b in bits_of(m & ~wild))
    if exclude_pure:
        every -= max(int(kernel.best_pure_run(once, twice, wild_rank)), 0)
    return min(v, every, cap)
