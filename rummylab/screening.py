"""Effort where it matters, for every family's ``evaluate``: every option played in a screen of
worlds, then more worlds only for the options still in reach of the best (as GNU Backgammon's move
filters keep only the candidates within reach), until their differences to the best are sure or
the budget is spent; then, if asked, every other option's difference made sure too.

An option's results are an array, one entry a world, the worlds common to every option: the
difference of two options is taken world by world (``paired``). Integer results (points) are
summed exactly and divided once, so the compiled rollout bot (ext/_play_gin_rollout_bot.pxi),
summing the same integers, screens as ``screened`` does (``every_diff=False``).

Plain: imports numpy only.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Collection
from dataclasses import dataclass

import numpy as np

REACH = 3.0
"""An option stays a candidate while its difference to the best is within REACH standard errors."""


@dataclass(frozen=True, kw_only=True)
class Effort:
    """How far ``screened`` plays: ``screen`` worlds for every option first; at most ``cap``; the
    candidates (within ``reach`` standard errors of the best) until their differences' errors are
    at most ``target_se``; every other option (``every_diff``) until its difference's error is at
    most ``option_se``; nothing more after ``deadline`` (``time.perf_counter``; None: none)."""

    screen: int
    cap: int
    reach: float
    target_se: float
    option_se: float
    every_diff: bool = True
    deadline: float | None = None

    def out_of_time(self) -> bool:
        return self.deadline is not None and time.perf_counter() > self.deadline


def deadline(budget_ms: float | None) -> float | None:
    """The ``time.perf_counter`` at which a budget of ``budget_ms`` milliseconds from now is spent."""
    return None if budget_ms is None else time.perf_counter() + budget_ms / 1000


def screened(n_options: int, effort: Effort, play: Callable[[int, int, int], np.ndarray],
             kept: Collection[int] = (), dtype: type = np.int64) -> list[np.ndarray]:
    """Each option's results in the worlds it was played in (a prefix of the common worlds):
    ``play(option, start, stop)`` gives its results in worlds start..stop. ``kept`` options are
    played as long as the best, however far behind (a review keeps the move that was played).
    One option alone is played in all ``cap`` worlds (its value is all that is asked)."""
    played: list[np.ndarray] = [np.empty(0, dtype=dtype) for _i in range(n_options)]

    def grow(i: int, size: int) -> None:
        start = len(played[i])
        if size > start:
            played[i] = np.concatenate([played[i], play(i, start, size)])

    live, size = list(range(n_options)), min(effort.screen if n_options > 1 else effort.cap, effort.cap)
    while True:
        for i in live:
            grow(i, size)
        leader = max(live, key=lambda i: mean(played[i]))
        live = [i for i in live if i == leader or i in kept or in_reach(played[i], played[leader], effort.reach)]
        if (len(live) == 1 or size >= effort.cap or effort.out_of_time()
                or all(paired(played[i], played[leader])[1] <= effort.target_se for i in live if i != leader)):
            break
        size = min(effort.cap, 2 * size)
    if not effort.every_diff:
        return played
    for i in sorted(range(n_options), key=lambda i: -paired(played[i], played[leader])[0]):  # the nearest first
        while i != leader and not effort.out_of_time():
            se = paired(played[i], played[leader])[1]
            if se <= effort.option_se or len(played[i]) >= effort.cap:
                break
            size = worlds_for(len(played[i]), se, effort)
            grow(leader, size)  # the leader too: a difference is as sure as the fewer worlds of the two
            grow(i, size)
    return played


def worlds_for(n: int, se: float, effort: Effort) -> int:
    """The worlds that bring an error of ``se`` over ``n`` worlds to ``option_se`` (it falls as one
    over their root), a tenth more for the estimate's own noise, in whole screens, at most ``cap``."""
    ratio = se / effort.option_se  # squared as r * r, as the compiled twin squares it (one rounding)
    want = n * (ratio * ratio) * 1.1 if math.isfinite(se) else 2 * n
    return min(effort.cap, max(n + effort.screen, effort.screen * math.ceil(want / effort.screen)))


def paired(x: np.ndarray, best: np.ndarray) -> tuple[float, float]:
    """(mean difference, its standard error) of x to best over the worlds both were played in.
    Integers are summed exactly and divided once."""
    n = min(len(x), len(best))
    if n < 2:
        return (float(x[0] - best[0]) if n else 0.0), float("inf")
    d = x[:n] - best[:n]
    if d.dtype.kind == "i":
        s1, s2 = int(d.sum()), int((d * d).sum())
        return s1 / n, math.sqrt((n * s2 - s1 * s1) / (n * n * (n - 1)))
    return float(d.mean()), float(d.std(ddof=1) / np.sqrt(n))


def in_reach(x: np.ndarray, best: np.ndarray, reach: float) -> bool:
    """Whether x's difference to best is within ``reach`` standard errors of nothing."""
    diff, se = paired(x, best)
    return diff + reach * max(se, 1e-9) >= 0


def mean(x: np.ndarray) -> float:
    """The mean of an option's results (integers: their exact sum, divided once)."""
    return int(x.sum()) / len(x) if x.dtype.kind == "i" else float(x.mean())


def standard_error(x: np.ndarray) -> float:
    """The standard error of x's mean (0 for fewer than two results)."""
    return float(x.std(ddof=1) / np.sqrt(len(x))) if len(x) > 1 else 0.0


def best_played(played: list[np.ndarray]) -> int:
    """The option of highest mean among those played in the most worlds."""
    most = max(len(x) for x in played)
    return max((i for i in range(len(played)) if len(played[i]) == most), key=lambda i: mean(played[i]))
