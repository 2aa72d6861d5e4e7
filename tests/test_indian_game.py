"""Indian rummy game: toss, deal, drops, declarations, pools; thousands of seeded games."""

from __future__ import annotations

import dataclasses
import json
from collections import Counter
from itertools import pairwise

import pytest
from conftest import PARTS, soak

import rummylab
from rummylab import gin, indian
from rummylab.cards import DECK, JOKER, Card, parse_cards
from rummylab.indian.bots import GreedyBot, RandomBot, play, simulate
from rummylab.indian.game import (
    DRAW_DISCARD,
    DRAW_STOCK,
    DROP,
    MISS_TURN,
    NEXT_DEAL,
    Action,
    IllegalAction,
    Phase,
    State,
    apply,
    history_json,
    is_joker,
    legal_actions,
    new_game,
    replay,
)
from rummylab.play import evolve


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


def _toss_key(s: State, c: Card) -> tuple[int, int]:
    if c.is_joker:
        return 13, 0  # a printed joker is the highest toss card
    return "23456789TJQKA".index(str(c)[0]), -s.rules.toss_suit_order.index(str(c)[1])


def test_toss_seats_by_the_higher_card_then_suit_order() -> None:
    jokers = 0
    for seed in range(200):
        s = new_game(5, seed=seed)
        assert list(s.seats) == sorted(range(5), key=lambda p: _toss_key(s, s.toss[p]), reverse=True)
        assert len(set(s.toss)) == 5  # identical cards were drawn again
        jokers += JOKER in s.toss
        if JOKER in s.toss:
            assert s.toss[s.seats[0]] == JOKER
        # without jokers in the toss pack (toss_jokers=False) no joker is ever drawn
        assert JOKER not in new_game(5, indian.Rules(toss_jokers=False), seed=seed).toss
    assert jokers > 0

    # suit order breaks ties of rank, both ways: S > H > D > C by default, the brief's S > D > C > H
    brief = indian.BRIEF
    assert brief.toss_suit_order == "SDCH"
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


A23 = indian.Rules(leaver="drop_after_missed")


def test_three_missed_turns_are_a_middle_drop_under_drop_after_missed() -> None:
    s = new_game(2, A23, seed=4)
    me = s.to_play
    for _ in range(2):
        s = apply(s, MISS_TURN)
        assert s.hands[me] and len(s.hands[me]) == 13
        s = apply(s, DRAW_STOCK)
        s = apply(s, Action("discard", s.hands[s.to_play][-1]))
    s = apply(s, MISS_TURN)
    assert s.deal_points[me] == 40 and s.winner != me


def _turn(s: State) -> State:
    """The player to act draws from the stock and throws the card drawn."""
    s = apply(s, DRAW_STOCK)
    return apply(s, Action("discard", s.hands[s.to_play][-1]))


@pytest.mark.parametrize("pool, first", [(101, 20), (201, 25)])
def test_autoplay_inactive_from_the_start_is_a_first_drop(pool: int, first: int) -> None:
    s = new_game(3, seed=6, pool=pool)
    me = s.to_play
    s = apply(s, Action("leave"))
    assert legal_actions(s) == [MISS_TURN, indian.game.RECONNECT]
    with pytest.raises(IllegalAction, match="has left"):
        apply(s, DRAW_STOCK)
    s = apply(s, MISS_TURN)
    assert s.deal_points[me] == first and not s.in_deal[me]
    assert s.hands[me] == () and all_cards(s) == PACK  # the dropped cards are in the stock


def test_autoplay_mid_deal_plays_twenty_turns_then_scores_the_hand() -> None:
    s = new_game(2, seed=5, pool=None)
    me = s.to_play
    s = _turn(s)  # me plays one turn, then goes away
    s = _turn(s)
    hand = s.hands[me]
    for k in range(19):  # the table draws and throws the same card: the hand never changes
        s = apply(s, MISS_TURN)
        assert s.hands[me] == hand and s.in_deal[me] and s.missed[me] == k + 1
        s = _turn(s)
    pile = len(s.discards)
    s = apply(s, MISS_TURN)  # the 20th turn the table plays (a draw and a throw), then the hand is scored
    assert len(s.discards) == pile + 1 and s.hands[me] == hand
    want = min(80, indian.loser_points(hand, "A23456789TJQK"[s.wild_rank]).points)
    assert s.deal_points[me] == want and s.phase is Phase.GAME_OVER and s.winner != me


def test_a_player_who_leaves_can_reconnect_with_the_same_hand() -> None:
    s = new_game(2, seed=7, pool=None)
    me = s.to_play
    s = _turn(_turn(s))
    s = apply(s, Action("leave"))
    hand = s.hands[me]
    s = _turn(apply(s, MISS_TURN))
    s = _turn(apply(s, MISS_TURN))
    s = apply(s, indian.game.RECONNECT)
    assert not s.left[me] and s.missed[me] == 0 and s.hands[me] == hand
    s = apply(s, DRAW_STOCK)  # the player plays their own turn again
    assert len(s.hands[me]) == 14
    with pytest.raises(IllegalAction, match="only a player who has left"):
        apply(new_game(2, seed=7), indian.game.RECONNECT)


def _top_joker(players: int = 2, rules: indian.Rules = indian.DEFAULT) -> tuple[State, State]:
    """A game whose first upcard is a joker, and one where a joker lies on top later."""
    first = later = None
    for seed in range(2000):
        s = new_game(players, rules, seed=seed, pool=None)
        if first is None and indian.game.is_joker(s, s.discards[-1]):
            first = s
        if later is None:
            s = apply(s, DRAW_STOCK)
            jokers = [c for c in s.hands[s.to_play] if indian.game.is_joker(s, c)]
            if jokers:
                later = apply(s, Action("discard", jokers[0]))
        if first is not None and later is not None:
            return first, later
    raise AssertionError("no joker upcard in 2000 seeds")


def test_a_joker_is_never_taken_from_the_pile_except_the_first_upcard() -> None:
    first, later = _top_joker()
    assert DRAW_DISCARD in legal_actions(first)  # the first upcard on the first player's first turn
    apply(first, DRAW_DISCARD)
    assert DRAW_DISCARD not in legal_actions(later)
    with pytest.raises(IllegalAction, match="never taken from the discard pile"):
        apply(later, DRAW_DISCARD)
    # the second player may not take the first upcard either, once the first has passed it by dropping
    three, _ = _top_joker(players=3)
    with pytest.raises(IllegalAction, match="joker"):
        apply(apply(three, DROP), DRAW_DISCARD)
    # the other way: with joker_from_discard=True a thrown joker may be taken
    first, later = _top_joker(rules=indian.Rules(joker_from_discard=True))
    apply(later, DRAW_DISCARD)


def test_dropped_cards_into_the_stock_or_aside() -> None:
    s = new_game(3, seed=1, pool=101)
    me = s.to_play
    hand = s.hands[me]
    into = apply(s, DROP)
    assert into.hands[me] == () and len(into.stock) == len(s.stock) + 13
    assert Counter(into.stock) == Counter(s.stock + hand) and into.stock[0] == s.cut
    aside = apply(new_game(3, indian.Rules(dropped_cards_to_stock=False), seed=1, pool=101), DROP)
    assert aside.hands[me] == hand and aside.stock == s.stock


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
    with pytest.raises(IllegalAction, match="a drop comes before the draw"):
        apply(s, DROP)  # the rule, not what else to do
    assert DROP not in legal_actions(s)
    with pytest.raises(IllegalAction, match="not in the hand"):
        apply(s, Action("discard", parse_cards("JK")[0] if JOKER not in s.hands[s.to_play] else DECK[0]))
    with pytest.raises(ValueError, match="players"):
        new_game(7)
    with pytest.raises(ValueError, match="pool"):
        new_game(2, pool=150)


def _check_invariants(before: State, action: Action, after: State) -> None:
    rules, pool = after.rules, after.pool
    if after.deal_no == before.deal_no:  # every card is accounted for, dropped hands too
        assert sum(map(len, after.hands)) + len(after.stock) + len(after.discards) == 106
        if action.kind in ("drop", "miss_turn", "declare") or len(after.history) % 16 == 0:
            assert all_cards(after) == PACK
    first, middle = rules.drops(pool)
    me = before.to_play
    if action.kind == "draw_discard" and is_joker(before, before.discards[-1]) and not rules.joker_from_discard:
        assert len(before.discards) == 1 and not any(before.drawn)  # only the first upcard, first turn
    left_deal = before.phase is Phase.DRAW and after.deal_no == before.deal_no and not after.in_deal[me] \
        and before.in_deal[me]
    if action.kind == "drop" or (action.kind == "miss_turn" and left_deal):
        if action.kind == "drop" or rules.leaver == "drop_after_missed" or not before.drawn[me]:
            drawn = before.drawn[me] or (action.kind == "miss_turn" and rules.leaver == "drop_after_missed")
            assert after.deal_points[me] == (middle if drawn else first)
            assert (after.hands[me] == ()) == rules.dropped_cards_to_stock
        else:  # autoplay ran out: the hand is scored as a loser
            assert before.missed[me] + 1 == rules.autoplay_turns
            assert after.deal_points[me] <= rules.cap
    if action.kind == "declare" and not after.shown:
        assert after.deal_points[me] == rules.wrong_show_points
    if action.kind == "rejoin":
        p = action.player
        assert before.eliminated[p] and not after.eliminated[p] and before.players > 2
        assert rules.max_rejoins is None or before.rejoins[p] < rules.max_rejoins
        others = [before.scores[q] for q in before.remaining]
        assert max(others) <= {101: 79, 201: 174}[pool]
        assert after.scores[p] == max(others) + 1
    if after.phase in (Phase.DEAL_OVER, Phase.GAME_OVER) and before.phase in (Phase.DRAW, Phase.DISCARD):
        assert after.scores == tuple(a + b for a, b in zip(before.scores, after.deal_points, strict=True))
        assert all(0 <= p <= max(rules.cap, rules.wrong_show_points, middle) for p in after.deal_points)
        if pool is not None:  # eliminated on reaching the pool (or passing it)
            out = (lambda v: v >= pool) if rules.elimination == "reach" else (lambda v: v > pool)
            assert after.eliminated == tuple(e or out(v) for e, v in zip(before.eliminated, after.scores, strict=True))
        if after.deals is not None:  # chips move from the losers to the deal's winner
            assert sum(after.chips) == sum(before.chips) and min(after.chips) >= 0
            w = after.winner
            assert all(after.chips[p] == before.chips[p] - min(before.chips[p], after.deal_points[p])
                       for p in range(after.players) if p != w)


FORMATS = {"points": {"pool": None}, "pool101": {"pool": 101}, "pool201": {"pool": 201},
           "deals": {"pool": None, "deals": 3}}
VARIANTS = (indian.DEFAULT, indian.BRIEF,
            indian.Rules(joker_from_discard=True, dropped_cards_to_stock=False, leaver="drop_after_missed",
                         max_rejoins=1, toss_jokers=False))
"""The defaults, the brief, and every new option the other way."""


@pytest.mark.slow
@pytest.mark.parametrize("part", range(PARTS))
@pytest.mark.parametrize("fmt", FORMATS)
def test_thousands_of_games_keep_the_rules(fmt: str, part: int) -> None:
    """``soak(600)`` seeded games per format (every PARTS-th from ``part``), 2-6 players, three rule
    sets, random bots with drops, leaves, reconnects, missed turns and wrong shows, and greedy
    ones: invariants after every action (no forbidden joker pick-up, every card accounted for)."""
    games = soak(600)
    eliminated = rejoined = shows = autoplayed = 0
    for g in range(part, games, PARTS):
        players = 2 + g % 5
        greedy = g // PARTS % 20 == 0  # a few games with two greedy bots, for valid shows
        bots = [GreedyBot(g * 10 + i) if greedy and i < 2 else RandomBot(g * 10 + i) for i in range(players)]
        rules = VARIANTS[g % 3]
        if not fmt.startswith("pool") and rules.max_rejoins is not None:  # a pool rule: refused elsewhere
            rules = dataclasses.replace(rules, max_rejoins=None)
        s = new_game(players, rules, seed=g, **FORMATS[fmt])
        for _ in range(20_000):
            if s.phase is Phase.GAME_OVER:
                break
            a = (bots[0] if s.phase is Phase.DEAL_OVER else bots[s.to_play]).act(s)
            after = apply(s, a)
            _check_invariants(s, a, after)
            rejoined += a.kind == "rejoin"
            shows += bool(after.shown) and not s.shown
            autoplayed += a.kind == "miss_turn" and s.drawn[s.to_play] and s.rules.leaver == "autoplay"
            s = after
        assert s.phase is Phase.GAME_OVER and s.game_winner is not None or fmt == "points"
        if fmt.startswith("pool"):
            assert len(s.remaining) == 1
        eliminated += sum(s.eliminated)
        if g % 97 == 0:
            assert replay(json.loads(json.dumps(history_json(s)))).scores == s.scores
    assert shows > 10 // PARTS and autoplayed > 10, (shows, autoplayed)
    if fmt.startswith("pool"):
        assert eliminated > games // PARTS and rejoined > 10 // PARTS


@pytest.mark.parametrize("players, rejoins", [(2, 0), (3, 1), (4, 1)])
def test_rejoin_needs_more_than_two_players(players: int, rejoins: int) -> None:
    s = new_game(players, seed=3, pool=101)
    s = evolve(s, phase=Phase.DEAL_OVER, scores=(101,) + (60,) * (players - 1),
               eliminated=(True,) + (False,) * (players - 1))
    offered = [a for a in legal_actions(s) if a.kind == "rejoin"]
    assert len(offered) == rejoins
    if rejoins:
        s = apply(s, offered[0])
        assert s.scores[0] == 61 and s.buy_ins[0] == 2 and not s.eliminated[0]
        s = evolve(s, scores=(101,) + s.scores[1:], eliminated=(True,) + s.eliminated[1:])
        assert any(a.kind == "rejoin" for a in legal_actions(s))  # again: each re-buy is charged
        once = evolve(s, rules=indian.Rules(max_rejoins=1))
        assert not any(a.kind == "rejoin" for a in legal_actions(once))
        too_high = evolve(s, scores=(101, 80) + s.scores[2:])
        assert not any(a.kind == "rejoin" for a in legal_actions(too_high))  # 80 > 79


def _between_deals(players: int, scores: tuple[int, ...], **changes: object) -> State:
    """A pool game between deals with these totals (eliminated: at 101 or more)."""
    s = new_game(players, seed=3, pool=101)
    return evolve(s, phase=Phase.DEAL_OVER, scores=scores, eliminated=tuple(v >= 101 for v in scores), **changes)


def test_no_rejoin_once_the_game_is_decided() -> None:
    """One player left has won: nobody re-joins (more than two must play, the re-joiner with
    at least two still in the pool), whatever the seats; the greedy table finishes the game."""
    for players in (3, 4, 6):
        s = _between_deals(players, (101,) * (players - 1) + (60,))
        assert legal_actions(s) == [indian.game.FINISH]
        with pytest.raises(IllegalAction, match="at least two players still in the pool"):
            apply(s, Action("rejoin", player=0))
        assert GreedyBot(0).act(s) == indian.game.FINISH
    # with two still in the pool (three play after the re-join) it is offered, as before
    assert Action("rejoin", player=0) in legal_actions(_between_deals(3, (101, 60, 60)))
    assert not indian.pool_status({"A": 101, "B": 120, "C": 60}).can_rejoin
    assert indian.pool_status({"A": 101, "B": 70, "C": 60}).can_rejoin


def test_greedy_pool_games_end_with_their_winner() -> None:
    for seed in range(3):
        bots = [GreedyBot(seed), RandomBot(seed + 1), RandomBot(seed + 2)]
        s = new_game(3, seed=seed, pool=101)
        while s.phase is not Phase.GAME_OVER:
            if s.phase is Phase.DEAL_OVER and len(s.remaining) == 1:
                assert legal_actions(s) == [indian.game.FINISH]
            s = apply(s, (bots[0] if s.phase is Phase.DEAL_OVER else bots[s.to_play]).act(s))


@pytest.mark.parametrize("state, player, rule", [
    (_between_deals(3, (101, 60, 60), pool=None), 0, "only pool rummy has re-joins"),
    (_between_deals(3, (101, 60, 60)), 1, "player 1 is still in the pool"),
    (_between_deals(3, (101, 60, 60)), 7, "player 7: no such player"),
    (_between_deals(3, (101, 60, 60), rules=indian.Rules(max_rejoins=1), rejoins=(1, 0, 0)), 0,
     "re-joined 1 time: max_rejoins=1"),
    (_between_deals(3, (101, 80, 60)), 0, "80 points, above 79"),
    (_between_deals(3, (101, 101, 60)), 0, "at least two players still in the pool"),
    (_between_deals(2, (101, 60)), 0, "at least two players still in the pool"),
])
def test_a_refused_rejoin_names_its_rule(state: State, player: int, rule: str) -> None:
    with pytest.raises(IllegalAction, match=rule):
        apply(state, Action("rejoin", player=player))
    assert Action("rejoin", player=player) not in legal_actions(state)


def test_elimination_on_reaching_or_passing_the_pool() -> None:
    assert indian.DEFAULT.eliminated(101, 101) and not indian.BRIEF.eliminated(101, 101)
    assert indian.BRIEF.eliminated(102, 101) and indian.BRIEF.eliminated(202, 201)
    assert indian.pool_status({"A": 101, "B": 30}).eliminated
    assert not indian.pool_status({"A": 101, "B": 30}, rules=indian.BRIEF).eliminated


def _deals_game(deals: int, seed: int, players: int = 3) -> State:
    bots = [GreedyBot(seed + i) for i in range(players)]
    return play(new_game(players, seed=seed, pool=None, deals=deals), bots)


@pytest.mark.parametrize("deals", [2, 3, 6])
def test_deals_rummy_standings(deals: int) -> None:
    s = _deals_game(deals, seed=deals)
    assert s.phase is Phase.GAME_OVER and s.deal_no >= deals and s.start_chips == 80 * deals
    table = indian.standings(s)
    assert table.height == s.deal_no * s.players
    last = table.filter(table["deal"] == s.deal_no).sort("player")
    assert tuple(last["chips"]) == s.chips and sum(s.chips) == 3 * 80 * deals
    assert s.chips[s.game_winner] == max(s.chips) and s.chips.count(max(s.chips)) == 1
    for d in range(s.deal_no):  # each deal: the winner takes the losers' points in chips
        rows = table.filter(table["deal"] == d + 1).sort("player")
        before = (80 * deals,) * 3 if d == 0 else s.chip_history[d - 1]
        w = s.deal_winners[d]
        assert rows["won"][w] and rows["chips"][w] - before[w] == sum(before[p] - rows["chips"][p]
                                                                        for p in range(3) if p != w)
    assert replay(json.loads(json.dumps(history_json(s)))).chips == s.chips


def test_deals_rummy_tie_plays_on_between_the_tied() -> None:
    s = new_game(3, seed=1, pool=None, deals=2)
    tied = evolve(s, phase=Phase.DEAL_OVER, deal_no=2, chips=(200, 200, 80))
    assert legal_actions(tied) == [NEXT_DEAL]
    s = apply(tied, NEXT_DEAL)
    assert s.deal_no == 3 and s.eliminated == (False, False, True) and s.hands[2] == ()
    clear = evolve(tied, chips=(201, 199, 80))
    assert legal_actions(clear) == [indian.game.FINISH]
    assert apply(clear, indian.game.FINISH).game_winner == 0


def test_bad_formats() -> None:
    with pytest.raises(ValueError, match="deals=4"):
        new_game(2, deals=4)
    with pytest.raises(ValueError, match="no pool"):
        new_game(2, pool=201, deals=2)
    with pytest.raises(ValueError, match="chips"):
        new_game(2, chips=100)
    assert new_game(2, deals=2).pool is None  # the default pool gives way to deals
    with pytest.raises(ValueError, match="missed_turns_drop"):
        indian.Rules(missed_turns_drop=4)  # not used with autoplay: rejected, never ignored
    with pytest.raises(ValueError, match="pool=201 with deals=2"):
        simulate(1, pool=201, deals=2)  # the pool new_game refuses, simulate refuses too
    for options in ({"elimination": "exceed"}, {"max_rejoins": 1}):  # pool rules change nothing elsewhere
        for fmt in ({"pool": None}, {"deals": 2}):
            with pytest.raises(ValueError, match=f"{next(iter(options))}=.* is a pool rummy rule"):
                new_game(2, indian.Rules(**options), **fmt)
            with pytest.raises(ValueError, match=f"{next(iter(options))}="):
                simulate(1, rules=indian.Rules(**options), **fmt)
    assert new_game(2, indian.BRIEF, pool=None).rules is indian.BRIEF  # a preset carries rules for every format
    with pytest.raises(ValueError, match="unknown bot"):
        simulate(1, ["greedy", "strong"])
    with pytest.raises(ValueError, match="Indian rummy needs"):
        new_game(2, gin.Rules())  # type: ignore[arg-type]


def test_simulate() -> None:
    n = 6 if rummylab.BACKEND == "cython" else 1  # the greedy bot searches every discard: slow on the twin
    df = simulate(n, ["greedy", "random", "greedy"], seed=2, pool=101)
    assert df.height == n and set(df.columns) >= {"game", "deals", "winner", "score_0"}
    df = simulate(n, ["greedy", "random", "greedy"], seed=2, deals=2)
    assert (df["deals"] >= 2).all() and set(df.columns) >= {"chips_0", "chips_2"}
    assert (df["chips_0"] + df["chips_1"] + df["chips_2"] == 3 * 160).all()
    with pytest.raises(ValueError, match="bots"):
        simulate(1, ["greedy"])
