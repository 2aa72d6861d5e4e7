"""Indian rummy odds: the exact chance of a dealt pure sequence, and the Monte Carlo beside it."""

from __future__ import annotations

from itertools import combinations

import pytest

import rummylab
from rummylab import indian, odds
from rummylab.odds.pure_sequence import _suit_without_run


@pytest.mark.parametrize("ace_high", [True, False])
def test_suit_count_equals_brute_force(ace_high: bool) -> None:
    cards = [(r, copy) for r in range(13) for copy in range(2)]
    ways = _suit_without_run(ace_high)
    for k in range(6):
        n = 0
        for hand in combinations(cards, k):
            held = {r for r, _ in hand}
            line = sorted(held | ({13} if ace_high and 0 in held else set()))
            n += not any({q, q + 1, q + 2} <= set(line) for q in line)
        assert ways[k] == n


def test_monte_carlo_is_within_four_standard_errors_of_exact() -> None:
    table = odds.indian_dealt(20_000 if rummylab.BACKEND == "cython" else 2_000, seed=4)  # the twin is slow
    row = dict(zip(table["statistic"], zip(table["estimate"], table["se"], strict=True), strict=True))
    est, se = row["p_pure_sequence"]
    assert abs(est - float(odds.p_pure_sequence())) < 4 * se
    assert row["p_two_lives"][0] <= est
    assert 0 < row["mean_loser_points"][0] <= indian.DEFAULT.cap


def test_monte_carlo_is_reproducible_and_the_same_on_threads() -> None:
    n = 3_000 if rummylab.BACKEND == "cython" else 500
    a = odds.indian_dealt(n, seed=9)
    b = odds.indian_dealt(n, seed=9, chunks=8, workers=2, scheduler=None)
    assert a.equals(b)
