"""rummylab on a real JupyterHub (configurable-http-proxy, a shared class password) on 127.0.0.1:
two students in Chromium through the proxy, their checks in the store under their hub users, the
teacher page for the teacher group only, and nobody in a server that is not theirs."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from rummylab.serve import free_port

from .conftest import _unavailable, _wait_http

PASSWORD = "class-password-7"
TEACHER_PASSWORD = "the-teachers-own-password-of-32-characters"
TIMEOUT = 120_000
LESSON = "00-start-here.ipynb"


@pytest.fixture(scope="module")
def hub(lessons_copy: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    """``rummylab hub`` on the lessons (shared password, students student01/02, the simple spawner),
    stopped by its PID: {"url", "db", "proc"}."""
    import psutil
    try:
        import jupyterhub  # noqa: F401

        from rummylab.hub import proxy_command
        proxy_command()
    except (ImportError, ValueError) as exc:
        _unavailable(f"JupyterHub or its proxy is missing (make test installs both): {exc}")
    state = tmp_path_factory.mktemp("hub")
    port = free_port()
    db = state / "progress.sqlite"
    env = dict(os.environ, RUMMYLAB_HUB_PASSWORD=PASSWORD, RUMMYLAB_HUB_TEACHER_PASSWORD=TEACHER_PASSWORD)
    cmd = [sys.executable, "-m", "rummylab.cli", "hub", str(lessons_copy), "--students=2", f"--port={port}",
           f"--state-dir={state}", "--spawner=simple", f"--db=sqlite:///{db}"]
    log = state / "hub.log"
    with open(log, "wb") as out:
        proc = subprocess.Popen(cmd, env=env, stdout=out, stderr=subprocess.STDOUT, cwd=state)
    try:
        _wait_http(f"http://127.0.0.1:{port}/hub/health", proc, log)
        yield {"url": f"http://127.0.0.1:{port}", "db": db, "proc": proc, "log": log, "psutil": psutil}
    finally:
        started = [p for p in psutil.Process(proc.pid).children(recursive=True)] if proc.poll() is None else []
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(45)
        except subprocess.TimeoutExpired:
            proc.kill()
        left = [p for p in started if p.is_running() and p.status() != psutil.STATUS_ZOMBIE]
        for p in left:
            p.kill()
        assert not left, f"still running after the hub stopped: {[p.cmdline() for p in left]}"


def login(page: Any, url: str, user: str, password: str = PASSWORD) -> None:
    page.goto(f"{url}/hub/login", timeout=TIMEOUT)
    page.fill("#username_input", user)
    page.fill("#password_input", password)
    page.click("#login_submit")


def landing(url: str) -> tuple[str, str]:
    """(final URL, page) of a GET without cookies, redirects followed."""
    with urllib.request.urlopen(url, timeout=30) as r:
        return r.url, r.read().decode()


def a_student_answers(page: Any, url: str, user: str, name: str) -> None:
    login(page, url, user)
    # the hub starts her server, which opens at the lesson of the day, run for her
    page.wait_for_url(f"**/user/{user}/voila/render/{LESSON}", timeout=TIMEOUT)
    page.wait_for_selector(".rl-analyzer .rl-deadwood", timeout=TIMEOUT)
    page.click(".rl-analyzer .rl-card-QH")  # an 11th card: the analyzer says what to discard
    page.wait_for_function("document.querySelector('.rl-analyzer .rl-deadwood').innerText.includes('after discarding')",
                           timeout=30_000)
    page.fill(".rl-name input", name)
    page.click(".rl-name-ok")
    box = ".rl-exercise-deck_size"
    page.fill(f"{box} .rl-answer input", "52")
    page.click(f"{box} .rl-check")
    page.wait_for_function(f"() => document.querySelector('{box} .rl-answer-feedback').innerText.includes('Right')",
                           timeout=30_000)
    feedback = page.inner_text(f"{box} .rl-answer-feedback")
    assert "saved later" not in feedback and "kept" not in feedback, feedback


def test_a_class_on_jupyterhub(browser: Any, page: Any, hub: dict[str, Any]) -> None:
    url = hub["url"]
    # without login: the hub's login page, for a student's server and for the teacher page alike
    for path in (f"/user/student01/voila/render/{LESSON}", "/services/rummylab/"):
        where, text = landing(url + path)
        assert where.startswith(f"{url}/hub/login") and "password_input" in text, where
        assert "rl-" not in text

    a_student_answers(page, url, "student01", "Ada")
    other = browser.new_context()
    try:
        second = other.new_page()
        a_student_answers(second, url, "student02", "Bea")
        # a student cannot open another's server, nor the teacher page
        reply = second.goto(f"{url}/user/student01/voila/render/{LESSON}", timeout=TIMEOUT)
        assert reply.status == 403 and second.locator(".rl-analyzer").count() == 0
        reply = second.goto(f"{url}/services/rummylab/", timeout=TIMEOUT)
        assert reply.status == 403 and second.locator(".rl-teacher-page").count() == 0
    finally:
        other.close()

    # the checks are in the store under the hub users (the typed names only greeted them)
    from rummylab.progress import Progress

    rows = Progress(f"sqlite:///{hub['db']}").rows()
    assert sorted(zip(rows["hub_user"], rows["student"], rows["exercise"], rows["right"], strict=True)) == [
        ("student01", "student01", "deck_size", True), ("student02", "student02", "deck_size", True)]

    # no secret in a student's kernel: the service's URL, her own token, nothing of the database
    psutil = hub["psutil"]
    kernels = [p for p in psutil.Process(hub["proc"].pid).children(recursive=True)
               if "ipykernel" in " ".join(p.cmdline())]
    assert kernels
    for kernel in kernels:
        env = kernel.environ()
        assert env["RUMMYLAB_DB"].startswith("rummylab+http://") and "sqlite" not in env["RUMMYLAB_DB"]
        values = " ".join(env.values())
        assert PASSWORD not in values and TEACHER_PASSWORD not in values and str(hub["db"]) not in values

    # the teacher page through the proxy, for the teacher group, across the hub, a lesson at a time
    teacher = browser.new_context()
    try:
        tpage = teacher.new_page()
        login(tpage, url, "teacher")  # the class password does not open the teacher's account
        tpage.wait_for_selector("#username_input", timeout=TIMEOUT)
        assert "/hub/login" in tpage.url
        login(tpage, url, "teacher", TEACHER_PASSWORD)
        tpage.wait_for_load_state()
        tpage.goto(f"{url}/services/rummylab/", timeout=TIMEOUT)
        tpage.wait_for_selector(".rl-teacher-page table", timeout=TIMEOUT)
        students = tpage.inner_text(".rl-students")
        assert "student01" in students and "student02" in students
        assert "2 students tried, 2 solved" in tpage.inner_text(".rl-answers")
        tpage.click(".rl-lessons a[href='?lesson=00-start-here']")
        tpage.wait_for_selector(".rl-lessons a[aria-current=page][href='?lesson=00-start-here']", timeout=TIMEOUT)
        assert f"{url}/services/rummylab/?lesson=00-start-here" == tpage.url
    finally:
        teacher.close()
