"""Lessons served in the student's language (``rummylab serve --lang``): lesson 08 (the pure
sequence) in Hindi and lesson 03 (knocking) in Romanian; the page's text, its buttons and the
feedback on a checked answer are in that language, and what she types in it is read."""

from __future__ import annotations

import os
import re
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from .conftest import ROOT, serving

TIMEOUT = 180_000
DOCS_IMG = Path(__file__).resolve().parents[2] / "docs" / "img"
DEVANAGARI = re.compile("[\u0900-\u097f]")

CASES = {
    "hi": {"lesson": "08-pure-sequence", "exercise": "pure_or_not", "typed": "शुद्ध क्रम", "check": "जाँचें",
           "marks": ("✔ सही।", "✘ पूरी तरह सही नहीं।"), "title": "# 8.", "shot": "lesson-08-hindi.png"},
    "ro": {"lesson": "03-knocking-and-layoffs", "exercise": "can_knock", "typed": "da, 12", "check": "Verifică",
           "marks": ("✔ Corect.", "✘ Nu chiar."), "title": "# 3.", "shot": "lesson-03-romanian.png"},
}


@pytest.fixture(params=sorted(CASES))
def served(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[dict[str, Any]]:
    """A class served in one language from a copy of the lessons: {"url", "lang", **CASES[lang]}."""
    lang = request.param
    folder = tmp_path / "lessons"
    folder.mkdir()
    for nb in (ROOT / "notebooks").glob("*.ipynb"):
        shutil.copy(nb, folder / nb.name)
    with serving(folder, tmp_path, "--students=0", f"--lang={lang}", f"--db={tmp_path / 'progress.sqlite'}") as served:
        yield {**served, "lang": lang, "folder": folder, **CASES[lang]}


def first_page_offers_each_language_and_remembers_hers(page: Any, served: dict[str, Any]) -> None:
    """The class's first page (a Hindi class): in Hindi, with each language offered; a student who
    chooses Romanian gets its lessons, and keeps her choice."""
    page.goto(served["url"] + "/", timeout=TIMEOUT)
    assert page.locator("h1").inner_text() == "पाठ"  # the class's language first
    assert page.locator("nav.rl-languages a").all_inner_texts() == ["English", "हिन्दी", "Română"]
    first = page.locator("ol.rl-lessons a").first.get_attribute("href")
    assert first and "/voila/render/hi/00-start-here.ipynb" in first
    page.click("nav.rl-languages a[lang=ro]")
    page.wait_for_function("() => document.querySelector('h1').innerText === 'Lecții'", timeout=30_000)
    page.reload()  # her choice is kept
    assert page.locator("h1").inner_text() == "Lecții" and page.get_attribute("html", "lang") == "ro"
    assert "/voila/render/ro/" in (page.locator("ol.rl-lessons a").first.get_attribute("href") or "")
    assert "Knocking" not in page.inner_text("ol.rl-lessons")  # the titles in Romanian


def test_a_lesson_in_her_language(page: Any, served: dict[str, Any]) -> None:
    if served["lang"] == "hi":
        first_page_offers_each_language_and_remembers_hers(page, served)
    box = f".rl-exercise-{served['exercise']}"
    page.goto(f"{served['url']}/voila/render/{served['lang']}/{served['lesson']}.ipynb", timeout=TIMEOUT)
    page.wait_for_selector(f"{box} .rl-answer input", timeout=TIMEOUT)
    assert page.inner_text(f"{box} .rl-check").strip() == served["check"]
    banner = page.evaluate("window.rummylab_words['The connection to the lesson was lost: trying again…']")
    assert banner == {"hi": "पाठ से कनेक्शन टूट गया: फिर से कोशिश हो रही है…",
                      "ro": "Legătura cu lecția s-a pierdut: se încearcă din nou…"}[served["lang"]]
    assert page.get_attribute(f"{box} .rl-answer input", "placeholder") != "your answer"
    built = (served["folder"] / served["lang"] / f"{served['lesson']}.ipynb").read_text(encoding="utf-8")
    assert f'"lang": "{served["lang"]}"' in built  # the lesson was built in her language
    heading = page.locator("h1").first.inner_text()
    if served["lang"] == "hi":
        assert DEVANAGARI.search(heading), heading
    else:
        assert heading != "3. Knocking and layoffs", heading
    # she answers in her own words, and is told right or wrong in her language
    page.fill(f"{box} .rl-answer input", served["typed"])
    page.click(f"{box} .rl-check")
    feedback = f"{box} .rl-answer-feedback"
    page.wait_for_function(f"() => (document.querySelector({feedback!r}) || {{}}).innerText?.trim().length > 0",
                           timeout=30_000)
    said = page.inner_text(feedback)
    assert said.startswith(served["marks"]), said
    assert "could not read" not in said and "Right." not in said and "Not quite" not in said, said
    if served["lang"] == "hi":
        assert DEVANAGARI.search(said)
    page.click(f"{box} .rl-hint")
    page.wait_for_function(f"() => !document.querySelector({feedback!r}).innerText.includes({said[:12]!r})",
                           timeout=30_000)
    hint = page.inner_text(feedback)
    assert hint.startswith({"hi": "संकेत:", "ro": "Indiciu:"}[served["lang"]]), hint
    if os.environ.get("RUMMYLAB_DOC_SHOTS"):
        page.fill(f"{box} .rl-answer input", served["typed"])
        page.click(f"{box} .rl-check")
        page.wait_for_function(f"() => document.querySelector({feedback!r}).innerText.startsWith('✔') || "
                               f"document.querySelector({feedback!r}).innerText.startsWith('✘')", timeout=30_000)
        prompt = page.locator(f".rl-prompt-{served['exercise']}")
        end = page.locator(feedback).bounding_box()
        start = prompt.first.bounding_box() if prompt.count() else end
        assert start and end
        scrolled = page.evaluate("window.scrollY")  # a box's place is the viewport's, a clip the page's
        page.screenshot(path=str(DOCS_IMG / served["shot"]), full_page=True,
                        clip={"x": 0, "y": max(start["y"] + scrolled - 8, 0), "width": 900,
                              "height": end["y"] + end["height"] - start["y"] + 24})
