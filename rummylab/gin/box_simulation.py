"""Three-handed gin "in the box", simulated: many games at once, in the compiled loop (``play_box``)
or on the engine (``box_game``), as the simulation driver plays them; one row a hand, and the
turns of a trace."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from .. import play
from ..cards import SeedLike
from ..sim import chance_rows, codes, driver, following, play_loops
from ..sim.driver import Family, Simulation, no_rows
from . import expert, rollout_bot
from .analysis import gin_kernel
from .box_game import GAME, PLAYERS, ROLE_ORDERS, final_scores, hand_rules, new_game, roles_drawn
from .game import Kind as g_kind
from .game import Phase as game_phase
from .loop import BOT_CODES, ENDS, TURN_COLUMNS, bot_spec, loop_options
from .players import Bot
from .rollout_bot import BOTS
from .rules import THREE_HANDED, Rules
from .simulation import _DECK_BITS, engine_bots, loop_rngs, turn_frame, turn_row

BOX_COLUMNS = codes.GIN.columns["box"]


def play_engine(table: Simulation, start: int, stop: int,
                chances: Mapping[int, play.Outcomes] | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Games start..stop of a table played by the Python engine (P1, P2, P3): int64 rows of
    BOX_COLUMNS (winning seat 0 the box, 1 the captain, -1 a dead hand) and, with
    ``table.trace``, rows of gin's TURN_COLUMNS whose player is 0-2. ``chances``: per game, the
    chance outcomes to make again (``sim.trace_outcomes``)."""
    hands: list[tuple[int, ...]] = []
    turns: list[tuple[int, ...]] = []
    for gno in range(start, stop):
        hand_no, follow = 0, following(chances, gno)
        bots = dict(zip(PLAYERS, engine_bots(table, gno), strict=True))
        state = play.begin(lambda: new_game(PLAYERS, table.rules, int(table.seeds[gno])), follow)  # noqa: B023
        if table.trace:
            turns += chance_rows(gno, 0, 0, state.history, len(TURN_COLUMNS))
        while not state.over:
            action = bots[state.to_play].act(state.hand)
            after = GAME.apply(state, action, follow)
            if action.kind is g_kind.NEXT_HAND:
                hand_no += 1
                if table.trace:
                    turns += chance_rows(gno, hand_no, 0, after.history[len(state.history) + 1:], len(TURN_COLUMNS))
            else:
                if table.trace:
                    turns.append(turn_row(gno, hand_no, PLAYERS.index(state.to_play), state.hand, action, after.hand))
                if after.hand.phase is game_phase.HAND_OVER:
                    rec, roles = after.hand.records[-1], state.roles
                    hands.append((gno, hand_no, PLAYERS.index(roles.box), PLAYERS.index(roles.captain),
                                  PLAYERS.index(roles.sitting_out), ENDS.index(rec.kind),
                                  -1 if rec.winner is None else rec.winner, rec.points, rec.turns))
            state = after
        if follow is not None:
            follow.check_done()
    return (np.array(hands, dtype=np.int64).reshape(-1, len(BOX_COLUMNS)),
            np.array(turns, dtype=np.int64).reshape(-1, len(TURN_COLUMNS)))


def play_chunk(table: Simulation, start: int, stop: int) -> tuple[np.ndarray, np.ndarray]:
    """Games start..stop of a table: in the compiled loop when it is built and every bot is a
    spec, else on the engine."""
    loops = play_loops()
    if loops is None or table.engine_only:
        return play_engine(table, start, stop)
    seeds = table.seeds[start:stop]
    drawn = [roles_drawn(int(x)) for x in seeds]
    roles = np.array([ROLE_ORDERS[d] for d in drawn], dtype=np.int64).reshape(-1, 3)
    loops.set_expert(*expert.constants(table.rules))
    if any(b[0] == "rollout" for b in table.bots):  # each hand valued by its points: no game ends in one
        loops.set_rollout(*rollout_bot.constants(hand_rules(table.rules)))
    hands, turns = loops.play_box(
        gin_kernel(), np.ascontiguousarray(seeds, dtype=np.uint64), [BOT_CODES[b[0]] for b in table.bots],
        loop_rngs(table, start, stop), roles, _DECK_BITS, trace=table.trace, first_game=start,
        **loop_options(table.bots, table.rules))
    if turns is None:
        return hands, no_rows(TURN_COLUMNS)
    # the roles are drawn here, not in the loop: each game's trace starts with their chance row
    games = np.arange(start, stop)
    rows = np.array([row for g, d in zip(games, drawn, strict=True)
                     for row in chance_rows(int(g), 0, 0, [play.Chance("roles", value=d)], len(TURN_COLUMNS))],
                    dtype=np.int64).reshape(-1, len(TURN_COLUMNS))
    return hands, np.insert(turns, np.searchsorted(turns[:, 0], games), rows, axis=0)


def box_frame(rows: tuple[np.ndarray, ...], table: Simulation) -> Any:
    """One row per hand: the roles by name, how it ended, its scorer, and each game's winner and
    final scores with its game bonus (total_P1, total_P2, total_P3)."""
    import polars as pl

    name = pl.col  # readability below: player indices to names
    names_of = dict(enumerate(PLAYERS))
    df = pl.DataFrame(rows[0], schema=list(BOX_COLUMNS), orient="row")
    df = df.with_columns(
        scorer_i=pl.when(name("winning_seat") == 0).then(name("box"))
        .when(name("winning_seat") == 1).then(name("captain")))
    # each game's final scores (final_scores: with the game bonus) and its winner, the leader
    points = {game: dict.fromkeys(PLAYERS, 0) for game in sorted(df["game"].unique().to_list())}
    for game, who, v in df.drop_nulls("scorer_i").select("game", "scorer_i", "points").iter_rows():
        points[game][PLAYERS[who]] += v
    finals = {game: final_scores(table.rules, s) for game, s in points.items()}
    games = pl.DataFrame({"game": list(finals), "winner_i": [PLAYERS.index(max(s, key=s.__getitem__))
                                                             for s in points.values()],
                          **{f"total_{p}": [f[p] for f in finals.values()] for p in PLAYERS}},
                         schema={"game": pl.Int64, "winner_i": pl.Int64, **{f"total_{p}": pl.Int64 for p in PLAYERS}})
    return df.join(games, on="game", how="left", maintain_order="left").with_columns(
        *[name(c).replace_strict(names_of, return_dtype=pl.Utf8) for c in ("box", "captain", "sitting_out")],
        kind=name("kind").replace_strict(dict(enumerate(ENDS)), return_dtype=pl.Utf8),
        result=name("winning_seat").replace_strict({0: "box_won", 1: "box_lost", -1: "draw"}, return_dtype=pl.Utf8),
        scorer=name("scorer_i").replace_strict(names_of, default=None, return_dtype=pl.Utf8),
        winner=name("winner_i").replace_strict(names_of, default=None, return_dtype=pl.Utf8),
    ).select("game", "hand", "box", "captain", "sitting_out", "kind", "result", "points", "scorer", "winner",
             "turns", *(f"total_{p}" for p in PLAYERS))


def box_turns(turns: np.ndarray, table: Simulation) -> Any:
    """Gin's trace frame, the player named P1, P2 or P3 (null for a chance outcome)."""
    import polars as pl

    return turn_frame(turns).with_columns(
        player=pl.col("player").replace_strict(dict(enumerate(PLAYERS)), default=None, return_dtype=pl.Utf8))


def _check(rules: Rules, players: int, options: dict[str, Any]) -> dict[str, Any]:
    rules.check_three_handed()
    return options


FAMILY = Family(name="three-handed gin", rules=Rules, bots=BOTS, seats=(3, 3), tables=(BOX_COLUMNS, TURN_COLUMNS),
                play=play_chunk, frame=box_frame, turns=box_turns, spec=bot_spec, check=_check)
"""Three-handed gin, as the simulation driver plays it."""


def simulate(n_games: int, bots: Sequence[str | Bot] = ("greedy", "greedy", "greedy"),
             rules: Rules = THREE_HANDED, seed: SeedLike = 0, *, scheduler: str | None = None,
             workers: int | None = None, progress: bool = False) -> Any:
    """Play ``n_games`` games between P1, P2 and P3; a polars DataFrame with one row per hand, and
    each game's final scores with its game bonus (total_P1, total_P2, total_P3) on its rows.

    Named bots play in the compiled loop when it is built, in chunks, on Dask with ``scheduler``
    (see ``rummylab.gin.bots.simulate``); bot objects play in this process on the engine."""
    return driver.simulate(FAMILY, n_games, bots, rules, seed, scheduler=scheduler, workers=workers,
                           progress=progress)


def trace(n_games: int, bots: Sequence[str | Bot] = ("greedy", "greedy", "greedy"),
          rules: Rules = THREE_HANDED, seed: SeedLike = 0, *, scheduler: str | None = None,
          workers: int | None = None, progress: bool = False) -> Any:
    """The turns of the games ``simulate`` plays with the same arguments (gin's trace columns;
    the player is P1, P2 or P3)."""
    return driver.trace(FAMILY, n_games, bots, rules, seed, scheduler=scheduler, workers=workers,
                        progress=progress)
