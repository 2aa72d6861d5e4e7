"""Gin's games by the thousand, as the simulation driver plays them (``FAMILY``): a chunk of
games on the compiled loop (its codes and options: ``loop``) or on the Python engine, the rows
as polars frames, and ``simulate`` and ``trace``."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from ..cards import DECK, SeedLike
from ..play import Outcomes, begin
from ..sim import card_code, chance_rows, driver, following, play_loops, turns_frame
from ..sim.driver import Family, Simulation, no_rows
from . import expert, rollout_bot
from .analysis import gin_kernel
from .game import GAME, Action, Kind, Phase, State, final_totals, new_game
from .loop import (
    _ACTION_CODE,
    ACTIONS,
    BOT_CODES,
    ENDS,
    HAND_COLUMNS,
    TURN_COLUMNS,
    BotSpec,
    bot_spec,
    loop_options,
    spec_bot,
)
from .players import DRAWING, Bot
from .rollout_bot import BOTS, RolloutBot
from .rules import DEFAULT, Rules

__all__ = ["ACTIONS", "BOT_CODES", "ENDS", "FAMILY", "HAND_COLUMNS", "TURN_COLUMNS", "BotSpec", "bot_spec",
           "loop_options", "simulate", "spec_bot", "trace"]

_DECK_BITS = np.array([c.bit for c in DECK], dtype=np.uint64)


def _hand_deadwood(mask: int) -> int:
    """Deadwood of a hand; an 11-card hand after its best discard."""
    k = gin_kernel()
    return int(k.discard_deadwood(mask) if mask.bit_count() == 11 else k.deadwood(mask))


def play_engine(table: Simulation, start: int, stop: int,
                chances: Mapping[int, Outcomes] | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Games start..stop of a table played by the Python engine: int64 rows of HAND_COLUMNS (a dead
    hand's winner and knocker are -1) and, with ``table.trace``, of TURN_COLUMNS. ``chances``:
    per game, the chance outcomes to make again (a loop's trace: ``sim.trace_outcomes``)."""
    hands: list[tuple[int, ...]] = []
    turns: list[tuple[int, ...]] = []
    for g in range(start, stop):
        seats, hand, follow = engine_bots(table, g), 0, following(chances, g)
        state = begin(lambda: new_game(table.rules, int(table.seeds[g])), follow)  # noqa: B023
        dealers = [state.dealer]
        if table.trace:
            turns += chance_rows(g, 0, 0, state.history, len(TURN_COLUMNS))
        while state.phase not in (Phase.GAME_OVER, Phase.MATCH_OVER):
            me = state.to_play
            action = seats[me].act(state)
            after = GAME.apply(state, action, follow)
            if action.kind is Kind.NEXT_HAND:
                hand += 1
                dealers.append(after.dealer)
            elif table.trace:
                turns.append(turn_row(g, hand, me, state, action, after))
            if table.trace:
                turns += chance_rows(g, hand, 0, after.history[len(state.history) + 1:], len(TURN_COLUMNS))
            state = after
        if follow is not None:
            follow.check_done()
        for h, r in enumerate(state.records):
            hands.append((g, h, -1 if r.winner is None else r.winner, ENDS.index(r.kind), r.points,
                          -1 if r.knocker is None else r.knocker, r.turns, *r.deadwoods, dealers[h]))
    return (np.array(hands, dtype=np.int64).reshape(-1, len(HAND_COLUMNS)),
            np.array(turns, dtype=np.int64).reshape(-1, len(TURN_COLUMNS)))


def turn_row(game: int, hand: int, player: int, before: State, action: Action, after: State) -> tuple[int, ...]:
    """One row of TURN_COLUMNS: the action of the player to act in ``before``."""
    me = before.to_play
    return (game, hand, before.turns, player, _ACTION_CODE[action.kind], card_code(action.card),
            _hand_deadwood(before.hands[me]),
            _hand_deadwood(after.hands[me]), len(after.stock))


def turn_frame(turns: np.ndarray, table: Simulation | None = None) -> Any:
    """TURN_COLUMNS rows as polars, with action names and cards."""
    return turns_frame(turns, TURN_COLUMNS, ACTIONS)


def engine_bots(table: Simulation, game: int) -> list[Bot]:
    """One game's engine bots: a random bot on its seat's generator for the game; a spec's bot;
    a bot object as it is."""
    return [(RolloutBot(table.rng(game, i)) if b[0] == "rollout" else
             spec_bot(b, table.rng(game, i) if b[0] in DRAWING else None)) if isinstance(b, BotSpec) else b
            for i, b in enumerate(table.bots)]


def loop_rngs(table: Simulation, start: int, stop: int) -> list[tuple[np.random.Generator | None, ...]]:
    """Each game's generators as the compiled loop takes them: a drawing bot's, None for the others."""
    drawing = [i for i, b in enumerate(table.bots) if b[0] in DRAWING]  # a generator costs 20 µs: only where drawn
    return [tuple(table.rng(g, i) if i in drawing else None for i in range(table.players)) for g in range(start, stop)]


def play_chunk(table: Simulation, start: int, stop: int) -> tuple[np.ndarray, np.ndarray]:
    """Games start..stop of a table: in the compiled loop when it is built and every bot is a
    spec, else on the engine."""
    loops = play_loops()
    if loops is None or table.engine_only:
        return play_engine(table, start, stop)
    loops.set_expert(*expert.constants(table.rules))
    if any(b[0] == "rollout" for b in table.bots):  # its game units cost a table for the rules: only when played
        loops.set_rollout(*rollout_bot.constants(table.rules))
    hands, turns = loops.play_gin(
        gin_kernel(), np.ascontiguousarray(table.seeds[start:stop], dtype=np.uint64),
        [BOT_CODES[b[0]] for b in table.bots], loop_rngs(table, start, stop), _DECK_BITS, trace=table.trace,
        first_game=start, **loop_options(table.bots, table.rules))
    return hands, turns if turns is not None else no_rows(TURN_COLUMNS)


def hands_frame(rows: tuple[np.ndarray, ...], table: Simulation) -> Any:
    """One row per hand, with each game's final totals (total_0, total_1) and the bots' names."""
    import polars as pl

    df = pl.DataFrame(rows[0], schema=list(HAND_COLUMNS), orient="row")
    return df.join(_game_totals(df, table.rules), on="game", how="left", maintain_order="left").with_columns(
        winner=pl.when(pl.col("winner") >= 0).then(pl.col("winner")).cast(pl.Int8),
        kind=pl.col("kind").replace_strict(list(range(len(ENDS))), list(ENDS), return_dtype=pl.Utf8),
        knocker=pl.when(pl.col("knocker") >= 0).then(pl.col("knocker")).cast(pl.Int8),
        dealer=pl.col("dealer").cast(pl.Int8), bot_0=pl.lit(table.names[0]), bot_1=pl.lit(table.names[1]))


def _check(rules: Rules, players: int, options: dict[str, Any]) -> dict[str, Any]:
    """Simulations play single games: rules of a match (``match_games`` > 1) are refused, not ignored."""
    if rules.match_games != 1:
        raise ValueError(f"match_games={rules.match_games}: simulate plays single games; "
                         "pass dataclasses.replace(rules, match_games=1)")
    return options


FAMILY = Family(name="gin", rules=Rules, bots=BOTS, seats=(2, 2), tables=(HAND_COLUMNS, TURN_COLUMNS),
                play=play_chunk, frame=hands_frame, turns=turn_frame, spec=bot_spec, check=_check)
"""Gin for two, as the simulation driver plays it."""


def simulate(n_games: int, bots: Sequence[str | Bot] = ("greedy", "greedy"), rules: Rules = DEFAULT,
             seed: SeedLike = 0, *, scheduler: str | None = None, workers: int | None = None,
             progress: bool = False) -> Any:
    """Play ``n_games`` games to the target; a polars DataFrame with one row per hand, and each
    game's final totals with its game, box and shutout bonuses (total_0, total_1) on its rows.

    Named bots (and greedy or strong bot objects) play in the compiled loop when it is built, in
    chunks, on a Dask cluster with ``scheduler="dask"`` (``workers`` processes on 127.0.0.1) or a
    scheduler's address; the games are the same either way. Other bot objects play in this
    process, on the Python engine."""
    return driver.simulate(FAMILY, n_games, bots, rules, seed, scheduler=scheduler, workers=workers,
                           progress=progress)


def trace(n_games: int, bots: Sequence[str | Bot] = ("greedy", "greedy"), rules: Rules = DEFAULT,
          seed: SeedLike = 0, *, scheduler: str | None = None, workers: int | None = None,
          progress: bool = False) -> Any:
    """The turns of the games ``simulate`` plays with the same arguments: one row per action
    (game, hand, turn, player, action, card, deadwood before and after, stock left). An
    11-card hand's deadwood is counted after its best discard."""
    return driver.trace(FAMILY, n_games, bots, rules, seed, scheduler=scheduler, workers=workers,
                        progress=progress)


def _game_totals(hands: Any, rules: Rules) -> Any:
    """Per game of HAND_COLUMNS rows: each player's final total (``game.final_totals``: hand
    points with the game, box and shutout bonuses), as total_0 and total_1."""
    import polars as pl

    won = hands.group_by("game").agg(*(pl.col("points").filter(pl.col("winner") == p).sum().alias(f"s{p}")
                                       for p in (0, 1)),
                                     *((pl.col("winner") == p).sum().alias(f"w{p}") for p in (0, 1))).sort("game")
    totals = [final_totals(rules, (a, b), (c, d)) for a, b, c, d in won.select("s0", "s1", "w0", "w1").iter_rows()]
    return pl.DataFrame({"game": won["game"], "total_0": [t[0] for t in totals], "total_1": [t[1] for t in totals]},
                        schema={"game": pl.Int64, "total_0": pl.Int64, "total_1": pl.Int64})
