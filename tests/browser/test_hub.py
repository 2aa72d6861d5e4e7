"""rummylab on a real JupyterHub (``rummylab hub``: configurable-http-proxy, a shared class password)
on 127.0.0.1, students as real system accounts (the local spawner; the test makes the accounts it
needs as root, else runs the simple spawner as this non-root user), progress in PostgreSQL (the
``pg_cluster`` fixture's, its password in PGPASSWORD only): two students in Chromium through the
proxy, known by their hub logins without typing a name (one types a display name), their checks
graded by the service, the teacher page for the teacher group only, and every probe a student's code
could try refused: JupyterLab, the kernels and contents API, ``execute_request`` on her lesson's
websocket, another's server and home, the hub's secrets in any process's command line or
environment or in the hub's files, a forged verdict, a forged name. It prints what a student costs
(her server and kernel) and how long she waits from logging in to her first widget (README: Past one
laptop)."""

from __future__ import annotations

import json
import os
import pwd
import re
import signal
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from rummylab.classroom.class_code import running_under
from rummylab.classroom.class_kernel import is_kernel
from rummylab.classroom.serve import free_port

from .conftest import _unavailable, _wait_http, answer, not_a_card

PASSWORD = "class-password-7"
TEACHER_PASSWORD = "the-teachers-own-password-of-32-characters"
TIMEOUT = 120_000
LESSON = "00-start-here.ipynb"
STUDENTS = ("student01", "student02")

WARM_FOR_STUDENT02 = """
# the test: student02's server runs her lesson ahead (--warm 1), student01's when she opens it (the default)
_copy_lessons = c.Spawner.pre_spawn_hook
def _warm_for_student02(spawner):
    _copy_lessons(spawner)
    if spawner.user.name == "student02":
        spawner.cmd = [a.replace("--students=0", "--students=1") for a in spawner.cmd]
c.Spawner.pre_spawn_hook = _warm_for_student02
"""


def as_student(name: str) -> dict[str, Any]:
    """``subprocess`` options that run a command as the account ``name`` alone (her user and group)."""
    return {"user": name, "group": pwd.getpwnam(name).pw_gid, "extra_groups": []}


@pytest.fixture(scope="module")
def accounts() -> Iterator[str]:
    """The spawner the test can run: ``local`` with system accounts student01/02 (made here, and
    removed after, when the test runs as root), else ``simple`` as this non-root user."""
    if os.getuid() != 0:
        yield "simple"
        return
    made: list[str] = []
    opened: list[tuple[Path, int]] = []
    try:
        for name in STUDENTS:  # the test's own accounts: a real student's home is never touched
            try:
                pwd.getpwnam(name)
            except KeyError:
                pass
            else:
                pytest.fail(f"the account {name} exists already: the hub test makes (and removes) its own")
        for path in {Path(os.path.realpath(sys.executable)), Path(sys.prefix), Path(os.path.realpath(sys.base_prefix))}:
            for folder in reversed(path.parents):  # pyenv's Python under /root (700): let the accounts pass through
                mode = folder.stat().st_mode
                if not mode & 0o001:
                    os.chmod(folder, mode | 0o001)  # through, never listed: the x bit alone, undone below
                    opened.append((folder, mode))
        for name in STUDENTS:
            subprocess.run(["useradd", "--create-home", "--shell", "/usr/sbin/nologin", name], check=True)
            made.append(name)
        probe = subprocess.run([sys.executable, "-c", "import rummylab.classroom.hub_login"], **as_student(STUDENTS[0]),
                               capture_output=True, text=True, cwd="/", check=False)
        if probe.returncode:  # the README says so: the Python install must be readable by the students
            pytest.fail(f"a student account cannot run {sys.executable} (every directory above it must be "
                        f"readable by other users): {probe.stderr.strip()[-300:]}")
        yield "local"
    finally:
        for name in made:
            subprocess.run(["pkill", "-KILL", "-u", name], check=False)
            subprocess.run(["userdel", "--remove", name], check=False, capture_output=True)
        for folder, mode in reversed(opened):
            os.chmod(folder, mode)


@pytest.fixture(scope="module")
def hub(lessons_copy: Path, tmp_path_factory: pytest.TempPathFactory, pg_cluster: Any,
        accounts: str) -> Iterator[dict[str, Any]]:
    """JupyterHub as ``rummylab hub`` runs it for the lessons (shared password, students student01/02,
    a new database on the test's PostgreSQL cluster with its password in PGPASSWORD, student02 in
    the class class-7b), student02's server warm (``WARM_FOR_STUDENT02``), stopped by its PID:
    {"url", "db", "proc", "state", …}."""
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
    address = re.sub(r"//([^:@/]+):[^@/]*@", r"//\1@", db)  # the address, its password in PGPASSWORD
    env = dict(os.environ, RUMMYLAB_HUB_PASSWORD=PASSWORD, RUMMYLAB_HUB_TEACHER_PASSWORD=TEACHER_PASSWORD,
               PGPASSWORD=pg_cluster.password)
    config = state / "jupyterhub_config.py"
    args = [sys.executable, "-m", "rummylab.cli", "hub", str(lessons_copy), "--students=2", f"--port={port}",
            f"--state-dir={state}", f"--spawner={accounts}", f"--db={address}", "--class=class-7b=student02"]
    written = subprocess.run([*args, f"--config-only={config}"], env=env, capture_output=True, text=True, check=False)
    assert written.returncode == 0, written.stderr
    with open(config, "a", encoding="utf-8") as edit:
        edit.write(WARM_FOR_STUDENT02)
    log = state / "hub.log"
    env.pop("PGPASSWORD")  # rummylab hub wrote it for the service alone (state/rummylab-service.pgpass)
    with open(log, "wb") as out:
        proc = subprocess.Popen([sys.executable, "-m", "jupyterhub", "-f", str(config)], env=env, stdout=out,
                                stderr=subprocess.STDOUT, cwd=state)
    try:
        _wait_http(f"http://127.0.0.1:{port}/hub/health", proc, log)
        words = dict(line.split(",") for line in (state / "student-passwords.csv").read_text().split()[1:])
        yield {"url": f"http://127.0.0.1:{port}", "db": db, "proc": proc, "log": log, "psutil": psutil,
               "db_password": pg_cluster.password, "state": state, "accounts": accounts, "passwords": words}
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


def login(page: Any, url: str, user: str, password: str) -> None:
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
    odd, _ = not_a_card(page)
    ANSWERED[user] = odd
    feedback = answer(page, "not_a_card", odd, "Right")
    assert "saved later" not in feedback and "kept" not in feedback and "your name" not in feedback, feedback
    return waited


ANSWERED: dict[str, str] = {}
"""What each student answered to lesson 00's first exercise (her own variant)."""


SCAN = r"""
import json, os, sys
secrets = json.loads(sys.stdin.read())
found, unreadable = [], []
for pid in filter(str.isdigit, os.listdir("/proc")):
    for part in ("cmdline", "environ"):
        try:
            with open(f"/proc/{pid}/{part}", "rb") as f:
                text = f.read().decode("utf-8", "replace")
        except OSError:
            continue
        found += [f"{name} in /proc/{pid}/{part}" for name, value in secrets["values"].items() if value in text]
for path in secrets["files"]:
    try:
        open(path, "rb").read(1)
        found.append(f"read {path}")
    except OSError:
        pass
for home in secrets["homes"]:
    try:
        os.listdir(home)
        found.append(f"listed {home}")
    except OSError:
        pass
print(json.dumps(found))
"""
"""Run as a student: every secret found in any process's command line or environment she can read,
every hub file she can read, every other home she can list."""


def probe_websocket(page: Any) -> Any:
    """From her lesson page, on her kernel's own websocket (her login): a kernel_info_request (answered:
    the socket works) and an execute_request that would write a file (refused: never run)."""
    return page.evaluate("""async (marker) => {
      const config = JSON.parse(document.getElementById("jupyter-config-data").textContent);
      const scheme = location.protocol === "https:" ? "wss:" : "ws:";
      const ws = new WebSocket(`${scheme}//${location.host}${config.baseUrl}api/kernels/${config.kernelId}/channels`);
      const replies = [];
      ws.onmessage = (e) => { try { replies.push(JSON.parse(e.data).msg_type); } catch (err) {} };
      await new Promise((ok, fail) => { ws.onopen = ok; ws.onerror = fail; });
      const msg = (type, content) => JSON.stringify({header: {msg_id: crypto.randomUUID(), msg_type: type,
        session: "probe", username: "", version: "5.3", date: new Date().toISOString()}, parent_header: {},
        metadata: {}, content, channel: "shell", buffers: []});
      ws.send(msg("execute_request", {code: `open(${JSON.stringify(marker)}, "w").write("ran")`, silent: false,
        store_history: false, user_expressions: {}, allow_stdin: false, stop_on_error: true}));
      ws.send(msg("kernel_info_request", {}));
      await new Promise((ok) => setTimeout(ok, 4000));
      ws.close();
      return replies;
    }""", f"/tmp/rummylab-probe-{os.getpid()}")


def test_a_class_on_jupyterhub(browser: Any, page: Any, hub: dict[str, Any]) -> None:
    url, psutil, state = hub["url"], hub["psutil"], hub["state"]
    # without login: the hub's login page, for a student's server and for the teacher page alike
    for path in (f"/user/student01/voila/render/{LESSON}", "/services/rummylab/"):
        where, text = landing(url + path)
        assert where.startswith(f"{url}/hub/login") and "password_input" in text, where
        assert "rl-" not in text

    words = hub["passwords"]  # each student's own, made up by rummylab hub for the teacher to hand out
    other = browser.new_context()
    try:
        second = other.new_page()
        login(second, url, "student02", words["student01"])  # a classmate's password opens nothing of hers
        second.wait_for_selector("#username_input", timeout=TIMEOUT)
        assert "/hub/login" in second.url
        login(second, url, "student02", PASSWORD)  # nor does a class password
        second.wait_for_selector("#username_input", timeout=TIMEOUT)
        assert "/hub/login" in second.url
        login(page, url, "student01", words["student01"])  # the two log in together: servers start side by side
        start = time.monotonic()
        login(second, url, "student02", words["student02"])
        start2 = time.monotonic()
        waited = a_student_answers(page, "student01", None, start)  # no name typed: her hub login
        waited2 = a_student_answers(second, "student02", "Bea", start2)
        # her lesson index: the lessons by title, with what she solved (the service's answer for her token)
        page.goto(f"{url}/user/student01/voila/tree", timeout=TIMEOUT)
        page.wait_for_selector(f".rl-lessons a[href$='{LESSON}'] .rl-some", timeout=TIMEOUT)
        assert "Hello, student01" in page.inner_text("main") and page.locator("#rl-name").count() == 0
        # a student cannot open another's server, nor the teacher page
        reply = second.goto(f"{url}/user/student01/voila/render/{LESSON}", timeout=TIMEOUT)
        assert reply.status == 403 and second.locator(".rl-analyzer").count() == 0
        reply = second.goto(f"{url}/services/rummylab/", timeout=TIMEOUT)
        assert reply.status == 403 and second.locator(".rl-teacher-page").count() == 0
        reply = page.goto(f"{url}/user/student02/voila/render/{LESSON}", timeout=TIMEOUT)
        assert reply.status == 403 and page.locator(".rl-analyzer").count() == 0
        # her own server is the app only: no JupyterLab, console, terminal, contents or kernels API
        for path in ("lab", "tree", "lab/api/news", "terminals/websocket/1", "api/contents", "api/kernels",
                     "api/sessions", "api/terminals", "files/.bashrc"):
            status = page.request.get(f"{url}/user/student01/{path}").status
            assert status in (403, 404, 405), (path, status)
        assert page.request.post(f"{url}/user/student01/api/kernels", data="{}").status in (403, 404, 405)
        # and her lesson's kernel takes no execute_request on its websocket (her login, her own kernel)
        page.goto(f"{url}/user/student01/voila/render/{LESSON}", timeout=TIMEOUT)
        page.wait_for_selector(".rl-analyzer .rl-deadwood", timeout=TIMEOUT)
        replies = probe_websocket(page)
        marker = Path(f"/tmp/rummylab-probe-{os.getpid()}")
        ran = marker.exists()
        marker.unlink(missing_ok=True)
        assert "kernel_info_reply" in replies and "execute_reply" not in replies and not ran, replies
    finally:
        other.close()

    # what her code could reach, run as her (a real account): no secret in any process she can read,
    # no file of the hub's, no other student's home
    kernels = running_under(hub["proc"].pid, is_kernel)
    assert kernels
    mine = next(k for k in kernels if k.environ().get("JUPYTERHUB_USER") == "student01")
    token = mine.environ()["JUPYTERHUB_API_TOKEN"]  # what her code reads in her kernel
    service, = running_under(hub["proc"].pid, lambda cmd: "rummylab.classroom.hub_service" in cmd)
    hub_process = psutil.Process(hub["proc"].pid)
    secrets = {"database password": hub["db_password"], "teacher password": TEACHER_PASSWORD,
               "cookie secret": (state / "jupyterhub_cookie_secret").read_text().strip(),
               "service token": service.environ()["JUPYTERHUB_API_TOKEN"],
               "proxy token": hub_process.environ().get("CONFIGPROXY_AUTH_TOKEN") or
               next(p.environ()["CONFIGPROXY_AUTH_TOKEN"] for p in running_under(hub_process.pid, lambda cmd: True)
                    if "CONFIGPROXY_AUTH_TOKEN" in p.environ())}
    assert hub["db_password"] not in " ".join(service.cmdline())
    for kernel in kernels:  # hers, and the service's own (it reads the lessons' exercises: no store, no secret)
        env = kernel.environ()
        if "JUPYTERHUB_USER" in env:
            assert env["RUMMYLAB_DB"].startswith("rummylab+http://") and "postgresql" not in env["RUMMYLAB_DB"]
        else:
            assert "RUMMYLAB_DB" not in env and "PGPASSFILE" not in env
        assert not {k for k in env if k.startswith("JUPYTERHUB_")} - {"JUPYTERHUB_API_TOKEN", "JUPYTERHUB_USER"}
        assert not any(value in " ".join(env.values()) for value in secrets.values())
    if hub["accounts"] == "local":
        files = [str(f) for f in state.iterdir() if f.is_file()]
        assert any(f.endswith("rummylab-service.pgpass") for f in files) and any("cookie_secret" in f for f in files)
        scan = subprocess.run([sys.executable, "-c", SCAN], **as_student("student01"), cwd="/", capture_output=True,
                              text=True,
                              input=json.dumps({"values": secrets, "files": files, "homes": ["/home/student02"]}),
                              check=True)
        assert json.loads(scan.stdout) == [], scan.stdout
        assert oct(os.stat("/home/student01").st_mode & 0o777) == "0o700"

    # the service grades: a verdict the kernel claims and a name it types are not taken
    def post(*checks: dict[str, Any]) -> dict[str, Any]:
        request = urllib.request.Request(f"{url}/services/rummylab/api/checks", method="POST",
                                         data=json.dumps({"checks": list(checks)}).encode(),
                                         headers={"Authorization": f"token {token}"})
        with urllib.request.urlopen(request, timeout=30) as r:
            return dict(json.loads(r.read()))

    from rummylab.lessons.variants import variant_number

    hers = variant_number("00-start-here", "not_a_card", "student01", 0)  # the variant she answered
    forged = {"lesson": "00-start-here", "exercise": "not_a_card", "answer": "999", "correct": 1, "variant": hers}
    assert post({**forged, "check_id": "forged-verdict"},
                {**forged, "check_id": "forged-name", "student": "student02", "answer": ANSWERED["student01"]}
                )["written"]

    # the checks are in PostgreSQL under the hub users, graded by the service, with the display name one typed
    from rummylab.progress import Progress, report_table

    rows = Progress(hub["db"]).rows()
    assert sorted(zip(rows["hub_user"], rows["student"], rows["exercise"], rows["answer"], rows["right"],
                      strict=True)) == sorted([
        ("student01", "student01", "not_a_card", "999", False),
        ("student01", "student01", "not_a_card", ANSWERED["student01"].lower(), True),
        ("student01", "student02", "not_a_card", ANSWERED["student01"], True),  # kept as sent
        ("student02", "Bea", "not_a_card", ANSWERED["student02"].lower(), True)])
    table = report_table(rows)
    assert sorted(zip(table["student"], table["attempts"], strict=True)) == [
        ("Bea (student02)", 1), ("student02 (student01)", 3)]  # the forged name counts for student01

    # what a student costs: her server (Voilà's own app) and her lesson kernel, the one she holds
    # (student02's was run ahead, and is not replaced while she has it) (README: Past one laptop)
    costs = []
    for user in STUDENTS:
        server = next(p for p in running_under(hub["proc"].pid, lambda cmd: "rummylab.classroom.hub_login" in cmd)
                      if p.environ().get("JUPYTERHUB_USER") == user)
        held = running_under(server.pid, is_kernel)
        assert len(held) <= 2, (user, len(held))  # hers, and the first page's, shut a minute after it closed
        whole = [server, *running_under(server.pid, lambda cmd: True)]
        cpu = sum(p.cpu_times().user + p.cpu_times().system for p in whole)
        server_mb = server.memory_info().rss / 2**20
        kernel_mb = max(p.memory_info().rss for p in held) / 2**20
        costs.append(f"{server_mb:.0f} MB (server) + {kernel_mb:.0f} MB (kernel) = {server_mb + kernel_mb:.0f} MB, "
                     f"{cpu:.1f} CPU-s")
        assert server_mb + kernel_mb <= 250, costs[-1]  # issue 39: a student, all in, within 250 MB
    print(f"\nrummylab hub: a student costs {costs[0]} to her first check, {waited:.1f} s from login to her first "
          f"widget; warm (--warm 1): {costs[1]}, {waited2:.1f} s")

    # the teacher page through the proxy, for the teacher group, across the hub, a lesson at a time
    teacher = browser.new_context()
    try:
        tpage = teacher.new_page()
        login(tpage, url, "teacher", PASSWORD)  # the class password does not open the teacher's account
        tpage.wait_for_selector("#username_input", timeout=TIMEOUT)
        assert "/hub/login" in tpage.url
        login(tpage, url, "teacher", TEACHER_PASSWORD)
        tpage.wait_for_load_state()
        tpage.goto(f"{url}/services/rummylab/", timeout=TIMEOUT)
        tpage.wait_for_selector(".rl-teacher-page table", timeout=TIMEOUT)
        students = tpage.inner_text(".rl-students")
        assert "student02 (student01)" in students and "Bea (student02)" in students
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
