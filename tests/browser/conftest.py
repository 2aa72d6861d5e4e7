"""Real-browser fixtures: Debian's Chromium driven by Playwright; Voilà and JupyterLab started
by the tests on 127.0.0.1 and stopped by them. Under CI these tests fail, never skip."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

import pytest

from rummylab.classroom.serve import free_port, voila_command

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic",
        "--disable-features=Translate,OptimizationHints,MediaRouter"]
SHOTS = Path(os.environ.get("RUMMYLAB_SHOT_DIR") or Path(tempfile.gettempdir()) / "rummylab-shots")
LOCAL = {"127.0.0.1", "localhost"}


def _unavailable(why: str) -> None:
    if os.environ.get("CI"):
        pytest.fail(f"browser test cannot run under CI: {why}")
    pytest.skip(why)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[Any]) -> Any:
    report = yield
    setattr(item, f"rep_{report.when}", report)
    return report


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    if not Path(CHROMIUM).exists():
        _unavailable(f"no Chromium at {CHROMIUM} (make test installs Debian's chromium)")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _unavailable("playwright is not installed")
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


@pytest.fixture
def page(browser: Any, request: pytest.FixtureRequest) -> Iterator[Any]:
    """A page that may only talk to 127.0.0.1; any other request is blocked and fails the test."""
    context = browser.new_context(viewport={"width": 1200, "height": 1500})
    pg = context.new_page()
    outside: list[str] = []

    def route(r: Any) -> None:
        url = r.request.url
        if url.startswith(("data:", "blob:")) or urlparse(url).hostname in LOCAL:
            r.continue_()
        else:
            outside.append(url)
            r.abort()

    pg.route("**/*", route)
    pg.outside_requests = outside
    yield pg
    rep = getattr(request.node, "rep_call", None)
    if rep is not None and rep.failed:
        SHOTS.mkdir(parents=True, exist_ok=True)
        shot = SHOTS / f"{request.node.name}.png"
        pg.screenshot(path=str(shot), full_page=True)
        print(f"\nscreenshot of the failure: {shot}")
        for served in request.node.funcargs.values():  # what each server said, kept with the failure
            log = served.get("log") if isinstance(served, dict) else None
            if isinstance(log, Path) and log.exists():
                print(f"the end of {log}:\n" + "\n".join(log.read_text(errors="replace").splitlines()[-60:]))
    context.close()
    assert not outside, f"requests tried to leave 127.0.0.1: {outside}"


def _wait_http(url: str, proc: subprocess.Popen[bytes], log: Path, timeout: float = 90) -> None:
    end = time.time() + timeout
    while time.time() < end:
        if proc.poll() is not None:
            raise RuntimeError(f"server exited early:\n{log.read_text()[-3000:]}")
        try:
            with urllib.request.urlopen(url, timeout=2):
                return
        except OSError:
            time.sleep(0.3)
    raise RuntimeError(f"server did not answer {url} in {timeout} s:\n{log.read_text()[-3000:]}")


def _stop(proc: subprocess.Popen[bytes]) -> None:
    proc.terminate()
    try:
        proc.wait(15)
    except subprocess.TimeoutExpired:
        proc.kill()


@pytest.fixture(scope="session")
def lessons_copy(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The lessons copied to a temp dir: a server never writes into the repo."""
    d = tmp_path_factory.mktemp("lessons")
    for nb in (ROOT / "notebooks").glob("*.ipynb"):
        shutil.copy(nb, d / nb.name)
    return d


def _lesson_env(env: dict[str, str]) -> dict[str, str]:
    env = dict(env)
    env.setdefault("RUMMYLAB_N", "2000")
    env.setdefault("RUMMYLAB_SEED", "2026")
    return env


@pytest.fixture(scope="session")
def voila(lessons_copy: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """Base URL of a Voilà server on the lessons."""
    port = free_port()
    cmd, env = voila_command(lessons_copy, port)
    log = tmp_path_factory.mktemp("voila") / "voila.log"
    with open(log, "wb") as out:
        proc = subprocess.Popen(cmd, env=_lesson_env(env), stdout=out, stderr=subprocess.STDOUT, cwd=lessons_copy)
    try:
        _wait_http(f"http://127.0.0.1:{port}/voila/static/voila.js", proc, log)
        yield f"http://127.0.0.1:{port}"
    finally:
        _stop(proc)


@pytest.fixture(scope="session")
def jupyterlab(lessons_copy: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, str]]:
    """(base URL, token) of a JupyterLab server on the lessons."""
    port, token = free_port(), "rummylab-test-token"
    home = tmp_path_factory.mktemp("lab")
    settings = home / "settings" / "@jupyterlab" / "apputils-extension"
    settings.mkdir(parents=True)
    (settings / "notification.jupyterlab-settings").write_text(
        json.dumps({"fetchNews": "false", "checkForUpdates": False}))
    env = _lesson_env(dict(os.environ))
    env.update(JUPYTERLAB_SETTINGS_DIR=str(home / "settings"), JUPYTER_CONFIG_DIR=str(home / "config"),
               JUPYTER_RUNTIME_DIR=str(home / "runtime"), JUPYTERLAB_WORKSPACES_DIR=str(home / "workspaces"))
    cmd = [sys.executable, "-m", "jupyterlab", "--no-browser", "--ip=127.0.0.1", f"--port={port}",
           f"--ServerApp.token={token}", "--allow-root", "--expose-app-in-browser",
           f"--ServerApp.root_dir={lessons_copy}", "--LabApp.news_url=", "--ServerApp.open_browser=False"]
    log = home / "lab.log"
    with open(log, "wb") as out:
        proc = subprocess.Popen(cmd, env=env, stdout=out, stderr=subprocess.STDOUT, cwd=lessons_copy)
    try:
        _wait_http(f"http://127.0.0.1:{port}/api/status?token={token}", proc, log)
        yield f"http://127.0.0.1:{port}", token
    finally:
        _stop(proc)


def shot(pg: Any, name: str, selector: str | None = None) -> Path:
    """Save a screenshot (of one element, or the page) in the screenshot dir."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    path = SHOTS / f"{name}.png"
    (pg.locator(selector).first.screenshot(path=str(path)) if selector else pg.screenshot(path=str(path)))
    return path


CLASS_CODE, TEACHER_TOKEN = "CLASS7", "TEACHER-TOKEN-1"


@contextlib.contextmanager
def serving(folder: Path, home: Path, *options: str, env: dict[str, str] | None = None,
            teacher_page: bool = False) -> Iterator[dict[str, Any]]:
    """``rummylab serve folder`` with a teacher page (its token ``TEACHER_TOKEN``) and ``options``,
    run in ``home`` (its log there), until the class answers (and its teacher page, with
    ``teacher_page``): {"url", "teacher", "proc", "log"}; stopped after."""
    port, teacher = free_port(), free_port()
    cmd = [sys.executable, "-m", "rummylab.cli", "serve", str(folder), f"--port={port}", f"--teacher-port={teacher}",
           f"--teacher-token={TEACHER_TOKEN}", *options]
    log = home / "serve.log"
    with open(log, "wb") as out:
        proc = subprocess.Popen(cmd, env=_lesson_env(env if env is not None else dict(os.environ)), stdout=out,
                                stderr=subprocess.STDOUT, cwd=home)
    try:
        _wait_http(f"http://127.0.0.1:{port}/voila/static/voila.js", proc, log)
        if teacher_page:
            _wait_http(f"http://127.0.0.1:{teacher}/?token={TEACHER_TOKEN}", proc, log)
        yield {"url": f"http://127.0.0.1:{port}", "teacher": f"http://127.0.0.1:{teacher}", "proc": proc, "log": log}
    finally:
        _stop(proc)


@pytest.fixture(scope="session")
def classroom(lessons_copy: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    """A class served by ``rummylab serve`` with a class code, one warm kernel for lesson 00 and
    a teacher page: {"url", "teacher", "db", "proc"}."""
    home = tmp_path_factory.mktemp("class")
    db = home / "progress.sqlite"
    env = {**os.environ, "RUMMYLAB_LEFT_AFTER": "2"}  # a left page's kernel goes after 2 s, not a minute
    with serving(lessons_copy, home, f"--code={CLASS_CODE}", "--students=1", "--lesson=00", f"--db={db}", env=env,
                 teacher_page=True) as served:
        yield {**served, "db": db}


def not_a_card(page: Any) -> tuple[str, str]:
    """Lesson 00's first exercise as this student's page shows it: (the word that is no card of a
    gin deck, a word that is one)."""
    from rummylab.cards import parse_cards

    def reads(word: str) -> bool:
        try:
            parse_cards(word, jokers=0)
        except ValueError:
            return False
        return True

    page.wait_for_selector(".rl-live-prompt >> text=is no card of a gin deck", timeout=120_000)
    text = page.locator(".rl-live-prompt", has_text="is no card of a gin deck").first.inner_text()
    words = text.split("One word of ", 1)[1].split(" is no card", 1)[0].split()
    (odd,) = [w for w in words if not reads(w)]
    return odd, next(w for w in words if reads(w))


def answer(page: Any, exercise: str, typed: str, expect: str) -> str:
    """Type an answer in an exercise's box, press Check, and wait for feedback that says ``expect``;
    the feedback's text."""
    box = f".rl-exercise-{exercise}"
    page.fill(f"{box} .rl-answer input", typed)
    page.click(f"{box} .rl-check")
    feedback = f"{box} .rl-answer-feedback"
    page.wait_for_function(f"() => (document.querySelector({feedback!r}) || {{}}).innerText?.includes({expect!r})",
                           timeout=30_000)
    return str(page.inner_text(feedback))
