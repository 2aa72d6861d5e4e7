"""Indian rummy's game-equity tables (rummylab.indian.equity): a pool game's chance is the fixed
point of one deal, a deals game's the sum over the deals left (held to a brute-force sum over
two deals); fair at an even score; shipped for the presets."""

from __future__ import annotations

import itertools

import pytest

from rummylab.indian import equity
from rummylab.indian.rules import BRIEF, DEFAULT, Rules


@pytest.mark.parametrize(("rules", "pool"), [(DEFAULT, 101), (BRIEF, 201)])
def test_a_pool_game_is_the_fixed_point_of_one_deal(rules: Rules, pool: int) -> None:
    dist = equity.deal_results(rules)
    assert sum(dist.values()) == pytest.approx(1) and min(dist) > 0 and max(dist) <= 80
    for mine, theirs in ((0, 0), (30, 75), (90, 12), (pool - 2, pool - 2)):
        again = sum(0.5 * q * (equity.pool_win_chance(rules, pool, mine, theirs + x)
                               + equity.pool_win_chance(rules, pool, mine + x, theirs)) for x, q in dist.items())
        assert equity.pool_win_chance(rules, pool, mine, theirs) == pytest.approx(again, abs=1e-12)
        assert (equity.pool_win_chance(rules, pool, mine, theirs) + equity.pool_win_chance(rules, pool, theirs, mine)
                == pytest.approx(1))
    assert equity.pool_win_chance(rules, pool, 0, 0) == pytest.approx(0.5)
    assert equity.pool_win_chance(rules, pool, pool + 5, 3) == 0.0
    assert equity.pool_win_chance(rules, pool, 3, pool + 5) == 1.0
    chances = [equity.pool_win_chance(rules, pool, 40, b) for b in range(0, pool, 5)]
    assert chances == sorted(chances)  # the more the other has, the better


def test_a_deals_game_is_a_brute_force_sum_over_the_deals_left() -> None:
    dist = equity.deal_results(DEFAULT)
    for lead in (-30, 0, 7, 61):
        total = 0.0
        for (x1, q1), (x2, q2), (w1, w2) in itertools.product(dist.items(), dist.items(), itertools.product((1, -1),
                                                                                                           repeat=2)):
            end = lead + 2 * (w1 * x1 + w2 * x2)
            total += 0.25 * q1 * q2 * (1.0 if end > 0 else 0.5 if end == 0 else 0.0)
        assert equity.deals_win_chance(DEFAULT, 3, 2, lead) == pytest.approx(total, abs=1e-12)
    assert equity.deals_win_chance(DEFAULT, 6, 6, 0) == pytest.approx(0.5)
    assert [equity.deals_win_chance(DEFAULT, 2, 0, d) for d in (-1, 0, 1)] == [0.0, 0.5, 1.0]


def test_rules_with_no_results_are_named() -> None:
    other = Rules(cap=60)
    assert equity.has_results(DEFAULT) and not equity.has_results(other)
    with pytest.raises(ValueError, match="no deal results are shipped for Rules"):
        equity.pool_win_chance(other, 101, 0, 0)
    with pytest.raises(ValueError, match="4 deals left of 3"):
        equity.deals_win_chance(DEFAULT, 3, 4, 0)
