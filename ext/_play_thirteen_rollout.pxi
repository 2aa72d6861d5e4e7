# Three Thirteen rounds played on from any state (included by _play.pyx after _play_thirteen.pxi):
# the rollouts of rummylab.three_thirteen.evaluation. A state row (T_STATE_* columns,
# rummylab/sim/codes.py) is loaded into a TTTable and played to the round's scoring by _tt_round,
# the loop whole games use, so a rollout makes the engine's moves (tests/test_three_thirteen_rollout.py).


cdef int _tt_load(TTTable *t, const int64_t *row) noexcept nogil:
    """The table of one state row; 0, or -1 for a row no round in play can have."""
    cdef int p, i, n_stock = <int>row[T_STATE_N_STOCK], n_pile = <int>row[T_STATE_N_PILE], total = 0
    cdef int64_t code
    cdef uint64_t o, t2, t3
    cdef uint64_t bit
    cdef int counts[64]
    if not 0 <= n_stock <= T_MAX_CARDS or not 0 <= n_pile <= T_MAX_CARDS or n_stock + n_pile > 52 * t.decks:
        return -1
    if row[T_STATE_PHASE] != T_DRAW and row[T_STATE_PHASE] != T_DISCARD:
        return -1
    t.round_no, t.dealer, t.to_play = <int>row[T_STATE_ROUND_NO], <int>row[T_STATE_DEALER], <int>row[T_STATE_TO_PLAY]
    t.phase, t.went_out = <int>row[T_STATE_PHASE], <int>row[T_STATE_WENT_OUT]
    t.final_turns, t.reshuffles = <int>row[T_STATE_FINAL_TURNS], <int>row[T_STATE_RESHUFFLES]
    if not 1 <= t.round_no <= 11 or not 0 <= t.dealer < t.players or not 0 <= t.to_play < t.players:
        return -1
    if not -1 <= t.went_out < t.players or (t.went_out >= 0 and not 0 < t.final_turns < t.players):
        return -1
    code = row[T_STATE_TAKEN]
    if not -1 <= code < 64:
        return -1
    t.taken = 0 if code < 0 else (<uint64_t>1) << code
    memset(counts, 0, sizeof(counts))
    for p in range(t.players):
        o, t2, t3 = <uint64_t>row[T_STATE_ONCE_0 + p], <uint64_t>row[T_STATE_TWICE_0 + p], <uint64_t>row[T_STATE_THRICE_0 + p]
        if (t2 & ~o) or (t3 & ~t2) or (o & ~_FULL_DECK):
            return -1
        if (__builtin_popcountll(o) + __builtin_popcountll(t2) + __builtin_popcountll(t3)
                != t.round_no + 2 + (p == t.to_play and t.phase == T_DISCARD)):
            return -1  # a hand of the wrong size for the round and the phase
        t.once[p], t.twice[p], t.thrice[p] = o, t2, t3
        for i in range(64):
            bit = (<uint64_t>1) << i
            counts[i] += (o & bit != 0) + (t2 & bit != 0) + (t3 & bit != 0)
    for i in range(n_stock + n_pile):
        code = row[T_STATE_STOCK_0 + i] if i < n_stock else row[T_STATE_PILE_0 + i - n_stock]
        if not 0 <= code < 64 or not ((<uint64_t>1) << code) & _FULL_DECK:
            return -1
        counts[code] += 1
        if i < n_stock:
            t.stock[i] = (<uint64_t>1) << code
        else:
            t.pile[i - n_stock] = (<uint64_t>1) << code
    for i in range(64):
        if counts[i] != (t.decks if ((<uint64_t>1) << i) & _FULL_DECK else 0):
            return -1
    t.n_stock, t.n_pile = n_stock, n_pile
    return 0


def rollout_thirteen(WildKernel kernel, const int64_t[:, ::1] states, const uint64_t[::1] seeds, bots, rngs,
                     dict rules):
    """Play each state row's round to its scoring by the bots' moves: round rows
    (THIRTEEN_ROUND_COLUMNS, one per player per state, its game the row number). seeds: each
    row's game seed (its chance streams: the pile shuffled into the stock); bots: a code per
    player (0 greedy, 1 planner); rngs: per row, each player's numpy Generator; rules: as
    ``play_thirteen`` takes them. Runs without the GIL."""
    cdef TTRun run
    cdef ThirteenRules R
    cdef TTTable *t = NULL
    cdef Py_ssize_t i, n = states.shape[0], failed = 0
    cdef int status = 0, p, players = len(bots)
    cdef bitgen_t **gens = NULL
    if states.shape[1] != T_STATE_WIDTH or seeds.shape[0] != n:
        raise ValueError(f"need state rows of {T_STATE_WIDTH} columns and a seed per row")
    if len(rngs) != n or any(len(r) != players for r in rngs):
        raise ValueError("need a generator per player per state row")
    _read_ThirteenRules(&R, rules)
    if not 2 <= players <= T_MAX_PLAYERS or not 1 <= R.decks <= 3:
        raise ValueError("need 2 to 8 bots and 1 to 3 decks")
    for p in range(players):
        run.bots[p] = bots[p]
        if run.bots[p] not in (T_BOT_GREEDY, T_BOT_PLANNER):
            raise ValueError(f"bot code {bots[p]!r}: 0 (greedy) or 1 (planner)")
    for p in range(13):
        run.points[p] = R.points[p]
    run.rows.data = run.turns.data = NULL
    run.trace = False
    run.table.slots = NULL
    run.memo_wild = -2
    try:
        t = <TTTable *>malloc(sizeof(TTTable))
        gens = <bitgen_t **>malloc(max(n, 1) * players * sizeof(bitgen_t *))
        if (t == NULL or gens == NULL or _rows_init(&run.rows, T_ROUND_WIDTH, max(n, 1) * players)
                or _table_init(&run.table, 1 << 12)):
            raise MemoryError("no memory for the rollouts")
        for i in range(n):
            for p in range(players):
                gens[i * players + p] = <bitgen_t *>PyCapsule_GetPointer(rngs[i][p].bit_generator.capsule,
                                                                         "BitGenerator")
        t.players, t.decks = players, R.decks
        bits = _chance_bits(&run.chance)
        with nogil:
            for i in range(n):
                for p in range(players):
                    run.rngs[p] = gens[i * players + p]
                    t.scores[p] = 0  # the round's penalties are its rows; totals are not read
                if _tt_load(t, &states[i, 0]):
                    status, failed = -4, i
                    break
                status = _tt_round(kernel, &run, t, seeds[i], i)
                if status:
                    failed = i
                    break
        if status == -1:
            raise MemoryError("no memory for the rollouts' records")
        if status == -2:
            raise RuntimeError(f"the rollout of state row {failed} did not finish: {T_MAX_ACTIONS} actions")
        if status == -4:
            raise ValueError(f"state row {failed} is no round in play (a card too often or missing, a hand of the wrong size, a bad phase)")
        return _rows_array(&run.rows)
    finally:
        free(t)
        free(gens)
        free(run.rows.data)
        free(run.table.slots)
