"""Reviews by the thousand: ``review_frame`` plays games between named bots on the engine and
reviews one seat's decisions in each, in chunks (on Dask like ``simulate``), one row a decision,
so an analyst can ask "where does greedy lose its points?" in one call."""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any

from ..cards import SeedLike
from ..sim import run_chunks
from ..sim.driver import Simulation, make_table
from .game import GAME, Phase, State, new_game
from .game_review import review
from .rules import DEFAULT, Rules
from .simulation import FAMILY, engine_bots

FRAME_SAMPLES = 1024
"""Worlds an option is played in at most, a decision, in a frame of reviews (a quarter of
``review``'s default: about 0.35 s a hand)."""
COLUMNS = ("game", "hand", "turn", "phase", "bot", "played", "best", "loss", "loss_se", "mark", "reason")


def _play(table: Simulation, game: int) -> State:
    """Game ``game`` of a table played to its end on the engine."""
    seats = engine_bots(table, game)
    state = new_game(table.rules, int(table.seeds[game]))
    while state.phase not in (Phase.GAME_OVER, Phase.MATCH_OVER):
        state = GAME.apply(state, seats[state.to_play].act(state))
    return state


def _chunk(table: Simulation, seat: int, samples: int, start: int, stop: int) -> list[tuple[Any, ...]]:
    rows = []
    for g in range(start, stop):
        r = review(_play(table, g), seat, seed=g, samples=samples)
        rows += [(g, d.hand, d.turn, d.phase.value, table.names[seat], d.played, d.best, d.loss, d.loss_se, d.mark,
                  d.reason) for d in r.decisions]
    return rows


def review_frame(n_games: int, bots: Sequence[str] = ("greedy", "greedy"), *, seat: int = 0, rules: Rules = DEFAULT,
                 seed: SeedLike = 0, samples: int = FRAME_SAMPLES, scheduler: str | None = None,
                 workers: int | None = None, progress: bool = False) -> Any:
    """``n_games`` games between ``bots`` (the same games ``simulate`` plays for the seed), each
    reviewed for ``seat``: a polars frame with one row per decision (COLUMNS). ``scheduler``:
    "dask" (``workers`` processes on 127.0.0.1) or a scheduler's address, as ``simulate``."""
    import polars as pl

    if seat not in (0, 1):
        raise ValueError(f"seat={seat!r}: 0 or 1")
    if isinstance(samples, bool) or not isinstance(samples, int) or samples < 2:
        raise ValueError(f"samples={samples!r}: 2 or more")
    table = make_table(FAMILY, n_games, bots, rules, seed, scheduler=scheduler, workers=workers, progress=progress)
    parts = run_chunks(functools.partial(_chunk, table, seat, samples), n_games, scheduler=scheduler, workers=workers,
                       progress=progress, chunk=max(1, min(8, n_games // 8 or 1)), desc="games reviewed")
    rows = [row for part in parts for row in part]
    schema = {"game": pl.Int64, "hand": pl.Int64, "turn": pl.Int64, "phase": pl.Utf8, "bot": pl.Utf8,
              "played": pl.Utf8, "best": pl.Utf8, "loss": pl.Float64, "loss_se": pl.Float64, "mark": pl.Utf8,
              "reason": pl.Utf8}
    return pl.DataFrame(rows, schema=schema, orient="row")
