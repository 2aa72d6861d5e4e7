"""The light lesson page in a real browser: every core widget of ipywidgets drawn and sending
edits back, closed widgets let go of, a lost kernel said at once, and a lesson whose widget has
a front end of its own sent to Voilà's own page."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import nbformat
import pytest

from rummylab.classroom.class_code import OWN_PAGE
from rummylab.classroom.serve import free_port, voila_command

from .conftest import _lesson_env, _stop, _wait_http, shot

TIMEOUT = 120_000

pytestmark = pytest.mark.xdist_group("lesson-page")  # one Voilà server, on one test process

EVERY_WIDGET = r'''
import datetime as dt, html, json
import ipywidgets as w
from IPython.display import display
from ipywidgets.widgets.widget import _registry

PNG = bytes.fromhex("89504e470d0a1a0a0000000d4948445200000001000000010806000000"
                    "1f15c4890000000d49444154789c6360f8cfc0f01f0005000201e2"
                    "6e4d3b0000000049454e44ae426082")
OPTIONS = {"options": ["red", "green", "blue"]}
KWARGS = {
    "Dropdown": OPTIONS, "Select": OPTIONS, "SelectMultiple": OPTIONS, "RadioButtons": OPTIONS,
    "ToggleButtons": OPTIONS, "Combobox": OPTIONS, "SelectionSlider": OPTIONS,
    "SelectionRangeSlider": {**OPTIONS, "index": (0, 1)},
    "Tab": {"children": [w.HTML("first tab"), w.HTML("second tab")], "titles": ["One", "Two"]},
    "Accordion": {"children": [w.HTML("first part"), w.HTML("second part")], "titles": ["A", "B"]},
    "Stack": {"children": [w.HTML("first card"), w.HTML("second card")], "selected_index": 0},
    "Box": {"children": [w.Label("in a box")]}, "HBox": {"children": [w.Label("in an hbox")]},
    "VBox": {"children": [w.Label("in a vbox")]},
    "GridBox": {"children": [w.Label("a"), w.Label("b")],
                "layout": w.Layout(grid_template_columns="repeat(2, 100px)")},
    "Image": {"value": PNG, "format": "png", "width": 20},
    "Valid": {"value": True}, "TagsInput": {"value": ["ace"]}, "ColorsInput": {"value": ["red"]},
    "IntsInput": {"value": [1, 2]}, "FloatsInput": {"value": [1.5]},
    "DatePicker": {"value": dt.date(2024, 3, 1)}, "TimePicker": {"value": dt.time(9, 30)},
    "DatetimePicker": {"value": dt.datetime(2024, 3, 1, 9, 30, tzinfo=dt.timezone.utc)},
    "NaiveDatetimePicker": {"value": dt.datetime(2024, 3, 1, 9, 30)},
    "Textarea": {"value": "", "continuous_update": False},
}
seen = {}
echo = w.HTML()
echo.add_class("rl-echo")

def heard(name, value):
    seen[name] = value
    echo.value = html.escape(json.dumps(seen, default=str))

made = {}
for (model_module, _, model_name, view_module, _, view_name), klass in _registry.items():
    if view_module == "@jupyter-widgets/base" or view_name is None or klass.__name__.startswith("_"):
        continue  # layouts and styles (drawn with their widgets), links (below), abstract bases
    name = klass.__name__ if klass.__name__ not in made else model_name
    widget = klass(**KWARGS.get(name, {}))
    if widget.has_trait("description"):
        widget.description = name
    widget.add_class(f"rl-w-{name}")
    key = next((k for k in ("index", "selected_index", "value") if widget.has_trait(k)), None)
    if key:
        widget.observe(lambda change, name=name: heard(name, change["new"]), names=key)
    made[name] = widget

with made["Output"]:
    print("printed in an Output")
made["Button"].on_click(lambda _: setattr(made["IntProgress"], "value", 7))
made["FileUpload"].observe(  # the bytes came as a binary buffer
    lambda change: heard("FileUpload", [[f.name, bytes(f.content).decode()] for f in change["new"]]), names="value")
linked = [w.IntSlider(description=f"linked-{i}") for i in "ab"]
for i, slider in zip("ab", linked):
    slider.add_class(f"rl-w-linked-{i}")
    slider.observe(lambda change, name=f"linked-{i}": heard(name, change["new"]), names="value")
w.jslink((linked[0], "value"), (linked[1], "value"))
w.jsdlink((made["IntSlider"], "value"), (made["FloatSlider"], "value"))
for widget in [*made.values(), *linked, echo]:
    display(widget)
'''

FAKE_WIDGET = '''
import ipywidgets as w
from traitlets import Unicode

class Fake(w.DOMWidget):
    _model_module = Unicode("fake-widget").tag(sync=True)
    _model_name = Unicode("FakeModel").tag(sync=True)
    _view_module = Unicode("fake-widget").tag(sync=True)
    _view_name = Unicode("FakeView").tag(sync=True)

Fake()
'''

GIN = "from rummylab.widgets import GinTable\nGinTable(seed=11)"


def _notebook(path: Path, *cells: str) -> None:
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_markdown_cell(f"# {path.stem}"),
                                         *map(nbformat.v4.new_code_cell, cells)])
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nbformat.write(nb, path)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    """A Voilà server, as ``rummylab serve`` starts it, on notebooks made for these tests."""
    folder = tmp_path_factory.mktemp("page-lessons")
    _notebook(folder / "every-widget.ipynb", EVERY_WIDGET)
    _notebook(folder / "fake-widget.ipynb", FAKE_WIDGET)
    _notebook(folder / "gin.ipynb", GIN)
    _notebook(folder / "gin-again.ipynb", GIN)
    port = free_port()
    cmd, env = voila_command(folder, port)
    log = folder / "voila.log"
    with open(log, "wb") as out:
        proc = subprocess.Popen(cmd, env=_lesson_env(env), stdout=out, stderr=subprocess.STDOUT, cwd=folder)
    try:
        _wait_http(f"http://127.0.0.1:{port}/voila/static/voila.js", proc, log)
        yield {"url": f"http://127.0.0.1:{port}", "proc": proc, "log": log}
    finally:
        _stop(proc)


def open_lesson(page: Any, server: dict[str, Any], name: str) -> None:
    page.goto(f"{server['url']}/voila/render/{name}.ipynb", wait_until="commit", timeout=TIMEOUT)
    page.wait_for_selector("body.rl-live", timeout=TIMEOUT)


def seen(page: Any) -> dict[str, Any]:
    """What the kernel heard from the page (the lesson's echo of every change it got)."""
    return dict(json.loads(page.inner_text(".rl-echo") or "{}"))


def wait_heard(page: Any, name: str, expected: Any) -> None:
    page.wait_for_function(
        "([name, expected]) => { const t = document.querySelector('.rl-echo').innerText;"
        " return t && JSON.stringify(JSON.parse(t)[name]) === JSON.stringify(expected); }",
        arg=[name, expected], timeout=20_000)


def test_every_core_widget_is_drawn_and_sends_edits_back(page: Any, server: dict[str, Any]) -> None:
    open_lesson(page, server, "every-widget")
    page.wait_for_selector(".rl-echo", state="attached", timeout=TIMEOUT)
    body = page.inner_text("#rendered_cells")
    assert "could not be shown here" not in body, re.findall(r"could not be shown here \(([^)]*)\)", body)
    assert page.locator(".rl-widget-error").count() == 0
    assert page.locator(".widget-output pre").first.inner_text().strip() == "printed in an Output"
    assert page.locator(".rl-w-Image img").count() == 1
    w = ".rl-w-"
    page.fill(f"{w}Textarea textarea", "a whole\nparagraph")
    page.locator(f"{w}Textarea textarea").blur()
    wait_heard(page, "Textarea", "a whole\nparagraph")
    page.select_option(f"{w}SelectMultiple select", ["0", "2"])
    wait_heard(page, "SelectMultiple", [0, 2])
    page.check(f"{w}RadioButtons input >> nth=1")
    wait_heard(page, "RadioButtons", 1)
    page.fill(f"{w}ColorPicker input[type=color]", "#ff8800")
    wait_heard(page, "ColorPicker", "#ff8800")
    page.fill(f"{w}IntRangeSlider input >> nth=0", "20")
    page.fill(f"{w}IntRangeSlider input >> nth=1", "60")
    wait_heard(page, "IntRangeSlider", [20, 60])
    page.click(f"{w}Tab .rl-tab-title >> text=Two")
    wait_heard(page, "Tab", 1)
    assert page.is_visible(f"{w}Tab >> text=second tab") and not page.is_visible(f"{w}Tab >> text=first tab")
    page.click(f"{w}Accordion .rl-tab-title >> text=B")
    wait_heard(page, "Accordion", 1)
    assert page.is_visible(f"{w}Accordion >> text=second part")
    page.click(f"{w}ToggleButtons button >> text=blue")
    wait_heard(page, "ToggleButtons", 2)
    page.select_option(f"{w}Dropdown select", "1")
    wait_heard(page, "Dropdown", 1)
    page.fill(f"{w}DatePicker input", "2025-12-24")
    wait_heard(page, "DatePicker", "2025-12-24")
    page.fill(f"{w}IntText input", "42")
    page.press(f"{w}IntText input", "Enter")
    wait_heard(page, "IntText", 42)
    page.fill(f"{w}TagsInput input", "king")
    page.press(f"{w}TagsInput input", "Enter")
    wait_heard(page, "TagsInput", ["ace", "king"])
    page.check(f"{w}Checkbox input")
    wait_heard(page, "Checkbox", True)
    # jslink and jsdlink work in the page: the linked widget follows, and tells the kernel
    page.fill(".rl-w-linked-a input[type=range]", "30")
    wait_heard(page, "linked-b", 30)
    page.fill(f"{w}IntSlider input[type=range]", "9")
    wait_heard(page, "FloatSlider", 9.0)
    page.set_input_files(f"{w}FileUpload input[type=file]",
                         files=[{"name": "hand.txt", "mimeType": "text/plain", "buffer": b"AS 2S 3S"}])
    wait_heard(page, "FileUpload", [["hand.txt", "AS 2S 3S"]])
    page.click(f"{w}Play .rl-play")
    page.wait_for_function("JSON.parse(document.querySelector('.rl-echo').innerText).Play >= 2", timeout=20_000)
    page.click(f"{w}Play .rl-pause")
    # a change made in the kernel reaches the page
    page.click(f"{w}Button")
    page.wait_for_function(
        "document.querySelector('.rl-w-IntProgress .rl-progress').getAttribute('aria-valuenow') === '7'",
        timeout=20_000)
    shot(page, "every-widget")


def test_whole_gin_hands_keep_the_page_model_count_steady(page: Any, server: dict[str, Any]) -> None:
    """The table draws new buttons every move and closes the old: the page lets go of them too."""
    open_lesson(page, server, "gin")
    table = ".rl-gin-table"
    page.wait_for_selector(f"{table} .rl-status", timeout=TIMEOUT)
    sizes = [page.evaluate("window.rummylab.manager.size")]
    hands = 0
    while len(sizes) < 40:
        status = page.inner_text(f"{table} .rl-status")
        if "game over" in status:
            break
        hands += "hand over" in status
        before = page.inner_html(f"{table} .rl-history")
        for sel in (".rl-draw-stock", ".rl-pass", ".rl-hand-card:not([disabled])", ".rl-next-hand"):
            if page.locator(f"{table} {sel}").count():
                page.locator(f"{table} {sel}").first.click()
                break
        else:
            raise AssertionError(f"no move offered: {status}")
        page.wait_for_function("b => document.querySelector('.rl-gin-table .rl-history').innerHTML !== b",
                               arg=before, timeout=20_000)
        sizes.append(page.evaluate("window.rummylab.manager.size"))
    assert hands >= 1, "no hand ended"
    # a move draws about 11 cards (3 models each: the button, its layout, its style): without
    # closing, the count grew by ~35 a move
    assert max(sizes) - min(sizes) <= 20, sizes
    assert page.locator(f"{table} .rl-hand-card").count() <= 11


def _kernel_pid(server: dict[str, Any], kernel_id: str) -> int:
    import psutil

    for child in psutil.Process(server["proc"].pid).children(recursive=True):
        try:
            if any(kernel_id in part for part in child.cmdline()):
                return int(child.pid)
        except psutil.Error:
            continue
    raise AssertionError(f"no kernel process for {kernel_id}")


def test_a_lost_kernel_is_said_at_once_and_a_fresh_copy_offered(page: Any, server: dict[str, Any]) -> None:
    open_lesson(page, server, "gin-again")
    page.wait_for_selector(".rl-gin-table .rl-status", timeout=TIMEOUT)
    # a dropped connection: said at once, then the page reconnects to the same kernel and goes on
    page.evaluate("window.rummylab.manager.kernel.ws.close()")
    page.wait_for_selector("#rl-status.rl-lost", timeout=5_000)
    assert "trying again" in page.inner_text("#rl-status")
    page.wait_for_selector("#rl-status", state="hidden", timeout=30_000)
    before = page.inner_html(".rl-gin-table .rl-history")
    page.locator(".rl-gin-table .rl-pass, .rl-gin-table .rl-draw-stock").first.click()
    page.wait_for_function("b => document.querySelector('.rl-gin-table .rl-history').innerHTML !== b",
                           arg=before, timeout=20_000)
    # the kernel killed: said at once, and a fresh copy offered
    kernel_id = page.evaluate("JSON.parse(document.getElementById('jupyter-config-data').textContent).kernelId")
    os.kill(_kernel_pid(server, kernel_id), signal.SIGKILL)
    page.wait_for_selector("#rl-status.rl-lost", timeout=20_000)
    page.wait_for_selector("#rl-status .rl-fresh", timeout=60_000)
    assert "stopped" in page.inner_text("#rl-status")
    assert page.evaluate("document.body.classList.contains('rl-stopped')")
    shot(page, "lost-kernel")
    page.click("#rl-status .rl-fresh")
    page.wait_for_selector("body.rl-live", timeout=TIMEOUT)
    page.wait_for_selector(".rl-gin-table .rl-status", timeout=TIMEOUT)
    assert not page.is_visible("#rl-status.rl-lost")
    assert page.evaluate("JSON.parse(document.getElementById('jupyter-config-data').textContent).kernelId") != kernel_id


def test_a_widget_with_its_own_front_end_gets_voilas_own_page(page: Any, server: dict[str, Any]) -> None:
    page.goto(f"{server['url']}/voila/render/fake-widget.ipynb", wait_until="commit", timeout=TIMEOUT)
    page.wait_for_url(re.compile(f"template={OWN_PAGE}"), timeout=TIMEOUT)
    page.wait_for_selector("script[src*='voila.js'], script[src*='main.js']", state="attached", timeout=TIMEOUT)
    assert "rl-lesson-page" not in (page.get_attribute("body", "class") or "")
    log = server["log"].read_text()
    assert re.search(r"rummylab: fake-widget\.ipynb has widgets with front ends of their own \(fake-widget\)", log), \
        log[-3000:]
    # its next visit goes there at once
    page.goto(f"{server['url']}/voila/render/fake-widget.ipynb", wait_until="commit", timeout=TIMEOUT)
    page.wait_for_selector("script[src*='voila.js'], script[src*='main.js']", state="attached", timeout=TIMEOUT)
    assert "template=" not in page.url
