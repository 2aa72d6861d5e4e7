# Three Thirteen (included by _play.pyx): rummylab.three_thirteen.game's rules, its bots.

# The shared codes (phases, actions, bots, the rows' columns) are in _codes.pxi, generated from
# rummylab/sim/codes.py.


cdef struct TTTable:
    int players
    int decks
    int round_no
    int dealer
    int to_play
    int phase
    uint64_t once[T_MAX_PLAYERS]
    uint64_t twice[T_MAX_PLAYERS]
    uint64_t thrice[T_MAX_PLAYERS]
    uint64_t stock[T_MAX_CARDS]     # top card last
    int n_stock
    uint64_t pile[T_MAX_CARDS]      # top card last
    int n_pile
    uint64_t taken                  # the card taken from the pile this turn (0: none)
    int went_out                    # -1: nobody yet
    int final_turns
    int reshuffles
    int scores[T_MAX_PLAYERS]


cdef struct TTRun:
    int bots[T_MAX_PLAYERS]
    bitgen_t *rngs[T_MAX_PLAYERS]  # this game's generator of each seat
    Chance chance
    int points[13]
    Table table
    int memo_wild           # the wild rank of the memo's states (-2: none yet)
    Rows rows
    bint trace
    Rows turns


cdef inline int _tt_pen(WildKernel k, TTRun *run, uint64_t o, uint64_t t2, uint64_t t3, int wild,
                        int bound=1 << 29, bint discard=False) noexcept nogil:
    """Least penalty (when below ``bound``; else some value >= bound), after discarding one card
    with ``discard``; the search's memo is kept while the wild rank stays (a state's value
    depends on the rules and the wild rank only)."""
    cdef bint fresh = wild != run.memo_wild
    run.memo_wild = wild
    return k._penalty(&run.table, o, t2, t3, wild, 0, 0, -1, bound, fresh, discard)


cdef int _tt_deal(TTRun *run, TTTable *t, uint64_t seed, int64_t game, int round_no, int dealer,
                  const uint64_t *deck) noexcept nogil:
    """rummylab.three_thirteen.game._deal: round_no + 2 cards each from the dealer's left; 0, or -1
    when memory ran out."""
    cdef uint64_t cards[T_MAX_CARDS]
    cdef int i, p, n = round_no + 2, total = 52 * t.decks
    cdef uint64_t o, t2, t3
    for i in range(total):
        cards[i] = deck[i % 52]
    _restart(&run.chance, "313", seed, "deal", round_no, 0)
    _shuffle(cards, total, run.chance.gen)
    if run.trace and _chance_bits_rows(&run.turns, game, round_no, 0, C_DEAL, cards, total):
        return -1
    for p in range(t.players):
        t.once[p] = t.twice[p] = t.thrice[p] = 0
    for i in range(n * t.players):
        p = (dealer + 1 + i) % t.players
        o, t2, t3 = t.once[p], t.twice[p], t.thrice[p]
        _add(&o, &t2, &t3, cards[i])
        t.once[p], t.twice[p], t.thrice[p] = o, t2, t3
    t.pile[0] = cards[n * t.players]
    t.n_pile = 1
    t.n_stock = 0
    for i in range(n * t.players + 1, total):
        t.stock[t.n_stock] = cards[i]
        t.n_stock += 1
    t.round_no, t.dealer, t.to_play, t.phase = round_no, dealer, (dealer + 1) % t.players, T_DRAW
    t.taken, t.went_out, t.final_turns, t.reshuffles = 0, -1, 0, 0
    return 0


cdef void _tt_restock(TTRun *run, TTTable *t, uint64_t seed) noexcept nogil:
    """rummylab.play.restock: the pile but its top card, shuffled, becomes the stock (a trace
    records the order after the draw's row: ``_tt_restocked``)."""
    cdef int i, n = t.n_pile - 1
    for i in range(n):
        t.stock[i] = t.pile[i]
    _restart(&run.chance, "313", seed, "restock", t.round_no, t.reshuffles)
    _shuffle(t.stock, n, run.chance.gen)
    t.n_stock = n
    t.pile[0] = t.pile[n]
    t.n_pile = 1
    t.reshuffles += 1


cdef int _tt_restocked(TTRun *run, TTTable *t, int64_t game, int turn) noexcept nogil:
    """A trace's rows of the restock a draw just made: the new stock in its order, the drawn
    card (still in place above it) last; 0, or -1 when memory ran out."""
    return _chance_bits_rows(&run.turns, game, t.round_no, turn, C_RESTOCK, t.stock, t.n_stock + 1)


cdef int _tt_ranked(WildKernel k, TTRun *run, TTTable *t, bint keeps_wilds, uint64_t *cards,
                    int *pens) noexcept nogil:
    """GreedyBot.best_discards: each distinct card's penalty after discarding it, best first
    (least penalty, then the dearest card, then Card order); the number of cards."""
    cdef int me = t.to_play, w = t.round_no + 1, n = 0, i, j, pos, pen
    cdef uint64_t o = t.once[me], rest, bit, a, b, c
    cdef bint has_natural = (o & ~((<uint64_t>0x0001000100010001ULL) << w)) != 0
    cdef uint64_t order_bits[52]
    cdef int n_order = 0
    # distinct cards in Card order (rank, then suit)
    for pos in range(52):
        bit = (<uint64_t>1) << (16 * (pos % 4) + pos // 4)
        if o & bit:
            order_bits[n_order] = bit
            n_order += 1
    for i in range(n_order):
        bit = order_bits[i]
        if keeps_wilds and _rank(bit) == w and has_natural:
            continue
        a, b, c = t.once[me], t.twice[me], t.thrice[me]
        _remove(&a, &b, &c, bit)
        pen = _tt_pen(k, run, a, b, c, w)
        # insertion in (pen, -points, Card order); cards come in Card order, so ties stay behind
        j = n
        while j > 0 and (pens[j - 1] > pen or (pens[j - 1] == pen
                                               and run.points[_rank(cards[j - 1])] < run.points[_rank(bit)])):
            pens[j] = pens[j - 1]
            cards[j] = cards[j - 1]
            j -= 1
        pens[j] = pen
        cards[j] = bit
        n += 1
    return n


cdef uint64_t _tt_random_natural(bitgen_t *bg, TTTable *t) noexcept nogil:
    """A stalled round's discard: one of the distinct natural cards (any card if all are wild),
    in Card order, by Generator.integers."""
    cdef int me = t.to_play, w = t.round_no + 1, pos, n = 0
    cdef uint64_t bit, o = t.once[me]
    cdef uint64_t naturals[52]
    for pos in range(52):
        bit = (<uint64_t>1) << (16 * (pos % 4) + pos // 4)
        if o & bit and pos // 4 != w:
            naturals[n] = bit
            n += 1
    if n == 0:
        for pos in range(52):
            bit = (<uint64_t>1) << (16 * (pos % 4) + pos // 4)
            if o & bit:
                naturals[n] = bit
                n += 1
    return naturals[_below(bg, n)]


cdef bint _tt_wants(WildKernel k, TTRun *run, TTTable *t, bint keeps_wilds) noexcept nogil:
    """GreedyBot.wants_discard."""
    cdef int me = t.to_play, w = t.round_no + 1, now
    cdef uint64_t top = t.pile[t.n_pile - 1], a, b, c
    if keeps_wilds and _rank(top) == w:
        return True
    now = _tt_pen(k, run, t.once[me], t.twice[me], t.thrice[me], w)
    a, b, c = t.once[me], t.twice[me], t.thrice[me]
    _add(&a, &b, &c, top)
    # after the best discard (the top card itself gives ``now`` back)
    return _tt_pen(k, run, a, b, c, w, now, True) < now


cdef double _tt_unseen(TTTable *t, int *unseen) noexcept nogil:
    """Copies of each card (DECK order) neither in the hand of the player to act nor in the
    pile; their total."""
    cdef int me = t.to_play, pos, i
    cdef uint64_t u
    cdef double weight = 0.0
    for pos in range(52):  # DECK order: suit by suit, ace to king
        u = (<uint64_t>1) << (16 * (pos // 13) + pos % 13)
        unseen[pos] = t.decks - ((1 if t.once[me] & u else 0) + (1 if t.twice[me] & u else 0)
                                 + (1 if t.thrice[me] & u else 0))
    for i in range(t.n_pile):
        u = t.pile[i]
        unseen[(__builtin_ctzll(u) // 16) * 13 + __builtin_ctzll(u) % 16] -= 1
    for pos in range(52):
        if unseen[pos] > 0:
            weight += unseen[pos]
    return weight


cdef double _tt_after_draw(WildKernel k, TTRun *run, TTTable *t, uint64_t card, const int *unseen,
                           double weight, double limit) noexcept nogil:
    """PlannerBot._after_draws: the expected penalty after the next stock draw (its partial sum,
    once that is already above ``limit``: the full one can only be more)."""
    cdef int me = t.to_play, w = t.round_no + 1, now, n, best, pos
    cdef uint64_t lo = t.once[me], lt = t.twice[me], l3 = t.thrice[me], u, a, b, c
    cdef double total = 0.0
    _remove(&lo, &lt, &l3, card)
    now = _tt_pen(k, run, lo, lt, l3, w)
    if weight == 0:
        return now
    for pos in range(52):  # DECK order, as the engine sums
        n = unseen[pos]
        if n <= 0:
            continue
        u = (<uint64_t>1) << (16 * (pos // 13) + pos % 13)
        a, b, c = lo, lt, l3
        _add(&a, &b, &c, u)
        if _rank(u) != w and _dead(a, b, c, 1, True) & u:
            total += n * now
        else:  # the best discard: u itself (now), or another card when that leaves less
            best = _tt_pen(k, run, a, b, c, w, now, True)
            total += n * (best if best < now else now)
        if total / weight > limit:  # the terms are never negative
            return total / weight
    return total / weight


cdef int _tt_act(WildKernel k, TTRun *run, TTTable *t, uint64_t *card) noexcept nogil:
    """GreedyBot.act and PlannerBot.act in the draw and discard phases."""
    cdef int me = t.to_play, bot = run.bots[me], n, i, m, before, best_i
    cdef bint keeps = bot == T_BOT_PLANNER
    cdef uint64_t cards[52]
    cdef int pens[52]
    cdef uint64_t a, b, c
    cdef double v, best_v, weight
    cdef int unseen[52]
    card[0] = 0
    if t.phase == T_DRAW:
        if t.n_pile and ((t.n_stock == 0 and t.n_pile < 2) or _tt_wants(k, run, t, keeps)):
            return T_A_DRAW_DISCARD
        return T_A_DRAW_STOCK
    n = _tt_ranked(k, run, t, keeps, cards, pens)
    if t.went_out < 0 and pens[0] == 0:
        card[0] = cards[0]
        return T_A_GO_OUT
    if t.reshuffles >= STALLED and t.taken == 0 and run.rngs[me].next_double(run.rngs[me].state) < 0.5:
        card[0] = _tt_random_natural(run.rngs[me], t)
        return T_A_DISCARD
    if t.taken:  # paying: after a take, a discard that leaves less than before it (or no more)
        a, b, c = t.once[me], t.twice[me], t.thrice[me]
        _remove(&a, &b, &c, t.taken)
        before = _tt_pen(k, run, a, b, c, t.round_no + 1)
        m = 0
        for i in range(n):
            if pens[i] < before:
                cards[m], pens[m] = cards[i], pens[i]
                m += 1
        if m == 0:
            for i in range(n):
                if pens[i] <= before:
                    cards[m], pens[m] = cards[i], pens[i]
                    m += 1
        if m:
            n = m
    card[0] = cards[0]
    if not keeps:
        return T_A_DISCARD
    # the planner: among the near-best (the first four within 5 of the best), the least expected
    # penalty after the next draw, then the dearest card
    m = 0
    for i in range(n if n < 4 else 4):
        if pens[i] <= pens[0] + 5:
            cards[m] = cards[i]
            m += 1
    if m == 1:
        return T_A_DISCARD
    best_i = 0
    best_v = 0
    weight = _tt_unseen(t, unseen)
    for i in range(m):
        v = _tt_after_draw(k, run, t, cards[i], unseen, weight, INFINITY if i == 0 else best_v)
        if i == 0 or v < best_v or (v == best_v and run.points[_rank(cards[i])] > run.points[_rank(cards[best_i])]):
            best_i, best_v = i, v
    card[0] = cards[best_i]
    return T_A_DISCARD


cdef int _tt_hand_pen(WildKernel k, TTRun *run, TTTable *t, int p) noexcept nogil:
    """A hand's penalty; with a drawn card (round + 3 cards) after its best discard."""
    cdef int w = t.round_no + 1
    if __builtin_popcountll(t.once[p]) + __builtin_popcountll(t.twice[p]) + __builtin_popcountll(t.thrice[p]) \
            != t.round_no + 3:
        return _tt_pen(k, run, t.once[p], t.twice[p], t.thrice[p], w)
    return _tt_pen(k, run, t.once[p], t.twice[p], t.thrice[p], w, 1 << 29, True)


cdef int _tt_score(WildKernel k, TTRun *run, TTTable *t, int64_t game) noexcept nogil:
    cdef int p, pen
    cdef int64_t *row
    for p in range(t.players):
        pen = 0 if p == t.went_out else _tt_pen(k, run, t.once[p], t.twice[p], t.thrice[p], t.round_no + 1)
        t.scores[p] += pen
        row = _rows_add(&run.rows)
        if row == NULL:
            return -1
        row[T_ROUND_GAME], row[T_ROUND_ROUND], row[T_ROUND_PLAYER], row[T_ROUND_PENALTY] = game, t.round_no, p, pen
        row[T_ROUND_WENT_OUT] = 1 if p == t.went_out else 0
    t.phase = T_GAME_OVER if t.round_no == 11 else T_ROUND_OVER
    return 0


cdef int _tt_round(WildKernel k, TTRun *run, TTTable *t, uint64_t seed, int64_t game) noexcept nogil:
    """The round in play, each player by her bot, to its scoring: 0, or -1 (out of memory), -2 (a
    round that does not end)."""
    cdef int action, me, steps, turn, before = 0
    cdef bint last, restocked
    cdef uint64_t card, a, b, c
    cdef int64_t *row
    steps = 0
    turn = 0
    while t.phase == T_DRAW or t.phase == T_DISCARD:
        me = t.to_play
        action = _tt_act(k, run, t, &card)
        if run.trace:
            before = _tt_hand_pen(k, run, t, me)
        a, b, c = t.once[me], t.twice[me], t.thrice[me]
        last = False
        restocked = False
        if action == T_A_DRAW_STOCK:
            if t.n_stock == 0:
                _tt_restock(run, t, seed)
                restocked = True
            t.n_stock -= 1
            _add(&a, &b, &c, t.stock[t.n_stock])
            t.phase = T_DISCARD
        elif action == T_A_DRAW_DISCARD:
            t.n_pile -= 1
            t.taken = t.pile[t.n_pile]
            _add(&a, &b, &c, t.taken)
            t.phase = T_DISCARD
        else:
            _remove(&a, &b, &c, card)
            t.pile[t.n_pile] = card
            t.n_pile += 1
            t.taken = 0
            t.phase = T_DRAW
            t.to_play = (me + 1) % t.players
            if action == T_A_GO_OUT:
                t.went_out, t.final_turns = me, t.players - 1
            elif t.went_out >= 0:
                t.final_turns -= 1
                last = t.final_turns == 0
        t.once[me], t.twice[me], t.thrice[me] = a, b, c
        if run.trace:
            row = _rows_add(&run.turns)
            if row == NULL:
                return -1
            row[T_TURN_GAME], row[T_TURN_ROUND], row[T_TURN_TURN], row[T_TURN_PLAYER] = game, t.round_no, turn, me
            row[T_TURN_ACTION], row[T_TURN_CARD] = action, __builtin_ctzll(card) if card else -1
            row[T_TURN_PENALTY_BEFORE], row[T_TURN_PENALTY_AFTER] = before, _tt_hand_pen(k, run, t, me)
            row[T_TURN_STOCK_LEFT] = t.n_stock
            if restocked and _tt_restocked(run, t, game, turn):
                return -1
        if action == T_A_DISCARD or action == T_A_GO_OUT:
            turn += 1
        if last:
            if _tt_score(k, run, t, game):
                return -1
            break
        steps += 1
        if steps > T_MAX_ACTIONS:
            return -2
    return 0


cdef int _tt_game(WildKernel k, TTRun *run, TTTable *t, uint64_t seed, int64_t game,
                  const uint64_t *deck) noexcept nogil:
    """One game of 11 rounds: 0, or -1 (out of memory), -2 (a round that does not end)."""
    cdef int p, status
    _restart(&run.chance, "313", seed, "dealer", 0, 0)
    t.dealer = <int>_below(run.chance.gen, t.players)
    if run.trace and _chance_row(&run.turns, game, 1, 0, C_DEALER, t.dealer):
        return -1
    if _tt_deal(run, t, seed, game, 1, t.dealer, deck):
        return -1
    for p in range(t.players):
        t.scores[p] = 0
    while True:
        status = _tt_round(k, run, t, seed, game)
        if status:
            return status
        if t.phase == T_GAME_OVER:
            return 0
        if _tt_deal(run, t, seed, game, t.round_no + 1, (t.dealer + 1) % t.players, deck):
            return -1


def play_thirteen(WildKernel kernel, const uint64_t[::1] seeds, bots, rngs, dict rules,
                  const uint64_t[::1] deck, int64_t first_game=0, bint trace=False):
    """Three Thirteen, one game of 11 rounds per seed: (rounds, turns), int64 rows of
    ROUND_COLUMNS (one per player per round) and, with ``trace``, THIRTEEN_TURN_COLUMNS. bots: a code per player (0 greedy, 1 planner); rngs: per game, each
    player's numpy Generator (a stalled round's random discards); rules: ThirteenRules' fields by
    name (decks; points, 13 card values for the bots' tie-breaks). Runs without the GIL but to set each chance event's stream."""
    cdef TTRun run
    cdef ThirteenRules R
    cdef int decks
    cdef TTTable *t = NULL
    cdef Py_ssize_t i, n = seeds.shape[0]
    cdef int status = 0, p, players = len(bots)
    cdef bitgen_t **gens = NULL
    if len(rngs) != n or any(len(r) != players for r in rngs):
        raise ValueError("need a generator per player per game")
    _read_ThirteenRules(&R, rules)
    decks = R.decks
    if deck.shape[0] != 52 or not 2 <= players <= T_MAX_PLAYERS or not 1 <= decks <= 3:
        raise ValueError("need a 52-card deck, 2 to 8 bots, 13 points and 1 to 3 decks")
    if players * 13 + 1 > 52 * decks:
        raise ValueError(f"{players} players need more than {decks} deck(s) for round 11")
    for p in range(players):
        run.bots[p] = bots[p]
        if run.bots[p] not in (T_BOT_GREEDY, T_BOT_PLANNER):
            raise ValueError(f"bot code {bots[p]!r}: 0 (greedy) or 1 (planner)")
    for p in range(13):
        run.points[p] = R.points[p]
    run.rows.data = run.turns.data = NULL
    run.trace = trace
    run.table.slots = NULL
    run.memo_wild = -2
    try:
        t = <TTTable *>malloc(sizeof(TTTable))
        gens = <bitgen_t **>malloc(max(n, 1) * players * sizeof(bitgen_t *))
        if (t == NULL or gens == NULL or _rows_init(&run.rows, T_ROUND_WIDTH, n * 11 * players)
                or (trace and _rows_init(&run.turns, T_TURN_WIDTH, n * 200 * players)) or _table_init(&run.table, 1 << 12)):
            raise MemoryError("no memory for the games")
        for i in range(n):
            for p in range(players):
                gens[i * players + p] = <bitgen_t *>PyCapsule_GetPointer(rngs[i][p].bit_generator.capsule,
                                                                         "BitGenerator")
        t.players, t.decks = players, decks
        bits = _chance_bits(&run.chance)
        with nogil:
            for i in range(n):
                for p in range(players):
                    run.rngs[p] = gens[i * players + p]
                status = _tt_game(kernel, &run, t, seeds[i], first_game + i, &deck[0])
                if status:
                    break
        if status == -1:
            raise MemoryError("no memory for the game records")
        if status == -2:
            raise RuntimeError(f"Three Thirteen game {first_game + i} with seed {seeds[i]} did not finish: "
                               f"a round went on for {T_MAX_ACTIONS} actions")
        return _rows_array(&run.rows), (_rows_array(&run.turns) if trace else None)
    finally:
        free(t)
        free(gens)
        free(run.rows.data)
        free(run.turns.data)
        free(run.table.slots)
