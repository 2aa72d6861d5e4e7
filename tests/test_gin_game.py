"""The gin engine: the first-turn upcard rule, illegal actions, dead hands, game scoring, replay."""

from __future__ import annotations

import json

import pytest
from conftest import soak

import rummylab as rl
from rummylab.cards import FULL_DECK
from rummylab.gin import game as g
from rummylab.gin.bots import GreedyBot, StrongBot, simulate
from rummylab.gin.rules import CLASSIC, DEFAULT, Rules


def test_deal_and_first_turn_flow() -> None:
    s = g.new_game(seed=5)
    assert s.phase is g.Phase.FIRST_UPCARD and s.to_play == 1 - s.dealer
    assert [h.bit_count() for h in s.hands] == [10, 10] and len(s.stock) == 31 and len(s.discards) == 1
    assert g.legal_actions(s) == [g.TAKE_UPCARD, g.PASS]
    s1 = g.apply(s, g.PASS)  # the non-dealer passes: the dealer may take it
    assert s1.phase is g.Phase.FIRST_UPCARD and s1.to_play == s.dealer
    s2 = g.apply(s1, g.PASS)  # both pass: the non-dealer draws from the stock, only
    assert s2.phase is g.Phase.DRAW and s2.to_play == 1 - s.dealer and g.legal_actions(s2) == [g.DRAW_STOCK]
    s3 = g.apply(s2, g.DRAW_STOCK)
    assert s3.phase is g.Phase.DISCARD and s3.hands[s3.to_play].bit_count() == 11


def test_taking_the_upcard_then_the_dealer_plays_a_normal_turn() -> None:
    s = g.new_game(seed=5)
    up = s.upcard
    s = g.apply(s, g.TAKE_UPCARD)
    assert s.phase is g.Phase.DISCARD and s.taken == up
    assert g.Action("discard", up) not in g.legal_actions(s)
    other = next(a for a in g.legal_actions(s) if a.kind == "discard")
    s = g.apply(s, other)
    assert s.phase is g.Phase.DRAW and s.to_play == s.dealer and g.DRAW_DISCARD in g.legal_actions(s)


def _at_discard(seed: int = 5) -> g.State:
    return g.apply(g.apply(g.apply(g.new_game(seed=seed), g.PASS), g.PASS), g.DRAW_STOCK)


def _illegal_cases() -> list[tuple[str, g.State, object, str]]:
    start = g.new_game(seed=5)
    draw = g.apply(g.apply(start, g.PASS), g.PASS)
    disc = _at_discard()
    me = disc.to_play
    not_mine = next(c for c in rl.DECK if not disc.hands[me] & c.bit)
    took = g.apply(start, g.TAKE_UPCARD)
    high = max(disc.hand(me), key=lambda c: c.rank)
    cases = [
        ("discard before drawing", draw, g.Action("discard", draw.hand(draw.to_play)[0]), "draw first"),
        ("draw from the discard pile after both passed", draw, g.DRAW_DISCARD, "both players passed"),
        ("take the upcard after the first turn", draw, g.TAKE_UPCARD, "draw first"),
        ("discard the card just taken", took, g.Action("discard", took.taken), "cannot be discarded"),
        ("knock with the card just taken", took, g.Action("knock", took.taken), "cannot be discarded"),
        ("discard a card not held", disc, g.Action("discard", not_mine), "not in the hand"),
        ("knock over the limit", disc, g.Action("knock", high), "over the knock limit"),
        ("big gin without all melded", disc, g.BIG_GIN, "all 11 cards melded"),
        ("draw twice", disc, g.DRAW_STOCK, "after drawing, discard"),
        ("pass outside the first turn", draw, g.PASS, "draw first"),
        ("next hand while playing", disc, g.NEXT_HAND, "after drawing, discard"),
        ("next game while playing", start, g.NEXT_GAME, "only take the upcard or pass"),
        ("not an action", start, "draw", "not an Action"),
        ("discard with no card", disc, g.Action("discard"), "after drawing"),
    ]
    classic = g.apply(g.apply(g.apply(g.new_game(CLASSIC, seed=5), g.PASS), g.PASS), g.DRAW_STOCK)
    cases.append(("big gin where it is not played", classic, g.BIG_GIN, "not played"))
    return cases


@pytest.mark.parametrize(("name", "state", "action", "rule"), _illegal_cases(),
                         ids=[case[0] for case in _illegal_cases()])
def test_illegal_actions_raise_and_change_nothing(name: str, state: g.State, action: object, rule: str) -> None:
    before = json.dumps(g.history_json(state)), state.hands, state.stock, state.discards, state.phase
    with pytest.raises(g.IllegalAction, match=rule):
        g.apply(state, action)  # type: ignore[arg-type]
    assert (json.dumps(g.history_json(state)), state.hands, state.stock, state.discards, state.phase) == before


def cards_accounted(s: g.State) -> None:
    held = s.hands[0] | s.hands[1]
    pile = sum(c.bit for c in s.stock) + sum(c.bit for c in s.discards)
    n = s.hands[0].bit_count() + s.hands[1].bit_count() + len(s.stock) + len(s.discards)
    assert n == 52 and held | pile == FULL_DECK and not s.hands[0] & s.hands[1]


def check_game(final: g.State) -> None:
    """Points only to the rightful side, scores add up, dead hands redealt by the same dealer."""
    totals = [0, 0]
    for r in final.records:
        if r.kind == "dead":
            assert r.winner is None and r.points == 0
            continue
        res = r.score
        assert res is not None and res.valid
        if r.kind == "undercut":
            assert r.winner == 1 - r.knocker and r.points == res.defender_points and res.knocker_points == 0
        elif r.kind == "tie":  # undercut_on_tie=False: nobody wins the hand
            assert r.winner is None and r.points == 0 and not final.rules.undercut_on_tie
            assert r.deadwoods[0] == r.deadwoods[1]
            continue
        else:
            assert r.winner == r.knocker and r.points == res.knocker_points and res.defender_points == 0
        assert r.deadwoods[r.knocker] <= final.rules.knock_limit
        totals[r.winner] += r.points
    assert tuple(totals) == final.scores and max(final.scores) >= final.rules.target


BOT_PAIRS = [(GreedyBot, GreedyBot), (StrongBot, GreedyBot), (GreedyBot, StrongBot)]


SIM_HANDS = soak(2000)
"""Hands per simulation test (benchmarks/soak.py plays more)."""


@pytest.mark.slow
def test_random_games_keep_every_invariant() -> None:
    """SIM_HANDS hands: cards accounted for at every step, rightful points, dead-hand redeals, replay."""
    hands = 0
    seed = 0
    rules_cycle = [DEFAULT, CLASSIC, Rules(undercut_on_tie=False, knock_limit=7, target=60)]
    while hands < SIM_HANDS:
        pair = BOT_PAIRS[seed % 3]
        bots = [pair[0](seed), pair[1](seed + 1)]
        rules = rules_cycle[seed % 3]
        s = g.new_game(rules, seed)
        dealers = []
        while s.phase not in (g.Phase.GAME_OVER, g.Phase.MATCH_OVER):
            if s.phase is g.Phase.FIRST_UPCARD and not s.passes and s.turns == 0:
                dealers.append((s.dealer, s.records[-1].kind if s.records else None))
            s = g.apply(s, bots[s.to_play].act(s))
            if s.phase is not g.Phase.HAND_OVER or s.records[-1].kind == "dead":
                cards_accounted(s)
        for (d_prev, _), (d_next, last_kind) in zip(dealers, dealers[1:], strict=False):
            assert (d_next == d_prev) == (last_kind == "dead")
        check_game(s)
        assert g.replay(json.loads(json.dumps(g.history_json(s)))) == s
        hands += len(s.records)
        seed += 1


def test_random_legal_play_with_a_random_bot() -> None:
    from rummylab.gin.bots import RandomBot
    for seed in range(30):
        s, bots = g.new_game(seed=seed), [RandomBot(seed), GreedyBot(seed)]
        while s.phase is not g.Phase.HAND_OVER:
            acts = g.legal_actions(s)
            a = bots[s.to_play].act(s)
            assert a in acts
            s = g.apply(s, a)
            cards_accounted(s)


def test_game_totals_bonuses_and_shutout() -> None:
    s = g.new_game(seed=1)
    s = g.replace(s, scores=(104, 0), hands_won=(4, 0))
    assert g.game_totals(s) == ((104 + 4 * 25 + 100) * 2, 0)
    assert g.game_totals(g.replace(s, rules=CLASSIC)) == (104 + 4 * 20 + 100 + 100, 0)
    s2 = g.replace(s, scores=(104, 30), hands_won=(4, 1))
    assert g.game_totals(s2) == (104 + 100 + 100, 30 + 25)


def test_match_play_best_of_three() -> None:
    rules = Rules(target=40, match_games=3)
    s, bots = g.new_game(rules, 3), [GreedyBot(1), GreedyBot(2)]
    while s.phase is not g.Phase.MATCH_OVER:
        s = g.apply(s, bots[s.to_play].act(s))
    assert max(s.games_won) == 2 and 2 <= len(s.game_totals) <= 3


def test_simulate_returns_one_row_per_hand() -> None:
    df = simulate(5, ("greedy", "strong"), seed=3)
    assert df.columns[:4] == ["game", "hand", "winner", "kind"]
    assert df.height >= 5 and set(df["kind"].unique()) <= {"knock", "undercut", "gin", "big_gin", "dead"}
    assert df.equals(simulate(5, ("greedy", "strong"), seed=3))


def test_bad_rules_and_seeds() -> None:
    with pytest.raises(ValueError, match="match_games"):
        Rules(match_games=2)
    with pytest.raises(ValueError, match="shutout"):
        Rules(shutout="triple")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="seed"):
        g.new_game(seed=-1)
    with pytest.raises(ValueError, match="unknown bot"):
        simulate(1, ("greedy", "genius"))


@pytest.mark.parametrize(("upcard", "greedy", "melder"), [("2C", True, False), ("TS", True, True), ("4S", True, True),
                                                          ("KD", False, False)])
def test_a_melder_takes_a_discard_only_into_a_meld(upcard: str, greedy: bool, melder: bool) -> None:
    """Greedy takes any discard that lowers its deadwood; taking only into melds
    (``takes="melds"``, as the EAAI players do), only one that is melded in the hand it leaves."""
    from rummylab.cards import parse_cards, to_mask

    s = _at_discard()
    hand = to_mask(parse_cards("7S 8S 9S 4H 4D 4C KH QD JC 6D"))
    hands = (hand, s.hands[1]) if s.to_play == 0 else (s.hands[0], hand)
    state = g.replace(s, phase=g.Phase.DRAW, passes=0, hands=hands, discards=(*s.discards[:-1], parse_cards(upcard)[0]))
    assert GreedyBot().wants(state) is greedy
    assert GreedyBot(takes="melds").wants(state) is melder
    with pytest.raises(ValueError, match="takes='some'"):
        GreedyBot(takes="some")
