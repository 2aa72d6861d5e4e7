"""Three Thirteen's game-equity table (rummylab.three_thirteen.equity): the fixed point of one round,
held to a brute-force sum over the last two rounds; fair at an even score; shipped for the presets.
Three players or more: each player's chance held to a brute-force sum over the last round."""

from __future__ import annotations

import itertools

import numpy as np
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


@pytest.mark.parametrize("rules", [DEFAULT, ACE_HIGH])
def test_penalties_are_shipped_for_three_to_eight_players(rules: Rules) -> None:
    for k in equity.PLAYERS_MEASURED:
        dist = equity.round_penalties(rules, k)
        assert set(dist) == set(range(1, 12)) and all(sum(d.values()) == pytest.approx(1) for d in dist.values())
        assert all(min(d) == 0 and d[0] >= 1 / k - 0.01 for d in dist.values())  # one goes out each round
        assert equity.rest_of_game(rules, k, 1).sum() == pytest.approx(1)
    with pytest.raises(ValueError, match="with 9 players"):
        equity.round_penalties(rules, 9)


def test_each_players_chance_is_a_brute_force_sum_over_the_last_round() -> None:
    """Before round 11 the chance is a sum over every penalty each player may pay in it (the
    shipped ones, each player on her own), a tie shared; the players' chances add up to one;
    after round 11 the lowest total wins."""
    dist = equity.round_penalties(DEFAULT, 3)[11]
    cut = {x: q for x, q in dist.items() if q > 1e-3}  # the likely penalties (the brute force is cubic)
    small = dict(equity.round_penalties(DEFAULT, 3))
    small[11] = {x: q / sum(cut.values()) for x, q in cut.items()}
    totals = np.array([[50, 50, 50], [40, 55, 70], [90, 20, 21], [0, 120, 121]])
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(equity, "round_penalties", lambda rules, k: small)
        equity.rest_of_game.cache_clear()
        got = [equity.players_win_chance(DEFAULT, 11, totals, seat) for seat in range(3)]
        equity.rest_of_game.cache_clear()
    np.testing.assert_allclose(sum(got), 1.0, atol=1e-12)
    for row, t in enumerate(totals):
        want = [0.0, 0.0, 0.0]
        for paid in itertools.product(small[11].items(), repeat=3):
            q = float(np.prod([p for _, p in paid]))
            end = [t[i] + paid[i][0] for i in range(3)]
            low = [i for i in range(3) if end[i] == min(end)]
            for i in low:
                want[i] += q / len(low)
        np.testing.assert_allclose([g[row] for g in got], want, atol=1e-12)
    assert got[0][0] == pytest.approx(1 / 3)  # level: a third each
    over = equity.players_win_chance(DEFAULT, 12, np.array([[30, 20, 20], [10, 20, 30]]), 1)
    np.testing.assert_allclose(over, [0.5, 0.0])
    with pytest.raises(ValueError, match="three to eight players"):
        equity.players_win_chance(DEFAULT, 11, np.array([[1, 2]]), 0)
