"""Judging gin decisions: a rollout from any state plays the engine's moves; worlds come from the
player's view only and are drawn with their exact probabilities; rollouts agree with exact
enumeration on small endgames; known positions are valued as they should be; bad input is named."""

from __future__ import annotations

import dataclasses
import itertools
import json
from collections import Counter

import numpy as np
import polars as pl
import pytest

from rummylab import gin
from rummylab.cards import BIT_CARD, DECK, mask_cards, parse_cards, to_mask
from rummylab.gin import DEFAULT, bots, equity, evaluation, game, worlds
from rummylab.gin import game_review as review
from rummylab.gin.evaluation import Evaluation, OptionValue, evaluate
from rummylab.gin.game import Action, Kind, Phase, State
from rummylab.gin.players import GreedyBot, StrongBot
from rummylab.gin.rollout import STATE_COLUMNS, play_out, rollout, state_row, with_hidden
from rummylab.sim import play_loops

COMPILED = play_loops() is not None
needs_compiled = pytest.mark.skipif(not COMPILED, reason="needs the compiled loop (make test builds it)")


def mid_hand(seed: int, moves: int, bots: tuple = (GreedyBot(0), StrongBot(0))) -> State:
    """A dealt hand played ``moves`` actions on (fewer if it ends), at a decision."""
    s = game.new_game(DEFAULT, seed)
    for _ in range(moves):
        nxt = game.apply(s, bots[s.to_play].act(s))
        if nxt.phase not in (Phase.FIRST_UPCARD, Phase.DRAW, Phase.DISCARD):
            break
        s = nxt
    return s


def position(hand: str, theirs: str, stock: str, pile: str, *, picked: str = "", phase: Phase = Phase.DISCARD,
             rules: game.Rules = DEFAULT) -> State:
    """Player 0 to act with ``hand``; the opponent holds ``theirs`` (``picked`` of them taken from
    the pile); ``stock`` top card last; ``pile`` top card last, over every other card."""
    named = to_mask(hand) | to_mask(theirs) | to_mask(stock) | to_mask(pile)
    under = tuple(c for c in DECK if not c.bit & named)
    return State(rules=rules, seed=0, phase=phase, dealer=1, to_play=0, hands=(to_mask(hand), to_mask(theirs)),
                 stock=parse_cards(stock), discards=under + parse_cards(pile), picked_up=(0, to_mask(picked)),
                 turns=10)


@pytest.mark.once
@needs_compiled
@pytest.mark.parametrize("pair", [("greedy", "greedy"), ("strong", "greedy"), ("strong", "strong"),
                                  ("random", "strong"), ("expert", "greedy"), ("expert", "expert"),
                                  ("greedy", "greedy@0"), ("strong@5", "greedy@3")])
def test_rollout_from_mid_hand_states_is_the_engines(pair: tuple[str, str]) -> None:
    """From 40 mid-hand states (and 20 of them after a hand where one player knocked late, which
    the expert reads: ``expert.shown``), each legal first action: the compiled rollout ends every
    hand as the engine does (winner, points, ending, knocker, the turns it took, both deadwoods),
    drawing bots included."""
    states = [mid_hand(seed, moves) for seed in range(10) for moves in (0, 1, 6, 15)]
    states += [dataclasses.replace(s, records=(game.HandRecord(kind="knock", winner=i % 2, points=9, knocker=i % 2,
                                                               deadwoods=(5, 14), turns=12),))
               for i, s in enumerate(states[:20])]
    cases = [(s, a) for s in states for a in game.legal_actions(s)[:4]]
    rows = np.stack([state_row(s) for s, _ in cases])
    loop = rollout(rows, [a for _, a in cases], pair, states[0],
                   tuple(np.random.default_rng(7 + i) for i in range(2)))
    rngs = tuple(np.random.default_rng(7 + i) for i in range(2))
    for i, (s, a) in enumerate(cases):
        end = play_out(s, a, pair, rngs).records[-1]
        got = (loop.winner[i], loop.points[i], loop.kind[i], loop.knocker[i], loop.turns[i], loop.deadwood_0[i],
               loop.deadwood_1[i])
        want = (-1 if end.winner is None else end.winner, end.points, ("knock", "undercut", "gin", "big_gin", "dead",
                                                                        "tie").index(end.kind),
                -1 if end.knocker is None else end.knocker, end.turns, *end.deadwoods)
        assert got == want, (i, str(a))


@pytest.mark.once
@needs_compiled
def test_a_bad_state_row_is_refused_by_the_loop() -> None:
    s = mid_hand(1, 3)
    row = state_row(s)
    first = STATE_COLUMNS.index("stock_0")
    row[first] = row[first + 1]  # a card twice
    with pytest.raises(ValueError, match="no hand in play"):
        rollout(np.stack([state_row(s), row]), [None, None], ("greedy", "greedy"), s)
    short = state_row(s)  # every card once, but a hand of nine: moved to the stock's bottom
    card = int(short[STATE_COLUMNS.index("hand_0")]) & -int(short[STATE_COLUMNS.index("hand_0")])
    short[STATE_COLUMNS.index("hand_0")] &= ~card
    n = int(short[STATE_COLUMNS.index("n_stock")])
    short[first + 1:first + n + 1] = short[first:first + n].copy()
    short[first], short[STATE_COLUMNS.index("n_stock")] = card.bit_length() - 1, n + 1
    with pytest.raises(ValueError, match="row 0 is no hand in play .*wrong size"):
        rollout(short[None, :], [None], ("greedy", "greedy"), s)


def test_worlds_are_drawn_with_their_exact_probabilities() -> None:
    """On a late hand with four unseen cards, the frequencies of 20,000 sampled worlds' hidden
    cards are the enumerated probabilities (under the view model, weights unequal)."""
    s = position("AS 2S 3S 4H 5H 6H 9C 9D KS QD", "7S 8S 7C 8C JD JS JC 2D 3D 5C", "4D 6D TC", "KH",
                 picked="7S 8S 7C 8C JD JS JC 2D", phase=Phase.DRAW)
    exact = worlds.enumerate_worlds(s, "view")
    p = Counter()
    for h, q in zip(exact.hands, exact.probability, strict=True):
        p[int(h)] += q
    assert len(p) == 10 and len(set(np.round(list(p.values()), 9))) > 1  # C(5, 2) hands, not all alike
    n = 20_000
    drawn = Counter(int(h) for h in worlds.sample(s, n, np.random.default_rng(3), "view").hands)
    for h, q in p.items():
        assert abs(drawn[h] / n - q) < 4 * (q * (1 - q) / n) ** 0.5 + 1e-9, mask_cards(h)


@pytest.mark.once  # the pure-Python run draws only here
@pytest.mark.skipif(play_loops() is None, reason="needs the compiled loop (make test builds it)")
def test_the_compiled_loop_draws_the_same_worlds() -> None:
    """``worlds.sample`` in the compiled loop (``gin_worlds``) and here: the same worlds from the
    same uniforms, the generator left in the same state, under every model."""
    for seed, moves in ((4, 9), (6, 4), (2, 16), (7, 1), (3, 22)):
        s = mid_hand(seed, moves)
        for model in worlds.MODELS:
            a, b = np.random.default_rng(seed), np.random.default_rng(seed)
            fast, slow = worlds.sample(s, 257, a, model), worlds.sample(s, 257, b, model, compiled=False)
            assert fast.hands.dtype == slow.hands.dtype and fast.stocks.dtype == slow.stocks.dtype
            np.testing.assert_array_equal(fast.hands, slow.hands)
            np.testing.assert_array_equal(fast.stocks, slow.stocks)
            assert a.random() == b.random(), (seed, moves, model)


def test_a_sampled_world_keeps_the_deck_whole_and_the_known_cards() -> None:
    s = mid_hand(4, 9)
    w = worlds.sample(s, 50, np.random.default_rng(0))
    me, them = s.to_play, 1 - s.to_play
    pile = to_mask(s.discards)
    for h, stock in zip(w.hands, w.stocks, strict=True):
        stock_mask = sum(1 << int(c) for c in stock)
        assert int(h) & s.picked_up[them] == s.picked_up[them]
        assert int(h).bit_count() == 10 and len(stock) == len(s.stock)
        assert int(h) | stock_mask | s.hands[me] | pile == sum(c.bit for c in BIT_CARD.values())


@pytest.mark.parametrize("seed", [2, 5])
def test_evaluation_sees_only_the_players_view(seed: int) -> None:
    """Swapping the opponent's unknown cards with the stock's (a different truth, the same view)
    changes no value."""
    s = mid_hand(seed, 8)
    them = 1 - s.to_play
    unknown = [c for c in mask_cards(s.hands[them]) if not c.bit & s.picked_up[them]]
    k = min(3, len(unknown), len(s.stock))
    stock = list(s.stock)
    swapped_hand = s.hands[them]
    for i in range(k):
        swapped_hand = swapped_hand & ~unknown[i].bit | stock[i].bit
        stock[i] = unknown[i]
    other = dataclasses.replace(s, hands=(s.hands[0], swapped_hand) if them == 1 else (swapped_hand, s.hands[1]),
                                stock=tuple(stock))
    a, b = evaluate(s, samples=64, seed=1, exact=False), evaluate(other, samples=64, seed=1, exact=False)
    assert [(o.label, o.value, o.se) for o in a.options] == [(o.label, o.value, o.se) for o in b.options]


ENDGAMES = [  # small endgames: few unseen cards, every world enumerable
    ("AS 2S 3S 4H 5H 6H 9C 9D KS QD JH", "7S 8S 7C 8C JD JS JC 2D 3D 5C", "4D 6D TC TD", "KH",
     "7S 8S 7C 8C JD JS JC"),
    ("2H 3H 4H 7C 7D 7S 9S TS JS KD 5C", "AC 2C 3C 8H 9H TH QS QH QC 6D", "KC KH 4S 5S", "AD",
     "AC 2C 3C 8H 9H TH"),
    ("5D 6D 7D 8D 3C 3H 3S JC QC AH 2S", "9H 9S 9C KS KH KC 4D 4H 4S TC", "AS 2D 6S 8S", "TD",
     "9H 9S 9C KS KH KC"),
]


@pytest.mark.once  # on the twin: 20 s for what the compiled run shows (the rollouts are the engine's)
@pytest.mark.parametrize(("hand", "theirs", "stock", "pile", "picked"), ENDGAMES)
def test_rollouts_agree_with_exact_enumeration(hand: str, theirs: str, stock: str, pile: str, picked: str) -> None:
    """Each option's sampled value and difference to the best lie within 2.5 standard errors of
    the exact ones (enumerated over every world) on ≥ 90 % of options; the exact best is never
    sampled as clearly worse."""
    s = position(hand, theirs, stock, pile, picked=picked)
    exact = evaluate(s, exact=True)
    assert exact.exact and exact.options[0].worlds == worlds.count(s)
    sampled = evaluate(s, samples=800, seed=4, exact=False)
    within = []
    for o in sampled.options:
        e = exact.of(o.action)
        within.append(abs(o.value - e.value) <= 2.5 * o.se + 1e-9)
    assert sum(within) >= 0.9 * len(within)
    best = sampled.of(exact.best.action)
    assert best.diff >= -3 * best.diff_se - 1e-9


def brute_force(s: State, policy: str) -> dict[Action, float]:
    """The oracle: every option's mean net points over every deal of the cards the player to act
    has not seen (each set of the opponent's unknown cards, each order of the whole stock, alike),
    each played on the engine (``play_out``) by ``policy`` on both seats."""
    them = 1 - s.to_play
    known = s.picked_up[them]
    unseen = [*mask_cards(s.hands[them] & ~known), *s.stock]
    k = (s.hands[them] & ~known).bit_count()
    out = {}
    for a in game.legal_actions(s):
        nets = []
        for pick in itertools.combinations(range(len(unseen)), k):
            hand = known | sum(unseen[i].bit for i in pick)
            for order in itertools.permutations([c for i, c in enumerate(unseen) if i not in pick]):
                w = dataclasses.replace(s, hands=(s.hands[0], hand) if them == 1 else (hand, s.hands[1]),
                                        stock=order)
                r = play_out(w, a, (policy, policy)).records[-1]
                nets.append(0 if r.winner is None else r.points if r.winner == s.to_play else -r.points)
        out[a] = sum(nets) / len(nets)
    return out


@pytest.mark.parametrize("dead_hand_stock", [2, 0])
def test_exact_values_are_a_brute_force_oracles(dead_hand_stock: int) -> None:
    """On an endgame of six unseen cards (two in the opponent's hand, four in the stock), the
    exact evaluation (uniform worlds: the orders of stock cards never drawn collapsed) is the
    brute-force mean over all 360 deals, played on the engine, option for option."""
    rules = dataclasses.replace(DEFAULT, dead_hand_stock=dead_hand_stock)
    s = position("2H 3H 4H 7C 7D 7S 9S TS JS KD 5C", "AC 2C 3C 8H 9H TH QS QH QC 6D", "KC KH 4S 5S", "AD",
                 picked="AC 2C 3C 8H 9H TH QS QH", rules=rules)
    e = evaluate(s, exact=True, model="uniform")
    assert e.exact and e.options[0].worlds == (180 if dead_hand_stock == 2 else 360)
    oracle = brute_force(s, "greedy")
    assert len(set(oracle.values())) > 5  # options that differ
    for a, value in oracle.items():
        assert e.of(a).value == pytest.approx(value, abs=1e-9), a


def test_gin_on_the_cards_is_best_and_a_known_undercut_is_not() -> None:
    """With gin in hand, going gin beats every discard; a knock against an opponent known to
    hold less deadwood is valued below playing on."""
    s = position("AS 2S 3S 4S 4H 5H 6H 9C 9D 9S KD", "7S 8S 7D 8D TH JH QH 2C 3C 5C", "4D 6D TC TD KC", "KH")
    e = evaluate(s, samples=200, seed=0, exact=False)
    assert e.best.label == "gin, discarding KD"
    assert all(o.diff + 2 * o.diff_se < 0 for o in e.options[1:])
    # a knock leaving 3C (3 deadwood) against an opponent known to hold 2 (all ten cards picked up)
    theirs = "6S 7S 8S 6D 7D 8D TH JH QH 2C"
    s = position("AS 2S 3S 4H 5H 6H 9C 9D 9S 3C 5C", theirs, "4D TC TD KC KS", "KH", picked=theirs)
    e = evaluate(s, exact=True)
    knock = e.of(Action(Kind.KNOCK, parse_cards("5C")[0]))
    assert knock.value < 0 and knock.diff < 0


def test_a_bot_needs_only_the_candidates_made_sure() -> None:
    """``every_diff=False`` stops once the candidates are sure: the same best from the same
    worlds, the options out of reach left at the screen's worlds, fewer rollouts in all."""
    s = mid_hand(6, 3)
    full = evaluate(s, samples=512, seed=3, exact=False)
    lean = evaluate(s, samples=512, seed=3, exact=False, every_diff=False)
    assert lean.best == full.best
    assert sum(o.worlds for o in lean.options) < sum(o.worlds for o in full.options)
    assert all(o.worlds <= full.of(o.action).worlds for o in lean.options)
    assert any(o.worlds < full.of(o.action).worlds for o in lean.options)


@pytest.mark.parametrize(("seed", "moves"), [(2, 8), (7, 8)])
def test_every_difference_is_made_sure_however_soon_the_screen_ended(seed: int, moves: int) -> None:
    """An option that fell out of reach at the screen is still played until its difference to the
    best is within OPTION_SE, the best played on with it (these stopped at 64 and 256 worlds with
    errors of 2.5 and 1.2 points when the best's worlds capped theirs)."""
    e = evaluate(mid_hand(seed, moves), samples=512, seed=seed, exact=False)
    assert all(o.diff_se <= evaluation.OPTION_SE or o.worlds == 512 for o in e.options[1:])
    assert e.best.worlds == max(o.worlds for o in e.options)


@pytest.mark.parametrize(("call", "match"), [
    (lambda s: evaluate(s, horizon="season"), "horizon 'season'"),
    (lambda s: evaluate(s, policy="clever"), "policy 'clever'"),
    (lambda s: evaluate(s, policy=("greedy", "expert@0")), "policy 'expert@0'"),
    (lambda s: evaluate(s, policy="greedy@11"), "policy 'greedy@11'"),
    (lambda s: evaluate(s, policy="random+melds"), "policy 'random\\+melds'"),
    (lambda s: evaluate(s, policy="greedy@0+melds"), "policy 'greedy@0\\+melds'"),
    (lambda s: evaluate(s, model="psychic"), "model 'psychic'"),
    (lambda s: evaluate(s, samples=1), "samples=1"),
    (lambda s: evaluate(s, budget_ms=0), "budget_ms=0"),
    (lambda s: evaluate(s, exact=True, every_diff=False), "every_diff=False would change nothing"),
    (lambda s: evaluate(s, exact=True, keep=game.legal_actions(s)[:1]), "keep and every_diff"),
    (lambda s: evaluate("AS 2S"), "str: evaluate takes"),
])
def test_bad_input_is_named(call, match: str) -> None:
    with pytest.raises(ValueError, match=match):
        call(mid_hand(0, 3))


def test_a_finished_hand_has_nothing_to_evaluate() -> None:
    s = mid_hand(0, 3)
    over = dataclasses.replace(s, phase=Phase.HAND_OVER)
    with pytest.raises(ValueError, match="phase hand_over"):
        evaluate(over)


def test_with_hidden_puts_each_worlds_cards_in_its_row() -> None:
    s = mid_hand(3, 5)
    w = worlds.sample(s, 4, np.random.default_rng(1))
    rows = with_hidden(state_row(s), 1 - s.to_play, w.hands, w.stocks)
    assert rows.shape[0] == 4 and (rows[:, 0 if s.to_play == 1 else 1] == w.hands).all()


# -- review ------------------------------------------------------------------------------

OPPONENT_ONE_OFF_GIN = "6S 7S 8S 6D 7D 8D TH JH QH 2C"  # three melds and 2C: 5S or 9S (or 9D ...) makes gin


def test_a_discard_that_gives_the_opponent_gin_is_a_blunder() -> None:
    s = position("AS 2S 3S 4H 5H 6H 9C 9D 9S KD QC", OPPONENT_ONE_OFF_GIN, "4D TC TD KC KS 5D", "KH",
                 picked=OPPONENT_ONE_OFF_GIN)
    d = review.judge(s, Action(Kind.DISCARD, parse_cards("9S")[0]), samples=256)
    assert d.mark == "blunder" and d.loss > 20, d
    assert "9S" in d.played and d.best != d.played
    assert d.reason.startswith("after discard 9S, the opponent goes gin in 100% of the ways"), d.reason
    # the table's review shows it on the cards: 9S struck out, the better card ringed
    from rummylab.cards import Card
    from rummylab.widgets.review import cards_html

    assert d.cards == s.hand(0) and d.played_card == Card.parse("9S") and d.best_card in (Card.parse("KD"),
                                                                                         Card.parse("QC"))
    shown = cards_html(d)
    assert shown.count("<span class='rl-review-card") == 11 and shown.count("rl-review-played") == 1
    assert shown.count("rl-review-better-card") == 1
    played_at = shown.index("rl-review-played")
    assert shown[played_at:].split(">", 1)[1].startswith(Card.parse("9S").symbol)


def test_a_knock_that_an_undercut_punishes_is_a_blunder() -> None:
    theirs = "6S 7S 8S 6D 7D 8D TH JH QH 2C"
    s = position("AS 2S 3S 4H 5H 6H 9C 9D 9S 3C 5C", theirs, "4D TC TD KC KS", "KH", picked=theirs)
    d = review.judge(s, Action(Kind.KNOCK, parse_cards("5C")[0]))
    assert d.mark == "blunder" and d.loss == pytest.approx(25.0) and d.loss_se == 0.0
    assert "your knock is undercut in 100%" in d.reason, d.reason


def test_how_a_hand_ends_after_each_option() -> None:
    """``endings``: the share of each way the hand can end, from the player's view, adding to 1."""
    from rummylab.gin.evaluation import ENDINGS, endings

    s = game.position("AS 2S 3S 4H 5H 6H 9C 9D 9S KD QC", "KH", picked=OPPONENT_ONE_OFF_GIN, stock=6)
    feed = endings(s, Action(Kind.DISCARD, parse_cards("9S")[0]), samples=64)
    assert set(feed) == set(ENDINGS) and sum(feed.values()) == pytest.approx(1.0)
    assert feed["the opponent goes gin"] == 1.0
    with pytest.raises(ValueError, match="not an option"):
        endings(s, Action(Kind.DISCARD, parse_cards("7C")[0]))


def test_passing_up_gin_is_marked_and_going_gin_is_not() -> None:
    s = position("AS 2S 3S 4S 4H 5H 6H 9C 9D 9S KD", "7S 8S 7D 8D TH JH QH 2C 3C 5C", "4D 6D TC TD KC", "KH")
    gin = review.judge(s, Action(Kind.KNOCK, parse_cards("KD")[0]), samples=256)
    assert gin.mark is None and gin.loss == 0 and gin.reason == "the best move"
    waited = review.judge(s, Action(Kind.DISCARD, parse_cards("KD")[0]), samples=256)
    assert waited.mark in ("mistake", "blunder") and waited.best == "gin, discarding KD"


def test_a_gin_on_the_next_draw_passed_up_is_a_blunder() -> None:
    """The upcard makes gin (9S with 9C 9D, KD thrown): taking it is the best move, and drawing
    from the stock instead is a blunder whose reason says so."""
    s = position("AS 2S 3S 4H 5H 6H 7H 9C 9D KD", "7S 8S 7D 8D TH JH QH 2C 3C 5C", "4D 6D TC TD KC", "9S",
                 phase=Phase.DRAW)
    took = review.judge(s, Action(Kind.DRAW_DISCARD, None), samples=64)
    assert took.mark is None and took.loss == 0 and took.reason == "the best move"
    drew = review.judge(s, Action(Kind.DRAW_STOCK, None), samples=256)
    assert drew.mark == "blunder" and drew.best == "take the discard" and drew.loss > 50
    assert "go gin in" in drew.reason


def test_marks_follow_the_thresholds_and_the_noise() -> None:
    assert review.mark(0.5, 0.1) is None
    assert review.mark(review.INACCURACY, 0.1) == "inaccuracy"
    assert review.mark(review.MISTAKE + 0.1, 0.5) == "mistake"
    assert review.mark(review.BLUNDER, 1.0) == "blunder"
    assert review.mark(review.BLUNDER, review.BLUNDER) is None  # within two errors of nothing lost


def recorded_game() -> dict:
    s = game.new_game(DEFAULT, 3)
    bots = (GreedyBot(0), StrongBot(0))
    for _ in range(2):  # two hands
        while s.phase in (Phase.FIRST_UPCARD, Phase.DRAW, Phase.DISCARD):
            s = game.apply(s, bots[s.to_play].act(s))
        if s.phase is Phase.HAND_OVER and len(s.records) < 2:
            s = game.apply(s, game.NEXT_HAND)
    return game.history_json(s)


@pytest.mark.once  # on the twin: 110 s
def test_a_recorded_game_is_reviewed_decision_by_decision() -> None:
    data = recorded_game()
    r = review.review(data, seat=0, samples=64)
    assert len(r.hands) == 2 and r.decisions
    final = game.replay(data)
    for h, rec in zip(r.hands, final.records, strict=True):
        assert h.result == (0 if rec.winner is None else rec.points if rec.winner == 0 else -rec.points)
    assert sum(h.decisions for h in r.hands) == len(r.decisions)
    assert all(d.loss >= 0 and (d.mark is None or d.loss > 2 * d.loss_se) for d in r.decisions)
    assert r.draws and all(abs(d.luck) < 200 for d in r.draws)
    assert r.adjusted == pytest.approx(r.result - r.luck)
    again = review.review(data, seat=0, samples=64)
    assert [(d.played, d.loss) for d in again.decisions] == [(d.played, d.loss) for d in r.decisions]
    assert "<script" not in r.page() and r.frame().height == len(r.decisions)


def test_review_refuses_what_is_not_a_gin_history() -> None:
    with pytest.raises(ValueError, match="seat=2"):
        review.review(recorded_game(), seat=2)
    with pytest.raises(ValueError, match="list: review takes"):
        review.review([1, 2], seat=0)  # type: ignore[arg-type]


@pytest.mark.once
def test_the_review_command_prints_and_writes_a_page(tmp_path, capsys) -> None:
    from rummylab import cli

    path = tmp_path / "game.json"
    path.write_text(json.dumps(recorded_game()))
    assert cli.main(["review", str(path), "--seat", "1", "--samples", "64", "--html", str(tmp_path / "r.html")]) == 0
    assert capsys.readouterr().out.startswith("player 1: ")
    assert "<table>" in (tmp_path / "r.html").read_text()
    path.write_text("{not json")
    assert cli.main(["review", str(path)]) == 2
    assert "not JSON" in capsys.readouterr().err


# -- the game horizon ---------------------------------------------------------------------


def test_the_equity_table_is_a_fair_game_and_rises_with_the_score() -> None:
    win = equity.table(DEFAULT)
    assert win.shape == (100, 100, 2)
    # the chance that I win when you deal next, and yours when you deal next, add up to 1
    np.testing.assert_allclose(win[:, :, 0] + win.transpose(1, 0, 2)[:, :, 1], 1.0, atol=1e-9)
    assert (np.diff(win, axis=0) >= -1e-12).all() and (np.diff(win, axis=1) <= 1e-12).all()
    assert 0.45 < win[0, 0, 1] < 0.55 and win[99, 0, 0] > 0.9


def test_the_equity_table_is_the_fixed_point_of_one_hand() -> None:
    """Value iteration (a different method: no division, repeated until it settles) on a short
    game gives the table's values."""
    t = 40
    rules = dataclasses.replace(DEFAULT, target=t)
    dist = equity.hand_results(rules)
    w = np.full((t, t, 2), 0.5)
    for _ in range(300):
        nxt = np.zeros_like(w)
        for (who, p), q in dist.items():
            for d in (0, 1):
                if who == "none" or p == 0:
                    nxt[:, :, d] += q * w[:, :, d]
                    continue
                src, k = w[:, :, 1 - d], max(t - p, 0)
                if (who == "dealer") == (d == 1):  # this player scores p
                    moved = np.ones((t, t))
                    moved[:k] = src[p:] if k else moved[:0]
                else:
                    moved = np.zeros((t, t))
                    moved[:, :k] = src[:, p:] if k else moved[:, :0]
                nxt[:, :, d] += q * moved
        w = nxt
    np.testing.assert_allclose(equity.table(rules), w, atol=1e-9)


def test_a_three_handed_game_is_valued_by_its_hand_in_play() -> None:
    from rummylab import three_handed

    s = three_handed.new_game(seed=3)
    for _ in range(5):
        s = three_handed.apply(s, bots.make_bot("greedy").act(s.hand))
    assert evaluate(s, samples=64, seed=1) == evaluate(s.hand, samples=64, seed=1)
    with pytest.raises(ValueError, match=r"three-handed .* \(horizon='hand'\)"):
        evaluate(s, horizon="game")


def test_the_shipped_hand_results_cover_the_presets() -> None:
    for rules in (DEFAULT, gin.CLASSIC, gin.EAAI, gin.TOURNAMENT):
        dist = equity.hand_results(rules)
        assert sum(dist.values()) == pytest.approx(1.0, abs=1e-6)
    with pytest.raises(ValueError, match="knock_limit=7"):
        equity.hand_results(dataclasses.replace(DEFAULT, knock_limit=7))


def test_the_game_in_whole_units_is_the_table_and_rules_without_results_have_none() -> None:
    """``equity.game_units``: 100 units a point at a game's start, each entry the table's chance in
    units to within half a unit; a won game is worth its units. Rules whose hand results are not
    shipped have no table, and the rollout bot values their hands by points."""
    from rummylab.gin.rollout_bot import constants, valued_by

    for rules in (DEFAULT, gin.EAAI):
        units, won = equity.game_units(rules)
        assert units.dtype == np.int32 and units.shape == (rules.target, rules.target, 2)
        assert won == round(equity.UNITS_A_POINT / equity.point_worth(rules))
        assert np.abs(units - equity.table(rules) * equity.UNITS_A_POINT / equity.point_worth(rules)).max() <= 0.5
        assert 0.004 < equity.point_worth(rules) < 0.007  # half a percentage point a point, about
        assert equity.has_results(rules) and valued_by("game", rules) == "game"
    for target in (1, 10):  # a game shorter than POINT_SPAN: a point is worth what the first ones to win add
        short = dataclasses.replace(DEFAULT, target=target)
        units, won = equity.game_units(short)
        assert units.shape == (target, target, 2) and won == round(equity.UNITS_A_POINT * target
                                                                  / (1 - equity.table(short)[0, 0, 0]))
    # a three-handed game's hands, under hand rules whose results are shipped: a game that never ends
    box = gin.box_game.hand_rules(dataclasses.replace(gin.THREE_HANDED, undercut_bonus=25, big_gin_bonus=31))
    assert equity.has_results(box) and not equity.has_table(box) and valued_by("game", box) == "hand"
    with pytest.raises(ValueError, match="a game to 1000000000"):
        equity.table(box)
    odd = dataclasses.replace(DEFAULT, knock_limit=7)
    assert not equity.has_results(odd) and valued_by("game", odd) == "hand" and valued_by("hand", DEFAULT) == "hand"
    assert constants(odd)[-2].size == 0 and constants(odd)[-1] == 0 and constants(odd)[3] == 0.25
    assert constants(DEFAULT)[3] == 25.0  # the target error in units: 0.25 points at the game's start


@pytest.mark.once  # the pure-Python run has no compiled loop to compare
@needs_compiled
def test_the_loops_rollout_bot_values_by_points_where_no_table_is_shipped() -> None:
    """... and by the game in a game of one hand (every hand that scores wins it), as the engine's."""
    from rummylab.gin.rollout_bot import RolloutBot

    for seed, moves, rules, scores in ((7, 8, dataclasses.replace(DEFAULT, knock_limit=7), (80, 20)),
                                       (8, 14, dataclasses.replace(DEFAULT, knock_limit=7), (80, 20)),
                                       (7, 8, dataclasses.replace(DEFAULT, target=1), (0, 0))):
        s = dataclasses.replace(mid_hand(seed, moves), rules=rules, scores=scores)
        fast, slow = RolloutBot(seed), RolloutBot(seed)
        slow.use_loop = False
        assert fast.looped() and fast.act(s) == slow.act(s)


def test_a_knock_that_ends_the_game_is_worth_the_game() -> None:
    theirs = "6S 7S 8S 6D 7D 8D TH JH QH KC"
    s = dataclasses.replace(position("AS 2S 3S 4H 5H 6H 9C 9D 9S 2C 5C", theirs, "4D TC TD KS 3D", "KH",
                                     picked=theirs), scores=(95, 0))
    e = evaluate(s, horizon="game")
    knock = e.of(Action(Kind.KNOCK, parse_cards("5C")[0]))
    assert e.horizon == "game" and knock.value == pytest.approx(1.0) and e.best.value == pytest.approx(1.0)
    assert all(-1e-9 <= o.value <= 1 + 1e-9 for o in e.options) and "%" in str(e)


# -- the rollout bot -------------------------------------------------------------------------


@pytest.mark.once  # on the twin every rollout is an engine game: minutes
def test_the_rollout_bot_plays_whole_games_the_same_for_a_seed() -> None:
    a = bots.simulate(1, ("rollout", "greedy"), seed=2)
    b = bots.simulate(1, ("rollout", "greedy"), seed=2)
    assert a.height >= 1 and a.equals(b)


def test_the_rollout_bot_makes_a_legal_move() -> None:
    """Few worlds: on the twin each is an engine hand, and its opponent plays for gin (long hands)."""
    from rummylab.gin.rollout_bot import RolloutBot

    s = mid_hand(6, 4)
    bot = RolloutBot(3, samples=4)
    assert bot.act(s) in game.legal_actions(s)


def test_the_rollout_bot_overrules_the_expert_only_when_sure() -> None:
    """``overruled``: the best option replaces the expert's move only when it is better by more
    than ``sure`` standard errors of their difference; a bad ``sure`` is named."""
    from rummylab.gin.rollout_bot import SURE, RolloutBot, overruled

    s = mid_hand(6, 4)
    first, second = game.legal_actions(s)[:2]

    def found(diff: float, diff_se: float) -> Evaluation:
        best = OptionValue(action=first, label="a", value=1.0, se=0.1, diff=0.0, diff_se=0.0, worlds=64)
        other = OptionValue(action=second, label="b", value=1.0 + diff, se=0.1, diff=diff, diff_se=diff_se, worlds=64)
        return Evaluation(seat=s.to_play, phase=s.phase, options=(best, other), exact=False,
                          policy=("greedy", "greedy"), model="kept")

    assert overruled(found(-1.0, 0.5), second, SURE) == first       # 2 errors behind: overruled
    assert overruled(found(-1.0, 1.0), second, SURE) == second      # 1 error behind: kept
    assert overruled(found(-1.0, 0.0), second, SURE) == first       # behind in every world
    assert overruled(found(-1.0, 1.0), first, SURE) == first        # the expert's move is the best
    with pytest.raises(ValueError, match="sure=-1"):
        RolloutBot(0, sure=-1)


def test_rollouts_within_rollouts_are_refused() -> None:
    from rummylab.gin.rollout import policy_spec

    with pytest.raises(ValueError, match="'rollout'"):
        policy_spec("rollout")
    assert policy_spec("greedy+melds@0") == ("greedy", 0, "greedy", "melds")
    assert policy_spec("strong") == ("strong", None, "greedy", "lowers")
    with pytest.raises(ValueError, match="'rollout'"):
        evaluate(mid_hand(6, 4), policy="rollout")


@pytest.mark.once  # the pure-Python run has no compiled loop to compare
@needs_compiled
@pytest.mark.parametrize(("seed", "moves", "seats", "horizon", "every_diff"), [
    (2, 8, ("greedy", "greedy"), "hand", True),
    (3, 4, ("strong", "greedy+melds@0"), "game", False),
    (6, 1, ("expert", "random"), "hand", True),
    (7, 12, ("greedy+melds", "greedy"), "game", True),
])
def test_the_loop_screens_as_the_python_does(seed: int, moves: int, seats: tuple[str, str], horizon: str,
                                             every_diff: bool) -> None:
    """``evaluate``'s screening in the compiled loop (``evaluate_gin``) plays the same worlds for
    the same options, to the same figures, as ``screening.screened`` over ``rollout``'s results;
    a world that does not hold the unseen cards once each is refused."""
    s = mid_hand(seed, moves)
    actions = game.legal_actions(s)
    w = worlds.sample(s, 512, np.random.default_rng(seed), "view")
    found = []
    for compiled in (True, False):
        rngs = tuple(np.random.default_rng([seed, k]) if b.startswith(("random", "expert")) else None
                     for k, b in enumerate(seats))
        found.append(evaluation._sampled(s, actions, w, seats, rngs, horizon, None, actions[-1:], every_diff,
                                         compiled=compiled))
    assert found[0] == found[1]
    from rummylab.gin.rollout import screened_in_loop
    from rummylab.screening import Effort

    effort = Effort(screen=64, cap=8, reach=3.0, target_se=0.25, option_se=0.5)
    twice = w.hands[:8].copy()
    twice[0] |= int(s.hands[s.to_play]) & -int(s.hands[s.to_play])  # one of her own cards dealt to the opponent too
    with pytest.raises(ValueError, match="world 0 does not hold the unseen cards once each"):
        screened_in_loop(s, actions, twice, w.stocks[:8], ("greedy", "greedy"), (None, None), effort, set(), None)


@pytest.mark.once  # the pure-Python run has no compiled loop to compare
@needs_compiled
def test_the_loops_rollout_bot_decides_as_the_engines_and_refuses_bad_rows() -> None:
    """The loop's decision (``RolloutBot.looped``) is the engine's (the expert's move, overruled
    when ``evaluate`` is sure of a better one), for the same generator; a bad state row or unset
    constants are named."""
    from rummylab.gin import expert
    from rummylab.gin.analysis import gin_kernel
    from rummylab.gin.loop import ACTIONS, BOT_CODES, loop_options
    from rummylab.gin.rollout_bot import RolloutBot, constants

    overruled = []
    for seed, moves in ((6, 1), (6, 3), (7, 8), (8, 14), (9, 15), (10, 4), (13, 0)):
        s = mid_hand(seed, moves)
        fast, slow = RolloutBot(seed), RolloutBot(seed)
        slow.use_loop = False
        assert fast.looped() and not slow.looped()
        move = fast.act(s)
        assert move == slow.act(s)
        if move != expert.ExpertBot(seed).act(s):
            overruled.append(move.kind)
    # here the rollouts overrule a discard by another, a discard by a knock, the stock by the discard
    assert sorted(overruled) == sorted([Kind.DISCARD, Kind.KNOCK, Kind.DRAW_DISCARD]), overruled
    for seed, moves, scores in ((7, 8, (85, 60)), (8, 14, (30, 95)), (9, 15, (99, 99))):  # late in a game
        s = dataclasses.replace(mid_hand(seed, moves), scores=scores)
        fast, slow = RolloutBot(seed), RolloutBot(seed)
        slow.use_loop = False
        assert fast.act(s) == slow.act(s)
    loops = play_loops()
    loops.set_expert(*expert.constants(DEFAULT))
    c = constants(DEFAULT)
    loops.set_rollout(*c)
    rules = loop_options([], DEFAULT)["rules"]
    with pytest.raises(ValueError, match="columns"):
        loops.rollout_decision(gin_kernel(), np.zeros(3, dtype=np.int64), np.random.default_rng(0), rules=rules)
    row = state_row(mid_hand(6, 4))
    row[STATE_COLUMNS.index("hand_0")] = 0
    with pytest.raises(ValueError, match="no hand in play"):
        loops.rollout_decision(gin_kernel(), row, np.random.default_rng(0), rules=rules)
    with pytest.raises(ValueError, match="a game to 100, the rules' to 150"):  # units for another target
        loops.rollout_decision(gin_kernel(), state_row(mid_hand(6, 4)), np.random.default_rng(0),
                               rules=loop_options([], dataclasses.replace(DEFAULT, target=150))["rules"])
    with pytest.raises(ValueError, match="samples=1"):
        loops.set_rollout(1, *c[1:])
    with pytest.raises(ValueError, match="sure=-1"):
        loops.set_rollout(*c[:5], -1.0, *c[6:])
    with pytest.raises(ValueError, match="gin_prior=-1"):
        loops.set_rollout(*c[:6], -1, *c[7:])
    with pytest.raises(ValueError, match="gin_prior=-1"):  # refused whole: its 2 worlds are not kept
        loops.set_rollout(2, *c[1:6], -1, *c[7:])
    with pytest.raises(ValueError, match=r"shape \(100, 50, 2\)"):  # nor a table that is no target x target
        loops.set_rollout(2, *c[1:7], np.ascontiguousarray(c[7][:, :50]), c[8])
    with pytest.raises(ValueError, match="game_won=0"):
        loops.set_rollout(2, *c[1:8], 0)
    with pytest.raises(ValueError, match="gin_prior=-1"):  # and its styles not kept either
        loops.set_expert(*expert.constants(DEFAULT)[:4], (0.0, 1, 0.0, 0.0, ()), (0.0, 1, 0.0, 0.0, ()),
                         expert.EARLY_TURNS, -1)
    with pytest.raises(ValueError, match=r"learned=\(1.0, 2.0\): none, or a weight for each of 8"):
        loops.set_expert(*expert.constants(DEFAULT)[:4], (0.0, 1, 0.0, 0.0, (1.0, 2.0)), (0.0, 1, 0.0, 0.0, ()),
                         expert.EARLY_TURNS, expert.GIN_PRIOR)
    with pytest.raises(ValueError, match="early_turns=-1"):
        loops.set_expert(*expert.constants(DEFAULT)[:-2], -1, expert.GIN_PRIOR)
    for seed, moves in ((6, 1), (8, 14)):  # the constants set before: the engine's decision
        s = mid_hand(seed, moves)
        slow = RolloutBot(seed)
        slow.use_loop = False
        code, card = loops.rollout_decision(gin_kernel(), state_row(s), np.random.default_rng(seed), rules=rules)
        assert Action(ACTIONS[code], BIT_CARD[1 << card] if card >= 0 else None) == slow.act(s)
    loops.set_rollout(*constants(DEFAULT))
    with pytest.raises(ValueError, match="the rollout bot plays no rollout"):
        loops.rollout_gin(gin_kernel(), state_row(mid_hand(6, 4))[None, :], np.array([-1]), np.array([-1]),
                          [BOT_CODES["rollout"], BOT_CODES["greedy"]], [None, None], rules=rules)


def test_kept_worlds_give_the_opponent_what_melds() -> None:
    """Under "kept" a world is the least-deadwood of one more hand than the stock cards the
    opponent drew: later in a hand their deadwood is lower than under "view"; it has no exact list."""
    s = mid_hand(8, 14)
    assert worlds.kept_draws(s) > 1
    rng = np.random.default_rng(0)
    view = gin.deadwood_batch(worlds.sample(s, 400, rng, "view").hands.astype(np.uint64)).mean()
    kept = gin.deadwood_batch(worlds.sample(s, 400, rng, "kept").hands.astype(np.uint64)).mean()
    assert kept < view - 3
    with pytest.raises(ValueError, match="sampled only"):
        worlds.enumerate_worlds(s, "kept")
    assert not evaluate(s, model="kept", samples=64).exact


def test_a_described_position_is_a_state_and_bad_cards_are_named() -> None:
    s = game.position("AS 2S 3S 4H 5H 6H 9C 9D 9S KD QC", "KH", picked="6S 7S 8S 6D 7D 8D TH JH QH 2C", stock=6)
    assert len(s.stock) == 6 and s.discards[-1] == parse_cards("KH")[0] and s.phase is Phase.DISCARD
    assert s.hands[1] == s.picked_up[1] and worlds.count(s) == 360
    e = evaluate(s)
    assert e.exact and {o.label for o in e.options if o.diff == 0} == {"discard KD", "discard QC"}
    assert e.of(Action(Kind.DISCARD, parse_cards("9S")[0])).value == pytest.approx(-63.0)
    with pytest.raises(ValueError, match="AS is named twice"):
        game.position("AS 2S 3S 4H 5H 6H 9C 9D 9S KD QC", "AS")
    with pytest.raises(ValueError, match="'KX'"):
        game.position("AS 2S 3S 4H 5H 6H 9C 9D 9S KD QC", "KX")
    with pytest.raises(ValueError, match="stock=2"):
        game.position("AS 2S 3S 4H 5H 6H 9C 9D 9S KD QC", "KH", stock=2)


@pytest.mark.once  # on the twin every rollout is an engine game
def test_a_frame_of_reviews_is_the_reviews_of_the_games_simulate_plays() -> None:
    """One row a decision of the seat, game by game: the games are simulate's for the seed, and
    each game's rows are its review."""
    df = gin.review_frame(2, ("greedy", "strong"), seat=1, seed=4, samples=32)
    assert set(df.columns) >= {"game", "hand", "turn", "played", "best", "loss", "loss_se", "mark", "bot"}
    assert sorted(df["game"].unique().to_list()) == [0, 1] and (df["bot"] == "strong").all()
    assert (df["loss"] >= 0).all() and df.height > 20
    hands = bots.simulate(2, ("greedy", "strong"), seed=4)
    assert df.group_by("game").agg(pl.col("hand").max())["hand"].sum() <= hands.height
    on_dask = gin.review_frame(2, ("greedy", "strong"), seat=1, seed=4, samples=32, scheduler="dask", workers=1)
    assert on_dask.equals(df)  # the same games and worlds, wherever they are played
    with pytest.raises(ValueError, match="seat=3"):
        gin.review_frame(1, seat=3)


def test_the_match_horizon_weighs_the_game_by_the_games_won() -> None:
    """Best of five at two games all: winning this game is worth 3/4 of the match (then 1/2 a
    game each way); at 2-0 up, losing it still leaves 3/4."""
    five = dataclasses.replace(DEFAULT, match_games=5)
    assert equity.match_win_chance(five, 2, 2, 1.0) == 1.0 and equity.match_win_chance(five, 2, 2, 0.0) == 0.0
    assert equity.match_win_chance(five, 0, 0, 0.5) == pytest.approx(0.5)
    assert equity.match_win_chance(five, 2, 0, 0.0) == pytest.approx(0.75)
    with pytest.raises(ValueError, match="is over"):
        equity.match_win_chance(five, 3, 0, 0.5)
    theirs = "6S 7S 8S 6D 7D 8D TH JH QH KC"
    s = dataclasses.replace(position("AS 2S 3S 4H 5H 6H 9C 9D 9S 2C 5C", theirs, "4D TC TD KS 3D", "KH",
                                     picked=theirs, rules=five), scores=(95, 0), games_won=(1, 2))
    e = evaluate(s, horizon="match")
    knock = e.of(Action(Kind.KNOCK, parse_cards("5C")[0]))
    assert e.horizon == "match" and knock.value == pytest.approx(0.5) and "match" in str(e)


def test_the_public_names_are_reached_from_the_gin_package() -> None:
    """As the API writes them: gin.evaluate, gin.review, gin.bots.make_bot("rollout"), gin.EAAI."""
    import subprocess
    import sys

    code = ("from rummylab import gin; assert callable(gin.evaluate) and callable(gin.review); "
            "assert gin.bots.make_bot('rollout', 1).name == 'rollout' and gin.EAAI.big_gin_bonus is None")
    subprocess.run([sys.executable, "-c", code], check=True, timeout=60)


def test_the_rollout_bot_reads_its_opponent_from_the_hands_played() -> None:
    """No evidence: the opponent knocks as soon as it may (``rollout_bot.GIN_PRIOR``, where the
    expert alone reads it as playing for gin); a knock with deadwood left counts for a knocker, a
    hand ended where the opponent held a knock it did not make (before any layoffs) counts for a gin
    player, and the expert's move the bot asks reads it the same way."""
    from dataclasses import replace

    from rummylab.gin import expert
    from rummylab.gin.game import HandRecord
    from rummylab.gin.rollout_bot import GIN_PRIOR, read_opponent

    s = replace(mid_hand(0, 3), to_play=0)
    knock = HandRecord(kind="knock", winner=1, points=9, knocker=1, deadwoods=(15, 6), turns=12)
    passed = HandRecord(kind="dead", winner=None, points=0, knocker=None, deadwoods=(20, 8), turns=30)
    far = HandRecord(kind="dead", winner=None, points=0, knocker=None, deadwoods=(20, 31), turns=30)
    assert read_opponent(s, "greedy") == "greedy" and expert.plays_for_gin(s, 1)  # nothing seen yet
    assert expert.style(s, GIN_PRIOR) is expert.AGAINST_KNOCKER and expert.style(s) is expert.AGAINST_GIN
    for bad in (-1, 0.5, True):
        with pytest.raises(ValueError, match=f"prior={bad!r}"):
            expert.ExpertBot(0, prior=bad)  # type: ignore[arg-type]
    assert read_opponent(replace(s, records=(passed,)), "greedy") == "greedy@0"
    assert read_opponent(replace(s, records=(knock,)), "greedy") == "greedy"
    assert read_opponent(replace(s, records=(knock, passed)), "greedy") == "greedy"
    assert read_opponent(replace(s, records=(knock, passed, passed)), "greedy") == "greedy@0"
    assert read_opponent(replace(s, records=(far,)), "greedy") == "greedy"
    # her own bot knocking later ("greedy@4") plays the opponent as the same bot, read as above
    assert read_opponent(replace(s, records=(passed,)), "greedy@4") == "greedy@0"
    assert read_opponent(replace(s, records=(knock,)), "greedy@4") == "greedy"
