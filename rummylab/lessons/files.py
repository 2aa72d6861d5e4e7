"""Where the lessons are: packed in the installed package, or the source checkout's notebooks/."""

from __future__ import annotations

import shutil
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent


def lessons_dir() -> Path:
    """The lessons: those packed in the installed package, else the source checkout's notebooks/."""
    packed = PACKAGE / "notebooks"
    if any(packed.glob("*.ipynb")):
        return packed
    return PACKAGE.parent / "notebooks"


def copy_lessons(folder: Path | str, force: bool = False) -> list[Path]:
    """Copy the lessons into ``folder`` (made if needed) for a class; existing files are kept
    unless ``force``. Returns the files written."""
    target = Path(folder)
    if target.exists() and not target.is_dir():
        raise ValueError(f"{target} is a file, not a folder")
    target.mkdir(parents=True, exist_ok=True)
    written = []
    for nb in sorted(lessons_dir().glob("*.ipynb")):
        out = target / nb.name
        if out.exists() and not force:
            continue
        shutil.copy(nb, out)
        written.append(out)
    return written
