# Gin rummy for two (included by _play.pyx): rummylab.gin.game's rules, rummylab.gin.players' bots.

# The shared codes (phases, actions, bots, how a hand ends, the rows' columns) are in _codes.pxi,
# generated from rummylab/sim/codes.py.

cdef enum:
    BIG = 1 << 30
    MAX_MELDS = 8
    MAX_OPTIONS = 64


cdef struct GinTable:
    uint64_t hands[2]
    uint64_t picked[2]      # cards each player took from the pile and still holds
    uint64_t thrown[2]      # cards each player discarded this hand (State.thrown: not a knock's card)
    uint64_t declined[2]    # upcards each player left this hand (State.declined)
    uint64_t stock[52]      # top card last
    int n_stock
    uint64_t pile[52]       # top card last
    int n_pile
    uint64_t pile_cards     # every card in the pile (the expert's view().pile)
    uint64_t taken          # the card taken from the pile this turn
    int phase
    int dealer
    int to_play
    int passes
    int turns
    int deal_no
    int last_end
    int scores[2]
    int knocked[2]          # this game's hands each player knocked with deadwood left, late (expert.shown)
    int passed_up[2]        # ... and passed up a knock: a late gin, a knock held at a hand's end (expert.shown)


cdef inline uint64_t _low(uint64_t m) noexcept nogil:
    return m & (~m + 1)


cdef inline int _rank(uint64_t bit) noexcept nogil:
    return __builtin_ctzll(bit) & 15


cdef inline int _suit(uint64_t bit) noexcept nogil:
    return __builtin_ctzll(bit) >> 4


cdef inline int _dw(MeldKernel k, uint64_t m) noexcept nogil:
    return k._deadwood(m, False)


cdef inline int _hand_dw(MeldKernel k, uint64_t m) noexcept nogil:
    """Deadwood of a hand; an 11-card hand after its best discard."""
    return k._deadwood(m, __builtin_popcountll(m) == 11)


# -- the deal -------------------------------------------------------------------------

cdef int _gin_deal(GinTable *t, GinRun *run, uint64_t seed, int64_t game, int hand_no, int deal_no, int dealer,
                   const uint64_t *deck) noexcept nogil:
    """rummylab.gin.game._deal: 10 cards each from the non-dealer on, the upcard, the stock; 0, or
    -1 when memory ran out."""
    cdef uint64_t cards[52]
    cdef int i
    memcpy(cards, deck, 52 * sizeof(uint64_t))
    _restart(&run.chance, "gin", seed, "deal", deal_no, 0)
    _shuffle(cards, 52, run.chance.gen)
    if run.trace and _chance_bits_rows(&run.turns, game, hand_no, 0, C_DEAL, cards, 52):
        return -1
    t.hands[0] = t.hands[1] = 0
    for i in range(20):
        t.hands[(1 - dealer + i) % 2] |= cards[i]
    t.pile[0] = cards[20]
    t.n_pile = 1
    t.pile_cards = cards[20]
    for i in range(31):
        t.stock[i] = cards[21 + i]
    t.n_stock = 31
    t.picked[0] = t.picked[1] = 0
    t.thrown[0] = t.thrown[1] = 0
    t.declined[0] = t.declined[1] = 0
    t.taken = 0
    t.phase = FIRST_UPCARD
    t.dealer = dealer
    t.to_play = 1 - dealer
    t.passes = 0
    t.turns = 0
    t.deal_no = deal_no
    return 0


cdef int _first_dealer(GinRun *run, uint64_t seed, int64_t game) noexcept nogil:
    """rummylab.gin.game.new_game's draw for the first dealer: 0 or 1, or -1 when memory ran out."""
    cdef int dealer
    _restart(&run.chance, "gin", seed, "dealer", 0, 0)
    dealer = <int>_below(run.chance.gen, 2)
    if run.trace and _chance_row(&run.turns, game, 0, 0, C_DEALER, dealer):
        return -1
    return dealer


cdef struct GinRun:
    int bots[2]             # per seat
    bitgen_t *rngs[2]
    Chance chance
    int knock_at[2]         # the most deadwood each seat's bot knocks with (BIG: the knock limit)
    int first_upcard[2]     # 0: take it when it lowers the deadwood, 1: always, 2: never
    int takes[2]            # 0: a discard that lowers the deadwood, 1: only one it melds (GreedyBot.takes)
    int players[2]          # who sits in each seat (the trace's player)
    bint trace
    Rows hands
    Rows turns


# -- the bots -------------------------------------------------------------------------

cdef bint _wants(MeldKernel k, GinTable *t, const GinRun *run) noexcept nogil:
    """GreedyBot.wants: taking the top discard lowers the deadwood (and, taking only into melds,
    the card is melded in the hand it leaves)."""
    cdef uint64_t m = t.hands[t.to_play], top = t.pile[t.n_pile - 1], out = 0, left
    cdef int dw
    if not k._deadwood(m | top, True) < _dw(k, m):
        return False  # the least any discard leaves is below today's only by keeping the card
    if not run.takes[t.to_play]:
        return True
    dw = k._best_removal(m | top, top, &out)  # the card taken stays
    left = (m | top) & ~out
    return _dw(k, left & ~top) + k.point_of[_rank(top)] > dw


cdef int _strong_discard(MeldKernel k, GinTable *t, uint64_t *bit) noexcept nogil:
    """StrongBot.choose_discard: deadwood now, 0.6 x the deadwood expected after the next
    draw from the unseen cards, 4 x the opponent's pick-ups it would feed."""
    cdef int me = t.to_play, dw, danger, n_unseen, tr, br
    cdef uint64_t mask = t.hands[me], taken = t.taken, theirs = t.picked[1 - me]
    cdef uint64_t unseen = 0x1FFF1FFF1FFF1FFFULL & ~(mask | theirs | t.pile_cards)
    cdef uint64_t rest, b, left, u, th
    cdef int64_t ahead_sum
    cdef int cap = BIG
    cdef double ahead, key0, best0 = 0
    cdef int best_dw = 0, best_value = 0
    cdef bint lower, chosen = False
    if taken:
        # a card taken from the pile must pay for itself (unless no discard could)
        cap = _dw(k, mask & ~taken)
        rest = mask & ~taken
        lower = False
        while rest and not lower:
            b = _low(rest)
            rest ^= b
            lower = _dw(k, mask & ~b) < cap
        if not lower:
            cap = BIG
    n_unseen = __builtin_popcountll(unseen)
    bit[0] = 0
    rest = mask & ~taken
    while rest:
        b = _low(rest)
        rest ^= b
        left = mask & ~b
        dw = _dw(k, left)
        if dw >= cap:
            continue
        ahead_sum = 0
        u = unseen
        while u:
            ahead_sum += k._deadwood(left | _low(u), True)
            u &= u - 1
        ahead = <double>ahead_sum / <double>(n_unseen if n_unseen > 0 else 1)
        danger = 0
        br = _rank(b)
        th = theirs
        while th:
            tr = _rank(_low(th))
            if tr == br or (_suit(_low(th)) == _suit(b) and (tr - br <= 2 and br - tr <= 2)):
                danger += 1
            th &= th - 1
        key0 = (<double>dw + 0.6 * ahead) + <double>(4 * danger)
        # the key (score, deadwood, -value): least first, the first such card on a tie
        if not chosen or key0 < best0 or (key0 == best0 and (dw < best_dw or (dw == best_dw
                                                                            and k.point_of[br] > best_value))):
            chosen = True
            best0, best_dw, best_value = key0, dw, k.point_of[br]
            bit[0] = b
    return best_dw


cdef inline int _knock_limit(const GinRules *R, GinRun *run, int seat) noexcept nogil:
    return R.knock_limit if R.knock_limit < run.knock_at[seat] else run.knock_at[seat]


cdef bint _strong_knocks(GinTable *t, const GinRules *R, GinRun *run, int dw) noexcept nogil:
    cdef int me = t.to_play, lead, limit
    if dw == 0:
        return True
    if dw > _knock_limit(R, run, me):
        return False
    lead = t.scores[me] - t.scores[1 - me]
    if lead >= 40 and t.n_stock > 12 and dw > 2:
        return False
    limit = 10 if t.n_stock > 20 else (7 if t.n_stock > 12 else 4)
    return dw <= limit


cdef int _smart_act(MeldKernel k, GinTable *t, const GinRules *R, GinRun *run, uint64_t *card) noexcept nogil:
    """GreedyBot.act and StrongBot.act."""
    cdef int dw, me = t.to_play, bot = run.bots[me]
    cdef uint64_t m
    card[0] = 0
    if t.phase == FIRST_UPCARD:
        if run.first_upcard[me]:
            return A_TAKE_UPCARD if run.first_upcard[me] == 1 else A_PASS
        return A_TAKE_UPCARD if _wants(k, t, run) else A_PASS
    if t.phase == DRAW:
        return A_DRAW_DISCARD if t.passes != 2 and _wants(k, t, run) else A_DRAW_STOCK
    m = t.hands[t.to_play]
    if R.big_gin_bonus >= 0 and _dw(k, m) == 0:
        return A_BIG_GIN
    if bot == BOT_STRONG:
        dw = _strong_discard(k, t, card)
        return A_KNOCK if _strong_knocks(t, R, run, dw) else A_DISCARD
    dw = k._best_removal(m, t.taken, card)  # least deadwood, then the card worth most, then the highest
    return A_KNOCK if dw <= _knock_limit(R, run, me) else A_DISCARD


cdef int _gin_options(MeldKernel k, GinTable *t, const GinRules *R, int *actions, uint64_t *cards) noexcept nogil:
    """legal_actions(state), in its order: how many, each one's code and card (at most
    MAX_OPTIONS: 11 discards, 11 knocks and big gin)."""
    cdef int n = 0
    cdef uint64_t m, can, rest, b
    if t.phase == FIRST_UPCARD:
        actions[0], cards[0], actions[1], cards[1] = A_TAKE_UPCARD, 0, A_PASS, 0
        return 2
    if t.phase == DRAW:
        actions[0], cards[0] = A_DRAW_STOCK, 0
        if t.passes == 2:
            return 1
        actions[1], cards[1] = A_DRAW_DISCARD, 0
        return 2
    m = t.hands[t.to_play]
    can = m & ~t.taken
    rest = can
    while rest:
        b = _low(rest)
        rest ^= b
        actions[n], cards[n] = A_DISCARD, b
        n += 1
    rest = can if k._deadwood(m, True) <= R.knock_limit else 0  # no knock at all: one search says so
    while rest:
        b = _low(rest)
        rest ^= b
        if _dw(k, m & ~b) <= R.knock_limit:
            actions[n], cards[n] = A_KNOCK, b
            n += 1
    if R.big_gin_bonus >= 0 and _dw(k, m) == 0:
        actions[n], cards[n] = A_BIG_GIN, 0
        n += 1
    return n


cdef int _random_act(MeldKernel k, GinTable *t, const GinRules *R, bitgen_t *bg, uint64_t *card) noexcept nogil:
    """RandomBot.act: one of legal_actions(state), in its order, by rng.integers(len) (no draw
    for the one action after two passes)."""
    cdef int actions[MAX_OPTIONS]
    cdef uint64_t cards[MAX_OPTIONS]
    cdef int n = _gin_options(k, t, R, actions, cards), idx = 0
    if n > 1:
        idx = <int>_below(bg, n)
    card[0] = cards[idx]
    return actions[idx]


# -- the game -------------------------------------------------------------------------

cdef int _gin_end_hand(MeldKernel k, GinTable *t, const GinRules *R, GinRun *run, int64_t game, int hand_no,
                       int knocker, uint64_t km) noexcept nogil:
    """rummylab.gin.game._end_hand: score, record, and end the game at the target."""
    cdef int end, kp, dp, kdw, ddw, winner
    cdef int64_t *row
    _gin_outcome(k, km, t.hands[1 - knocker], R, &end, &kp, &dp, &kdw, &ddw)
    winner = -1 if end == END_TIE else 1 - knocker if end == END_UNDERCUT else knocker
    t.hands[knocker] = km
    t.turns += 1
    # expert.shown: a late knock with deadwood left is a knock; a late gin, and the defender's hand as
    # held (before layoffs) within the knock limit once it has discarded, are knocks passed up
    t.passed_up[1 - knocker] += t.turns > 1 and _dw(k, t.hands[1 - knocker]) <= R.knock_limit
    if end != END_GIN and end != END_BIG_GIN:
        t.knocked[knocker] += t.turns > EXPERT_EARLY_TURNS
    else:
        t.passed_up[knocker] += t.turns > EXPERT_EARLY_TURNS
    if winner >= 0:
        t.scores[winner] += kp + dp
    t.last_end = end
    row = _rows_add(&run.hands)
    if row == NULL:
        return -1
    row[HAND_GAME], row[HAND_HAND], row[HAND_WINNER], row[HAND_KIND] = game, hand_no, winner, end
    row[HAND_POINTS], row[HAND_KNOCKER], row[HAND_TURNS] = kp + dp, knocker, t.turns
    row[HAND_DEADWOOD_0] = kdw if knocker == 0 else ddw
    row[HAND_DEADWOOD_1] = ddw if knocker == 0 else kdw
    row[HAND_DEALER] = t.dealer
    t.phase = GAME_OVER if t.scores[0] >= R.target or t.scores[1] >= R.target else HAND_OVER
    return 0


cdef int _gin_apply(MeldKernel k, GinTable *t, const GinRules *R, GinRun *run, int64_t game, int hand_no,
                    int action, uint64_t card) noexcept nogil:
    """Change the table by one action the bot chose (legal by construction)."""
    cdef int me = t.to_play
    cdef uint64_t top
    cdef int64_t *row
    if action == A_TAKE_UPCARD or action == A_DRAW_DISCARD:
        top = t.pile[t.n_pile - 1]
        t.n_pile -= 1
        t.pile_cards &= ~top
        t.hands[me] |= top
        t.picked[me] |= top
        t.taken = top
        t.phase = DISCARD
    elif action == A_PASS:
        t.declined[me] |= t.pile[t.n_pile - 1]
        t.to_play = 1 - me
        t.passes += 1
        if t.passes == 2:
            t.phase = DRAW
    elif action == A_DRAW_STOCK:
        if t.n_pile and t.passes != 2:  # the top discard was there to take (after two passes it was not)
            t.declined[me] |= t.pile[t.n_pile - 1]
        t.n_stock -= 1
        t.hands[me] |= t.stock[t.n_stock]
        t.taken = 0
        t.phase = DISCARD
    elif action == A_DISCARD:
        t.hands[me] &= ~card
        t.picked[me] &= ~card
        t.pile[t.n_pile] = card
        t.n_pile += 1
        t.pile_cards |= card
        t.thrown[me] |= card
        t.taken = 0
        t.turns += 1
        if t.n_stock <= R.dead_hand_stock:
            row = _rows_add(&run.hands)
            if row == NULL:
                return -1
            row[HAND_GAME], row[HAND_HAND], row[HAND_WINNER], row[HAND_KIND] = game, hand_no, -1, END_DEAD
            row[HAND_POINTS], row[HAND_KNOCKER], row[HAND_TURNS] = 0, -1, t.turns
            row[HAND_DEADWOOD_0], row[HAND_DEADWOOD_1] = _dw(k, t.hands[0]), _dw(k, t.hands[1])
            row[HAND_DEALER] = t.dealer
            t.passed_up[0] += row[HAND_DEADWOOD_0] <= R.knock_limit
            t.passed_up[1] += row[HAND_DEADWOOD_1] <= R.knock_limit
            t.last_end = END_DEAD
            t.phase = HAND_OVER
        else:
            t.phase = DRAW
            t.to_play = 1 - me
            t.passes = 0
    elif action == A_KNOCK:
        t.pile[t.n_pile] = card
        t.n_pile += 1
        t.pile_cards |= card
        return _gin_end_hand(k, t, R, run, game, hand_no, me, t.hands[me] & ~card)
    else:  # A_BIG_GIN
        return _gin_end_hand(k, t, R, run, game, hand_no, me, t.hands[me])
    return 0


cdef int _gin_hand(MeldKernel k, GinTable *t, const GinRules *R, GinRun *run, int64_t game,
                   int hand_no) noexcept nogil:
    """Play the dealt hand to its end: 0, or -1 (out of memory), -2 (a hand that does not end)."""
    cdef int action, me, before = 0, steps = 0
    cdef uint64_t card
    cdef int64_t *row
    while t.phase != HAND_OVER and t.phase != GAME_OVER:
        me = t.to_play
        if run.bots[me] == BOT_RANDOM:
            action = _random_act(k, t, R, run.rngs[me], &card)
        elif run.bots[me] == BOT_EXPERT:
            action = _expert_act(k, t, R, run.rngs[me], &card, EXPERT_GIN_PRIOR)
        elif run.bots[me] == BOT_ROLLOUT:
            action = _rollout_act(k, t, R, run.rngs[me], &card)
            if action < 0:
                return action
        else:
            action = _smart_act(k, t, R, run, &card)
        if run.trace:
            before = _hand_dw(k, t.hands[me])
            row = _rows_add(&run.turns)
            if row == NULL:
                return -1
            row[TURN_GAME], row[TURN_HAND], row[TURN_TURN], row[TURN_PLAYER] = game, hand_no, t.turns, run.players[me]
            row[TURN_ACTION], row[TURN_CARD] = action, __builtin_ctzll(card) if card else -1
        if _gin_apply(k, t, R, run, game, hand_no, action, card):
            return -1
        if run.trace:
            row = run.turns.data + (run.turns.n - 1) * run.turns.width
            row[TURN_DEADWOOD_BEFORE], row[TURN_DEADWOOD_AFTER] = before, _hand_dw(k, t.hands[me])
            row[TURN_STOCK_LEFT] = t.n_stock
        steps += 1
        if steps > MAX_ACTIONS:
            return -2
    return 0


cdef int _gin_game(MeldKernel k, uint64_t seed, int64_t game, const GinRules *R, GinRun *run,
                   const uint64_t *deck) noexcept nogil:
    """One two-handed game to the target (rummylab.gin.bots.play_game)."""
    cdef GinTable t
    cdef int hand_no = 0, status
    status = _first_dealer(run, seed, game)
    if status < 0 or _gin_deal(&t, run, seed, game, 0, 0, status, deck):
        return -1
    t.scores[0] = t.scores[1] = 0
    t.knocked[0] = t.knocked[1] = t.passed_up[0] = t.passed_up[1] = 0
    while True:
        status = _gin_hand(k, &t, R, run, game, hand_no)
        if status or t.phase == GAME_OVER:
            return status
        # a dead hand is dealt again by the same dealer; otherwise the deal alternates
        hand_no += 1
        if _gin_deal(&t, run, seed, game, hand_no, t.deal_no + 1, t.dealer if t.last_end == END_DEAD else 1 - t.dealer,
                     deck):
            return -1


cdef int _bot_options(GinRun *run, int seat, knock_at, int first_upcard, int takes) except -1:
    if knock_at is not None and not 0 <= knock_at <= 110:
        raise ValueError(f"knock_at={knock_at!r}: None or 0 to 110")
    if not 0 <= first_upcard <= 2:
        raise ValueError(f"first_upcard={first_upcard!r}: 0, 1 or 2")
    if not 0 <= takes <= 1:
        raise ValueError(f"takes={takes!r}: 0 or 1")
    run.knock_at[seat] = BIG if knock_at is None else knock_at
    run.first_upcard[seat] = first_upcard
    run.takes[seat] = takes
    return 0


def play_gin(MeldKernel kernel, const uint64_t[::1] seeds, bots, rngs, const uint64_t[::1] deck, *,
             dict rules, knock_at=(None, None), first_upcard=(0, 0), takes=(0, 0), bint trace=False,
             int64_t first_game=0):
    """Play one gin game per seed; (hands, turns): int64 rows of HAND_COLUMNS and TURN_COLUMNS
    (turns is None without ``trace``). bots: two codes (0 random, 1 greedy, 2 strong, 3 expert, 4 rollout);
    rngs: per game, the two seats' numpy Generators (None for a bot that draws nothing: not random,
    expert or rollout); knock_at,
    first_upcard and takes: each seat's bot options (see rummylab.gin.bots.GreedyBot); rules: GinRules'
    fields by name (rummylab.sim.codes, rummylab.gin.loop.loop_options). Games are numbered
    from first_game. Runs without the GIL but to set each deal's stream."""
    cdef GinRules R
    cdef GinRun run
    cdef Py_ssize_t i, n = seeds.shape[0]
    cdef int status = 0, seat
    cdef int64_t failed = 0
    cdef bitgen_t **gens = NULL
    if deck.shape[0] != 52 or len(bots) != 2 or len(rngs) != n:
        raise ValueError("need a 52-card deck, two bots and a pair of rngs per game")
    for seat in range(2):
        run.bots[seat] = bots[seat]
        if run.bots[seat] not in (BOT_RANDOM, BOT_GREEDY, BOT_STRONG, BOT_EXPERT, BOT_ROLLOUT):
            raise ValueError(f"bot code {bots[seat]!r}: 0, 1, 2, 3 or 4")
        if (run.bots[seat] == BOT_EXPERT or run.bots[seat] == BOT_ROLLOUT) and EXPERT_SAMPLES < 1:
            raise ValueError("the expert's constants are not set: set_expert(*rummylab.gin.expert.constants(rules)) first")
        if run.bots[seat] == BOT_ROLLOUT and ROLLOUT_SAMPLES < 2:
            raise ValueError("the rollout bot's constants are not set: set_rollout(*rummylab.gin.rollout_bot.constants(rules)) first")
        _bot_options(&run, seat, knock_at[seat], first_upcard[seat], takes[seat])
    _read_GinRules(&R, rules)
    if (run.bots[0] == BOT_ROLLOUT or run.bots[1] == BOT_ROLLOUT) and _rollout_units_check(&R):
        raise ValueError(f"the rollout bot's game units are for a game to {ROLLOUT_UNITS_TARGET}, the rules' to "
                         f"{R.target}: set_rollout(*rummylab.gin.rollout_bot.constants(rules)) first")
    run.trace = trace
    run.hands.data = run.turns.data = NULL
    try:
        gens = <bitgen_t **>malloc(max(n, 1) * 2 * sizeof(bitgen_t *))
        if (gens == NULL or _rows_init(&run.hands, HAND_WIDTH, n * 12)
                or (trace and _rows_init(&run.turns, TURN_WIDTH, n * 300))):
            raise MemoryError("no memory for the game records")
        for i in range(n):
            for seat in range(2):
                gens[2 * i + seat] = NULL
                if run.bots[seat] == BOT_RANDOM or run.bots[seat] == BOT_EXPERT or run.bots[seat] == BOT_ROLLOUT:
                    gens[2 * i + seat] = <bitgen_t *>PyCapsule_GetPointer(
                        rngs[i][seat].bit_generator.capsule, "BitGenerator")
        run.players[0], run.players[1] = 0, 1
        bits = _chance_bits(&run.chance)
        with nogil:
            for i in range(n):
                run.rngs[0], run.rngs[1] = gens[2 * i], gens[2 * i + 1]
                status = _gin_game(kernel, seeds[i], first_game + i, &R, &run, &deck[0])
                if status:
                    failed = i
                    break
        if status == -1:
            raise MemoryError("no memory for the game records")
        if status == -2:
            raise RuntimeError(f"gin game {first_game + failed} with seed {seeds[failed]} did not finish: "
                               f"a hand went on for {MAX_ACTIONS} actions")
        return _rows_array(&run.hands), (_rows_array(&run.turns) if trace else None)
    finally:
        free(gens)
        free(run.hands.data)
        free(run.turns.data)
