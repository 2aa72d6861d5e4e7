"""Puzzles from real games (issue 41, point 3): the shipped set, remade from its seed; each
puzzle's best discard clear beyond its error; Glicko-2 ratings; the trainer widget; the server's
grade."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from rummylab.cards import parse_cards
from rummylab.gin import puzzles
from rummylab.gin.game import Kind, legal_actions
from rummylab.lessons import exercises as ex_module
from rummylab.progress import Progress
from rummylab.ratings import NEAREST, START, pick, rate
from rummylab.widgets.puzzle import PuzzleTrainer, verdict_html


def test_the_shipped_set_holds_clear_puzzles() -> None:
    found = puzzles.shipped()
    assert len(found) >= 300 and len({p.id for p in found}) == len(found)
    for p in found:
        hand = parse_cards(p.hand, jokers=0)
        assert len(hand) == 11 and p.best in {str(c) for c in hand}
        assert p.values[0][0] == p.best and sorted(c for c, _, _ in p.values) == sorted(str(c) for c in hand)
        assert p.margin >= puzzles.MARGIN and p.margin > puzzles.CLEAR * p.margin_se
        assert p.rating in puzzles.RATINGS.values() and p.reason
        assert all(a.kind is Kind.DISCARD for a in legal_actions(p.state()))  # no knock: one question
    assert len({p.rating for p in found}) >= 3  # easy and hard ones


@pytest.mark.once
def test_the_shipped_set_is_made_again_from_its_seed() -> None:
    """The command's first puzzles, cut again now, are the shipped ones: same positions, same answers."""
    again = puzzles.build(3, seed=1)
    assert again == list(puzzles.shipped()[:3])


def test_bad_input_is_named() -> None:
    p = puzzles.shipped()[0]
    with pytest.raises(ValueError, match="is not in the hand"):
        p.right(next(c for c in ("AS", "2S", "3S", "4S") if c not in p.hand.split()))
    with pytest.raises(ValueError, match="no gin puzzle 'nope'"):
        puzzles.by_id("nope")
    with pytest.raises(ValueError, match="count=0"):
        puzzles.build(0)


def test_a_rating_moves_by_glicko2_and_the_next_puzzle_is_near_it() -> None:
    assert rate([]).rating == START
    up = rate([("a", 1850.0, True)])
    down = rate([("a", 1100.0, False)])
    assert up.rating > START > down.rating and up.rd < 350
    assert rate([("a", 1850.0, True), ("a", 1850.0, False)]) == up  # a puzzle counts once
    found = puzzles.shipped()
    near = pick(found, 1600.0, [], np.random.default_rng(1))
    assert near.rating == 1600.0
    assert pick(found, 1600.0, [], np.random.default_rng(1)) == near  # the same for a seed
    tried = [p.id for p in found if p.rating == 1600.0][:-NEAREST]
    assert pick(found, 1600.0, tried, np.random.default_rng(2)).id not in tried


@pytest.fixture
def fresh(fresh_exercises: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """``fresh_exercises`` in lesson 06."""
    monkeypatch.setenv("RUMMYLAB_LESSON", "06-play-gin-against-the-computer")
    return fresh_exercises


def test_the_trainer_keeps_her_answers_and_her_rating_follows_her(fresh: Path) -> None:
    from rummylab.lessons import puzzle_log

    ex_module.set_student("Ada")
    trainer = PuzzleTrainer(seed=3, log=puzzle_log())
    first = trainer.puzzle
    assert f"rated {first.rating:.0f}" in trainer.head.value and len(trainer.cards.children) == 11
    wrong = next(c for c, _, _ in first.values if c != first.best)
    trainer.answer(wrong)
    assert "Not quite" in trainer.feedback.value and f"{first.best} is the best throw" in trainer.feedback.value
    trainer.answer(first.best)  # a second answer to the same puzzle is shown, not counted
    assert "Right" in trainer.feedback.value and trainer.attempts == [(first.id, False)]
    trainer.next.click()
    assert trainer.puzzle.id != first.id
    trainer.answer(trainer.puzzle.best)
    rows = Progress(fresh).rows()
    assert rows["exercise"].to_list() == [f"puzzle-{first.id}", f"puzzle-{trainer.puzzle.id}"]
    assert rows["right"].to_list() == [False, True] and set(rows["skill"]) == {"best discard"}
    again = PuzzleTrainer(seed=3, log=puzzle_log())  # a reload: her attempts read back
    assert again.attempts == trainer.attempts and str(again.rating()) == str(trainer.rating())


def test_the_verdict_says_what_each_throw_is_worth() -> None:
    p = puzzles.shipped()[0]
    text = verdict_html(p, p.values[1][0])
    assert f"{p.values[1][0]} gives up about" in text and "Why:" in text and "<table>" in text


def test_the_service_grades_a_puzzle_from_the_shipped_set() -> None:
    from rummylab.classroom.hub_service import Grader, _row  # make test installs the hub extra

    p = puzzles.shipped()[0]
    grader = Grader.of([])
    check = {"lesson": "anything", "exercise": f"puzzle-{p.id}", "check_id": "c1", "correct": 1}
    wrong = next(c for c, _, _ in p.values if c != p.best)
    assert _row({**check, "answer": p.best}, "ada", 1e9, grader)["correct"] == 1
    row = _row({**check, "answer": wrong}, "ada", 1e9, grader)
    assert row["correct"] == 0 and row["skill"] == "best discard"
    with pytest.raises(ValueError, match="no gin puzzle"):
        _row({**check, "exercise": "puzzle-nope", "answer": p.best}, "ada", 1e9, grader)


def test_the_indian_declaration_puzzles_have_one_answer_each() -> None:
    """Each shipped puzzle: fourteen cards, and exactly one card whose discard leaves a valid
    declaration (checked again by ``check_declaration``); the set is made again from its seed."""
    from rummylab import indian
    from rummylab.indian import puzzles as ipuzzles

    found = ipuzzles.shipped()
    assert len(found) >= 40 and len({p.id for p in found}) == len(found)
    for p in found[:20]:
        hand = parse_cards(p.hand, copies=2, jokers=2)
        assert len(hand) == 14
        assert list(ipuzzles.declaring_discards(hand, "A23456789TJQK".index(p.wild))) == [p.best]
        rest = list(hand)
        rest.remove(parse_cards(p.best, copies=2, jokers=2)[0])
        assert indian.check_declaration(rest, p.groups, p.wild).valid
        assert p.right(p.best) and not p.right(next(c for c in p.hand.split() if c != p.best))
    assert ipuzzles.build(5, seed=1) == list(found[:5])
    with pytest.raises(ValueError, match="is not in the hand"):
        found[0].right(next(c for c in ("AS", "2S", "3S", "4S", "5S") if c not in found[0].hand.split()))
