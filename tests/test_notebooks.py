"""Every lesson executes top to bottom as the preflight runs it (``rummylab lessons check``), passes
the preflight, and its key outputs are right."""

from __future__ import annotations

import html
import os
import re
import shutil
import tempfile
import time
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import nbformat
import polars as pl
import pytest

import rummylab
from rummylab import display
from rummylab.lessons import preflight, runner
from rummylab.lessons.grading import graded
from rummylab.lessons.key import entries

NOTEBOOKS = sorted((Path(__file__).parent.parent / "notebooks").glob("*.ipynb"))

KEY_OUTPUTS = {
    ("00-start-here", "key-deadwood"): "The hand's deadwood is 10.",
    ("02-melds-and-deadwood", "key-deadwood"): "Deadwood: 10",
    ("03-knocking-and-layoffs", "key-points"): "The knocker scores 51 points.",
    ("04-gin-big-gin-and-undercut", "key-big-gin"): "Big gin: yes",
    ("05-three-handed-gin-in-the-box", "key-roles"):
        "The box loses: P2 is in the box, P3 captain, P1 sits out; P2 deals.",
}
KEY_OUTPUTS[("07-three-thirteen", "key-penalty")] = "Penalty: 12"
KEY_OUTPUTS[("08-pure-sequence", "key-pure")] = (
    "Sevens wild, 5H 6H 7H is pure; with wild_natural_in_pure=False it is impure.")
KEY_OUTPUTS[("08-pure-sequence", "key-exact")] = (
    "Exactly 364011528508479/994586754829675 of dealt hands hold a pure sequence: 36.5993%.")
KEY_OUTPUTS[("09-indian-rummy-scoring", "key-cap")] = "It loses 80 points."
KEY_CONTAINS = {
    ("10-hand-odds", "key-summary"): "136,694 are gin",
}


def test_there_are_lessons() -> None:
    assert len(NOTEBOOKS) >= 9


def test_each_lessons_cell_ids_are_its_own() -> None:
    """A cell id twice in a notebook is "corrected" by nbformat on every read (a new id each time)."""
    import json

    for path in NOTEBOOKS:
        ids = [c.get("id") for c in json.loads(path.read_text(encoding="utf-8"))["cells"]]
        assert len(ids) == len(set(ids)), path.name


def text_of(cell: nbformat.NotebookNode) -> str:
    """The text a cell shows: its printed text and the plain text of its results."""
    parts = []
    for out in cell.get("outputs", []):
        if out.get("output_type") == "stream":
            parts.append(out["text"])
        elif "data" in out and "text/plain" in out["data"]:
            parts.append(out["data"]["text/plain"])
    return "".join(parts).strip()


VARIANTS = preflight.VARIANTS
"""The lesson's own defaults, then other seeds and sample sizes (one as the class page runs it): no
statement may fail by chance. On the Python twin (a machine without a compiler) the lessons run
once, as the class page with a smaller sample (the engine plays the analyst's simulations there):
the compiled run covers every variant, and the lessons' code does not depend on the backend."""
if rummylab.BACKEND == "python":
    VARIANTS = [{**preflight.CLASS_PAGE, "RUMMYLAB_N": "60"}]


@pytest.fixture(scope="session")
def kernel() -> Iterator[Any]:
    """One kernel per test process for every lesson it runs: starting a kernel and importing
    rummylab, polars and altair costs several seconds, more than most lessons take."""
    with runner.kernel() as client:
        runner.run_cells(client, [WATCH_CELLS.format(path=str(STACKS), slow=SLOW_CELL)])
        yield client
    STACKS.unlink(missing_ok=True)


STACKS = Path(tempfile.gettempdir()) / f"rummylab-slow-cells-{os.getpid()}.txt"
"""Where the kernel writes every thread's stack when a lesson cell runs past SLOW_CELL seconds."""
SLOW_CELL = 60
WATCH_CELLS = """def _watch():  # names local to it survive each lesson's %reset
    import sys, threading, time, traceback
    started = [None]
    def watch():
        while True:
            time.sleep(1)
            if started[0] is not None and time.monotonic() - started[0] > {slow}:
                started[0] = None
                with open({path!r}, "a") as out:
                    for ident, frame in sys._current_frames().items():
                        print(f"thread {{ident}}:", "".join(traceback.format_stack(frame)), file=out)
    threading.Thread(target=watch, daemon=True, name="slow-cell-watch").start()
    events = get_ipython().events
    events.register("pre_run_cell", lambda info: started.__setitem__(0, time.monotonic()))
    events.register("post_run_cell", lambda result: started.__setitem__(0, None))
_watch()
del _watch"""
"""A cell that runs past a minute leaves its stacks (a lesson once took 300 s instead of 8 and passed: see
prompt_replies)."""


def _slow_timings(runs: list[nbformat.NotebookNode], over: float = 5) -> list[tuple[int, dict[str, str]]]:
    """The kernel's timestamps of each cell that took, or started after a gap of, over ``over`` seconds."""
    from datetime import datetime

    cells = [c.metadata.get("execution", {}) for run in runs for c in run.cells if c.cell_type == "code"]
    stamp = {i: {k: datetime.fromisoformat(v.replace("Z", "+00:00")).timestamp() for k, v in t.items()}
             for i, t in enumerate(cells)}
    slow = []
    for i, t in stamp.items():
        before = stamp.get(i - 1, {}).get("iopub.status.idle", t.get("iopub.status.busy", 0))
        took = max(t.values(), default=0) - min(t.values(), default=0)
        if took > over or t.get("iopub.status.busy", 0) - before > over:
            slow.append((i, cells[i]))
    return slow


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_lesson_runs_under_any_seed_and_size(path: Path, tmp_path: Path, kernel: Any) -> None:
    """Every lesson runs top to bottom under its defaults and two other seeds with N=300 and passes
    the preflight (no error, every exercise defined and answerable, mistakes explained, answers
    blank, widgets the class page draws); its fixed facts are right each time; in app mode it
    shows no Python reprs."""
    work = tmp_path / path.name
    shutil.copy(path, work)  # never write into the repo
    start = time.monotonic()
    runs = [runner.run_lesson(kernel, work, env) for env in VARIANTS]
    if time.monotonic() - start > SLOW_CELL:
        stacks = STACKS.read_text()[-6000:] if STACKS.exists() else ""
        warnings.warn(f"{path.stem} took {time.monotonic() - start:.0f} s; the kernel's timings of its slow "
                      f"cells and gaps: {_slow_timings([r.notebook for r in runs])}; stacks of its slow cells:\n"
                      f"{stacks}", stacklevel=1)
        STACKS.write_text("")
    verdict = preflight.judge(runs)
    assert verdict.ok, str(verdict)
    assert verdict.exercises, "every lesson has an exercise"
    for run in runs:  # the hub service grades from the key: each answer right, each listed mistake wrong
        for entry in entries(run.report):
            found = graded([entry])[(entry.lesson, entry.name)]
            for graded_as, key in ([(found[v.number], v) for v in entry.variants] if isinstance(found, dict)
                                   else [(found, entry)]):
                assert graded_as.right(key.answer), (entry.name, key.answer)
                assert not any(graded_as.right(wrong) for wrong in key.mistakes), (entry.name, key.mistakes)
    for run in runs:
        _check_outputs(path, run.notebook, app=bool(run.env.get("RUMMYLAB_APP")))


def _check_outputs(path: Path, nb: nbformat.NotebookNode, app: bool) -> None:
    tags = {t: c for c in nb.cells for t in c.get("metadata", {}).get("tags", [])}
    for (stem, tag), expected in KEY_OUTPUTS.items():
        if stem == path.stem:
            assert text_of(tags[tag]) == expected
    for (stem, tag), expected in KEY_CONTAINS.items():
        if stem == path.stem:
            assert expected in text_of(tags[tag])
    blank = "Type your answer in the box below" if app else "Write your answer in place of ..."
    for cell in nb.cells:
        if "exercise" in cell.get("metadata", {}).get("tags", []):
            assert blank in text_of(cell) and "lessons.hint" not in text_of(cell), text_of(cell)
    for cell in nb.cells:  # app mode (no code shown): chips, tables and sentences, no Python reprs
        for shown in app_mode_texts(cell):
            assert not repr_like(shown), (path.stem, cell.source, repr_like(shown), shown)
    for cell in nb.cells:  # offline: no output of any lesson loads a script from the internet
        assert "cdn.jsdelivr" not in str(cell.get("outputs", [])), (path.stem, cell.source)
    widgets = [c for c in nb.cells if "widget" in c.get("metadata", {}).get("tags", [])]
    assert widgets, "every lesson has a live widget"
    for cell in widgets:
        assert any("application/vnd.jupyter.widget-view+json" in o.get("data", {}) for o in cell.outputs)


def app_mode_texts(cell: nbformat.NotebookNode) -> list[str]:
    """What the class page (``rummylab/app``) shows of each output, as text: the HTML where there
    is HTML (table cells kept apart by ``│``, rows by lines), the text of an SVG chart, else the
    plain text; widgets excluded."""
    texts = []
    for out in cell.get("outputs", []):
        data = out.get("data", {})
        if out.get("output_type") == "stream":
            texts.append(out["text"])
        elif out.get("output_type") == "error":
            texts.append(f"{out['ename']}: {out['evalue']}")
        elif "application/vnd.jupyter.widget-view+json" in data:
            continue
        elif "text/html" in data:
            texts.append(_html_text("".join(data["text/html"])))
        elif "image/svg+xml" in data:
            svg = "".join(data["image/svg+xml"])
            labels = re.findall(r"<text\b[^>]*>(.*?)</text>", svg, re.S)
            texts.append("\n".join("CHART: " + _html_text(t) for t in labels))
        elif "text/plain" in data:
            texts.append(data["text/plain"])
    return texts


def _html_text(markup: str) -> str:
    """HTML as the reader sees it: no styles or scripts; header cells marked ``HEADER:``."""
    markup = re.sub(r"<(style|script)\b.*?</\1>", "", markup, flags=re.S | re.I)
    markup = re.sub(r"<th\b[^>]*>", "HEADER: ", markup, flags=re.I)
    markup = re.sub(r"</t[dh]>", " │ ", markup, flags=re.I)
    markup = re.sub(r"</tr>|<br\s*/?>|</div>|</p>", "\n", markup, flags=re.I)
    return html.unescape(re.sub(r"<[^>]+>", "", markup))


_VALUE = r"(?:'[^'\n]*'|\"[^\"\n]*\"|-?\d[\d.]*(?:e[+-]?\d+)?|None|True|False)"
_DTYPE = (r"(?:[iu](?:8|16|32|64|128)|f(?:16|32|64)|str|bool|cat|date|time|null|object|binary|enum"
          r"|(?:datetime|duration|decimal|list|array|struct)\[[^\]\n]*\])")
REPR_LIKE = {
    "a tuple": re.compile(rf"(?<!\w)\({_VALUE},\s"),  # (86, 71), ('pure', 'impure'); not C(52, 10)
    "a list": re.compile(rf"\[{_VALUE}(?:,\s|\])"),  # ['2H'], [1, 2]
    "a dict": re.compile(rf"\{{{_VALUE}:\s"),  # {101: (20, 40)}, {'hands': 1}
    "a dataclass or object repr": re.compile(r"\b[A-Z]\w*\((?:[a-z_]\w*=|'|\"|\))"),  # Roles(box=, Card('AS')
    "a polars shape": re.compile(r"shape: \("),
    "a row of dtypes": re.compile(rf"^[\s│┆|]*{_DTYPE}(?:[\s│┆|]+{_DTYPE})*[\s│┆|]*$", re.M),
    "a float's repr": re.compile(r"\d\.\d{9,}"),  # 0.3659927369240069: a figure needs a format
    "Altair's default axis title": re.compile(r"Count of Records|Sum of |Mean of "),
    "a column name as a header or axis title": re.compile(r"^(?:HEADER|CHART): [a-z]+(?:_[a-z0-9]+)+\b", re.M),
}
"""What gives away a Python value on the class page, precise enough to pass prose: a tuple, list or
dict written as Python writes it, a repr such as ``PoolStatus(player=...``, polars' shape and dtype
rows, a float's 16 digits, Vega-Lite's "Count of Records", a snake_case column name as a table
header or chart title."""


def repr_like(text: str) -> list[str]:
    """The kinds of repr-like text in ``text`` (none: it reads like a textbook)."""
    return [f"{kind}: {m.group(0)!r}" for kind, pattern in REPR_LIKE.items() if (m := pattern.search(text))]


def test_repr_like_finds_reprs_and_passes_prose() -> None:
    """The app-mode check trips on reprs and on nothing a lesson writes in words."""
    reprs = ["(10, 2, 3, 4)", "(86, 71)", "{101: (20, 40), 201: (25, 50)}", "('pure', 'impure')", "['2H']",
             "PoolStatus(player='A', score=104)", "[Action('pass')]", "shape: (3, 4)", "i64 │ str │ f64 │",
             "│ i64  ┆ str │", "0.3659927369240069", "CHART: Count of Records", "HEADER: mean_penalty │",
             "{'hands': 15820024220}", "(True, True)"]
    for text in reprs:
        assert repr_like(text), text
    prose = ["Monte Carlo 0.0450% ± 0.0150% (1 SE); exact 0.0646%", "300 games, 2,937 hands",
             "hands (of C(52, 10))", "simulated mean 54.84 ± 0.84 (1 SE, 285 deals)", "P(knock possible)",
             "card '1S' has unknown rank '1' (ranks: A 2-9 T or 10 J Q K)", "(20 rows)", "19.5 ± 0.4",
             "The exercise 'deck_size' is not defined", "With undercut_on_tie=True the tie scores as: undercut",
             "HEADER: penalty (ace high) │", "CHART: net points per hand (95% CI)", "str and bool in words",
             "Exactly 364011528508479/994586754829675 of dealt hands: 36.5993%."]
    for text in prose:
        assert not repr_like(text), (text, repr_like(text))
    rendered = _html_text(display.table(pl.DataFrame({"p_knock": [0.5], "n": [3]}))._repr_html_())
    assert not repr_like(rendered) and "p knock" in rendered
    assert repr_like(_html_text(pl.DataFrame({"p_knock": [0.5]})._repr_html_()))


EXERCISE = re.compile(r'^answer = \.\.\.(  # your answer here)?\ncheck\("(\w+)", answer\)$')
DEFINE = re.compile(r'^(?:.*\n)*?exercise\(\n    "(\w+)", ', re.M)


def test_each_exercise_is_defined_just_before_it_is_asked_and_ships_blank() -> None:
    """An exercise cell starts blank, right after the (collapsed) cell that defines it; no two
    lessons define the same exercise."""
    defined: dict[str, str] = {}
    for path in NOTEBOOKS:
        cells = nbformat.read(path, as_version=4).cells
        for before, cell in zip(cells, cells[1:], strict=False):
            if "exercise" in cell.get("metadata", {}).get("tags", []):
                m = EXERCISE.match(cell.source.strip())
                assert m, f"{path.name}: an exercise cell must start blank: {cell.source!r}"
                d = DEFINE.match(before.source)
                assert d and d.group(1) == m.group(2), (path.name, before.source)
                assert "exercise-definition" in before.metadata.get("tags", [])
                assert before.metadata.get("jupyter", {}).get("source_hidden") is True
                assert m.group(2) not in defined, (m.group(2), defined.get(m.group(2)), path.stem)
                defined[m.group(2)] = path.stem
    assert len(defined) >= 19
