"""A teacher's own lesson, from ``rummylab lessons new`` to a served class: two exercises of her
own, a wrong then a right answer with her explanation, a cell that raises (one short line, the
lesson goes on), the teacher page with the typed answers, and the key."""

from __future__ import annotations

import os
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import nbformat
import pytest

from rummylab.cli import main

from .conftest import TEACHER_TOKEN, answer, serving

TIMEOUT = 120_000
DOCS_IMG = Path(__file__).resolve().parents[2] / "docs" / "img"

HER_EXERCISE = '''exercise(
    "throw_one", "You hold AS 2S 3S 7H 7D 7C 9C TC JC KD QH. Which card do you throw?",
    answer=gin.best_discards("AS 2S 3S 7H 7D 7C 9C TC JC KD QH").discards,
    hint="Which cards are in no meld <i>at all</i>?",
    mistakes={"JC": "JC finishes the run 9C TC JC: keep it, and throw a loose high card."},
    explain="KD or QH: both are loose, and each is worth 10.",
)'''


@pytest.fixture(scope="module")
def her_class(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    """Her folder: `lessons new`, then a second exercise and a broken cell; served with no --lesson."""
    folder = tmp_path_factory.mktemp("her-lessons")
    assert main(["lessons", "new", str(folder / "my-first-lesson.ipynb")]) == 0
    path = folder / "my-first-lesson.ipynb"
    nb = nbformat.read(path, as_version=4)
    v4 = nbformat.v4
    nb.cells += [v4.new_code_cell("1 / 0  # a slip of hers"),
                 v4.new_code_cell(HER_EXERCISE, metadata={"jupyter": {"source_hidden": True}}),
                 v4.new_code_cell('answer = ...  # your answer here\ncheck("throw_one", answer)'),
                 v4.new_code_cell('import ipywidgets as w\ndisplay(lessons.respond("why_pass", w.Textarea()))\n'
                                  'lessons.respond("what_now", w.Dropdown(options=["Take the upcard", '
                                  '"Pass and draw from the stock, keeping the upcard for your opponent"]))'),
                 v4.new_markdown_cell("The end of the lesson.")]
    nbformat.write(nb, path)
    with serving(folder, folder, "--students=1") as served:
        yield {**served, "db": folder / "progress.sqlite", "folder": folder}


def _feedback(page: Any, box: str, text: str) -> None:
    page.wait_for_function(
        f"() => (document.querySelector('{box} .rl-answer-feedback') || {{}}).innerText?.includes({text!r})",
        timeout=30_000)


def test_her_own_lesson_served(page: Any, her_class: dict[str, Any], capsys: pytest.CaptureFixture[str]) -> None:
    page.goto(f"{her_class['url']}/voila/render/my-first-lesson.ipynb", timeout=TIMEOUT)
    page.wait_for_selector(".rl-exercise-throw_one .rl-answer input", timeout=TIMEOUT)
    body = page.inner_text("body")
    assert "could not be shown; the rest goes on" in body and "ZeroDivisionError" not in body
    assert "Traceback" not in body and "The end of the lesson." in body
    assert body.count("Which card do you throw?") == 1  # the question is said once
    assert "Type your answer in the box below" in body and "run the cell" not in body
    # an answer before a name is kept, and the student is asked for a name
    answer(page, "my_first_lesson_deadwood", "13", "Type your name")
    page.fill(".rl-name input", "Ada <b>L</b>")
    page.click(".rl-name-ok")
    page.wait_for_function("() => document.querySelector('.rl-name-note').innerText.includes('earlier answer')",
                           timeout=30_000)
    answer(page, "my_first_lesson_deadwood", "10", "Right")
    box = ".rl-exercise-throw_one"
    answer(page, "throw_one", "jc", "keep it, and throw")  # her explanation
    page.click(f"{box} .rl-hint")
    _feedback(page, box, "Which cards are in no meld <i>at all</i>?")  # escaped, as she wrote it
    answer(page, "throw_one", "q♥", "KD or QH")
    if os.environ.get("RUMMYLAB_DOC_SHOTS"):
        answer(page, "throw_one", "JC", "finishes the run")
        top = page.locator(".rl-exercise-prompt").last.bounding_box()
        end = page.locator(box).bounding_box()
        assert top and end
        height = end["y"] + end["height"] - top["y"] + 24
        page.screenshot(path=str(DOCS_IMG / "authoring-served.png"),
                        clip={"x": 0, "y": top["y"] - 4, "width": 900, "height": height})
    # a Send button keeps its width, as Check does, and a dropdown shows its longest option whole
    for name in ("why_pass", "what_now"):
        send = page.locator(f".rl-exercise-{name} .rl-send").bounding_box()
        assert send and send["width"] < 200, (name, send)
    cut = page.evaluate("() => { const s = document.querySelector('.rl-exercise-what_now select');"
                        " return s.scrollWidth - s.clientWidth; }")
    width = page.evaluate("() => document.querySelector('.rl-exercise-what_now select').getBoundingClientRect().width")
    assert cut <= 0 and width > 300, (cut, width)
    # the teacher's log has the traceback the student did not see
    assert "ZeroDivisionError" in her_class["log"].read_text()
    # the teacher page shows the typed answers, escaped
    teacher = page.context.new_page()
    teacher.goto(f"{her_class['teacher']}/?token={TEACHER_TOKEN}", timeout=TIMEOUT)
    teacher.wait_for_function("() => document.body.innerText.includes('throw_one')", timeout=30_000)
    text = teacher.inner_text("body")
    assert "Ada <b>L</b>" in text and "JC" in text and "13" in text
    # and the key of her folder
    assert main(["lessons", "key", str(her_class["folder"])]) == 0
    key = capsys.readouterr().out
    assert "[my-first-lesson] throw_one" in key and "A: QH or KD" in key and "If a student says JC" in key
    with urllib.request.urlopen(f"{her_class['url']}/voila/render/my-first-lesson.ipynb", timeout=120) as r:
        assert "1 / 0" not in r.read().decode()  # no code reaches a student's page
