"""Run independent tasks in this process (threads; the kernel releases the GIL) or on Dask."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor, as_completed
from typing import Any

from ..sim import dask_client


def _bar(total: int, desc: str, progress: bool) -> Any:
    from tqdm.auto import tqdm

    return tqdm(total=total, desc=desc, disable=not progress, leave=False)


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
