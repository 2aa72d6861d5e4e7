"""Run independent tasks in this process (threads; the kernel releases the GIL) or on Dask."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor, as_completed
from contextlib import contextmanager
from typing import Any


def _bar(total: int, desc: str, progress: bool) -> Any:
    from tqdm.auto import tqdm

    return tqdm(total=total, desc=desc, disable=not progress, leave=False)


@contextmanager
def dask_client(scheduler: Any, workers: int) -> Iterator[Any]:
    """A Dask client: ``"dask"`` starts a LocalCluster on 127.0.0.1 (stopped afterwards);
    a string is an existing scheduler's address; a Client is used as it is."""
    from dask.distributed import Client, LocalCluster

    if isinstance(scheduler, Client):
        yield scheduler
    elif scheduler == "dask":
        with LocalCluster(n_workers=max(1, workers), threads_per_worker=1, host="127.0.0.1",
                          dashboard_address=None, processes=True) as cluster, Client(cluster) as client:
            yield client
    elif isinstance(scheduler, str):
        with Client(scheduler) as client:
            yield client
    else:
        raise ValueError(f"scheduler {scheduler!r}: None, 'dask', a Dask address or a Client")


def run_tasks(fn: Callable[..., Any], tasks: Sequence[tuple[Any, tuple[Any, ...]]],
              done: Callable[[Any, Any], None], *, scheduler: Any = None, workers: int = 1,
              progress: bool = True, desc: str = "") -> None:
    """Call ``fn(*args)`` for each ``(key, args)`` and ``done(key, result)`` as each finishes."""
    if not tasks:
        return
    with _bar(len(tasks), desc, progress) as bar:
        if scheduler is None:
            if workers <= 1:
                for key, args in tasks:
                    done(key, fn(*args))
                    bar.update()
                return
            with ThreadPoolExecutor(workers) as pool:
                futures = {pool.submit(fn, *args): key for key, args in tasks}
                for f in as_completed(futures):
                    done(futures[f], f.result())
                    bar.update()
            return
        from dask.distributed import as_completed as dask_completed

        with dask_client(scheduler, workers) as client:
            futures = {client.submit(fn, *args, pure=False): key for key, args in tasks}
            for f in dask_completed(list(futures)):
                done(futures[f], f.result())
                bar.update()
