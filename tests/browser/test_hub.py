"""rummylab on a real JupyterHub (configurable-http-proxy, a shared class password) on 127.0.0.1,
its progress in PostgreSQL (the ``pg_cluster`` fixture's): two students in Chromium through the
proxy, known by their hub logins without typing a name (one types a display name), their checks in
PostgreSQL under their hub users, the teacher page for the teacher group only (a class, a hub group,
at a time), and nobody in a server that is not theirs. It prints what a student costs (her server's
and kernel's memory) and how long she waits from logging in to her first widget (README: Past one
laptop)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from rummylab.classroom.serve import free_port

from .conftest import _unavailable, _wait_http, answer

PASSWORD = "class-password-7"
TEACHER_PASSWORD = "the-teachers-own-password-of-32-characters"
TIMEOUT = 120_000
LESSON = "00-start-here.ipynb"


ONE_OF_EACH = """
# the browser test: student01's server as without --warm (Voila in a Jupyter server), student02's warm
import sys
from rummylab.classroom.hub import singleuser_args
_copy_lessons = c.Spawner.pre_spawn_hook
def _one_of_each(spawner):
    _copy_lessons(spawner)
    if spawner.user.name == "student01":
        spawner.cmd, spawner.args = [sys.executable, "-m", "jupyterhub.singleuser"], singleuser_args()
c.Spawner.pre_spawn_hook = _one_of_each
"""
"""Both kinds of student server on one hub."""


@pytest.fixture(scope="module")
def hub(lessons_copy: Path, tmp_path_factory: pytest.TempPathFactory, pg_cluster: Any) -> Iterator[dict[str, Any]]:
    """JupyterHub on ``rummylab hub``'s config for the lessons (shared password, students student01/02,
    the simple spawner, a new database on the test's PostgreSQL cluster, student02 in the class
    class-7b, ``--warm 1``), edited as a teacher may (``ONE_OF_EACH``), stopped by its PID:
    {"url", "db", "proc"}."""
    import psutil
    try:
        import jupyterhub  # noqa: F401

        from rummylab.classroom.hub import proxy_command
        proxy_command()
    except (ImportError, ValueError) as exc:
        _unavailable(f"JupyterHub or its proxy is missing (make test installs both): {exc}")
    state = tmp_path_factory.mktemp("hub")
    port = free_port()
    db = pg_cluster.create_db(f"hub{os.getpid()}")
    env = dict(os.environ, RUMMYLAB_HUB_PASSWORD=PASSWORD, RUMMYLAB_HUB_TEACHER_PASSWORD=TEACHER_PASSWORD)
    config = state / "jupyterhub_config.py"
    written = subprocess.run(
        [sys.executable, "-m", "rummylab.cli", "hub", str(lessons_copy), "--students=2", f"--port={port}",
         f"--state-dir={state}", "--spawner=simple", f"--db={db}", "--class=class-7b=student02", "--warm=1",
         f"--config-only={config}"], env=env, capture_output=True, text=True, check=False)
    assert written.returncode == 0, written.stderr
    with open(config, "a", encoding="utf-8") as edit:
        edit.write(ONE_OF_EACH)
    log = state / "hub.log"
    with open(log, "wb") as out:
        proc = subprocess.Popen([sys.executable, "-m", "jupyterhub", "-f", str(config)], env=env, stdout=out,
                                stderr=subprocess.STDOUT, cwd=state)
    try:
        _wait_http(f"http://127.0.0.1:{port}/hub/health", proc, log)
        yield {"url": f"http://127.0.0.1:{port}", "db": db, "proc": proc, "log": log, "psutil": psutil,
               "db_password": pg_cluster.password}
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


def a_student_answers(page: Any, user: str, name: str | None, start: float) -> float:
    """She (logged in at ``start``) checks an answer, typing ``name`` first (None: she types none,
    known by her hub login); the seconds from her login to her first widget."""
    # the hub starts her server, which opens at the lesson of the day, run for her
    page.wait_for_url(f"**/user/{user}/voila/render/{LESSON}", timeout=TIMEOUT)
    page.wait_for_selector(".rl-analyzer .rl-deadwood", timeout=TIMEOUT)
    waited = time.monotonic() - start
    assert page.input_value(".rl-name input") == user  # her hub login, already set
    page.click(".rl-analyzer .rl-card-QH")  # an 11th card: the analyzer says what to discard
    page.wait_for_function("document.querySelector('.rl-analyzer .rl-deadwood').innerText.includes('after discarding')",
                           timeout=30_000)
    if name is not None:  # a display name, sent along with her checks
        page.fill(".rl-name input", name)
        page.click(".rl-name-ok")
        page.wait_for_function(f"document.querySelector('.rl-name-note').innerText.includes('Hello, {name}')",
                               timeout=30_000)
    feedback = answer(page, "deck_size", "52", "Right")
    assert "saved later" not in feedback and "kept" not in feedback and "your name" not in feedback, feedback
    return waited


def test_a_class_on_jupyterhub(browser: Any, page: Any, hub: dict[str, Any]) -> None:
    url = hub["url"]
    # without login: the hub's login page, for a student's server and for the teacher page alike
    for path in (f"/user/student01/voila/render/{LESSON}", "/services/rummylab/"):
        where, text = landing(url + path)
        assert where.startswith(f"{url}/hub/login") and "password_input" in text, where
        assert "rl-" not in text

    other = browser.new_context()
    try:
        second = other.new_page()
        login(page, url, "student01")  # the two log in together: their servers start side by side
        start = time.monotonic()
        login(second, url, "student02")
        start2 = time.monotonic()
        waited = a_student_answers(page, "student01", None, start)  # no name typed: her hub login
        waited2 = a_student_answers(second, "student02", "Bea", start2)
        # a student cannot open another's server, nor the teacher page
        reply = second.goto(f"{url}/user/student01/voila/render/{LESSON}", timeout=TIMEOUT)
        assert reply.status == 403 and second.locator(".rl-analyzer").count() == 0
        reply = second.goto(f"{url}/services/rummylab/", timeout=TIMEOUT)
        assert reply.status == 403 and second.locator(".rl-teacher-page").count() == 0
        reply = page.goto(f"{url}/user/student02/voila/render/{LESSON}", timeout=TIMEOUT)  # a warm one neither
        assert reply.status == 403 and page.locator(".rl-analyzer").count() == 0
    finally:
        other.close()

    # the checks are in PostgreSQL under the hub users, with the display name one typed
    from rummylab.progress import Progress

    rows = Progress(hub["db"]).rows()
    assert sorted(zip(rows["hub_user"], rows["student"], rows["exercise"], rows["right"], strict=True)) == [
        ("student01", "student01", "deck_size", True), ("student02", "Bea", "deck_size", True)]

    # no secret in a student's kernel: the service's URL, her own token, nothing of the database
    psutil = hub["psutil"]
    kernels = [p for p in psutil.Process(hub["proc"].pid).children(recursive=True)
               if "ipykernel" in " ".join(p.cmdline())]
    assert kernels
    for kernel in kernels:
        env = kernel.environ()
        assert env["RUMMYLAB_DB"].startswith("rummylab+http://") and "postgresql" not in env["RUMMYLAB_DB"]
        values = " ".join(env.values())
        assert PASSWORD not in values and TEACHER_PASSWORD not in values and hub["db_password"] not in values

    # what a student costs: her server and her lesson kernel, as Voilà in a Jupyter server (student01)
    # and warm (student02: rummylab serve, its warm kernel's hub variables only hers) (README: Past one laptop)
    costs = []
    for user, mark in (("student01", "jupyterhub.singleuser"), ("student02", "--hub-server")):
        server = next(p for p in psutil.Process(hub["proc"].pid).children(recursive=True)
                      if mark in " ".join(p.cmdline()) and p.environ().get("JUPYTERHUB_USER") == user)
        mine = [p for p in server.children(recursive=True) if "ipykernel" in " ".join(p.cmdline())]
        assert mine, user
        if user == "student02":
            hubs = {k for p in mine for k in p.environ() if k.startswith("JUPYTERHUB_")}
            assert hubs == {"JUPYTERHUB_API_TOKEN", "JUPYTERHUB_USER"}, hubs
        whole = [server, *server.children(recursive=True)]
        cpu = sum(p.cpu_times().user + p.cpu_times().system for p in whole)
        kernel_mb = sum(p.memory_info().rss for p in mine) / 2**20
        costs.append(f"{server.memory_info().rss / 2**20:.0f} MB (server) + {kernel_mb:.0f} MB ({len(mine)} "
                     f"kernel(s)), {cpu:.1f} CPU-s")
    print(f"\nrummylab hub: a student costs {costs[0]} to her first check, {waited:.1f} s from login to her first "
          f"widget; warm (--warm 1): {costs[1]}, {waited2:.1f} s")

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
        assert "student01" in students and "Bea (student02)" in students
        assert "2 students tried, 2 solved" in tpage.inner_text(".rl-answers")
        tpage.click(".rl-lessons a[href='?lesson=00-start-here']")
        tpage.wait_for_selector(".rl-lessons a[aria-current=page][href='?lesson=00-start-here']", timeout=TIMEOUT)
        assert f"{url}/services/rummylab/?lesson=00-start-here" == tpage.url
        # a class at a time: the hub group class-7b (--class), read by the service from the hub's API
        tpage.click(".rl-classes a[href='?lesson=00-start-here&class=class-7b']")
        tpage.wait_for_selector(".rl-classes a[aria-current=page]", timeout=TIMEOUT)
        students = tpage.inner_text(".rl-students")
        assert "Bea (student02)" in students and "student01" not in students, students
    finally:
        teacher.close()
