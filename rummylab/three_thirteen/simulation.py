"""Three Thirteen's games by the thousand, as the simulation driver plays them (``FAMILY``): the
compiled loop's codes, a chunk of games on the loop or on the Python engine, the rows as polars
frames, and ``simulate`` and ``trace``."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from ..cards import DECK, SeedLike, deck_masks
from ..play import Outcomes, begin
from ..sim import card_code, chance_rows, codes, driver, following, play_loops, turns_frame
from ..sim.driver import Family, Simulation, no_rows
from .analysis import DEFAULT, Rules, penalty_after_discard, penalty_of_masks
from .game import GAME, MAX_PLAYERS, Kind, Phase, State, new_game
from .players import BOTS, GreedyBot, make_bot

_DECK_BITS = np.array([c.bit for c in DECK], dtype=np.uint64)


BOT_CODES = {name: i for i, name in enumerate(codes.THIRTEEN.bots)}
"""The bots as the compiled loop numbers them."""
ROUND_COLUMNS = codes.THIRTEEN.columns["round"]
TURN_COLUMNS = codes.THIRTEEN.columns["turn"]
ACTIONS = tuple(Kind[name] for name in codes.THIRTEEN.actions)
"""The actions of a turn, as the compiled loop numbers them."""


def hand_penalty(state: State, player: int) -> int:
    """A hand's penalty; with a drawn card (round + 3 cards) after its best discard."""
    hand, k, w = state.hands[player], state.rules.kernel(), state.wild_rank
    masks = deck_masks(hand)[:3]
    if len(hand) != state.round_no + 3:
        return penalty_of_masks(k, masks, w)
    return penalty_after_discard(k, masks, w)


def play_engine(table: Simulation, start: int, stop: int,
                chances: Mapping[int, Outcomes] | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Games start..stop of a table played by the Python engine: int64 rows of ROUND_COLUMNS, one
    per player per round, and with ``table.trace`` rows of TURN_COLUMNS. ``chances``: per game,
    the chance outcomes to make again (``sim.trace_outcomes``)."""
    rows: list[tuple[int, ...]] = []
    turns: list[tuple[int, ...]] = []
    for g in range(start, stop):
        bots, follow = engine_bots(table, g), following(chances, g)
        state = begin(lambda: new_game(len(bots), table.rules, int(table.seeds[g])), follow)  # noqa: B023
        if table.trace:
            turns += chance_rows(g, 1, 0, state.history, len(TURN_COLUMNS))
        turn = 0
        for _ in range(codes.THIRTEEN.limits["MAX_ACTIONS"] * 11):
            if state.phase is Phase.GAME_OVER:
                break
            action = bots[state.to_play].act(state)
            after = GAME.apply(state, action, follow)
            if action.kind is Kind.NEXT_ROUND:
                turn = 0
            else:
                me = state.to_play
                if table.trace:
                    turns.append((g, state.round_no, turn, me, ACTIONS.index(action.kind), card_code(action.card),
                                  hand_penalty(state, me), hand_penalty(after, me), len(after.stock)))
            if table.trace:
                turns += chance_rows(g, after.round_no, turn, after.history[len(state.history) + 1:], len(TURN_COLUMNS))
            turn += action.kind in (Kind.DISCARD, Kind.GO_OUT)
            if after.phase in (Phase.ROUND_OVER, Phase.GAME_OVER) and state.phase is Phase.DISCARD:
                rows.extend((g, after.round_no, p, pen, int(p == after.went_out))
                            for p, pen in enumerate(after.round_scores[-1]))
            state = after
        else:
            raise RuntimeError(f"Three Thirteen game {g} with seed {table.seeds[g]} did not finish")
        if follow is not None:
            follow.check_done()
    return (np.array(rows, dtype=np.int64).reshape(-1, len(ROUND_COLUMNS)),
            np.array(turns, dtype=np.int64).reshape(-1, len(TURN_COLUMNS)))


def engine_bots(table: Simulation, game: int) -> list[GreedyBot]:
    """One game's engine bots: a named bot on its seat's generator for the game (a stalled
    round's random discards); a bot object as it is."""
    rngs = table.rngs(game)
    return [make_bot(b, rngs[i]) if isinstance(b, str) else b for i, b in enumerate(table.bots)]


def play_chunk(table: Simulation, start: int, stop: int) -> tuple[np.ndarray, np.ndarray]:
    """Games start..stop of a table: in the compiled loop when it is built and every bot is named,
    else on the engine."""
    loops = play_loops()
    if loops is None or table.engine_only:
        return play_engine(table, start, stop)
    rules = table.rules
    rows, turns = loops.play_thirteen(
        rules.kernel(), np.ascontiguousarray(table.seeds[start:stop], dtype=np.uint64),
        [BOT_CODES[b] for b in table.bots], [table.rngs(g) for g in range(start, stop)],
        codes.options_dict(codes.THIRTEEN, {"decks": rules.deck_count(table.players), "points": list(rules.points)}),
        _DECK_BITS, start, table.trace)
    return rows, turns if turns is not None else no_rows(TURN_COLUMNS)


def rounds_frame(rows: tuple[np.ndarray, ...], table: Simulation) -> Any:
    """One row per player per round: the bot's name, the round's penalty, the running total, and
    whether the player won the game (the lowest total after round 11) or went out."""
    import polars as pl

    df = pl.DataFrame(rows[0], schema=list(ROUND_COLUMNS), orient="row")
    df = df.with_columns(total=pl.col("penalty").cum_sum().over("game", "player", order_by="round"))
    low = df.filter(pl.col("round") == 11).group_by("game").agg(low=pl.col("total").min())
    return df.join(low, on="game", how="left").select(
        "game", "round", "player",
        bot=pl.col("player").replace_strict(dict(enumerate(table.names)), return_dtype=pl.Utf8),
        penalty="penalty", total="total", winner=(pl.col("round") == 11) & (pl.col("total") == pl.col("low")),
        went_out=pl.col("went_out").cast(pl.Boolean))


def _check(rules: Rules, players: int, options: dict[str, Any]) -> dict[str, Any]:
    decks = rules.deck_count(players)
    if players * 13 + 1 > 52 * decks:
        raise ValueError(f"{players} players need more than {decks} deck(s) for round 11")
    return options


FAMILY = Family(name="Three Thirteen", rules=Rules, bots=BOTS, seats=(2, MAX_PLAYERS),
                tables=(ROUND_COLUMNS, TURN_COLUMNS), play=play_chunk, frame=rounds_frame,
                turns=lambda turns, table: turns_frame(turns, TURN_COLUMNS, ACTIONS), check=_check, chunk_games=200)
"""Three Thirteen, as the simulation driver plays it."""


def simulate(n_games: int, bots: Sequence[str | GreedyBot] = ("greedy", "greedy"), rules: Rules = DEFAULT,
             seed: SeedLike = 0, *, scheduler: str | None = None, workers: int | None = None,
             progress: bool = False) -> Any:
    """Play ``n_games`` full games; a polars DataFrame with one row per player per round.

    Named bots play in the compiled loop when it is built, in chunks, on Dask with ``scheduler``
    (see ``rummylab.gin.bots.simulate``); bot objects play in this process on the engine."""
    return driver.simulate(FAMILY, n_games, bots, rules, seed, scheduler=scheduler, workers=workers,
                           progress=progress)


def trace(n_games: int, bots: Sequence[str | GreedyBot] = ("greedy", "greedy"), rules: Rules = DEFAULT,
          seed: SeedLike = 0, *, scheduler: str | None = None, workers: int | None = None,
          progress: bool = False) -> Any:
    """The turns of the games ``simulate`` plays with the same arguments: one row per action
    (game, round, turn, player, action, card, penalty before and after, stock left); a hand
    holding its drawn card is counted after its best discard."""
    return driver.trace(FAMILY, n_games, bots, rules, seed, scheduler=scheduler, workers=workers,
                        progress=progress)
