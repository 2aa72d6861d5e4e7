# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Compiled wild-card meld search for up to three decks (twin: rummylab/_wild_py.py).

Same search as the twin: the lowest remaining natural card is deadwood, in a set with
later cards of its rank, or in a run of its suit; melds note how many more wild cards
they could take. States are memoised in an open-addressing table stamped with a
generation number, so no table is cleared between hands. Only validated input may
reach it.
"""

from libc.stdint cimport uint8_t, uint32_t, uint64_t, int32_t
from libc.stdlib cimport calloc, free

cdef extern from *:
    int __builtin_ctzll(unsigned long long) nogil
    int __builtin_clzll(unsigned long long) nogil
    int __builtin_popcountll(unsigned long long) nogil

DEF UNLIMITED = 99
DEF BIG = 1 << 29
DEF DROP = 16  # in ``lives``: one card is still to be discarded, for nothing
DEF BATCH_MEMO = 1 << 18  # states a batch's memo may hold before it starts afresh (a few MB)


cdef inline uint64_t _hash(uint64_t a, uint64_t b, uint32_t c) noexcept nogil:
    cdef uint64_t h = a * 0x9E3779B97F4A7C15ULL ^ (b + 0x632BE59BD9B4E019ULL) * 0xC2B2AE3D27D4EB4FULL ^ c
    h ^= h >> 29
    h *= 0xBF58476D1CE4E5B9ULL
    return h ^ (h >> 32)


cdef int _table_init(Table *t, uint32_t size) noexcept nogil:
    t.slots = <Entry *> calloc(size, sizeof(Entry))
    if t.slots == NULL:
        return -1
    t.mask = size - 1
    t.used = 0
    t.gen = 1
    return 0


cdef int _table_grow(Table *t) noexcept nogil:
    cdef uint32_t old_size = t.mask + 1, i, j
    cdef Entry *old = t.slots
    cdef Entry *fresh = <Entry *> calloc(old_size * 2, sizeof(Entry))
    if fresh == NULL:
        return -1
    t.slots = fresh
    t.mask = old_size * 2 - 1
    for i in range(old_size):
        if old[i].gen == t.gen:
            j = <uint32_t>(_hash(old[i].once, old[i].twice, old[i].small) & t.mask)
            while t.slots[j].gen == t.gen:
                j = (j + 1) & t.mask
            t.slots[j] = old[i]
    free(old)
    return 0


cdef inline int _lookup(Table *t, uint64_t once, uint64_t twice, uint32_t small, int32_t *value,
                        int32_t *exact, uint32_t *slot) noexcept nogil:
    """1 and the state's value if known; ``slot`` is where it is (or would go)."""
    cdef uint32_t j = <uint32_t>(_hash(once, twice, small) & t.mask)
    while t.slots[j].gen == t.gen:
        if t.slots[j].once == once and t.slots[j].twice == twice and t.slots[j].small == small:
            value[0] = t.slots[j].value
            exact[0] = t.slots[j].exact
            slot[0] = j
            return 1
        j = (j + 1) & t.mask
    slot[0] = j
    return 0


cdef inline void _write(Table *t, uint32_t j, uint64_t once, uint64_t twice, uint32_t small, int32_t value,
                        int32_t exact) noexcept nogil:
    """Put a state's value in slot j: a free slot of this generation, or the state's own."""
    if t.slots[j].gen != t.gen:
        t.slots[j].once = once
        t.slots[j].twice = twice
        t.slots[j].small = small
        t.slots[j].gen = t.gen
        t.used += 1
    t.slots[j].value = value
    t.slots[j].exact = exact


cdef inline void _store_at(Table *t, uint32_t j, uint32_t size, uint64_t once, uint64_t twice, uint32_t small,
                           int32_t value, int32_t exact) noexcept nogil:
    """Store at the slot found by _lookup when it is still free (or still this state's) in a
    table of the same size; else look again."""
    if t.mask + 1 == size and (t.used + 1) * 10 <= (t.mask + 1) * 7 and (
            t.slots[j].gen != t.gen
            or (t.slots[j].once == once and t.slots[j].twice == twice and t.slots[j].small == small)):
        _write(t, j, once, twice, small, value, exact)
    else:
        _store(t, once, twice, small, value, exact)


cdef inline void _store(Table *t, uint64_t once, uint64_t twice, uint32_t small, int32_t value,
                        int32_t exact) noexcept nogil:
    """Record a state's value (exact, or a lower bound), replacing what was known of it."""
    cdef uint32_t j
    if (t.used + 1) * 10 > (t.mask + 1) * 7:
        if _table_grow(t) != 0:
            return  # out of memory: keep searching without memoising this state
    j = <uint32_t>(_hash(once, twice, small) & t.mask)
    while t.slots[j].gen == t.gen and not (
            t.slots[j].once == once and t.slots[j].twice == twice and t.slots[j].small == small):
        j = (j + 1) & t.mask
    _write(t, j, once, twice, small, value, exact)


cdef inline void _fresh(Table *t) noexcept nogil:
    """A new generation: every stored state is forgotten at once."""
    cdef uint32_t i
    t.gen += 1
    t.used = 0
    if t.gen == 0:  # wrapped: clear the stamps once
        for i in range(t.mask + 1):
            t.slots[i].gen = 0
        t.gen = 1


cdef inline int _points(const Rules *r, uint64_t cards) noexcept nogil:
    """Points of the cards of a mask."""
    cdef int v = 0
    while cards:
        v += r.points[__builtin_ctzll(cards) & 15]
        cards &= cards - 1
    return v


cdef inline int _dearest(const Rules *r, uint64_t cards) noexcept nogil:
    """Points of the dearest card in ``cards`` (one bit a card)."""
    cdef int v = 0
    while cards:
        if r.points[__builtin_ctzll(cards) & 15] > v:
            v = r.points[__builtin_ctzll(cards) & 15]
        cards &= cards - 1
    return v


cdef int _own_melds(const Rules *r, int n) noexcept nogil:
    """Most of n leftover wild cards that can form melds of wild cards only."""
    cdef int best[40]
    cdef int k, size, hi, v
    if r.min_non_wild > 0 or r.max_wilds < 3 or n < 3:
        return 0
    hi = r.max_wilds if r.max_wilds < r.set_max else r.set_max
    if n > 39:
        n = 39
    for k in range(n + 1):
        best[k] = 0
    for k in range(3, n + 1):
        best[k] = best[k - 1]
        size = 3
        while size <= hi and size <= k:
            v = best[k - size] + size
            if v > best[k]:
                best[k] = v
            size += 1
    return best[n]


cdef int _leaf(const Rules *r, int wilds, int jokers, int cap, int lives) noexcept nogil:
    cdef int total = wilds + jokers, left, placed, dear, cheap, dear_n, cheap_n, charge
    if (lives & 3) < r.min_pure or ((lives >> 2) & 3) < r.min_runs:
        return BIG  # the runs required were not made
    left = total - cap
    left -= _own_melds(r, left)
    if left <= 0:
        return 0
    # the cheaper kind is what stays unplaced
    if r.wild_value >= r.joker_value:
        dear, cheap, dear_n, cheap_n = r.wild_value, r.joker_value, wilds, jokers
    else:
        dear, cheap, dear_n, cheap_n = r.joker_value, r.wild_value, jokers, wilds
    if left <= cheap_n:
        return left * cheap
    return cheap_n * cheap + (left - cheap_n) * dear


cdef int _search(const Rules *r, Table *t, uint64_t once, uint64_t twice, uint64_t thrice, int wilds, int jokers,
                 int capacity, int lives, int bound) noexcept nogil:
    """Least penalty when it is below ``bound`` (else some value >= bound); ``lives`` holds the
    pure runs (low two bits) and runs made so far, and DROP while one card is still to be
    discarded for nothing (a natural card as the lowest, or else a wild card left over)."""
    cdef int total = wilds + jokers
    cdef int cap = (capacity if capacity < total else total) if r.room_counts else 0
    cdef uint32_t small = <uint32_t>(wilds | (jokers << 8) | (cap << 16) | (lives << 24))
    cdef int32_t memo, exact
    cdef uint32_t slot, table_size = t.mask + 1
    cdef uint64_t low, o, tw, th, bit
    cdef int pos, suit, rank, best, v, s, need, extra, naturals, size, k, dear
    cdef int take[4]
    cdef int avail[4]
    cdef bint sets_possible, runs_possible
    cdef uint64_t sbits[4]
    if total <= 1:  # first the cards no meld can hold: they are deadwood
        bit = _dead(once, twice, thrice, total, r.top == 13)
        if bit:
            o = once & ~bit
            tw = twice & ~bit
            th = thrice & ~bit
            v = _points(r, bit) + _points(r, bit & twice) + _points(r, bit & thrice)  # every copy
            best = BIG
            if lives & DROP:  # the discard: the dearest of them, or a card found later
                dear = v - _dearest(r, bit)
                if dear < bound:
                    best = dear + _search(r, t, o, tw, th, wilds, jokers, capacity, lives & ~DROP, bound - dear)
                    if best < bound:
                        bound = best
            if v < bound:
                v += _search(r, t, o, tw, th, wilds, jokers, capacity, lives, bound - v)
            if best < v:
                v = best
            return v if v < BIG else BIG
    if _lookup(t, once ^ thrice, twice, small, &memo, &exact, &slot) and (exact or memo >= bound):
        return memo
    if once == 0:
        if not lives & DROP:
            best = _leaf(r, wilds, jokers, cap, lives)
        else:  # the discard is a wild card or a joker left over
            best = BIG
            cap = (capacity if capacity < total - 1 else total - 1) if r.room_counts else 0
            if wilds:
                best = _leaf(r, wilds - 1, jokers, cap, lives)
            if jokers:
                v = _leaf(r, wilds, jokers - 1, cap, lives)
                if v < best:
                    best = v
        _store_at(t, slot, table_size, 0, 0, small, best, 1)
        return best
    low = once & (~once + 1)
    pos = __builtin_ctzll(low)
    suit = pos >> 4
    rank = pos & 15
    o = once
    tw = twice
    th = thrice
    _remove(&o, &tw, &th, low)
    best = BIG  # melds first, so that the deadwood branch can be cut off by what they found
    # sets holding the lowest card (skipped when three cards of its rank cannot be reached)
    naturals = 1
    for s in range(4):
        sbits[s] = (<uint64_t>1) << (16 * s + rank)
        avail[s] = _copies(o, tw, th, sbits[s])
        naturals += avail[s]
        if not r.identical:
            avail[s] = 0 if s == suit else (1 if avail[s] else 0)
        take[s] = 0
    sets_possible = naturals + (total if total < r.max_wilds else r.max_wilds) >= 3
    while sets_possible:
        naturals = 1 + take[0] + take[1] + take[2] + take[3]
        need = 3 - naturals if naturals < 3 else 0
        size = naturals + need
        if need <= r.max_wilds and naturals >= r.min_non_wild and size <= r.set_max and need <= total:
            v = _place_set(r, t, o, tw, th, sbits, take, need,
                           (r.max_wilds - need) if (r.max_wilds - need) < (r.set_max - size) else (r.set_max - size),
                           wilds, jokers, capacity, lives, best if best < bound else bound)
            if v < best:
                best = v
                if best == 0:
                    break
        # next combination of copies per suit
        k = 0
        while k < 4:
            take[k] += 1
            if take[k] <= avail[k]:
                break
            take[k] = 0
            k += 1
        if k == 4:
            break
    # a run needs a wild card or the next card of the suit
    runs_possible = total > 0 or (rank < 12 and (o >> (16 * suit + rank + 1)) & 1)
    if best > 0 and runs_possible:
        v = _runs(r, t, o, tw, th, suit, rank, 0, wilds, jokers, capacity, lives, best if best < bound else bound)
        if v < best:
            best = v
    if best > 0 and rank == 0 and r.ace_high and (total > 0 or (o >> (16 * suit + 12)) & 1):
        v = _runs(r, t, o, tw, th, suit, rank, 1, wilds, jokers, capacity, lives, best if best < bound else bound)
        if v < best:
            best = v
    if best > 0 and lives & DROP:  # the lowest card discarded
        v = _search(r, t, o, tw, th, wilds, jokers, capacity, lives & ~DROP, best if best < bound else bound)
        if v < best:
            best = v
    # the lowest card as deadwood: only worth searching while it can still beat the best
    k = (best if best < bound else bound) - r.points[rank]
    if k > 0:
        v = r.points[rank] + _search(r, t, o, tw, th, wilds, jokers, capacity, lives, k)
        if v < best:
            best = v
    if best > BIG:
        best = BIG
    if best < bound:
        _store_at(t, slot, table_size, once ^ thrice, twice, small, best, 1)
    else:
        _store_at(t, slot, table_size, once ^ thrice, twice, small, bound, 0)  # cut off: the value is at least the bound
    return best


cdef int _place(const Rules *r, Table *t, uint64_t o, uint64_t tw, uint64_t th, int need, int extra, int wilds,
                int jokers, int capacity, int lives, int bound) noexcept nogil:
    """Least penalty after a meld needing ``need`` wild cards that can take ``extra`` more."""
    cdef int best = BIG, v, fw, fj, i
    cdef int options[2]
    if need > wilds + jokers:
        return BIG
    options[0] = need if need < wilds else wilds
    options[1] = need - jokers if need > jokers else 0
    for i in range(2):
        if i == 1 and options[1] == options[0]:
            break
        fw = options[i]
        fj = need - fw
        if 0 <= fw <= wilds and 0 <= fj <= jokers:
            v = _search(r, t, o, tw, th, wilds - fw, jokers - fj, capacity + extra, lives,
                        best if best < bound else bound)
            if v < best:
                best = v
    return best


cdef int _place_set(const Rules *r, Table *t, uint64_t o, uint64_t tw, uint64_t th, uint64_t *sbits, int *take,
                    int need, int extra, int wilds, int jokers, int capacity, int lives, int bound) noexcept nogil:
    cdef int s, k
    for s in range(4):
        for k in range(take[s]):
            _remove(&o, &tw, &th, sbits[s])
    return _place(r, t, o, tw, th, need, extra, wilds, jokers, capacity, lives, bound)


cdef int _runs(const Rules *r, Table *t, uint64_t o, uint64_t tw, uint64_t th, int suit, int rank, bint high,
               int wilds, int jokers, int capacity, int lives, int bound) noexcept nogil:
    """Least penalty (below ``bound``) over the runs holding the lowest card at its low place (or at the top
    of the ace-high line when ``high``): the other naturals lie on one side of it."""
    cdef int p = 13 if high else rank, step = -1 if high else 1, q, n_others = 0, best = BIG, v
    cdef int places[13]
    cdef uint64_t bits[13]
    cdef uint64_t bit, sub, oo, tt, t3, low, ripple, held, rest
    cdef int made = (lives >> 2) & 3, drop = lives & DROP
    cdef int runs = made + 1 if made < r.min_runs else made
    cdef int pure = (lives & 3) + 1 if (lives & 3) < r.min_pure else (lives & 3)
    cdef int i, f, far, span, naturals, length, need, extra, base, budget, skip_n, last, pad
    cdef bint life
    cdef int total = wilds + jokers
    # the other held cards of the suit, nearest first (tw is within o)
    held = (o >> (16 * suit)) & 0x1FFF
    if not high:
        rest = held & ~((<uint64_t>2 << rank) - 1)  # above the card
        while rest:
            q = __builtin_ctzll(rest)
            places[n_others] = q
            bits[n_others] = (<uint64_t>1) << (16 * suit + q)
            n_others += 1
            rest &= rest - 1
        if r.top == 13 and rank >= 1 and held & 1:  # the ace above the king
            places[n_others] = 13
            bits[n_others] = (<uint64_t>1) << (16 * suit)
            n_others += 1
    else:
        rest = held & 0x1FFE  # below the ace at the top: the king down to the two
        while rest:
            q = 63 - __builtin_clzll(rest)
            places[n_others] = q
            bits[n_others] = (<uint64_t>1) << (16 * suit + q)
            n_others += 1
            rest &= ~((<uint64_t>1) << q)
    budget = total if total < r.max_wilds else r.max_wilds
    # the run's farthest natural: none (f = -1) or others[f]; the longest runs first, as they
    # leave the least and so bound the rest of the search soonest
    last = n_others - 1
    while last >= 0:
        far = places[last]
        span = (far - p if far > p else p - far) + 1
        if span <= 13 and span - 1 - (last + 1) <= budget:
            break
        last -= 1
    for f in range(last, -2, -1):
        far = places[f] if f >= 0 else p
        span = (far - p if far > p else p - far) + 1
        length = span if span > 3 else 3
        base = (span - 1 - (f + 1)) + (length - span)  # empty places + padding to three cards
        if base > budget:
            continue
        # leave out up to (budget - base) of the naturals between, each leaving a place to fill
        for skip_n in range(0, (f if f > 0 else 0) + 1):
            if base + skip_n > budget:
                break
            if skip_n == 0:
                sub = 0
            else:
                sub = (<uint64_t>1 << skip_n) - 1
            while sub < (<uint64_t>1 << (f if f > 0 else 0)) or (skip_n == 0 and sub == 0):
                naturals = 1 + (f + 1) - skip_n
                need = base + skip_n
                if naturals >= r.min_non_wild:
                    oo = o
                    tt = tw
                    t3 = th
                    held = (<uint64_t>1) << (16 * suit + rank)
                    for i in range(f + 1):
                        if i == f or not (sub >> i & 1):
                            _remove(&oo, &tt, &t3, bits[i])
                            held |= bits[i]
                    extra = r.max_wilds - need
                    if 13 - length < extra:
                        extra = 13 - length
                    life = length >= r.min_life
                    if (life and need == 0 and r.min_pure > 0
                            and (r.wild_natural_pure or not (held & r.wild_mask))):
                        # a pure run: it takes no wilds; as a plain run it could
                        v = _place(r, t, oo, tt, t3, 0, 0, wilds, jokers, capacity, pure | (runs << 2) | drop,
                                   best if best < bound else bound)
                        if v < best:
                            best = v
                        if extra > 0 and r.room_counts:
                            v = _place(r, t, oo, tt, t3, 0, extra, wilds, jokers, capacity,
                                       (lives & 3) | (runs << 2) | drop, best if best < bound else bound)
                            if v < best:
                                best = v
                    else:
                        v = _place(r, t, oo, tt, t3, need, extra, wilds, jokers, capacity,
                                   ((lives & 3) | (runs << 2) | drop) if life else lives, best if best < bound else bound)
                        if v < best:
                            best = v
                    if not life and made < r.min_runs and need + r.min_life - length <= budget:
                        # too short for a life: padded with wild cards to the length of one
                        pad = r.min_life - length
                        extra = r.max_wilds - need - pad
                        if 13 - r.min_life < extra:
                            extra = 13 - r.min_life
                        v = _place(r, t, oo, tt, t3, need + pad, extra, wilds, jokers, capacity,
                                   (lives & 3) | (runs << 2) | drop, best if best < bound else bound)
                        if v < best:
                            best = v
                if skip_n == 0:
                    break
                # next subset of the same size (Gosper's hack)
                low = sub & (~sub + 1)
                ripple = sub + low
                sub = (((ripple ^ sub) >> 2) // low) | ripple
    return best


cdef int _best_pure_run(const Rules *r, uint64_t once, int wild_rank) noexcept nogil:
    """Most points held in one run without wilds that counts as a life (-1: none); a wild card
    in its own place counts there, worth nothing, when wild_natural_pure."""
    cdef int best = -1, suit, q, rk, value, length
    for suit in range(4):
        value = 0
        length = 0
        for q in range(r.top + 1):
            rk = q % 13
            if (once >> (16 * suit + rk)) & 1 and (rk != wild_rank or r.wild_natural_pure):
                value += 0 if rk == wild_rank else r.points[rk]
                length += 1
                if length >= r.min_life and value > best:
                    best = value
            else:
                value = 0
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
    """Least penalty of hands from up to three decks with wild cards (see rummylab/_wild_py.py;
    fields: ext/rummylab/_wild.pxd)."""

    def __cinit__(self):
        self.table.slots = NULL

    def __init__(self, points, *, bint ace_high=False, max_wilds=None, int min_non_wild=0,
                 bint identical_in_set=True, set_max=None, int min_runs=0, int min_pure_runs=0,
                 bint wild_natural_in_pure=True, int min_life_length=3, bint wild_as_self=True):
        cdef int i
        if len(points) != 13 or not all(0 <= int(v) <= 19 for v in points):
            raise ValueError(f"points must be 13 values from 0 to 19, ace to king, not {points!r}")
        if not (0 <= min_runs <= 3 and 0 <= min_pure_runs <= 3):
            raise ValueError(f"min_runs and min_pure_runs must be 0..3, not {min_runs}, {min_pure_runs}")
        if not 3 <= min_life_length <= 13:
            raise ValueError(f"min_life_length must be 3..13, not {min_life_length}")
        self.min_life_length = min_life_length
        self.rules.min_life = min_life_length
        self.min_runs = min_runs if min_runs > min_pure_runs else min_pure_runs
        self.min_pure_runs = min_pure_runs
        self.wild_natural_in_pure = wild_natural_in_pure
        self.rules.min_runs = self.min_runs
        self.rules.min_pure = min_pure_runs
        self.rules.wild_natural_pure = wild_natural_in_pure
        self.wild_as_self = wild_as_self
        self.rules.wild_as_self = wild_as_self
        self.points = tuple(int(v) for v in points)
        for i in range(13):
            self.rules.points[i] = self.points[i]
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
                           self.min_pure_runs, self.wild_natural_in_pure, self.min_life_length, self.wild_as_self))

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
        if fresh:
            _fresh(t)
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
        from rummylab._wild_py import WildKernel as Twin
        return Twin(self.points, ace_high=self.ace_high,
                    max_wilds=None if self.max_wilds == UNLIMITED else self.max_wilds,
                    min_non_wild=self.min_non_wild, identical_in_set=self.identical_in_set,
                    set_max=None if self.set_max == UNLIMITED else self.set_max, min_runs=self.min_runs,
                    min_pure_runs=self.min_pure_runs, wild_natural_in_pure=self.wild_natural_in_pure,
                    min_life_length=self.min_life_length, wild_as_self=self.wild_as_self)

    def best_pure_run(self, uint64_t once, uint64_t twice, int wild_rank):
        """Most points held in one run without wilds (-1: none)."""
        if not -1 <= wild_rank <= 12:
            raise ValueError("wild_rank must be -1..12")
        return _best_pure_run(&self.rules, once, wild_rank)

    cdef int _best_pure(self, uint64_t once, int wild_rank) noexcept nogil:
        return _best_pure_run(&self.rules, once, wild_rank)

    cdef int _every_card(self, uint64_t once, uint64_t twice, int wild_rank, bint but_dearest, int cap) noexcept nogil:
        """Points of every natural card (wild cards count nothing), less the dearest one if asked."""
        cdef int q, n, total = 0, dearest = 0
        cdef uint64_t rank_bits
        for q in range(13):
            if q != wild_rank:
                rank_bits = (<uint64_t>0x0001000100010001) << q  # this rank in every suit
                n = __builtin_popcountll(once & rank_bits) + __builtin_popcountll(twice & rank_bits)
                total += self.rules.points[q] * n
                if n and self.rules.points[q] > dearest:
                    dearest = self.rules.points[q]
        if but_dearest:
            total -= dearest
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

    def loser_points_batch(self, const uint64_t[::1] once, const uint64_t[::1] twice, const uint8_t[::1] jokers,
                           int wild_rank, int32_t[::1] out, bint exclude_pure=False, int cap=80,
                           int valid_show=2, bint discard=False):
        """out[i] = points of hand i: ``valid_show`` when every card fits the runs required, else
        the least of the cards left over with those runs and every card (or every card but the
        best pure run); at most ``cap``; wild cards and jokers count nothing. With
        ``discard``, the least such points after discarding one card. Runs without the GIL."""
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
             wild_natural_in_pure=True, min_life_length=3, wild_as_self=True):
    return WildKernel(points, ace_high=ace_high, max_wilds=max_wilds, min_non_wild=min_non_wild,
                      identical_in_set=identical_in_set, set_max=set_max, min_runs=min_runs,
                      min_pure_runs=min_pure_runs, wild_natural_in_pure=wild_natural_in_pure,
                      min_life_length=min_life_length, wild_as_self=wild_as_self)
