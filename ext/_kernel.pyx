# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Compiled meld search over card masks (twin: rummylab/kernel/_kernel_py.py).

A hand is a uint64 mask, suit s at bits 16*s .. 16*s+12. The search chooses
sets rank by rank, then looks each suit's leftover cards up in a table of
run-only deadwood (8,192 entries). Only validated input may reach it. The
searches play asks are remembered (``_deadwood``'s memo); the batches search.
"""

from libc.stdint cimport uint8_t, int8_t, uint16_t, uint32_t, uint64_t, int32_t, int64_t
from libc.stdlib cimport calloc, free

cdef extern from *:
    """
    /* The memo's entries are read and written whole (relaxed atomics): threads that share a
       kernel may race on an entry, never tear one. */
    static inline uint64_t rl_memo_load(const uint64_t *p) { return __atomic_load_n(p, __ATOMIC_RELAXED); }
    static inline void rl_memo_store(uint64_t *p, uint64_t v) { __atomic_store_n(p, v, __ATOMIC_RELAXED); }
    """
    uint64_t rl_memo_load(const uint64_t *p) noexcept nogil
    void rl_memo_store(uint64_t *p, uint64_t v) noexcept nogil

cdef extern from *:
    int __builtin_ctz(unsigned int) nogil
    int __builtin_popcount(unsigned int) nogil
    int __builtin_clz(unsigned int) nogil

cdef enum:
    NMASKS = 8192
    NO_CARD = 127          # discard_gain of an empty suit: nothing to discard there
    BIG = 1 << 30          # best_removal's deadwood when no card may be removed
    MEMO_BITS = 15         # the memo: 32,768 searches remembered (256 KiB a kernel)


cdef inline int _min(int a, int b) noexcept nogil:
    return a if a < b else b


cdef int _line_deadwood(uint32_t line, int nbits, const int *value, int min_run) noexcept nogil:
    """Deadwood of cards on a line of consecutive ranks: every block of at least
    min_run adjacent cards is one run; the rest is deadwood."""
    cdef int i = 0, j, k, total = 0, block
    while i < nbits:
        if (line >> i) & 1:
            j = i
            while j < nbits and (line >> j) & 1:
                j += 1
            block = j - i
            if block < min_run:
                for k in range(i, j):
                    total += value[k]
            i = j
        else:
            i += 1
    return total


cdef class MeldKernel:
    """Minimum-deadwood search for one-deck hands with no wild cards (fields: ext/rummylab/kernel/_kernel.pxd).

    points: 13 deadwood values, ace to king; ace_high: Q-K-A is a run too
    (K-A-2 never); min_run: shortest run; set_min/set_max: set sizes.
    """

    def __cinit__(self, *args, **kwargs):
        self.memo = <uint64_t *>calloc(1 << MEMO_BITS, sizeof(uint64_t))
        if self.memo == NULL:
            raise MemoryError("no memory for the meld search's memo")

    def __dealloc__(self):
        free(self.memo)

    def __init__(self, points, bint ace_high=False, int min_run=3, int set_min=3, int set_max=4):
        cdef int value[14]
        cdef int m, r, p, q, best, dw
        cdef uint32_t high_line
        if len(points) != 13 or not all(0 <= int(v) <= 19 for v in points):
            raise ValueError(f"points must be 13 values from 0 to 19, ace to king, not {points!r}")
        if not 2 <= min_run <= 13 or not 2 <= set_min <= set_max <= 4:
            raise ValueError("need 2 <= min_run <= 13 and 2 <= set_min <= set_max <= 4")
        self.points = tuple(int(v) for v in points)
        self.ace_high, self.min_run, self.set_min, self.set_max = ace_high, min_run, set_min, set_max
        for r in range(13):
            value[r] = self.points[r]
            self.point_of[r] = value[r]
        value[13] = self.points[0]
        # the ranks of each value, the values worth most first (best_removal's order)
        self.n_values = 0
        for p in sorted(set(self.points), reverse=True):
            self.by_value[self.n_values] = sum(1 << r for r in range(13) if self.points[r] == p)
            self.n_values += 1
        for m in range(NMASKS):
            dw = _line_deadwood(m, 13, value, min_run)
            if ace_high and (m & 1):
                # The ace on top instead: ranks 2..K then A, as a line of bits 1..13.
                high_line = m >> 1 | (1 << 12)
                dw = _min(dw, _line_deadwood(high_line, 13, value + 1, min_run))
            self.run_deadwood[m] = dw
        for m in range(NMASKS):
            best = NO_CARD
            for r in range(13):
                if (m >> r) & 1:
                    best = _min(best, self.run_deadwood[m & ~(1 << r)] - self.run_deadwood[m])
            self.discard_gain[m] = best
        for p in range(16):
            self.n_set_options[p] = 0
            for q in range(1, 16):
                if (q & ~p) == 0 and set_min <= __builtin_popcount(q) <= set_max:
                    self.set_options[p][self.n_set_options[p]] = q
                    self.n_set_options[p] += 1

    def __reduce__(self):
        return (MeldKernel, (self.points, self.ace_high, self.min_run, self.set_min, self.set_max))

    # -- the search ---------------------------------------------------------

    cdef uint32_t _set_ranks(self, uint32_t a, uint32_t b, uint32_t c, uint32_t d) noexcept nogil:
        """Ranks holding at least set_min cards."""
        if self.set_min == 3:
            return (a & b & (c | d)) | (c & d & (a | b))
        if self.set_min == 4:
            return a & b & c & d
        return (a & b) | (a & c) | (a & d) | (b & c) | (b & d) | (c & d)

    cdef int _leaf(self, uint32_t a, uint32_t b, uint32_t c, uint32_t d, bint discard) noexcept nogil:
        cdef int total = self.run_deadwood[a] + self.run_deadwood[b] + self.run_deadwood[c] + self.run_deadwood[d]
        if discard:
            total += _min(_min(self.discard_gain[a], self.discard_gain[b]),
                          _min(self.discard_gain[c], self.discard_gain[d]))
        return total

    cdef int _search(self, uint32_t a, uint32_t b, uint32_t c, uint32_t d, uint32_t ranks,
                     bint discard, uint64_t *sets) noexcept nogil:
        """Minimum deadwood over every choice of sets among `ranks`; the chosen
        set cards are written to *sets when sets is not NULL."""
        cdef int r, k, k2, n, best, v
        cdef uint32_t bit, rest, p, q
        cdef uint64_t sub_sets = 0, best_sets = 0
        if ranks == 0:
            if sets != NULL:
                sets[0] = 0
            return self._leaf(a, b, c, d, discard)
        r = __builtin_ctz(ranks)
        bit = 1u << r
        rest = ranks & (ranks - 1)
        best = self._search(a, b, c, d, rest, discard, sets)
        if sets != NULL:
            best_sets = sets[0]
        p = ((a >> r) & 1) | ((b >> r) & 1) << 1 | ((c >> r) & 1) << 2 | ((d >> r) & 1) << 3
        n = self.n_set_options[p]
        for k in range(n):
            if best <= 0 and not discard:
                break
            q = self.set_options[p][k]
            v = self._search(a & ~(bit if q & 1 else 0), b & ~(bit if q & 2 else 0),
                             c & ~(bit if q & 4 else 0), d & ~(bit if q & 8 else 0),
                             rest, discard, &sub_sets if sets != NULL else NULL)
            if v < best:
                best = v
                if sets != NULL:
                    best_sets = sub_sets
                    for k2 in range(4):
                        if (q >> k2) & 1:
                            best_sets |= (<uint64_t>bit) << (16 * k2)
        if sets != NULL:
            sets[0] = best_sets
        return best

    cdef int _searched(self, uint64_t m, bint discard) noexcept nogil:
        """The least deadwood of m (after its best discard: ``discard``), searched."""
        cdef uint32_t a = m & 0x1FFF, b = (m >> 16) & 0x1FFF, c = (m >> 32) & 0x1FFF, d = (m >> 48) & 0x1FFF
        cdef uint32_t ranks = self._set_ranks(a, b, c, d)
        if ranks == 0:
            return self._leaf(a, b, c, d, discard)
        return self._search(a, b, c, d, ranks, discard, NULL)

    cdef int _deadwood(self, uint64_t m, bint discard) noexcept nogil:
        """``_searched``, a search with sets to choose remembered in a direct-mapped memo: play
        meets the same hands again and again (a rollout's turns, the options of a decision played
        in the same worlds: a gin evaluation a third faster). Each entry is the hand's 52 bits, the
        flag and the deadwood + 1 in one word (0: empty). The batches, whose hands seldom come
        again and whose threads would share it, search (``_searched``)."""
        cdef uint32_t a = m & 0x1FFF, b = (m >> 16) & 0x1FFF, c = (m >> 32) & 0x1FFF, d = (m >> 48) & 0x1FFF
        cdef uint32_t ranks = self._set_ranks(a, b, c, d)
        cdef uint64_t key, entry, *slot
        cdef int dw
        if ranks == 0:
            return self._leaf(a, b, c, d, discard)
        key = <uint64_t>a | (<uint64_t>b << 13) | (<uint64_t>c << 26) | (<uint64_t>d << 39) | (<uint64_t>discard << 52)
        slot = self.memo + ((key * 0x9E3779B97F4A7C15ULL) >> (64 - MEMO_BITS))
        entry = rl_memo_load(slot)
        if entry and (entry & 0x1FFFFFFFFFFFFFULL) == key:
            return <int>(entry >> 53) - 1
        dw = self._search(a, b, c, d, ranks, discard, NULL)
        if dw < 2047:  # the deadwood + 1 fits the entry's 11 bits (52 cards worth 19 each: 988)
            rl_memo_store(slot, key | (<uint64_t>(dw + 1) << 53))
        return dw

    cdef int _best_removal(self, uint64_t mask, uint64_t keep, uint64_t *bit) noexcept nogil:
        """The least deadwood left by removing one card of mask not in keep (``BIG`` when there
        is none), that card in *bit: ties go to the card worth most, then the highest bit. The least
        deadwood any removal leaves is one search (``discard_deadwood``, exact: tests/oracle.py); the
        cards are tried in the tie-break's order until one leaves that much (about two searches where
        trying every card took eleven). Only when just a kept card leaves it is every card tried."""
        cdef uint64_t left = mask & ~keep, card
        cdef uint32_t line
        cdef int least, dw, best = BIG, g, suit, r
        bit[0] = 0
        if left == 0:
            return BIG
        least = self._deadwood(mask, True)
        for g in range(self.n_values):
            for suit in range(3, -1, -1):
                line = (left >> (16 * suit)) & self.by_value[g]
                while line:  # its highest rank first
                    r = 31 - __builtin_clz(line)
                    line ^= 1u << r
                    card = (<uint64_t>1) << (16 * suit + r)
                    dw = self._deadwood(mask & ~card, False)
                    if dw < best:
                        best, bit[0] = dw, card
                        if dw == least:
                            return best
        return best

    # -- Python entry points ------------------------------------------------

    def deadwood(self, uint64_t mask):
        """Minimum deadwood of exactly these cards."""
        return self._deadwood(mask, False)

    def discard_deadwood(self, uint64_t mask):
        """Minimum deadwood after the best single discard (mask must be non-empty)."""
        return self._deadwood(mask, True)

    def each_removal(self, uint64_t mask):
        """[(deadwood without card, card bit)] for each card of mask, lowest bit first."""
        cdef list out = []
        cdef uint64_t rest = mask, low
        while rest:
            low = rest & (~rest + 1)
            out.append((self._deadwood(mask & ~low, False), low))
            rest ^= low
        return out

    def best_removal(self, uint64_t mask, uint64_t keep=0):
        """(deadwood, card bit): the card of mask, not in keep, whose removal leaves the
        least deadwood; ties go to the card worth most, then the highest bit."""
        cdef uint64_t bit = 0
        cdef int dw = self._best_removal(mask, keep, &bit)
        return dw, bit

    def arrangement(self, uint64_t mask):
        """(minimum deadwood, mask of the cards in the chosen sets); the rest of
        the melded cards are runs of the remaining cards of each suit."""
        cdef uint64_t sets = 0
        cdef uint32_t a = mask & 0x1FFF, b = (mask >> 16) & 0x1FFF
        cdef uint32_t c = (mask >> 32) & 0x1FFF, d = (mask >> 48) & 0x1FFF
        cdef int dw = self._search(a, b, c, d, self._set_ranks(a, b, c, d), False, &sets)
        return dw, sets

    def suit_deadwood(self, int suit_mask):
        """Run-only deadwood of one suit's 13-bit mask."""
        return self.run_deadwood[suit_mask & 0x1FFF]

    def deadwood_batch(self, const uint64_t[::1] masks, int32_t[::1] out, bint discard=False):
        """out[i] = deadwood of masks[i] (after the best discard if discard);
        runs without the GIL."""
        cdef Py_ssize_t i, n = masks.shape[0]
        if out.shape[0] != n:
            raise ValueError("out must have one slot per mask")
        with nogil:
            if discard:
                for i in range(n):
                    out[i] = self._searched(masks[i], True)
            else:
                for i in range(n):
                    out[i] = self._searched(masks[i], False)

    # -- exact enumeration over suit patterns ----------------------------------

    def canonical_histogram(self, const uint16_t[::1] order, const int32_t[::1] pop_start, int n_cards,
                            int n_suits, bint discard, Py_ssize_t a_lo, Py_ssize_t a_hi, int64_t[::1] out):
        """Add to out[deadwood] every hand of n_cards over n_suits suits whose first (largest)
        suit mask is order[a_lo:a_hi], one hand per suit permutation class, weighted by the
        number of hands in the class. order lists suit masks by (popcount, value);
        pop_start[p] is where popcount p starts in it (pop_start[14] = len(order)).
        Runs without the GIL."""
        cdef Py_ssize_t ia, ib, ic, id_, d_lo, d_hi
        cdef int pa, pb, pc, r
        cdef uint64_t a, b, c, d
        cdef int64_t mult
        if not 1 <= n_suits <= 4:
            raise ValueError("n_suits must be 1..4")
        if out.shape[0] < 20 * n_cards + 1 or a_lo < 0 or a_hi > order.shape[0] or pop_start.shape[0] < 15:
            raise ValueError("out, order or pop_start is too short")
        with nogil:
            for ia in range(a_lo, a_hi):
                a = order[ia]
                pa = __builtin_popcount(<unsigned int>a)
                if pa > n_cards or pa * n_suits < n_cards:
                    continue
                if n_suits == 1:
                    if pa == n_cards:
                        out[self._searched(a, discard)] += 1
                    continue
                for ib in range(0, ia + 1):
                    b = order[ib]
                    pb = __builtin_popcount(<unsigned int>b)
                    if pa + pb > n_cards or pa + pb * (n_suits - 1) < n_cards:
                        continue
                    if n_suits == 2:
                        if pa + pb == n_cards:
                            mult = 1 if ia == ib else 2
                            out[self._searched(a | b << 16, discard)] += mult
                        continue
                    for ic in range(0, ib + 1):
                        c = order[ic]
                        pc = __builtin_popcount(<unsigned int>c)
                        r = n_cards - pa - pb - pc
                        if r < 0:
                            continue
                        if n_suits == 3:
                            if r == 0:
                                out[self._searched(a | b << 16 | c << 32, discard)] += _perms3(ia, ib, ic)
                            continue
                        if r > pc:
                            continue
                        d_lo = pop_start[r]
                        d_hi = pop_start[r + 1]
                        if d_hi > ic + 1:
                            d_hi = ic + 1
                        for id_ in range(d_lo, d_hi):
                            d = order[id_]
                            out[self._searched(a | b << 16 | c << 32 | d << 48, discard)] += \
                                _perms4(ia, ib, ic, id_)


cdef inline int64_t _perms3(Py_ssize_t a, Py_ssize_t b, Py_ssize_t c) noexcept nogil:
    """Distinct orderings of a sorted triple of suit masks."""
    if a == b == c:
        return 1
    if a == b or b == c:
        return 3
    return 6


cdef inline int64_t _perms4(Py_ssize_t a, Py_ssize_t b, Py_ssize_t c, Py_ssize_t d) noexcept nogil:
    """Distinct orderings of a sorted quadruple of suit masks: 24 / product of run lengths!."""
    cdef int64_t denom = 1
    cdef int run = 1
    if b == a:
        run += 1
    else:
        denom *= 1 if run == 1 else (2 if run == 2 else (6 if run == 3 else 24)); run = 1
    if c == b:
        run += 1
    else:
        denom *= 1 if run == 1 else (2 if run == 2 else (6 if run == 3 else 24)); run = 1
    if d == c:
        run += 1
    else:
        denom *= 1 if run == 1 else (2 if run == 2 else (6 if run == 3 else 24)); run = 1
    denom *= 1 if run == 1 else (2 if run == 2 else (6 if run == 3 else 24))
    return 24 // denom
