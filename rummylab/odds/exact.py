"""Exact deadwood distributions by enumerating every hand up to suit symmetry.

A hand is four suit masks; sorting them by (popcount, mask) picks one hand per suit
permutation class, counted with the class size. The work is split into chunks of the
largest suit mask; chunks run on threads (the kernel releases the GIL) or on Dask, and
can be saved as they finish so a long run resumes where it stopped.
"""

from __future__ import annotations

import functools
from math import comb
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl

from ..kernel.melds import MeldRules
from .scale import run_tasks

GIN = MeldRules()


@functools.cache
def suit_order(ranks: int = 13) -> tuple[np.ndarray, np.ndarray]:
    """(suit masks of ``ranks`` ranks sorted by (popcount, value), start index of each popcount)."""
    masks = np.arange(1 << ranks, dtype=np.int64)
    pops = np.bitwise_count(masks)
    order = masks[np.lexsort((masks, pops))].astype(np.uint16)
    starts = np.searchsorted(np.bitwise_count(order.astype(np.int64)), np.arange(15)).astype(np.int32)
    return order, starts


def chunk_bounds(ranks: int, chunks: int) -> list[tuple[int, int]]:
    """Split the largest-suit index range into chunks of about equal work (later masks do more)."""
    n = 1 << ranks
    # work for largest-suit index i grows roughly like i**3: cut the cube evenly
    edges = np.unique(np.round(n * (np.arange(chunks + 1) / chunks) ** (1 / 3)).astype(int))
    return [(int(lo), int(hi)) for lo, hi in zip(edges[:-1], edges[1:], strict=True) if hi > lo]


def _chunk(lo: int, hi: int, n_cards: int, suits: int, ranks: int, discard: bool, rules: MeldRules,
           backend: str | None) -> np.ndarray:
    order, starts = suit_order(ranks)
    out = np.zeros(20 * n_cards + 1, dtype=np.int64)
    rules.kernel(backend).canonical_histogram(order, starts, n_cards, suits, discard, lo, hi, out)
    return out


def exact_histogram(n_cards: int = 10, *, discard: bool | None = None, suits: int = 4, ranks: int = 13,
                    rules: MeldRules = GIN, scheduler: Any = None, workers: int = 1, chunks: int = 256,
                    progress: bool = True, resume_dir: str | Path | None = None,
                    backend: str | None = None) -> pl.DataFrame:
    """Exact count of hands by least deadwood: (deadwood, hands, probability).

    ``discard`` (default: True for 11 cards) scores each hand after its best discard.
    ``suits``/``ranks`` shrink the deck (for checks by brute force). ``scheduler``: None
    (threads in this process), ``"dask"`` (a LocalCluster of ``workers`` on 127.0.0.1), a
    Dask address, or a ``distributed.Client``.
    """
    if not 1 <= suits <= 4 or not 3 <= ranks <= 13:
        raise ValueError(f"suits={suits}, ranks={ranks}: a deck of 1-4 suits of 3-13 ranks")
    if not 1 <= n_cards <= min(14, suits * ranks):
        raise ValueError(f"n_cards={n_cards}: 1 to {min(14, suits * ranks)} cards")
    discard = (n_cards == 11) if discard is None else discard
    bounds = chunk_bounds(ranks, chunks)
    resume = Path(resume_dir) if resume_dir else None
    if resume:
        resume.mkdir(parents=True, exist_ok=True)
    key = f"n{n_cards}-s{suits}-r{ranks}-d{int(discard)}-{hash((rules.points, rules.ace_high, rules.min_run))}"

    def saved(i: int) -> Path | None:
        return resume / f"{key}-chunk{i:04d}-of{len(bounds)}.npy" if resume else None

    parts: dict[int, np.ndarray] = {}
    todo = []
    for i, (lo, hi) in enumerate(bounds):
        path = saved(i)
        if path is not None and path.exists():
            parts[i] = np.load(path)
        else:
            todo.append((i, (lo, hi, n_cards, suits, ranks, discard, rules, backend)))

    def done(i: int, result: np.ndarray) -> None:
        parts[i] = result
        path = saved(i)
        if path is not None:
            np.save(path, result)

    run_tasks(_chunk, todo, done, scheduler=scheduler, workers=workers, progress=progress,
              desc=f"exact {n_cards}-card hands")
    total = np.sum([parts[i] for i in range(len(bounds))], axis=0) if parts else np.zeros(1, np.int64)
    expected = comb(suits * ranks, n_cards)
    if int(total.sum()) != expected:
        raise RuntimeError(f"enumeration counted {int(total.sum())} hands, expected C({suits * ranks},{n_cards})")
    dw = np.flatnonzero(total)
    return pl.DataFrame({"deadwood": dw.astype(np.int64), "hands": total[dw]}).with_columns(
        probability=pl.col("hands") / expected)


DATA = Path(__file__).resolve().parent.parent / "data"


def exact_gin(n_cards: int = 10, *, discard: bool | None = None) -> pl.DataFrame:
    """The exact deadwood distribution of every gin hand of 10 or 11 cards, as shipped with
    rummylab (computed by ``exact_histogram``; benchmarks/exact_odds.py recomputes and compares them). For 11
    cards, after the best discard by default; ``discard=False`` keeps all 11 (deadwood 0 is big gin)."""
    kept = n_cards == 11 and discard is False
    path = DATA / f"gin_deadwood_{n_cards}{'_kept' if kept else ''}.csv"
    if not path.exists():
        raise ValueError(f"no shipped table for {n_cards} cards: use exact_histogram({n_cards})")
    return pl.read_csv(path, schema={"deadwood": pl.Int64, "hands": pl.Int64, "probability": pl.Float64})


def summary(hist: pl.DataFrame, knock_limit: int = 10) -> dict[str, float]:
    """Mean, SD, P(knock possible), the number of gin hands and P(gin) of a deadwood histogram."""
    dw = hist["deadwood"].to_numpy().astype(np.float64)
    hands = hist["hands"].to_numpy().astype(np.float64)
    n = float(hands.sum())
    mean = float((dw * hands).sum() / n)
    gin = float(hands[dw == 0].sum())
    return {"hands": int(n), "mean": mean, "sd": float(np.sqrt(((dw - mean) ** 2 * hands).sum() / n)),
            "p_knock": float(hands[dw <= knock_limit].sum() / n), "gin_hands": int(gin), "p_gin": gin / n}
