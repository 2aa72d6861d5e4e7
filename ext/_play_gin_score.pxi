# Scoring a knock in the gin loops (included by _play.pyx): rummylab.gin.scoring.score_masks.

cdef int _least_layoff(MeldKernel k, uint64_t d, const uint64_t *opts, const int *n_opts, int meld,
                       int n_melds, uint64_t used) noexcept nogil:
    """The defender's least deadwood over every compatible choice of layoffs."""
    cdef int i, v, best = BIG
    cdef uint64_t o
    if meld == n_melds:
        return _dw(k, d & ~used)
    for i in range(n_opts[meld]):
        o = opts[meld * MAX_OPTIONS + i]
        if o & used:
            continue
        v = _least_layoff(k, d, opts, n_opts, meld + 1, n_melds, used | o)
        if v < best:
            best = v
    return best


cdef int _defender_deadwood(MeldKernel k, uint64_t sets, uint64_t rest, uint64_t d) noexcept nogil:
    """Against the knocker's arrangement (sets, and runs of the rest): layoffs onto each meld."""
    cdef uint64_t opts[MAX_MELDS * MAX_OPTIONS]
    cdef int n_opts[MAX_MELDS]
    cdef uint64_t below[14]
    cdef uint64_t above[14]
    cdef int n_melds = 0, r, s, lo, hi, nb, na, i, j, cnt
    cdef uint64_t full, bit, acc
    cdef uint32_t line
    for r in range(13):
        cnt = 0
        full = 0
        for s in range(4):
            if sets >> (16 * s + r) & 1:
                cnt += 1
            else:
                full = (<uint64_t>1) << (16 * s + r)
        if cnt == 0:
            continue
        opts[n_melds * MAX_OPTIONS] = 0
        n_opts[n_melds] = 1
        if cnt == 3 and d & full:
            opts[n_melds * MAX_OPTIONS + 1] = full
            n_opts[n_melds] = 2
        n_melds += 1
    for s in range(4):
        line = (rest >> (16 * s)) & 0x1FFF
        lo = 0
        while lo < 13:
            if not (line >> lo) & 1:
                lo += 1
                continue
            hi = lo
            while hi + 1 < 13 and (line >> (hi + 1)) & 1:
                hi += 1
            if hi - lo + 1 >= k.min_run:
                below[0] = above[0] = 0
                nb = na = 1
                acc = 0
                r = lo - 1
                while r >= 0 and d >> (16 * s + r) & 1:
                    acc |= (<uint64_t>1) << (16 * s + r)
                    below[nb] = acc
                    nb += 1
                    r -= 1
                acc = 0
                r = hi + 1
                while r < 13 and d >> (16 * s + r) & 1:
                    acc |= (<uint64_t>1) << (16 * s + r)
                    above[na] = acc
                    na += 1
                    r += 1
                n_opts[n_melds] = 0
                for i in range(nb):
                    for j in range(na):
                        opts[n_melds * MAX_OPTIONS + n_opts[n_melds]] = below[i] | above[j]
                        n_opts[n_melds] += 1
                n_melds += 1
            lo = hi + 1
    return _least_layoff(k, d, opts, n_opts, 0, n_melds, 0)


cdef void _knock_score(const GinRules *R, int kdw, int ddw, int *end, int *kp, int *dp) noexcept nogil:
    if ddw > kdw:
        end[0], kp[0], dp[0] = END_KNOCK, ddw - kdw, 0
    elif ddw == kdw and not R.undercut_on_tie:
        end[0], kp[0], dp[0] = END_TIE, 0, 0
    else:
        end[0], kp[0], dp[0] = END_UNDERCUT, 0, R.undercut_bonus + (kdw - ddw)


cdef int _gin_outcome(MeldKernel k, uint64_t km, uint64_t dm, const GinRules *R,
                      int *end, int *kp, int *dp, int *kdw, int *ddw) noexcept nogil:
    """A valid knock, gin or big gin scored: the knocker shows the least-deadwood arrangement
    best for him; the defender lays off to least deadwood."""
    cdef int best = _dw(k, km), d0 = _dw(k, dm)
    cdef int ranks[13]
    cdef uint64_t choice_opts[13][6]
    cdef int n_choice[13]
    cdef int idx[13]
    cdef int n_ranks = 0, r, s, cnt, i, level, run_dw, e, a, b, net, dd, best_net = -BIG
    cdef uint64_t full, sets, rest
    kdw[0] = best
    if __builtin_popcountll(km) == 11:
        end[0], kp[0], dp[0], ddw[0] = END_BIG_GIN, R.big_gin_bonus + d0, 0, d0
        return 0
    if best == 0:
        end[0], kp[0], dp[0], ddw[0] = END_GIN, R.gin_bonus + d0, 0, d0
        return 0
    for r in range(13):
        cnt = 0
        full = 0
        for s in range(4):
            if km >> (16 * s + r) & 1:
                cnt += 1
                full |= (<uint64_t>1) << (16 * s + r)
        if cnt >= 3:
            ranks[n_ranks] = r
            choice_opts[n_ranks][0] = 0
            choice_opts[n_ranks][1] = full
            n_choice[n_ranks] = 2
            if cnt == 4:
                for s in range(4):
                    choice_opts[n_ranks][2 + s] = full & ~((<uint64_t>1) << (16 * s + r))
                n_choice[n_ranks] = 6
            n_ranks += 1
    # every choice of sets (an odometer over the ranks), kept when it reaches the least deadwood
    for i in range(n_ranks):
        idx[i] = 0
    while True:
        sets = 0
        for i in range(n_ranks):
            sets |= choice_opts[i][idx[i]]
        rest = km & ~sets
        run_dw = 0
        for s in range(4):
            run_dw += k.run_deadwood[(rest >> (16 * s)) & 0x1FFF]
        if run_dw == best:
            dd = _defender_deadwood(k, sets, rest, dm)
            _knock_score(R, best, dd, &e, &a, &b)
            net = a - b
            if net > best_net:
                best_net = net
                end[0], kp[0], dp[0], ddw[0] = e, a, b, dd
        level = n_ranks - 1
        while level >= 0:
            idx[level] += 1
            if idx[level] < n_choice[level]:
                break
            idx[level] = 0
            level -= 1
        if level < 0:
            break
    return 0
