"""Knock scoring: every row of the scoring table in docs/rules.md, layoffs, ties, invalid knocks."""

from __future__ import annotations

from itertools import combinations

import numpy as np
import pytest
from oracle import oracle_deadwood

import rummylab as rl
from rummylab import gin

# knocker: AS 2S 3S | 7H 7D 7C | 9C TC JC, deadwood 4D = 4
KNOCKER = "AS 2S 3S 7H 7D 7C 9C TC JC 4D"


def test_knock_scores_the_difference() -> None:
    r = gin.score_knock(KNOCKER, "KS QH JD 8S 6H 5D 2C 3C 9H 4H")
    assert r.valid and r.kind == "knock"
    assert r.knocker_deadwood == 4
    # defender lays off nothing useful? 4S extends AS-2S-3S (not held); 8C/QC none. 2C 3C no meld.
    assert r.defender_deadwood == 10 + 10 + 10 + 8 + 6 + 5 + 2 + 3 + 9 + 4
    assert (r.knocker_points, r.defender_points) == (r.defender_deadwood - 4, 0)


def test_undercut_scores_bonus_plus_difference() -> None:
    # defender: 5S 6S 7S | QH QD QS | 2H 3H 4H | AD: deadwood 1 < 4
    r = gin.score_knock(KNOCKER, "5S 6S 7S QH QD QS 2H 3H 4H AD")
    assert r.kind == "undercut" and (r.knocker_points, r.defender_points) == (0, 25 + 3)
    c = gin.score_knock(KNOCKER, "5S 6S 7S QH QD QS 2H 3H 4H AD", gin.CLASSIC)
    assert c.defender_points == 10 + 3


@pytest.mark.parametrize(("tie_is_undercut", "kind", "points"), [(True, "undercut", (0, 25)), (False, "tie", (0, 0))])
def test_tie_rule_both_ways(tie_is_undercut: bool, kind: str, points: tuple[int, int]) -> None:
    # defender deadwood 4 after melding: 4C alone
    r = gin.score_knock(KNOCKER, "5S 6S 7S QH QD QS 2H 3H 4H 4C", gin.Rules(undercut_on_tie=tie_is_undercut))
    assert r.defender_deadwood == 4 == r.knocker_deadwood
    assert r.kind == kind and (r.knocker_points, r.defender_points) == points


TIE_DEFENDER = "5S 6S 7S QH QD QS 2H 3H 4H 4C"


def _tied_hand(rules: gin.Rules) -> gin.game.State:
    """Player 0 knocks with KNOCKER (discarding KC) against TIE_DEFENDER: deadwood 4 each."""
    from rummylab.cards import parse_cards
    from rummylab.play import evolve

    k, d = (sum(c.bit for c in parse_cards(h)) for h in (KNOCKER + " KC", TIE_DEFENDER))
    s = evolve(gin.game.new_game(rules, seed=1), phase=gin.game.Phase.DISCARD, to_play=0, hands=(k, d), taken=None)
    return gin.game.apply(s, gin.game.Action("knock", rl.cards.Card.parse("KC")))


def test_a_tie_the_knocker_does_not_win_is_no_hand_won() -> None:
    """undercut_on_tie=False: the knocker scores 0 and nobody wins the hand (no box bonus)."""
    s = _tied_hand(gin.Rules(undercut_on_tie=False))
    rec = s.records[-1]
    assert (rec.kind, rec.winner, rec.points, rec.knocker) == ("tie", None, 0, 0)
    assert s.hands_won == (0, 0) and s.scores == (0, 0)
    assert _tied_hand(gin.DEFAULT).records[-1].winner == 1  # the default: an undercut


def test_gin_scores_bonus_and_allows_no_layoffs() -> None:
    knocker = "AS 2S 3S 7H 7D 7C 9C TC JC QC"   # gin, and 4S / 8C / KC would lay off
    r = gin.score_knock(knocker, "4S 8C KC 5H 5D 2H 3D 6S 9S 9H")
    assert r.kind == "gin" and r.layoffs == ()
    assert r.defender_deadwood == 4 + 8 + 10 + 5 + 5 + 2 + 3 + 6 + 9 + 9
    assert r.knocker_points == 25 + r.defender_deadwood
    assert gin.score_knock(knocker, "4S 8C KC 5H 5D 2H 3D 6S 9S 9H", gin.CLASSIC).knocker_points == 20 + 61


def test_big_gin_scores_31_and_no_layoffs() -> None:
    knocker = "AS 2S 3S 4S 5H 5D 5C 9C 9D 9H 9S"
    r = gin.score_knock(knocker, "5S 6S 2H 3H KD QD JD 8C 7C 6C")
    assert r.kind == "big_gin" and r.layoffs == ()
    assert r.knocker_points == 31 + r.defender_deadwood
    bad = gin.score_knock(knocker, "5S 6S 2H 3H KD QD JD 8C 7C 6C", gin.CLASSIC)
    assert not bad.valid and "big gin is not played" in bad.reason


def test_layoff_chain_onto_a_run_and_a_fourth_card_on_a_set() -> None:
    knocker = "5H 6H 7H KS KD KC 2C 3C 4C AD"   # deadwood 1
    r = gin.score_knock(knocker, "8H 9H KH 2S 2D 6D 7D QS JS TS")
    assert {str(c) for c in r.layoffs} == {"8H", "9H", "KH"}
    # left: 2S 2D 6D 7D and the run? QS JS TS is a run: 2+2+6+7 = 17
    assert r.defender_deadwood == 17 and r.knocker_points == 16


def test_chain_needs_every_link() -> None:
    knocker = "5H 6H 7H KS KD KC 2C 3C 4C AD"
    r = gin.score_knock(knocker, "9H TH 2S 2D 6D 7D QS JS TS 3S")  # no 8H: 9H cannot go
    assert r.layoffs == ()


def test_defender_prefers_own_meld_or_layoff_whichever_is_lower() -> None:
    knocker = "5H 6H 7H KS KD KC 2C 3C 4C AD"
    # the set 8H 8S 8D leaves 9H TH (48); the run 8H 9H TH, or laying it off, leaves 8S 8D (45)
    r = gin.score_knock(knocker, "8H 9H TH 8S 8D 2D 4D QS JS 3S")
    assert r.defender_deadwood == 8 + 8 + 2 + 4 + 10 + 10 + 3


def test_knocker_shows_the_arrangement_best_for_him() -> None:
    # 7C can join the sevens or the clubs run; in the run, 8C would lay off
    knocker = "7S 7D 7H 7C 4C 5C 6C AH 2D 3H"
    defender = "8C KS QS JH TD 9S 3D 4D 2H AS"
    r = gin.score_knock(knocker, defender)
    assert r.arrangement_sensitive and r.layoffs == ()
    assert r.knocker_points == 67 - 6
    shown = gin.score_knock(knocker, defender, knocker_melds=["7S 7D 7H", "4C 5C 6C 7C"])
    assert {str(c) for c in shown.layoffs} == {"8C"} and shown.knocker_points == 59 - 6
    assert not shown.arrangement_sensitive


@pytest.mark.parametrize(("knocker", "reason"), [
    ("AS 2S 3S 7H 7D 7C 9C TC QC KD", "over the knock limit"),        # deadwood 30
    ("AS 2S 3S 7H 7D 7C 9C TC JC KD QH", "must all be melded"),        # 11 cards, not big gin
])
def test_invalid_knocks_are_reported_not_scored(knocker: str, reason: str) -> None:
    r = gin.score_knock(knocker, "5S 6S 2H 3H KS QD JD 8D 6C 4H")
    assert not r.valid and reason in r.reason and r.kind is None
    assert (r.knocker_points, r.defender_points) == (0, 0)


def test_knock_limit_option() -> None:
    assert not gin.score_knock(KNOCKER, "KS QH JD 8S 6H 5D 2C 3C 9H 4H", gin.Rules(knock_limit=3)).valid


@pytest.mark.parametrize(("knocker", "defender", "melds", "match"), [
    (KNOCKER, "KS QH JD 8S 6H 5D 2C 3C 9H 4H", ["AS 2S 3S", "7H 7D"], "not a set or a run"),
    (KNOCKER, "KS QH JD 8S 6H 5D 2C 3C 9H 4H", ["AS 2S 3S", "2S 3S 4S"], "4S not in the knocker's hand"),
    (KNOCKER, "KS QH JD 8S 6H 5D 2C 3C 9H 4H", ["AS 7H 7D 7C"], "not a set or a run"),
    (KNOCKER, "KS QH JD 8S 6H 5D 2C 3C 9H AS", None, "AS: in both"),
    (KNOCKER, "KS QH JD 8S 6H 5D 2C 3C 9H", None, "wrong hand size: 9"),
])
def test_bad_score_knock_input(knocker: str, defender: str, melds: list[str] | None, match: str) -> None:
    with pytest.raises(ValueError, match=match):
        gin.score_knock(knocker, defender, knocker_melds=melds)


def attachable(melds: list[list[tuple[int, int]]], cards: list[tuple[int, int]]) -> bool:
    """Greedy closure: can every card be laid off, one after another?"""
    runs = [sorted(m) for m in melds if len({s for _, s in m}) == 1 and len({r for r, _ in m}) == len(m)]
    sets = [m for m in melds if len({r for r, _ in m}) == 1]
    left = list(cards)
    progress = True
    while left and progress:
        progress = False
        for c in list(left):
            r, s = c
            for run in runs:
                if run[0][1] == s and (r == run[0][0] - 1 or r == run[-1][0] + 1):
                    run.append(c)
                    run.sort()
                    left.remove(c)
                    progress = True
                    break
            else:
                for st in sets:
                    if st[0][0] == r and len(st) == 3:
                        st.append(c)
                        left.remove(c)
                        progress = True
                        break
    return not left


def test_defender_deadwood_equals_brute_force_over_every_layoff_subset() -> None:
    rng = np.random.default_rng(11)
    checked = 0
    for deck in (rl.dense_hands(3000, 20, 4)):
        cards = list(rl.from_mask(int(deck)))
        rng.shuffle(cards)
        knocker, defender = cards[:10], cards[10:]
        if gin.deadwood(knocker) > 10 or gin.deadwood(knocker) == 0:
            continue
        r = gin.score_knock(knocker, defender, knocker_melds=[m.cards for m in gin.analyze(knocker).melds])
        melds = [[(c.rank, c.suit) for c in m.cards] for m in r.knocker_melds]
        dpairs = [(c.rank, c.suit) for c in defender]
        best = oracle_deadwood(rl.to_mask(defender))
        for k in range(1, 11):
            for sub in combinations(dpairs, k):
                if attachable([list(m) for m in melds], list(sub)):
                    rest = rl.to_mask([c for c in defender if (c.rank, c.suit) not in sub])
                    best = min(best, oracle_deadwood(rest))
        assert r.defender_deadwood == best, (knocker, defender)
        checked += 1
    assert checked >= 100
