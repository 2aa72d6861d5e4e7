"""Serve the lessons as a click-through app with Voilà, on 127.0.0.1 only, fully offline.

Voilà's ``lab`` template links Font Awesome from a CDN although Voilà bundles it; the
``rummylab`` template made here is that template without the CDN links.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import socket
import subprocess
import sys
import tempfile
from pathlib import Path

TEMPLATE = "rummylab"


LAB_EXTRA = 'pip install "rummylab[lab]"'


def lessons_dir() -> Path:
    """The lessons: those packed in the installed package, else the source checkout's notebooks/."""
    packed = Path(__file__).resolve().parent / "notebooks"
    if any(packed.glob("*.ipynb")):
        return packed
    return Path(__file__).resolve().parent.parent / "notebooks"


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


def require_voila() -> None:
    """A clear one-line error (not a traceback) when the lab extra is not installed."""
    if importlib.util.find_spec("voila") is None:
        raise ValueError(f"serving lessons needs Voilà, which is not installed: {LAB_EXTRA}")


def _voila_templates() -> Path:
    import voila

    for root in [Path(sys.prefix) / "share" / "jupyter", *(Path(p) for p in _jupyter_paths())]:
        if (root / "voila" / "templates" / "lab" / "index.html.j2").exists():
            return root / "voila" / "templates"
    raise RuntimeError(f"Voilà's lab template was not found (voila {voila.__version__})")


def _jupyter_paths() -> list[str]:
    from jupyter_core.paths import jupyter_path

    return list(jupyter_path())


def offline_template(root: Path | None = None) -> Path:
    """A Jupyter data dir holding the offline ``rummylab`` Voilà template; returns the dir."""
    root = root or Path(tempfile.mkdtemp(prefix="rummylab-voila-"))
    lab = _voila_templates() / "lab" / "index.html.j2"
    target = root / "voila" / "templates" / TEMPLATE
    target.mkdir(parents=True, exist_ok=True)
    kept = [line for line in lab.read_text().splitlines(keepends=True)
            if not ("<link" in line and "://" in line)]
    (target / "index.html.j2").write_text("".join(kept))
    (target / "conf.json").write_text('{"base_template": "lab"}\n')
    return root


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def progress_db(path: Path | str, db: Path | str | None = None) -> Path:
    """Where a class's checks go: ``db``, else ``progress.sqlite`` in the served folder."""
    if db is not None:
        return Path(db)
    folder = Path(path) if Path(path).is_dir() else Path(path).parent
    return folder / "progress.sqlite"


def voila_command(path: Path | str | None = None, port: int = 8866,
                  db: Path | str | None = None) -> tuple[list[str], dict[str, str]]:
    """The command and environment that serve ``path`` (a notebook or a folder) with Voilà;
    the kernels record named students' checks in ``progress_db(path, db)``."""
    from .progress import DB_ENV

    path = path or lessons_dir()
    data_dir = offline_template()
    env = dict(os.environ)
    env[DB_ENV] = str(progress_db(path, db).resolve())
    env["JUPYTER_PATH"] = os.pathsep.join(filter(None, [str(data_dir), env.get("JUPYTER_PATH", "")]))
    cmd = [sys.executable, "-m", "voila", str(path), "--no-browser", f"--port={port}",
           "--Voila.ip=127.0.0.1", f"--template={TEMPLATE}", "--show_tracebacks=True"]
    return cmd, env


def serve(path: Path | str | None = None, port: int = 8866, db: Path | str | None = None) -> int:
    """Serve the lessons until interrupted (Ctrl+C); returns Voilà's exit status."""
    require_voila()
    path = path or lessons_dir()
    if not Path(path).exists():
        raise ValueError(f"{path}: no such lesson or folder")
    cmd, env = voila_command(path, port, db)
    print(f"rummylab: serving {path} at http://127.0.0.1:{port}/ (Ctrl+C stops)", flush=True)
    try:
        return subprocess.call(cmd, env=env)
    except KeyboardInterrupt:
        return 0
