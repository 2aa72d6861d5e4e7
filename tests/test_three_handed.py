"""Three-handed gin in the box: roles, rotation, team scoring, simulations."""

from __future__ import annotations

import dataclasses
import json

import pytest
from conftest import soak

from rummylab import gin, play
from rummylab.gin import THREE_HANDED
from rummylab.gin import game as g
from rummylab.gin import three_handed as th
from rummylab.gin.bots import GreedyBot, RandomBot, StrongBot

R = th.Roles(box="P1", captain="P2", sitting_out="P3")


def test_next_roles() -> None:
    assert th.next_roles(R, "box_won") == th.Roles(box="P1", captain="P3", sitting_out="P2", dealer="P1")
    assert th.next_roles(R, "box_lost") == th.Roles(box="P2", captain="P3", sitting_out="P1", dealer="P2")
    assert th.next_roles(R, "draw") == R and R.dealer == "P1"
    with pytest.raises(ValueError, match="'won'"):
        th.next_roles(R, "won")  # type: ignore[arg-type]


def test_roles_are_checked() -> None:
    with pytest.raises(ValueError, match="three different players"):
        th.Roles(box="P1", captain="P1", sitting_out="P3")
    with pytest.raises(ValueError, match="the box deals"):
        th.Roles(box="P1", captain="P2", sitting_out="P3", dealer="P2")
    with pytest.raises(ValueError, match="three different players"):
        th.new_game(("A", "B"))


def test_draw_for_roles_is_seeded() -> None:
    a, b = th.draw_for_roles(["A", "B", "C"], 4), th.draw_for_roles(["A", "B", "C"], 4)
    assert a == b and {a.box, a.captain, a.sitting_out} == {"A", "B", "C"}


def test_three_handed_preset() -> None:
    assert (THREE_HANDED.gin_bonus, THREE_HANDED.undercut_bonus, THREE_HANDED.big_gin_bonus) == (25, 10, None)


def test_sitter_advice_is_a_legal_hint_for_the_captain() -> None:
    s = th.new_game(seed=2)
    bots = {p: GreedyBot(i) for i, p in enumerate(s.players)}
    advised = 0
    while not s.hands:
        hint = th.sitter_advice(s)
        if s.hand.to_play == 1:
            assert hint in th.legal_actions(s)
            advised += 1
        else:
            assert hint is None
        s = th.apply(s, bots[s.to_play].act(s.hand))
    assert advised > 0


SIM_HANDS = soak(2000)
"""Hands per simulation test (benchmarks/soak.py plays more)."""


@pytest.mark.slow
def test_games_keep_every_invariant() -> None:
    """SIM_HANDS hands: the sitter never scores, the box deals every hand, dead hands keep the roles,
    scores add up, replay gives the same game."""
    hands, seed = 0, 0
    kinds = [GreedyBot, StrongBot, GreedyBot]
    while hands < SIM_HANDS:
        players = ("P1", "P2", "P3")
        bots = {p: kinds[(seed + i) % 3](seed * 3 + i) for i, p in enumerate(players)}
        s = th.new_game(players, seed=seed)
        while not s.over:
            if s.hand.phase is g.Phase.FIRST_UPCARD and s.hand.turns == 0 and not s.hand.passes:
                assert s.hand.dealer == 0  # seat 0 is the box
            before = dict(s.scores)
            sitter = s.roles.sitting_out
            s = th.apply(s, bots[s.to_play].act(s.hand))
            # the sitter's hand points are nil; only the game bonus may reach him, as the leader at the end
            bonus = s.rules.game_bonus if s.over and s.winner == sitter else 0
            assert s.scores[sitter] - before[sitter] == bonus
        totals = dict.fromkeys(players, 0)
        for prev, nxt in zip(s.hands, s.hands[1:], strict=False):
            assert nxt.roles == th.next_roles(prev.roles, prev.result)
        for h in s.hands:
            assert h.scorer != h.roles.sitting_out
            assert h.scorer in (None, h.roles.box, h.roles.captain)
            if h.result == "draw":
                assert h.scorer is None and h.points == 0
            else:
                totals[h.scorer] += h.points  # type: ignore[index]
        totals[s.winner] += s.rules.game_bonus  # type: ignore[index]
        assert totals == s.scores
        assert th.replay(json.loads(json.dumps(th.history_json(s)))).scores == s.scores
        hands += len(s.hands)
        seed += 1


def test_random_players_only_make_legal_moves() -> None:
    s = th.new_game(seed=9)
    bots = {p: RandomBot(i) for i, p in enumerate(s.players)}
    for _ in range(400):
        a = bots[s.to_play].act(s.hand)
        assert a in th.legal_actions(s)
        s = th.apply(s, a)
    with pytest.raises(g.IllegalAction):
        th.apply(s, g.Action("discard", None)) if s.hand.phase is not g.Phase.DISCARD else th.apply(s, g.PASS)


def test_simulate() -> None:
    df = th.simulate(3, seed=1)
    assert {"box", "captain", "sitting_out", "scorer", "result"} <= set(df.columns)
    assert (df["scorer"] != df["sitting_out"]).all()


def test_a_tie_is_a_drawn_hand_in_the_box() -> None:
    """undercut_on_tie=False: a tie scores 0 and is no hand won: the box neither stays as a
    winner (the others would swap) nor loses; the roles stay, as for a dead hand."""
    from rummylab.cards import Card, parse_cards

    rules = dataclasses.replace(gin.THREE_HANDED, undercut_on_tie=False)
    s = th.new_game(rules=rules, seed=1)
    k, d = (sum(c.bit for c in parse_cards(h)) for h in ("AS 2S 3S 7H 7D 7C 9C TC JC 4D KC",
                                                        "5S 6S 7S QH QD QS 2H 3H 4H 4C"))
    hand = play.evolve(s.hand, phase=g.Phase.DISCARD, to_play=0, hands=(k, d), taken=None)
    after = th.apply(play.evolve(s, hand=hand), g.Action("knock", Card.parse("KC")))
    (summary,) = after.hands
    assert (summary.kind, summary.result, summary.scorer, summary.points) == ("tie", "draw", None, 0)
    assert after.roles == s.roles and set(after.scores.values()) == {0}
