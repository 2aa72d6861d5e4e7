"""Variant exercises (issue 41, point 1): every student her own variant, another once she answered
it, the same after a reload; the key and the server's grade know every variant; the preflight
checks each one."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from rummylab import cards, gin
from rummylab.lessons import exercises as ex_module
from rummylab.lessons import key as key_module
from rummylab.lessons.exercises import another, check, exercise
from rummylab.lessons.grading import graded
from rummylab.lessons.variants import VARIANTS, variant_number, variant_rng
from rummylab.progress import Progress


def deal(rng: Any) -> str:
    """Ten cards of a shuffled deck."""
    return cards.cards_str(rng.choice(list(cards.DECK), 10, replace=False))


def deadwood_exercise(**extra: Any) -> Any:
    return exercise("count_it", lambda hand: f"What is the least deadwood of `{hand}`?", variants=deal,
                    answer=lambda hand: gin.deadwood(hand), lesson="02-melds-and-deadwood",
                    hint="Find the melds first, then add the rest.", skill="count deadwood", **extra)


@pytest.fixture
def fresh(fresh_exercises: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """``fresh_exercises`` in lesson 02."""
    monkeypatch.setenv("RUMMYLAB_LESSON", "02-melds-and-deadwood")
    return fresh_exercises


def test_a_variant_is_drawn_from_its_own_stream_the_same_everywhere() -> None:
    a = deal(variant_rng("02-melds-and-deadwood", "count_it", 5))
    assert a == deal(variant_rng("02-melds-and-deadwood", "count_it", 5))
    assert a != deal(variant_rng("02-melds-and-deadwood", "count_it", 6))
    assert a != deal(variant_rng("03-knocking-and-layoffs", "count_it", 5))
    order = [variant_number("02", "count_it", "Ada", k) for k in range(VARIANTS)]
    assert sorted(order) == list(range(VARIANTS))  # fresh for VARIANTS answers
    assert order != [variant_number("02", "count_it", "Bea", k) for k in range(VARIANTS)]
    with pytest.raises(ValueError, match="variant 64"):
        variant_rng("02", "count_it", VARIANTS)
    with pytest.raises(ValueError, match="attempt -1"):
        variant_number("02", "count_it", "Ada", -1)


def test_two_students_get_their_own_and_another_after_a_right_answer(fresh: Path) -> None:
    first = deadwood_exercise()
    assert first.variant == variant_number("02-melds-and-deadwood", "count_it", "", 0)  # the class's, no name yet
    ex_module.set_student("Ada")
    ada = ex_module.EXERCISES["count_it"]
    assert ada.variant == variant_number("02-melds-and-deadwood", "count_it", "Ada", 0)
    with pytest.raises(ValueError, match="answer exercise 'count_it' first"):
        another("count_it")
    wrong = check("count_it", ada.answer + 1)
    assert not wrong and "Find the melds first" in wrong.why
    assert check("count_it", ada.answer)
    nxt = another("count_it")
    assert nxt.variant == variant_number("02-melds-and-deadwood", "count_it", "Ada", 1) != ada.variant
    rows = Progress(fresh).rows()
    assert list(zip(rows["variant"], rows["right"], strict=True)) == [(ada.variant, False), (ada.variant, True)]
    # a reload (a new kernel): where she left off, read from the store
    ex_module.reset()
    ex_module._STUDENT = None
    deadwood_exercise()
    ex_module.set_student("Ada")
    assert ex_module.EXERCISES["count_it"].variant == nxt.variant
    # another student, on the same page after her
    ex_module.set_student("Bea")
    assert ex_module.EXERCISES["count_it"].variant == variant_number("02-melds-and-deadwood", "count_it", "Bea", 0)


def test_bad_variants_are_named(fresh: Path) -> None:
    with pytest.raises(ValueError, match="variants must be a function"):
        exercise("x", "Q?", answer=1, variants=[1, 2])  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"variant \d+: answer raised ZeroDivisionError"):
        exercise("x", lambda v: "Q?", answer=lambda v: 1 / 0, variants=deal)
    with pytest.raises(ValueError, match=r"variant \d+: the hint .* gives the answer"):
        exercise("x", lambda v: "Q?", answer=lambda v: v, hint=lambda v: f"It is {v}.", variants=lambda rng: 13)
    with pytest.raises(ValueError, match="skill"):
        exercise("x", "Q?", answer=1, skill="x" * 61)


def test_the_key_holds_every_variant_and_the_server_grades_each(fresh: Path) -> None:
    deadwood_exercise(mistakes=lambda hand: {gin.deadwood(hand) + 10: "Count each face card as 10, not 20."})
    report = key_module.lesson_report()
    (entry,) = key_module.entries(report)
    assert entry.skill == "count deadwood" and len(entry.variants) == VARIANTS
    assert all(v.answer_accepted and not v.unexplained and not v.error for v in entry.variants)
    v7 = entry.variants[7]
    hand = deal(variant_rng("02-melds-and-deadwood", "count_it", 7))
    assert v7.prompt == f"What is the least deadwood of `{hand}`?" and v7.answer == str(gin.deadwood(hand))
    again = key_module.entries_from_json(key_module.entries_json([entry]))
    assert again == [entry]
    grades = graded([entry])[("02-melds-and-deadwood", "count_it")]
    assert isinstance(grades, dict) and grades[7].right(v7.answer) and not grades[7].right(str(int(v7.answer) + 1))


def test_the_preflight_names_a_variant_that_fails() -> None:
    from rummylab.lessons.preflight import variant_problems

    entry = {"name": "count_it", "variants": [
        {"number": 0, "error": "exercise 'count_it', variant 0: answer raised KeyError: 'x'"},
        {"number": 1, "answer": "3", "answer_accepted": False, "unexplained": ["13"]},
        *({"number": n, "answer": "3", "answer_accepted": False, "unexplained": []} for n in range(2, 6))]}
    found = variant_problems(entry)
    assert found[0].startswith("count_it variant 0: ") and "is marked wrong" in found[1]
    mixed = {"name": "wild", "kind": "number", "variants": [{"number": 0, "kind": "text", "answer": "q"}]}
    assert variant_problems(mixed) == ["wild variant 0: its answer 'q' is read as text, the exercise's as number: "
                                       "give every variant's answer the same kind (kind=…)"]
    assert found[-1] == "count_it: and 4 more problems in its variants"


def test_the_key_shows_a_students_variant(fresh: Path) -> None:
    deadwood_exercise()
    exercise("plain", "How many cards in a deck?", answer=52)
    found = key_module.entries(key_module.lesson_report())
    assert "(64 variants, each student her own" in key_module.key_text(found)
    theirs = key_module.for_student(found, "Ada", {"02-melds-and-deadwood": {"count_it": 2}})
    number = variant_number("02-melds-and-deadwood", "count_it", "Ada", 2)
    hand = deal(variant_rng("02-melds-and-deadwood", "count_it", number))
    assert theirs[0].prompt == f"What is the least deadwood of `{hand}`?"
    assert theirs[0].answer == str(gin.deadwood(hand))
    assert theirs[1] == found[1]  # one question for all
    assert f"[02-melds-and-deadwood] count_it (variant {number})" in key_module.key_text(theirs)


def test_the_service_grades_the_variant_answered(fresh: Path) -> None:
    """A check names its variant; the service grades it against that variant's answer in the key
    (a right answer to another variant is wrong), and refuses a check of a variant exercise that
    names none or one that is not there."""
    from rummylab.classroom.hub_service import Grader, _row  # make test installs the hub extra

    deadwood_exercise()
    grader = Grader.of(key_module.entries(key_module.lesson_report()))
    answers = {n: str(gin.deadwood(deal(variant_rng("02-melds-and-deadwood", "count_it", n)))) for n in (3, 4)}
    assert answers[3] != answers[4]
    check_of = {"lesson": "02-melds-and-deadwood", "exercise": "count_it", "check_id": "c1", "correct": 1}
    assert _row({**check_of, "answer": answers[3], "variant": 3}, "ada", 1e9, grader)["correct"] == 1
    row = _row({**check_of, "answer": answers[4], "variant": 3, "correct": 1}, "ada", 1e9, grader)
    assert row["correct"] == 0 and row["variant"] == 3  # her kernel's word is not the grade
    with pytest.raises(ValueError, match="say which was answered"):
        _row({**check_of, "answer": answers[3]}, "ada", 1e9, grader)
    with pytest.raises(ValueError, match="variant 99"):
        _row({**check_of, "answer": answers[3], "variant": 99}, "ada", 1e9, grader)


def test_a_skill_is_mastered_after_three_right_in_a_row_on_fresh_questions() -> None:
    from rummylab.progress.mastery import STREAK, skill_states

    def checks(*marks: tuple[str, int | None, bool]) -> Any:
        return [("count deadwood", "02", name, variant, right) for name, variant, right in marks]

    assert STREAK == 3
    state = skill_states(checks(("a", 1, True), ("a", 1, True), ("a", 2, True)))["count deadwood"]
    assert (state.streak, state.mastered) == (2, False)  # the same hand again does not count
    state = skill_states(checks(("a", 1, True), ("a", 2, False), ("a", 2, True), ("b", None, True),
                                ("a", 3, True)))["count deadwood"]
    assert (state.streak, state.best, state.right, state.tried, state.mastered) == (3, 3, 4, 5, True)
    assert str(state) == "count deadwood: mastered"
    state = skill_states(checks(("a", 1, True), ("a", 2, True), ("a", 3, True), ("a", 4, False)))["count deadwood"]
    assert state.mastered and state.streak == 0  # mastered stays; the streak shows where she is now
    assert str(skill_states(checks(("a", 5, True)))["count deadwood"]) == "count deadwood: 1 of 3 in a row"


def test_her_skills_are_counted_from_the_store_and_shown_on_the_index(fresh: Path) -> None:
    from rummylab.classroom.lesson_index import index_html, lessons_in, student_skills

    deadwood_exercise()
    ex_module.set_student("Ada <b>")
    for _ in range(3):
        assert check("count_it", ex_module.EXERCISES["count_it"].answer)
        another("count_it")
    skills = student_skills(str(fresh), name="Ada <b>")
    assert skills["count deadwood"].mastered and Progress(fresh).rows()["skill"].to_list() == ["count deadwood"] * 3
    assert student_skills(str(fresh), name="Bea") == {} and student_skills(None, name="Ada <b>") == {}
    page = index_html(lessons_in(Path(__file__).parent.parent / "notebooks"), "/", skills=skills, who="Ada <b>")
    assert "count deadwood: mastered ✔" in page and "Ada &lt;b&gt;" in page


def test_the_key_cli_shows_the_variant_a_student_is_on(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``rummylab lessons key DIR --student NAME``: her variant, after the ones she answered right."""
    import shutil

    from rummylab.cli import main

    shutil.copy(Path(__file__).parent.parent / "notebooks" / "02-melds-and-deadwood.ipynb", tmp_path)
    Progress(tmp_path / "progress.sqlite").record("Ada", "02-melds-and-deadwood", "deadwood_split_run", True, "10",
                                                 variant=3)
    assert main(["lessons", "key", str(tmp_path), "--student", "Ada"]) == 0
    out = capsys.readouterr().out
    number = variant_number("02-melds-and-deadwood", "deadwood_split_run", "Ada", 1)
    assert f"[02-melds-and-deadwood] deadwood_split_run (variant {number})" in out
    first = variant_number("02-melds-and-deadwood", "around_the_corner", "Ada", 0)
    assert f"[02-melds-and-deadwood] around_the_corner (variant {first})" in out


def test_a_text_answer_is_shown_as_the_lesson_wrote_it(fresh: Path) -> None:
    """The key and the explanation show "SJ", not its normal form "sj"; any case is right, and the
    server reads the key's answer back."""
    from rummylab.lessons.grading import graded as graded_of

    exercise("odd_one", "Which word is no card?", answer="SJ", kind="text")
    assert ex_module.EXERCISES["odd_one"].shown == "SJ" and check("odd_one", "sj")
    assert "SJ is right" in check("odd_one", "Sj").why
    (entry,) = key_module.entries(key_module.lesson_report())
    assert entry.answer == "SJ"
    found = graded_of([entry])[(entry.lesson, "odd_one")]
    assert not isinstance(found, dict) and found.right("sj")
