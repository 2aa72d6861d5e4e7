"""Many games at once: split into chunks of games, played in this process or on a Dask cluster,
with a progress bar. A chunk is a pure function of its game numbers, so the results are the same
wherever and in whatever order the chunks run."""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator, Sequence
from types import ModuleType
from typing import Any, TypeVar

import numpy as np
from tqdm.auto import tqdm

from ..cards import DECK
from ..kernel import BACKEND

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


_CARD_NAMES = {**{c.bit.bit_length() - 1: str(c) for c in DECK}, 64: "JK"}
"""A trace's card column: the bit of a card, 64 for a printed joker."""


def turns_frame(rows: np.ndarray, columns: Sequence[str], actions: Sequence[Any]) -> Any:
    """Trace rows as polars, with the action's name and the card's (null for none)."""
    import polars as pl

    return pl.DataFrame(rows, schema=list(columns), orient="row").with_columns(
        action=pl.col("action").replace_strict(dict(enumerate(str(a) for a in actions)), return_dtype=pl.Utf8),
        card=pl.col("card").replace_strict(_CARD_NAMES, default=None, return_dtype=pl.Utf8))
