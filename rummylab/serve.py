"""Serve the lessons as a click-through app with Voilà, on 127.0.0.1 only, fully offline.

Voilà's ``lab`` template links Font Awesome from a CDN although Voilà bundles it; the
``rummylab`` template made here is that template without the CDN links.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import tempfile
from pathlib import Path

TEMPLATE = "rummylab"


def lessons_dir() -> Path:
    """./notebooks if there is one, else the lessons beside the package (a source checkout)."""
    here = Path.cwd() / "notebooks"
    return here if here.is_dir() else Path(__file__).resolve().parent.parent / "notebooks"


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


def voila_command(path: Path | str | None = None, port: int = 8866) -> tuple[list[str], dict[str, str]]:
    """The command and environment that serve ``path`` (a notebook or a folder) with Voilà."""
    path = path or lessons_dir()
    data_dir = offline_template()
    env = dict(os.environ)
    env["JUPYTER_PATH"] = os.pathsep.join(filter(None, [str(data_dir), env.get("JUPYTER_PATH", "")]))
    cmd = [sys.executable, "-m", "voila", str(path), "--no-browser", f"--port={port}",
           "--Voila.ip=127.0.0.1", f"--template={TEMPLATE}", "--show_tracebacks=True"]
    return cmd, env


def serve(path: Path | str | None = None, port: int = 8866) -> int:
    """Serve the lessons until interrupted (Ctrl+C); returns Voilà's exit status."""
    path = path or lessons_dir()
    cmd, env = voila_command(path, port)
    print(f"rummylab: serving {path} at http://127.0.0.1:{port}/ (Ctrl+C stops)", flush=True)
    try:
        return subprocess.call(cmd, env=env)
    except KeyboardInterrupt:
        return 0
