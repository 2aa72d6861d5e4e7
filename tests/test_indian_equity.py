"""Indian rummy's game-equity tables (rummylab.indian.equity): a pool game's chance is the fixed
point of one deal, a deals game's the sum over the deals left (held to a brute-force sum over
two deals); fair at an even score; shipped for the presets. Three players or more: the game played
on from the standings, held to exact sums where they are short."""

from __future__ import annotations

import itertools

import numpy as np
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


@pytest.mark.parametrize("rules", [DEFAULT, BRIEF])
def test_losses_are_shipped_for_three_to_six_players(rules: Rules) -> None:
    for k in equity.PLAYERS_MEASURED:
        dist = equity.losses(rules, k)
        assert sum(dist.values()) == pytest.approx(1) and min(dist) >= 0 and max(dist) <= 80
    assert equity.losses(rules, 2) == equity.deal_results(rules)
    with pytest.raises(ValueError, match="with 7 players"):
        equity.losses(rules, 7)


def test_each_players_chance_is_the_game_played_on() -> None:
    """The players' chances add up to one (the same futures for every seat); a deals game with no
    deal left goes to the most chips (a tie shared); a pool player out has none, the last one in
    has it all; one deal left is held to the exact sum over its winner and what each loser pays."""
    seeds = np.arange(400)
    chips = np.tile([300, 250, 250], (400, 1))
    got = [equity.players_win_chance(DEFAULT, chips, p, seeds, deals_left=3) for p in range(3)]
    np.testing.assert_allclose(sum(got), 1.0, atol=1e-12)
    assert got[0].mean() > 1 / 3 > got[1].mean()
    over = equity.players_win_chance(DEFAULT, np.array([[10, 30, 30], [40, 20, 10]]), 1, np.arange(2), deals_left=0)
    np.testing.assert_allclose(over, [0.5, 0.0])
    pool = equity.players_win_chance(DEFAULT, np.array([[120, 30, 30], [120, 130, 30]]), 0, np.arange(2), pool=101)
    np.testing.assert_allclose(pool, [0.0, 0.0])
    last = equity.players_win_chance(DEFAULT, np.array([[120, 130, 30]]), 2, np.arange(1), pool=101)
    np.testing.assert_allclose(last, [1.0])
    small = {10: 0.5, 40: 0.5}  # each loser pays 10 or 40: the exact sum over one deal is short
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(equity, "losses", lambda rules, k: small)
        start = np.array([100, 80, 60])
        exact = 0.0
        for winner in range(3):
            for paid in itertools.product(small, repeat=2):
                end = start.copy()
                losers = [p for p in range(3) if p != winner]
                for p, x in zip(losers, paid, strict=True):
                    end[p] -= x
                end[winner] += sum(paid)
                top = end == end.max()
                exact += (1 / 3) * 0.25 * (top[0] / top.sum())
        mc = equity.players_win_chance(DEFAULT, np.tile(start, (2000, 1)), 0, np.arange(2000), deals_left=1)
    assert abs(mc.mean() - exact) < 4 * mc.std() / np.sqrt(len(mc)) + 1e-9
    with pytest.raises(ValueError, match="three to six players"):
        equity.players_win_chance(DEFAULT, np.array([[1, 2]]), 0, np.arange(1), deals_left=1)
    with pytest.raises(ValueError, match="a pool game .* or a deals game"):
        equity.players_win_chance(DEFAULT, chips[:1], 0, seeds[:1])
