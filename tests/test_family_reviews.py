"""Indian rummy's and Three Thirteen's games reviewed (issue 40, points 3 and 4): each decision
of one player judged from what she knew then, known bad moves marked as they should be, the
draws' luck, per deal (round) results, the command line, bad input named."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from rummylab import cli
from rummylab.cards import without
from rummylab.decisions import marked
from rummylab.indian import game as ig
from rummylab.indian import review as ireview
from rummylab.indian.players import GreedyBot as IndianGreedy
from rummylab.indian.puzzles import declaring_discards
from rummylab.three_thirteen import game as tg
from rummylab.three_thirteen import review as treview
from rummylab.three_thirteen.game import penalty_of_cards
from rummylab.three_thirteen.players import GreedyBot as ThirteenGreedy

pytestmark = pytest.mark.once  # rollouts: the compiled run has them

SAMPLES = 48


def _indian_deal(seed: int) -> ig.State:
    s = ig.new_game(2, seed=seed, pool=None)
    bots = [IndianGreedy(np.random.default_rng([seed, p]), drops=False) for p in range(2)]
    while s.phase is not ig.Phase.GAME_OVER:
        s = ig.apply(s, bots[s.to_play].act(s))
    return s


def test_an_indian_deal_is_reviewed_decision_by_decision() -> None:
    s = _indian_deal(3)
    r = ireview.review(s, 0, samples=SAMPLES, seed=1)
    mine = [a for st, a in ig.GAME.steps(ig.history_json(s)) if a is not None and st.to_play == 0
            and st.phase is ig.Phase.DISCARD]
    assert len([d for d in r.decisions if d.phase is ig.Phase.DISCARD]) == len(mine)
    assert r.part == "deal" and len(r.hands) == 1 and r.hands[0].result == -s.deal_history[-1][0]
    assert r.draws and any(d.se > 0 for d in r.draws)  # a sure draw (any card completes her show) has none
    assert all(d.loss >= 0 and (d.loss == 0) == (d.played == d.best) or d.loss < 1e-9 for d in r.decisions)
    assert "deal 1" in str(r) or not any(d.mark for d in r.decisions)
    assert r == ireview.review(ig.history_json(s), 0, samples=SAMPLES, seed=1)  # a history or a state alike


def test_a_declaration_passed_up_costs_and_a_wrong_show_is_a_blunder() -> None:
    """Passing up a valid show loses (the opponent may show first; by little when the hand stays
    ready), and the reason says a declaration was there; a wrong show costs its points exactly."""
    for seed in range(300):
        s = ig.new_game(2, seed=seed, pool=None)
        bots = [IndianGreedy(np.random.default_rng([seed, p]), drops=False) for p in range(2)]
        while s.phase is not ig.Phase.GAME_OVER:
            if s.phase is ig.Phase.DISCARD and declaring_discards(s.hands[s.to_play], s.wild_rank):
                break
            s = ig.apply(s, bots[s.to_play].act(s))
        else:
            continue
        me = s.to_play
        show = bots[me].act(s)
        assert show.kind is ig.Kind.DECLARE
        other = next(c for c in s.hands[me] if c != show.card)
        passed = ireview.review(ig.apply(s, ig.Action(ig.Kind.DISCARD, other)), me, samples=SAMPLES)
        last = passed.decisions[-1]
        assert last.best.startswith("declare") and (last.loss == 0 or "declaration" in last.reason)
        rest = sorted(without(s.hands[me], show.card))
        wrong = ig.Action(ig.Kind.DECLARE, show.card, (tuple(rest[:3]), tuple(rest[3:6]), tuple(rest[6:9]),
                                                        tuple(rest[9:])))  # cards in order, grouped blindly
        after = ig.apply(s, wrong)
        if after.winner == me:
            continue  # the blind groups make a valid show
        w = ireview.review(after, me, samples=SAMPLES).decisions[-1]
        assert w.mark == "blunder" and "wrong show" in w.played and w.loss == s.rules.wrong_show_points
        return
    raise AssertionError("no declaration in 300 deals")


def test_leaving_and_coming_back_is_no_turn_of_hers() -> None:
    """She leaves the table at her first draw and comes back at once: her decisions are numbered as
    if she had not (turn 0 is still her first draw)."""
    s = ig.new_game(2, seed=5, pool=None)
    me = s.to_play
    away = ig.apply(ig.apply(s, ig.Action(ig.Kind.LEAVE)), ig.Action(ig.Kind.RECONNECT))
    numbered = []
    for start in (s, away):
        bots = [IndianGreedy(np.random.default_rng([5, p]), drops=False) for p in range(2)]
        t = start
        for _move in range(6):
            t = ig.apply(t, bots[t.to_play].act(t))
        numbered.append([d.turn for d in ireview.review(t, me, samples=SAMPLES).decisions])
    assert numbered[0] and numbered[0][0] == 0 and numbered[1] == numbered[0], numbered


def test_a_show_with_another_card_that_shows_as_well_is_the_best_move() -> None:
    """Two cards of her fourteen each leave a valid show: declaring with either pays nothing, and the
    review says it is the best move (not that a declaration was there)."""
    from rummylab.cards import Card

    for seed in range(400):
        s = ig.new_game(2, seed=seed, pool=None)
        bots = [IndianGreedy(np.random.default_rng([seed, p]), drops=False) for p in range(2)]
        while s.phase is not ig.Phase.GAME_OVER:
            if s.phase is ig.Phase.DISCARD and len(found := declaring_discards(s.hands[s.to_play], s.wild_rank)) > 1:
                break
            s = ig.apply(s, bots[s.to_play].act(s))
        else:
            continue
        me, chosen = s.to_play, bots[s.to_play].act(s)
        card, groups = next((c, g) for c, g in found.items() if c != str(chosen.card))
        show = ig.Action(ig.Kind.DECLARE, Card.parse(card), tuple(tuple(Card.parse(t) for t in g.split())
                                                                 for g in groups))
        last = ireview.review(ig.apply(s, show), me, samples=SAMPLES).decisions[-1]
        assert last.loss == 0 and last.reason == "the best move" and last.mark is None, last
        return
    raise AssertionError("no hand with two showing cards in 400 deals")


def test_a_three_thirteen_game_is_reviewed_and_going_out_passed_up_is_judged() -> None:
    """Going out passed up is the best move missed, with its reason; its loss is small where the
    player goes out next turn anyway (the worlds give the opponent the cards it took), and marked
    by the thresholds."""
    s = tg.new_game(2, seed=4)
    bots = [ThirteenGreedy(1), ThirteenGreedy(2)]
    while s.phase is not tg.Phase.GAME_OVER:
        if s.phase is tg.Phase.DISCARD and s.round_no >= 3 and any(a.kind is tg.Kind.GO_OUT
                                                                     for a in tg.legal_actions(s)):
            break
        s = tg.apply(s, tg.NEXT_ROUND if s.phase is tg.Phase.ROUND_OVER else bots[s.to_play].act(s))
    me = s.to_play
    out = next(a for a in tg.legal_actions(s) if a.kind is tg.Kind.GO_OUT)
    # the discard that breaks most of the melds: not going out now, nor surely next turn
    other = max((c for c in s.hands[me] if c != out.card),
                key=lambda c: (penalty_of_cards(without(s.hands[me], c), s.round_no, s.rules), c))
    r = treview.review(tg.apply(s, tg.Action(tg.Kind.DISCARD, other)), me, samples=SAMPLES, last_round=True)
    assert r.part == "round" and {h.hand for h in r.hands} <= {s.round_no} and r.decisions
    last = r.decisions[-1]
    assert last.best.startswith("go out") and "go out" in last.reason
    assert last.loss > 0 and last.mark == marked(last.loss, last.loss_se, treview.MARKS)


def test_review_on_the_command_line_reads_every_familys_history(tmp_path: Path,
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    s = _indian_deal(5)
    path = tmp_path / "indian.json"
    path.write_text(json.dumps(ig.history_json(s)), encoding="utf-8")
    assert cli.main(["review", str(path), "--seat", "1", "--samples", "16", "--html", str(tmp_path / "r.html")]) == 0
    assert capsys.readouterr().out.startswith("player 1:")
    assert "<th>deal</th>" in (tmp_path / "r.html").read_text(encoding="utf-8")
    other = tmp_path / "other.json"
    other.write_text(json.dumps({"game": "chess", "actions": []}), encoding="utf-8")
    assert cli.main(["review", str(other)]) == 2
    assert "not a history review reads" in capsys.readouterr().err


def test_bad_input_is_named() -> None:
    s = _indian_deal(3)
    with pytest.raises(ValueError, match="seat=2"):
        ireview.review(s, 2)
    with pytest.raises(ValueError, match="samples=1"):
        ireview.review(s, 0, samples=1)
    with pytest.raises(ValueError, match="review takes an Indian rummy history"):
        ireview.review({"moves": []}, 0)
    with pytest.raises(ValueError, match="review takes a Three Thirteen history"):
        treview.review([], 0)  # type: ignore[arg-type]


def test_a_deal_whose_stock_ran_out_is_evaluated_and_reviewed() -> None:
    """The cut card is drawn with the last stock card; then every unseen card is dealt again."""
    from dataclasses import replace

    from rummylab.indian.evaluation import evaluate, world

    s = ig.apply(ig.new_game(2, seed=4, pool=None), ig.DRAW_STOCK)
    empty = replace(s, stock=(), discards=s.stock + s.discards)  # every stock card under the pile
    assert world(empty, np.random.default_rng(1)).stock == ()
    assert evaluate(empty, samples=8, seed=2).options
    after = ig.apply(ig.apply(empty, ig.Action(ig.Kind.DISCARD, s.hands[s.to_play][0])), ig.DRAW_STOCK)
    assert after.reshuffles == 1 and evaluate(after, samples=8, seed=2).options
