"""Three Thirteen games: checked actions, going out and final turns, scoring, replay."""

from __future__ import annotations

import json
from collections import Counter

import pytest
from conftest import PARTS, soak

import rummylab
from rummylab import three_thirteen as tt
from rummylab.cards import DECK
from rummylab.three_thirteen import game as g
from rummylab.three_thirteen.bots import GreedyBot, PlannerBot, simulate

GAMES = soak(600)
"""Seeded games of the invariants check (benchmarks/soak.py plays more)."""


def test_deal_per_round_and_decks_by_players() -> None:
    s = g.new_game(2, seed=1)
    assert s.decks == 1 and [len(h) for h in s.hands] == [3, 3] and len(s.discards) == 1
    assert len(s.stock) == 52 - 7 and s.to_play == (s.dealer + 1) % 2
    s4 = g.new_game(4, seed=1)
    assert s4.decks == 2 and len(s4.stock) == 104 - 13
    assert g.new_game(3, tt.Rules(decks=1), 1).decks == 1
    s7 = g.new_game(7, seed=1)
    assert s7.decks == 2 and len(s7.stock) == 104 - 7 * 3 - 1
    s8 = g.new_game(8, seed=1)  # round 11 needs 8 * 13 + 1 cards: a third deck
    assert s8.decks == 3 and len(s8.stock) == 156 - 8 * 3 - 1
    with pytest.raises(ValueError, match="need more than 2 deck"):
        g.new_game(8, tt.Rules(decks=2))
    for players in (1, 9):
        with pytest.raises(ValueError, match="2 to 8"):
            g.new_game(players)


def test_three_decks_let_a_hand_hold_three_copies() -> None:
    three = tt.Rules(decks=3)
    assert tt.penalty("7S 7S 7S", 1, three) == 0  # three identical cards are a set
    assert tt.penalty("4H 4H 5H 5H 5H 6H 6H", 5, three) == 5  # two runs beat the set of 5s
    a = tt.analyze("4H 4H 5H 5H 5H 6H 6H", 5, three)
    assert [str(c) for c in a.leftover] == ["5H"] and len(a.melds) == 2
    assert {str(c) for c in tt.going_out_discards("9C 9C 9C 2D 3D 4D 5D KS", 5, three)} == {"KS"}
    with pytest.raises(ValueError, match="7S: duplicate card \\(4 copies in a 3 decks hand"):
        tt.analyze("7S 7S 7S 7S", 2, three)


def test_illegal_actions_raise_and_change_nothing() -> None:
    s = g.new_game(3, seed=4)
    drawn = g.apply(s, g.DRAW_STOCK)
    me = drawn.to_play
    not_mine = next(c for c in DECK if c not in drawn.hands[me])
    cases = [
        (s, g.Action("discard", s.hands[s.to_play][0]), "draw first"),
        (drawn, g.DRAW_STOCK, "discard a card"),
        (drawn, g.Action("discard", not_mine), "not in the hand"),
        (drawn, g.Action("discard"), "discard a card"),
        (s, g.NEXT_ROUND, "draw first"),
        (s, "draw", "not an Action"),
    ]
    if not any(g.can_go_out(drawn, c) for c in drawn.hands[me]):
        cases.append((drawn, g.Action("go_out", drawn.hands[me][0]), "not all melded"))
    for state, action, rule in cases:
        before = json.dumps(g.history_json(state)), state.hands, state.stock, state.discards
        with pytest.raises(g.IllegalAction, match=rule):
            g.apply(state, action)  # type: ignore[arg-type]
        assert (json.dumps(g.history_json(state)), state.hands, state.stock, state.discards) == before


def cards_conserved(s: g.State) -> None:
    held = Counter(c for h in s.hands for c in h) + Counter(s.stock) + Counter(s.discards)
    assert held == Counter(list(DECK) * s.decks)


@pytest.mark.slow
@pytest.mark.parametrize("part", range(PARTS))
def test_full_games_keep_every_invariant(part: int) -> None:
    """Cards conserved at every step; after a player goes out each other player has exactly one
    more turn; round penalties add up to the totals; replay gives the same game (every
    PARTS-th game from ``part``)."""
    for game_no in range(part, GAMES, PARTS):
        # every tenth game: 7 players on two decks, or 8 on three
        players = 2 + game_no % 3 if game_no % 10 else 7 + game_no // 10 % 2
        kinds = [GreedyBot, PlannerBot] if game_no // PARTS % 5 == 0 else [GreedyBot]  # 1 in 20, every part
        bots = [kinds[i % len(kinds)](game_no * 7 + i) for i in range(players)]
        s = g.new_game(players, tt.Rules(ace_high=game_no % 4 == 1), seed=game_no)
        turns_after: list[int] | None = None
        while s.phase is not g.Phase.GAME_OVER:
            acting, phase = s.to_play, s.phase
            action = bots[s.to_play].act(s)
            s = g.apply(s, action)
            if game_no % 25 == 0:
                cards_conserved(s)
            if action.kind == "go_out":
                assert turns_after is None
                turns_after = []
            elif action.kind == "discard" and turns_after is not None:
                turns_after.append(acting)
            if s.phase in (g.Phase.ROUND_OVER, g.Phase.GAME_OVER) and phase is g.Phase.DISCARD:
                if turns_after is not None:
                    assert sorted(turns_after) == sorted(set(turns_after)) and len(turns_after) == players - 1
                    assert s.round_scores[-1][s.went_out] == 0
                turns_after = None
        assert len(s.round_scores) == 11
        assert tuple(sum(r[p] for r in s.round_scores) for p in range(players)) == s.scores
        if game_no % 50 == 0:
            assert g.replay(json.loads(json.dumps(g.history_json(s)))).scores == s.scores


def test_simulate_rows() -> None:
    # the planner tries every unseen card: on the Python twin that takes minutes, so greedy there
    bots = ("greedy", "planner") if rummylab.BACKEND == "cython" else ("greedy", "greedy")
    df = simulate(2, bots, seed=3)
    assert df.height == 2 * 11 * 2 and set(df["bot"].unique()) == set(bots)
    assert df.equals(simulate(2, bots, seed=3))
