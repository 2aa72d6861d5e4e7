"""Monte Carlo estimates, each with its standard error; seeded per chunk, so the same seed
gives the same numbers in process, on threads or on Dask."""

from __future__ import annotations

from typing import Any

import numpy as np
import polars as pl

from ..cards import random_hands
from ..kernel import IMPOSSIBLE
from .scale import run_tasks


def _split(n: int, chunks: int) -> list[int]:
    chunks = max(1, min(chunks, n))
    return [n // chunks + (1 if i < n % chunks else 0) for i in range(chunks)]


def _seeds(seed: int, chunks: int) -> list[np.random.SeedSequence]:
    return list(np.random.SeedSequence(seed).spawn(chunks))


def _gin_dealt_chunk(n: int, seed: np.random.SeedSequence, size: int, knock_limit: int) -> np.ndarray:
    from ..gin import deadwood_batch

    dw = deadwood_batch(random_hands(n, size, np.random.default_rng(seed)))
    return np.bincount(dw, minlength=111)


def gin_dealt(n: int, seed: int, *, size: int = 10, knock_limit: int = 10, chunks: int = 16,
              scheduler: Any = None, workers: int = 1, progress: bool = False) -> pl.DataFrame:
    """Dealt gin hands: mean deadwood, P(knock possible), P(gin), with standard errors."""
    counts = _run_counts(_gin_dealt_chunk, n, seed, chunks, (size, knock_limit), scheduler, workers, progress,
                         f"Monte Carlo gin {size}-card")
    return _stats(counts, knock_limit)


def gin_dealt_histogram(n: int, seed: int, *, size: int = 10, chunks: int = 16, scheduler: Any = None,
                        workers: int = 1, progress: bool = False) -> pl.DataFrame:
    """Share of dealt hands by deadwood, with the standard error of each share."""
    counts = _run_counts(_gin_dealt_chunk, n, seed, chunks, (size, 10), scheduler, workers, progress,
                         f"Monte Carlo gin {size}-card")
    dw = np.flatnonzero(counts)
    p = counts[dw] / n
    return pl.DataFrame({"deadwood": dw, "hands": counts[dw], "probability": p, "se": np.sqrt(p * (1 - p) / n)})


def _run_counts(fn: Any, n: int, seed: int, chunks: int, extra: tuple[Any, ...], scheduler: Any, workers: int,
                progress: bool, desc: str) -> np.ndarray:
    if n <= 0:
        raise ValueError(f"n={n}: the number of hands must be positive")
    sizes = _split(n, chunks)
    results: dict[int, np.ndarray] = {}
    tasks = [(i, (m, s, *extra)) for i, (m, s) in enumerate(zip(sizes, _seeds(seed, len(sizes)), strict=True))]
    run_tasks(fn, tasks, results.__setitem__, scheduler=scheduler, workers=workers, progress=progress, desc=desc)
    return np.sum([results[i] for i in range(len(sizes))], axis=0)


def _stats(counts: np.ndarray, knock_limit: int) -> pl.DataFrame:
    n = int(counts.sum())
    dw = np.arange(counts.size)
    mean = float((dw * counts).sum() / n)
    sd = float(np.sqrt(((dw - mean) ** 2 * counts).sum() / n))
    rows = [("mean deadwood", mean, sd / np.sqrt(n))]
    for name, hits in (("P(knock possible)", counts[: knock_limit + 1].sum()), ("P(gin)", counts[0])):
        p = float(hits / n)
        rows.append((name, p, float(np.sqrt(p * (1 - p) / n))))
    return pl.DataFrame({"statistic": [r[0] for r in rows], "estimate": [r[1] for r in rows],
                         "se": [r[2] for r in rows], "n": [n] * len(rows)})


def _turns_chunk(n: int, seed: np.random.SeedSequence, turns: int, policy: str, knock_limit: int) -> np.ndarray:
    """[turn, (knock possible, gin)] counts for the non-dealer playing ``policy`` (never knocking)."""
    from ..gin import game as g
    from ..gin.players import GreedyBot, StrongBot

    rng = np.random.default_rng(seed)
    out = np.zeros((turns, 2), dtype=np.int64)
    for _ in range(n):
        deal_seed = int(rng.integers(2**62))
        kind = {"greedy": GreedyBot, "strong": StrongBot}[policy]
        bots = [kind(int(rng.integers(2**32)), knocks=False) for _ in range(2)]
        s = g.new_game(g.Rules(big_gin_bonus=None), deal_seed)
        me = 1 - s.dealer
        done = 0
        while done < turns and s.phase is not g.Phase.HAND_OVER:
            player = s.to_play
            s = g.apply(s, bots[player].act(s))
            if player == me and s.phase in (g.Phase.DRAW, g.Phase.HAND_OVER) and s.history[-1].kind == "discard":
                dw = g.gin_kernel().deadwood(s.hands[me])
                out[done] += (dw <= knock_limit, dw == 0)
                done += 1
    return out


def gin_turns(n: int, seed: int, *, turns: int = 10, policy: str = "greedy", knock_limit: int = 10,
              chunks: int = 8, scheduler: Any = None, workers: int = 1, progress: bool = False) -> pl.DataFrame:
    """P(knock possible) and P(gin) after each of the non-dealer's first ``turns`` turns when both
    players follow ``policy`` (and nobody knocks), with standard errors."""
    if policy not in ("greedy", "strong"):
        raise ValueError(f"policy {policy!r}: 'greedy' or 'strong'")
    if not 1 <= turns <= 14:
        raise ValueError(f"turns={turns}: 1 to 14 (with nobody knocking, a hand lasts 14 turns each)")
    counts = _run_counts(_turns_chunk, n, seed, chunks, (turns, policy, knock_limit), scheduler, workers,
                         progress, f"Monte Carlo gin turns ({policy})")
    p = counts / n
    se = np.sqrt(p * (1 - p) / n)
    return pl.DataFrame({"turn": np.arange(1, turns + 1), "p_knock": p[:, 0], "se_knock": se[:, 0],
                         "p_gin": p[:, 1], "se_gin": se[:, 1], "n": [n] * turns})


def _three_thirteen_chunk(n: int, seed: np.random.SeedSequence, decks: int, rules: Any) -> np.ndarray:
    """[round, (sum of penalties, sum of squares, hands dealt that go out at once)] for n deals per round."""
    from ..three_thirteen import penalty_batch

    rng = np.random.default_rng(seed)
    out = np.zeros((11, 3), dtype=np.float64)
    deck = np.array([1 << (16 * (c // 13) + c % 13) for c in range(52)] * decks, dtype=np.uint64)
    for r in range(1, 12):
        once, twice, thrice = (np.zeros(n, dtype=np.uint64) for _ in range(3))
        picks = np.argsort(rng.random((n, deck.size)), axis=1)[:, : r + 2]
        for k in range(r + 2):
            bits = deck[picks[:, k]]
            thrice |= twice & bits
            twice |= once & bits
            once |= bits
        pen = penalty_batch(once, twice, r, rules, thrice).astype(np.float64)
        out[r - 1] = (pen.sum(), (pen * pen).sum(), float((pen == 0).sum()))
    return out


def three_thirteen_dealt(n: int, seed: int, *, decks: int = 1, rules: Any = None, chunks: int = 8,
                         scheduler: Any = None, workers: int = 1, progress: bool = False) -> pl.DataFrame:
    """Mean dealt penalty by round (one to three decks), and P(a dealt hand is fully melded), with SEs."""
    from ..three_thirteen import DEFAULT

    if decks not in (1, 2, 3):
        raise ValueError(f"decks={decks}: 1, 2 or 3")
    sums = _run_counts(_three_thirteen_chunk, n, seed, chunks, (decks, rules or DEFAULT), scheduler, workers,
                       progress, f"Monte Carlo Three Thirteen ({decks} deck{'s' if decks > 1 else ''})")
    mean = sums[:, 0] / n
    var = np.maximum(sums[:, 1] / n - mean**2, 0)
    p0 = sums[:, 2] / n
    return pl.DataFrame({"round": np.arange(1, 12), "cards": np.arange(3, 14), "decks": [decks] * 11,
                         "mean_penalty": mean, "se": np.sqrt(var / n), "p_melded": p0,
                         "se_melded": np.sqrt(p0 * (1 - p0) / n), "n": [n] * 11})


def _indian_chunk(n: int, seed: np.random.SeedSequence, rules: Any) -> np.ndarray:
    """[hands with a pure sequence, with two lives, sum of loser points, sum of squares]."""
    from ..indian.deal import random_cuts, random_hands

    rng = np.random.default_rng(seed)
    once, twice, jokers = random_hands(n, rng, printed_jokers=rules.printed_jokers)
    wild = random_cuts(n, rng, printed_jokers=rules.printed_jokers)
    k = rules.kernel()
    out = np.zeros(4)
    for w in range(13):
        sel = wild == w
        if not sel.any():
            continue
        o, t, j = once[sel], twice[sel], jokers[sel]
        points = np.empty(o.size, dtype=np.int32)
        lives = np.zeros(o.size, dtype=bool)
        k.loser_points_batch(o, t, j, w, points, rules.no_second_life_rule == "exclude_pure", rules.cap,
                             rules.valid_show_points, False)
        for nj in np.unique(j):  # two lives: the search finds an arrangement with them
            part = j == nj
            pen = np.empty(int(part.sum()), dtype=np.int32)
            k.penalty_batch(np.ascontiguousarray(o[part]), np.ascontiguousarray(t[part]), w, pen, int(nj), 0)
            lives[part] = pen < IMPOSSIBLE
        pure = _has_pure_sequence(o, w if not rules.wild_natural_in_pure else -1, rules.ace_high)
        p = points.astype(np.float64)
        out += (pure.sum(), lives.sum(), p.sum(), (p * p).sum())
    return out


def _has_pure_sequence(once: np.ndarray, drop_rank: int, ace_high: bool) -> np.ndarray:
    """Does each hand hold three consecutive cards of one suit (cards of ``drop_rank`` left out)?"""
    found = np.zeros(once.size, dtype=bool)
    for s in range(4):
        held = (once >> np.uint64(16 * s)) & np.uint64(0x1FFF)
        if drop_rank >= 0:
            held &= ~np.uint64(1 << drop_rank)
        if ace_high:
            held |= (held & np.uint64(1)) << np.uint64(13)
        found |= (held & (held >> np.uint64(1)) & (held >> np.uint64(2))) != 0
    return found


def indian_dealt(n: int, seed: int, *, rules: Any = None, chunks: int = 8, scheduler: Any = None, workers: int = 1,
                 progress: bool = False) -> pl.DataFrame:
    """Dealt 13-card Indian rummy hands, each with a random cut joker: P(a pure sequence),
    P(two lives), mean loser points, with standard errors."""
    from ..indian import DEFAULT

    rules = rules or DEFAULT
    s = _run_counts(_indian_chunk, n, seed, chunks, (rules,), scheduler, workers, progress,
                    "Monte Carlo Indian rummy")
    p_pure, p_lives, mean = s[0] / n, s[1] / n, s[2] / n
    var = max(s[3] / n - mean**2, 0.0)
    return pl.DataFrame({"statistic": ["p_pure_sequence", "p_two_lives", "mean_loser_points"],
                         "estimate": [p_pure, p_lives, mean],
                         "se": [np.sqrt(p_pure * (1 - p_pure) / n), np.sqrt(p_lives * (1 - p_lives) / n),
                                np.sqrt(var / n)],
                         "n": [n] * 3})
