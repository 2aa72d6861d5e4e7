"""Odds: exact enumeration == brute force, Monte Carlo within 4 SE of exact, draw odds, Dask."""

from __future__ import annotations

import itertools
from math import comb
from pathlib import Path

import numpy as np
import polars as pl
import pytest
from conftest import backends
from oracle import Oracle, oracle_deadwood

import rummylab
import rummylab as rl
from rummylab import odds
from rummylab.kernel.melds import MeldRules


def brute_histogram(n: int, suits: int, ranks: int) -> dict[int, int]:
    """Every hand of the reduced deck, by the oracle-checked kernel batch."""
    bits = [16 * s + r for s in range(suits) for r in range(ranks)]
    masks = np.array([sum(1 << bits[i] for i in c) for c in itertools.combinations(range(len(bits)), n)],
                     dtype=np.uint64)
    out = np.empty(masks.size, dtype=np.int32)
    MeldRules().kernel("cython" if "cython" in backends() else "python").deadwood_batch(masks, out, n == 11)
    return {i: int(v) for i, v in enumerate(np.bincount(out)) if v}


def as_dict(h: pl.DataFrame) -> dict[int, int]:
    return dict(zip(h["deadwood"].to_list(), h["hands"].to_list(), strict=True))


DECKS = [(10, 3, 7), (10, 4, 5), (11, 3, 6), (7, 4, 6), (10, 2, 13)]
CASES = [(b, *d) for b in backends() for d in DECKS if b == "cython" or comb(d[1] * d[2], d[0]) <= 200_000]


@pytest.mark.parametrize(("backend", "n", "suits", "ranks"), CASES)
def test_exact_enumeration_equals_brute_force(backend: str, n: int, suits: int, ranks: int) -> None:
    h = odds.exact_histogram(n, suits=suits, ranks=ranks, progress=False, backend=backend)
    assert as_dict(h) == brute_histogram(n, suits, ranks)
    assert h["hands"].sum() == comb(suits * ranks, n)


def test_brute_force_itself_matches_the_oracle_on_a_tiny_deck() -> None:
    bits = [16 * s + r for s in range(2) for r in range(6)]
    got: dict[int, int] = {}
    for c in itertools.combinations(bits, 7):
        dw = oracle_deadwood(sum(1 << b for b in c))
        got[dw] = got.get(dw, 0) + 1
    assert got == brute_histogram(7, 2, 6)


@pytest.mark.once  # where and in what order chunks run, the same on both backends
def test_exact_chunks_resume(tmp_path: Path) -> None:
    first = odds.exact_histogram(10, suits=3, ranks=8, chunks=12, resume_dir=tmp_path, progress=False)
    files = sorted(tmp_path.glob("*.npy"))
    assert len(files) >= 6
    for f in files[::2]:
        f.unlink()
    again = odds.exact_histogram(10, suits=3, ranks=8, chunks=12, resume_dir=tmp_path, progress=False)
    assert as_dict(again) == as_dict(first)


def test_shipped_exact_table_is_a_complete_distribution() -> None:
    h = odds.exact_gin(10)
    assert h["hands"].sum() == comb(52, 10) == 15_820_024_220
    s = odds.summary(h)
    assert s["gin_hands"] == 136_694
    assert abs(h["probability"].sum() - 1) < 1e-12


def test_cli_exact_on_threads_writes_its_table(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    """`rummylab odds exact gin --cards 10` on two threads prints and writes the enumeration, here
    of a deck of two suits of eight ranks (the method equals brute force above). The full 10-card recomputation,
    compared with the shipped table, is benchmarks/exact_odds.py's (run and recorded)."""
    from rummylab.cli import main

    real = odds.exact_histogram
    monkeypatch.setattr(odds, "exact_histogram", lambda n, **kw: real(n, suits=2, ranks=8, **kw))
    out = tmp_path / "gin10.parquet"
    assert main(["odds", "exact", "gin", "--cards", "10", "--workers", "2", "--scheduler", "threads",
                 "--no-progress", "--out", str(out)]) == 0
    assert f"{comb(16, 10):,} hands, exact" in capsys.readouterr().out
    assert as_dict(pl.read_parquet(out)) == as_dict(real(10, suits=2, ranks=8, progress=False))


def test_shipped_eleven_card_tables() -> None:
    best, kept = odds.exact_gin(11), odds.exact_gin(11, discard=False)
    assert best["hands"].sum() == kept["hands"].sum() == comb(52, 11)
    assert odds.summary(kept)["gin_hands"] == 147_204  # big gin
    assert odds.summary(best)["gin_hands"] == 5_379_372


def test_cli_monte_carlo_and_unavailable_family(tmp_path: Path) -> None:
    import subprocess
    import sys

    out = tmp_path / "mc.csv"
    compiled = rummylab.BACKEND == "cython"  # the command's wiring, on either kernel: the twin deals fewer
    hands = "20000" if compiled else "4000"
    r = subprocess.run([sys.executable, "-m", "rummylab", "odds", "mc", "gin", "--hands", hands, "--seed", "3",
                        "--workers", "2", "--no-progress", "--out", str(out)], capture_output=True, text=True,
                       check=False)  # --workers 2: a Dask LocalCluster on 127.0.0.1
    assert r.returncode == 0, r.stderr
    assert "P(knock possible)" in r.stdout and pl.read_csv(out).height == 3
    r = subprocess.run([sys.executable, "-m", "rummylab", "odds", "mc", "indian", "--seed", "1",
                        "--hands", "4000" if compiled else "400", "--no-progress"],
                       capture_output=True, text=True, check=False)
    assert r.returncode == 0, r.stderr
    assert "p_pure_sequence" in r.stdout and "mean_loser_points" in r.stdout
    bad = subprocess.run([sys.executable, "-m", "rummylab", "odds", "mc", "canasta", "--hands", "10"],
                         capture_output=True, text=True, check=False)
    assert bad.returncode == 2 and "not available yet" in bad.stderr


def test_monte_carlo_is_within_4_se_of_exact() -> None:
    exact = odds.summary(odds.exact_gin(10))
    mc = odds.gin_dealt(400_000, 7, chunks=8, workers=2)
    est = dict(zip(mc["statistic"].to_list(), zip(mc["estimate"].to_list(), mc["se"].to_list(), strict=True),
                   strict=True))
    for name, truth in (("mean deadwood", exact["mean"]), ("P(knock possible)", exact["p_knock"]),
                        ("P(gin)", exact["p_gin"])):
        value, se = est[name]
        assert abs(value - truth) <= 4 * max(se, 1e-9), (name, value, truth, se)
    hist = odds.gin_dealt_histogram(100_000, 3).join(odds.exact_gin(10), on="deadwood", suffix="_exact")
    z = ((hist["probability"] - hist["probability_exact"]).abs() / hist["se"].clip(1e-9)).to_numpy()
    assert (z[hist["hands"].to_numpy() >= 30] <= 4.5).all()


def test_monte_carlo_is_reproducible_and_chunk_seeded() -> None:
    a = odds.gin_dealt(50_000, 11, chunks=4)
    assert a.equals(odds.gin_dealt(50_000, 11, chunks=4, workers=2))
    assert not a.equals(odds.gin_dealt(50_000, 12, chunks=4))


def test_turns_estimates_grow_and_have_standard_errors() -> None:
    t = odds.gin_turns(200, 5, turns=6, chunks=2)
    assert t.height == 6 and (t["se_knock"] >= 0).all()
    assert t["p_knock"][-1] >= t["p_knock"][0]
    with pytest.raises(ValueError, match="turns"):
        odds.gin_turns(10, 1, turns=20)


@pytest.mark.parametrize("seed", range(12))
def test_draw_odds_equal_brute_force_over_unseen_cards(seed: int) -> None:
    rng = np.random.default_rng(seed)
    deck = list(rl.from_mask(int(rl.dense_hands(1, 16, seed)[0])))
    rng.shuffle(deck)
    hand, seen = deck[:10], deck[10:13]
    d = odds.draw_odds(hand, seen)
    pairs = [(c.rank, c.suit) for c in hand]
    held = {c for c in hand} | set(seen)
    unseen = [c for c in rl.DECK if c not in held]
    now = Oracle(pairs).deadwood()
    after = {c: Oracle(pairs + [(c.rank, c.suit)]).discard_deadwood() for c in unseen}
    assert d.deadwood == now and d.unseen == len(unseen) == 39
    assert dict(d.after_draw) == after
    assert d.improving == {c for c, dw in after.items() if dw < now}
    assert d.knocking == {c for c, dw in after.items() if dw <= 10}
    assert d.gin_cards == {c for c, dw in after.items() if dw == 0}
    assert d.p_improve == len(d.improving) / 39


def test_draw_odds_refuse_bad_input() -> None:
    with pytest.raises(ValueError, match="in the hand and among the seen"):
        odds.draw_odds("AS 2S 3S 7H 7D 7C 9C TC JC KD", "AS")
    with pytest.raises(ValueError, match="wrong hand size"):
        odds.draw_odds("AS 2S 3S")


@pytest.mark.once  # where and in what order chunks run, the same on both backends
def test_dask_local_cluster_gives_the_same_numbers() -> None:
    exact_here = odds.exact_histogram(10, suits=3, ranks=8, chunks=8, progress=False)
    hands = 40_000 if rummylab.BACKEND == "cython" else 8_000  # the same numbers either way: any size shows it
    mc_here = odds.gin_dealt(hands, 5, chunks=4)
    from dask.distributed import Client, LocalCluster

    with LocalCluster(n_workers=2, threads_per_worker=1, host="127.0.0.1", dashboard_address=None) as cluster, \
            Client(cluster) as client:
        assert all(w.startswith("tcp://127.0.0.1:") for w in client.scheduler_info()["workers"])
        exact_dask = odds.exact_histogram(10, suits=3, ranks=8, chunks=8, scheduler=client, progress=False)
        mc_dask = odds.gin_dealt(hands, 5, chunks=4, scheduler=client)
    assert as_dict(exact_dask) == as_dict(exact_here)
    assert mc_dask.equals(mc_here)


@pytest.mark.once  # where and in what order chunks run, the same on both backends
def test_scheduler_dask_string_starts_and_stops_a_local_cluster() -> None:
    h = odds.exact_histogram(7, suits=2, ranks=8, chunks=4, scheduler="dask", workers=2, progress=False)
    assert as_dict(h) == brute_histogram(7, 2, 8)


def test_three_thirteen_monte_carlo_is_within_4_se_of_exact_round_one() -> None:
    """Round 1 (3 cards, one deck) has only C(52, 3) = 22,100 hands: enumerate them exactly."""
    from rummylab import three_thirteen as tt

    hands = list(itertools.combinations(range(52), 3))
    once = np.array([sum(1 << (16 * (c // 13) + c % 13) for c in h) for h in hands], dtype=np.uint64)
    pen = tt.penalty_batch(once, np.zeros_like(once), 1)
    exact_mean, exact_melded = float(pen.mean()), float((pen == 0).mean())
    compiled = rummylab.BACKEND == "cython"  # 11 rounds of search: smaller samples on the Python twin
    mc = odds.three_thirteen_dealt(20_000 if compiled else 1_500, 9, decks=1).row(0, named=True)
    assert mc["round"] == 1 and mc["cards"] == 3
    assert abs(mc["mean_penalty"] - exact_mean) <= 4 * mc["se"]
    assert abs(mc["p_melded"] - exact_melded) <= 4 * mc["se_melded"]
    two = odds.three_thirteen_dealt(2_000 if compiled else 300, 9, decks=2)
    assert two.height == 11 and (two["decks"] == 2).all()
    with pytest.raises(ValueError, match="decks"):
        odds.three_thirteen_dealt(10, 1, decks=4)


@pytest.mark.slow  # 11 rounds of Monte Carlo: a minute on the Python twin
def test_three_deck_monte_carlo_is_within_4_se_of_exact_round_one() -> None:
    """Round 1 from three decks (8 players): every multiset of 3 cards, weighted by its ways."""
    from math import comb

    from rummylab import three_thirteen as tt

    layers: list[list[int]] = [[], [], []]
    ways = []
    for hand in itertools.combinations_with_replacement(range(52), 3):
        masks = [0, 0, 0]
        for c in hand:
            bit = 1 << (16 * (c // 13) + c % 13)
            k = sum(1 for m in masks if m & bit)
            masks[k] |= bit
        for layer, m in zip(layers, masks, strict=True):
            layer.append(m)
        ways.append(np.prod([comb(3, hand.count(c)) for c in set(hand)]))
    once, twice, thrice = (np.array(m, dtype=np.uint64) for m in layers)
    w = np.array(ways, dtype=np.float64)
    assert w.sum() == comb(156, 3)
    pen = tt.penalty_batch(once, twice, 1, tt.Rules(decks=3), thrice)
    exact_mean, exact_melded = float((pen * w).sum() / w.sum()), float(w[pen == 0].sum() / w.sum())
    mc = odds.three_thirteen_dealt(20_000, 9, decks=3).row(0, named=True)
    assert abs(mc["mean_penalty"] - exact_mean) <= 4 * mc["se"]
    assert abs(mc["p_melded"] - exact_melded) <= 4 * mc["se_melded"]
