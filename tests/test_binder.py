"""Binder emulation: clean clone -> fresh venv -> binder/requirements.txt -> postBuild -> lessons execute."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from rummylab.classroom.serve import free_port

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
    env.update(RUMMYLAB_N="300", RUMMYLAB_SEED="2026", JUPYTER_CONFIG_DIR=str(tmp_path / "jcfg"),
               JUPYTER_DATA_DIR=str(tmp_path / "jdata"), JUPYTER_RUNTIME_DIR=str(tmp_path / "jrun"))
    # Binder's pip installs the requirements; uv (make test's installer) installs the same
    # requirements four times as fast where it is at hand. Only what the lessons import gets
    # byte-compiled, when imported. postBuild's own `pip install .` runs as on Binder.
    uv = shutil.which("uv", path=str(Path(sys.executable).parent))
    install = ([uv, "pip", "install", "--quiet", "--python", str(venv / "bin" / "python")] if uv else
               [str(venv / "bin" / "pip"), "install", "--quiet", "--no-compile"])
    run([*install, "-r", "binder/requirements.txt"], repo, env)
    out = run(["bash", "binder/postBuild"], repo, env)
    assert "rummylab kernel: cython" in out
    # postBuild installed a wheel: the lessons ship inside it, and the CLI copies them out
    work = tmp_path / "work"  # outside the source tree, so the installed (compiled) package is imported
    out = run([str(venv / "bin" / "rummylab"), "lessons", "copy", str(work)], tmp_path, env)
    notebooks = sorted(p.name for p in work.glob("*.ipynb"))
    assert notebooks == sorted(p.name for p in (repo / "notebooks").glob("*.ipynb")) and len(notebooks) >= 11, out
    packed = run([str(venv / "bin" / "python"), "-c",
                  "from rummylab.classroom.serve import lessons_dir; print(lessons_dir())"], tmp_path, env)
    assert "site-packages" in packed, packed
    # the first lesson runs top to bottom in the Binder environment's own kernel: serving it renders it
    # (test_notebooks runs every lesson; the environments hold the same packages:
    # test_binder_installs_what_the_package_needs)
    _serves_a_packed_lesson(venv, tmp_path, env)


def test_binder_installs_what_the_package_needs() -> None:
    """binder/requirements.txt: the build requirements, the dependencies and the lab extra of
    pyproject.toml, with the same version ranges (Binder cannot read an extra from a build)."""
    import tomllib

    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    wanted = {*project["build-system"]["requires"], *project["project"]["dependencies"],
              *project["project"]["optional-dependencies"]["lab"]}
    lines = (ROOT / "binder" / "requirements.txt").read_text().splitlines()
    given = {line.split("#")[0].strip() for line in lines} - {""}

    def name(req: str) -> str:
        return req.split(";")[0].replace(" ", "")

    assert {name(r) for r in wanted if "python_version < '3.11'" not in r} == given


def _serves_a_packed_lesson(venv: Path, tmp_path: Path, env: dict[str, str]) -> None:
    """`rummylab serve` with no path serves the packaged lessons (Voilà on 127.0.0.1), then stops."""
    port = free_port()
    log = (tmp_path / "serve.log").open("w")
    cmd = [str(venv / "bin" / "rummylab"), "serve", "--port", str(port), "--teacher-port", str(free_port())]
    proc = subprocess.Popen(cmd, cwd=tmp_path, env=env,
                            stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    try:
        deadline = time.time() + 120
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/voila/static/voila.js", timeout=5):
                    break
            except OSError:
                if time.time() > deadline or proc.poll() is not None:
                    raise AssertionError((tmp_path / "serve.log").read_text()[-3000:]) from None
                time.sleep(0.5)
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/voila/render/00-start-here.ipynb", timeout=120) as r:
            page = r.read().decode()
        assert "Start here" in page and "rl-chip" in page and "widget-view" in page  # run, cards as chips
        assert "class=\"rl-cell-error\"" not in page  # every cell ran
        # the lesson page's template ships in the wheel, its modules inside it (setup.py's build_py)
        assert "rl-lesson-page" in page and "ButtonModel" in page and "jupyter.widget.control" in page
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(timeout=30)
        log.close()
