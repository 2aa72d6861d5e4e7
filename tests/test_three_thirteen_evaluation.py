"""Three Thirteen discards valued (issue 40, point 4): each discard and going out, from the
player's view only; going out exact."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from rummylab.three_thirteen import equity, game
from rummylab.three_thirteen.evaluation import SIZES, evaluate, options, world
from rummylab.three_thirteen.players import GreedyBot
from rummylab.three_thirteen.rules import Rules

pytestmark = pytest.mark.once  # rollouts on the engine: the compiled run has them


def test_each_discard_is_valued_for_the_player_who_throws_and_sees_only_her_view() -> None:
    s = game.apply(game.new_game(2, seed=3), game.DRAW_STOCK)
    e = evaluate(s, samples=24, seed=1)
    assert {o.action.card for o in e.options} == set(s.hands[s.to_play]) and e.best.diff == 0
    assert all(o.value <= 0 and not o.exact for o in e.options)
    shuffled = world(s, np.random.default_rng(7))
    assert shuffled.hands != s.hands and evaluate(shuffled, samples=24, seed=1) == e
    assert evaluate(s, samples=24, seed=1, horizon="hand") == e  # gin's name for the round
    wild = [c for c in s.hands[s.to_play] if c.rank == s.wild_rank]
    for card in wild:  # a wild card is worth keeping
        assert e.of(game.Action(game.Kind.DISCARD, card)).diff < 0


def test_going_out_is_exact_and_best() -> None:
    for seed in range(100):
        s = game.new_game(2, seed=seed)
        bots = [GreedyBot(np.random.default_rng([seed, p])) for p in range(2)]
        while s.phase not in (game.Phase.ROUND_OVER, game.Phase.GAME_OVER):
            if s.phase is game.Phase.DISCARD and any(a.kind is game.Kind.GO_OUT for a in options(s)):
                e = evaluate(s, samples=4, seed=0)
                assert e.best.action.kind is game.Kind.GO_OUT and e.best.exact and e.best.value == 0
                return
            s = game.apply(s, bots[s.to_play].act(s))
    raise AssertionError("nobody went out in 100 rounds")


def test_effort_goes_to_the_candidates_within_the_budget() -> None:
    """A screen of every option, then the candidates and what ``keep`` names; the others' errors
    only with ``every_diff``; a budget stops the adding of worlds, never the screen."""
    s = game.apply(game.new_game(2, seed=15), game.DRAW_STOCK)
    full = evaluate(s, samples=256, seed=1)
    lean = evaluate(s, samples=256, seed=1, every_diff=False)
    assert all(SIZES.screen <= o.worlds <= 256 for o in full.options + lean.options)
    assert sum(o.worlds for o in lean.options) < sum(o.worlds for o in full.options)
    assert all(o.diff_se <= SIZES.option_se or o.worlds == 256 for o in full.options)
    worst = full.options[-1].action
    kept = evaluate(s, samples=256, seed=1, every_diff=False, keep=[worst])
    assert kept.of(worst).worlds == kept.best.worlds > lean.of(worst).worlds
    rushed = evaluate(s, samples=4096, seed=1, budget_ms=1)
    assert all(o.worlds == SIZES.screen for o in rushed.options)


def test_the_game_horizon_values_the_chance_of_winning_the_game() -> None:
    """``horizon="game"``: each option's chance of winning the game from the totals the round
    leaves (``equity``), going out rolled out too (the others' last turns decide the lead); the
    text shows percentages; three players each on her own; rules with no table are refused."""
    s = game.apply(game.new_game(2, seed=15), game.DRAW_STOCK)
    s = dataclasses.replace(s, scores=(30, 12) if s.to_play else (12, 30))  # she leads by 18 before round 1 ends
    e = evaluate(s, samples=128, seed=1, horizon="game")
    assert e.chance and all(0.0 <= o.value <= 1.0 and not o.exact for o in e.options)
    assert e.best.value > equity.win_chance(s.rules, 2, 0) and "%" in str(e)
    points = evaluate(s, samples=128, seed=1)
    assert e.options[-1].action == points.options[-1].action  # the clear worst discard is worst either way
    three = game.apply(game.new_game(3, seed=2), game.DRAW_STOCK)
    three = dataclasses.replace(three, scores=tuple(40 if p == three.to_play else 0 for p in range(3)))
    behind = evaluate(three, samples=64, seed=1, horizon="game")  # three players: each on her own
    assert behind.chance and all(0.0 <= o.value <= 1.0 for o in behind.options) and behind.best.value < 1 / 3
    with pytest.raises(ValueError, match="no penalties are shipped for .* with 3 players"):
        evaluate(dataclasses.replace(three, rules=Rules(min_non_wild=1)), horizon="game")
    with pytest.raises(ValueError, match="horizon 'season'"):
        evaluate(s, horizon="season")
    other = dataclasses.replace(s, rules=Rules(min_non_wild=1))
    with pytest.raises(ValueError, match="no round results are shipped"):
        evaluate(other, horizon="game")


def test_bad_input_is_named() -> None:
    s = game.new_game(2, seed=3)
    with pytest.raises(ValueError, match="a Three Thirteen decision is a discard"):
        evaluate(s)
    with pytest.raises(ValueError, match="samples=0"):
        evaluate(game.apply(s, game.DRAW_STOCK), samples=0)
    with pytest.raises(ValueError, match="budget_ms=0"):
        evaluate(game.apply(s, game.DRAW_STOCK), budget_ms=0)


def test_a_world_keeps_the_cards_each_opponent_was_seen_to_take() -> None:
    """``State.picked``: a card taken from the pile is known to be held until it is thrown; every
    world leaves it in the taker's hand, and a new round starts with none."""
    s = game.new_game(2, seed=4)
    bots = [GreedyBot(1), GreedyBot(2)]
    while not (s.phase is game.Phase.DISCARD and s.picked[1 - s.to_play]):
        before = s
        s = game.apply(s, game.NEXT_ROUND if s.phase is game.Phase.ROUND_OVER else bots[s.to_play].act(s))
        assert s.phase is not game.Phase.GAME_OVER, "no card taken from the pile in this game"
        if s.phase is game.Phase.DRAW and before.phase is game.Phase.ROUND_OVER:
            assert s.picked == ((), ())
        if before.phase is game.Phase.DISCARD and s.phase is not game.Phase.ROUND_OVER:
            thrown = before.hands[before.to_play]
            assert all(c in thrown for c in s.picked[before.to_play])
    them = 1 - s.to_play
    kept = s.picked[them]
    for seed in range(20):
        w = world(s, np.random.default_rng(seed))
        rest = list(w.hands[them])
        for c in kept:
            rest.remove(c)
        assert sorted(w.hands[them] + w.stock) == sorted(s.hands[them] + s.stock)
