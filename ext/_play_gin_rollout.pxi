# Gin hands played on from any state (included by _play.pyx after _play_gin_expert.pxi): the
# rollouts of rummylab.gin.evaluation. A state row (STATE_* columns, rummylab/sim/codes.py) is
# loaded into a GinTable and played to the hand's end by _gin_hand, the loop whole games use,
# so a rollout makes the engine's moves (tests/test_evaluation.py).


cdef int _gin_load(GinTable *t, const int64_t *row) noexcept nogil:
    """The table of one state row; 0, or -1 for a row no hand in play can have."""
    cdef int i, n_stock = <int>row[STATE_N_STOCK], n_pile = <int>row[STATE_N_PILE]
    cdef int64_t code
    cdef uint64_t seen = 0, bit
    if not 0 <= n_stock <= 52 or not 0 <= n_pile <= 52 or n_stock + n_pile > 52:
        return -1
    if row[STATE_PHASE] != FIRST_UPCARD and row[STATE_PHASE] != DRAW and row[STATE_PHASE] != DISCARD:
        return -1
    for i in range(2):
        t.hands[i] = <uint64_t>row[STATE_HAND_0 + i]
        t.picked[i] = <uint64_t>row[STATE_PICKED_0 + i]
        t.thrown[i] = <uint64_t>row[STATE_THROWN_0 + i]
        t.declined[i] = <uint64_t>row[STATE_DECLINED_0 + i]
        t.scores[i] = <int>row[STATE_SCORE_0 + i]
        t.knocked[i], t.passed_up[i] = <int>row[STATE_KNOCKED_0 + i], <int>row[STATE_PASSED_UP_0 + i]
        if t.knocked[i] < 0 or t.passed_up[i] < 0:
            return -1
        if t.hands[i] & ~_FULL_DECK or seen & t.hands[i]:
            return -1
        seen |= t.hands[i]
    t.n_stock, t.n_pile, t.pile_cards = n_stock, n_pile, 0
    for i in range(52):
        code = row[STATE_STOCK_0 + i]
        if i < n_stock:
            if not 0 <= code < 64:
                return -1
            bit = (<uint64_t>1) << code
            if bit & (seen | ~_FULL_DECK):
                return -1
            seen |= bit
            t.stock[i] = bit
        code = row[STATE_PILE_0 + i]
        if i < n_pile:
            if not 0 <= code < 64:
                return -1
            bit = (<uint64_t>1) << code
            if bit & (seen | ~_FULL_DECK):
                return -1
            seen |= bit
            t.pile[i] = bit
            t.pile_cards |= bit
    if seen != _FULL_DECK:
        return -1
    t.taken = <uint64_t>row[STATE_TAKEN]
    t.phase, t.dealer, t.to_play = <int>row[STATE_PHASE], <int>row[STATE_DEALER], <int>row[STATE_TO_PLAY]
    t.passes, t.turns, t.deal_no = <int>row[STATE_PASSES], <int>row[STATE_TURNS], <int>row[STATE_DEAL_NO]
    if t.to_play & ~1 or t.dealer & ~1 or (t.taken and not t.taken & t.hands[t.to_play]):
        return -1
    if (__builtin_popcountll(t.hands[t.to_play]) != (11 if t.phase == DISCARD else 10)
            or __builtin_popcountll(t.hands[1 - t.to_play]) != 10):
        return -1  # hands of the wrong size for the phase
    if t.phase != DISCARD and (t.n_pile == 0 and t.passes != 2):
        return -1  # a draw with no top discard
    t.last_end = -1
    return 0


def rollout_gin(MeldKernel kernel, const int64_t[:, ::1] states, const int64_t[::1] first_actions,
                const int64_t[::1] first_cards, bots, rngs, *, dict rules, knock_at=(None, None),
                first_upcard=(0, 0), takes=(0, 0), bint trace=False):
    """Play each state row's hand to its end, its first action (code, card bit position or -1;
    code -1: none) made and then the bots'; (hands, turns) as ``play_gin`` returns them, one
    hand row per state (its game: the state's row number). A first action must be legal in its
    row (the caller checks). bots: the two seats' codes; rngs:
    the two seats' numpy Generators (None for a bot that draws nothing), drawn from state after
    state. Runs without the GIL."""
    cdef GinRules R
    cdef GinRun run
    cdef GinTable t
    cdef Py_ssize_t i, n = states.shape[0]
    cdef int status = 0, seat
    cdef Py_ssize_t failed = 0
    if states.shape[1] != STATE_WIDTH or len(bots) != 2 or len(rngs) != 2:
        raise ValueError(f"need state rows of {STATE_WIDTH} columns, two bots and two rngs")
    if first_actions.shape[0] != n or first_cards.shape[0] != n:
        raise ValueError("need a first action and card per state row")
    for seat in range(2):
        run.bots[seat] = bots[seat]
        if run.bots[seat] not in (BOT_RANDOM, BOT_GREEDY, BOT_STRONG, BOT_EXPERT):
            raise ValueError(f"bot code {bots[seat]!r}: 0, 1, 2 or 3 (random, greedy, strong, expert; "
                             "the rollout bot plays no rollout's seat)")
        if run.bots[seat] == BOT_EXPERT and EXPERT_SAMPLES < 1:
            raise ValueError("the expert's constants are not set: set_expert(*rummylab.gin.expert.constants(rules)) first")
        _bot_options(&run, seat, knock_at[seat], first_upcard[seat], takes[seat])
        run.rngs[seat] = NULL
        if run.bots[seat] == BOT_RANDOM or run.bots[seat] == BOT_EXPERT:
            run.rngs[seat] = <bitgen_t *>PyCapsule_GetPointer(rngs[seat].bit_generator.capsule, "BitGenerator")
    _read_GinRules(&R, rules)
    run.trace = trace
    run.players[0], run.players[1] = 0, 1
    run.hands.data = run.turns.data = NULL
    try:
        if _rows_init(&run.hands, HAND_WIDTH, n) or (trace and _rows_init(&run.turns, TURN_WIDTH, n * 40)):
            raise MemoryError("no memory for the rollouts' records")
        with nogil:
            for i in range(n):
                if _gin_load(&t, &states[i, 0]):
                    status, failed = -3, i
                    break
                if first_actions[i] >= 0:
                    status = _gin_apply(kernel, &t, &R, &run, i, 0, <int>first_actions[i],
                                        (<uint64_t>1) << first_cards[i] if first_cards[i] >= 0 else 0)
                    if status:
                        failed = i
                        break
                status = _gin_hand(kernel, &t, &R, &run, i, 0)
                if status:
                    failed = i
                    break
        if status == -1:
            raise MemoryError("no memory for the rollouts' records")
        if status == -2:
            raise RuntimeError(f"the rollout of state {failed} did not finish: {MAX_ACTIONS} actions")
        if status == -3:
            raise ValueError(f"state row {failed} is no hand in play (cards missing or twice, a hand of the wrong size, or a bad phase)")
        return _rows_array(&run.hands), (_rows_array(&run.turns) if trace else None)
    finally:
        free(run.hands.data)
        free(run.turns.data)
