"""Binder emulation: clean clone -> fresh venv -> binder/requirements.txt -> postBuild -> lessons execute."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def run(cmd: list[str], cwd: Path, env: dict[str, str], timeout: int = 900) -> str:
    r = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout, check=False)
    assert r.returncode == 0, f"{' '.join(cmd)} failed:\n{r.stdout[-3000:]}\n{r.stderr[-3000:]}"
    return r.stdout


@pytest.mark.slow
def test_binder_build_and_lessons(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    env = {k: v for k, v in os.environ.items() if not k.startswith(("RUMMYLAB_", "VIRTUAL_ENV", "PYTHON"))}
    run(["git", "clone", "-q", str(ROOT), str(repo)], tmp_path, env)
    venv = tmp_path / "venv"
    run([sys.executable, "-m", "venv", str(venv)], tmp_path, env)
    env["PATH"] = f"{venv / 'bin'}{os.pathsep}{env['PATH']}"
    env["VIRTUAL_ENV"] = str(venv)
    env.update(RUMMYLAB_N="1000", RUMMYLAB_SEED="2026", JUPYTER_CONFIG_DIR=str(tmp_path / "jcfg"),
               JUPYTER_DATA_DIR=str(tmp_path / "jdata"), JUPYTER_RUNTIME_DIR=str(tmp_path / "jrun"))
    run([str(venv / "bin" / "pip"), "install", "--quiet", "-r", "binder/requirements.txt"], repo, env)
    out = run(["bash", "binder/postBuild"], repo, env)
    assert "rummylab kernel: cython" in out
    notebooks = sorted(str(p.relative_to(repo)) for p in (repo / "notebooks").glob("*.ipynb"))
    assert len(notebooks) >= 7
    # run from outside the source tree, so the installed (compiled) package is what the lessons import
    work = tmp_path / "work"
    work.mkdir()
    for nb in notebooks:
        (work / Path(nb).name).write_bytes((repo / nb).read_bytes())
    run([str(venv / "bin" / "jupyter"), "execute", "--kernel_name=python3", *sorted(p.name for p in work.iterdir())],
        work, env)
