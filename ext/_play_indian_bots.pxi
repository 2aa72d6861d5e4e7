# Indian rummy (included by _play.pyx after _play_indian.pxi): rummylab.indian.players' policies,
# and the group check a random bot's shown declaration needs.

# -- one group and a declaration, for the random bot's shows (rummylab.indian.analysis) ---

cdef bint _i_fits(int *places, int n_places, int n, int top) noexcept nogil:
    cdef int i, j, lo = 99, hi = -1, a, b
    for i in range(n_places):
        for j in range(i):
            if places[i] == places[j]:
                return False
        lo = places[i] if places[i] < lo else lo
        hi = places[i] if places[i] > hi else hi
    if not (hi - lo + 1 <= n <= top + 1):
        return False
    a = hi - n + 1 if hi - n + 1 > 0 else 0
    b = lo if lo < top - n + 1 else top - n + 1
    return a <= b


cdef bint _i_sequence(IRun *run, const int *codes, int m, int n) noexcept nogil:
    """n cards, these m naturals among them, can be consecutive cards of one suit."""
    cdef int i
    cdef int places[14]
    if m == 0 or n > run.o.run_max:
        return False
    for i in range(m):
        if (codes[i] & 3) != (codes[0] & 3):
            return False
        places[i] = codes[i] >> 2
    if _i_fits(places, m, n, 12):
        return True
    if not run.o.ace_high:
        return False
    for i in range(m):
        places[i] = 13 if places[i] == 0 else places[i]
    return _i_fits(places, m, n, 13)


cdef bint _i_set(IRun *run, const int *codes, int m, int n) noexcept nogil:
    cdef int i, j
    if run.o.set_max != NO_LIMIT and n > run.o.set_max:
        return False
    if m == 0:
        return run.o.jokers_only
    for i in range(m):
        if (codes[i] >> 2) != (codes[0] >> 2):
            return False
        if not run.o.duplicate_suits:
            for j in range(i):
                if (codes[i] & 3) == (codes[j] & 3):
                    return False
    return True


cdef int _i_group(IRun *run, ITable *t, const int *cards, int n) noexcept nogil:
    """The best role of one group: 1 pure, 2 impure, 3 set, 0 none."""
    cdef int naturals[14]
    cdef int wild[14]
    cdef int m = 0, n_wild = 0, printed = 0, i, k, best = 0
    if n < 3:
        return 0
    for i in range(n):
        if cards[i] == I_JOKER:
            printed += 1
        elif (cards[i] >> 2) == t.wild:
            wild[n_wild] = cards[i]
            n_wild += 1
        else:
            naturals[m] = cards[i]
            m += 1
    if not printed and (run.o.wild_natural_pure or not n_wild):
        for i in range(n_wild):
            naturals[m + i] = wild[i]
        if _i_sequence(run, naturals, m + n_wild, n):
            return 1
    for k in range(n_wild + 1):
        for i in range(k):
            naturals[m + i] = wild[i]
        if run.o.max_jokers != NO_LIMIT and n - m - k > run.o.max_jokers:
            continue
        if m + k and _i_sequence(run, naturals, m + k, n):
            return 2
        if _i_set(run, naturals, m + k, n):
            best = 3
    return best


cdef bint _i_valid_show(IRun *run, ITable *t, const int *rest) noexcept nogil:
    """rummylab.indian.analysis.check_declaration of 13 cards shown as 3, 3, 3 and 4 in a row."""
    cdef int g, kind, pure = 0, lives = 0, start, size
    for g in range(4):
        start, size = 3 * g, (4 if g == 3 else 3)
        kind = _i_group(run, t, rest + start, size)
        if kind == 0:
            return False
        if size >= run.o.min_life:
            pure += kind == 1
            lives += kind == 1 or kind == 2
    return pure >= 1 and lives >= 2


# -- the bots -----------------------------------------------------------------------

cdef int _i_nth(ITable *t, int p, int n) noexcept nogil:
    """The n-th card of the hand in Card order."""
    cdef int c
    for c in range(53):
        if n < t.cnt[p][c]:
            return c
        n -= t.cnt[p][c]
    return -1


cdef int _i_random_natural(bitgen_t *bg, ITable *t, bint naturals) noexcept nogil:
    """A stalled deal's discard: one of the distinct natural cards (any card if all are wild),
    in Card order, by Generator.integers."""
    cdef int me = t.to_play, c, n = 0
    cdef int cards[53]
    for c in range(53):
        if t.cnt[me][c] and not (naturals and _i_wild(t, c)):
            cards[n] = c
            n += 1
    return cards[_below(bg, n)]


cdef int _i_random_act(IRun *run, ITable *t, int *card, bint *valid) noexcept nogil:
    """RandomBot.act in the draw and discard phases."""
    cdef int me = t.to_play, i, n, c
    cdef int options[2]
    cdef int rest[14]
    cdef bitgen_t *bg = run.rngs[me]
    cdef double u
    if t.phase == I_DRAW:
        if t.left[me]:
            return I_A_RECONNECT if bg.next_double(bg.state) < run.o.p_reconnect else I_A_MISS_TURN
        u = bg.next_double(bg.state)
        if u < run.o.p_drop:
            return I_A_DROP
        u -= run.o.p_drop
        if u < run.o.p_leave:
            return I_A_LEAVE
        u -= run.o.p_leave
        if u < run.o.p_miss:
            return I_A_MISS_TURN
        n = 0
        if t.n_stock or t.n_pile > 1:
            options[n] = I_A_DRAW_STOCK
            n += 1
        if _i_may_take(run, t):
            options[n] = I_A_DRAW_DISCARD
            n += 1
        if n == 0:
            return -1
        return options[_below(bg, n)]
    card[0] = _i_nth(t, me, _below(bg, t.n_hand[me]))
    if bg.next_double(bg.state) < run.o.p_wrong:
        n = 0
        for c in range(53):
            for i in range(t.cnt[me][c] - (1 if c == card[0] else 0)):
                rest[n] = c
                n += 1
        _shuffle(rest, n, bg)
        valid[0] = _i_valid_show(run, t, rest)
        return I_A_DECLARE
    return I_A_DISCARD


cdef int _i_greedy_act(WildKernel k, WildKernel dk, IRun *run, ITable *t, int *card,
                       bint *valid) noexcept nogil:
    """GreedyBot.act in the draw and discard phases."""
    cdef int me = t.to_play, c, top, now, v, best = -1, best_v = 0, best_value = 0, value, shown
    cdef bint naturals = False
    cdef int after[53]
    if t.phase == I_DRAW:
        if t.left[me]:
            return I_A_MISS_TURN
        if (run.o.greedy_drops and not t.drawn[me] and t.jokers[me] == 0
                and not (t.once[me] & ((<uint64_t>0x0001000100010001ULL) << t.wild))
                and k._best_pure(t.once[me], t.wild) < 0):
            return I_A_DROP
        if t.n_pile and _i_may_take(run, t):
            top = t.pile[t.n_pile - 1]
            if _i_wild(t, top):
                return I_A_DRAW_DISCARD
            now = _i_points(k, run, t, me)
            # taken when the hand with it, less its best discard, counts less than now (throwing
            # the top itself back would count the same: the best discard is then another card)
            _i_add(t, me, top)
            v = _i_points_after_discard(k, run, t, me)
            _i_remove(t, me, top)
            if v < now:
                return I_A_DRAW_DISCARD
        return I_A_DRAW_STOCK if t.n_stock or t.n_pile > 1 else I_A_DRAW_DISCARD
    # a valid declaration first, in Card order; else the discard that leaves the fewest points
    shown = run.o.valid_show if run.o.valid_show < run.o.cap else run.o.cap
    for c in range(53):
        if t.cnt[me][c]:
            _i_remove(t, me, c)
            after[c] = _i_loser(k, run, t.once[me], t.twice[me], t.jokers[me], t.wild, -1)
            if after[c] < 0 and _i_shows(dk, run, t.once[me], t.twice[me], t.jokers[me], t.wild):
                _i_add(t, me, c)
                card[0] = c
                valid[0] = True
                return I_A_DECLARE
            _i_add(t, me, c)
            if after[c] < 0:
                after[c] = shown
            if not _i_wild(t, c):
                naturals = True
    if t.reshuffles >= STALLED and not t.taken and run.rngs[me].next_double(run.rngs[me].state) < 0.5:
        card[0] = _i_random_natural(run.rngs[me], t, naturals)
        return I_A_DISCARD
    for c in range(53):
        if t.cnt[me][c] and not (naturals and _i_wild(t, c)):
            value = 0 if _i_wild(t, c) else run.o.points[c >> 2]
            if best < 0 or after[c] < best_v or (after[c] == best_v and value > best_value):
                best, best_v, best_value = c, after[c], value
    card[0] = best
    return I_A_DISCARD


cdef int _i_table_act(IRun *run, ITable *t, int *player) noexcept nogil:
    """Between deals, the first seat's bot acts for the table: re-joins, the next deal, the end."""
    cdef int p, n = 0, choice
    cdef int options[I_MAX_PLAYERS]
    for p in range(run.o.players):
        if _i_can_rejoin(run, t, p):
            options[n] = p
            n += 1
    if run.bots[0] == I_BOT_GREEDY:
        if n:
            player[0] = options[0]
            return I_A_REJOIN
        return I_A_FINISH if _i_game_over(run, t) else I_A_NEXT_DEAL
    choice = _below(run.rngs[0], n + 1)
    if choice < n:
        player[0] = options[choice]
        return I_A_REJOIN
    return I_A_FINISH if _i_game_over(run, t) else I_A_NEXT_DEAL
