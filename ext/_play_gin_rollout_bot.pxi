# The rollout bot in the gin loops (included by _play.pyx after _play_gin_rollout.pxi):
# rummylab.gin.rollout_bot.RolloutBot.act, decision for decision: the expert's move (_expert_act,
# from the seat's generator first), overruled by the rollouts when they are sure. Its worlds are drawn as
# rummylab.gin.worlds.sample draws them under the "kept" model (the same uniforms from the seat's
# generator, in the same order, each probability computed with the Python's operations in its
# order), each option is played on in them by the greedy bots as rollout_gin plays them, and the
# options are screened as rummylab.screening.screened screens them (every_diff=False): the points are integers,
# so their sums are exact and each mean and standard error one division (screening.paired).

# The rollout bot's constants are defined in rummylab/gin/rollout_bot.py and evaluation.py
# (``rollout_bot.constants``): the gin chunks hand them to the loop (``set_rollout``) before they play.
cdef int ROLLOUT_SAMPLES = 0
cdef int ROLLOUT_SCREEN = 0
cdef double ROLLOUT_REACH = 0.0
cdef double ROLLOUT_TARGET_SE = 0.0
cdef int ROLLOUT_KEPT_MOST = 1
cdef double ROLLOUT_SURE = 0.0
cdef int ROLLOUT_GIN_PRIOR = 0
cdef int *ROLLOUT_UNITS = NULL  # the game's chance in whole units (equity.game_units), or NULL: the hand's points
cdef int ROLLOUT_UNITS_TARGET = 0
cdef int ROLLOUT_UNITS_WON = 0


def set_rollout(int samples, int screen, double reach, double target_se, int kept_most, double sure,
                int gin_prior, const int[:, :, ::1] game_units, int game_won) -> None:
    """The rollout bot's constants, as rummylab.gin.rollout_bot defines them (``constants(rules)``):
    worlds a decision, the screen, the reach and the target standard error of evaluation, the
    most hidden hands a "kept" world is the best of, the standard errors by which the rollouts
    overrule the expert, the passes its read of the opponent counts before any is seen, and the
    game's chance in whole units by the scores (target x target x 2) with a won game's units
    (an empty table: the rollouts are valued by the hand's points)."""
    global ROLLOUT_SAMPLES, ROLLOUT_SCREEN, ROLLOUT_REACH, ROLLOUT_TARGET_SE, ROLLOUT_KEPT_MOST
    global ROLLOUT_SURE, ROLLOUT_GIN_PRIOR, ROLLOUT_UNITS, ROLLOUT_UNITS_TARGET, ROLLOUT_UNITS_WON
    cdef Py_ssize_t target = game_units.shape[0]
    cdef int *units = NULL
    if not 2 <= samples <= 4096 or screen < 1 or not 1 <= kept_most <= 16 or not sure >= 0:
        raise ValueError(f"samples={samples}, screen={screen}, kept_most={kept_most}, sure={sure}: samples 2 to "
                         "4096, screen 1 or more, kept_most 1 to 16, sure 0 or more")
    if gin_prior < 0:
        raise ValueError(f"gin_prior={gin_prior}: 0 or more")
    if target and (game_units.shape[1] != target or game_units.shape[2] != 2 or target > 1000
                   or not 0 < game_won <= 10_000_000):
        raise ValueError(f"game_units of shape {tuple(game_units.shape)[:3]}, game_won={game_won}: a target x target "
                         "x 2 table (target at most 1000) and a won game's units, 1 to 10,000,000")
    if target:
        units = <int *>malloc(target * target * 2 * sizeof(int))
        if units == NULL:
            raise MemoryError("no memory for the rollout bot's game units")
        memcpy(units, &game_units[0, 0, 0], target * target * 2 * sizeof(int))  # C-contiguous
    # every argument checked before any is kept: a refused call leaves the constants as they were
    ROLLOUT_SAMPLES, ROLLOUT_SCREEN, ROLLOUT_KEPT_MOST = samples, screen, kept_most
    ROLLOUT_REACH, ROLLOUT_TARGET_SE, ROLLOUT_SURE, ROLLOUT_GIN_PRIOR = reach, target_se, sure, gin_prior
    free(ROLLOUT_UNITS)
    ROLLOUT_UNITS, ROLLOUT_UNITS_TARGET, ROLLOUT_UNITS_WON = units, <int>target, game_won if target else 0


cdef int _rollout_units_check(const GinRules *R) noexcept nogil:
    """0, or 1 when the game's units are for another target than the rules'."""
    return ROLLOUT_UNITS != NULL and ROLLOUT_UNITS_TARGET != R.target


cdef int _rollout_worlds(MeldKernel k, GinTable *t, bitgen_t *bg, int n, RolloutWorlds *out) noexcept nogil:
    """worlds.sample(state, n, rng, "kept") for the player to act: 0, or -1 when memory ran out."""
    cdef int them = 1 - t.to_play
    cdef int drew = __builtin_popcountll(t.thrown[them]) - __builtin_popcountll(t.picked[them])  # worlds.kept_draws
    return _drawn_worlds(k, t, bg, n, 1 + (0 if drew < 0 else (drew if drew < ROLLOUT_KEPT_MOST - 1
                                                                  else ROLLOUT_KEPT_MOST - 1)), False, out)


cdef int _drawn_worlds(MeldKernel k, GinTable *t, bitgen_t *bg, int n, int r, bint uniform,
                       RolloutWorlds *out) noexcept nogil:
    """worlds.sample(state, n, rng, model) for the player to act, each world the first of least
    opponent deadwood among ``r`` ("kept"; 1: "view", or "uniform" with every weight 1): 0, or -1
    when memory ran out, -2 for cards that do not add up."""
    cdef ExpertView v
    cdef int them = 1 - t.to_play, m, hidden, big_n, w, i, j, left, best, dw, best_dw, c, pos
    cdef double wmax, p, u
    cdef double wn[52]
    cdef double e[53 * 11]
    cdef uint64_t hand
    cdef uint64_t *drawn = NULL
    cdef double *keys = NULL
    cdef int *idx = NULL
    cdef int *pick = NULL
    cdef double key
    _expert_view(t, &v, ROLLOUT_GIN_PRIOR)  # the unseen cards in bit order, each one's integer weight (expert.weights)
    m = v.n
    hidden = __builtin_popcountll(t.hands[them]) - __builtin_popcountll(v.picked)
    big_n = n * r
    out.n, out.n_stock = n, t.n_stock
    if hidden < 0 or hidden > 10 or m - hidden != t.n_stock:
        return -2  # the cards do not add up (a bug: the loop keeps them whole)
    drawn = <uint64_t *>malloc(big_n * sizeof(uint64_t))
    pick = <int *>malloc(n * sizeof(int))
    keys = <double *>malloc((m if m else 1) * sizeof(double))
    idx = <int *>malloc((m if m else 1) * sizeof(int))
    if drawn == NULL or pick == NULL or keys == NULL or idx == NULL:
        free(drawn)
        free(pick)
        free(keys)
        free(idx)
        return -1
    # unknown(): the weights over their largest; _suffix_polynomials: e[i][j] of weights[i:]
    wmax = 0.0
    for i in range(m):
        if uniform:
            v.w[i] = 1
        if <double>v.w[i] > wmax:
            wmax = <double>v.w[i]
    for i in range(m):
        wn[i] = <double>v.w[i] / wmax
    for i in range(m + 1):
        e[i * 11] = 1.0
        for j in range(1, hidden + 1):
            e[i * 11 + j] = 0.0
    for i in range(m - 1, -1, -1):
        for j in range(1, hidden + 1):
            e[i * 11 + j] = e[(i + 1) * 11 + j] + wn[i] * e[(i + 1) * 11 + j - 1]
    # the hidden cards, card by card with their exact conditional chance (rng.random((n * r, m)))
    for w in range(big_n):
        left = hidden
        hand = v.picked
        for i in range(m):
            u = bg.next_double(bg.state)
            if left > 0:
                p = wn[i] * e[(i + 1) * 11 + left - 1] / e[i * 11 + left]
                if u < p:
                    hand |= v.cards[i]
                    left -= 1
        drawn[w] = hand
    # "kept": each world the first of least deadwood among its r
    for j in range(n):
        best, best_dw = j * r, BIG
        for w in range(j * r, j * r + r):
            dw = _dw(k, drawn[w])
            if dw < best_dw:
                best, best_dw = w, dw
        pick[j] = best
        out.hands[j] = drawn[best]
    # the stock: the cards not drawn, in the order of their keys (rng.random((n * r, m)); stable)
    j = 0
    for w in range(big_n):
        c = 0
        for i in range(m):
            key = bg.next_double(bg.state)
            if j < n and pick[j] == w and not drawn[w] & v.cards[i]:
                pos = c
                while pos > 0 and keys[pos - 1] > key:
                    keys[pos] = keys[pos - 1]
                    idx[pos] = idx[pos - 1]
                    pos -= 1
                keys[pos] = key
                idx[pos] = i
                c += 1
        if j < n and pick[j] == w:
            for i in range(c):
                out.stocks[j * t.n_stock + i] = <unsigned char>__builtin_ctzll(v.cards[idx[i]])
            j += 1
    free(drawn)
    free(pick)
    free(keys)
    free(idx)
    return 0


cdef int _rollout_act(MeldKernel k, GinTable *t, const GinRules *R, bitgen_t *bg, uint64_t *card) noexcept nogil:
    """RolloutBot.act (the hand's actions; a loop deals the next hand itself): the action, or -1
    when memory ran out, -2 for a rollout that did not finish."""
    cdef int actions[MAX_OPTIONS]
    cdef uint64_t cards[MAX_OPTIONS]
    cdef unsigned char kept_flags[MAX_OPTIONS]
    cdef int n_options, i, leader = 0, best, status = 0, most, seat = t.to_play, mine, kept = -1
    cdef uint64_t mine_card
    cdef double mean, diff, se, value, best_value = 0.0
    cdef bint best_zero = False
    cdef int best_worlds = 0
    cdef RolloutWorlds worlds
    cdef RolloutPlayed p
    cdef GinRun play
    cdef Units units
    cdef Effort e
    card[0] = 0
    n_options = _gin_options(k, t, R, actions, cards)
    if n_options == 1:
        card[0] = cards[0]
        return actions[0]
    # the expert's move, kept in play as long as the best (evaluate's keep)
    mine = _expert_act(k, t, R, bg, &mine_card, ROLLOUT_GIN_PRIOR)
    for i in range(n_options):
        kept_flags[i] = actions[i] == mine and cards[i] == mine_card
        if kept_flags[i]:
            kept = i
    if kept < 0:
        return -2  # the expert's move is no option (a bug: both read the same rules)
    worlds.hands = <uint64_t *>malloc(ROLLOUT_SAMPLES * sizeof(uint64_t))
    worlds.stocks = <unsigned char *>malloc(ROLLOUT_SAMPLES * (t.n_stock if t.n_stock else 1))
    p.values = <int *>malloc(n_options * ROLLOUT_SAMPLES * sizeof(int))
    p.played = <int *>malloc(n_options * sizeof(int))
    play.hands.data = play.turns.data = NULL
    if (worlds.hands == NULL or worlds.stocks == NULL or p.values == NULL or p.played == NULL
            or _rows_init(&play.hands, HAND_WIDTH, 4)):
        status = -1
    if status == 0:
        status = _rollout_worlds(k, t, bg, ROLLOUT_SAMPLES, &worlds)
    if status == 0:
        # rollout_bot: its own seat greedy+melds; the opponent's greedy+melds, or greedy+melds@0
        # while it is read to play for gin (expert.plays_for_gin)
        play.bots[0] = play.bots[1] = BOT_GREEDY
        play.rngs[0] = play.rngs[1] = NULL
        play.first_upcard[0] = play.first_upcard[1] = 0
        play.takes[0] = play.takes[1] = 1
        play.knock_at[seat] = BIG
        play.knock_at[1 - seat] = 0 if _plays_for_gin(t, 1 - seat, ROLLOUT_GIN_PRIOR) else BIG
        play.players[0], play.players[1] = 0, 1
        play.trace = False
        p.n_options, p.cap = n_options, ROLLOUT_SAMPLES
        for i in range(n_options):
            p.played[i] = 0
        units.table, units.target, units.won = ROLLOUT_UNITS, ROLLOUT_UNITS_TARGET, ROLLOUT_UNITS_WON
        e.screen, e.reach, e.target_se, e.option_se = ROLLOUT_SCREEN, ROLLOUT_REACH, ROLLOUT_TARGET_SE, 1.0
        e.every_diff, e.deadline = False, -1.0  # evaluate(every_diff=False): only the candidates made sure
        status = _screened(k, t, R, &play, &worlds, &p, actions, cards, kept_flags, &e, &units, &leader)
    if status == 0:
        # screening.best_played: the best of the options played in the most worlds; evaluation._evaluation:
        # the first of (a difference of exactly 0, the most worlds, the highest value)
        most = 0
        for i in range(n_options):
            if p.played[i] > most:
                most = p.played[i]
        best, best_value = -1, 0.0
        for i in range(n_options):
            if p.played[i] == most:
                mean = _rollout_mean(&p, i)
                if best < 0 or mean > best_value:
                    best, best_value = i, mean
        leader = best
        best = -1
        for i in range(n_options):
            if i == leader:
                diff = 0.0
            else:
                _rollout_paired(&p, i, leader, &diff, &se)
            value = _rollout_mean(&p, i)
            if best < 0 or (diff == 0.0 and not best_zero) or ((diff == 0.0) == best_zero and (
                    p.played[i] > best_worlds or (p.played[i] == best_worlds and value > best_value))):
                best, best_zero, best_worlds, best_value = i, diff == 0.0, p.played[i], value
        # rollout_bot.overruled: the best if it beats the expert's move by more than SURE errors
        if best != kept:
            diff, se = 0.0, 0.0
            if kept != leader:
                _rollout_paired(&p, kept, leader, &diff, &se)
            if not -diff > ROLLOUT_SURE * se:
                best = kept
    free(worlds.hands)
    free(worlds.stocks)
    free(p.values)
    free(p.played)
    free(play.hands.data)
    if status:
        return status if status < 0 else -1
    card[0] = cards[best]
    return actions[best]


def gin_worlds(MeldKernel kernel, const int64_t[::1] state, int n, rng, int best_of=1, bint uniform=False):
    """rummylab.gin.worlds.sample for the player to act in one state row: ``n`` worlds drawn from
    ``rng`` (a numpy Generator, the same uniforms in the same order), each the first of least
    opponent deadwood among ``best_of`` drawn ("kept"; 1: "view"), every weight 1 with ``uniform``:
    (the opponent's hand in each world, int64; each world's stock by bit position, bottom first,
    int64 n x stock). The expert's constants must be set (its base weight). Runs without the GIL."""
    cdef GinTable t
    cdef RolloutWorlds worlds
    cdef bitgen_t *bg
    cdef int status = 0, i, j
    if state.shape[0] != STATE_WIDTH:
        raise ValueError(f"need a state row of {STATE_WIDTH} columns")
    if n < 1 or not 1 <= best_of <= 16:
        raise ValueError(f"n={n}, best_of={best_of}: one world or more, each the best of 1 to 16")
    if EXPERT_SAMPLES < 1:
        raise ValueError("the expert's constants are not set: set_expert(*rummylab.gin.expert.constants(rules)) first")
    if _gin_load(&t, &state[0]):
        raise ValueError("the state row is no hand in play (cards missing or twice, a hand of the wrong size, or a bad phase)")
    hands = np.empty(n, dtype=np.int64)
    stocks = np.empty((n, t.n_stock), dtype=np.int64)
    cdef int64_t[::1] h = hands
    cdef int64_t[:, ::1] st = stocks
    worlds.hands = <uint64_t *>malloc(n * sizeof(uint64_t))
    worlds.stocks = <unsigned char *>malloc(n * (t.n_stock if t.n_stock else 1))
    bg = <bitgen_t *>PyCapsule_GetPointer(rng.bit_generator.capsule, "BitGenerator")
    try:
        if worlds.hands == NULL or worlds.stocks == NULL:
            raise MemoryError("no memory for the worlds")
        with nogil:
            status = _drawn_worlds(kernel, &t, bg, n, best_of, uniform, &worlds)
            if status == 0:
                for i in range(n):
                    h[i] = <int64_t>worlds.hands[i]
                    for j in range(t.n_stock):
                        st[i, j] = worlds.stocks[i * t.n_stock + j]
        if status == -1:
            raise MemoryError("no memory for the worlds")
        if status:
            raise ValueError("the state's cards do not add up to a deck")
        return hands, stocks
    finally:
        free(worlds.hands)
        free(worlds.stocks)


def rollout_decision(MeldKernel kernel, const int64_t[::1] state, rng, *, dict rules):
    """The rollout bot's action in one state row (a decision of the player to act: first upcard,
    draw or discard), its worlds drawn from ``rng`` (a numpy Generator): (action code, card bit
    position or -1), as the loop plays it. Runs without the GIL."""
    cdef GinRules R
    cdef GinTable t
    cdef uint64_t card = 0
    cdef int action
    cdef bitgen_t *bg
    if state.shape[0] != STATE_WIDTH:
        raise ValueError(f"need a state row of {STATE_WIDTH} columns")
    if ROLLOUT_SAMPLES < 2 or EXPERT_SAMPLES < 1:
        raise ValueError("set_expert and set_rollout first (rummylab.gin.expert.constants, rollout_bot.constants(rules))")
    _read_GinRules(&R, rules)
    if _rollout_units_check(&R):
        raise ValueError(f"the rollout bot's game units are for a game to {ROLLOUT_UNITS_TARGET}, the rules' to "
                         f"{R.target}: set_rollout(*rummylab.gin.rollout_bot.constants(rules)) first")
    bg = <bitgen_t *>PyCapsule_GetPointer(rng.bit_generator.capsule, "BitGenerator")
    with nogil:
        action = -3 if _gin_load(&t, &state[0]) else _rollout_act(kernel, &t, &R, bg, &card)
    if action == -3:
        raise ValueError("the state row is no hand in play (cards missing or twice, a hand of the wrong size, or a bad phase)")
    if action == -1:
        raise MemoryError("no memory for the rollout bot's worlds")
    if action < 0:
        raise RuntimeError(f"a rollout did not finish: {MAX_ACTIONS} actions")
    return action, (__builtin_ctzll(card) if card else -1)
