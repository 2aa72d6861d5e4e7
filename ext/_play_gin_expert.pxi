# The expert gin bot in the gin loops (included by _play.pyx after _play_gin_score.pxi):
# rummylab.gin.expert.ExpertBot.act, decision for decision. Every double is computed with the
# Python's operations in the Python's order (sums in ascending card-bit order; setup.py compiles
# with -ffp-contract=off, so no multiply-add is fused), every integer weight as ``weights`` makes
# it, and the samples are drawn as ``sample_hands`` draws them, from the seat's generator.

# The expert's constants are defined in rummylab/gin/expert.py (BASE_WEIGHT, SAMPLES,
# knock_margin(rules), OVERSAMPLE, the two styles AGAINST_KNOCKER and AGAINST_GIN, EARLY_TURNS and
# GIN_PRIOR): the gin chunks hand them to the loop (``set_expert``) before they play, the knock
# margin for the table's rules.
cdef enum:
    N_FEATURES = 8          # expert.DISCARD_FEATURES


cdef struct ExpertStyle:
    double look_ahead
    int ahead_best
    double danger
    double take_margin
    bint learned            # the key is the weights over expert.DISCARD_FEATURES
    double weights[N_FEATURES]


cdef int EXPERT_BASE_WEIGHT = 0
cdef int EXPERT_SAMPLES = 0
cdef double EXPERT_KNOCK_MARGIN = 0.0
cdef int EXPERT_OVERSAMPLE = 1
cdef ExpertStyle EXPERT_STYLES[2]   # against a knocker, against a player who plays for gin
cdef int EXPERT_EARLY_TURNS = 0     # the loops' knock counts leave out knocks this early (gin.expert.shown)
cdef int EXPERT_GIN_PRIOR = 0       # expert.GIN_PRIOR: the passes its read counts before any is seen


def set_expert(int base_weight, int samples, double knock_margin, int oversample, against_knocker,
               against_gin, int early_turns, int gin_prior) -> None:
    """The expert's constants, as rummylab.gin.expert defines them (``expert.constants(rules)``):
    the styles as (look_ahead, ahead_best, danger, take_margin, learned weights or ())."""
    global EXPERT_BASE_WEIGHT, EXPERT_SAMPLES, EXPERT_KNOCK_MARGIN, EXPERT_OVERSAMPLE, EXPERT_EARLY_TURNS
    global EXPERT_GIN_PRIOR
    cdef int i
    if base_weight < 1 or samples < 1 or oversample < 1 or samples * oversample > 256:
        raise ValueError(f"base_weight={base_weight}, samples={samples}, oversample={oversample}: each 1 or more, "
                         "samples x oversample 256 at most")
    styles = [tuple(style) for style in (against_knocker, against_gin)]
    for look_ahead, ahead_best, danger, take_margin, learned in styles:
        if not 1 <= ahead_best <= 52:
            raise ValueError(f"ahead_best={ahead_best}: 1 to 52")
        if len(learned) not in (0, N_FEATURES):
            raise ValueError(f"learned={learned!r}: none, or a weight for each of {N_FEATURES} features")
    if early_turns < 0:
        raise ValueError(f"early_turns={early_turns}: 0 or more")
    if gin_prior < 0:
        raise ValueError(f"gin_prior={gin_prior}: 0 or more")
    # every argument checked before any is kept: a refused call leaves the constants as they were
    for i, (look_ahead, ahead_best, danger, take_margin, learned) in enumerate(styles):
        EXPERT_STYLES[i].look_ahead, EXPERT_STYLES[i].ahead_best = look_ahead, ahead_best
        EXPERT_STYLES[i].danger, EXPERT_STYLES[i].take_margin = danger, take_margin
        EXPERT_STYLES[i].learned = len(learned) == N_FEATURES
        for j in range(N_FEATURES):
            EXPERT_STYLES[i].weights[j] = learned[j] if len(learned) == N_FEATURES else 0.0
    EXPERT_OVERSAMPLE, EXPERT_EARLY_TURNS, EXPERT_GIN_PRIOR = oversample, early_turns, gin_prior
    EXPERT_BASE_WEIGHT, EXPERT_SAMPLES = base_weight, samples
    EXPERT_KNOCK_MARGIN = knock_margin

cdef uint64_t _FULL_DECK = 0x1FFF1FFF1FFF1FFFULL


cdef inline bint _plays_for_gin(GinTable *t, int seat, int prior) noexcept nogil:
    """expert.plays_for_gin: ``seat`` has knocked less often than it passed up a knock, ``prior``
    passes counted before any is seen."""
    return t.knocked[seat] < t.passed_up[seat] + prior


# expert.related as tables by bit position: _RELATED[i], the cards j with related(i, j) != 0;
# _RELATED_HALF[i], those with related(i, j) == 0.5 (two apart in the suit; the others are 1.0).
cdef uint64_t _RELATED[64]
cdef uint64_t _RELATED_HALF[64]


cdef void _related_init() noexcept nogil:
    cdef int i, j, ri, rj, gap
    for i in range(64):
        _RELATED[i] = _RELATED_HALF[i] = 0
        ri = i & 15
        if ri > 12:
            continue
        for j in range(64):
            rj = j & 15
            if j == i or rj > 12:
                continue
            if ri == rj:
                _RELATED[i] |= (<uint64_t>1) << j
            elif i >> 4 == j >> 4:
                gap = ri - rj if ri > rj else rj - ri
                if gap == 1:
                    _RELATED[i] |= (<uint64_t>1) << j
                elif gap == 2:
                    _RELATED[i] |= (<uint64_t>1) << j
                    _RELATED_HALF[i] |= (<uint64_t>1) << j


_related_init()


# What the expert knows of the opponent's hand (expert.View, weights and holding): the unseen
# cards in ascending bit order, each one's weight and held chance (also by bit position).
cdef struct ExpertView:
    const ExpertStyle *style  # expert.style: by how the opponent has played this game
    uint64_t unseen
    uint64_t picked         # the opponent's pick-ups they still hold
    int hidden              # how many of the opponent's 10 cards are unknown
    int n                   # unseen cards
    uint64_t cards[52]
    int64_t w[52]
    int64_t total           # the weights' sum
    double hold[64]         # by bit position; only the unseen cards' are set (0 when total is 0)


cdef void _expert_view(GinTable *t, ExpertView *v, int prior) noexcept nogil:
    """expert.view, weights and holding for the player to act, its style read with ``prior``
    (expert.style)."""
    cdef int me = t.to_play, them = 1 - t.to_play, i, pos, count
    cdef uint64_t rest, u, rel
    cdef uint64_t thrown = t.thrown[them], declined = t.declined[them]
    cdef int64_t w
    v.style = &EXPERT_STYLES[1 if _plays_for_gin(t, them, prior) else 0]
    v.picked = t.picked[them]
    v.unseen = _FULL_DECK & ~(t.hands[me] | t.pile_cards | v.picked)
    v.hidden = 10 - __builtin_popcountll(v.picked)
    v.n = 0
    v.total = 0
    rest = v.unseen
    while rest:
        u = _low(rest)
        rest ^= u
        rel = _RELATED[__builtin_ctzll(u)]
        # doubled for each related pick-up, halved for each throw, cut by a quarter for each
        # card left: each loop of ``weights`` applies one operation per related card
        w = EXPERT_BASE_WEIGHT
        count = __builtin_popcountll(rel & v.picked)
        for i in range(count):
            w *= 2
        count = __builtin_popcountll(rel & thrown)
        for i in range(count):
            w = w // 2
            if w < 1:
                w = 1
        count = __builtin_popcountll(rel & declined)
        for i in range(count):
            w = w * 3 // 4
            if w < 1:
                w = 1
        v.cards[v.n] = u
        v.w[v.n] = w
        v.total += w
        v.n += 1
    for i in range(v.n):
        pos = __builtin_ctzll(v.cards[i])
        if v.total:
            # min(1.0, hidden * x / total): the product is an exact integer, the division one rounding
            v.hold[pos] = <double>(v.hidden * v.w[i]) / <double>v.total
            if not v.hold[pos] < 1.0:
                v.hold[pos] = 1.0
        else:
            v.hold[pos] = 0.0


cdef double _expert_feeds(uint64_t b, ExpertView *v) noexcept nogil:
    """expert.feeds: related(b, u) x p over the unseen cards, then related(b, x) over the
    opponent's pick-ups, each summed in ascending bit order (an unrelated card adds 0.0, which
    changes no sum: it is skipped)."""
    cdef int pos = __builtin_ctzll(b)
    cdef uint64_t rest = _RELATED[pos] & v.unseen if v.total else 0, u
    cdef double acc = 0.0
    while rest:
        u = _low(rest)
        rest ^= u
        acc = acc + ((0.5 if _RELATED_HALF[pos] & u else 1.0) * v.hold[__builtin_ctzll(u)])
    rest = _RELATED[pos] & v.picked
    while rest:
        u = _low(rest)
        rest ^= u
        acc = acc + (0.5 if _RELATED_HALF[pos] & u else 1.0)
    return acc


cdef double _expert_stock_deadwood(MeldKernel k, uint64_t hand, ExpertView *v) noexcept nogil:
    """expert.stock_deadwood: over the unseen cards in ascending order, num += (1 - p) x the
    deadwood after drawing it and discarding the best card, den += 1 - p; num / den (den 0: the
    hand's deadwood). A card held for sure adds 0.0 to both: it is skipped."""
    cdef double num = 0.0, den = 0.0, q
    cdef int i
    if v.total:
        for i in range(v.n):
            q = 1.0 - v.hold[__builtin_ctzll(v.cards[i])]
            if q == 0.0:
                continue
            num = num + q * <double>k._deadwood(hand | v.cards[i], True)
            den = den + q
    if den > 0:
        return num / den
    return <double>_dw(k, hand)


cdef bint _expert_takes(MeldKernel k, GinTable *t, ExpertView *v) noexcept nogil:
    """expert.takes: the top discard kept (and the best other card thrown) leaves less deadwood
    than the hand has, and than a stock draw is expected to by the style's take margin (the cheap test first:
    both are pure)."""
    cdef uint64_t hand = t.hands[t.to_play], top = t.pile[t.n_pile - 1], bit
    cdef int with_top = k._best_removal(hand | top, top, &bit)
    if not with_top < _dw(k, hand):
        return False
    return <double>with_top + v.style.take_margin < _expert_stock_deadwood(k, hand, v)


cdef void _discard_features(MeldKernel k, uint64_t b, uint64_t left, int dw, ExpertView *v, int knock_limit,
                            double *f) noexcept nogil:
    """expert.discard_features of discarding ``b`` (leaving ``left``, deadwood ``dw``) into f: one
    pass over the next draws, the style's ahead_best least kept in order as they come (every draw
    when there are no more)."""
    cdef int i, m = 0, p, x, gins = 0, knocks = 0, lower = 0
    cdef int ahead_best = v.style.ahead_best
    cdef int lowest[52]
    cdef int64_t every = 0, best = 0
    for i in range(v.n):
        x = k._deadwood(left | v.cards[i], True)
        every += x
        gins += x == 0
        knocks += x <= knock_limit
        lower += x < dw
        if m < ahead_best:
            p = m
            m += 1
        elif x < lowest[m - 1]:
            p = m - 1
        else:
            continue
        while p > 0 and lowest[p - 1] > x:
            lowest[p] = lowest[p - 1]
            p -= 1
        lowest[p] = x
    for i in range(m):
        best += lowest[i]
    f[0] = <double>dw
    f[1] = <double>every / <double>(v.n if v.n > 0 else 1)
    f[2] = <double>best / <double>(m if m > 0 else 1)
    f[3] = _expert_feeds(b, v)
    f[4] = <double>(_rank(b) + 1 if _rank(b) < 10 else 10)
    f[5], f[6], f[7] = <double>gins, <double>knocks, <double>lower


cdef int _expert_discard(MeldKernel k, GinTable *t, ExpertView *v, uint64_t *bit, uint64_t *low,
                         int *low_dw, int knock_limit) noexcept nogil:
    """expert.discards(...)[0]: the least (key, deadwood, -value), the lowest bit among equals;
    key = (deadwood + look_ahead x ahead) + danger x danger, ahead the mean deadwood after the
    style's ahead_best best next draws (``expert.candidates``), or the style's learned weights
    over the features (``_discard_features``). Returns its deadwood. ``low`` and ``low_dw``: the
    first of that order among the discards leaving the least deadwood (the card a knock would lay
    down, ``expert.knock_card``)."""
    cdef uint64_t hand = t.hands[t.to_play], taken = t.taken, rest, b
    cdef int dws[64]
    cdef int cap = BIG, dw, i, value, best_dw = 0, best_value = 0
    cdef double key, best_key = 0.0, low_key
    cdef double keys[64]
    cdef double f[N_FEATURES]
    cdef int low_value = 0
    cdef bint lower = False, chosen = False, better
    cdef double look_ahead = v.style.look_ahead, danger = v.style.danger
    cdef bint prune = look_ahead >= 0.0 and danger >= 0.0 and not v.style.learned
    cdef uint64_t cands[16]
    cdef int nc, j
    rest = hand & ~taken
    while rest:
        b = _low(rest)
        rest ^= b
        dws[__builtin_ctzll(b)] = _dw(k, hand & ~b)
    if taken:
        # a card taken from the pile must pay for itself, unless no discard could
        cap = _dw(k, hand & ~taken)
        rest = hand & ~taken
        while rest and not lower:
            b = _low(rest)
            rest ^= b
            lower = dws[__builtin_ctzll(b)] < cap
        if not lower:
            cap = BIG
    bit[0] = low[0] = 0
    low_dw[0] = BIG
    # the candidates, least deadwood first (bit order among equals): a key is at least its
    # deadwood (the look-ahead and the danger add to it), so once a candidate's deadwood is above
    # the best key no later one can win, and their look-ahead is not computed
    nc = 0
    rest = hand & ~taken
    while rest:
        b = _low(rest)
        rest ^= b
        dw = dws[__builtin_ctzll(b)]
        if dw >= cap:
            continue
        i = nc
        while i > 0 and dws[__builtin_ctzll(cands[i - 1])] > dw:
            cands[i] = cands[i - 1]
            i -= 1
        cands[i] = b
        nc += 1
    if nc:
        low_dw[0] = dws[__builtin_ctzll(cands[0])]
    for j in range(nc):
        b = cands[j]
        dw = dws[__builtin_ctzll(b)]
        if chosen and prune and <double>dw > best_key:
            break
        _discard_features(k, b, hand & ~b, dw, v, knock_limit, f)
        if v.style.learned:  # the weights over the features, summed in their order
            key = 0.0
            for i in range(N_FEATURES):
                key = key + v.style.weights[i] * f[i]
        else:  # ahead: the mean over the style's ahead_best best draws (all of them: every draw)
            key = (<double>dw + look_ahead * f[2]) + danger * f[3]
        value = <int>f[4]
        better = (not chosen or key < best_key
                  or (key == best_key and (dw < best_dw or (dw == best_dw and (
                      value > best_value or (value == best_value and b < bit[0]))))))
        if better:
            chosen = True
            best_key, best_dw, best_value = key, dw, value
            bit[0] = b
        keys[__builtin_ctzll(b)] = key
    # among the least deadwood (the first candidates, all evaluated), the first in the discards' order
    low_key = 0.0
    chosen = False
    for j in range(nc):
        b = cands[j]
        if dws[__builtin_ctzll(b)] != low_dw[0]:
            break
        key = keys[__builtin_ctzll(b)]
        value = _rank(b) + 1
        if value > 10:
            value = 10
        if not chosen or key < low_key or (key == low_key and value > low_value):
            chosen = True
            low_key, low_value = key, value
            low[0] = b
    return best_dw


cdef bint _expert_knocks(MeldKernel k, ExpertView *v, uint64_t left, int left_dw, const GinRules *R,
                         bitgen_t *bg) noexcept nogil:
    """expert.knocks for a knock with ``left`` (not gin): the knocker's net points summed over
    the SAMPLES opponent hands of least deadwood (the first drawn among equals) of SAMPLES x
    OVERSAMPLE drawn (their pick-ups and unseen cards drawn by weight without replacement, as
    ``sample_hands``) are more than the knock margin (``expert.knock_margin``) a hand."""
    cdef uint64_t cards[52]
    cdef int64_t w[52]
    cdef int s, i, j, m, draws = v.hidden if v.hidden < v.n else v.n, n = EXPERT_SAMPLES * EXPERT_OVERSAMPLE
    cdef int end, kp, dp, kdw, ddw
    cdef int64_t net = 0, left_weight, running, bound
    cdef double u
    cdef uint64_t opp
    cdef uint64_t opps[256]
    cdef int order[256]
    cdef int dws[256]
    for s in range(n):
        # the cards left, in bit order: a drawn card is cut out of the arrays
        memcpy(cards, v.cards, v.n * sizeof(uint64_t))
        memcpy(w, v.w, v.n * sizeof(int64_t))
        m = v.n
        left_weight = v.total
        opp = v.picked
        for i in range(draws):
            # the first card left whose running weight is above u x the weight left, else the last
            # (the uniforms come one by one, as ``rng.random(count)`` gives them)
            u = bg.next_double(bg.state) * <double>left_weight
            running = 0
            j = 0
            while j < m - 1:
                running += w[j]
                if u < <double>running:
                    break
                j += 1
            opp |= cards[j]
            left_weight -= w[j]
            m -= 1
            memmove(&cards[j], &cards[j + 1], (m - j) * sizeof(uint64_t))
            memmove(&w[j], &w[j + 1], (m - j) * sizeof(int64_t))
        opps[s] = opp
        dws[s] = _dw(k, opp)
        # insertion by (deadwood, draw order): the opponent kept the cards that meld
        i = s
        while i > 0 and dws[order[i - 1]] > dws[s]:
            order[i] = order[i - 1]
            i -= 1
        order[i] = s
    # expert.knocks: a knock wins at most the opponent's deadwood less its own; when even that sum
    # is not enough, no hand is scored
    bound = 0
    for s in range(EXPERT_SAMPLES):
        bound += dws[order[s]] - left_dw
    if <double>bound <= EXPERT_KNOCK_MARGIN * <double>EXPERT_SAMPLES:
        return False
    for s in range(EXPERT_SAMPLES):
        _gin_outcome(k, left, opps[order[s]], R, &end, &kp, &dp, &kdw, &ddw)
        net += kp - dp
    return <double>net > EXPERT_KNOCK_MARGIN * <double>EXPERT_SAMPLES


cdef int _expert_act(MeldKernel k, GinTable *t, const GinRules *R, bitgen_t *bg, uint64_t *card,
                     int prior) noexcept nogil:
    """ExpertBot(prior=prior).act (the hand's actions; a loop deals the next hand itself)."""
    cdef ExpertView v
    cdef uint64_t hand = t.hands[t.to_play], low
    cdef int dw, low_dw
    card[0] = 0
    if t.phase == DRAW and t.passes == 2:
        return A_DRAW_STOCK
    if t.phase == DISCARD and R.big_gin_bonus >= 0 and _dw(k, hand) == 0:
        return A_BIG_GIN
    _expert_view(t, &v, prior)
    if t.phase == FIRST_UPCARD:
        return A_TAKE_UPCARD if _expert_takes(k, t, &v) else A_PASS
    if t.phase == DRAW:
        return A_DRAW_DISCARD if _expert_takes(k, t, &v) else A_DRAW_STOCK
    dw = _expert_discard(k, t, &v, card, &low, &low_dw, R.knock_limit)
    if low_dw <= R.knock_limit and (low_dw == 0 or _expert_knocks(k, &v, hand & ~low, low_dw, R, bg)):
        card[0] = low
        return A_KNOCK
    return A_DISCARD
