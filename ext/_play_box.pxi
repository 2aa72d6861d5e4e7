# Three-handed gin "in the box" (included by _play.pyx): rummylab.gin.three_handed's game,
# each hand a gin hand of _play_gin.pxi.

cdef int _box_game(MeldKernel k, uint64_t seed, int64_t game, const GinRules *R, GinRun *run,
                   const uint64_t *deck, const int *bots, const int *knock_at, const int *first_upcard,
                   const int *takes, bitgen_t **rngs, const int64_t *first_roles, int target) noexcept nogil:
    """One three-handed game (rummylab.gin.three_handed.play_game): each hand is a gin hand with
    the box in seat 0 (the box deals) and the captain in seat 1; the hand's row is replaced by
    (game, hand, box, captain, sitting_out, kind, winning seat, points, turns)."""
    cdef GinTable t
    cdef int hand_no = 0, status, box = first_roles[0], captain = first_roles[1], sitter = first_roles[2]
    cdef int winner, scorer, points
    cdef int64_t kind, turns
    cdef int scores[3]
    cdef int64_t *row
    scores[0] = scores[1] = scores[2] = 0
    while True:
        if _gin_deal(&t, run, seed, game, hand_no, hand_no, 0, deck):
            return -1
        t.scores[0] = t.scores[1] = 0
        t.knocked[0] = t.knocked[1] = t.passed_up[0] = t.passed_up[1] = 0  # each hand a game of its own
        run.bots[0], run.bots[1] = bots[box], bots[captain]
        run.rngs[0], run.rngs[1] = rngs[box], rngs[captain]
        run.players[0], run.players[1] = box, captain
        run.knock_at[0], run.knock_at[1] = knock_at[box], knock_at[captain]
        run.first_upcard[0], run.first_upcard[1] = first_upcard[box], first_upcard[captain]
        run.takes[0], run.takes[1] = takes[box], takes[captain]
        status = _gin_hand(k, &t, R, run, game, hand_no)
        if status:
            return status
        row = run.hands.data + (run.hands.n - 1) * run.hands.width
        winner, points, kind, turns = <int>row[HAND_WINNER], <int>row[HAND_POINTS], row[HAND_KIND], row[HAND_TURNS]
        row[BOX_GAME], row[BOX_HAND] = game, hand_no
        row[BOX_BOX], row[BOX_CAPTAIN], row[BOX_SITTING_OUT] = box, captain, sitter
        row[BOX_KIND], row[BOX_WINNING_SEAT], row[BOX_POINTS], row[BOX_TURNS] = kind, winner, points, turns
        if winner >= 0:
            scorer = box if winner == 0 else captain
            scores[scorer] += points
        if scores[0] >= target or scores[1] >= target or scores[2] >= target:
            return 0
        if winner == 0:      # the box stays; the others swap
            captain, sitter = sitter, captain
        elif winner == 1:    # the captain takes the box, the box sits out
            box, captain, sitter = captain, sitter, box
        hand_no += 1


def play_box(MeldKernel kernel, const uint64_t[::1] seeds, bots, rngs, const int64_t[:, ::1] roles,
             const uint64_t[::1] deck, *, dict rules,
             knock_at=(None, None, None), first_upcard=(0, 0, 0), takes=(0, 0, 0), bint trace=False, int64_t first_game=0):
    """Three-handed gin, one game per seed: (hands, turns) as int64 rows of BOX_COLUMNS and
    TURN_COLUMNS (the turn's player is the player, 0-2). bots: three codes; rngs: per game, the
    three players' Generators (None for a bot that draws nothing: not random, expert or rollout); roles:
    per game, the first (box, captain, sitting out), a chance outcome drawn by
    rummylab.gin.three_handed. Runs without the GIL but to set each deal's stream. An expert or a
    rollout bot plays each hand as a two-handed hand, the other seat of the hand its opponent (the
    rollout bot valuing it by the hand's points)."""
    cdef GinRules R
    cdef GinRun run
    cdef Py_ssize_t i, n = seeds.shape[0]
    cdef int status = 0, p
    cdef int codes[3]
    cdef int knocks[3]
    cdef int uppers[3]
    cdef int takers[3]
    cdef int target
    cdef bitgen_t **gens = NULL
    if deck.shape[0] != 52 or len(bots) != 3 or len(rngs) != n or roles.shape[0] != n or roles.shape[1] != 3:
        raise ValueError("need a 52-card deck, three bots, and three rngs and first roles per game")
    for p in range(3):
        codes[p] = bots[p]
        if codes[p] not in (BOT_RANDOM, BOT_GREEDY, BOT_STRONG, BOT_EXPERT, BOT_ROLLOUT):
            raise ValueError(f"bot code {bots[p]!r}: 0, 1, 2, 3 or 4")
        if (codes[p] == BOT_EXPERT or codes[p] == BOT_ROLLOUT) and EXPERT_SAMPLES < 1:
            raise ValueError("the expert's constants are not set: set_expert(*rummylab.gin.expert.constants(rules)) first")
        if codes[p] == BOT_ROLLOUT and (ROLLOUT_SAMPLES < 2 or ROLLOUT_UNITS != NULL):
            raise ValueError("the rollout bot values each hand of three-handed gin by its points: "
                             "set_rollout(*rummylab.gin.rollout_bot.constants(box_game.hand_rules(rules))) first")
        _bot_options(&run, 0, knock_at[p], first_upcard[p], takes[p])
        knocks[p], uppers[p], takers[p] = run.knock_at[0], run.first_upcard[0], run.takes[0]
    for i in range(n):
        if sorted([roles[i, 0], roles[i, 1], roles[i, 2]]) != [0, 1, 2]:
            raise ValueError(f"roles of game {first_game + i}: box, captain and sitter are players 0, 1 and 2")
    # one hand at a time: the hand never ends the game (the scores are kept per player here)
    _read_GinRules(&R, rules)
    target, R.target = R.target, BIG
    run.trace = trace
    run.hands.data = run.turns.data = NULL
    try:
        gens = <bitgen_t **>malloc(max(n, 1) * 3 * sizeof(bitgen_t *))
        if (gens == NULL or _rows_init(&run.hands, HAND_WIDTH, n * 12)
                or (trace and _rows_init(&run.turns, TURN_WIDTH, n * 300))):
            raise MemoryError("no memory for the game records")
        for i in range(n):
            for p in range(3):
                gens[3 * i + p] = NULL
                if codes[p] == BOT_RANDOM or codes[p] == BOT_EXPERT or codes[p] == BOT_ROLLOUT:
                    gens[3 * i + p] = <bitgen_t *>PyCapsule_GetPointer(rngs[i][p].bit_generator.capsule,
                                                                       "BitGenerator")
        bits = _chance_bits(&run.chance)
        with nogil:
            for i in range(n):
                status = _box_game(kernel, seeds[i], first_game + i, &R, &run, &deck[0], codes, knocks, uppers, takers,
                                   gens + 3 * i, &roles[i, 0], target)
                if status:
                    break
        if status == -1:
            raise MemoryError("no memory for the game records")
        if status == -2:
            raise RuntimeError(f"three-handed game {first_game + i} with seed {seeds[i]} did not finish: "
                               f"a hand went on for {MAX_ACTIONS} actions")
        return _rows_array(&run.hands)[:, :BOX_WIDTH].copy(), (_rows_array(&run.turns) if trace else None)
    finally:
        free(gens)
        free(run.hands.data)
        free(run.turns.data)
