# Indian rummy (included by _play.pyx): rummylab.indian.game's rules, its bots.
#
# A card is a code: rank * 4 + suit for the 52 cards (so codes sort as rummylab's Card does),
# I_JOKER for a printed joker. A hand is its count of each code and its two-deck masks.

# phases (rummylab.indian.game.Phase)
DEF I_DRAW = 0
DEF I_DISCARD = 1
DEF I_DEAL_OVER = 2
DEF I_GAME_OVER = 3

# bots (rummylab.indian.bots.BOT_CODES)
DEF I_GREEDY = 0
DEF I_RANDOM = 1

# actions (rummylab.indian.bots.ACTIONS)
DEF I_DRAW_STOCK = 0
DEF I_DRAW_DISCARD = 1
DEF I_DISCARD_CARD = 2
DEF I_DECLARE = 3
DEF I_DROP = 4
DEF I_MISS_TURN = 5
DEF I_LEAVE = 6
DEF I_RECONNECT = 7
DEF I_NEXT_DEAL = 8
DEF I_REJOIN = 9
DEF I_FINISH = 10

# how a deal ends (rummylab.indian.bots.ENDINGS)
DEF E_VALID = 0
DEF E_WRONG = 1
DEF E_DROP = 2
DEF E_LEFT = 3

DEF I_JOKER = 52
DEF I_MAX_PLAYERS = 6
DEF I_PACK = 108             # two decks and up to four printed jokers
DEF I_MAX_ACTIONS = 20000    # per game, as rummylab.indian.bots.play; reaching it is a bug
DEF I_NONE = 99              # an option with no limit
DEF I_STALLED = 2            # rummylab.play.STALLED

INDIAN_GAME_COLUMNS = ("game", "deals", "winner") + tuple(f"score_{p}" for p in range(6)) + tuple(
    f"chips_{p}" for p in range(6))
INDIAN_DEAL_COLUMNS = ("game", "deal", "winner", "ending") + tuple(f"points_{p}" for p in range(6))
INDIAN_TURN_COLUMNS = ("game", "deal", "turn", "player", "action", "card", "points_before", "points_after",
                       "stock_left")


cdef struct IOptions:
    int players
    int pool                  # 101, 201, or 0 (points or deals rummy)
    int deals                 # 2, 3, 6, or 0
    int start_chips
    int joker_from_discard
    int dropped_to_stock
    int autoplay              # leaver "autoplay" (else "drop_after_missed")
    int autoplay_turns
    int missed_turns_drop
    int exceed                # elimination "exceed" (else "reach")
    int max_rejoins           # -1: no limit
    int rejoin_max            # nobody remaining above this for a re-join
    int printed_jokers
    int toss_jokers
    int suit_place[4]         # each suit's place in the toss order, strongest 0
    int wrong_show
    int first_drop
    int middle_drop
    int cap
    int valid_show
    int exclude_pure
    # one group (rummylab.indian.analysis._group)
    int ace_high
    int wild_natural_pure
    int duplicate_suits
    int set_max               # I_NONE: no limit
    int max_jokers            # I_NONE: no limit
    int jokers_only
    int min_life
    int points[13]
    # the bots' options
    double p_drop
    double p_wrong
    double p_leave
    double p_miss
    double p_reconnect
    int greedy_drops


cdef struct ITable:
    int deal_no
    int dealer
    int to_play
    int phase
    int wild
    int winner                # -1: none
    int reshuffles
    int actions               # the game's history so far
    int seats[I_MAX_PLAYERS]
    int seat_of[I_MAX_PLAYERS]
    unsigned char cnt[I_MAX_PLAYERS][53]
    uint64_t once[I_MAX_PLAYERS]
    uint64_t twice[I_MAX_PLAYERS]
    int jokers[I_MAX_PLAYERS]
    int n_hand[I_MAX_PLAYERS]
    int stock[I_PACK]         # top card last; the cut card at the bottom
    int n_stock
    int pile[I_PACK]          # top card last
    int n_pile
    int in_deal[I_MAX_PLAYERS]
    int drawn[I_MAX_PLAYERS]
    int missed[I_MAX_PLAYERS]
    int left[I_MAX_PLAYERS]
    int deal_points[I_MAX_PLAYERS]
    int scores[I_MAX_PLAYERS]
    int eliminated[I_MAX_PLAYERS]
    int rejoins[I_MAX_PLAYERS]
    int chips[I_MAX_PLAYERS]
    int ending                # how the deal ended (E_*)
    int taken                 # a card was taken from the discard pile this turn


cdef struct IRun:
    IOptions o
    int bots[I_MAX_PLAYERS]
    bitgen_t *rngs[I_MAX_PLAYERS]  # this game's generator of each seat
    Table loser_table
    Table show_table
    int loser_wild            # the wild rank of each memo's states (-2: none yet)
    int show_wild
    uint64_t seed
    int64_t game
    Rows games
    Rows deal_rows
    bint trace
    Rows turns


cdef inline uint64_t _i_bit(int code) noexcept nogil:
    return (<uint64_t>1) << (16 * (code & 3) + (code >> 2))


cdef inline bint _i_wild(ITable *t, int code) noexcept nogil:
    """A printed joker or a card of the deal's wild rank."""
    return code == I_JOKER or (code >> 2) == t.wild


cdef inline void _i_add(ITable *t, int p, int code) noexcept nogil:
    cdef uint64_t b
    t.cnt[p][code] += 1
    t.n_hand[p] += 1
    if code == I_JOKER:
        t.jokers[p] += 1
        return
    b = _i_bit(code)
    if t.once[p] & b:
        t.twice[p] |= b
    else:
        t.once[p] |= b


cdef inline void _i_remove(ITable *t, int p, int code) noexcept nogil:
    cdef uint64_t b
    t.cnt[p][code] -= 1
    t.n_hand[p] -= 1
    if code == I_JOKER:
        t.jokers[p] -= 1
        return
    b = _i_bit(code)
    if t.twice[p] & b:
        t.twice[p] &= ~b
    else:
        t.once[p] &= ~b


cdef inline int _i_loser(WildKernel k, IRun *run, uint64_t once, uint64_t twice, int jokers, int wild,
                         int valid_show) noexcept nogil:
    """Loser points of 13 cards (``valid_show`` for a hand whose every card fits); the memo is
    kept while the wild rank stays."""
    cdef bint fresh = wild != run.loser_wild
    run.loser_wild = wild
    return k._loser(&run.loser_table, once, twice, jokers, wild, run.o.exclude_pure, run.o.cap, valid_show, fresh)


cdef inline bint _i_shows(WildKernel dk, IRun *run, uint64_t once, uint64_t twice, int jokers,
                          int wild) noexcept nogil:
    """Do these 13 cards make a valid declaration?"""
    cdef bint fresh = wild != run.show_wild
    run.show_wild = wild
    return dk._penalty(&run.show_table, once, twice, 0, wild, jokers, 1, 1, 1, fresh) == 0


cdef inline int _i_points(WildKernel k, IRun *run, ITable *t, int p) noexcept nogil:
    """rummylab.indian.game.points_of: the loser points of a player's 13 cards."""
    return _i_loser(k, run, t.once[p], t.twice[p], t.jokers[p], t.wild, run.o.valid_show)


cdef int _i_hand_points(WildKernel k, IRun *run, ITable *t, int p) noexcept nogil:
    """For the trace: the loser points of a hand; 14 cards after the best discard; none: 0."""
    cdef int c, v, best = 1 << 29
    cdef uint64_t o, w
    if t.n_hand[p] == 0:
        return 0
    if t.n_hand[p] != 14:
        return _i_points(k, run, t, p)
    for c in range(53):
        if t.cnt[p][c]:
            _i_remove(t, p, c)
            v = _i_points(k, run, t, p)
            _i_add(t, p, c)
            if v < best:
                best = v
    return best


cdef int _i_shuffle(int *cards, int n, str key) except -1:
    """random.Random(key).shuffle(cards)."""
    cdef Twister r
    cdef int i, j, swap
    _seed_text(&r, key)
    for i in range(n - 1, 0, -1):
        j = _randbelow(&r, i + 1)
        swap = cards[i]
        cards[i] = cards[j]
        cards[j] = swap
    return 0


cdef inline int _i_deck_code(int i) noexcept nogil:
    """The code of card i of a pack: two decks suit by suit (ace to king), then printed jokers."""
    return I_JOKER if i >= 104 else (i % 13) * 4 + (i % 52) // 13


cdef int _i_strength(IRun *run, int code) noexcept nogil:
    """The toss: the ace high, then the suit order; a printed joker above all."""
    if code == I_JOKER:
        return 13 * 8
    return ((code >> 2) + 12) % 13 * 8 + 4 - run.o.suit_place[code & 3]


cdef int _i_toss(IRun *run, ITable *t) except -2:
    """rummylab.indian.game._toss: seats by a toss, identical cards drawn again (-1: the pack ran
    out)."""
    cdef int pack[I_PACK]
    cdef int drawn[I_MAX_PLAYERS]
    cdef int contenders[I_MAX_PLAYERS]
    cdef int next_round[I_MAX_PLAYERS]
    cdef int n = 104 + (run.o.printed_jokers if run.o.toss_jokers else 0), i, j, p, q, m, k, best
    cdef int players = run.o.players
    cdef bint taken[I_MAX_PLAYERS]
    for i in range(n):
        pack[i] = _i_deck_code(i)
    _i_shuffle(pack, n, f"indian:{run.seed}:toss")
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


cdef int _i_deal(IRun *run, ITable *t, int deal_no, int dealer) except -1:
    """rummylab.indian.game._deal: 13 cards each from the dealer's left, the cut joker under
    the stock, the upcard."""
    cdef int cards[I_PACK]
    cdef int order[I_MAX_PLAYERS]
    cdef int n = 104 + run.o.printed_jokers, i, p, m = 0, cut, players = run.o.players
    for i in range(n):
        cards[i] = _i_deck_code(i)
    _i_shuffle(cards, n, f"indian:{run.seed}:deal{deal_no}")
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
    return 0


cdef int _i_draw_stock(IRun *run, ITable *t) noexcept nogil:
    """rummylab.indian.game._draw_stock: the card drawn (the pile refills an empty stock)."""
    cdef int card, me = t.to_play, i, n
    if t.n_stock == 0:
        n = t.n_pile - 1
        for i in range(n):
            t.stock[i] = t.pile[i]
        with gil:
            _i_shuffle(t.stock, n, f"indian:{run.seed}:{t.deal_no}:reshuffle{t.reshuffles}")
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
    cdef int p, paid[I_MAX_PLAYERS], total = 0, players = run.o.players
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
    row[0], row[1], row[2], row[3] = run.game, t.deal_no, t.winner, t.ending
    for p in range(I_MAX_PLAYERS):
        row[4 + p] = t.deal_points[p] if p < players else 0
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
        with gil:
            _i_shuffle(t.stock + base, n - base, f"indian:{run.seed}:{t.deal_no}:drop{me}:{t.actions}")
        t.n_stock = n
        memset(t.cnt[me], 0, 53)
        t.once[me] = t.twice[me] = 0
        t.jokers[me] = t.n_hand[me] = 0
    return _i_after_leaving(k, run, t, me)


cdef int _i_miss_turn(WildKernel k, IRun *run, ITable *t) noexcept nogil:
    """rummylab.indian.game._miss_turn: the table plays the turn a player misses."""
    cdef int me = t.to_play, missed = t.missed[me] + 1, card
    if run.o.autoplay:
        if not t.drawn[me]:
            return _i_drop(k, run, t, me)  # inactive from the start: a first drop
        if missed >= run.o.autoplay_turns:  # the hand is scored
            t.deal_points[me] = _i_points(k, run, t, me)
            t.in_deal[me] = 0
            t.missed[me] = 0
            return _i_after_leaving(k, run, t, me)
    elif missed >= run.o.missed_turns_drop:
        t.drawn[me] = 1
        return _i_drop(k, run, t, me)
    if t.n_stock or t.n_pile >= 2:
        card = _i_draw_stock(run, t)
        _i_remove(t, me, card)
        t.pile[t.n_pile] = card
        t.n_pile += 1
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
    cdef int q, top = -1
    if not run.o.pool or not t.eliminated[p] or run.o.players <= 2:
        return False
    if run.o.max_rejoins >= 0 and t.rejoins[p] >= run.o.max_rejoins:
        return False
    for q in range(run.o.players):
        if not t.eliminated[q] and t.scores[q] > top:
            top = t.scores[q]
    return 0 <= top <= run.o.rejoin_max


cdef int _i_next_deal(IRun *run, ITable *t) except -1:
    cdef int p, top = -1
    if run.o.deals and t.deal_no >= run.o.deals:  # a tie for the most chips: the tied play on
        for p in range(run.o.players):
            if t.chips[p] > top:
                top = t.chips[p]
        for p in range(run.o.players):
            t.eliminated[p] = t.chips[p] != top
    return _i_deal(run, t, t.deal_no + 1, t.seats[(t.seat_of[t.dealer] + 1) % run.o.players])


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
    cdef int i, places[14]
    if m == 0 or n > 13:
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
    if run.o.set_max != I_NONE and n > run.o.set_max:
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
        if run.o.max_jokers != I_NONE and n - m - k > run.o.max_jokers:
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


cdef uint64_t _interval(bitgen_t *bg, uint64_t top) noexcept nogil:
    """numpy's random_interval: 0..top by masked draws (Generator.shuffle of a list)."""
    cdef uint64_t mask = top, value
    if top == 0:
        return 0
    mask |= mask >> 1
    mask |= mask >> 2
    mask |= mask >> 4
    mask |= mask >> 8
    mask |= mask >> 16
    mask |= mask >> 32
    if top <= 0xFFFFFFFFUL:
        value = bg.next_uint32(bg.state) & mask
        while value > top:
            value = bg.next_uint32(bg.state) & mask
    else:
        value = bg.next_uint64(bg.state) & mask
        while value > top:
            value = bg.next_uint64(bg.state) & mask
    return value


def generator_shuffled(rng, items) -> list:
    """``rng.shuffle(list(items))`` as the loops make it (for tests)."""
    cdef bitgen_t *bg = <bitgen_t *>PyCapsule_GetPointer(rng.bit_generator.capsule, "BitGenerator")
    cdef Py_ssize_t i, j
    out = list(items)
    for i in range(len(out) - 1, 0, -1):
        j = _interval(bg, i)
        out[i], out[j] = out[j], out[i]
    return out


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
    cdef int me = t.to_play, i, n, c, options[2]
    cdef int rest[14]
    cdef bitgen_t *bg = run.rngs[me]
    cdef double u
    if t.phase == I_DRAW:
        if t.left[me]:
            return I_RECONNECT if bg.next_double(bg.state) < run.o.p_reconnect else I_MISS_TURN
        u = bg.next_double(bg.state)
        if u < run.o.p_drop:
            return I_DROP
        u -= run.o.p_drop
        if u < run.o.p_leave:
            return I_LEAVE
        u -= run.o.p_leave
        if u < run.o.p_miss:
            return I_MISS_TURN
        n = 0
        if t.n_stock or t.n_pile > 1:
            options[n] = I_DRAW_STOCK
            n += 1
        if _i_may_take(run, t):
            options[n] = I_DRAW_DISCARD
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
        for i in range(n - 1, 0, -1):
            c = <int>_interval(bg, i)
            rest[i], rest[c] = rest[c], rest[i]
        valid[0] = _i_valid_show(run, t, rest)
        return I_DECLARE
    return I_DISCARD_CARD


cdef int _i_greedy_act(WildKernel k, WildKernel dk, IRun *run, ITable *t, int *card,
                       bint *valid) noexcept nogil:
    """GreedyBot.act in the draw and discard phases."""
    cdef int me = t.to_play, c, top, now, v, best = -1, best_v = 0, best_value = 0, value, shown
    cdef bint naturals = False
    cdef int after[53]
    if t.phase == I_DRAW:
        if t.left[me]:
            return I_MISS_TURN
        if (run.o.greedy_drops and not t.drawn[me] and t.jokers[me] == 0
                and not (t.once[me] & ((<uint64_t>0x0001000100010001ULL) << t.wild))
                and k._best_pure(t.once[me], t.wild) < 0):
            return I_DROP
        if t.n_pile and _i_may_take(run, t):
            top = t.pile[t.n_pile - 1]
            if _i_wild(t, top):
                return I_DRAW_DISCARD
            now = _i_points(k, run, t, me)
            _i_add(t, me, top)
            for c in range(53):
                if t.cnt[me][c] > (1 if c == top else 0):  # a card of the hand (not the top itself)
                    _i_remove(t, me, c)
                    v = _i_points(k, run, t, me)
                    _i_add(t, me, c)
                    if v < now:
                        _i_remove(t, me, top)
                        return I_DRAW_DISCARD
            _i_remove(t, me, top)
        return I_DRAW_STOCK if t.n_stock or t.n_pile > 1 else I_DRAW_DISCARD
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
                return I_DECLARE
            _i_add(t, me, c)
            if after[c] < 0:
                after[c] = shown
            if not _i_wild(t, c):
                naturals = True
    if t.reshuffles >= I_STALLED and not t.taken and run.rngs[me].next_double(run.rngs[me].state) < 0.5:
        card[0] = _i_random_natural(run.rngs[me], t, naturals)
        return I_DISCARD_CARD
    for c in range(53):
        if t.cnt[me][c] and not (naturals and _i_wild(t, c)):
            value = 0 if _i_wild(t, c) else run.o.points[c >> 2]
            if best < 0 or after[c] < best_v or (after[c] == best_v and value > best_value):
                best, best_v, best_value = c, after[c], value
    card[0] = best
    return I_DISCARD_CARD


cdef int _i_table_act(IRun *run, ITable *t, int *player) noexcept nogil:
    """Between deals, the first seat's bot acts for the table: re-joins, the next deal, the end."""
    cdef int p, n = 0, choice, options[I_MAX_PLAYERS]
    for p in range(run.o.players):
        if _i_can_rejoin(run, t, p):
            options[n] = p
            n += 1
    if run.bots[0] == I_GREEDY:
        if n:
            player[0] = options[0]
            return I_REJOIN
        return I_FINISH if _i_game_over(run, t) else I_NEXT_DEAL
    choice = _below(run.rngs[0], n + 1)
    if choice < n:
        player[0] = options[choice]
        return I_REJOIN
    return I_FINISH if _i_game_over(run, t) else I_NEXT_DEAL


# -- a game -------------------------------------------------------------------------

cdef int _i_apply(WildKernel k, IRun *run, ITable *t, int action, int card, bint valid) noexcept nogil:
    """rummylab.indian.game's moves in the draw and discard phases: 0, or -1 (out of memory)."""
    cdef int me = t.to_play, top
    if action == I_DRAW_STOCK:
        _i_draw_stock(run, t)
        t.missed[me] = 0
    elif action == I_DRAW_DISCARD:
        t.n_pile -= 1
        _i_add(t, me, t.pile[t.n_pile])
        t.taken = 1
        t.drawn[me] = 1
        t.missed[me] = 0
        t.phase = I_DISCARD
    elif action == I_DISCARD_CARD or action == I_DECLARE:
        t.taken = 0
        _i_remove(t, me, card)
        t.pile[t.n_pile] = card
        t.n_pile += 1
        if action == I_DISCARD_CARD:
            t.phase = I_DRAW
            t.to_play = _i_next_player(run, t, me)
        elif valid:
            t.winner = me
            t.ending = E_VALID
            return _i_score_deal(k, run, t)
        else:  # a wrong show: the declarer pays and is out of the deal; play goes on
            t.deal_points[me] = run.o.wrong_show
            t.in_deal[me] = 0
            t.ending = E_WRONG
            return _i_after_leaving(k, run, t, me)
    elif action == I_DROP:
        t.ending = E_DROP
        return _i_drop(k, run, t, me)
    elif action == I_MISS_TURN:  # a deal this ends, ends by a player who left
        t.ending = E_LEFT
        return _i_miss_turn(k, run, t)
    elif action == I_LEAVE:
        t.left[me] = 1
    elif action == I_RECONNECT:
        t.left[me] = 0
        t.missed[me] = 0
    return 0


cdef int _i_game(WildKernel k, WildKernel dk, IRun *run, ITable *t) noexcept nogil:
    """One game: 0, or -1 (out of memory), -2 (a game that does not end), -3 (a bot without a
    legal move)."""
    cdef int action, me, card, player, turn = 0, before = 0, p, top, win, deal, tossed
    cdef bint valid
    cdef int64_t *row
    with gil:
        tossed = _i_toss(run, t)
    if tossed:
        return -3
    with gil:
        for p in range(run.o.players):
            t.scores[p] = t.eliminated[p] = t.rejoins[p] = t.left[p] = 0
            t.chips[p] = run.o.start_chips
        _i_deal(run, t, 1, t.seats[run.o.players - 1])
    t.actions = 0
    while t.phase != I_GAME_OVER:
        if t.actions >= I_MAX_ACTIONS:
            return -2
        if t.phase == I_DEAL_OVER:
            action = _i_table_act(run, t, &player)
            if action == I_REJOIN:
                top = -1
                for p in range(run.o.players):
                    if not t.eliminated[p] and t.scores[p] > top:
                        top = t.scores[p]
                t.eliminated[player], t.scores[player] = 0, top + 1
                t.rejoins[player] += 1
                t.left[player] = 0
            elif action == I_NEXT_DEAL:
                with gil:
                    _i_next_deal(run, t)
                turn = 0
            else:
                t.phase = I_GAME_OVER
            t.actions += 1
            continue
        me = t.to_play
        card, valid = -1, False
        if run.bots[me] == I_GREEDY:
            action = _i_greedy_act(k, dk, run, t, &card, &valid)
        else:
            action = _i_random_act(run, t, &card, &valid)
        if action < 0:
            return -3
        deal = t.deal_no
        if run.trace:
            before = _i_hand_points(k, run, t, me)
        if _i_apply(k, run, t, action, card, valid):
            return -1
        t.actions += 1
        if run.trace:
            row = _rows_add(&run.turns)
            if row == NULL:
                return -1
            row[0], row[1], row[2], row[3], row[4] = run.game, deal, turn, me, action
            row[5] = -1 if card < 0 else (64 if card == I_JOKER else 16 * (card & 3) + (card >> 2))
            row[6], row[7], row[8] = before, _i_hand_points(k, run, t, me), t.n_stock
        if action == I_DISCARD_CARD or action == I_DECLARE or action == I_DROP or action == I_MISS_TURN:
            turn += 1
    row = _rows_add(&run.games)
    if row == NULL:
        return -1
    win = -1
    if run.o.deals:  # the most chips, a player still in first
        for p in range(run.o.players):
            if win < 0 or t.chips[p] > t.chips[win] or (t.chips[p] == t.chips[win] and t.eliminated[win]
                                                          and not t.eliminated[p]):
                win = p
    elif run.o.pool:
        for p in range(run.o.players):
            if not t.eliminated[p]:
                win = p if win == -1 else -2
        win = -1 if win == -2 else win
    else:
        win = t.winner
    row[0], row[1], row[2] = run.game, t.deal_no, win
    for p in range(I_MAX_PLAYERS):
        row[3 + p] = t.scores[p] if p < run.o.players else 0
        row[9 + p] = t.chips[p] if p < run.o.players and run.o.deals else 0
    return 0


def play_indian(WildKernel kernel, WildKernel declaration_kernel, const uint64_t[::1] seeds, bots, rngs,
                dict options, int64_t first_game=0, bint trace=False):
    """Indian rummy, one game per seed: (games, deals, turns), int64 rows of INDIAN_GAME_COLUMNS,
    INDIAN_DEAL_COLUMNS and, with ``trace``, INDIAN_TURN_COLUMNS. bots: a code per player (0
    greedy, 1 random); rngs: per game, each player's numpy Generator;
    options: the game's rules and the bots' options by name (rummylab.indian.bots.loop_options).
    Runs without the GIL but for each deal's, reshuffle's and drop's seed."""
    cdef IRun run
    cdef ITable *t = NULL
    cdef Py_ssize_t i, n = seeds.shape[0]
    cdef int status = 0, p, players = len(bots)
    cdef bitgen_t **gens = NULL
    if len(rngs) != n or any(len(r) != players for r in rngs):
        raise ValueError("need a generator (or None) per player per game")
    if not 2 <= players <= I_MAX_PLAYERS:
        raise ValueError(f"{players} bots: Indian rummy is played by 2 to {I_MAX_PLAYERS}")
    memset(&run, 0, sizeof(IRun))
    run.o.players = players
    o = options
    run.o.pool, run.o.deals, run.o.start_chips = o["pool"], o["deals"], o["start_chips"]
    run.o.joker_from_discard, run.o.dropped_to_stock = o["joker_from_discard"], o["dropped_to_stock"]
    run.o.autoplay, run.o.autoplay_turns, run.o.missed_turns_drop = o["autoplay"], o["autoplay_turns"], \
        o["missed_turns_drop"]
    run.o.exceed, run.o.max_rejoins, run.o.rejoin_max = o["exceed"], o["max_rejoins"], o["rejoin_max"]
    run.o.printed_jokers, run.o.toss_jokers = o["printed_jokers"], o["toss_jokers"]
    run.o.wrong_show, run.o.first_drop, run.o.middle_drop = o["wrong_show"], o["first_drop"], o["middle_drop"]
    run.o.cap, run.o.valid_show, run.o.exclude_pure = o["cap"], o["valid_show"], o["exclude_pure"]
    run.o.ace_high, run.o.wild_natural_pure, run.o.duplicate_suits = o["ace_high"], o["wild_natural_pure"], \
        o["duplicate_suits"]
    run.o.set_max, run.o.max_jokers, run.o.jokers_only = o["set_max"], o["max_jokers"], o["jokers_only"]
    run.o.min_life, run.o.greedy_drops = o["min_life"], o["greedy_drops"]
    run.o.p_drop, run.o.p_wrong, run.o.p_leave = o["p_drop"], o["p_wrong"], o["p_leave"]
    run.o.p_miss, run.o.p_reconnect = o["p_miss"], o["p_reconnect"]
    for p in range(4):
        run.o.suit_place[p] = options["suit_place"][p]
    for p in range(13):
        run.o.points[p] = options["points"][p]
    if not 0 <= run.o.printed_jokers <= 4:
        raise ValueError("0 to 4 printed jokers")
    for p in range(players):
        run.bots[p] = bots[p]
        if run.bots[p] not in (I_GREEDY, I_RANDOM):
            raise ValueError(f"bot code {bots[p]!r}: 0 (greedy) or 1 (random)")
    run.trace = trace
    run.loser_wild = run.show_wild = -2
    try:
        t = <ITable *>malloc(sizeof(ITable))
        gens = <bitgen_t **>malloc(max(n, 1) * players * sizeof(bitgen_t *))
        if (t == NULL or gens == NULL or _rows_init(&run.games, 15, n) or _rows_init(&run.deal_rows, 10, n * 4)
                or (trace and _rows_init(&run.turns, 9, n * 200)) or _table_init(&run.loser_table, 1 << 12)
                or _table_init(&run.show_table, 1 << 12)):
            raise MemoryError("no memory for the games")
        for i in range(n):
            for p in range(players):
                gens[i * players + p] = <bitgen_t *>PyCapsule_GetPointer(rngs[i][p].bit_generator.capsule,
                                                                         "BitGenerator")
        with nogil:
            for i in range(n):
                for p in range(players):
                    run.rngs[p] = gens[i * players + p]
                run.seed, run.game = seeds[i], first_game + i
                status = _i_game(kernel, declaration_kernel, &run, t)
                if status:
                    break
        if status == -1:
            raise MemoryError("no memory for the game records")
        if status == -2:
            raise RuntimeError(f"Indian rummy game {first_game + i} with seed {seeds[i]} did not finish in "
                               f"{I_MAX_ACTIONS} actions")
        if status == -3:
            raise RuntimeError(f"Indian rummy game {first_game + i} with seed {seeds[i]}: a bot had no legal move")
        return (_rows_array(&run.games), _rows_array(&run.deal_rows),
                _rows_array(&run.turns) if trace else None)
    finally:
        free(t)
        free(gens)
        free(run.games.data)
        free(run.deal_rows.data)
        free(run.turns.data)
        free(run.loser_table.slots)
        free(run.show_table.slots)
