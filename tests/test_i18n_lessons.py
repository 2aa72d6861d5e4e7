"""Every lesson run in the pseudo-language (which writes each catalog string ⟦thus⟧), as a class's
kernel runs it: what a student reads on its page (its text cells, printed lines, tables, charts and
widgets) has no bare English word, so every word of it comes from a catalog."""

from __future__ import annotations

import html
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from rummylab.i18n import PSEUDO
from rummylab.lessons import preflight, runner, translate

pytestmark = pytest.mark.once  # the words do not depend on the kernel: the compiled run has it

NOTEBOOKS = sorted((Path(__file__).resolve().parent.parent / "notebooks").glob("[0-9]*.ipynb"))

ALLOWED = {
    # names, not words: the toolkit, the bots (as their menu lists them), peers and units
    "rummylab", "random", "greedy", "strong", "expert", "rollout", "MARJJ", "EAAI", "Glicko", "Voilà",
    "Monte", "Carlo", "SE", "CSV", "SVG", "JupyterLab", "Jupyter", "Dask", "polars",
}
CARD = re.compile(r"(?<![\w])(10|[2-9TJQKA])[SHDC♠♥♦♣](?![\w])|\bJK\b|\b[SHDC]{4}\b")
"""Cards, and suit orders ("SHDC"): notation, not words."""
MARKED = re.compile(r"⟦[^⟧]*⟧", re.S)
NOT_WORDS = re.compile(r"`[^`]*`|<[^>]*>|&\w+;|https?://\S+|\{[^}]*\}")


def bare_english(text: str) -> list[str]:
    """The English words left in ``text`` once the pseudo-language's strings, code, cards and names are
    taken out."""
    rest = CARD.sub(" ", NOT_WORDS.sub(" ", MARKED.sub(" ", html.unescape(text))))
    return [w for w in re.findall(r"[A-Za-z][A-Za-z']{2,}", rest) if w not in ALLOWED]


WIDGET_TEXT = ("description", "placeholder", "tooltip", "_options_labels", "_titles", "button_style_label")
SHOWN_VALUE = ("HTMLModel", "LabelModel", "HTMLMathModel")


def page_text(notebook: Any, widgets: dict[str, Any]) -> Iterator[tuple[str, str]]:
    """(where, text) of everything the lesson's page shows: text cells, outputs and widgets."""
    for i, cell in enumerate(notebook.cells, 1):
        if cell.cell_type == "markdown":
            yield f"cell {i}", cell.source
            continue
        for out in cell.get("outputs", []):
            if out.get("output_type") == "stream" and out.get("name") == "stdout":
                yield f"cell {i} printed", out["text"]
            data = out.get("data", {})
            if "application/vnd.jupyter.widget-view+json" in data:
                continue  # a widget: its models' text is read below
            for kind in ("text/html", "image/svg+xml", "text/markdown", "text/plain"):  # the richest is shown
                if kind in data:
                    yield f"cell {i} {kind}", re.sub(r"<style.*?</style>|<script.*?</script>", " ",
                                                      str(data[kind]), flags=re.S)
                    break
    for model in widgets.values():
        state = model.get("state", {})
        for key in WIDGET_TEXT:
            value = state.get(key)
            for v in value if isinstance(value, list) else [value]:
                if isinstance(v, str) and v:
                    yield f"{state.get('_model_name')} {key}", v
        if state.get("_model_name") in SHOWN_VALUE and isinstance(state.get("value"), str):
            yield f"{state.get('_model_name')} value", state["value"]


@pytest.fixture(scope="module")
def pseudo_lessons(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("qps")
    translate.translate_folder(NOTEBOOKS[0].parent, PSEUDO, folder)
    return folder


@pytest.fixture(scope="module")
def kernel() -> Iterator[Any]:
    with runner.kernel() as client:
        yield client


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_every_word_a_student_reads_comes_from_a_catalog(path: Path, pseudo_lessons: Path, kernel: Any) -> None:
    kernel.widget_state.clear()
    run = runner.run_lesson(kernel, pseudo_lessons / path.name, {**preflight.CLASS_PAGE, "RUMMYLAB_APP": "1"})
    assert not run.errors, run.errors[0]
    leftovers = {}
    for where, text in page_text(run.notebook, kernel.widget_state):
        if words := bare_english(text):
            leftovers.setdefault(where, (words[:6], text[:160]))
    assert not leftovers, "\n".join(f"{w}: {words} in {text!r}" for w, (words, text) in leftovers.items())


def test_the_check_finds_bare_english() -> None:
    assert bare_english("⟦Çhéçk⟧ `KD 7H` AS 10♥ {n} <b>x</b> rummylab") == []
    assert bare_english("⟦Çhéçk⟧ Deal an example") == ["Deal", "example"]


@pytest.fixture(scope="module")
def built_lessons(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    folders = {}
    for lang in ("hi", "ro"):
        folders[lang] = tmp_path_factory.mktemp(lang)
        translate.translate_folder(NOTEBOOKS[0].parent, lang, folders[lang])
    return folders


@pytest.mark.parametrize("lang", ["hi", "ro"])
@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_every_lesson_runs_in_each_language(path: Path, lang: str, built_lessons: dict[str, Path],
                                            kernel: Any) -> None:
    """Built from its catalog, the lesson runs to its end as a class's kernel runs it, every
    exercise's right answer is accepted and each common mistake explained, and nothing of it is
    left in English (``untranslated``)."""
    run = runner.run_lesson(kernel, built_lessons[lang] / path.name, {**preflight.CLASS_PAGE})
    assert not run.errors, run.errors[0]
    verdict = preflight.judge([run])
    assert verdict.ok, verdict
    assert translate.untranslated(path, lang) == []


def test_the_key_and_the_preflight_in_a_language(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    """``rummylab lessons key DIR --lang ro`` and ``lessons check DIR --lang hi``: the lessons built in
    that language, run, and told in it."""
    import shutil

    from rummylab.cli import main

    monkeypatch.setenv("RUMMYLAB_LANG", "en")  # the command sets the process's language: undone after
    shutil.copy(NOTEBOOKS[0].parent / "03-knocking-and-layoffs.ipynb", tmp_path)
    assert main(["lessons", "key", str(tmp_path), "--lang", "ro"]) == 0
    key = capsys.readouterr().out
    assert "Î: " in key and "R: " in key and "Indiciu: " in key and "limita pentru a bate" in key
    assert (tmp_path / "ro" / "03-knocking-and-layoffs.ipynb").is_file()
    assert main(["lessons", "check", str(tmp_path), "--lang", "hi", "--quick"]) == 0
    said = capsys.readouterr().out
    assert "ok   03-knocking-and-layoffs" in said and "अभ्यास: can_knock" in said and "रूप जाँचे गए" in said, said
