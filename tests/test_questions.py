"""The analysts' questions: each estimate lies within 4 standard errors of a long run recorded
here (seed 12345), each answer draws its chart, bad arguments are named."""

from __future__ import annotations

import math

import pytest

from rummylab import questions as q

pytestmark = pytest.mark.once  # plain polars over simulate; the engine == loop check is in test_simulation

LONG_ENDINGS = {  # hand_endings(("greedy", "greedy"), n_games=60_000, seed=12345): turn -> (p, se)
    8: {"knock": (0.21196, 0.00053), "gin": (0.00388, 0.00008)},
    12: {"knock": (0.48708, 0.00064), "gin": (0.00959, 0.00013)},
    16: {"knock": (0.74400, 0.00056), "gin": (0.01521, 0.00016)},
}
LONG_STRONG_GREEDY = {"games_won": (0.60745, 0.00345), "hands_won": (0.48284, 0.00110),
                      "points_per_hand": (1.84224, 0.05088)}  # pairing_results, 20,000 games
LONG_THRESHOLDS = {0: (3.65131, 0.06207), 10: (0.03738, 0.04652)}  # knock_thresholds((0, 10)), 20,000 games
LONG_UNDERCUT_10 = (-1.45448, 0.04287)  # rule_effect("undercut_bonus", [10], thresholds=(2,)), 20,000 games
LONG_UPCARD = {("non-dealer", "take"): (0.48768, 0.13679), ("dealer", "take"): (0.26334, 0.05107),
               ("non-dealer", "greedy"): (0.45479, 0.11887), ("dealer", "greedy"): (0.39567, 0.02955)}  # 60,000
LONG_DEAL_ENDINGS = {"valid show": (0.41047, 0.01213), "wrong show": (0.17668, 0.00939),
                     "drop": (0.36942, 0.01197), "left": (0.04343, 0.00733)}  # greedy vs random, 600 games


def _close(est: float, se: float, long: tuple[float, float]) -> bool:
    return abs(est - long[0]) <= 4 * math.hypot(se, long[1])


@pytest.mark.parametrize("seed", [1, 2])
def test_hand_endings_agree_with_the_long_run(seed: int) -> None:
    table = q.hand_endings(("greedy", "greedy"), n_games=1_500, seed=seed)
    for turn, long in LONG_ENDINGS.items():
        row = table.filter(table["turn"] == turn).row(0, named=True)
        for ending, value in long.items():
            assert _close(row[f"p_{ending}"], row[f"se_{ending}"], value), (turn, ending, row)
    assert table["p_ended"].is_sorted() and table["p_ended"][-1] == pytest.approx(1)
    assert q.chart_hand_endings(table).to_dict()["layer"]


def test_pairing_results_agree_with_the_long_run() -> None:
    table = q.pairing_results([("strong", "greedy")], n_games=1_500, seed=3)
    row = table.row(0, named=True)
    for name, long in LONG_STRONG_GREEDY.items():
        assert _close(row[name], row[f"{name}_se"], long), (name, row)
    assert row["points_lo"] < row["points_per_hand"] < row["points_hi"]
    assert q.chart_pairings(table).to_dict()


def test_knock_thresholds_and_rule_effect_agree_with_the_long_run() -> None:
    table = q.knock_thresholds((0, 10), n_games=1_500, seed=4)
    for row in table.iter_rows(named=True):
        assert _close(row["points_per_hand"], row["points_per_hand_se"], LONG_THRESHOLDS[row["knock_at"]]), row
    assert table["first"].to_list() == ["greedy(knock_at=0)", "greedy(knock_at=10)"]
    assert q.chart_thresholds(table).to_dict()
    effect = q.rule_effect("undercut_bonus", [10, 25], thresholds=(2,), n_games=1_500, seed=5)
    ten = effect.filter(effect["undercut_bonus"] == "10").row(0, named=True)
    assert _close(ten["points_per_hand"], ten["points_per_hand_se"], LONG_UNDERCUT_10)
    assert effect["points_per_hand"].n_unique() == 2
    assert q.chart_thresholds(effect, by="undercut_bonus").to_dict()


def test_first_upcard_value_agrees_with_the_long_run() -> None:
    table = q.first_upcard_value(n_games=3_000, seed=6)
    for row in table.iter_rows(named=True):
        assert _close(row["value"], row["se"], LONG_UPCARD[row["role"], row["policy"]]), row
    assert q.chart_first_upcard(table).to_dict()


def test_indian_deal_endings_agree_with_the_long_run() -> None:
    table = q.deal_endings(2, 60, seed=7, bots=["greedy", "random"])
    for row in table.iter_rows(named=True):
        assert _close(row["share"], row["se"], LONG_DEAL_ENDINGS[row["ending"]]), row
    assert sum(table["share"]) == pytest.approx(1)
    assert q.chart_deal_endings(table).to_dict()


def test_ratio_estimate_is_the_plain_mean_for_one_hand_a_game() -> None:
    import numpy as np

    x = np.array([1, 0, 1, 1, 0, 1, 0, 1])
    est, se = q.ratio_estimate(x, np.ones_like(x))
    assert est == pytest.approx(x.mean()) and se == pytest.approx(x.std(ddof=1) / math.sqrt(len(x)))


@pytest.mark.parametrize(("call", "message"), [
    (lambda: q.rule_effect("undercut", [10]), "unknown rule option 'undercut'"),
    (lambda: q.rule_effect("knock_limit", []), "at least one value"),
    (lambda: q.rule_effect("knock_limit", [200]), "knock_limit=200"),
    (lambda: q.knock_thresholds((3, 120)), "knock_at=120"),
    (lambda: q.knock_thresholds((3,), bot="random"), "bot='random'"),
    (lambda: q.deal_endings(2, 3, bots=["greedy", "genius"]), "unknown bot 'genius'"),
    (lambda: q.deal_endings(2, 3, rules=q.DEFAULT), "needs rummylab.indian.Rules"),
    (lambda: q.hand_endings(("greedy", "genius")), "unknown bot 'genius'"),
    (lambda: q.pairing_results([("strong", "greedy")], n_games=-2), "n_games=-2"),
])
def test_bad_arguments_are_named(call, message: str) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(ValueError, match=message):
        call()


def test_one_pairing_without_polars_is_a_row_of_pairing_results() -> None:
    """``pairing`` (numpy only, for a lesson's kernel) gives ``pairing_results``' row for the same seed."""
    from rummylab import gin, questions

    first = gin.bots.GreedyBot(knock_at=4)
    row = questions.pairing(first, "random", n_games=40, seed=3)
    table = questions.pairing_results([(first, "random")], n_games=40, seed=3).row(0, named=True)
    assert row.keys() == table.keys()
    assert all(row[k] == table[k] if isinstance(row[k], str | int) else abs(row[k] - table[k]) < 1e-9 for k in row)


def test_the_shipped_games_are_the_simulations_they_name() -> None:
    """``gin.sample_games``: game s is simulate's and trace's game of seed s (a few, played again)."""
    from rummylab.gin import sample_games

    assert len(sample_games.shipped()) >= 400
    for seed in (0, 7, 399):
        assert sample_games.game(seed) == sample_games.game_of(seed)
    with pytest.raises(ValueError, match="seeds 0 to 399"):
        sample_games.game(400)
