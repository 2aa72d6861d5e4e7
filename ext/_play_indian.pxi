# Indian rummy (included by _play.pyx): the state, its hands and a game from the toss to the
# end; the moves are in _play_indian_rules.pxi, the bots in _play_indian_bots.pxi.
#
# A card is a code: rank * 4 + suit for the 52 cards (so codes sort as rummylab's Card does),
# I_JOKER for a printed joker. A hand is its count of each code and its two-deck masks.

# The shared codes (phases, actions, bots, how a deal ends, the rows' columns) are in _codes.pxi,
# generated from rummylab/sim/codes.py.

cdef enum:
    I_JOKER = 52
    I_HAND = 13  # rummylab.indian.rules.HAND_SIZE (a test holds them equal)


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
    int shuffled_kind         # the chance kind of a shuffle of stock cards this action made (-1: none)
    int shuffled_from         # its cards: stock[shuffled_from:shuffled_from + shuffled_n], in order
    int shuffled_n


cdef struct IRun:
    IOptions o
    int bots[I_MAX_PLAYERS]
    bitgen_t *rngs[I_MAX_PLAYERS]  # this game's generator of each seat
    Chance chance
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


cdef inline int _i_points_after_discard(WildKernel k, IRun *run, ITable *t, int p) noexcept nogil:
    """rummylab.indian.analysis.loser_count_after_discard: the loser points of a player's 14
    cards after the best discard, in one search (the memo is _i_loser's)."""
    cdef bint fresh = t.wild != run.loser_wild
    run.loser_wild = t.wild
    return k._loser_discard(&run.loser_table, t.once[p], t.twice[p], t.jokers[p], t.wild, run.o.exclude_pure,
                            run.o.cap, run.o.valid_show, fresh)


cdef int _i_hand_points(WildKernel k, IRun *run, ITable *t, int p) noexcept nogil:
    """For the trace: the loser points of a hand; 14 cards after the best discard; none: 0."""
    if t.n_hand[p] == 0:
        return 0
    if t.n_hand[p] != 14:
        return _i_points(k, run, t, p)
    return _i_points_after_discard(k, run, t, p)


# -- a game -------------------------------------------------------------------------

cdef int _i_apply(WildKernel k, IRun *run, ITable *t, int action, int card, bint valid) noexcept nogil:
    """rummylab.indian.game's moves in the draw and discard phases: 0, or -1 (out of memory)."""
    cdef int me = t.to_play, top
    if action == I_A_DRAW_STOCK:
        _i_draw_stock(run, t)
        t.missed[me] = 0
    elif action == I_A_DRAW_DISCARD:
        t.n_pile -= 1
        _i_add(t, me, t.pile[t.n_pile])
        t.taken = 1
        t.drawn[me] = 1
        t.missed[me] = 0
        t.phase = I_DISCARD
    elif action == I_A_DISCARD or action == I_A_DECLARE:
        t.taken = 0
        _i_remove(t, me, card)
        t.pile[t.n_pile] = card
        t.n_pile += 1
        if action == I_A_DISCARD:
            t.phase = I_DRAW
            t.to_play = _i_next_player(run, t, me)
        elif valid:
            t.winner = me
            t.ending = I_END_VALID_SHOW
            return _i_score_deal(k, run, t)
        else:  # a wrong show: the declarer pays and is out of the deal; play goes on
            t.deal_points[me] = run.o.wrong_show
            t.in_deal[me] = 0
            t.ending = I_END_WRONG_SHOW
            return _i_after_leaving(k, run, t, me)
    elif action == I_A_DROP:
        t.ending = I_END_DROP
        return _i_drop(k, run, t, me)
    elif action == I_A_MISS_TURN:  # a deal this ends, ends by a player who left
        t.ending = I_END_LEFT
        return _i_miss_turn(k, run, t)
    elif action == I_A_LEAVE:
        t.left[me] = 1
    elif action == I_A_RECONNECT:
        t.left[me] = 0
        t.missed[me] = 0
    return 0


cdef int _i_turn(WildKernel k, WildKernel dk, IRun *run, ITable *t, int *turn) noexcept nogil:
    """The player to act makes her bot's move (and its trace rows); ``turn`` counts the deal's
    turns. 0, or -1 (out of memory), -3 (a bot without a legal move)."""
    cdef int action, me, card, deal, before = 0
    cdef bint valid
    cdef int64_t *row
    me = t.to_play
    card, valid = -1, False
    if run.bots[me] == I_BOT_GREEDY:
        action = _i_greedy_act(k, dk, run, t, &card, &valid)
    else:
        action = _i_random_act(run, t, &card, &valid)
    if action < 0:
        return -3
    deal = t.deal_no
    t.shuffled_kind = -1
    if run.trace:
        before = _i_hand_points(k, run, t, me)
    if _i_apply(k, run, t, action, card, valid):
        return -1
    t.actions += 1
    if run.trace:
        row = _rows_add(&run.turns)
        if row == NULL:
            return -1
        row[I_TURN_GAME], row[I_TURN_DEAL], row[I_TURN_TURN], row[I_TURN_PLAYER] = run.game, deal, turn[0], me
        row[I_TURN_ACTION] = action
        row[I_TURN_CARD] = -1 if card < 0 else _i_trace_card(card)
        row[I_TURN_POINTS_BEFORE], row[I_TURN_POINTS_AFTER] = before, _i_hand_points(k, run, t, me)
        row[I_TURN_STOCK_LEFT] = t.n_stock
        if t.shuffled_kind >= 0 and _i_chance_rows(run, t.shuffled_kind, deal, turn[0], t.stock + t.shuffled_from,
                                                   t.shuffled_n):
            return -1
    if action == I_A_DISCARD or action == I_A_DECLARE or action == I_A_DROP or action == I_A_MISS_TURN:
        turn[0] += 1
    return 0


cdef int _i_game(WildKernel k, WildKernel dk, IRun *run, ITable *t) noexcept nogil:
    """One game: 0, or -1 (out of memory), -2 (a game that does not end), -3 (a bot without a
    legal move)."""
    cdef int action, player, turn = 0, p, top, win, tossed, status
    cdef int64_t *row
    tossed = _i_toss(run, t)
    if tossed:
        return -3 if tossed == -1 else -1
    for p in range(run.o.players):
        t.scores[p] = t.eliminated[p] = t.rejoins[p] = t.left[p] = 0
        t.chips[p] = run.o.start_chips
    if _i_deal(run, t, 1, t.seats[run.o.players - 1]):
        return -1
    t.actions = 0
    while t.phase != I_GAME_OVER:
        if t.actions >= I_MAX_ACTIONS:
            return -2
        if t.phase == I_DEAL_OVER:
            action = _i_table_act(run, t, &player)
            if run.trace:  # the table's action: the player who re-joins, else TABLE_PLAYER
                row = _rows_add(&run.turns)
                if row == NULL:
                    return -1
                row[I_TURN_GAME], row[I_TURN_DEAL], row[I_TURN_TURN] = run.game, t.deal_no, turn
                row[I_TURN_PLAYER] = player if action == I_A_REJOIN else TABLE_PLAYER
                row[I_TURN_ACTION] = action
                row[I_TURN_CARD] = row[I_TURN_POINTS_BEFORE] = row[I_TURN_POINTS_AFTER] = row[I_TURN_STOCK_LEFT] = -1
            if action == I_A_REJOIN:
                top = -1
                for p in range(run.o.players):
                    if not t.eliminated[p] and t.scores[p] > top:
                        top = t.scores[p]
                t.eliminated[player], t.scores[player] = 0, top + 1
                t.rejoins[player] += 1
                t.left[player] = 0
            elif action == I_A_NEXT_DEAL:
                if _i_next_deal(run, t):
                    return -1
                turn = 0
            else:
                t.phase = I_GAME_OVER
            t.actions += 1
            continue
        status = _i_turn(k, dk, run, t, &turn)
        if status:
            return status
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
    row[I_GAME_GAME], row[I_GAME_DEALS], row[I_GAME_WINNER] = run.game, t.deal_no, win
    for p in range(I_MAX_PLAYERS):
        row[I_GAME_SCORE_0 + p] = t.scores[p] if p < run.o.players else 0
        row[I_GAME_CHIPS_0 + p] = t.chips[p] if p < run.o.players and run.o.deals else 0
    return 0


def play_indian(WildKernel kernel, WildKernel declaration_kernel, const uint64_t[::1] seeds, bots, rngs,
                dict options, int64_t first_game=0, bint trace=False):
    """Indian rummy, one game per seed: (games, deals, turns), int64 rows of INDIAN_GAME_COLUMNS,
    INDIAN_DEAL_COLUMNS and, with ``trace``, INDIAN_TURN_COLUMNS. bots: a code per player (0
    greedy, 1 random); rngs: per game, each player's numpy Generator;
    options: the game's rules and the bots' options by name (rummylab.indian.bots.loop_options).
    Runs without the GIL but to set each chance event's stream."""
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
    _read_IOptions(&run.o, options)
    if run.o.players != players:
        raise ValueError(f"options for {run.o.players} players, {players} bots")
    if not 0 <= run.o.printed_jokers <= 4:
        raise ValueError("0 to 4 printed jokers")
    for p in range(players):
        run.bots[p] = bots[p]
        if run.bots[p] not in (I_BOT_GREEDY, I_BOT_RANDOM):
            raise ValueError(f"bot code {bots[p]!r}: 0 (greedy) or 1 (random)")
    run.trace = trace
    run.loser_wild = run.show_wild = -2
    try:
        t = <ITable *>malloc(sizeof(ITable))
        gens = <bitgen_t **>malloc(max(n, 1) * players * sizeof(bitgen_t *))
        if (t == NULL or gens == NULL or _rows_init(&run.games, I_GAME_WIDTH, n) or _rows_init(&run.deal_rows, I_DEAL_WIDTH, n * 4)
                or (trace and _rows_init(&run.turns, I_TURN_WIDTH, n * 200)) or _table_init(&run.loser_table, 1 << 12)
                or _table_init(&run.show_table, 1 << 12)):
            raise MemoryError("no memory for the games")
        for i in range(n):
            for p in range(players):
                gens[i * players + p] = <bitgen_t *>PyCapsule_GetPointer(rngs[i][p].bit_generator.capsule,
                                                                         "BitGenerator")
        bits = _chance_bits(&run.chance)
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
