"""The one simulation driver: every family's ``simulate`` and ``trace`` are this, given the
family's ``Family`` (how its games are played and read). The driver checks the arguments (each
either changes the games or is refused by name), draws the seeds, splits the games into chunks
(in this process or on Dask, with a progress bar) and stacks their rows; the family turns them
into frames. ``write`` saves a frame as Parquet or CSV."""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from ..cards import SeedLike, rng_from
from . import CHUNK_GAMES, check_count, check_scheduler, run_chunks


@dataclass(frozen=True, kw_only=True)
class Family:
    """What the driver needs of a family; each family's ``simulation`` module declares one."""

    name: str
    rules: type
    """The family's ``Rules`` class: other rules are refused."""
    bots: Mapping[str, Any]
    """The named bots."""
    seats: tuple[int, int]
    """The fewest and most players."""
    tables: tuple[tuple[str, ...], ...]
    """The columns of each kind of row a game gives (the last: the trace's turns)."""
    play: Callable[[Simulation, int, int], tuple[np.ndarray, ...]]
    """Games ``start..stop`` of a table, a module function (Dask pickles it): one array per kind
    of row (turns only with ``table.trace``; an empty array else)."""
    frame: Callable[[tuple[np.ndarray, ...], Simulation], Any]
    """``simulate``'s polars frame from the rows."""
    turns: Callable[[np.ndarray, Simulation], Any]
    """``trace``'s polars frame from the turns."""
    spec: Callable[[Any], Any] = lambda bot: bot if isinstance(bot, str) else None
    """A bot as the compiled loop takes it (a name, or a name with options), or None: a bot object
    that plays on the engine, in this process."""
    options: Mapping[str, Any] = field(default_factory=dict)
    """The game's options beside its rules, with their defaults (Indian rummy's pool and deals)."""
    check: Callable[[Any, int, dict[str, Any]], dict[str, Any]] = lambda rules, players, options: options
    """Checks the rules and options for this many players (ValueError names the bad one); returns
    the options the games are played with."""
    chunk_games: int = CHUNK_GAMES


@dataclass(frozen=True, kw_only=True, eq=False)
class Simulation:
    """What every game of one simulation shares: a chunk is a function of it and its game numbers
    alone, so the games are the same in any chunk, process or machine."""

    bots: tuple[Any, ...]
    """Each seat's bot: its spec (see ``Family.spec``), or the bot object itself when it has none."""
    names: tuple[str, ...]
    bot_seeds: tuple[int, ...]
    seeds: np.ndarray
    """Each game's seed."""
    rules: Any
    options: Mapping[str, Any]
    trace: bool
    engine_only: bool = False
    """Some bot is an object the compiled loop cannot play: every game plays on the engine (the
    other seats' bots made from their specs)."""

    @property
    def players(self) -> int:
        return len(self.bots)

    def rng(self, game: int, seat: int) -> np.random.Generator:
        """A seat's generator for one game, seeded by the seat's seed and the game number."""
        return np.random.default_rng((self.bot_seeds[seat], game))

    def rngs(self, game: int) -> tuple[np.random.Generator, ...]:
        """Each seat's generator for one game (``rng``)."""
        return tuple(self.rng(game, seat) for seat in range(self.players))


def make_table(family: Family, n_games: int, bots: Sequence[Any], rules: Any, seed: SeedLike, *,
               scheduler: str | None = None, workers: int | None = None, progress: bool = False,
               trace: bool = False, options: Mapping[str, Any] | None = None) -> Simulation:
    """The table of a simulation, every argument checked (see ``simulate``): ValueError names a bad one."""
    options = dict(options or {})
    check_count("n_games", n_games)
    check_scheduler(scheduler, workers)
    if workers is not None and scheduler != "dask":
        raise ValueError(f"workers={workers!r}: the processes of a local cluster, so only with scheduler='dask' "
                         "(a scheduler's address brings its own workers)")
    if not isinstance(progress, bool):
        raise ValueError(f"progress={progress!r}: True or False")
    unknown = sorted(set(options) - set(family.options))
    if unknown:
        has = f"its options are {', '.join(family.options)}" if family.options else "it has no other option"
        raise ValueError(f"{', '.join(unknown)}: not an option of {family.name} ({has})")
    if not isinstance(rules, family.rules):
        package = family.rules.__module__.removesuffix(".rules")  # where the family's Rules is imported from
        raise ValueError(f"rules={rules!r}: {family.name} needs {package}.{family.rules.__name__}")
    if isinstance(bots, (str, bytes)) or not isinstance(bots, Sequence):
        raise ValueError(f"bots={bots!r}: a bot (a name or an object) for each player")
    low, high = family.seats
    if not low <= len(bots) <= high:
        seats = f"{low}" if low == high else f"{low} to {high}"
        raise ValueError(f"{len(bots)} bots: {family.name} is played here by {seats} players, a bot each")
    for b in bots:
        if isinstance(b, str) and b not in family.bots:
            raise ValueError(f"unknown bot {b!r}: choose from {', '.join(family.bots)}")
    played = family.check(rules, len(bots), {**family.options, **options})
    if isinstance(seed, (int, np.integer)) and not isinstance(seed, bool) and seed < 0:
        raise ValueError(f"seed={seed!r}: a non-negative integer or a numpy Generator")
    rng = rng_from(seed)
    bot_seeds = tuple(int(rng.integers(2**32)) if isinstance(b, str) else 0 for b in bots)
    seeds = rng.integers(2**31, size=n_games)
    specs = [family.spec(b) for b in bots]
    engine_only = any(s is None for s in specs)
    if engine_only and scheduler is not None:
        raise ValueError("bot objects play in this process: pass bot names to use a scheduler")
    return Simulation(bots=tuple(b if s is None else s for b, s in zip(bots, specs, strict=True)),
                 names=tuple(b if isinstance(b, str) else str(getattr(b, "name", type(b).__name__)) for b in bots),
                 bot_seeds=bot_seeds, seeds=seeds, rules=rules, options=played, trace=trace,
                 engine_only=engine_only)


def play_rows(family: Family, n_games: int, bots: Sequence[Any], rules: Any, seed: SeedLike, *,
              scheduler: str | None = None, workers: int | None = None, progress: bool = False,
              trace: bool = False,
              options: Mapping[str, Any] | None = None) -> tuple[Simulation, tuple[np.ndarray, ...]]:
    """The table and the stacked rows of ``n_games`` games (see ``simulate``)."""
    table = make_table(family, n_games, bots, rules, seed, scheduler=scheduler, workers=workers, progress=progress,
                       trace=trace, options=options)
    task = functools.partial(family.play, table)
    parts = run_chunks(task, n_games, scheduler=scheduler, workers=workers, progress=progress,
                       chunk=max(n_games, 1) if table.engine_only else family.chunk_games)
    return table, tuple(_stacked(parts, i, len(columns)) for i, columns in enumerate(family.tables))


def simulate(family: Family, n_games: int, bots: Sequence[Any], rules: Any, seed: SeedLike = 0, *,
             scheduler: str | None = None, workers: int | None = None, progress: bool = False,
             **options: Any) -> Any:
    """Play ``n_games`` seeded games of ``family`` between ``bots`` (names or objects, one a
    player) under ``rules`` and the family's ``options``: its polars frame.

    Named bots play in the compiled loop when it is built, in chunks, on a Dask cluster with
    ``scheduler="dask"`` (``workers`` processes on 127.0.0.1) or a scheduler's address; the games
    are the same either way. Bot objects play in this process, on the Python engine."""
    table, rows = play_rows(family, n_games, bots, rules, seed, scheduler=scheduler, workers=workers,
                            progress=progress, trace=False, options=options)
    return family.frame(rows, table)


def trace(family: Family, n_games: int, bots: Sequence[Any], rules: Any, seed: SeedLike = 0, *,
          scheduler: str | None = None, workers: int | None = None, progress: bool = False, **options: Any) -> Any:
    """The turns of the games ``simulate`` plays with the same arguments: one row per action."""
    table, rows = play_rows(family, n_games, bots, rules, seed, scheduler=scheduler, workers=workers,
                            progress=progress, trace=True, options=options)
    return family.turns(rows[-1], table)


def _stacked(parts: Sequence[Sequence[np.ndarray]], index: int, width: int) -> np.ndarray:
    """The chunks' row arrays at ``index``, one under the other (no chunks: no rows of ``width``)."""
    return np.concatenate([p[index] for p in parts]) if parts else np.zeros((0, width), np.int64)


def no_rows(columns: Sequence[str]) -> np.ndarray:
    """An empty array of rows (a chunk's turns when it traces nothing)."""
    return np.zeros((0, len(columns)), np.int64)


def write(frame: Any, path: str | Path) -> Path:
    """A frame written to ``path``: CSV for a ``.csv`` name, else Parquet. ValueError when it
    cannot be written."""
    target = Path(path)
    try:
        (frame.write_csv if target.suffix == ".csv" else frame.write_parquet)(target)
    except OSError as exc:
        raise ValueError(f"cannot write {target}: {exc.strerror}") from None
    return target
