"""Indian rummy game: toss, deal, drops, declarations, pools; thousands of seeded games."""

from __future__ import annotations

import json
from collections import Counter
from itertools import pairwise

import pytest
from conftest import PARTS

import rummylab
from rummylab import indian
from rummylab.cards import DECK, JOKER, parse_cards
from rummylab.indian.bots import GreedyBot, RandomBot, play, simulate
from rummylab.indian.game import (
    DRAW_STOCK,
    DROP,
    MISS_TURN,
    Action,
    IllegalAction,
    Phase,
    State,
    apply,
    history_json,
    legal_actions,
    new_game,
    replay,
)


def _count(cards: list) -> dict[int, int]:
    """How many of each card, keyed by rank and suit as one int (fast to hash and compare)."""
    return dict(Counter([c.rank * 8 + c.suit for c in cards]))


PACK = _count(list(DECK) * 2 + [JOKER] * 2)


def all_cards(s: State) -> dict[int, int]:
    """How many of each card the hands, the stock and the pile hold."""
    return _count([c for h in s.hands for c in h] + list(s.stock) + list(s.discards))


def test_deal() -> None:
    s = new_game(4, seed=3)
    assert all(len(s.hands[p]) == 13 for p in range(4))
    assert all_cards(s) == PACK
    assert s.stock[0] == s.cut  # the cut card lies face up under the stock
    assert s.wild_rank == (0 if s.cut.is_joker else s.cut.rank)
    assert s.to_play == s.seats[0]  # the toss winner plays first


def test_toss_seats_by_the_higher_card_then_suit_order() -> None:
    for seed in range(30):
        s = new_game(5, seed=seed)
        order = "23456789TJQKA"
        key = [(order.index(str(c)[0]), -s.rules.toss_suit_order.index(str(c)[1])) for c in s.toss]
        assert list(s.seats) == sorted(range(5), key=lambda p: key[p], reverse=True)
        assert len(set(s.toss)) == 5  # identical cards were drawn again

    # suit order breaks ties of rank, both ways: S > H > D > C by default, the brief's S > D > C > H
    brief = indian.Rules(toss_suit_order="SDCH")
    for seed in range(300):
        a, b = new_game(6, seed=seed), new_game(6, brief, seed=seed)
        assert a.toss == b.toss  # the same cards are drawn
        ranks = [str(c)[0] for c in a.toss]
        tied = [p for p in range(6) if ranks.count(ranks[p]) > 1]
        if any(str(a.toss[p])[1] in "HD" for p in tied) and a.seats != b.seats:
            for s, order in ((a, "SHDC"), (b, "SDCH")):
                for x, y in pairwise(s.seats):
                    cx, cy = str(s.toss[x]), str(s.toss[y])
                    if cx[0] == cy[0]:
                        assert order.index(cx[1]) < order.index(cy[1])
            return
    raise AssertionError("no toss in 300 seeds where the suit order decides")


def test_a_cut_printed_joker_makes_aces_wild() -> None:
    seeds = [seed for seed in range(400) if new_game(2, seed=seed).cut.is_joker]
    assert seeds
    assert new_game(2, seed=seeds[0]).wild_rank == 0


def _first_drop(pool: int | None) -> State:
    s = new_game(3, seed=1, pool=pool)
    return apply(s, DROP)


@pytest.mark.parametrize("pool, first, middle", [(101, 20, 40), (201, 25, 50), (None, 20, 40)])
def test_drops(pool: int | None, first: int, middle: int) -> None:
    s = new_game(3, seed=1, pool=pool)
    p0 = s.to_play
    s = apply(s, DROP)
    assert s.deal_points[p0] == first and not s.in_deal[p0]
    p1 = s.to_play
    s = apply(s, DRAW_STOCK)
    s = apply(s, Action("discard", s.hands[p1][0]))
    s = apply(s, DRAW_STOCK)  # the third player
    s = apply(s, Action("discard", s.hands[s.to_play][0]))
    assert s.to_play == p1
    s = apply(s, DROP)  # after drawing once: a middle drop, and the last player in wins the deal
    assert s.deal_points[p1] == middle
    assert s.phase in (Phase.DEAL_OVER, Phase.GAME_OVER)
    assert s.winner not in (p0, p1) and s.deal_points[s.winner] == 0


def test_three_missed_turns_are_a_middle_drop() -> None:
    s = new_game(2, seed=4)
    me = s.to_play
    for _ in range(2):
        s = apply(s, MISS_TURN)
        assert s.hands[me] and len(s.hands[me]) == 13
        s = apply(s, DRAW_STOCK)
        s = apply(s, Action("discard", s.hands[s.to_play][-1]))
    s = apply(s, MISS_TURN)
    assert s.deal_points[me] == 40 and s.winner != me


def test_a_player_who_leaves_is_played_by_the_table() -> None:
    s = apply(new_game(3, seed=6), Action("leave"))
    assert legal_actions(s) == [MISS_TURN]
    with pytest.raises(IllegalAction, match="has left"):
        apply(s, DRAW_STOCK)


def test_wrong_show_costs_80_and_play_goes_on() -> None:
    s = new_game(3, seed=8)
    me = s.to_play
    s = apply(s, DRAW_STOCK)
    hand = list(s.hands[me])
    groups = (tuple(hand[0:3]), tuple(hand[3:6]), tuple(hand[6:9]), tuple(hand[9:13]))
    s2 = apply(s, Action("declare", hand[13], groups))
    assert s2.deal_points[me] == 80 and not s2.in_deal[me] and s2.phase is Phase.DRAW
    with pytest.raises(IllegalAction, match="leave out"):
        apply(s, Action("declare", hand[13], groups[:3]))


def test_valid_show_wins_and_losers_pay() -> None:
    for seed in range(200):
        final = play(new_game(2, seed=seed, pool=None), [GreedyBot(seed), GreedyBot(seed + 1, drops=False)])
        if final.shown:
            w = final.winner
            assert final.deal_points[w] == 0
            loser = 1 - w
            want = indian.loser_points(final.hands[loser], "A23456789TJQK"[final.wild_rank]).points
            assert final.deal_points[loser] in (want, 20, 40)
            return
    raise AssertionError("no valid show in 200 games")


def test_bad_actions_name_the_rule() -> None:
    s = new_game(2, seed=1)
    with pytest.raises(IllegalAction, match="draw first"):
        apply(s, Action("discard", s.hands[s.to_play][0]))
    s = apply(s, DRAW_STOCK)
    with pytest.raises(IllegalAction, match="not in the hand"):
        apply(s, Action("discard", parse_cards("JK")[0] if JOKER not in s.hands[s.to_play] else DECK[0]))
    with pytest.raises(ValueError, match="players"):
        new_game(7)
    with pytest.raises(ValueError, match="pool"):
        new_game(2, pool=150)


def _check_invariants(before: State, action: Action, after: State) -> None:
    assert all_cards(after) == PACK  # 106 cards conserved
    rules, pool = after.rules, after.pool
    first, middle = rules.drops(pool)
    if action.kind == "drop" or (action.kind == "miss_turn" and after.deal_points != before.deal_points
                                 and before.phase is Phase.DRAW and after.deal_no == before.deal_no):
        me = before.to_play
        assert after.deal_points[me] == (middle if before.drawn[me] or action.kind == "miss_turn" else first)
    if action.kind == "declare" and not after.shown:
        assert after.deal_points[before.to_play] == rules.wrong_show_points
    if action.kind == "rejoin":
        p = action.player
        assert before.eliminated[p] and not after.eliminated[p]
        others = [before.scores[q] for q in before.remaining]
        assert max(others) <= {101: 79, 201: 174}[pool]
        assert after.scores[p] == max(others) + 1
    if after.phase in (Phase.DEAL_OVER, Phase.GAME_OVER) and before.phase in (Phase.DRAW, Phase.DISCARD):
        assert after.scores == tuple(a + b for a, b in zip(before.scores, after.deal_points, strict=True))
        if pool is not None:  # eliminated on reaching the pool
            assert after.eliminated == tuple(e or v >= pool for e, v in zip(before.eliminated, after.scores,
                                                                               strict=True))
            assert all(0 <= p <= max(rules.cap, rules.wrong_show_points, middle) for p in after.deal_points)


@pytest.mark.slow
@pytest.mark.parametrize("part", range(PARTS))
@pytest.mark.parametrize("pool", [101, 201])
def test_thousands_of_pool_games_keep_the_rules(pool: int, part: int) -> None:
    """1,000 seeded pool games per pool size (every PARTS-th from ``part``), 2-6 players, random
    bots with drops, leaves, missed turns and wrong shows, and greedy ones: invariants after
    every action."""
    eliminated = rejoined = shows = 0
    for g in range(part, 1000, PARTS):
        players = 2 + g % 5
        bots = [GreedyBot(g * 10 + i) if (g % 25 == 0 and i < 2) else RandomBot(g * 10 + i) for i in range(players)]
        s = new_game(players, seed=g, pool=pool)
        for _ in range(20_000):
            if s.phase is Phase.GAME_OVER:
                break
            a = (bots[0] if s.phase is Phase.DEAL_OVER else bots[s.to_play]).act(s)
            after = apply(s, a)
            _check_invariants(s, a, after)
            rejoined += a.kind == "rejoin"
            shows += bool(after.shown) and not s.shown
            s = after
        assert s.phase is Phase.GAME_OVER and len(s.remaining) == 1
        eliminated += sum(s.eliminated)
        if g % 97 == 0:
            assert replay(json.loads(json.dumps(history_json(s)))) .scores == s.scores
    assert eliminated > 1000 // PARTS and rejoined > 10 // PARTS and shows > 10 // PARTS


def test_simulate() -> None:
    n = 6 if rummylab.BACKEND == "cython" else 2  # the greedy bot searches every discard: slow on the twin
    df = simulate(n, players=3, pool=101, bots=["greedy", "random", "greedy"], seed=2)
    assert df.height == n and set(df.columns) >= {"game", "deals", "winner", "score_0"}
    with pytest.raises(ValueError, match="bots"):
        simulate(1, players=3, bots=["greedy"])
