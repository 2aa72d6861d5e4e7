"""Exercises a teacher defines in her own notebook: every kind of answer read in any form a student
types, everything checked when defined, blank answers neither right nor wrong, common mistakes
explained, hints that never give the answer away; the key, the preflight and a new lesson."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from rummylab import gin, lessons
from rummylab.cli import main
from rummylab.lessons import exercises

HAND = "AS 2S 3S 7H 7D 7C 9C TC JC KD"
HELD = "AS 2S 3S 7H 7D 7C 9C TC JC KD QH"


@pytest.fixture(autouse=True)
def fresh(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Each test defines its own exercises, records nothing unless it says so, and has no name."""
    monkeypatch.delenv("RUMMYLAB_DB", raising=False)
    monkeypatch.delenv("RUMMYLAB_APP", raising=False)
    monkeypatch.setenv("RUMMYLAB_LESSON", "my-lesson")
    monkeypatch.setattr(exercises, "_STUDENT", None)
    exercises.reset()
    exercises.PENDING.clear()
    yield
    exercises.reset()


def test_a_plain_value_answer_with_a_hint_and_mistakes() -> None:
    ex = lessons.exercise("deadwood", f"What is the deadwood of {HAND}?", answer=23 - 13,
                          hint="Find the melds first.", mistakes={13: "A king counts 10, not 13."},
                          explain="Only KD is left: 10.")
    assert ex.lesson == "my-lesson" and ex.kind.name == "number" and "Exercise." in ex._repr_html_()
    assert lessons.check("deadwood", 10).right is True
    assert lessons.check("deadwood", "10").right is True and lessons.check("deadwood", " 10.0 ").right is True
    assert lessons.check("deadwood", 13).why == "A king counts 10, not 13."
    wrong = lessons.check("deadwood", 12)
    assert wrong.right is False and "12 is not it" in wrong.why and "Find the melds first" in wrong.why
    assert "could not read" in lessons.check("deadwood", "ten").why
    assert lessons.hint("deadwood") == "Find the melds first."


def test_cards_in_any_order_and_notation() -> None:
    best = sorted(gin.best_discards(HELD).discards)
    lessons.exercise("both", f"Holding {HELD}, name every best discard.", answer=best)
    for typed in ("KD QH", "qh kd", "Q♥ K♦", "KD, QH", ("QH", "KD")):
        assert lessons.check("both", typed).right is True, typed
    assert lessons.check("both", "KD").right is False


def test_a_set_of_acceptable_cards_from_the_package() -> None:
    """Any one of the best discards is right: the package's frozenset of Card meets "KD"."""
    lessons.exercise("throw", f"Holding {HELD}, which card do you throw?", answer=gin.best_discards(HELD).discards,
                     mistakes={"jc": "JC finishes a run."})
    assert exercises.get("throw").kind.name == "any card of"
    assert lessons.check("throw", "KD").right is True and lessons.check("throw", "q♥").right is True
    assert lessons.check("throw", "JC").why == "JC finishes a run."
    assert lessons.check("throw", "2S").right is False


def test_any_card_of_is_told_with_or() -> None:
    """Either card is right: the key, the default explanation and the server's grade say "QD or KS";
    a student who names both is shown as naming both."""
    from rummylab.lessons.grading import graded
    from rummylab.lessons.key import entries, key_text, lesson_report

    lessons.exercise("throw", "Which card do you throw?", answer={"QD", "KS"}, mistakes={"JC": "It melds."})
    assert exercises.get("throw").shown == "QD or KS"
    assert lessons.check("throw", "qd").why == "QD or KS is right."
    assert lessons.check("throw", "KS QD JC").why == "JC QD KS is not it."  # she named all three
    (entry,) = entries(lesson_report())
    assert "A: QD or KS" in key_text([entry]) and "If a student says JC: It melds." in key_text([entry])
    grade = graded([entry])[("my-lesson", "throw")]
    assert grade.right("KS") and grade.right("QD KS") and not grade.right("JC")
    with pytest.raises(ValueError, match=r"gives the answer \(QD or KS\) away"):
        lessons.exercise("bad", "Which card?", answer={"QD", "KS"}, hint="QD or KS, of course.")


def test_cards_are_shown_in_rank_order() -> None:
    """A run reads A 2 … T J Q K (the cards' own order, not as text) in the key, the feedback and
    what is recorded; melds and acceptable cards too, jokers last."""
    from rummylab.lessons.key import entries, key_text, lesson_report

    lessons.exercise("run", "Which cards make the run?", answer="KC QC JC", mistakes={"kc qc jc tc": "TC is not in."})
    assert exercises.get("run").shown == "JC QC KC" and lessons.check("run", "qc kc jc").why == "JC QC KC is right."
    assert lessons.check("run", "AS TS 2S").why.startswith("AS 2S TS is not it.")
    assert lessons.check("run", "JK 6H 5H").why.startswith("5H 6H JK is not it.")
    lessons.exercise("melds", f"Meld {HAND}.", answer=gin.analyze(HAND).melds)
    assert exercises.get("melds").shown == "AS 2S 3S | 7H 7D 7C | 9C TC JC"
    lessons.exercise("any", "Any card of the run?", answer={"KC", "QC", "JC"})
    assert exercises.get("any").shown == "JC or QC or KC"
    text = key_text(entries(lesson_report()))
    assert "A: JC QC KC" in text and "If a student says TC JC QC KC" in text and "A: JC or QC or KC" in text


def test_yes_no_text_one_of_parts_and_melds() -> None:
    lessons.exercise("pile", "May you take a joker from the pile?", answer=False, mistakes={"yes": "Never."})
    assert lessons.check("pile", "no").right is True and lessons.check("pile", "False").right is True
    assert lessons.check("pile", True).why == "Never."
    lessons.exercise("kind", "Is 5H 6H 7H pure?", answer="pure", kind="text")
    assert lessons.check("kind", " Pure. ").right is True
    lessons.exercise("wild", "Which rank is wild?", answer={"T", "10"})
    assert lessons.check("wild", "10").right is True and lessons.check("wild", "t").right is True
    assert lessons.check("wild", 10).right is True and lessons.check("wild", 8).right is False
    lessons.exercise("who", "Who scores, and how much?", answer=("defender", 28),
                     mistakes={("defender", 3): "The undercut bonus!"})
    assert lessons.check("who", lessons.from_text("Defender, 28")).right is True
    assert lessons.check("who", "defender, 3").why == "The undercut bonus!"
    lessons.exercise("melds", f"Meld {HAND}.", answer=gin.analyze(HAND).melds)
    assert exercises.get("melds").kind.name == "melds"
    assert lessons.check("melds", "7H 7C 7D | 3S 2S AS | 9C TC JC").right is True
    assert lessons.check("melds", "AS 2S 3S | 7H 7D 7C").right is False


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"answer": ...}, "answer is ..."),
    ({"answer": lambda: 1 / 0}, "answer: calling it raised ZeroDivisionError"),
    ({"answer": 10, "mistakes": {10: "x"}}, "mistake 10 is a right answer"),
    ({"answer": 10, "mistakes": {"ten": "x"}}, "mistake 'ten' cannot be read as a number"),
    ({"answer": 10, "mistakes": {11: ""}}, "mistake 11 needs an explanation"),
    ({"answer": 10, "mistakes": {11: "x", "11.0": "y"}}, "listed twice"),
    ({"answer": 10, "hint": "It is 10."}, "gives the answer (10) away"),
    ({"answer": 10, "explain": lambda: 3}, "explain must be text"),
    ({"answer": "KD", "kind": "colour"}, "kind='colour': one of number"),
    ({"answer": "KD 1S"}, "answer 'KD 1S': card '1S'"),
    ({"answer": object()}, "give kind="),
])
def test_everything_is_checked_when_defined(kwargs: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=message.replace("(", r"\(").replace(")", r"\)").replace("?", r"\?")):
        lessons.exercise("bad", "A question?", **kwargs)
    assert "bad" not in lessons.EXERCISES


def test_a_yes_no_hint_may_say_no() -> None:
    """A yes/no answer's word in a hint gives nothing away; other kinds' answers still do."""
    lessons.exercise("pure", "Is JK 5H 6H pure?", answer=False,
                     hint="Find a sequence in which no joker stands in for a card.")
    lessons.exercise("sure", "May you lay off?", answer=True, hint="Yes or no: read the rules.")
    assert lessons.check("pure", "no").right is True and lessons.check("sure", "yes").right is True
    with pytest.raises(ValueError, match=r"gives the answer \(KD\) away"):
        lessons.exercise("bad", "Which card?", answer="KD", hint="Not KD.")


def _run(cells: list[Any], errors: list[Any], report: dict[str, Any], env: dict[str, str]) -> Any:
    import nbformat

    from rummylab.lessons.runner import LessonRun

    nb = nbformat.v4.new_notebook(cells=cells)
    return LessonRun(Path("14-mine.ipynb"), env, nb, errors, report)


def test_a_definition_that_fails_is_said_once() -> None:
    """The preflight says a failed definition's error once (not once a setting), and its check
    adds no "is not defined"; a check of a name no cell defines still does."""
    import nbformat

    from rummylab.lessons.preflight import judge
    from rummylab.lessons.runner import CellError, cell_label

    cells = [nbformat.v4.new_markdown_cell("# Mine"),
             nbformat.v4.new_code_cell('exercise("pure", "Pure?", answer=False, mistakes={"no": "x"})'),
             nbformat.v4.new_code_cell('check("pure", ...)\ncheck("other", 3)')]
    error = CellError(1, "ValueError", "exercise 'pure': mistake 'no' is a right answer", "", cell_label(cells, 1))
    report = {"exercises": [], "undefined": ["other", "pure"], "widgets": []}
    verdict = judge([_run(cells, [error], report, {}), _run(cells, [error], report, {"RUMMYLAB_SEED": "7"})])
    said = "\n".join(verdict.problems)
    assert said.count("mistake 'no' is a right answer") == 1 and "under every setting" in said
    assert "check('pure')" not in said and "but no exercise 'other' is defined" in said
    one = judge([_run(cells, [error], report, {}), _run(cells, [], {**report, "undefined": []}, {"RUMMYLAB_N": "9"})])
    assert "under its defaults: cell 2 (code cell 1): ValueError" in "\n".join(one.problems)


def test_a_typo_in_a_check_names_its_cell_and_the_exercise(capsys: pytest.CaptureFixture[str]) -> None:
    """A mistyped name suggests the closest defined ones, in the feedback, in ``get`` and in the
    preflight, which names the cell counted from 1 as JupyterLab shows it (and its code cell)."""
    import nbformat

    from rummylab.lessons.preflight import judge
    from rummylab.lessons.runner import CellError, cell_label

    lessons.exercise("upcard_melds", "Which melds?", answer="AS 2S 3S")
    assert "did you mean 'upcard_melds'?" in lessons.check("upcard_meld", "AS").why
    assert "did you mean" not in lessons.check("deadwood", 3).why
    with pytest.raises(ValueError, match="unknown exercise 'upcard_meld': did you mean 'upcard_melds'"):
        lessons.hint("upcard_meld")
    cells = [nbformat.v4.new_markdown_cell("# Mine"), nbformat.v4.new_code_cell('exercise("upcard_melds", …)'),
             nbformat.v4.new_markdown_cell("Your turn."), nbformat.v4.new_code_cell('check("upcard_meld", ...)'),
             nbformat.v4.new_code_cell('answer = 3\ncheck("upcard_melds", answer)')]
    assert [cell_label(cells, i) for i in (0, 3, -1)] == ["cell 1", "cell 4 (code cell 2)",
                                                           "the preflight's setup cell"]
    assert str(CellError(4, "NameError", "x", "", cell_label(cells, 4))) == "cell 5 (code cell 3): NameError: x"
    report = {"exercises": [{"name": "upcard_melds", "answer_accepted": True, "unexplained": []}],
              "undefined": ["upcard_meld"], "widgets": []}
    said = "\n".join(judge([_run(cells, [], report, {})]).problems)
    assert ("check('upcard_meld') in cell 4 (code cell 2), but no exercise 'upcard_meld' is defined "
            "(lessons.exercise): did you mean 'upcard_melds'?") in said
    assert "cell 5 (code cell 3): answer = 3" in said


@pytest.mark.parametrize("name", ["", "1st", "a b", "x" * 61, None])
def test_bad_names_are_refused(name: Any) -> None:
    with pytest.raises(ValueError, match="exercise name"):
        lessons.exercise(name, "Q?", answer=1)


def test_blank_answers_in_a_notebook_and_in_a_served_lesson(monkeypatch: pytest.MonkeyPatch) -> None:
    lessons.exercise("deck", "How many cards are in a gin deck?", answer=52)
    blank = lessons.check("deck", ...)
    assert blank.right is None and not blank and "Write your answer in place of ..." in str(blank)
    assert "How many cards" not in str(blank)  # the question is said once, where it is defined
    monkeypatch.setenv("RUMMYLAB_APP", "1")
    served = str(lessons.check("deck", ...))
    assert "Type your answer in the box below" in served and "run the cell" not in served
    assert "lessons.hint" not in served


def test_an_undefined_exercise_never_raises_in_class() -> None:
    f = lessons.check("nope", 3)
    assert f.right is None and "not defined in this lesson" in f.why and "nope" in exercises.ASKED
    with pytest.raises(ValueError, match="unknown exercise 'nope'"):
        lessons.hint("nope")


def test_every_right_answer_can_be_typed_in_the_box() -> None:
    lessons.exercise("who", "Who scores?", answer=("defender", 28))
    lessons.exercise("throw", "Throw?", answer=gin.best_discards(HELD).discards)
    for name in ("who", "throw"):
        box = lessons.answer_box(name)
        (text, check_button, hint_button), out = box.children[1].children, box.children[2]
        text.value = exercises.get(name).kind.typed(exercises.get(name).answer)
        check_button.click()
        assert "✔ Right" in out.value, (name, out.value)
        assert f"rl-exercise-{name}" in box._dom_classes
        hint_button.click()
        assert "hint" in out.value.lower()


def test_an_answer_box_that_fails_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    lessons.exercise("deck", "How many?", answer=52)
    box = lessons.answer_box("deck")
    (text, check_button, _), out = box.children[1].children, box.children[2]

    def broken(*_: Any) -> Any:
        raise RuntimeError("boom")

    monkeypatch.setattr("rummylab.lessons.boxes.check", broken)
    text.value = "52"
    check_button.click()
    assert "Something went wrong" in out.value and "boom" not in out.value


def test_answers_before_a_name_are_kept_then_recorded(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from rummylab.progress import Progress

    db = tmp_path / "progress.sqlite"
    monkeypatch.setenv("RUMMYLAB_DB", str(db))
    lessons.exercise("deck", "How many cards?", answer=52)
    early = lessons.check("deck", 54)
    assert early.right is False and "Type your name" in early.why
    box = lessons.name_box()
    (text, button), note = box.children[0].children, box.children[1]
    text.value = "Ana"
    button.click()
    assert "earlier answer" in note.value and not exercises.PENDING
    lessons.check("deck", "52")
    rows = Progress(db).rows()
    assert rows["student"].to_list() == ["Ana", "Ana"] and rows["lesson"].to_list() == ["my-lesson"] * 2
    assert "answer" in rows.columns and rows["answer"].to_list() == ["54", "52"]


def test_the_request_for_a_name_goes_once_it_is_given(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """"Type your name…" under an answer (a box, a response, a cell's feedback) is taken away when the
    student gives her name; a box answered again shows its latest feedback."""
    import ipywidgets as w
    from IPython import display as ipython_display

    monkeypatch.setenv("RUMMYLAB_DB", str(tmp_path / "p.sqlite"))
    lessons.exercise("deck", "How many cards?", answer=52)
    box = lessons.answer_box("deck")
    (text, check_button, _), out = box.children[1].children, box.children[2]
    text.value = "54"
    check_button.click()
    text.value = "52"
    check_button.click()
    notes = w.Textarea(value="Aces are low.")
    sent = lessons.respond("notes", notes)
    sent.children[1].click()
    shown: list[dict[str, str]] = []

    class Handle:
        def update(self, bundle: dict[str, str], raw: bool) -> None:
            shown.append(bundle)

    def display(bundle: dict[str, str], raw: bool, display_id: bool = False) -> Handle | None:
        shown.append(bundle)
        return Handle() if display_id else None

    monkeypatch.setattr(ipython_display, "display", display)
    lessons.check("deck", 51)._ipython_display_()
    assert all("Type your name" in v for v in (out.value, sent.children[2].value, shown[0]["text/plain"]))
    box_name = lessons.name_box()
    box_name.children[0].children[0].value = "Ana"
    assert "Type your name" not in out.value and "✔ Right" in out.value
    assert "Type your name" not in sent.children[2].value and "Sent to your teacher." in sent.children[2].value
    assert shown[-1]["text/plain"] == "✘ Not quite. 51 is not it." and "Type your name" not in shown[-1]["text/html"]
    assert not exercises.WHEN_NAMED


def test_respond_records_a_free_answer(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import ipywidgets as w

    from rummylab.progress import Progress

    monkeypatch.setenv("RUMMYLAB_DB", str(tmp_path / "p.sqlite"))
    lessons.set_student("Ana")
    notes = w.Textarea()
    box = lessons.respond("notes", notes)
    notes.value = "K-A-2 is <b>not</b> a run"
    box.children[1].click()
    assert "Sent to your teacher" in box.children[2].value
    row = Progress(tmp_path / "p.sqlite").rows().row(0, named=True)
    assert row["exercise"] == "notes" and row["answer"] == "K-A-2 is <b>not</b> a run"
    with pytest.raises(ValueError, match="has no value"):
        lessons.respond("x", w.Button())


@pytest.mark.once  # authoring and the preflight; every lesson runs on the twin in test_notebooks
def test_a_new_lesson_its_preflight_and_its_key(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`lessons new` writes a lesson that passes the preflight; the key reads its exercise; a lesson
    with a typed-in answer, an undefined exercise and an error fails the preflight, saying each."""
    assert main(["lessons", "new", str(tmp_path / "12-my-lesson.ipynb")]) == 0
    assert main(["lessons", "new", str(tmp_path / "12-my-lesson.ipynb")]) == 2  # never overwritten
    capsys.readouterr()
    assert main(["lessons", "check", str(tmp_path), "--quick"]) == 0
    assert "ok   12-my-lesson" in capsys.readouterr().out
    page = tmp_path / "key.html"
    assert main(["lessons", "key", str(tmp_path), "--lesson", "12", "--html", str(page)]) == 0
    text = capsys.readouterr().out
    assert "[12-my-lesson] my_lesson_deadwood" in text and "A: 10" in text and "If a student says 13" in text
    assert "<script" not in page.read_text() and page.read_text().count("<section>") == 1

    import nbformat

    nb = nbformat.read(tmp_path / "12-my-lesson.ipynb", as_version=4)
    nb.cells.append(nbformat.v4.new_code_cell('answer = 10\ncheck("my_lesson_deadwood", answer)'))
    nb.cells.append(nbformat.v4.new_code_cell('check("typo_deadwood", 3)'))
    nb.cells.append(nbformat.v4.new_code_cell('1 / 0'))
    nb.cells.append(nbformat.v4.new_code_cell('exercise("pure", "Pure?", answer=False, mistakes={"no": "x"})'))
    nb.cells.append(nbformat.v4.new_code_cell('check("pure", ...)'))
    nbformat.write(nb, tmp_path / "13-broken.ipynb")
    with pytest.raises(SystemExit) as exit_status:
        main(["lessons", "check", str(tmp_path), "--quick"])
    assert exit_status.value.code == 1
    out = capsys.readouterr().out
    assert "FAIL 13-broken" in out and "cell 8 (code cell 6): answer = 10" in out
    assert "check('typo_deadwood') in cell 9 (code cell 7)" in out and "did you mean 'my_lesson_deadwood'?" in out
    assert "cell 10 (code cell 8): ZeroDivisionError" in out and "1 of 2 lessons" in out
    assert out.count("mistake 'no' is a right answer") == 1 and "check('pure')" not in out  # no cascade


def test_the_key_of_a_packaged_lesson(capsys: pytest.CaptureFixture[str]) -> None:
    """The key of the packaged lessons is read from the lessons themselves (here: lesson 00)."""
    assert main(["lessons", "key", "--lesson", "00"]) == 0
    text = capsys.readouterr().out
    assert "[00-start-here] not_a_card (64 variants" in text and "\n  A: " in text and "If a student says" in text
    assert main(["lessons", "key", "--lesson", "99"]) == 2
    assert "no such lesson" in capsys.readouterr().err


@pytest.mark.once  # a review on the twin plays every rollout on the engine
def test_a_review_the_student_opens_reaches_the_teacher(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from rummylab.gin import game as g
    from rummylab.gin.players import GreedyBot
    from rummylab.progress import Progress
    from rummylab.widgets.table import GinTable

    monkeypatch.setenv("RUMMYLAB_DB", str(tmp_path / "p.sqlite"))
    lessons.set_student("Ana")
    table, me = GinTable(seed=3), GreedyBot(0)
    table.on_review = lessons.review_log()
    while table.state.phase not in (g.Phase.HAND_OVER, g.Phase.GAME_OVER, g.Phase.MATCH_OVER):
        table.play(me.act(table.state))
    next(b for b in table.actions.children if b.description == "Review this hand").click()
    row = Progress(tmp_path / "p.sqlite").rows().row(0, named=True)
    assert row["exercise"] == "hands_reviewed" and "decisions, the best move in" in row["answer"]
    assert row["right"] is None  # a response, not a graded check
    with pytest.raises(ValueError, match="response name"):
        lessons.review_log("no spaces please")


def test_a_kernel_that_runs_lessons_holds_no_secret(monkeypatch: pytest.MonkeyPatch) -> None:
    """The key's, the preflight's and a class's rendering kernel get no store address and no
    hub or database secret (the hub service runs lessons with its own)."""
    from rummylab.lessons.runner import kernel, run_cells

    for name, value in (("RUMMYLAB_DB", "postgresql://u:pw@db/class"), ("PGPASSFILE", "/state/pgpass"),
                        ("JUPYTERHUB_API_TOKEN", "service-token"), ("JPY_API_TOKEN", "service-token"),
                        ("CONFIGPROXY_AUTH_TOKEN", "proxy")):
        monkeypatch.setenv(name, value)
    monkeypatch.setenv("RUMMYLAB_SEED", "7")
    with kernel() as client:
        nb = run_cells(client, ["import os; print(sorted(k for k in os.environ if k.startswith(('RUMMYLAB', 'PG', "
                                "'JUPYTERHUB', 'JPY', 'CONFIGPROXY'))))"])
    shown = ast.literal_eval(nb.cells[0].outputs[0]["text"])  # the names the kernel has
    assert "RUMMYLAB_SEED" in shown and not {"RUMMYLAB_DB", "PGPASSFILE", "JUPYTERHUB_API_TOKEN", "JPY_API_TOKEN",
                                             "CONFIGPROXY_AUTH_TOKEN"} & set(shown)
