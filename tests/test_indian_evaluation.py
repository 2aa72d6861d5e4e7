"""Indian rummy decisions valued (issue 40, point 4): drop or play on, each discard, declare;
from the player's view only; exact where it can be."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from rummylab.hidden import HOLD_WEIGHT, Seen
from rummylab.indian import equity, game
from rummylab.indian.evaluation import evaluate, opponents, options, world
from rummylab.indian.players import GreedyBot
from rummylab.indian.puzzles import declaring_discards

pytestmark = pytest.mark.once  # rollouts on the engine: the compiled run has them


def test_drop_or_play_on_at_the_first_draw() -> None:
    s = game.new_game(2, seed=5, pool=101)
    e = evaluate(s, samples=24, seed=1)
    drop = e.of(game.DROP)
    assert drop.exact and drop.value == -s.rules.drops(101)[0] and drop.se == 0
    on = e.of(game.DRAW_STOCK)
    assert not on.exact and on.se > 0 and on.label == "play on, drawing from the stock"
    assert game.DRAW_DISCARD in game.legal_actions(s)  # the open card may be taken: play on either way
    assert e.best.diff == 0 and {o.label for o in e.options} == {
        "drop", "play on, drawing from the stock", "play on, taking the discard"}
    assert e == evaluate(s, samples=24, seed=1)  # the same for a seed
    taken = e.of(game.DRAW_DISCARD)  # taking the open card is valued as itself, not as a stock draw
    assert e.played(game.DRAW_DISCARD) == (taken.label, taken.value, taken.diff_se)


def test_a_middle_drop_costs_its_points_once_she_has_drawn() -> None:
    """At her second draw a drop is a middle drop (40 in a 101 pool), exact; playing on is valued
    by rollouts."""
    s = game.new_game(2, seed=5, pool=101)
    bots = [GreedyBot(np.random.default_rng([5, p]), drops=False) for p in range(2)]
    me = s.to_play
    while not (s.to_play == me and s.phase is game.Phase.DRAW and s.drawn[me]):
        s = game.apply(s, bots[s.to_play].act(s))
    e = evaluate(s, samples=24, seed=1)
    drop = e.of(game.DROP)
    assert drop.exact and drop.value == -s.rules.drops(101)[1] == -40 and drop.se == 0
    assert not e.of(game.DRAW_STOCK).exact


def test_the_evaluation_sees_only_the_players_view() -> None:
    """Deal the cards she cannot see otherwise (the same cards): the same evaluation."""
    s = game.apply(game.new_game(2, seed=8, pool=None), game.DRAW_STOCK)
    shuffled = world(s, np.random.default_rng(99))
    assert shuffled.hands[s.to_play] == s.hands[s.to_play] and shuffled.hands != s.hands
    assert evaluate(shuffled, samples=8, seed=3) == evaluate(s, samples=8, seed=3)


def test_a_valid_declaration_is_the_best_option_and_exact() -> None:
    for seed in range(200):
        s = game.new_game(2, seed=seed, pool=None)
        bots = [GreedyBot(np.random.default_rng([seed, p]), drops=False) for p in range(2)]
        while s.phase is not game.Phase.DEAL_OVER:
            if s.phase is game.Phase.DISCARD and declaring_discards(s.hands[s.to_play], s.wild_rank):
                e = evaluate(s, samples=4, seed=0)
                assert e.best.action.kind is game.Kind.DECLARE and e.best.exact and e.best.value == 0
                assert all(o.value <= 0 for o in e.options)
                return
            s = game.apply(s, bots[s.to_play].act(s))
    raise AssertionError("no declaration in 200 deals")


def test_bad_input_is_named() -> None:
    s = game.new_game(2, seed=5, pool=101)
    with pytest.raises(ValueError, match="samples=1"):
        evaluate(s, samples=1)
    with pytest.raises(ValueError, match="budget_ms=-5"):
        evaluate(s, budget_ms=-5)
    over = replace(s, phase=game.Phase.DEAL_OVER)
    with pytest.raises(ValueError, match="phase deal_over"):
        options(over)


def test_a_discard_is_valued_for_the_player_who_throws() -> None:
    """The printed joker is worth keeping: throwing it loses clearly against the best discard (a
    rollout counted for the next player instead would not see it)."""
    from rummylab.cards import JOKER

    s = game.apply(game.new_game(2, seed=5, pool=101), game.DRAW_STOCK)
    assert JOKER in s.hands[s.to_play]
    e = evaluate(s, samples=32, seed=1)
    joker = e.of(game.Action(game.Kind.DISCARD, JOKER))
    assert joker.diff < -2 * joker.diff_se and e.best.action.card != JOKER


def test_a_world_keeps_the_cards_each_opponent_was_seen_to_take() -> None:
    """``State.picked``: a card taken from the pile is known to be held until it is thrown; every
    world leaves it in the taker's hand and deals only the unseen rest again."""
    s = game.new_game(2, seed=3, pool=None)
    bots = [GreedyBot(np.random.default_rng([3, p]), drops=False) for p in range(2)]
    while not any(s.picked[p] for p in range(2) if p != s.to_play) or s.phase is not game.Phase.DRAW:
        before = s
        s = game.apply(s, bots[s.to_play].act(s))
        assert s.phase is not game.Phase.DEAL_OVER, "no card taken from the pile in this deal"
        if before.phase is game.Phase.DRAW and s.taken is not None:  # a pile draw is seen
            assert s.picked[before.to_play] == (*before.picked[before.to_play], s.taken)
    them = 1 - s.to_play
    kept = s.picked[them]
    assert all(c in s.hands[them] for c in kept)
    for seed in range(20):
        w = world(s, np.random.default_rng(seed))
        rest = list(w.hands[them])
        for c in kept:
            rest.remove(c)  # each copy seen taken is still there
        assert sorted(w.hands[them] + w.stock) == sorted(s.hands[them] + s.stock)
    dealt = game.apply(game.new_game(2, seed=3, pool=None), game.DRAW_STOCK)
    assert dealt.picked == ((), ())


def test_worlds_weigh_what_each_opponent_took_threw_and_left() -> None:
    """``State.discarded`` and ``declined`` follow each player's throws and the discards she left
    to draw from the stock (a new deal starts with none); a world deals an opponent more of the
    cards that meld with what she took, and fewer of those near what she threw or left, than
    dealing them alike would (``hidden.hold_weight``)."""
    s = game.new_game(2, seed=3, pool=None)
    bots = [GreedyBot(np.random.default_rng([3, p]), drops=False) for p in range(2)]
    while s.phase is not game.Phase.DRAW or not all(s.picked[p] and s.discarded[p] for p in range(2)):
        before = s
        s = game.apply(s, bots[s.to_play].act(s))
        assert s.phase is not game.Phase.DEAL_OVER, "no card taken from the pile by both in this deal"
        me = before.to_play
        if before.phase is game.Phase.DISCARD and s.discards[:-1] == before.discards:  # thrown
            assert s.discarded[me] == (*before.discarded[me], s.discards[-1])
        if before.phase is game.Phase.DRAW and s.taken is None and before.discards:  # the stock drawn
            assert s.declined[me] == (*before.declined[me], before.discards[-1])
    them = 1 - s.to_play
    seen = opponents(s)
    unseen = sorted(set(s.hands[them]) | set(s.stock[1:]))
    hold = dict(zip(unseen, seen.weights(them, unseen), strict=True))
    up, down = [c for c in unseen if hold[c] > HOLD_WEIGHT], [c for c in unseen if hold[c] < HOLD_WEIGHT]
    assert up and down

    def share(cards: list, draw) -> float:
        return float(np.mean([sum(c in draw(seed).hands[them] for c in cards) for seed in range(200)]))

    plain = Seen((), (), (), lambda a, b: False)  # nothing seen: every card alike
    weighed = {i: world(s, np.random.default_rng(i), seen) for i in range(200)}
    alike = {i: world(s, np.random.default_rng(i), plain) for i in range(200)}
    assert share(up, weighed.__getitem__) > share(up, alike.__getitem__)
    assert share(down, weighed.__getitem__) < share(down, alike.__getitem__)
    assert world(s, np.random.default_rng(5)) == weighed[5]  # opponents(s) by default
    new = game.new_game(2, seed=3, pool=None)
    dealt = game.apply(new, game.DRAW_STOCK)
    assert dealt.discarded == ((), ()) and dealt.declined[new.to_play] == (new.discards[-1],)


def test_the_game_horizon_values_the_chance_of_winning_a_pool_or_deals_game() -> None:
    """``horizon="game"``: each option's chance of winning the game from the scores or chips the
    deal leaves (``equity``); a drop costs the chance its points do; three players by the game
    played on; points rummy (one deal) or rules with no table are refused."""
    s = replace(game.new_game(2, seed=5, pool=101), scores=(60, 60))
    e = evaluate(s, samples=64, seed=1, horizon="game")
    assert e.chance and all(0.0 <= o.value <= 1.0 for o in e.options)
    drop = e.of(game.DROP)
    assert drop.value == pytest.approx(equity.pool_win_chance(s.rules, 101, 60 + 20, 60)) and drop.se < 1e-9
    deals = evaluate(game.new_game(2, seed=5, pool=None, deals=2), samples=64, seed=1, horizon="game")
    assert deals.of(game.DROP).value < deals.best.value and "%" in str(deals)
    with pytest.raises(ValueError, match="a points rummy game is one deal"):
        evaluate(game.new_game(2, seed=5, pool=None), horizon="game")
    three = game.new_game(3, seed=5, pool=101)
    three = replace(three, scores=tuple(90 if p == three.to_play else 0 for p in range(3)))
    behind = evaluate(three, samples=32, seed=1, horizon="game")  # three players: the game played on
    assert behind.chance and all(0.0 <= o.value <= 1.0 for o in behind.options)
    ahead = evaluate(replace(three, scores=tuple(90 - s for s in three.scores)), samples=32, seed=1, horizon="game")
    assert behind.best.value < 1 / 3 < ahead.best.value
    chips = evaluate(game.new_game(4, seed=5, pool=None, deals=2), samples=32, seed=1, horizon="game")
    assert chips.chance and chips.of(game.DROP).value < chips.best.value
    with pytest.raises(ValueError, match="no deal results are shipped for Rules"):
        evaluate(replace(three, rules=replace(three.rules, cap=60)), horizon="game")
    with pytest.raises(ValueError, match="no deal results are shipped"):
        evaluate(replace(s, rules=replace(s.rules, cap=60)), horizon="game")
