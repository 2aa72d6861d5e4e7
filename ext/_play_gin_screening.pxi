# Gin options screened in the loops (included by _play.pyx after _play_gin_rollout.pxi): the
# twin of rummylab.screening.screened for gin's integer results, played in common worlds by
# rollouts as rummylab.gin.rollout.rollout plays them. The rollout bot (_play_gin_rollout_bot.pxi)
# and rummylab.gin.evaluation.evaluate (``evaluate_gin``) both screen here: the points (or the
# game's whole units) are integers, so each sum is exact and each mean and standard error one
# division, the figures the Python's (tests/test_evaluation.py).

from posix.time cimport CLOCK_MONOTONIC, clock_gettime, timespec
from libc.math cimport ceil, isfinite


cdef struct RolloutWorlds:
    int n                   # worlds
    int n_stock
    uint64_t *hands         # the opponent's hand in each world
    unsigned char *stocks   # each world's stock by bit position, bottom first (n x n_stock)


cdef struct Units:
    const int *table        # the game's chance in whole units by the scores (target x target x 2), or NULL: points
    int target
    int won                 # a won game's units


cdef int _rollout_value(MeldKernel k, GinTable *t, const GinRules *R, GinRun *play, RolloutWorlds *worlds,
                        int world, int action, uint64_t card, const Units *units, int *net) noexcept nogil:
    """The player to act's net points in one world after ``action``, both seats then played by
    ``play``'s bots (rollout.rollout), or the game's chance in whole units (``units``: evaluation._values
    with horizon="game"): 0, or the loop's error."""
    cdef GinTable s
    cdef int i, status, seat = t.to_play, mine, theirs, deals
    cdef int64_t *row
    memcpy(&s, t, sizeof(GinTable))
    s.hands[1 - seat] = worlds.hands[world]
    for i in range(worlds.n_stock):
        s.stock[i] = (<uint64_t>1) << worlds.stocks[world * worlds.n_stock + i]
    s.last_end = -1
    play.hands.n = 0
    status = _gin_apply(k, &s, R, play, 0, 0, action, card)
    if status == 0:
        status = _gin_hand(k, &s, R, play, 0, 0)
    if status:
        return status
    row = play.hands.data
    net[0] = (<int>row[HAND_POINTS] if row[HAND_WINNER] == seat else
              -<int>row[HAND_POINTS] if row[HAND_WINNER] == 1 - seat else 0)
    if units.table != NULL:  # the game's chance from the scores left
        mine = t.scores[seat] + (net[0] if net[0] > 0 else 0)
        theirs = t.scores[1 - seat] + (-net[0] if net[0] < 0 else 0)
        deals = (t.dealer == seat) if row[HAND_KIND] == END_DEAD else (t.dealer != seat)
        if mine >= units.target or theirs >= units.target:
            net[0] = units.won if mine > theirs else 0
        else:
            net[0] = units.table[(mine * units.target + theirs) * 2 + deals]
    return 0


cdef struct RolloutPlayed:
    int n_options
    int cap                 # worlds
    int *values             # option x world: net points
    int *played             # worlds played, per option


cdef int _rollout_grow(MeldKernel k, GinTable *t, const GinRules *R, GinRun *play, RolloutWorlds *worlds,
                       RolloutPlayed *p, const int *actions, const uint64_t *cards, const Units *units, int option,
                       int size) noexcept nogil:
    """screening.screened's grow: play ``option`` in worlds up to ``size``."""
    cdef int w, status
    for w in range(p.played[option], size):
        status = _rollout_value(k, t, R, play, worlds, w, actions[option], cards[option], units,
                                &p.values[option * p.cap + w])
        if status:
            return status
    if size > p.played[option]:
        p.played[option] = size
    return 0


cdef double _rollout_mean(RolloutPlayed *p, int option) noexcept nogil:
    """screening.mean for integers: the exact sum, divided once."""
    cdef int64_t total = 0
    cdef int w
    for w in range(p.played[option]):
        total += p.values[option * p.cap + w]
    return <double>total / <double>p.played[option]


cdef void _rollout_paired(RolloutPlayed *p, int option, int best, double *diff, double *se) noexcept nogil:
    """screening.paired for integer points: the sums exact, each figure one division."""
    cdef int n = p.played[option] if p.played[option] < p.played[best] else p.played[best], w
    cdef int64_t d, s1 = 0, s2 = 0
    if n < 2:
        diff[0] = <double>(p.values[option * p.cap] - p.values[best * p.cap]) if n else 0.0
        se[0] = INFINITY
        return
    for w in range(n):
        d = p.values[option * p.cap + w] - p.values[best * p.cap + w]
        s1 += d
        s2 += d * d
    diff[0] = <double>s1 / <double>n
    se[0] = sqrt(<double>(n * s2 - s1 * s1) / <double>(<int64_t>n * n * (n - 1)))


cdef struct Effort:
    int screen
    double reach
    double target_se
    double option_se
    bint every_diff
    double deadline         # _now() after which no world is added; negative: none


cdef double _now() noexcept nogil:
    """The monotonic clock in seconds (time.perf_counter's on Linux)."""
    cdef timespec ts
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return <double>ts.tv_sec + <double>ts.tv_nsec * 1e-9


cdef bint _out_of_time(const Effort *e) noexcept nogil:
    return e.deadline >= 0 and _now() > e.deadline


cdef int _worlds_for(int n, double se, const Effort *e, int cap) noexcept nogil:
    """screening.worlds_for."""
    cdef double want = <double>n * ((se / e.option_se) * (se / e.option_se)) * 1.1 if isfinite(se) else 2.0 * n
    cdef double blocks = ceil(want / e.screen)
    cdef int64_t size = e.screen * <int64_t>blocks if blocks < 1e15 else cap
    if size < n + e.screen:
        size = n + e.screen
    return cap if size > cap else <int>size


cdef int _screened(MeldKernel k, GinTable *t, const GinRules *R, GinRun *play, RolloutWorlds *worlds,
                   RolloutPlayed *p, const int *actions, const uint64_t *cards, const unsigned char *kept,
                   const Effort *e, const Units *units, int *leader_out) noexcept nogil:
    """screening.screened: each option's results in ``p`` (kept[i]: option i played as long as the
    best), the screen's leader in ``leader_out``; 0, or the loop's error."""
    cdef int live[MAX_OPTIONS]
    cdef int order[MAX_OPTIONS]
    cdef double key[MAX_OPTIONS]
    cdef int n = p.n_options, n_live = n, i, j, leader = 0, size, status
    cdef double mean, top, diff, se
    cdef bint sure
    for i in range(n):
        live[i] = i
    size = e.screen if n > 1 else p.cap
    if size > p.cap:
        size = p.cap
    while True:
        for i in range(n_live):
            status = _rollout_grow(k, t, R, play, worlds, p, actions, cards, units, live[i], size)
            if status:
                return status
        leader, top = live[0], _rollout_mean(p, live[0])
        for i in range(1, n_live):
            mean = _rollout_mean(p, live[i])
            if mean > top:
                leader, top = live[i], mean
        j = 0
        sure = True
        for i in range(n_live):
            if live[i] != leader:
                _rollout_paired(p, live[i], leader, &diff, &se)
                if not kept[live[i]] and not diff + e.reach * (se if se > 1e-9 else 1e-9) >= 0:
                    continue  # out of reach
                sure = sure and se <= e.target_se
            live[j] = live[i]
            j += 1
        n_live = j
        if n_live == 1 or size >= p.cap or _out_of_time(e) or sure:
            break
        size = 2 * size if 2 * size < p.cap else p.cap
    leader_out[0] = leader
    if not e.every_diff:
        return 0
    # the nearest to the leader first (a stable sort, as Python's sorted)
    for i in range(n):
        _rollout_paired(p, i, leader, &diff, &se)
        key[i] = -diff
        j = i
        while j > 0 and key[order[j - 1]] > key[i]:
            order[j] = order[j - 1]
            j -= 1
        order[j] = i
    for j in range(n):
        i = order[j]
        while i != leader and not _out_of_time(e):
            _rollout_paired(p, i, leader, &diff, &se)
            if se <= e.option_se or p.played[i] >= p.cap:
                break
            size = _worlds_for(p.played[i], se, e, p.cap)
            status = _rollout_grow(k, t, R, play, worlds, p, actions, cards, units, leader, size)
            if status == 0:
                status = _rollout_grow(k, t, R, play, worlds, p, actions, cards, units, i, size)
            if status:
                return status
    return 0


def evaluate_gin(MeldKernel kernel, const int64_t[::1] state, const int64_t[::1] hands, const int64_t[:, ::1] stocks,
                 const int64_t[::1] actions, const int64_t[::1] cards, bots, rngs, *, dict rules,
                 knock_at=(None, None), first_upcard=(0, 0), takes=(0, 0), const int[:, :, ::1] game_units=None,
                 int game_won=0, int screen, double reach, double target_se, double option_se,
                 const unsigned char[::1] kept, bint every_diff, double budget_s=-1.0):
    """rummylab.gin.evaluation's sampled evaluation of the decision in one state row: each option
    (action code, card bit position or -1; legal: the caller checks) played in the worlds (the
    opponent's hand, the stock by bit position bottom first) as ``screening.screened`` plays it,
    both seats by ``bots`` (codes, options and rngs as ``rollout_gin`` takes them), valued by the
    hand's points or (``game_units``, ``game_won``: ``equity.game_units``) the game's whole units;
    no world added after ``budget_s`` seconds (negative: no budget). (values: options x worlds,
    int32, the first ``played[i]`` of row i filled; played). Runs without the GIL."""
    cdef GinRules R
    cdef GinRun play
    cdef GinTable t
    cdef RolloutWorlds worlds
    cdef RolloutPlayed p
    cdef Units units
    cdef Effort e
    cdef int n_options = actions.shape[0], cap = hands.shape[0], i, seat, status = 0, leader = 0
    cdef int codes[MAX_OPTIONS]
    cdef uint64_t bits[MAX_OPTIONS]
    cdef Py_ssize_t target = 0 if game_units is None else game_units.shape[0]
    cdef uint64_t seen
    cdef bint ok
    if state.shape[0] != STATE_WIDTH:
        raise ValueError(f"need a state row of {STATE_WIDTH} columns")
    if not 1 <= n_options <= MAX_OPTIONS or cards.shape[0] != n_options or kept.shape[0] != n_options:
        raise ValueError(f"{n_options} options: 1 to {MAX_OPTIONS}, each with a card and a kept flag")
    if cap < 1 or (stocks.shape[0] != cap) or len(bots) != 2 or len(rngs) != 2:
        raise ValueError("need one world or more, a stock per world, two bots and two rngs")
    if screen < 1 or not option_se > 0 or not target_se > 0 or not reach >= 0:
        raise ValueError(f"screen={screen}, reach={reach}, target_se={target_se}, option_se={option_se}: a screen of "
                         "1 or more, a reach of 0 or more, errors above 0")
    if target and (game_units.shape[1] != target or game_units.shape[2] != 2 or not 0 < game_won):
        raise ValueError(f"game_units of shape {tuple(game_units.shape)[:3]}, game_won={game_won}: a target x target "
                         "x 2 table and a won game's units above 0")
    _read_GinRules(&R, rules)
    if target and target != R.target:
        raise ValueError(f"game units for a game to {target}, the rules' to {R.target}")
    for seat in range(2):
        play.bots[seat] = bots[seat]
        if play.bots[seat] not in (BOT_RANDOM, BOT_GREEDY, BOT_STRONG, BOT_EXPERT):
            raise ValueError(f"bot code {bots[seat]!r}: 0, 1, 2 or 3 (random, greedy, strong, expert)")
        if play.bots[seat] == BOT_EXPERT and EXPERT_SAMPLES < 1:
            raise ValueError("the expert's constants are not set: set_expert(*rummylab.gin.expert.constants(rules)) first")
        _bot_options(&play, seat, knock_at[seat], first_upcard[seat], takes[seat])
        play.rngs[seat] = NULL
        if play.bots[seat] == BOT_RANDOM or play.bots[seat] == BOT_EXPERT:
            play.rngs[seat] = <bitgen_t *>PyCapsule_GetPointer(rngs[seat].bit_generator.capsule, "BitGenerator")
    if _gin_load(&t, &state[0]):
        raise ValueError("the state row is no hand in play (cards missing or twice, a hand of the wrong size, or a bad phase)")
    if stocks.shape[1] != t.n_stock:
        raise ValueError(f"stocks of {stocks.shape[1]} cards: the state's stock holds {t.n_stock}")
    for i in range(n_options):
        codes[i] = <int>actions[i]
        bits[i] = (<uint64_t>1) << cards[i] if cards[i] >= 0 else 0
    units.table = &game_units[0, 0, 0] if target else NULL
    units.target, units.won = <int>target, game_won if target else 0
    e.screen, e.reach, e.target_se, e.option_se, e.every_diff = screen, reach, target_se, option_se, every_diff
    e.deadline = _now() + budget_s if budget_s >= 0 else -1.0
    play.players[0], play.players[1] = 0, 1
    play.trace = False
    play.hands.data = play.turns.data = NULL
    values = np.zeros((n_options, cap), dtype=np.int32)
    played = np.zeros(n_options, dtype=np.int32)
    cdef int[:, ::1] v = values
    cdef int[::1] n_played = played
    worlds.n, worlds.n_stock = cap, t.n_stock
    worlds.hands = <uint64_t *>malloc(cap * sizeof(uint64_t))
    worlds.stocks = <unsigned char *>malloc(cap * (t.n_stock if t.n_stock else 1))
    try:
        if worlds.hands == NULL or worlds.stocks == NULL or _rows_init(&play.hands, HAND_WIDTH, 4):
            raise MemoryError("no memory for the evaluation's worlds")
        for i in range(cap):  # each world the unseen cards, each once: the opponent's hand and the stock
            worlds.hands[i] = <uint64_t>hands[i]
            seen = t.hands[t.to_play] | t.pile_cards
            ok = (__builtin_popcountll(worlds.hands[i]) == __builtin_popcountll(t.hands[1 - t.to_play])
                  and not worlds.hands[i] & seen)
            seen |= worlds.hands[i]
            for seat in range(t.n_stock):
                ok = ok and 0 <= stocks[i, seat] < 64 and not seen & ((<uint64_t>1) << stocks[i, seat])
                if ok:
                    seen |= (<uint64_t>1) << stocks[i, seat]
                    worlds.stocks[i * t.n_stock + seat] = <unsigned char>stocks[i, seat]
            if not ok or seen != _FULL_DECK:
                raise ValueError(f"world {i} does not hold the unseen cards once each (the opponent's hand and the stock)")
        p.n_options, p.cap, p.values, p.played = n_options, cap, &v[0, 0], &n_played[0]
        with nogil:
            status = _screened(kernel, &t, &R, &play, &worlds, &p, codes, bits, &kept[0], &e, &units, &leader)
        if status == -1:
            raise MemoryError("no memory for the rollouts' records")
        if status:
            raise RuntimeError(f"a rollout did not finish: {MAX_ACTIONS} actions")
        return values, played
    finally:
        free(worlds.hands)
        free(worlds.stocks)
        free(play.hands.data)
