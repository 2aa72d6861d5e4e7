"""rummylab's Voilà templates, shipped inside the package as a Jupyter data folder (``DATA``:
``share/jupyter/voila/templates/``): ``rummylab``, the light lesson page and the lesson index, and
``rummylab-voila`` (``classroom.class_code.OWN_PAGE``), Voilà's own lesson page without its CDN links.
``rummylab serve`` and the hub's student servers put ``DATA`` on ``JUPYTER_PATH``, read-only:
nothing is written at run time.

Each file has one source. Written by hand: the two ``conf.json``, ``rummylab/page.html`` and
``rummylab-voila/index.html.j2`` (they restate the few lines of Voilà's templates that hold its CDN
links: the only files that know Voilà's templates; tests/test_page_template.py holds them to the
Voilà installed). Built: ``rummylab/index.html.j2``, the lesson page, ``app/index.html.j2`` with
``app/static``'s style and modules inside it (a student's browser makes one request for it), by
setup.py's build_py, into the wheel or in place for an editable install (gitignored); ``make``
rebuilds it in place when ``app/`` changes (``python rummylab/page_template.py``, without the
editable install's rebuild of the compiled kernels). Jinja cannot take the modules' imports of each
other out at render time, hence a build step. This module uses the standard library only: setup.py
and make run it by its path."""

from __future__ import annotations

import os
import re
from pathlib import Path

HERE = Path(__file__).resolve().parent
APP = HERE / "app"
"""The lesson page's sources: a Voilà template (the server renders each cell's output as HTML), and
the ES modules of ``PAGE_MODULES``, which draw every core widget live from the kernel in about 1200
lines of JavaScript.
Voilà's own page loads 5.2 MB of JupyterLab's: with a class's browsers on one laptop, that was
four CPU-seconds a student, most of the time to a first widget."""
PAGE_MODULES = ("kernel.js", "lessons.js", "controls.js", "page.js")
"""The lesson page's modules, each after those it imports."""
DATA = HERE / "share" / "jupyter"
"""The Jupyter data folder holding the templates (what ``JUPYTER_PATH`` gets)."""
TEMPLATE = "rummylab"
LESSON_PAGE = Path("share", "jupyter", "voila", "templates", TEMPLATE, "index.html.j2")
"""The built lesson page, relative to the package."""
REBUILD = "make install (or: python rummylab/page_template.py)"

def N_(message: str) -> str:
    """Marks a word of the page for the catalogs (``rummylab.i18n``'s marker: this module imports nothing of
    rummylab's)."""
    return message


PAGE_WORDS = (N_("Opening the lesson…"), N_("Running the lesson: cell {index} of {count}…"),
              N_("This part of the lesson could not be shown; the rest goes on. Your teacher can see why."),
              N_("The lesson's widgets could not start: {error}. Reload the page."),
              N_("Open a fresh copy of the lesson"), N_("This lesson's widgets need Voilà's own page: opening it…"),
              N_("The connection to the lesson was lost: trying again…"),
              N_("This lesson has stopped (its kernel is gone), so its buttons can do nothing now."),
              N_("This part of the lesson could not be shown here ({error}); it works in JupyterLab."))
"""What the lesson page itself says (its template and modules look each up in the lesson's ``page``
words, which a lesson built in a language carries in its metadata: ``lessons.translate``)."""

_IMPORT_OR_EXPORT = re.compile(r'^(?:import (?:\{[^}]*\} from )?"\./[\w.]+\.js";|export \{[^}]*\};)\n', re.M)


def lesson_page(app: Path = APP) -> str:
    """The lesson page's template with its style and script inside it (one module: the modules of
    ``PAGE_MODULES`` one after another, without their imports and exports of each other)."""
    static = app / "static"
    script = "\n".join(_IMPORT_OR_EXPORT.sub("", (static / name).read_text(encoding="utf-8")) for name in PAGE_MODULES)
    css = (static / "lessons.css").read_text(encoding="utf-8")
    page = (app / "index.html.j2").read_text(encoding="utf-8")

    def raw(text: str) -> str:
        return "{% raw %}" + text + "{% endraw %}"

    return (page.replace("/* lessons.css */", raw(css), 1)
            .replace("/* kernel.js + lessons.js */", raw(script), 1))


def build(package: Path) -> Path:
    """Write the lesson page into the package folder ``package`` (setup.py's build_py: the wheel's
    ``build_lib/rummylab``, or the source's ``rummylab`` for an editable install); returns the file."""
    target = package / LESSON_PAGE
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_name(f".{target.name}.{os.getpid()}")
    partial.write_text(lesson_page(), encoding="utf-8")
    partial.replace(target)  # whole, even with make and an editable install writing it side by side
    return target


def data_dir() -> Path:
    """``DATA``, once its lesson page is known to be the one the sources give; ValueError, saying how
    to rebuild it, when it is missing or stale (an editable install whose ``app/`` changed since)."""
    built = HERE / LESSON_PAGE
    if not built.is_file():
        raise ValueError(f"the lesson page is not built ({built} is missing): {REBUILD}")
    if built.read_text(encoding="utf-8") != lesson_page():
        raise ValueError(f"the lesson page {built} is older than its sources in {APP}: {REBUILD}")
    return DATA


if __name__ == "__main__":  # make: the lesson page, rebuilt in place
    print(f"rummylab: built {build(HERE)}")
