"""Lessons in a real browser: Voilà app mode and JupyterLab."""

from __future__ import annotations

import time
from typing import Any

import pytest

from .conftest import shot

TIMEOUT = 120_000

pytestmark = pytest.mark.xdist_group("lessons-in-browser")  # one Voilà server, on one test process


def open_lesson(page: Any, voila: str, name: str, selector: str) -> None:
    page.goto(f"{voila}/voila/render/{name}.ipynb", wait_until="commit", timeout=TIMEOUT)
    page.wait_for_selector(selector, timeout=TIMEOUT)


def deadwood_text(page: Any) -> str:
    return str(page.inner_text(".rl-analyzer .rl-deadwood"))


def click_and_wait(page: Any, card: str, expect: str) -> None:
    page.click(f".rl-analyzer .rl-card-{card}")
    page.wait_for_function(
        "e => document.querySelector('.rl-analyzer .rl-deadwood').innerText.includes(e)", arg=expect, timeout=20_000)


def chart_svg(page: Any) -> str:
    page.wait_for_selector(".rl-analyzer .rl-chart svg", timeout=20_000)
    return str(page.inner_html(".rl-analyzer .rl-chart svg"))


def test_hand_analyzer_updates_on_every_click(page: Any, voila: str) -> None:
    open_lesson(page, voila, "00-start-here", ".rl-analyzer .rl-deadwood")
    page.wait_for_function("document.querySelector('.rl-analyzer .rl-deadwood').innerText.includes('10')")
    assert deadwood_text(page) == "Deadwood: 10"
    assert "can knock" in page.inner_text(".rl-analyzer .rl-verdict")
    # melds are coloured on the grid
    colour = page.eval_on_selector(".rl-analyzer .rl-card-7H", "e => getComputedStyle(e).backgroundColor")
    assert colour == "rgb(165, 214, 167)"  # the first meld's green
    click_and_wait(page, "QH", "after discarding KD QH")
    first_chart = chart_svg(page)
    assert "QH" in first_chart and "KD" in first_chart
    click_and_wait(page, "KD", "Deadwood: 10")          # AS 2S 3S 7H 7D 7C 9C TC JC QH
    click_and_wait(page, "QH", "9 picked")
    click_and_wait(page, "4S", "Deadwood: 0")
    assert "Gin" in page.inner_text(".rl-analyzer .rl-verdict")
    click_and_wait(page, "KC", "after discarding KC")
    second_chart = chart_svg(page)
    assert "KC" in second_chart and second_chart != first_chart
    click_and_wait(page, "KC", "Deadwood: 0")
    page.click(".rl-analyzer .rl-undo")
    page.wait_for_function(
        "document.querySelector('.rl-analyzer .rl-deadwood').innerText.includes('after discarding KC')")
    page.click(".rl-analyzer .rl-card-QH")  # a twelfth card is refused with a message
    page.wait_for_function("document.querySelector('.rl-analyzer .rl-message').innerText.includes('at most 11')")
    shot(page, "hand-analyzer", ".rl-analyzer")


def test_gin_table_plays_moves(page: Any, voila: str) -> None:
    """Moves through the page until the hand ends, then its review: the student's decisions with
    the better move and why."""
    open_lesson(page, voila, "06-play-gin-against-the-computer", ".rl-gin-table .rl-status")
    moves = 0
    for _ in range(150):
        before = page.inner_html(".rl-gin-table .rl-history")
        status = page.inner_text(".rl-gin-table .rl-status")
        if "over" in status:
            break
        for sel in (".rl-draw-stock", ".rl-pass", ".rl-hand-card:not([disabled])"):
            if page.locator(f".rl-gin-table {sel}").count():
                page.locator(f".rl-gin-table {sel}").first.click()
                break
        else:
            raise AssertionError(f"no move offered: {status}")
        page.wait_for_function(
            "b => document.querySelector('.rl-gin-table .rl-history').innerHTML !== b", arg=before, timeout=20_000)
        moves += 1
    assert moves >= 3
    assert "over" in page.inner_text(".rl-gin-table .rl-status"), "the hand did not end in 150 moves"
    page.locator(".rl-gin-table .rl-review-hand").click()
    page.wait_for_function(
        "document.querySelector('.rl-gin-table .rl-review').innerText.includes('best move in')", timeout=30_000)
    review = page.inner_text(".rl-gin-table .rl-review")
    assert "decisions" in review and "luck" in review, review
    shot(page, "gin-review", ".rl-gin-table .rl-review")
    page.click(".rl-gin-table .rl-hint-toggle input")
    history = page.inner_text(".rl-gin-table .rl-history")
    assert "You:" in page.inner_html(".rl-gin-table .rl-history") or history
    shot(page, "gin-table", ".rl-gin-table")


def test_knock_scorer_lists_layoffs(page: Any, voila: str) -> None:
    open_lesson(page, voila, "03-knocking-and-layoffs", ".rl-knock-scorer .rl-score")
    assert page.inner_text(".rl-knock-scorer .rl-k-pts") == "51"
    assert "lays off 4S" in page.inner_text(".rl-knock-scorer .rl-score")
    page.fill(".rl-knock-scorer .rl-defender input", "5S 6S 7S QH QD QS 2H 3H 4H AD")
    page.press(".rl-knock-scorer .rl-defender input", "Enter")
    page.wait_for_function("document.querySelector('.rl-knock-scorer .rl-kind').innerText === 'undercut'")
    assert page.inner_text(".rl-knock-scorer .rl-d-pts") == "28"


def test_lesson_runs_in_jupyterlab(page: Any, jupyterlab: tuple[str, str]) -> None:
    base, token = jupyterlab
    page.goto(f"{base}/lab/tree/02-melds-and-deadwood.ipynb?token={token}", wait_until="commit", timeout=TIMEOUT)
    page.wait_for_function("window.jupyterapp && document.querySelector('.jp-Notebook .jp-Cell')", timeout=TIMEOUT)
    page.wait_for_function(
        "document.querySelector('.jp-Notebook-ExecutionIndicator[data-status=\"idle\"]') !== null"
        " || document.querySelector('.jp-KernelStatus-success, .jp-Toolbar-kernelStatus') !== null",
        timeout=TIMEOUT)
    page.wait_for_timeout(1500)
    _run_all_cells(page)
    errors = page.locator(".jp-OutputArea-output[data-mime-type='application/vnd.jupyter.stderr']")
    texts = [errors.nth(i).inner_text() for i in range(errors.count())]
    assert not [t for t in texts if "Error" in t or "Traceback" in t], texts
    assert page.locator(".jp-Notebook .rl-analyzer").count() == 1
    shot(page, "jupyterlab-lesson")


PROMPTS = r"""() => { const cells = [...window.jupyterapp.shell.currentWidget.content.widgets]
                       .filter(c => c.model.type === 'code');  // collapsed inputs too (no visible prompt)
                     const p = [...document.querySelectorAll('.jp-Notebook .jp-CodeCell .jp-InputPrompt')]
                       .map(e => e.textContent.trim());
                     return {done: cells.length > 0 && cells.every(c => c.model.executionCount !== null),
                             busy: p.some(t => t.includes('*'))}; }"""


RUN_ALL = "() => { window.jupyterapp.commands.execute('notebook:run-all-cells'); }"
"""Start a run-all without waiting for it: the command's promise never settles when the run stalls."""


def _run_all_cells(page: Any) -> None:
    """Run every cell and wait until each has run. A run-all sent while the kernel is still
    connecting does nothing, or stops after the first cell: when no cell has run or is queued
    for 10 s and some have not run, send it again."""
    deadline = time.monotonic() + TIMEOUT / 1000
    idle = sends = 0
    page.evaluate(RUN_ALL)
    while True:
        state = page.evaluate(PROMPTS)
        if state["done"]:
            return
        idle = 0 if state["busy"] else idle + 1
        if idle >= 10 and sends < 5:
            page.evaluate(RUN_ALL)
            idle, sends = 0, sends + 1
        assert time.monotonic() < deadline, f"the lesson did not finish running ({sends} run-alls resent)"
        page.wait_for_timeout(1000)


# The table redraws in several messages, the history last: wait until it logs your draw and then
# your next move, not just for the first change.
DREW_THEN_DISCARDED = """sel => {
    const h = document.querySelector(sel).innerHTML, i = h.lastIndexOf('You: draw_stock');
    return i >= 0 && h.indexOf('You:', i + 1) > i;
}"""


CHART = """title => [
    ...[...document.querySelectorAll('svg')].map(e => e.outerHTML),
    ...[...document.querySelectorAll('img[src^="data:image/svg+xml;base64,"]')]
      .map(e => decodeURIComponent(escape(atob(e.src.split(',')[1])))),
  ].find(t => t.includes(title))"""
"""The markup of the chart (an SVG drawn in the kernel: in the page, or a picture's data) that has
``title``."""


def test_three_thirteen_lesson_analyzer_and_table(page: Any, voila: str) -> None:
    open_lesson(page, voila, "07-three-thirteen", ".rl-313-analyzer .rl-penalty")
    assert page.inner_text(".rl-313-analyzer .rl-penalty") == "12"
    chart = page.wait_for_function(CHART, arg="Mean dealt penalty by round", timeout=TIMEOUT).json_value()
    assert "mean dealt penalty" in chart and "decks" in chart and "round" in chart  # drawn in the kernel
    assert "wild as 8S" in page.inner_text(".rl-313-analyzer .rl-313-result")
    page.fill(".rl-313-analyzer .rl-313-hand input", "5H 7S 8S 9S 2C")
    page.press(".rl-313-analyzer .rl-313-hand input", "Enter")
    page.wait_for_function("document.querySelector('.rl-313-analyzer .rl-penalty').innerText === '2'")
    # play a draw and a discard against the computer
    page.click(".rl-313-table .rl-313-draw-stock")
    page.wait_for_selector(".rl-313-table .rl-313-card:not([disabled])", timeout=20_000)
    page.locator(".rl-313-table .rl-313-card:not([disabled])").first.click()
    page.wait_for_function(DREW_THEN_DISCARDED, arg='.rl-313-table', timeout=20_000)
    shot(page, "three-thirteen", ".rl-313-analyzer")


def test_pure_sequence_lesson_groups_cards_into_a_valid_declaration(page: Any, voila: str) -> None:
    board = ".rl-grouping-board"
    open_lesson(page, voila, "08-pure-sequence", f"{board} .rl-declaration")
    page.wait_for_function(f"document.querySelector('{board} .rl-declaration').innerText.includes('not in a group')")
    # AS 2S 3S | 5H 6H JK | 9D 9C 9S | KD QD 7C 7H, card by card
    for group, cards in ((1, (0, 1, 2)), (2, (3, 4, 5)), (3, (6, 7, 8)), (4, (9, 10, 11, 12))):
        page.click(f"{board} .rl-group-target button:has-text('Group {group}')")
        for i in cards:
            page.click(f"{board} .rl-card-{i}")
    page.wait_for_function(
        f"document.querySelector('{board} .rl-declaration').innerText.includes('valid declaration')", timeout=20_000)
    text = page.inner_text(f"{board} .rl-declaration")
    assert "pure sequence" in text and "impure sequence" in text and "set" in text
    # moving the pure sequence's 3S out breaks the first life
    page.click(f"{board} .rl-group-target button:has-text('Group 3')")
    page.click(f"{board} .rl-card-2")
    page.wait_for_function(
        f"document.querySelector('{board} .rl-declaration').innerText.includes('needs at least 3 cards')",
        timeout=20_000)
    shot(page, "pure-sequence", board)


def test_indian_scoring_lesson_plays_a_turn(page: Any, voila: str) -> None:
    table = ".rl-indian-table"
    open_lesson(page, voila, "09-indian-rummy-scoring", f"{table} .rl-indian-status")
    draw = page.locator(f"{table} button:has-text('Draw from stock')")
    for _ in range(10):  # the bot may have ended the deal (a drop): deal again
        if draw.count():
            break
        page.click(f"{table} button:has-text('Next deal')")
        page.wait_for_timeout(500)
    draw.click()
    page.wait_for_selector(f"{table} .rl-card", timeout=20_000)
    page.locator(f"{table} .rl-card").first.click()
    page.wait_for_function(DREW_THEN_DISCARDED, arg='.rl-indian-table', timeout=20_000)
    shot(page, "indian-table", table)
