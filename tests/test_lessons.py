"""Exercises: blank answers are neither right nor wrong, right answers pass, common wrong ones get
their own explanation, hints never give the answer away; the teacher's key, as text and HTML."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from rummylab import lessons
from rummylab.cli import main

NAMES = list(lessons.EXERCISES)


def _as_given(answer: object) -> object:
    """How a student would type a set of cards: a string."""
    return " ".join(sorted(answer)) if isinstance(answer, frozenset) else answer


@pytest.mark.parametrize("name", NAMES)
def test_blank_right_and_wrong(name: str) -> None:
    ex = lessons.EXERCISES[name]
    blank = lessons.check(name, ...)
    assert blank.right is None and not blank and "Write your answer in place of ..." in str(blank)
    assert ex.prompt in str(blank)
    right = lessons.check(name, _as_given(ex.answer()))
    assert right.right is True and str(right).startswith("✔")
    for wrong, why in ex.mistakes().items():
        f = lessons.check(name, _as_given(wrong))
        assert f.right is False and f.why == why, (name, wrong, f)
    hint = lessons.hint(name)
    assert hint and str(_as_given(ex.answer())) not in hint.split()


def test_named_mistakes_from_the_issue() -> None:
    assert "undercut bonus" in lessons.check("undercut", ("defender", 3)).why
    assert "K-A-2 is not a run" in lessons.check("around_the_corner", 7).why
    assert lessons.check("deck_size", "fifty").right is False  # unreadable: no crash
    with pytest.raises(ValueError, match="unknown exercise 'nope'"):
        lessons.hint("nope")


def test_feedback_html() -> None:
    assert "rl-feedback" in lessons.check("deck_size", ...)._repr_html_()


def test_teacher_key_text_and_html(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "key.html"
    assert main(["lessons", "key", "--html", str(out)]) == 0
    text = capsys.readouterr().out
    for name in NAMES:
        assert name in text
    assert "A: 31" in text and "If a student says 32" in text
    page = out.read_text(encoding="utf-8")
    assert page.startswith("<!doctype html>") and "<script" not in page and "http" not in page
    assert page.count("<section>") == len(NAMES)
    assert main(["lessons", "key", "--html", str(tmp_path / "no" / "such" / "dir.html")]) == 2
    assert "cannot write" in capsys.readouterr().err


def test_key_from_the_console_script() -> None:
    r = subprocess.run([sys.executable, "-m", "rummylab", "lessons", "key"], capture_output=True, text=True,
                       check=False)
    assert r.returncode == 0 and "[00-start-here] deck_size" in r.stdout


def test_results_show_as_html() -> None:
    """What a lesson displays reads well without code: melds as chips, sentences."""
    from rummylab import gin, indian
    from rummylab import three_thirteen as tt

    shown = [gin.analyze("AS 2S 3S 7H 7D 7C 9C TC JC KD"), gin.best_discards("AS 2S 3S 7H 7D 7C 9C TC JC KD QH"),
             gin.score_knock("AS 2S 3S 7H 7D 7C 9C TC JC 4D", "4S 5S 8C KS QH JD 8S 6H 2C 9H"),
             tt.analyze("5H 7S 9S KD 2C", 3), indian.loser_points("AS 2S 3S 5H 6H JK 9D 9C 9S KD KC 4C 8D", "7"),
             indian.check_declaration("AS 2S 3S 5H 6H JK 9D 9C 9S KD QD 7C 7H",
                                      ["AS 2S 3S", "5H 6H JK", "9D 9C 9S", "KD QD 7C 7H"], "7")]
    for result in shown:
        page = result._repr_html_()
        assert "rl-chip" in page and "Card(" not in page
    assert "The knocker scores 51" in shown[2]._repr_html_()
    assert "Discard QH or KD" in shown[1]._repr_html_()


@pytest.mark.parametrize("name", NAMES)
def test_every_answer_can_be_typed_in_the_box(name: str) -> None:
    """In app mode a student types the answer: the typed form of each right answer is right."""
    answer = lessons.EXERCISES[name].answer()
    typed = (" ".join(sorted(answer)) if isinstance(answer, frozenset)
             else ", ".join(map(str, answer)) if isinstance(answer, tuple) else str(answer))
    assert lessons.check(name, lessons.from_text(typed)).right is True
    box = lessons.answer_box(name)
    assert f"rl-exercise-{name}" in box._dom_classes


def test_a_blank_check_shows_an_answer_box() -> None:
    blank = lessons.check("deck_size", ...)
    assert blank.exercise == "deck_size"
    assert lessons.from_text("defender, 28") == ("defender", 28) and lessons.from_text("KD QH") == "KD QH"
