"""Indian rummy's games by the thousand, as the simulation driver plays them (``FAMILY``): the
compiled loop's codes and options, a chunk of games on the loop or on the Python engine, the rows
as polars frames, and ``simulate``, ``trace`` and ``play_rows``."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from ..cards import SeedLike
from ..play import Outcomes, begin
from ..sim import card_code, chance_rows, codes, driver, following, play_loops, turns_frame
from ..sim.driver import Family, Simulation, no_rows
from .analysis import loser_count_after_discard, masks
from .game import (
    CHIPS_PER_DEAL,
    DEFAULT_POOL,
    GAME,
    MAX_PLAYERS,
    Kind,
    Phase,
    State,
    new_game,
    points_of,
)
from .players import BOTS, RandomBot
from .pools import REJOIN_MAX, REJOIN_MIN_REMAINING
from .rules import DEFAULT, SUIT_ORDER, Rules

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


def first_state(table: Simulation, game: int) -> State:
    """Game number ``game`` of a table: its first state, seeded by the game's seed."""
    pool, deals = table.options["pool"], table.options["deals"]
    seed = int(table.seeds[game])
    return (new_game(table.players, table.rules, seed, pool=None, deals=deals) if deals
            else new_game(table.players, table.rules, seed, pool=pool))


def engine_bots(table: Simulation, game: int) -> list[Any]:
    """One game's engine bots: a named bot on its seat's generator for the game; a bot object as it is."""
    rngs = table.rngs(game)
    return [BOTS[b](seed=rngs[i]) if isinstance(b, str) else b for i, b in enumerate(table.bots)]


def play_engine(table: Simulation, start: int, stop: int,
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


def loop_options(rules: Rules, players: int, pool: int | None, deals: int | None, *,
                 greedy_drops: bool = True) -> dict[str, Any]:
    """The rules of one simulation's games, and the bots' options, as the compiled loop takes them
    (``greedy_drops``: the greedy bot drops a hopeless hand, as ``GreedyBot(drops=True)``)."""
    first, middle = rules.drops(pool)
    none = codes.NO_LIMIT
    return codes.options_dict(codes.INDIAN, {
        "players": players, "pool": pool or 0, "deals": deals or 0,
        "start_chips": CHIPS_PER_DEAL * deals if deals else 0,
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
        "p_miss": _RANDOM["miss"], "p_reconnect": _RANDOM["reconnect"], "greedy_drops": greedy_drops,
    })


def play_chunk(table: Simulation, start: int, stop: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
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


def games_frame(rows: tuple[np.ndarray, ...], table: Simulation) -> Any:
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
