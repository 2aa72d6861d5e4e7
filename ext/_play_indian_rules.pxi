# Indian rummy (included by _play.pyx after _play_indian.pxi): the toss, the deal and the
# moves of rummylab.indian.game.

cdef inline int _i_deck_code(int i) noexcept nogil:
    """The code of card i of a pack: two decks suit by suit (ace to king), then printed jokers."""
    return I_JOKER if i >= 104 else (i % 13) * 4 + (i % 52) // 13


cdef int _i_strength(IRun *run, int code) noexcept nogil:
    """The toss: the ace high, then the suit order; a printed joker above all."""
    if code == I_JOKER:
        return 13 * 8
    return ((code >> 2) + 12) % 13 * 8 + 4 - run.o.suit_place[code & 3]


cdef inline int64_t _i_trace_card(int code) noexcept nogil:
    """A card as a trace writes it (rummylab.cards' bit index; 64 a printed joker)."""
    return 64 if code == I_JOKER else 16 * (code & 3) + (code >> 2)


cdef int _i_chance_rows(IRun *run, int kind, int deal, int turn, const int *cards, int n) noexcept nogil:
    """A trace's rows of one shuffle's outcome, the cards in order; 0, or -1 when memory ran out."""
    cdef int i
    if run.trace:
        for i in range(n):
            if _chance_row(&run.turns, run.game, deal, turn, kind, _i_trace_card(cards[i])):
                return -1
    return 0


cdef int _i_toss(IRun *run, ITable *t) noexcept nogil:
    """rummylab.indian.game._toss: seats by a toss, identical cards drawn again (-1: the pack ran
    out; -2: memory ran out)."""
    cdef int pack[I_PACK]
    cdef int drawn[I_MAX_PLAYERS]
    cdef int contenders[I_MAX_PLAYERS]
    cdef int next_round[I_MAX_PLAYERS]
    cdef int n = 104 + (run.o.printed_jokers if run.o.toss_jokers else 0), i, j, p, q, m, k, best
    cdef int players = run.o.players
    cdef bint taken[I_MAX_PLAYERS]
    for i in range(n):
        pack[i] = _i_deck_code(i)
    _restart(&run.chance, "indian", run.seed, "toss", 0, 0)
    _shuffle(pack, n, run.chance.gen)
    if _i_chance_rows(run, C_TOSS, 0, 0, pack, n):
        return -2
    for p in range(players):
        drawn[p] = I_JOKER
        contenders[p] = p
    m = players
    while m:
        for i in range(m):
            if n == 0:
                return -1
            n -= 1
            drawn[contenders[i]] = pack[n]
        # who draws again: each card held by two or more, in the order of its first holder
        k = 0
        for p in range(players):
            taken[p] = False
        for p in range(players):
            if taken[p]:
                continue
            j = 0
            for q in range(p + 1, players):
                if drawn[q] == drawn[p]:
                    j += 1
            if j:
                for q in range(p, players):
                    if drawn[q] == drawn[p]:
                        next_round[k] = q
                        taken[q] = True
                        k += 1
        for i in range(k):
            contenders[i] = next_round[i]
        m = k
    for p in range(players):
        taken[p] = False
    for i in range(players):  # strongest first (every card differs now)
        best = -1
        for p in range(players):
            if not taken[p] and (best < 0 or _i_strength(run, drawn[p]) > _i_strength(run, drawn[best])):
                best = p
        taken[best] = True
        t.seats[i] = best
        t.seat_of[best] = i
    return 0


cdef int _i_next_player(IRun *run, ITable *t, int after) noexcept nogil:
    cdef int i = t.seat_of[after], k, p
    for k in range(1, run.o.players + 1):
        p = t.seats[(i + k) % run.o.players]
        if t.in_deal[p]:
            return p
    return after


cdef int _i_deal(IRun *run, ITable *t, int deal_no, int dealer) noexcept nogil:
    """rummylab.indian.game._deal: 13 cards each from the dealer's left, the cut joker under
    the stock, the upcard; 0, or -1 when memory ran out."""
    cdef int cards[I_PACK]
    cdef int order[I_MAX_PLAYERS]
    cdef int n = 104 + run.o.printed_jokers, i, p, m = 0, cut, players = run.o.players
    for i in range(n):
        cards[i] = _i_deck_code(i)
    _restart(&run.chance, "indian", run.seed, "deal", deal_no, 0)
    _shuffle(cards, n, run.chance.gen)
    if _i_chance_rows(run, C_DEAL, deal_no, 0, cards, n):
        return -1
    for i in range(players):
        p = t.seats[(t.seat_of[dealer] + 1 + i) % players]
        if not t.eliminated[p]:
            order[m] = p
            m += 1
    for p in range(players):
        memset(t.cnt[p], 0, 53)
        t.once[p] = t.twice[p] = 0
        t.jokers[p] = t.n_hand[p] = 0
    for i in range(13 * m):
        n -= 1
        _i_add(t, order[i % m], cards[n])
    n -= 1
    cut = cards[n]
    n -= 1
    t.pile[0] = cards[n]
    t.n_pile = 1
    t.stock[0] = cut
    for i in range(n):
        t.stock[i + 1] = cards[i]
    t.n_stock = n + 1
    t.wild = 0 if cut == I_JOKER else cut >> 2
    t.deal_no, t.dealer, t.to_play, t.phase = deal_no, dealer, order[0], I_DRAW
    for p in range(players):
        t.in_deal[p] = not t.eliminated[p]
        t.drawn[p] = t.missed[p] = t.deal_points[p] = 0
        t.left[p] = t.left[p] and not t.eliminated[p]
    t.winner, t.reshuffles, t.ending, t.taken = -1, 0, -1, 0
    t.shuffled_kind = -1
    return 0


cdef int _i_draw_stock(IRun *run, ITable *t) noexcept nogil:
    """rummylab.indian.game._draw_stock: the card drawn (the pile refills an empty stock)."""
    cdef int card, me = t.to_play, i, n
    if t.n_stock == 0:
        n = t.n_pile - 1
        for i in range(n):
            t.stock[i] = t.pile[i]
        _restart(&run.chance, "indian", run.seed, "restock", t.deal_no, t.reshuffles)
        _shuffle(t.stock, n, run.chance.gen)
        t.shuffled_kind, t.shuffled_from, t.shuffled_n = C_RESTOCK, 0, n
        t.n_stock = n
        t.pile[0] = t.pile[n]
        t.n_pile = 1
        t.reshuffles += 1
    t.n_stock -= 1
    card = t.stock[t.n_stock]
    _i_add(t, me, card)
    t.drawn[me] = 1
    t.phase = I_DISCARD
    return card


cdef bint _i_eliminated(IRun *run, int score) noexcept nogil:
    return score > run.o.pool if run.o.exceed else score >= run.o.pool


cdef int _i_score_deal(WildKernel k, IRun *run, ITable *t) noexcept nogil:
    """rummylab.indian.game._score_deal: losers in the deal pay their points; totals, chips,
    elimination; the deal's row."""
    cdef int p, total = 0, players = run.o.players
    cdef int paid[I_MAX_PLAYERS]
    cdef int64_t *row
    for p in range(players):
        if t.in_deal[p] and p != t.winner:
            t.deal_points[p] = _i_points(k, run, t, p)
    for p in range(players):
        t.scores[p] += t.deal_points[p]
        if run.o.pool and _i_eliminated(run, t.scores[p]):
            t.eliminated[p] = 1
    if run.o.deals:
        for p in range(players):
            paid[p] = t.deal_points[p] if t.deal_points[p] < t.chips[p] else t.chips[p]
            total += paid[p]
        for p in range(players):
            t.chips[p] += total - paid[p] if p == t.winner else -paid[p]
    t.phase = I_DEAL_OVER if run.o.pool or run.o.deals else I_GAME_OVER
    row = _rows_add(&run.deal_rows)
    if row == NULL:
        return -1
    row[I_DEAL_GAME], row[I_DEAL_DEAL], row[I_DEAL_WINNER], row[I_DEAL_ENDING] = run.game, t.deal_no, t.winner, t.ending
    for p in range(I_MAX_PLAYERS):
        row[I_DEAL_POINTS_0 + p] = t.deal_points[p] if p < players else 0
    return 0


cdef int _i_after_leaving(WildKernel k, IRun *run, ITable *t, int me) noexcept nogil:
    """After a drop, a wrong show or a scored leaver: the last player in wins the deal; else the
    next plays."""
    cdef int p, n = 0, last = -1
    for p in range(run.o.players):
        if t.in_deal[p]:
            n += 1
            last = p
    if n == 1:
        t.winner = last
        return _i_score_deal(k, run, t)
    t.phase = I_DRAW
    t.to_play = _i_next_player(run, t, me)
    return 0


cdef int _i_drop(WildKernel k, IRun *run, ITable *t, int me) noexcept nogil:
    """rummylab.indian.game._drop: first or middle drop points; the cards into the stock."""
    cdef int c, i, base, n
    t.deal_points[me] = run.o.middle_drop if t.drawn[me] else run.o.first_drop
    t.in_deal[me] = 0
    t.missed[me] = 0
    if run.o.dropped_to_stock and t.n_hand[me]:
        base = 1 if t.n_stock else 0
        n = t.n_stock
        for c in range(53):
            for i in range(t.cnt[me][c]):
                t.stock[n] = c
                n += 1
        _restart(&run.chance, "indian", run.seed, "dropped", t.deal_no, me)
        _shuffle(t.stock + base, n - base, run.chance.gen)
        t.shuffled_kind, t.shuffled_from, t.shuffled_n = C_DROPPED, base, n - base
        t.n_stock = n
        memset(t.cnt[me], 0, 53)
        t.once[me] = t.twice[me] = 0
        t.jokers[me] = t.n_hand[me] = 0
    return _i_after_leaving(k, run, t, me)


cdef int _i_miss_turn(WildKernel k, IRun *run, ITable *t) noexcept nogil:
    """rummylab.indian.game._miss_turn: the table plays the turn a player misses."""
    cdef int me = t.to_play, missed = t.missed[me] + 1, card
    if run.o.autoplay and not t.drawn[me]:
        return _i_drop(k, run, t, me)  # inactive from the start: a first drop
    if not run.o.autoplay and missed >= run.o.missed_turns_drop:
        t.drawn[me] = 1
        return _i_drop(k, run, t, me)
    if t.n_stock or t.n_pile >= 2:  # the table draws and throws the card drawn
        card = _i_draw_stock(run, t)
        _i_remove(t, me, card)
        t.pile[t.n_pile] = card
        t.n_pile += 1
    if run.o.autoplay and missed >= run.o.autoplay_turns:  # the table has played its turns: the hand is scored
        t.deal_points[me] = _i_points(k, run, t, me)
        t.in_deal[me] = 0
        t.missed[me] = 0
        return _i_after_leaving(k, run, t, me)
    t.missed[me] = missed
    t.phase = I_DRAW
    t.to_play = _i_next_player(run, t, me)
    return 0


cdef bint _i_first_turn(IRun *run, ITable *t) noexcept nogil:
    """The first player's first turn of the deal, before anyone has drawn or dropped."""
    cdef int p
    if t.n_pile != 1 or t.reshuffles:
        return False
    for p in range(run.o.players):
        if t.drawn[p] or t.in_deal[p] == t.eliminated[p]:
            return False
    return t.to_play == _i_next_player(run, t, t.dealer)


cdef bint _i_may_take(IRun *run, ITable *t) noexcept nogil:
    """Is drawing from the discard pile allowed (a player present)?"""
    if t.n_pile == 0:
        return False
    return run.o.joker_from_discard or not _i_wild(t, t.pile[t.n_pile - 1]) or _i_first_turn(run, t)


cdef bint _i_game_over(IRun *run, ITable *t) noexcept nogil:
    cdef int p, top = -1, leaders = 0, remaining = 0
    if run.o.deals:
        if t.deal_no < run.o.deals:
            return False
        for p in range(run.o.players):
            if t.chips[p] > top:
                top, leaders = t.chips[p], 1
            elif t.chips[p] == top:
                leaders += 1
        return leaders == 1
    for p in range(run.o.players):
        remaining += not t.eliminated[p]
    return remaining < 2


cdef bint _i_can_rejoin(IRun *run, ITable *t, int p) noexcept nogil:
    """rummylab.indian.game.can_rejoin."""
    cdef int q, top = -1, remaining = 0
    if not run.o.pool or not t.eliminated[p]:
        return False
    if run.o.max_rejoins >= 0 and t.rejoins[p] >= run.o.max_rejoins:
        return False
    for q in range(run.o.players):
        if not t.eliminated[q]:
            remaining += 1
            if t.scores[q] > top:
                top = t.scores[q]
    return remaining >= run.o.rejoin_min_remaining and top <= run.o.rejoin_max


cdef int _i_next_deal(IRun *run, ITable *t) noexcept nogil:
    cdef int p, top = -1
    if run.o.deals and t.deal_no >= run.o.deals:  # a tie for the most chips: the tied play on
        for p in range(run.o.players):
            if t.chips[p] > top:
                top = t.chips[p]
        for p in range(run.o.players):
            t.eliminated[p] = t.chips[p] != top
    return _i_deal(run, t, t.deal_no + 1, t.seats[(t.seat_of[t.dealer] + 1) % run.o.players])
