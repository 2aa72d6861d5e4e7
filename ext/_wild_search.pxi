# The wild-card search itself: the lowest card in a set, in a run, as deadwood or (with a
# discard to make) discarded (textually included by _wild.pyx).


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


cdef inline bint _pure_left(const Rules *r, uint64_t once) noexcept nogil:
    """Do these naturals still hold a run without wilds long enough for a life (min_life
    consecutive cards of a suit; a wild card standing for itself only when wild_natural_pure)?"""
    cdef uint64_t h = once, starts
    cdef int k
    if not r.wild_natural_pure:
        h &= ~r.wild_mask
    if r.top == 13:
        h |= (h & SUIT_LOW) << 13  # the ace again above the king (bits 13-15 of a suit are free)
    starts = h & (h >> 1) & (h >> 2)  # lives are three cards or more
    for k in range(3, r.min_life):
        starts &= h >> k
    return starts != 0


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
    cdef int pos, suit, rank, best, v, s, need, extra, naturals, size, k, kept, dear
    cdef int take[4]
    cdef int avail[4]
    cdef bint sets_possible, runs_possible
    cdef uint64_t sbits[4]
    if (lives & 3) < r.min_pure and not _pure_left(r, once):
        return BIG  # the pure run required can no longer be made
    if total <= 1:  # first the cards no meld can hold: they are deadwood
        bit = _dead(once, twice, thrice, total, r.top == 13)
        if bit:
            o = once & ~bit
            tw = twice & ~bit
            th = thrice & ~bit
            v = _points(r, bit) + _points(r, bit & twice) + _points(r, bit & thrice)  # every copy
            best = BIG
            if lives & DROP:  # the discard: the dearest of them, or a card found later
                dear = _dearest(r, bit)
                kept = v - dear  # the dead cards left as deadwood
                if kept < bound:
                    best = kept + _search(r, t, o, tw, th, wilds, jokers, capacity, lives & ~DROP, bound - kept)
                    if best < bound:
                        bound = best
                if dear >= r.top_points:  # no card found later can be dearer
                    return best if best < BIG else BIG
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
    # the lowest card as deadwood: only worth searching while it can still beat the best, and,
    # with a card still to discard, while a later card may be dearer (else discarding this one,
    # above, is never worse)
    k = (best if best < bound else bound) - r.points[rank]
    if k > 0 and not (lives & DROP and r.points[rank] >= r.top_points):
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
        if span <= r.run_max and span - 1 - (last + 1) <= budget:
            break
        last -= 1
    for f in range(last, -2, -1):
        far = places[f] if f >= 0 else p
        span = (far - p if far > p else p - far) + 1
        if span > r.run_max:
            continue
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
                    if r.run_max - length < extra:
                        extra = r.run_max - length
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
                        if r.run_max - r.min_life < extra:
                            extra = r.run_max - r.min_life
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
