"""Three Thirteen's game-equity table (rummylab.three_thirteen.equity): the fixed point of one round,
held to a brute-force sum over the last two rounds; fair at an even score; shipped for the presets."""

from __future__ import annotations

import itertools

import pytest

from rummylab.three_thirteen import equity
from rummylab.three_thirteen.rules import ACE_HIGH, DEFAULT, Rules


@pytest.mark.parametrize("rules", [DEFAULT, ACE_HIGH])
def test_the_table_is_the_fixed_point_of_one_round(rules: Rules) -> None:
    dist = equity.round_results(rules)
    assert set(dist) == set(range(1, 12)) and all(sum(d.values()) == pytest.approx(1) for d in dist.values())
    assert [equity.win_chance(rules, 12, x) for x in (-3, 0, 3)] == [0.0, 0.5, 1.0]
    for r in (1, 6, 11):
        for x in (-40, -7, 0, 5, 33):
            again = sum(q * equity.win_chance(rules, r + 1, x + g) for g, q in dist[r].items())
            assert equity.win_chance(rules, r, x) == pytest.approx(again, abs=1e-12)
            assert equity.win_chance(rules, r, x) + equity.win_chance(rules, r, -x) == pytest.approx(1)
        chances = [equity.win_chance(rules, r, x) for x in range(-60, 61)]
        assert chances == sorted(chances) and chances[60] == pytest.approx(0.5)


def test_the_last_two_rounds_are_a_brute_force_sum() -> None:
    dist = equity.round_results(DEFAULT)
    for lead in (-12, -1, 0, 4, 20):
        total = 0.0
        for (g10, q10), (g11, q11) in itertools.product(dist[10].items(), dist[11].items()):
            end = lead + g10 + g11
            total += q10 * q11 * (1.0 if end > 0 else 0.5 if end == 0 else 0.0)
        assert equity.win_chance(DEFAULT, 10, lead) == pytest.approx(total, abs=1e-12)


def test_rules_with_no_results_and_bad_rounds_are_named() -> None:
    assert equity.has_results(DEFAULT) and not equity.has_results(Rules(min_non_wild=1))
    with pytest.raises(ValueError, match="no round results are shipped for Rules"):
        equity.round_results(Rules(min_non_wild=1))
    with pytest.raises(ValueError, match="round 13: 1 to 12"):
        equity.win_chance(DEFAULT, 13, 0)
