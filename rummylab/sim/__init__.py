"""Many games at once: split into chunks of games, played in this process or on a Dask cluster,
with a progress bar. A chunk is a pure function of its game numbers, so the results are the same
wherever and in whatever order the chunks run."""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator, Mapping, Sequence
from types import ModuleType
from typing import Any, TypeVar

import numpy as np
from tqdm.auto import tqdm

from ..cards import DECK, JOKER, Card
from ..kernel import BACKEND
from ..play import Chance, Outcomes
from . import codes

R = TypeVar("R")


def play_loops() -> ModuleType | None:
    """The compiled play loops (``rummylab.sim._play``) under the compiled backend, else None: the
    Python engine plays (the same games, slower)."""
    if BACKEND != "cython":
        return None
    try:
        from . import _play  # type: ignore[attr-defined]
    except ImportError:
        return None
    return _play


CONNECT_TIMEOUT = "20s"
"""How long a Dask scheduler's address is tried before it is said not to answer."""
CHUNK_GAMES = 2_000
"""Games per chunk (a Dask task, a step of the progress bar)."""


def check_count(name: str, n: object) -> int:
    """A count of games or hands: a non-negative integer."""
    if isinstance(n, bool) or not isinstance(n, int) or n < 0:
        raise ValueError(f"{name}={n!r}: a non-negative integer")
    return n


def check_scheduler(scheduler: object, workers: object) -> None:
    if scheduler is not None and not isinstance(scheduler, str):
        raise ValueError(f"scheduler={scheduler!r}: None (this process), 'dask' (a local cluster) or the "
                         "address of a Dask scheduler ('tcp://host:8786')")
    if workers is not None and (isinstance(workers, bool) or not isinstance(workers, int) or workers < 1):
        raise ValueError(f"workers={workers!r}: a positive number of worker processes")


@contextlib.contextmanager
def dask_client(scheduler: Any, workers: int | None = None) -> Iterator[Any]:
    """A Dask client: "dask" starts a LocalCluster on 127.0.0.1 (``workers`` processes, one
    thread each; 2 by default) and stops it afterwards; another string is a scheduler's
    address; a Client is used as it is."""
    from distributed import Client, LocalCluster

    if isinstance(scheduler, Client):
        yield scheduler
        return
    if not isinstance(scheduler, str):
        raise ValueError(f"scheduler {scheduler!r}: None, 'dask', a Dask address or a Client")
    with contextlib.ExitStack() as stack:
        if scheduler == "dask":
            cluster = stack.enter_context(LocalCluster(
                n_workers=max(1, workers or 2), threads_per_worker=1, processes=True, host="127.0.0.1",
                dashboard_address=None, silence_logs=40))
            client = stack.enter_context(Client(cluster))
        else:
            try:
                client = stack.enter_context(Client(scheduler, timeout=CONNECT_TIMEOUT))
            except OSError as exc:
                raise ValueError(f"scheduler {scheduler!r}: no Dask scheduler answers there ({exc})") from None
        yield client


def run_chunks(task: Callable[[int, int], R], n: int, *, scheduler: str | None = None, workers: int | None = None,
               progress: bool = False, chunk: int = CHUNK_GAMES, desc: str = "games") -> list[R]:
    """``task(start, stop)`` for each chunk of ``range(n)``, in order. ``task`` must be picklable
    (a module function or a functools.partial of one) to run on Dask."""
    check_scheduler(scheduler, workers)
    bounds = [(a, min(a + chunk, n)) for a in range(0, n, chunk)]
    with tqdm(total=n, disable=not progress, desc=desc, unit="game") as bar:
        if scheduler is None:
            out = []
            for a, b in bounds:
                out.append(task(a, b))
                bar.update(b - a)
            return out
        from distributed import as_completed

        with dask_client(scheduler, workers) as client:
            futures = client.map(task, [a for a, _ in bounds], [b for _, b in bounds], pure=False)
            size = {f.key: b - a for f, (a, b) in zip(futures, bounds, strict=True)}
            for f in as_completed(futures):
                bar.update(size[f.key])
            results: list[R] = client.gather(futures)
            return results


_TRACED = 6
"""The columns every family's turns begin with: game, deal (hand, round), turn, player, action, card."""
DRAWS = ("dealer", "roles")
"""The chance kinds whose outcome is a number (its trace row's card column), not a shuffle."""


def card_code(card: Card | None) -> int:
    """A card as a trace's card column holds it: the bit of a card, 64 for a printed joker (-1: none)."""
    return -1 if card is None else 64 if card.is_joker else card.bit.bit_length() - 1


_CARDS = {card_code(c): c for c in (*DECK, JOKER)}
"""A trace's card column back to the card."""
_CARD_NAMES = {code: str(c) for code, c in _CARDS.items()}


def chance_rows(game: int, deal: int, turn: int, outcomes: Sequence[Any], width: int) -> list[tuple[int, ...]]:
    """A trace's rows of the chance outcomes among ``outcomes`` (a slice of a history), as the loops
    write them: a row per card of a shuffle, in order, or one for a drawn number."""
    rows = []
    pad = (-1,) * (width - _TRACED)
    for c in outcomes:
        if isinstance(c, Chance):
            code = codes.CHANCE.index(c.kind)
            values = [int(c.value or 0)] if c.cards is None else [card_code(x) for x in c.cards]
            rows += [(game, deal, turn, codes.CHANCE_PLAYER, code, v, *pad) for v in values]
    return rows


def _chance_groups(turns: np.ndarray) -> list[tuple[int, int, np.ndarray]]:
    """(first row, kind, values) of each chance outcome in trace rows: a run of chance rows of
    one kind at one (game, deal, turn)."""
    at = np.flatnonzero(turns[:, 3] == codes.CHANCE_PLAYER)
    if not len(at):
        return []
    key = turns[at][:, [0, 1, 2, 4]]
    starts = np.flatnonzero(np.r_[True, (np.diff(at) != 1) | (key[1:] != key[:-1]).any(axis=1)])
    ends = np.r_[starts[1:], len(at)]
    return [(int(at[a]), int(turns[at[a], 4]), turns[at[a:b], 5]) for a, b in zip(starts, ends, strict=True)]


def _chance(kind: int, values: np.ndarray) -> Chance:
    name = codes.CHANCE[kind]
    if name in DRAWS:
        return Chance(name, value=int(values[0]))
    return Chance(name, tuple(_CARDS[int(v)] for v in values))


def trace_outcomes(turns: np.ndarray) -> dict[int, Outcomes]:
    """Each game's chance outcomes in trace rows, in order: the engine makes them again
    (``play.Outcomes``) to replay a loop's games without a generator."""
    out: dict[int, list[Chance]] = {}
    for first, kind, values in _chance_groups(turns):
        out.setdefault(int(turns[first, 0]), []).append(_chance(kind, values))
    return {g: Outcomes(c) for g, c in out.items()}


def following(chances: Mapping[int, Outcomes] | None, game: int) -> Outcomes | None:
    """The outcomes game ``game`` makes again (none recorded: the game may make none), or None
    when ``chances`` is None (the games draw their own)."""
    if chances is None:
        return None
    return chances.get(game) or Outcomes(())


def turns_frame(rows: np.ndarray, columns: Sequence[str], actions: Sequence[Any]) -> Any:
    """Trace rows as polars, one row per action: the action's name, the card's (null for none).
    A chance outcome is one row (player -1, the chance kind as its action, the family's own
    columns null) with its ``outcome``: the cards in the order a shuffle put them, or the number
    drawn; a row of the table's own action between deals has player -2."""
    import polars as pl

    keep = np.ones(len(rows), dtype=bool)
    outcome: list[str | None] = [None] * len(rows)
    for first, kind, values in _chance_groups(rows):
        keep[first + 1:first + len(values)] = False
        outcome[first] = str(_chance(kind, values)).split(": ", 1)[1]
    chance = rows[:, 3] == codes.CHANCE_PLAYER
    names = np.array([str(a) for a in actions] + list(codes.CHANCE), dtype=object)
    action = names[np.where(chance, len(actions) + rows[:, 4], rows[:, 4])] if len(rows) else names[:0]
    is_chance = pl.Series(chance)
    frame = pl.DataFrame(rows, schema=list(columns), orient="row").with_columns(
        *(pl.when(is_chance).then(None).otherwise(pl.col(c)).alias(c) for c in columns[_TRACED:]),
        action=pl.Series(action, dtype=pl.Utf8),
        card=pl.when(is_chance).then(None).otherwise(pl.col("card")).replace_strict(
            _CARD_NAMES, default=None, return_dtype=pl.Utf8),
        outcome=pl.Series(outcome, dtype=pl.Utf8))
    return frame.filter(pl.Series(keep))
