"""Run a lesson notebook top to bottom in a kernel, as a class would, and read back what it
defined: its exercises (for the key), the exercises it checks but never defines, its errors and
the widgets it made. The preflight, the key of a folder and the tests run lessons this way."""

from __future__ import annotations

import copy
import json
import os
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from queue import Empty
from typing import Any

REPORT_MARK = "rummylab-lesson-report:"

SETUP = """%reset -f
import os
os.chdir({cwd!r})
for _k in ('RUMMYLAB_SEED', 'RUMMYLAB_N', 'RUMMYLAB_DB', 'RUMMYLAB_APP', 'RUMMYLAB_LESSON', 'RUMMYLAB_CHARTS'):
    os.environ.pop(_k, None)
os.environ.update({env!r})
from rummylab.lessons import exercises as _exercises
_exercises.reset()
del os, _k, _exercises"""
"""Each run starts from an emptied namespace (a lesson that leans on a name it did not define
fails), in the lesson's folder, with only the variant's settings; no progress is recorded."""

REPORT = """def _report():
    import json
    from rummylab.lessons.key import lesson_report
    print({mark!r} + json.dumps(lesson_report()))
_report()
del _report"""


@dataclass(frozen=True)
class CellError:
    """An error a lesson cell raised."""

    cell: int
    """The cell's index in the notebook (from 0; -1 the run's setup, one past the last its report)."""
    name: str
    message: str
    traceback: str
    where: str
    """The cell as a teacher finds it (``cell_label``)."""

    def __str__(self) -> str:
        return f"{self.where}: {self.name}: {self.message}"


def cell_label(cells: list[Any], index: int) -> str:
    """A cell as a teacher finds it in JupyterLab, counted from 1: "cell 8 (code cell 5)"."""
    if not 0 <= index < len(cells):
        return "the preflight's setup cell" if index < 0 else "the preflight's report (after the last cell)"
    code = sum(1 for c in cells[:index + 1] if c.cell_type == "code")
    return f"cell {index + 1} (code cell {code})" if cells[index].cell_type == "code" else f"cell {index + 1}"


@dataclass(frozen=True)
class LessonRun:
    """One run of a lesson: its executed notebook, the settings it ran under, and what it left."""

    path: Path
    env: dict[str, str]
    notebook: Any
    errors: list[CellError]
    report: dict[str, Any] = field(default_factory=dict)
    """``key.lesson_report()`` after the last cell: exercises, checks of undefined ones, widgets."""
    seconds: float = 0.0


def wait_in_slices(channel: Any, step: float = 1.0) -> None:
    """Make ``channel.get_msg(timeout)`` look every ``step`` seconds until its timeout.

    nbclient runs each ``execute_cell`` in an event loop that stops between cells. A kernel's reply
    that arrives at such a moment can miss its wake-up: the wait then lasts the whole cell timeout
    (300 s), and only its last look finds the reply (jupyter/nbclient#312; seen about one run in
    forty of a lesson under load). Waiting in one-second slices bounds that to a second."""
    wait = channel.get_msg

    async def get_msg(timeout: float | None = None) -> Any:
        end = None if timeout is None else time.monotonic() + timeout
        while True:
            left = step if end is None else min(step, max(end - time.monotonic(), 0))
            try:
                return await wait(timeout=left)
            except Empty:
                if end is not None and time.monotonic() >= end:
                    raise

    channel.get_msg = get_msg


def prompt_replies(client: Any) -> None:
    """Apply ``wait_in_slices`` to the shell and IOPub channels of a started NotebookClient."""
    for channel in (client.kc.shell_channel, client.kc.iopub_channel):
        wait_in_slices(channel)


SECRET_ENV = ("RUMMYLAB_DB", "JUPYTERHUB_", "JPY_", "PG", "CONFIGPROXY_")
"""What a kernel running lessons for the key, the preflight or a class's rendering is not given
(names, or their beginnings): the class's store and the hub's and database's secrets. It records
no check, and a lesson's code runs with nothing it could leak."""


def lesson_env() -> dict[str, str]:
    """This process's environment without ``SECRET_ENV``."""
    return {k: v for k, v in os.environ.items() if not k.startswith(SECRET_ENV)}


@contextmanager
def kernel(timeout: int = 300) -> Iterator[Any]:
    """A NotebookClient with a started kernel, for running lessons one after another in it
    (starting a kernel and importing polars and altair costs more than most lessons take); its
    environment has no secret (``lesson_env``)."""
    import nbformat
    from nbclient import NotebookClient

    client = NotebookClient(nbformat.v4.new_notebook(), timeout=timeout, kernel_name="python3", allow_errors=True)
    # the kernel's own warnings (e.g. about TCP on loopback) would read as the lesson's problems
    with client.setup_kernel(stderr=subprocess.DEVNULL, env=lesson_env()):
        prompt_replies(client)
        yield client


def run_cells(client: Any, sources: list[str]) -> Any:
    """Run code in the client's kernel as a notebook of its own; the executed notebook."""
    import nbformat

    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(s) for s in sources])
    client.nb = nb
    for index, cell in enumerate(nb.cells):
        client.execute_cell(cell, index)
    return nb


def run_lesson(client: Any, path: Path, env: dict[str, str] | None = None, cwd: Path | None = None) -> LessonRun:
    """Run the lesson at ``path`` top to bottom in ``client``'s kernel under ``env`` (e.g.
    ``{"RUMMYLAB_SEED": "7", "RUMMYLAB_N": "300"}``) in ``cwd`` (default: the lesson's folder)."""
    import nbformat

    path = Path(path)
    env = {**(env or {}), "RUMMYLAB_LESSON": path.stem}
    nb = copy.deepcopy(nbformat.read(path, as_version=4))
    setup = nbformat.v4.new_code_cell(SETUP.format(cwd=str(Path(cwd or path.parent).resolve()), env=env))
    report = nbformat.v4.new_code_cell(REPORT.format(mark=REPORT_MARK))
    nb.cells = [setup, *nb.cells, report]
    client.nb = nb
    start = time.monotonic()
    for index, cell in enumerate(nb.cells):
        client.execute_cell(cell, index)
    seconds = time.monotonic() - start
    found = _report(report)
    for cell in (setup, report):
        nb.cells.remove(cell)
    errors = [CellError(i, o.get("ename", ""), o.get("evalue", ""), "\n".join(o.get("traceback", [])),
                        cell_label(nb.cells, i))
              for i, c in [(-1, setup), *enumerate(nb.cells), (len(nb.cells), report)] for o in c.get("outputs", [])
              if o.get("output_type") == "error"]
    return LessonRun(path, env, nb, errors, found, seconds)


def _report(cell: Any) -> dict[str, Any]:
    for out in cell.get("outputs", []):
        text = out.get("text", "") if out.get("output_type") == "stream" else ""
        for line in text.splitlines():
            if line.startswith(REPORT_MARK):
                found: dict[str, Any] = json.loads(line[len(REPORT_MARK):])
                return found
    return {}


def lessons_in(folder: Path | str) -> list[Path]:
    """The lesson notebooks of a folder (or the one notebook named), sorted; ValueError if none."""
    folder = Path(folder)
    if folder.is_file():
        if folder.suffix != ".ipynb":
            raise ValueError(f"{folder}: not a notebook (.ipynb)")
        return [folder]
    if not folder.is_dir():
        raise ValueError(f"{folder}: no such lesson or folder")
    found = sorted(p for p in folder.glob("*.ipynb") if not p.name.startswith("."))
    if not found:
        raise ValueError(f"{folder}: no lessons (.ipynb files) in it")
    return found
