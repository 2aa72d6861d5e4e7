"""No option is ever ignored: every field of every Rules changes some outcome, or is refused
where it would not be used."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

import polars as pl
import pytest

from rummylab import gin, indian, play, three_thirteen
from rummylab.gin import bots as gin_bots
from rummylab.gin import game as gin_game
from rummylab.gin import three_handed
from rummylab.indian import game as ig
from rummylab.three_thirteen import game as tt_game

Probe = Callable[[Any], Any]

# -- gin ----------------------------------------------------------------------------------

GIN = "AS 2S 3S 4S 5H 6H 7H 8D 9D TD"
BIG_GIN = GIN + " JD"
LOSER = "KC QC JH 9C 7C 5C 3C 2H 4D 6D"
KNOCK_10 = "AS 2S 3S 4H 5H 6H 7D 8D 9D KC"
UNDER_2 = "AH 2H 3H 4C 5C 6C 7S 8S 9S 2D"
KNOCK_2 = "AS 2S 3S 4H 5H 6H 7D 8D 9D 2C"


def _gin_game(rules: gin.Rules, seed: int = 3) -> gin_game.State:
    return gin_bots.play_game([gin_bots.make_bot("greedy", 1), gin_bots.make_bot("greedy", 2)], rules, seed)


def _shutout(rules: gin.Rules) -> tuple[int, int]:
    final = _gin_game(dataclasses.replace(rules, match_games=1))
    return gin_game.game_totals(play.evolve(final, scores=(120, 0), hands_won=(3, 0)))


def _dead_hands(rules: gin.Rules) -> list[str]:
    return [r.kind for seed in range(6) for r in _gin_game(rules, seed).records]


GIN_PROBES: dict[str, tuple[dict[str, Any], dict[str, Any], Probe]] = {
    # field: (base options, the same with the field changed, what it changes)
    "gin_bonus": ({}, {"gin_bonus": 20}, lambda r: gin.score_knock(GIN, LOSER, r).knocker_points),
    "undercut_bonus": ({}, {"undercut_bonus": 10}, lambda r: gin.score_knock(KNOCK_10, UNDER_2, r).defender_points),
    "big_gin_bonus": ({}, {"big_gin_bonus": None}, lambda r: gin.score_knock(BIG_GIN, LOSER, r).valid),
    "undercut_on_tie": ({}, {"undercut_on_tie": False}, lambda r: gin.score_knock(KNOCK_2, UNDER_2, r).kind),
    "knock_limit": ({}, {"knock_limit": 5}, lambda r: gin.score_knock(KNOCK_10, UNDER_2, r).valid),
    "target": ({}, {"target": 50}, lambda r: len(_gin_game(r).records)),
    "game_bonus": ({}, {"game_bonus": 0}, lambda r: gin_game.game_totals(_gin_game(r))),
    "box_bonus": ({}, {"box_bonus": 0}, lambda r: gin_game.game_totals(_gin_game(r))),
    "shutout": ({}, {"shutout": "none"}, _shutout),
    "shutout_bonus": ({"shutout": "flat"}, {"shutout": "flat", "shutout_bonus": 50}, _shutout),
    "dead_hand_stock": ({}, {"dead_hand_stock": 20}, _dead_hands),
    "match_games": ({}, {"match_games": 3}, lambda r: _gin_game(r).phase),
}

# -- Three Thirteen -----------------------------------------------------------------------

TT_PROBES: dict[str, tuple[dict[str, Any], dict[str, Any], Probe]] = {
    "ace_high": ({}, {"ace_high": True}, lambda r: three_thirteen.penalty("QS KS AS 5D", 2, r)),
    "ace_penalty": ({}, {"ace_penalty": 15}, lambda r: three_thirteen.penalty("AS 9D 9H 4C", 2, r)),
    "max_wilds_per_meld": ({}, {"max_wilds_per_meld": 1}, lambda r: three_thirteen.penalty("4S 4H 4D 8C", 2, r)),
    "min_non_wild": ({}, {"min_non_wild": 1}, lambda r: three_thirteen.penalty("3S 3H 3D", 1, r)),
    "decks": ({}, {"decks": 2}, lambda r: len(tt_game.new_game(2, r, seed=1).stock)),
}

# -- Indian rummy -------------------------------------------------------------------------

PURE_ONLY = "AS 2S 3S 5H 9H KD 4C 8C 9D QH JC 6D 2C"  # a pure sequence, no second: row 21
VALID = "AS 2S 3S 4S 5H 6H 7H 9D 9C 9S KD QD JD"


def _seats(r: indian.Rules) -> list[tuple[int, ...]]:
    return [ig.new_game(6, r, seed=s).seats for s in range(60)]


def _tosses(r: indian.Rules) -> list[tuple[Any, ...]]:
    return [ig.new_game(6, r, seed=s).toss for s in range(60)]


def _after_missing(r: indian.Rules, turns: int) -> tuple[int, ...]:
    """Deal points after the first player plays once, then misses ``turns`` turns."""
    s = ig.new_game(2, r, seed=5, pool=None)
    me = s.to_play

    def turn(s: ig.State) -> ig.State:
        s = ig.apply(s, ig.DRAW_STOCK)
        return ig.apply(s, ig.Action("discard", s.hands[s.to_play][-1]))

    s = turn(turn(s))
    for _ in range(turns):
        if s.phase is not ig.Phase.DRAW or s.to_play != me:
            break
        s = ig.apply(s, ig.MISS_TURN)
        if s.phase is ig.Phase.DRAW:
            s = turn(s)
    return s.deal_points


def _missed_at_start(r: indian.Rules) -> tuple[int, ...]:
    return ig.apply(ig.new_game(2, r, seed=5, pool=None), ig.MISS_TURN).deal_points


def _joker_on_top(r: indian.Rules) -> bool:
    for seed in range(500):
        s = ig.apply(ig.new_game(2, r, seed=seed, pool=None), ig.DRAW_STOCK)
        jokers = [c for c in s.hands[s.to_play] if ig.is_joker(s, c)]
        if jokers:
            s = ig.apply(s, ig.Action("discard", jokers[0]))
            return ig.DRAW_DISCARD in ig.legal_actions(s)
    raise AssertionError("no joker in 500 deals")


def _rejoins_offered(r: indian.Rules) -> int:
    s = ig.new_game(3, r, seed=3, pool=101)
    s = play.evolve(s, phase=ig.Phase.DEAL_OVER, scores=(101, 60, 60), eliminated=(True, False, False),
                    rejoins=(1, 0, 0))
    return sum(a.kind == "rejoin" for a in ig.legal_actions(s))


def _wrong_show(r: indian.Rules) -> int:
    s = ig.apply(ig.new_game(3, r, seed=8), ig.DRAW_STOCK)
    hand = list(s.hands[s.to_play])
    groups = (tuple(hand[0:3]), tuple(hand[3:6]), tuple(hand[6:9]), tuple(hand[9:13]))
    return ig.apply(s, ig.Action("declare", hand[13], groups)).deal_points[s.to_play]


IN_PROBES: dict[str, tuple[dict[str, Any], dict[str, Any], Probe]] = {
    "ace_high": ({}, {"ace_high": False}, lambda r: indian.classify_group("QS KS AS", "5", r)),
    "wild_natural_in_pure": ({}, {"wild_natural_in_pure": False},
                             lambda r: indian.classify_group("5S 6S 7S", "7", r)),
    "set_allow_duplicate_suits": ({}, {"set_allow_duplicate_suits": True},
                                  lambda r: indian.classify_group("8S 8S 8H", "5", r)),
    "set_max_size": ({}, {"set_max_size": 5}, lambda r: indian.classify_group("8S 8H 8D 8C JK", "5", r)),
    "max_jokers_per_group": ({}, {"max_jokers_per_group": 1}, lambda r: indian.classify_group("8S JK JK", "5", r)),
    "jokers_only_group": ({"printed_jokers": 4}, {"printed_jokers": 4, "jokers_only_group": False},
                          lambda r: indian.classify_group("JK JK JK", "5", r)),
    "min_life_length": ({}, {"min_life_length": 4}, lambda r: indian.loser_points(VALID, "T", r).points),
    "sequence_max_size": ({}, {"sequence_max_size": 4}, lambda r: indian.classify_group("4H 5H 6H 7H 8H", "9", r)),
    "no_second_life_rule": ({}, {"no_second_life_rule": "exclude_pure"},
                            lambda r: indian.loser_points(PURE_ONLY, "T", r).points),
    "valid_show_points": ({}, {"valid_show_points": 0}, lambda r: indian.loser_points(VALID, "T", r).points),
    "cap": ({}, {"cap": 60}, lambda r: indian.loser_points("KS QH JD 9C KH QD JC 9S KD QC JS 9H 8D", "2", r).points),
    "wrong_show_points": ({}, {"wrong_show_points": 60}, _wrong_show),
    "first_drop": ({}, {"first_drop": 10}, lambda r: r.drops(101)),
    "middle_drop": ({}, {"middle_drop": 30}, lambda r: r.drops(101)),
    "leaver": ({}, {"leaver": "drop_after_missed"}, _missed_at_start),
    "autoplay_turns": ({}, {"autoplay_turns": 2}, lambda r: _after_missing(r, 3)),
    "missed_turns_drop": ({"leaver": "drop_after_missed"}, {"leaver": "drop_after_missed", "missed_turns_drop": 2},
                          lambda r: _after_missing(r, 2)),
    "joker_from_discard": ({}, {"joker_from_discard": True}, _joker_on_top),
    "dropped_cards_to_stock": ({}, {"dropped_cards_to_stock": False},
                               lambda r: len(ig.apply(ig.new_game(3, r, seed=1), ig.DROP).stock)),
    "elimination": ({}, {"elimination": "exceed"}, lambda r: r.eliminated(101, 101)),
    "max_rejoins": ({}, {"max_rejoins": 1}, _rejoins_offered),
    "printed_jokers": ({}, {"printed_jokers": 4}, lambda r: len(ig.new_game(2, r, seed=1).stock)),
    "toss_jokers": ({}, {"toss_jokers": False}, _tosses),
    "toss_suit_order": ({}, {"toss_suit_order": "SDCH"}, _seats),
}

CASES = [(gin.Rules, GIN_PROBES), (three_thirteen.Rules, TT_PROBES), (indian.Rules, IN_PROBES)]


@pytest.mark.parametrize("rules_type, probes", CASES, ids=["gin", "three_thirteen", "indian"])
def test_every_option_has_a_probe(rules_type: type, probes: dict) -> None:
    assert sorted(probes) == sorted(f.name for f in dataclasses.fields(rules_type))


@pytest.mark.parametrize("rules_type, field, base, changed, probe",
                         [(t, f, *v) for t, probes in CASES for f, v in probes.items()],
                         ids=[f"{t.__module__.split('.')[1]}.{f}" for t, probes in CASES for f in probes])
def test_every_option_changes_an_outcome(rules_type: type, field: str, base: dict, changed: dict,
                                         probe: Probe) -> None:
    assert field in changed
    assert probe(rules_type(**base)) != probe(rules_type(**changed))


@pytest.mark.parametrize("rules_type, options, match", [
    (gin.Rules, {"shutout_bonus": 50}, "shutout_bonus=50 is not used"),
    (indian.Rules, {"missed_turns_drop": 2}, "missed_turns_drop=2 is not used"),
    (indian.Rules, {"leaver": "drop_after_missed", "autoplay_turns": 5}, "autoplay_turns=5 is not used"),
])
def test_an_option_another_makes_pointless_is_refused(rules_type: type, options: dict, match: str) -> None:
    with pytest.raises(ValueError, match=match):
        rules_type(**options)


@pytest.mark.parametrize("options", [{"box_bonus": 25}, {"shutout": "double"}, {"match_games": 3}])
def test_three_handed_refuses_what_it_does_not_score(options: dict) -> None:
    rules = dataclasses.replace(gin.THREE_HANDED, **options)
    with pytest.raises(ValueError, match="three-handed gin does not use"):
        three_handed.new_game(rules=rules)
    three_handed.new_game(rules=gin.THREE_HANDED)  # the preset itself is fine


def test_three_handed_uses_target_and_game_bonus() -> None:
    bots = {p: gin_bots.make_bot("greedy", i) for i, p in enumerate(("P1", "P2", "P3"))}

    def final(**options: Any) -> dict[str, int]:
        return three_handed.play_game(bots, dataclasses.replace(gin.THREE_HANDED, **options), seed=2).scores

    assert final() != final(game_bonus=100) and final() != final(target=60)
    assert max(final().values()) < 100 + 31 + 25  # no bonus on top of the last hand (row 34)


def test_presets_that_follow_the_brief() -> None:
    assert (three_thirteen.ACE_HIGH.ace_high, three_thirteen.ACE_HIGH.ace_penalty) == (True, 15)
    b = indian.BRIEF
    assert (b.no_second_life_rule, b.elimination, b.toss_suit_order, b.sequence_max_size) == (
        "exclude_pure", "exceed", "SDCH", 4)
    assert (b.joker_from_discard, b.leaver, b.dropped_cards_to_stock, b.max_rejoins, b.toss_jokers) == (
        False, "autoplay", True, None, True)
    assert (gin.THREE_HANDED.game_bonus, gin.THREE_HANDED.box_bonus, gin.THREE_HANDED.shutout) == (0, 0, "none")


@pytest.mark.parametrize("options", [{"game_bonus": 50}, {"box_bonus": 10}, {"shutout": "none"},
                                     {"shutout": "flat", "shutout_bonus": 70}])
def test_simulate_reports_game_totals_the_game_bonuses_change(options: dict) -> None:
    """gin's simulate plays whole games: each game's totals (with game, box and shutout bonuses)
    are columns, so every game-level option changes the result."""
    bots = ("strong", "random")  # shutouts too
    base = gin_bots.simulate(4, bots, seed=3)
    other = gin_bots.simulate(4, bots, rules=dataclasses.replace(gin.DEFAULT, **options), seed=3)
    assert base.drop("total_0", "total_1").equals(other.drop("total_0", "total_1"))  # the same hands
    assert not base.select("total_0", "total_1").equals(other.select("total_0", "total_1"))
    games = base.group_by("game").agg(pl.col("total_0", "total_1").n_unique())
    assert (games["total_0"] == 1).all() and (games["total_1"] == 1).all()  # one total per game


def test_three_handed_simulate_reports_the_game_bonus() -> None:
    rules = dataclasses.replace(gin.THREE_HANDED, game_bonus=100)
    base, bonus = three_handed.simulate(3, seed=1), three_handed.simulate(3, rules=rules, seed=1)
    totals = [c for c in base.columns if c.startswith("total_")]
    assert totals == ["total_P1", "total_P2", "total_P3"]
    assert base.drop(totals).equals(bonus.drop(totals))
    for g in range(3):
        a, b = (df.filter(pl.col("game") == g).row(0, named=True) for df in (base, bonus))
        assert b[f"total_{a['winner']}"] == a[f"total_{a['winner']}"] + 100


def test_simulate_refuses_a_match() -> None:
    with pytest.raises(ValueError, match="match_games=5"):
        gin_bots.simulate(1, rules=gin.TOURNAMENT)
