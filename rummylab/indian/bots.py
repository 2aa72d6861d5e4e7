"""Indian rummy players: a random one (drops, leaves, wrong shows: for tests) and a greedy one."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from ..bots import stalled_throw
from ..cards import RANKS, Card, SeedLike, rng_from, without
from ..play import Outcomes, begin, play_out
from ..sim import card_code, chance_rows, codes, driver, following, play_loops, turns_frame
from ..sim.driver import Family, Table, no_rows
from .analysis import best_declaration, loser_count_after_discard, masks
from .game import (
    CHIPS_PER_DEAL,
    DEFAULT_POOL,
    DRAW_DISCARD,
    DRAW_STOCK,
    DROP,
    FINISH,
    GAME,
    LEAVE,
    MAX_PLAYERS,
    MISS_TURN,
    NEXT_DEAL,
    RECONNECT,
    Action,
    Kind,
    Phase,
    State,
    legal_actions,
    new_game,
    points_of,
)
from .pools import REJOIN_MAX, REJOIN_MIN_REMAINING
from .rules import DEFAULT, SUIT_ORDER, Rules


class RandomBot:
    """Random legal moves; sometimes drops, leaves (and later reconnects), misses a turn or
    shows a wrong declaration."""

    name = "random"

    def __init__(self, seed: SeedLike = None, drop: float = 0.03, wrong_show: float = 0.03, leave: float = 0.005,
                 miss: float = 0.02, reconnect: float = 0.1) -> None:
        self.rng = rng_from(seed)
        self.p = {"drop": drop, "wrong_show": wrong_show, "leave": leave, "miss": miss, "reconnect": reconnect}

    def act(self, state: State) -> Action:
        if state.phase is not Phase.DRAW and state.phase is not Phase.DISCARD:
            acts = legal_actions(state)
            return acts[int(self.rng.integers(len(acts)))]
        if state.phase is Phase.DRAW:
            if state.left[state.to_play]:
                return RECONNECT if self.rng.random() < self.p["reconnect"] else MISS_TURN
            u = self.rng.random()
            for act, key in ((DROP, "drop"), (LEAVE, "leave"), (MISS_TURN, "miss")):
                if u < self.p[key]:
                    return act
                u -= self.p[key]
            draws = [a for a in (DRAW_STOCK, DRAW_DISCARD) if GAME.verify(state, a) is None]
            return draws[int(self.rng.integers(len(draws)))]
        hand = state.hands[state.to_play]
        card = hand[int(self.rng.integers(len(hand)))]
        if self.rng.random() < self.p["wrong_show"]:
            rest = without(hand, card)
            self.rng.shuffle(rest)  # type: ignore[arg-type]
            groups = tuple(tuple(rest[i:i + 3]) for i in range(0, 12, 3))
            return Action(Kind.DECLARE, card, groups[:-1] + (groups[-1] + (rest[12],),))
        return Action(Kind.DISCARD, card)


class GreedyBot:
    """Shows whenever a valid declaration exists, takes the discard when it lowers its loser
    points, throws the card that leaves the fewest points; with ``drops``, drops first when
    its dealt hand has no pure sequence and no joker (the common advice). In a stalled deal
    (``rummylab.bots.STALLED``) it sometimes throws a random natural card instead."""

    name = "greedy"

    def __init__(self, seed: SeedLike = None, drops: bool = True) -> None:
        self.rng = rng_from(seed)
        self.drops = drops

    def ranked_discards(self, state: State, hand: Sequence[Card],
                        after: dict[Card, int] | None = None) -> list[tuple[int, Card]]:
        """(points after, card) for each distinct discard, best first (dearest card on ties);
        ``after``: each card's points after it, when already known."""
        w = state.wild_rank
        points = state.rules.kernel().points
        naturals = any(not (x.is_joker or x.rank == w) for x in hand)
        # never throw a joker while a natural card can go
        throwable = {c for c in hand if not (naturals and (c.is_joker or c.rank == w))}
        if after is None:
            after = self._points_without(state, hand, throwable)
        options = []
        for c in throwable:
            value = 0 if c.is_joker or c.rank == w else points[c.rank]
            options.append((after[c], -value, c))
        options.sort()
        return [(p, c) for p, _, c in options]

    def _points_without(self, state: State, hand: Sequence[Card], cards: set[Card]) -> dict[Card, int]:
        """For each of ``cards``, the loser points of ``hand`` without one copy of it (one batch)."""
        rules = state.rules
        once, twice, jokers = masks(hand)
        order = sorted(cards)
        rows = [(once, twice, jokers - 1) if c.is_joker else (once, twice ^ c.bit, jokers) if twice & c.bit
                else (once ^ c.bit, twice, jokers) for c in order]
        a, b, j = (np.array(col, dtype=dt) for col, dt in zip(zip(*rows, strict=True),
                                                              (np.uint64, np.uint64, np.uint8), strict=True))
        out = np.empty(len(order), dtype=np.int32)
        rules.kernel().loser_points_batch(a, b, j, state.wild_rank, out, rules.no_second_life_rule == "exclude_pure",
                                          rules.cap, rules.valid_show_points, False)
        return dict(zip(order, out.tolist(), strict=True))

    def _hopeless(self, state: State, hand: Sequence[Card]) -> bool:
        once, twice, _ = masks(hand)
        jokers = sum(c.is_joker or c.rank == state.wild_rank for c in hand)
        return jokers == 0 and state.rules.kernel().best_pure_run(once, twice, state.wild_rank) < 0

    def act(self, state: State) -> Action:
        if state.phase is Phase.DEAL_OVER:
            acts = legal_actions(state)
            rejoin = [a for a in acts if a.kind == "rejoin"]
            return rejoin[0] if rejoin else (NEXT_DEAL if NEXT_DEAL in acts else FINISH)
        me = state.to_play
        hand = state.hands[me]
        if state.phase is Phase.DRAW:
            if state.left[me]:
                return MISS_TURN
            now = points_of(state, hand)
            if self.drops and not state.drawn[me] and self._hopeless(state, hand):
                return DROP
            if state.discards and GAME.verify(state, DRAW_DISCARD) is None:  # never a forbidden joker
                top = state.discards[-1]
                # taken when the hand with it, after its best discard, counts less than now
                # (throwing the top back counts now: the best discard is then a card of the hand)
                if top.is_joker or top.rank == state.wild_rank or loser_count_after_discard(
                        state.rules.kernel(), *masks([*hand, top]), state.wild_rank, state.rules) < now:
                    return DRAW_DISCARD
            return DRAW_STOCK if state.stock or len(state.discards) > 1 else DRAW_DISCARD
        # a valid declaration first (in Card order): only a hand whose every card fits can be one
        after = self._points_without(state, hand, set(hand))
        rules, w = state.rules, state.wild_rank
        fits = min(rules.valid_show_points, rules.cap)
        for c in sorted(after):
            if after[c] == fits:
                rest = without(hand, c)
                once, twice, jokers = masks(rest)
                if rules.declaration_kernel().penalty(once, twice, w, jokers, 1, 1) == 0:
                    groups = best_declaration(rest, RANKS[w], rules)
                    if groups is not None:
                        return Action(Kind.DECLARE, c, groups)
        thrown = stalled_throw(state, hand, self.rng)
        if thrown is not None:
            return Action(Kind.DISCARD, thrown)
        return Action(Kind.DISCARD, self.ranked_discards(state, hand, after)[0][1])


def play(state: State, bots: Sequence[Any], max_actions: int = codes.INDIAN.limits["MAX_ACTIONS"]) -> State:
    """Play until the game is over (each player by its bot; the first bot between deals)."""
    return play_out(GAME, state, lambda s: (bots[0] if s.phase is Phase.DEAL_OVER else bots[s.to_play]).act(s),
                    lambda s: s.phase is Phase.GAME_OVER, max_actions)


BOTS = {"greedy": GreedyBot, "random": RandomBot}
BOT_CODES = {name: i for i, name in enumerate(codes.INDIAN.bots)}
"""The bots as the compiled loop numbers them."""
ACTIONS = tuple(Kind[name] for name in codes.INDIAN.actions)
"""The actions, as the compiled loop numbers them."""
ENDINGS = codes.INDIAN.ends
"""How a deal ends: its last action is a valid or a wrong declaration, a drop, or a turn missed
by a player who left."""
GAME_COLUMNS = codes.INDIAN.columns["game"]
DEAL_COLUMNS = codes.INDIAN.columns["deal"]
TURN_COLUMNS = codes.INDIAN.columns["turn"]
_TURN_ENDS = (Kind.DISCARD, Kind.DECLARE, Kind.DROP, Kind.MISS_TURN)


def hand_points(state: State, player: int) -> int:
    """A hand's loser points; with a drawn card (14 cards) after its best discard; none: 0."""
    hand = state.hands[player]
    if not hand:
        return 0
    if len(hand) != 14:
        return points_of(state, hand)
    return loser_count_after_discard(state.rules.kernel(), *masks(hand), state.wild_rank, state.rules)


def first_state(table: Table, game: int) -> State:
    """Game number ``game`` of a table: its first state, seeded by the game's seed."""
    pool, deals = table.options["pool"], table.options["deals"]
    seed = int(table.seeds[game])
    return (new_game(table.players, table.rules, seed, pool=None, deals=deals) if deals
            else new_game(table.players, table.rules, seed, pool=pool))


def engine_bots(table: Table, game: int) -> list[Any]:
    """One game's engine bots: a named bot on its seat's generator for the game; a bot object as it is."""
    rngs = table.rngs(game)
    return [BOTS[b](seed=rngs[i]) if isinstance(b, str) else b for i, b in enumerate(table.bots)]


def play_engine(table: Table, start: int, stop: int,
                chances: Mapping[int, Outcomes] | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Games start..stop of a table played by the Python engine: int64 rows of GAME_COLUMNS (one
    per game), DEAL_COLUMNS (one per deal) and, with ``table.trace``, TURN_COLUMNS (one per
    action, the table's between deals too, and per card of a chance outcome). ``chances``: per
    game, the chance outcomes to make again (``sim.trace_outcomes``)."""
    games: list[tuple[int, ...]] = []
    deal_rows: list[tuple[int, ...]] = []
    turns: list[tuple[int, ...]] = []
    players, deals = table.players, table.options["deals"]
    pad = (0,) * (MAX_PLAYERS - players)
    for g in range(start, stop):
        bots, follow = engine_bots(table, g), following(chances, g)
        state = begin(lambda: first_state(table, g), follow)  # noqa: B023
        if table.trace:
            turns += chance_rows(g, 0, 0, state.history[:1], len(TURN_COLUMNS))  # the toss
            turns += chance_rows(g, 1, 0, state.history[1:], len(TURN_COLUMNS))  # the first deal
        turn = 0
        for _ in range(codes.INDIAN.limits["MAX_ACTIONS"]):
            if state.phase is Phase.GAME_OVER:
                break
            between = state.phase is Phase.DEAL_OVER
            action = (bots[0] if between else bots[state.to_play]).act(state)
            after = GAME.apply(state, action, follow)
            made = after.history[len(state.history) + 1:]
            if between:
                if table.trace:  # the table's action: the player who re-joins, else TABLE_PLAYER
                    player = action.player if action.kind is Kind.REJOIN else codes.TABLE_PLAYER
                    turns.append((g, state.deal_no, turn, player, ACTIONS.index(action.kind), -1, -1, -1, -1))
                    turns += chance_rows(g, after.deal_no, 0, made, len(TURN_COLUMNS))
                if action.kind is Kind.NEXT_DEAL:
                    turn = 0
            else:
                me = state.to_play
                if table.trace:
                    turns.append((g, state.deal_no, turn, me, ACTIONS.index(action.kind), card_code(action.card),
                                  hand_points(state, me), hand_points(after, me), len(after.stock)))
                    turns += chance_rows(g, state.deal_no, turn, made, len(TURN_COLUMNS))
                turn += action.kind in _TURN_ENDS
                if after.phase in (Phase.DEAL_OVER, Phase.GAME_OVER):
                    ending = ((0 if after.winner == me else 1) if action.kind is Kind.DECLARE
                              else 2 if action.kind is Kind.DROP else 3)
                    deal_rows.append((g, after.deal_no, -1 if after.winner is None else after.winner, ending,
                                      *after.deal_points, *pad))
            state = after
        else:
            raise RuntimeError(f"Indian rummy game {g} with seed {table.seeds[g]} did not finish")
        if follow is not None:
            follow.check_done()
        winner = state.game_winner
        games.append((g, state.deal_no, -1 if winner is None else winner, *state.scores, *pad,
                      *(state.chips if deals else (0,) * players), *pad))
    return (np.array(games, dtype=np.int64).reshape(-1, len(GAME_COLUMNS)),
            np.array(deal_rows, dtype=np.int64).reshape(-1, len(DEAL_COLUMNS)),
            np.array(turns, dtype=np.int64).reshape(-1, len(TURN_COLUMNS)))


_RANDOM = RandomBot(seed=0).p


def loop_options(rules: Rules, players: int, pool: int | None, deals: int | None) -> dict[str, Any]:
    """The rules of one simulation's games, and the bots' options, as the compiled loop takes them."""
    first, middle = rules.drops(pool)
    none = codes.NO_LIMIT
    return {
        "pool": pool or 0, "deals": deals or 0, "start_chips": CHIPS_PER_DEAL * deals if deals else 0,
        "joker_from_discard": rules.joker_from_discard, "dropped_to_stock": rules.dropped_cards_to_stock,
        "autoplay": rules.leaver == "autoplay", "autoplay_turns": rules.autoplay_turns,
        "missed_turns_drop": rules.missed_turns_drop, "exceed": rules.elimination == "exceed",
        "max_rejoins": -1 if rules.max_rejoins is None else rules.max_rejoins,
        "rejoin_max": REJOIN_MAX.get(pool or 0, -1), "rejoin_min_remaining": REJOIN_MIN_REMAINING,
        "printed_jokers": rules.printed_jokers,
        "toss_jokers": rules.toss_jokers, "suit_place": [rules.toss_suit_order.index(s) for s in SUIT_ORDER],
        "wrong_show": rules.wrong_show_points, "first_drop": first, "middle_drop": middle, "cap": rules.cap,
        "valid_show": rules.valid_show_points, "exclude_pure": rules.no_second_life_rule == "exclude_pure",
        "ace_high": rules.ace_high, "wild_natural_pure": rules.wild_natural_in_pure,
        "duplicate_suits": rules.set_allow_duplicate_suits,
        "set_max": none if rules.set_max_size is None else rules.set_max_size,
        "max_jokers": none if rules.max_jokers_per_group is None else rules.max_jokers_per_group,
        "jokers_only": rules.jokers_only_group, "min_life": rules.min_life_length, "points": list(rules.points),
        "run_max": rules.sequence_max_size or 13,
        "p_drop": _RANDOM["drop"], "p_wrong": _RANDOM["wrong_show"], "p_leave": _RANDOM["leave"],
        "p_miss": _RANDOM["miss"], "p_reconnect": _RANDOM["reconnect"], "greedy_drops": True,
    }


def play_chunk(table: Table, start: int, stop: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Games start..stop of a table: in the compiled loop when it is built and every bot is named,
    else on the engine."""
    loops = play_loops()
    if loops is None or table.engine_only:
        return play_engine(table, start, stop)
    rules, o = table.rules, table.options
    games, deal_rows, turns = loops.play_indian(
        rules.kernel(), rules.declaration_kernel(), np.ascontiguousarray(table.seeds[start:stop], dtype=np.uint64),
        [BOT_CODES[b] for b in table.bots], [table.rngs(g) for g in range(start, stop)],
        loop_options(rules, table.players, o["pool"], o["deals"]), start, table.trace)
    return games, deal_rows, turns if turns is not None else no_rows(TURN_COLUMNS)


def games_frame(rows: tuple[np.ndarray, ...], table: Table) -> Any:
    """One row per game: the deals played, the winner, each player's score (and chips, in deals rummy)."""
    import polars as pl

    players, deals = table.players, table.options["deals"]
    columns = [0, 1, 2, *range(3, 3 + players), *(range(3 + MAX_PLAYERS, 3 + MAX_PLAYERS + players) if deals else ())]
    return pl.DataFrame(rows[0][:, columns], schema=[GAME_COLUMNS[c] for c in columns], orient="row")


def _check(rules: Rules, players: int, options: dict[str, Any]) -> dict[str, Any]:
    """The game's format: ``pool`` 101 or 201 (pool rummy) or None (points rummy, one deal), or
    ``deals`` 2, 3 or 6 (deals rummy; a pool named too is refused), checked as ``new_game`` checks it."""
    pool, deals = options["pool"], options["deals"]
    new_game(players, rules, 0, pool=pool, deals=deals)  # names a bad pool, deals or format rule
    return {"pool": None if deals or pool is None else int(pool), "deals": deals}


FAMILY = Family(name="Indian rummy", rules=Rules, bots=BOTS, seats=(2, MAX_PLAYERS),
                tables=(GAME_COLUMNS, DEAL_COLUMNS, TURN_COLUMNS), play=play_chunk, frame=games_frame,
                turns=lambda turns, table: turns_frame(turns, TURN_COLUMNS, ACTIONS),
                options={"pool": DEFAULT_POOL, "deals": None}, check=_check, chunk_games=500)
"""Indian rummy, as the simulation driver plays it: pool, points or deals rummy."""


def simulate(n_games: int, bots: Sequence[str | Any] = ("greedy", "greedy"), rules: Rules = DEFAULT,
             seed: SeedLike = 0, *, scheduler: str | None = None, workers: int | None = None,
             progress: bool = False, pool: int | None = DEFAULT_POOL, deals: int | None = None) -> Any:
    """Play ``n_games`` seeded games between ``bots`` ("greedy", "random" or bot objects), one a
    player; a polars frame with one row per game.

    ``pool`` 101 (the default) or 201 (pool rummy) or None (points rummy, one deal); ``deals`` 2, 3
    or 6 plays deals rummy instead (then a ``pool`` named too is refused); chips columns come
    with deals rummy. Named bots play in the compiled loop when it is built, in chunks, on Dask
    with ``scheduler`` (see ``rummylab.gin.bots.simulate``); bot objects play on the engine."""
    return driver.simulate(FAMILY, n_games, bots, rules, seed, scheduler=scheduler, workers=workers,
                           progress=progress, pool=pool, deals=deals)


def trace(n_games: int, bots: Sequence[str | Any] = ("greedy", "greedy"), rules: Rules = DEFAULT,
          seed: SeedLike = 0, *, scheduler: str | None = None, workers: int | None = None,
          progress: bool = False, pool: int | None = DEFAULT_POOL, deals: int | None = None) -> Any:
    """The turns of the games ``simulate`` plays with the same arguments: one row per player's
    action (game, deal, turn, player, action, card, loser points before and after, stock left);
    a hand holding its drawn card is counted after its best discard."""
    return driver.trace(FAMILY, n_games, bots, rules, seed, scheduler=scheduler, workers=workers,
                        progress=progress, pool=pool, deals=deals)


def play_rows(n_games: int, bots: Sequence[str | Any] = ("greedy", "greedy"), rules: Rules = DEFAULT,
              seed: SeedLike = 0, *, scheduler: str | None = None, workers: int | None = None,
              progress: bool = False, pool: int | None = DEFAULT_POOL, deals: int | None = None,
              trace: bool = False) -> tuple[np.ndarray, ...]:
    """The rows (games, deals, turns) of the games ``simulate`` plays with the same arguments."""
    return driver.play_rows(FAMILY, n_games, bots, rules, seed, scheduler=scheduler, workers=workers,
                            progress=progress, trace=trace, options={"pool": pool, "deals": deals})[1]
