# Indian rummy deals played on from any state (included by _play.pyx after _play_indian_bots.pxi):
# the rollouts of rummylab.indian.evaluation. A state row (I_STATE_* columns, rummylab/sim/codes.py)
# is loaded into an ITable and played to the deal's end by _i_turn, the move whole games make, so a
# rollout makes the engine's moves (tests/test_indian_rollout.py).


cdef int _i_load(IRun *run, ITable *t, const int64_t *row) noexcept nogil:
    """The table of one state row; 0, or -1 for a row no deal in play can have."""
    cdef int p, i, code, n_stock = <int>row[I_STATE_N_STOCK], n_pile = <int>row[I_STATE_N_PILE], n
    cdef int players = run.o.players
    cdef int seen[53]
    cdef int pack = 104 + run.o.printed_jokers
    if not 0 <= n_stock <= I_PACK or not 0 <= n_pile <= I_PACK or n_stock + n_pile > pack:
        return -1
    if row[I_STATE_PHASE] != I_DRAW and row[I_STATE_PHASE] != I_DISCARD:
        return -1
    memset(seen, 0, sizeof(seen))
    for p in range(players):
        t.seat_of[p] = -1
    t.deal_no, t.dealer, t.to_play = <int>row[I_STATE_DEAL_NO], <int>row[I_STATE_DEALER], <int>row[I_STATE_TO_PLAY]
    t.phase, t.wild, t.reshuffles = <int>row[I_STATE_PHASE], <int>row[I_STATE_WILD], <int>row[I_STATE_RESHUFFLES]
    t.taken = <int>row[I_STATE_TAKEN]
    if not 0 <= t.dealer < players or not 0 <= t.to_play < players or not 0 <= t.wild < 13:
        return -1
    for p in range(players):
        t.seats[p] = <int>row[I_STATE_SEAT_0 + p]
        if not 0 <= t.seats[p] < players or t.seat_of[t.seats[p]] >= 0:
            return -1
        t.seat_of[t.seats[p]] = p
        t.in_deal[p], t.drawn[p] = <int>row[I_STATE_IN_DEAL_0 + p], <int>row[I_STATE_DRAWN_0 + p]
        t.missed[p], t.left[p] = <int>row[I_STATE_MISSED_0 + p], <int>row[I_STATE_LEFT_0 + p]
        t.deal_points[p], t.scores[p] = <int>row[I_STATE_DEAL_POINTS_0 + p], <int>row[I_STATE_SCORE_0 + p]
        t.eliminated[p], t.rejoins[p] = <int>row[I_STATE_ELIMINATED_0 + p], <int>row[I_STATE_REJOINS_0 + p]
        t.chips[p] = <int>row[I_STATE_CHIPS_0 + p]
        memset(t.cnt[p], 0, 53)
        t.once[p] = t.twice[p] = 0
        t.jokers[p] = t.n_hand[p] = 0
        n = <int>row[I_STATE_N_HAND_0 + p]
        if not 0 <= n <= 14:
            return -1
        for i in range(n):
            code = <int>row[I_STATE_HAND_0_0 + 14 * p + i]
            if not 0 <= code <= I_JOKER:
                return -1
            seen[code] += 1
            _i_add(t, p, code)
    if not t.in_deal[t.to_play]:
        return -1
    for p in range(players):
        if t.in_deal[p] and t.n_hand[p] != I_HAND + (p == t.to_play and t.phase == I_DISCARD):
            return -1  # a hand of the wrong size for the phase
    for i in range(n_stock):
        code = <int>row[I_STATE_STOCK_0 + i]
        if not 0 <= code <= I_JOKER:
            return -1
        seen[code] += 1
        t.stock[i] = code
    for i in range(n_pile):
        code = <int>row[I_STATE_PILE_0 + i]
        if not 0 <= code <= I_JOKER:
            return -1
        seen[code] += 1
        t.pile[i] = code
    n = 0
    for code in range(53):
        n += seen[code]
        if seen[code] > 2 and code < 52:
            return -1
    if n != pack:
        return -1
    if seen[I_JOKER] > run.o.printed_jokers:
        return -1
    t.n_stock, t.n_pile = n_stock, n_pile
    t.winner, t.ending, t.actions, t.shuffled_kind = -1, -1, 0, -1
    return 0


def rollout_indian(WildKernel kernel, WildKernel declaration_kernel, const int64_t[:, ::1] states,
                   const uint64_t[::1] seeds, bots, rngs, dict options):
    """Play each state row's deal to its end by the bots' moves: deal rows (INDIAN_DEAL_COLUMNS,
    one per state, its game the row number). seeds: each row's game seed (its chance streams:
    the pile shuffled into the stock); bots: a code per player (0 greedy, 1 random); rngs: per
    row, each player's numpy Generator; options: as ``play_indian`` takes them. Runs without the
    GIL."""
    cdef IRun run
    cdef ITable *t = NULL
    cdef Py_ssize_t i, n = states.shape[0], failed = 0
    cdef int status = 0, p, players = len(bots), turn
    cdef bitgen_t **gens = NULL
    if states.shape[1] != I_STATE_WIDTH or seeds.shape[0] != n:
        raise ValueError(f"need state rows of {I_STATE_WIDTH} columns and a seed per row")
    if len(rngs) != n or any(len(r) != players for r in rngs):
        raise ValueError("need a generator per player per state row")
    memset(&run, 0, sizeof(IRun))
    _read_IOptions(&run.o, options)
    if run.o.players != players or not 2 <= players <= I_MAX_PLAYERS:
        raise ValueError(f"options for {run.o.players} players, {players} bots")
    if not 0 <= run.o.printed_jokers <= 4:  # as the game loop's (a deck's codes stop at two packs' jokers)
        raise ValueError("0 to 4 printed jokers")
    for p in range(players):
        run.bots[p] = bots[p]
        if run.bots[p] not in (I_BOT_GREEDY, I_BOT_RANDOM):
            raise ValueError(f"bot code {bots[p]!r}: 0 (greedy) or 1 (random)")
    run.loser_wild = run.show_wild = -2
    try:
        t = <ITable *>malloc(sizeof(ITable))
        gens = <bitgen_t **>malloc(max(n, 1) * players * sizeof(bitgen_t *))
        if (t == NULL or gens == NULL or _rows_init(&run.games, I_GAME_WIDTH, 1) or _rows_init(&run.deal_rows, I_DEAL_WIDTH, n)
                or _table_init(&run.loser_table, 1 << 12) or _table_init(&run.show_table, 1 << 12)):
            raise MemoryError("no memory for the rollouts")
        for i in range(n):
            for p in range(players):
                gens[i * players + p] = <bitgen_t *>PyCapsule_GetPointer(rngs[i][p].bit_generator.capsule,
                                                                         "BitGenerator")
        bits = _chance_bits(&run.chance)
        with nogil:
            for i in range(n):
                for p in range(players):
                    run.rngs[p] = gens[i * players + p]
                run.seed, run.game = seeds[i], i
                if _i_load(&run, t, &states[i, 0]):
                    status, failed = -4, i
                    break
                turn = 0
                while t.phase == I_DRAW or t.phase == I_DISCARD:
                    if t.actions >= I_MAX_ACTIONS:
                        status = -2
                        break
                    status = _i_turn(kernel, declaration_kernel, &run, t, &turn)
                    if status:
                        break
                if status:
                    failed = i
                    break
        if status == -1:
            raise MemoryError("no memory for the rollouts' records")
        if status == -2:
            raise RuntimeError(f"the rollout of state row {failed} did not finish in {I_MAX_ACTIONS} actions")
        if status == -3:
            raise RuntimeError(f"state row {failed}: a bot had no legal move")
        if status == -4:
            raise ValueError(f"state row {failed} is no deal in play (a card too often, a hand of the wrong size, a bad seat or phase)")
        return _rows_array(&run.deal_rows)
    finally:
        free(t)
        free(gens)
        free(run.games.data)
        free(run.deal_rows.data)
        free(run.loser_table.slots)
        free(run.show_table.slots)
