# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Compiled wild-card meld search for up to three decks (twin: rummylab/kernel/_wild_py.py).

Same search as the twin: the lowest remaining natural card is deadwood, in a set with
later cards of its rank, or in a run of its suit; melds note how many more wild cards
they could take. States are memoised in an open-addressing table stamped with a
generation number, so no table is cleared between hands (_wild_memo.pxi). The search
is in _wild_search.pxi; this file holds the pure-run checks and the WildKernel class. Only
validated input may reach it.
"""

from libc.stdint cimport uint8_t, uint32_t, uint64_t, int32_t
from libc.stdlib cimport calloc, free

cdef extern from *:
    int __builtin_ctzll(unsigned long long) nogil
    int __builtin_clzll(unsigned long long) nogil

cdef enum:
    UNLIMITED = 99
    BIG = 1 << 29
    DROP = 16  # in ``lives``: one card is still to be discarded, for nothing
    BATCH_MEMO = 1 << 18  # states a batch's memo may hold before it starts afresh (a few MB)


include "_wild_memo.pxi"
include "_wild_search.pxi"


cdef int _best_pure_run(const Rules *r, uint64_t once, int wild_rank) noexcept nogil:
    """Most points held in one run without wilds that counts as a life (-1: none); a wild card
    in its own place counts there, worth nothing, when wild_natural_pure."""
    cdef int best = -1, suit, q, rk, value, length, i
    cdef int values[14]
    for suit in range(4):
        length = 0
        for q in range(r.top + 1):
            rk = q % 13
            if (once >> (16 * suit + rk)) & 1 and (rk != wild_rank or r.wild_natural_pure):
                values[length] = 0 if rk == wild_rank else r.points[rk]
                length += 1
                if length >= r.min_life:
                    value = 0  # the longest run ending here (at most run_max cards) is dearest
                    for i in range(length - 1, (length - r.run_max - 1) if length > r.run_max else -1, -1):
                        value += values[i]
                    if value > best:
                        best = value
            else:
                length = 0
    return best


cdef bint _has_pure_run(const Rules *r, uint64_t once, int wild_rank) noexcept nogil:
    """Does the hand hold three consecutive cards of a suit (a wild card in its own place
    counting when wild_natural_pure)?"""
    cdef uint64_t held
    cdef int s
    for s in range(4):
        held = (once >> (16 * s)) & 0x1FFF
        if wild_rank >= 0 and not r.wild_natural_pure:
            held &= ~((<uint64_t>1) << wild_rank)
        if r.top == 13:
            held |= (held & 1) << 13
        if held & (held >> 1) & (held >> 2):
            return True
    return False


cdef uint64_t _pure_cover(const Rules *r, uint64_t once, int wild_rank) noexcept nogil:
    """The cards of every run without wilds long enough for a life (a wild card in its own place
    counting when wild_natural_pure): the only cards whose discard can change _best_pure_run."""
    cdef uint64_t held, starts, cover, out = 0
    cdef int s, k
    for s in range(4):
        held = (once >> (16 * s)) & 0x1FFF
        if wild_rank >= 0 and not r.wild_natural_pure:
            held &= ~((<uint64_t>1) << wild_rank)
        if r.top == 13:
            held |= (held & 1) << 13  # the ace above the king
        starts = held
        for k in range(1, r.min_life):
            starts &= held >> k
        cover = 0
        for k in range(r.min_life):
            cover |= starts << k
        cover |= cover >> 13  # the ace above the king is the ace
        out |= (cover & 0x1FFF) << (16 * s)
    return out


cdef bint _two_runs(const Rules *r, uint64_t once, uint64_t twice, uint64_t thrice) noexcept nogil:
    """Can two runs of three natural cards be made at once?"""
    cdef int starts[64]
    cdef int suits[64]
    cdef int n = 0, s, q, a, b, k, need
    cdef int c[14]
    for s in range(4):
        for q in range(r.top + 1):
            c[q] = _copies(once, twice, thrice, (<uint64_t>1) << (16 * s + q % 13))
        for q in range(r.top - 1):
            if c[q] and c[q + 1] and c[q + 2]:
                starts[n] = q
                suits[n] = s
                n += 1
    for a in range(n):
        for b in range(a, n):
            if suits[a] != suits[b]:
                return True
            # same suit: each rank held at least as often as the two runs use it
            s = suits[a]
            for k in range(14):
                c[k] = 0
            for q in range(starts[a], starts[a] + 3):
                c[q % 13] += 1
            for q in range(starts[b], starts[b] + 3):
                c[q % 13] += 1
            need = 0
            for k in range(13):
                if c[k] > _copies(once, twice, thrice, (<uint64_t>1) << (16 * s + k)):
                    need = 1
                    break
            if not need:
                return True
    return False


cdef bint _in_run_of_three(const Rules *r, uint64_t once, int suit, int rank) noexcept nogil:
    """Is the card at ``rank`` of ``suit`` in three consecutive held cards of its suit?"""
    cdef uint64_t held = (once >> (16 * suit)) & 0x1FFF
    cdef int lo
    if r.top == 13:
        held |= (held & 1) << 13  # the ace above the king
    for lo in range(rank - 2, rank + 1):
        if lo >= 0 and lo + 2 <= r.top and (held >> lo) & 7 == 7:
            return True
    return rank == 0 and r.top == 13 and (held >> 11) & 7 == 7


cdef class WildKernel:
    """Least penalty of hands from up to three decks with wild cards (see rummylab/kernel/_wild_py.py;
    fields: ext/rummylab/kernel/_wild.pxd)."""

    def __cinit__(self):
        self.table.slots = NULL

    def __init__(self, points, *, bint ace_high=False, max_wilds=None, int min_non_wild=0,
                 bint identical_in_set=True, set_max=None, int min_runs=0, int min_pure_runs=0,
                 bint wild_natural_in_pure=True, int min_life_length=3, bint wild_as_self=True, run_max=None):
        cdef int i
        if len(points) != 13 or not all(0 <= int(v) <= 19 for v in points):
            raise ValueError(f"points must be 13 values from 0 to 19, ace to king, not {points!r}")
        if not (0 <= min_runs <= 3 and 0 <= min_pure_runs <= 3):
            raise ValueError(f"min_runs and min_pure_runs must be 0..3, not {min_runs}, {min_pure_runs}")
        if not 3 <= min_life_length <= 13:
            raise ValueError(f"min_life_length must be 3..13, not {min_life_length}")
        self.min_life_length = min_life_length
        self.rules.min_life = min_life_length
        self.run_max = 13 if run_max is None else int(run_max)
        if not min_life_length <= self.run_max <= 13:
            raise ValueError(f"run_max must be min_life_length..13, not {run_max}")
        self.rules.run_max = self.run_max
        self.min_runs = min_runs if min_runs > min_pure_runs else min_pure_runs
        self.min_pure_runs = min_pure_runs
        self.wild_natural_in_pure = wild_natural_in_pure
        self.rules.min_runs = self.min_runs
        self.rules.min_pure = min_pure_runs
        self.rules.wild_natural_pure = wild_natural_in_pure
        self.wild_as_self = wild_as_self
        self.rules.wild_as_self = wild_as_self
        self.points = tuple(int(v) for v in points)
        self.rules.top_points = 0
        for i in range(13):
            self.rules.points[i] = self.points[i]
            if self.points[i] > self.rules.top_points:
                self.rules.top_points = self.points[i]
        self.ace_high = ace_high
        self.identical_in_set = identical_in_set
        self.max_wilds = UNLIMITED if max_wilds is None else int(max_wilds)
        self.min_non_wild = min_non_wild
        self.set_max = UNLIMITED if set_max is None else int(set_max)
        self.rules.top = 13 if ace_high else 12
        self.rules.ace_high = ace_high
        self.rules.max_wilds = self.max_wilds
        self.rules.min_non_wild = min_non_wild
        self.rules.identical = identical_in_set
        self.rules.set_max = self.set_max
        if self.table.slots == NULL and _table_init(&self.table, 1 << 12) != 0:
            raise MemoryError()

    def __dealloc__(self):
        if self.table.slots != NULL:
            free(self.table.slots)

    def __reduce__(self):
        return (_rebuild, (self.points, self.ace_high, None if self.max_wilds == UNLIMITED else self.max_wilds,
                           self.min_non_wild, self.identical_in_set,
                           None if self.set_max == UNLIMITED else self.set_max, self.min_runs,
                           self.min_pure_runs, self.wild_natural_in_pure, self.min_life_length, self.wild_as_self,
                           None if self.run_max == 13 else self.run_max))

    cdef int _penalty(self, Table *t, uint64_t once, uint64_t twice, uint64_t thrice, int wild_rank, int jokers,
                      int joker_value, int wild_value, int bound=BIG, bint fresh=True,
                      bint discard=False) noexcept nogil:
        """Least penalty when below ``bound`` (else some value >= bound); with ``discard``, the
        least after discarding one card. A state's value depends on
        the rules, the wild rank and the values of leftover wild cards and jokers only, so calls that
        share them may share the memo (``fresh`` False: the same hand less another card)."""
        cdef Rules r = self.rules
        cdef uint64_t wild_mask = 0, oo, tt, t3, bit
        cdef uint64_t wild_bits[12]
        cdef int n_w = 0, n_all, s, c, best = BIG, v, n_wild, i
        cdef uint32_t combo, combos
        cdef bint constrained = (r.max_wilds < UNLIMITED or r.min_non_wild > 0
                                 or (r.min_pure > 0 and r.wild_natural_pure))
        r.joker_value = joker_value
        r.wild_value = (r.points[wild_rank] if wild_rank >= 0 else 0) if wild_value < 0 else wild_value
        if wild_rank >= 0:
            for s in range(4):
                wild_mask |= (<uint64_t>1) << (16 * s + wild_rank)
        r.wild_mask = wild_mask
        r.room_counts = r.wild_value != 0 or r.joker_value != 0
        if r.wild_value > r.top_points:  # self.rules.top_points: the dearest natural card
            r.top_points = r.wild_value
        if r.joker_value > r.top_points:
            r.top_points = r.joker_value
        if fresh:  # before any early return: the next call (not fresh) trusts the memo
            _fresh(t)
        if r.min_pure > 0 and not _has_pure_run(&r, once, wild_rank):
            return BIG  # no pure run to be had
        if r.min_runs >= 2 and jokers == 0 and (once & wild_mask) == 0 and not _two_runs(&r, once, twice, thrice):
            return BIG  # no wild card, and no two runs of naturals side by side
        n_all = 0
        if wild_rank >= 0:
            for s in range(4):
                bit = (<uint64_t>1) << (16 * s + wild_rank)
                for c in range(_copies(once, twice, thrice, bit)):
                    n_all += 1
                    # a wild card standing for itself only helps where melds limit their wilds,
                    # or in a pure run: next to two held cards of its suit
                    if constrained and r.wild_as_self and (r.max_wilds < UNLIMITED or r.min_non_wild > 0
                                                           or _in_run_of_three(&r, once, s, wild_rank)):
                        wild_bits[n_w] = bit
                        n_w += 1
        combos = <uint32_t>1 << n_w
        for combo in range(combos):
            oo = once & ~wild_mask
            tt = twice & ~wild_mask
            t3 = thrice & ~wild_mask
            n_wild = n_all
            for i in range(n_w):
                if combo >> i & 1:
                    _add(&oo, &tt, &t3, wild_bits[i])
                    n_wild -= 1
            if r.wild_value == r.joker_value:  # then wild cards and jokers are alike
                v = _search(&r, t, oo, tt, t3, 0, jokers + n_wild, 0, DROP if discard else 0,
                            best if best < bound else bound)
            else:
                v = _search(&r, t, oo, tt, t3, n_wild, jokers, 0, DROP if discard else 0,
                            best if best < bound else bound)
            if v < best:
                best = v
        return best

    def penalty(self, uint64_t once, uint64_t twice, int wild_rank, int jokers=0, int joker_value=0,
                wild_value=None, uint64_t thrice=0):
        """Least penalty of the hand; cards of ``wild_rank`` (-1: none) are wild. BIG when no
        arrangement has the runs required."""
        if not -1 <= wild_rank <= 12 or not 0 <= jokers <= 4:
            raise ValueError("wild_rank must be -1..12 and jokers 0..4")
        return self._penalty(&self.table, once, twice, thrice, wild_rank, jokers, joker_value,
                             -1 if wild_value is None else int(wild_value))

    def arrangement(self, once, twice, wild_rank, jokers=0, joker_value=0, wild_value=None, thrice=0):
        """An optimal arrangement (computed by the Python twin; not a hot path)."""
        return self._twin().arrangement(once, twice, wild_rank, jokers, joker_value, wild_value, thrice)

    def _twin(self):
        from rummylab.kernel._wild_py import WildKernel as Twin
        return Twin(self.points, ace_high=self.ace_high,
                    max_wilds=None if self.max_wilds == UNLIMITED else self.max_wilds,
                    min_non_wild=self.min_non_wild, identical_in_set=self.identical_in_set,
                    set_max=None if self.set_max == UNLIMITED else self.set_max, min_runs=self.min_runs,
                    min_pure_runs=self.min_pure_runs, wild_natural_in_pure=self.wild_natural_in_pure,
                    min_life_length=self.min_life_length, wild_as_self=self.wild_as_self,
                    run_max=None if self.run_max == 13 else self.run_max)

    def best_pure_run(self, uint64_t once, uint64_t twice, int wild_rank):
        """Most points held in one run without wilds (-1: none)."""
        if not -1 <= wild_rank <= 12:
            raise ValueError("wild_rank must be -1..12")
        return _best_pure_run(&self.rules, once, wild_rank)

    cdef int _best_pure(self, uint64_t once, int wild_rank) noexcept nogil:
        return _best_pure_run(&self.rules, once, wild_rank)

    cdef int _every_card(self, uint64_t once, uint64_t twice, int wild_rank, bint but_dearest, int cap) noexcept nogil:
        """Points of every natural card (wild cards count nothing), less the dearest one if asked."""
        cdef uint64_t naturals = once & ~((SUIT_LOW << wild_rank) if wild_rank >= 0 else 0)
        cdef int total = _points(&self.rules, naturals) + _points(&self.rules, twice & naturals)
        if but_dearest:  # bit scans: the build assumes no popcount instruction
            total -= _dearest(&self.rules, naturals)
        return total if total < cap else cap

    cdef int _loser(self, Table *t, uint64_t once, uint64_t twice, int jokers, int wild_rank, bint exclude_pure,
                    int cap, int valid_show, bint fresh=True) noexcept nogil:
        cdef int v, b, limit
        # every card counts (bar a pure run, by option) when that is less than the least count
        # with the runs required (or when those cannot be made): the search only looks below it
        limit = self._every_card(once, twice, wild_rank, False, BIG)
        if exclude_pure:
            b = _best_pure_run(&self.rules, once, wild_rank)
            if b > 0:
                limit -= b
        if cap < limit:
            limit = cap
        v = self._penalty(t, once, twice, 0, wild_rank, jokers, 0, 0, limit if limit > 0 else 1, fresh)
        if v == 0:
            return valid_show if valid_show < cap else cap
        return v if v < limit else limit

    cdef int _every_but_pure_after_discard(self, uint64_t once, uint64_t twice, int jokers,
                                           int wild_rank) noexcept nogil:
        """The least, over each card (or joker) discarded, of every natural card's points less
        the best pure run's (the "exclude_pure" count without two lives)."""
        cdef int every = self._every_card(once, twice, wild_rank, False, BIG)
        cdef int pure = _best_pure_run(&self.rules, once, wild_rank), best = BIG, v, value, p, rank
        cdef uint64_t rest = once, bit, cover = 0
        if pure > 0:  # a card held once in a pure run may take the best run with it
            cover = _pure_cover(&self.rules, once, wild_rank) & ~twice
        else:
            pure = 0
        if jokers > 0:
            best = every - pure
        while rest:
            bit = rest & (~rest + 1)
            rest &= rest - 1
            rank = __builtin_ctzll(bit) & 15
            value = 0 if rank == wild_rank else self.rules.points[rank]
            v = every - value - pure  # the least it can be: the best pure run only shrinks
            if v < best and bit & cover:
                p = _best_pure_run(&self.rules, once & ~bit, wild_rank)
                v = every - value - (p if p > 0 else 0)
            if v < best:
                best = v
        return best

    cdef int _loser_discard(self, Table *t, uint64_t once, uint64_t twice, int jokers, int wild_rank,
                            bint exclude_pure, int cap, int valid_show, bint fresh=True) noexcept nogil:
        """_loser of the hand less one card, the least over every card and joker, in one search:
        the search with a card to discard gives the least count with the runs required; every
        card (bar the best pure run, by option) less the best card to discard, and the cap, bound
        it. When a discard leaves every card in groups (the valid show), another discard can
        only count less by its every-card count or by a natural card cheaper than the valid
        show: then (rarely, never under the Indian defaults) each discard is counted on its own."""
        cdef int every, limit, v, q, best, shown = valid_show if valid_show < cap else cap
        cdef bint cheaper = False
        cdef uint64_t rest, bit, o2, t2, t3 = 0
        if fresh:  # before any early return: the next call (not fresh) trusts the memo
            _fresh(t)
        if self.rules.min_pure > 0 and not _has_pure_run(&self.rules, once, wild_rank):
            # no pure run with any discard: every card counts, bar the dearest
            return self._every_card(once, twice, wild_rank, True, cap)
        if exclude_pure:
            every = self._every_but_pure_after_discard(once, twice, jokers, wild_rank)
        else:
            every = self._every_card(once, twice, wild_rank, True, BIG)
        limit = every if every < cap else cap
        v = self._penalty(t, once, twice, 0, wild_rank, jokers, 0, 0, limit if limit > 0 else 1, False, True)
        if v > 0:
            return v if v < limit else limit
        for q in range(13):
            if q != wild_rank and self.rules.points[q] < shown:
                cheaper = True
        if every >= shown and not cheaper:
            return shown
        best = BIG
        if jokers > 0:
            best = self._loser(t, once, twice, jokers - 1, wild_rank, exclude_pure, cap, valid_show, False)
        rest = once
        while rest and best > 0:
            bit = rest & (~rest + 1)
            rest &= rest - 1
            o2 = once
            t2 = twice
            _remove(&o2, &t2, &t3, bit)
            v = self._loser(t, o2, t2, jokers, wild_rank, exclude_pure, cap, valid_show, False)
            if v < best:
                best = v
        return best

    def loser_after_discard(self, uint64_t once, uint64_t twice, int wild_rank, int jokers=0,
                            bint exclude_pure=False, int cap=80, int valid_show=2):
        """Loser points of a hand after its best discard (a card or a printed joker), found in one
        search: the least of ``loser_points_batch``'s points over the hand less each card."""
        if not -1 <= wild_rank <= 12 or not 0 <= jokers <= 4:
            raise ValueError("wild_rank must be -1..12 and jokers 0..4")
        return self._loser_discard(&self.table, once, twice, jokers, wild_rank, exclude_pure, cap, valid_show)

    def loser_points_batch(self, const uint64_t[::1] once, const uint64_t[::1] twice, const uint8_t[::1] jokers,
                           int wild_rank, int32_t[::1] out, bint exclude_pure=False, int cap=80,
                           int valid_show=2, bint discard=False, bint each_card=False):
        """out[i] = points of hand i: ``valid_show`` when every card fits the runs required, else
        the least of the cards left over with those runs and every card (or every card but the
        best pure run); at most ``cap``; wild cards and jokers count nothing. With
        ``discard``, the least such points after discarding one card, in one search
        (``each_card``: one search per distinct card, the same points, kept to compare). Runs
        without the GIL."""
        cdef Py_ssize_t i, n = once.shape[0]
        cdef Table t
        cdef uint64_t rest, bit, o2, t2, t3 = 0
        cdef int v, best
        cdef bint fresh
        if twice.shape[0] != n or out.shape[0] != n or jokers.shape[0] != n:
            raise ValueError("once, twice, jokers and out must have the same length")
        if not -1 <= wild_rank <= 12:
            raise ValueError("wild_rank must be -1..12")
        for i in range(n):
            if jokers[i] > 4:
                raise ValueError(f"hand {i} holds {jokers[i]} jokers; at most 4")
        if _table_init(&t, 1 << 12) != 0:
            raise MemoryError()
        try:
            with nogil:
                for i in range(n):
                    if not discard:
                        out[i] = self._loser(&t, once[i], twice[i], jokers[i], wild_rank, exclude_pure, cap,
                                             valid_show)
                        continue
                    if not each_card:
                        out[i] = self._loser_discard(&t, once[i], twice[i], jokers[i], wild_rank, exclude_pure,
                                                     cap, valid_show)
                        continue
                    if self.rules.min_pure > 0 and not _has_pure_run(&self.rules, once[i], wild_rank):
                        # no pure run with any discard: every card counts, bar the dearest
                        out[i] = self._every_card(once[i], twice[i], wild_rank, True, cap)
                        continue
                    best = BIG
                    fresh = True  # the discards of one hand share their sub-hands' values
                    if jokers[i] > 0:
                        best = self._loser(&t, once[i], twice[i], jokers[i] - 1, wild_rank, exclude_pure, cap,
                                           valid_show)
                        fresh = False
                    rest = once[i]
                    while rest and best > 0:
                        bit = rest & (~rest + 1)
                        rest &= rest - 1
                        o2 = once[i]
                        t2 = twice[i]
                        _remove(&o2, &t2, &t3, bit)
                        v = self._loser(&t, o2, t2, jokers[i], wild_rank, exclude_pure, cap, valid_show, fresh)
                        fresh = False
                        if v < best:
                            best = v
                    out[i] = best
        finally:
            free(t.slots)

    def penalty_batch(self, const uint64_t[::1] once, const uint64_t[::1] twice, int wild_rank,
                      int32_t[::1] out, int jokers=0, int joker_value=0, const uint64_t[::1] thrice=None,
                      bint related=False, bint discard=False):
        """out[i] = penalty of (once[i], twice[i], thrice[i]) (no thrice: two decks); runs without
        the GIL on its own table. ``related``: the hands are variations of one hand (its draws and
        discards), so they share the memo (cleared once it holds BATCH_MEMO states); unrelated
        hands run faster each with its own. ``discard``: the least penalty after discarding one
        card (a hand of at least one card)."""
        cdef Py_ssize_t i, n = once.shape[0]
        cdef Table t
        cdef bint three = thrice is not None
        if twice.shape[0] != n or out.shape[0] != n or (three and thrice.shape[0] != n):
            raise ValueError("once, twice, thrice and out must have the same length")
        if not -1 <= wild_rank <= 12 or not 0 <= jokers <= 4:
            raise ValueError("wild_rank must be -1..12 and jokers 0..4")
        if _table_init(&t, 1 << 12) != 0:
            raise MemoryError()
        try:
            with nogil:
                for i in range(n):
                    out[i] = self._penalty(&t, once[i], twice[i], thrice[i] if three else 0, wild_rank, jokers,
                                           joker_value, -1, BIG,
                                           i == 0 or not related or t.used > BATCH_MEMO, discard)
        finally:
            free(t.slots)


def _rebuild(points, ace_high, max_wilds, min_non_wild, identical_in_set, set_max, min_runs=0, min_pure_runs=0,
             wild_natural_in_pure=True, min_life_length=3, wild_as_self=True, run_max=None):
    return WildKernel(points, ace_high=ace_high, max_wilds=max_wilds, min_non_wild=min_non_wild,
                      identical_in_set=identical_in_set, set_max=set_max, min_runs=min_runs,
                      min_pure_runs=min_pure_runs, wild_natural_in_pure=wild_natural_in_pure,
                      min_life_length=min_life_length, wild_as_self=wild_as_self, run_max=run_max)
