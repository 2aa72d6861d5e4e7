"""rummylab hub without a hub: the config it writes, what a student's server gets (no secret), the
kernel's client of the service (a student known by her hub login, her checks kept on her disk while
the service is down and each written once when it is back), and bad input named."""

from __future__ import annotations

import asyncio
import concurrent.futures
import json
import os
import stat
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

try:
    import jupyterhub  # noqa: F401
except ImportError:  # make test installs it: under CI its absence fails the run
    if os.environ.get("CI"):
        raise
    pytest.skip("JupyterHub is not installed: pip install 'rummylab[hub]'", allow_module_level=True)

from rummylab import lessons  # noqa: E402
from rummylab.classroom import hub  # noqa: E402
from rummylab.classroom.hub_service import Grader  # noqa: E402
from rummylab.classroom.serve import free_port, lessons_dir  # noqa: E402
from rummylab.cli import main  # noqa: E402
from rummylab.lessons import exercises  # noqa: E402
from rummylab.lessons.key import KeyEntry  # noqa: E402
from rummylab.progress import Progress, queue  # noqa: E402
from rummylab.progress.hub_client import ServiceProgress, is_service_url, open_store  # noqa: E402

pytestmark = pytest.mark.once  # no kernel of its own (the hub's config, service and client): the compiled run has it

TOKENS = {"token-of-ada": "student01", "token-of-bea": "student02"}


def _run(coroutine: Any) -> Any:
    """``asyncio.run`` in a thread of its own: a test process may already run an event loop."""
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coroutine).result()


def _entry(lesson: str, name: str, answer: str, kind: str) -> KeyEntry:
    return KeyEntry(name, lesson, "", answer, kind, "", "", {})


def test_what_is_shown_reads_back_as_the_same_answer() -> None:
    """The service grades the answer as the kernel shows it: a number shows in full where a short
    form would round it, so the server's verdict is the kernel's."""
    from rummylab.lessons.grading import read_shown
    from rummylab.lessons.kinds import NUMBER

    for value in (0.25, 0.2500001, 1 / 3, 52, 1e-9, 123456789.5):
        assert read_shown(NUMBER, NUMBER.show(NUMBER.read(value))) == NUMBER.read(value)
    assert NUMBER.show(0.25) == "0.25" and NUMBER.show(52) == "52"
    quarter = Grader.of([_entry("00-start-here", "quarter", "0.25", "number")])
    assert quarter.grade("00-start-here", "quarter", NUMBER.show(0.2500001), True) is False


GRADER = Grader.of([_entry("00-start-here", "deck_size", "52", "number"),
                    _entry("00-start-here", "pairs", "6", "number"),
                    _entry("07-three-thirteen", "wild", "10 or t", "one of"),
                    _entry("04-gin", "undercut", "defender, 28", "(text, number)")])
"""The service's grader of the tests: the exercises as the teacher's key gives them (no lesson run)."""


def test_config_only_writes_a_private_config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv(hub.PASSWORD_ENV, "a-class-password")
    monkeypatch.setenv(hub.TEACHER_PASSWORD_ENV, "t" * 32)
    path = tmp_path / "jupyterhub_config.py"
    assert main(["hub", str(lessons_dir()), "--config-only", str(path), "--lesson", "02", "--students", "3",
                 f"--state-dir={tmp_path / 'state'}", "--db=postgresql://u@db.example/class"]) == 0
    out = capsys.readouterr().out
    assert "each student's password: " in out and "student-passwords.csv (hand them out)" in out
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    text = path.read_text()
    assert "from rummylab.classroom.hub import configure" in text and 'lesson="02-melds-and-deadwood.ipynb"' in text


def test_a_student_server_is_the_app_and_holds_no_secret(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """By default a student's server is the lessons as the app only (Voilà's own app: no Lab, no
    kernels API, no execute); ``--lab`` opts into JupyterLab. The database's password reaches the
    service alone, in a file of mode 600; a student's server gets the service's URL only."""
    from traitlets.config import Config

    monkeypatch.setenv("PGPASSWORD", "pg-secret:7")
    c = Config()
    hub.configure(c, lessons=str(lessons_dir()), lesson="00", db="postgresql://u@db/class",
                  password="a-class-password", teacher_password="t" * 32, students=2, state_dir=str(tmp_path),
                  spawner="local", hashes={"student01": "h1", "student02": "h2"})
    env = c.Spawner.environment
    assert env["RUMMYLAB_DB"].startswith("rummylab+http://127.0.0.1:8000/services/rummylab/")
    assert c.Spawner.cmd[1:] == ["-m", "rummylab.cli", "serve", ".", "--hub-server", "--students=0",
                                 "--lesson=00-start-here.ipynb"] and c.Spawner.args == []
    assert c.Spawner.default_url == "/voila/render/00-start-here.ipynb"
    service = c.JupyterHub.services[0]
    assert service["environment"]["RUMMYLAB_DB"] == "postgresql://u@db/class"
    assert service["environment"]["RUMMYLAB_LESSONS"] == str(lessons_dir())
    pgpass = Path(service["environment"]["PGPASSFILE"])
    assert stat.S_IMODE(pgpass.stat().st_mode) == 0o600 and pgpass.read_text() == "*:*:*:*:pg-secret\\:7\n"
    config = repr(c)
    assert "pg-secret" not in config and "pg-secret" not in repr(service["command"])
    assert c.Authenticator.allowed_users == {"student01", "student02", "teacher"}
    assert c.Authenticator.admin_users == {"teacher"}  # her own password, not the class's
    template = Path(env["JUPYTER_PATH"]) / "voila" / "templates" / "rummylab" / "index.html.j2"
    assert "rl-lesson-page" in template.read_text()  # shipped in the package, read where installed

    lab = Config()
    hub.configure(lab, lessons=str(lessons_dir()), lesson="00", db=f"sqlite:///{tmp_path / 'p.sqlite'}",
                  password="a-class-password", teacher_password="t" * 32, state_dir=str(tmp_path), lab=True)
    assert lab.Spawner.cmd[1:] == ["-m", "jupyterhub.singleuser"]
    assert "--ServerApp.terminals_enabled=False" in lab.Spawner.args and "--LabApp.news_url=None" in lab.Spawner.args
    assert "PGPASSFILE" not in lab.JupyterHub.services[0]["environment"]  # SQLite has no password


def test_a_hub_class_in_a_language(tmp_path: Path) -> None:
    """``rummylab hub --lang hi``: each student's server starts the lessons in Hindi (built beside the
    English ones, each student may choose another on the first page), her kernels and the teacher
    page speak it; a language there is no catalog for is refused by name."""
    from traitlets.config import Config

    c = Config()
    hub.configure(c, lessons=str(lessons_dir()), lesson="08", db=f"sqlite:///{tmp_path / 'p.sqlite'}",
                  password="a-class-password", teacher_password="t" * 32, state_dir=str(tmp_path), lang="hi")
    assert c.Spawner.cmd[-2:] == ["--lesson=08-pure-sequence.ipynb", "--lang=hi"]
    assert c.Spawner.default_url == "/voila/render/hi/08-pure-sequence.ipynb"
    assert c.Spawner.environment["RUMMYLAB_LANG"] == "hi"
    assert c.JupyterHub.services[0]["environment"]["RUMMYLAB_LANG"] == "hi"
    with pytest.raises(ValueError, match="'xx'"):
        hub.configure(Config(), lessons=str(lessons_dir()), lesson="08", db=f"sqlite:///{tmp_path / 'p.sqlite'}",
                      password="a-class-password", teacher_password="t" * 32, state_dir=str(tmp_path), lang="xx")


def test_a_hub_refuses_what_would_leak(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    """A password in ``--db`` (every account reads a command line), and the simple spawner as root
    (every student's code as root), are refused in one line saying what to do."""
    config = str(tmp_path / "c.py")
    for address in ("postgresql://u:pw-secret@db/class", "postgresql://u@db/class?sslmode=require&password=pw-secret"):
        assert main(["hub", "--config-only", config, f"--db={address}"]) == 2
        err = capsys.readouterr().err
        assert "no password in the address" in err and "PGPASSWORD or ~/.pgpass" in err and "pw-secret" not in err
    monkeypatch.setattr(os, "getuid", lambda: 0)
    assert main(["hub", "--config-only", config, "--spawner=simple"]) == 2
    assert "--spawner simple" in capsys.readouterr().err and not Path(config).exists()
    with pytest.raises(ValueError, match="--warm is for the app"):
        hub.hub_options(str(lessons_dir()), "00", 2, None, "teachers", "127.0.0.1", 8000, str(tmp_path), "local",
                        warm=1, lab=True)


def test_the_kernels_client_of_the_service() -> None:
    assert is_service_url("rummylab+http://127.0.0.1:8000/services/rummylab/") and not is_service_url("x.sqlite")
    store = open_store("rummylab+https://hub.school/services/rummylab")
    assert isinstance(store, ServiceProgress) and store.url == "https://hub.school/services/rummylab/"
    with pytest.raises(ValueError, match="no JupyterHub token"):
        ServiceProgress("http://127.0.0.1:9/services/rummylab/", token="").record("a", "00", "x", True)
    with pytest.raises(ValueError, match="name"):
        ServiceProgress("http://127.0.0.1:9/", token="t").record("", "00", "x", True)  # said before it is sent


@pytest.mark.parametrize("args, message", [
    (["--students", "-1"], "--students -1"), (["--teacher-group", "a b"], "--teacher-group"),
    (["--lesson", "99"], "--lesson '99'"), (["--db", "mysql://x/y"], "unknown database scheme")])
def test_bad_hub_options_are_named(args: list[str], message: str, tmp_path: Path,
                                   capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["hub", "--config-only", str(tmp_path / "c.py"), *args]) == 2
    assert message in capsys.readouterr().err


class FakeHub:
    """What the service asks the hub: whose token this is (``TOKENS``)."""

    login_url = "/hub/login"

    async def user_for_token(self, token: str, sync: bool = False) -> dict[str, str] | None:
        return {"name": TOKENS[token], "kind": "user"} if token in TOKENS else None


class Service:
    """The rummylab hub service (``hub_service.make_app``, the hub faked) on ``port`` in a thread;
    ``start()`` and ``stop()`` it as often as a test likes."""

    def __init__(self, db: str, port: int, hub: Any = None) -> None:
        self.db, self.port, self.hub = db, port, hub
        self.url = f"http://127.0.0.1:{port}/services/rummylab/"
        self.loop: asyncio.AbstractEventLoop | None = None

    def start(self) -> None:
        from rummylab.classroom.hub_service import make_app

        app = make_app(self.db, "/services/rummylab/", "http://class/", grader=GRADER,
                       hub_auth=self.hub or FakeHub())
        ready = threading.Event()
        loop = self.loop = asyncio.new_event_loop()

        def run() -> None:
            asyncio.set_event_loop(loop)
            self.server = app.listen(self.port, address="127.0.0.1")
            ready.set()
            loop.run_forever()

        self.thread = threading.Thread(target=run, daemon=True)
        self.thread.start()
        assert ready.wait(10)

    def stop(self) -> None:
        assert self.loop is not None

        async def close() -> None:
            self.server.stop()
            await self.server.close_all_connections()

        asyncio.run_coroutine_threadsafe(close(), self.loop).result(10)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(10)
        self.loop.close()
        self.loop = None


@pytest.fixture
def service(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Service]:
    """The service on a free port (not started), its database in ``tmp_path``; each test's own spool."""
    monkeypatch.setenv("RUMMYLAB_SPOOL", str(tmp_path / "spool"))
    running = Service(f"sqlite:///{tmp_path / 'progress.sqlite'}", free_port())
    yield running
    queue.close_all(timeout=5)
    if running.loop is not None:
        running.stop()


def test_checks_wait_on_disk_while_the_service_is_down(service: Service) -> None:
    ada = ServiceProgress(service.url, token="token-of-ada", user="student01")
    service.start()
    assert ada.record("Ada", "00-start-here", "deck_size", True, "52") is True
    service.stop()  # mid-lesson: the service is gone
    assert ada.record("student01", "00-start-here", "pairs", False, "3") is False  # kept, not lost
    assert ada.record("student01", "00-start-here", "melds", None, "a run") is False
    assert ada.waiting() == 2  # in the spool on her disk, for a kernel that dies meanwhile
    sent = sorted((Path(queue.spool_root()) / ada.sink.key).glob("*.jsonl"))
    again = [f.read_text() for f in sent]  # the same checks, to send once more later
    service.start()
    assert ada.record("student01", "00-start-here", "deck_size", False, "54") is True  # and the spool with it
    assert ada.waiting() == 0
    queue.Spool(ada.sink).put([row for text in again for row in map(json.loads, text.splitlines())])
    bea = ServiceProgress(service.url, token="token-of-bea", user="student02")
    assert bea.record("student01", "00-start-here", "deck_size", True, "52") is True  # a name she typed, only shown
    assert ada.record("student01", "00-start-here", "pairs", True, "6") is True  # uploads the spool again
    rows = Progress(service.db).rows()
    assert sorted(zip(rows["hub_user"], rows["student"], rows["exercise"], rows["answer"], strict=True)) == [
        ("student01", "Ada", "deck_size", "52"), ("student01", "student01", "deck_size", "54"),
        ("student01", "student01", "melds", "a run"), ("student01", "student01", "pairs", "3"),
        ("student01", "student01", "pairs", "6"), ("student02", "student01", "deck_size", "52")]  # each once
    from rummylab.classroom.teacher import teacher_page

    page = teacher_page(service.db, "", "http://class/")
    students = gradebook_table(page)
    assert "<th scope='row'>student01 (student02)</th>" in students  # a typed name never hides who answered
    assert students.count("<th scope='row'>student01</th>") == 1  # one row a hub user, whatever name she typed
    mine = students[students.index("<th scope='row'>student01</th>"):]
    assert mine.startswith("<th scope='row'>student01</th><td class='rl-solved' "
                           "title='solved, 2 checks; last answer: 54'>\u2714 2</td>")  # Ada's check too


def gradebook_table(page: str) -> str:
    """The teacher page's gradebook table (a row a student), from ``<table`` to ``</table>``."""
    start = page.index("<table class='rl-students rl-gradebook'>")
    return page[start:page.index("</table>", start)]


def _post(service: Service, token: str, *checks: dict[str, Any]) -> dict[str, Any]:
    import urllib.request

    request = urllib.request.Request(service.url + "api/checks", method="POST",
                                     data=json.dumps({"checks": list(checks)}).encode(),
                                     headers={"Authorization": f"token {token}"})
    with urllib.request.urlopen(request, timeout=10) as reply:
        return dict(json.loads(reply.read()))


def test_the_service_grades_not_the_kernel(service: Service) -> None:
    """What a kernel says of an answer is not a grade: the service reads what she typed against the
    key; a student field is a display name only, and every report counts rows by hub user."""
    from rummylab.progress import report_table

    service.start()
    check = {"lesson": "00-start-here", "exercise": "deck_size", "at": None}
    answer = _post(service, "token-of-ada",
                   {**check, "check_id": "a1", "student": "Ada", "answer": "999", "correct": 1},  # a forged verdict
                   {**check, "check_id": "a2", "student": "Ada", "answer": "52", "correct": 0},
                   {**check, "check_id": "a3", "student": "student02", "answer": "52", "correct": 1},  # a forged name
                   {**check, "check_id": "a4", "exercise": "free", "answer": "I think so", "correct": None},
                   {**check, "check_id": "a5", "exercise": "made_up", "answer": "1", "correct": 1},
                   {"lesson": "07-three-thirteen", "exercise": "wild", "check_id": "a6", "answer": "T", "correct": 0},
                   {"lesson": "04-gin", "exercise": "undercut", "check_id": "a7", "answer": "Defender, 28.0",
                    "correct": 0})
    assert answer["written"] is True
    assert [r["check_id"] for r in answer["refused"]] == ["a5"]
    assert "no exercise 'made_up'" in answer["refused"][0]["error"]
    rows = Progress(service.db).rows()
    assert sorted(zip(rows["hub_user"], rows["student"], rows["exercise"], rows["answer"], rows["right"],
                      strict=True)) == [
        ("student01", "Ada", "deck_size", "52", True), ("student01", "Ada", "deck_size", "999", False),
        ("student01", "student01", "free", "I think so", None),
        ("student01", "student01", "undercut", "Defender, 28.0", True),
        ("student01", "student01", "wild", "T", True), ("student01", "student02", "deck_size", "52", True)]
    table = report_table(rows)
    deck = table.filter(table["exercise"] == "deck_size")
    assert deck.height == 1 and deck["attempts"][0] == 3 and deck["solved"][0]  # one student, three checks
    assert set(table["student"]) == {"student01"}  # one name a person, the latest (no name typed: her login)


def test_a_student_reads_her_own_progress_from_the_service(service: Service) -> None:
    """``api/solved``: what her token's hub user solved, lesson by lesson (a right answer under
    any name she typed counts; another student's never shows); a stranger's token gets nothing."""
    import urllib.error
    import urllib.request

    from rummylab.classroom.lesson_index import student_progress
    from rummylab.progress.hub_client import solved_on_hub

    service.start()
    check = {"lesson": "00-start-here", "exercise": "deck_size", "at": None}
    _post(service, "token-of-ada", {**check, "check_id": "a1", "student": "Ada", "answer": "53", "correct": 1},
          {**check, "check_id": "a2", "student": "student01", "answer": "52", "correct": 0},
          {"lesson": "07-three-thirteen", "exercise": "wild", "check_id": "a3", "answer": "9", "correct": 1},
          {**check, "exercise": "free", "check_id": "a4", "answer": "yes", "correct": None})
    _post(service, "token-of-bea", {**check, "check_id": "b1", "student": "Ada", "answer": "999", "correct": 1})
    assert solved_on_hub(service.url, "token-of-ada") == {"00-start-here": {"deck_size": True},
                                                          "07-three-thirteen": {"wild": False}}
    assert student_progress("rummylab+" + service.url, hub_token="token-of-bea") == {
        "00-start-here": {"deck_size": False}}  # a typed name "Ada" is not Ada's progress
    from rummylab.progress.hub_client import skills_on_hub

    assert skills_on_hub(service.url, "token-of-ada") == {}  # the test key names no skill
    with pytest.raises(ValueError, match="cannot say your progress"):
        solved_on_hub(service.url, "not-a-hub-token")
    with pytest.raises(urllib.error.HTTPError):  # the checks' endpoint takes no GET
        urllib.request.urlopen(service.url + "api/checks", timeout=10)


def test_a_refused_token_keeps_the_check(service: Service) -> None:
    service.start()
    stranger = ServiceProgress(service.url, token="not-a-hub-token", user="student09")
    with pytest.raises(ValueError, match="refused the checks .403"):
        stranger.record("Eve", "00-start-here", "deck_size", True, "52")
    assert stranger.waiting() == 1 and Progress(service.db).rows().height == 0


def test_a_student_on_a_hub_is_known_by_her_login(service: Service, monkeypatch: pytest.MonkeyPatch) -> None:
    service.start()
    monkeypatch.setenv("RUMMYLAB_DB", "rummylab+" + service.url)
    monkeypatch.setenv("JUPYTERHUB_API_TOKEN", "token-of-bea")
    monkeypatch.setenv("JUPYTERHUB_USER", "student02")
    monkeypatch.setenv("RUMMYLAB_LESSON", "00-start-here")
    monkeypatch.setattr(exercises, "_STUDENT", None)
    exercises.reset()
    exercises.PENDING.clear()
    try:
        lessons.exercise("deck_size", "How many cards in a deck?", answer=52)
        box = lessons.name_box()
        (text, _), note = box.children[0].children, box.children[1]
        assert text.value == "student02" and "Hello, student02" in note.value
        assert str(lessons.check("deck_size", 52)) == "✔ Right. 52 is right."  # no name typed, nothing to say
        text.value = "Bea"  # a display name, sent along
        assert "Hello, Bea" in note.value
        lessons.check("deck_size", 53)
    finally:
        exercises.reset()
        exercises.PENDING.clear()
    rows = Progress(service.db).rows()
    assert list(zip(rows["hub_user"], rows["student"], rows["right"], strict=True)) == [
        ("student02", "student02", True), ("student02", "Bea", False)]


def test_serve_options_behind_a_hub_or_a_proxy(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from rummylab.classroom.serve import check_base_url, progress_db, voila_command

    monkeypatch.setenv("JUPYTERHUB_API_TOKEN", "the-teachers-token")
    monkeypatch.setenv("RUMMYLAB_DB", "postgresql://u:pw@db.school/class")
    cmd, env = voila_command(lessons_dir(), 9000, base_url="user/ada/proxy/8866")
    assert "--Voila.base_url=/user/ada/proxy/8866/" in cmd and "--Voila.server_url=/user/ada/proxy/8866/" in cmd
    assert env["RUMMYLAB_DB"] == "postgresql://u:pw@db.school/class"  # RUMMYLAB_DB, with no --db
    assert not any(k.startswith("JUPYTERHUB_") for k in env)  # no teacher's token in a student's kernel
    assert progress_db(lessons_dir(), tmp_path / "p.sqlite") == (tmp_path / "p.sqlite").resolve()  # --db wins
    with pytest.raises(ValueError, match="--base-url"):
        check_base_url("/a b/")


def test_serve_as_a_hub_service_needs_the_hubs_login(tmp_path: Path) -> None:
    """``rummylab serve`` started as JupyterHub would start a service: it listens on the hub's port
    under its prefix, each page redirects to the hub's OAuth, and its kernels hold no hub variable."""
    import subprocess
    import sys
    import time
    import urllib.error
    import urllib.request

    from rummylab.classroom.class_code import kernel_processes

    port, prefix = free_port(), "/services/rummylab-class/"
    db = f"sqlite:///{tmp_path / 'progress.sqlite'}"
    env = dict(os.environ, JUPYTERHUB_SERVICE_NAME="rummylab-class", JUPYTERHUB_API_TOKEN="the-services-token",
               JUPYTERHUB_SERVICE_URL=f"http://127.0.0.1:{port}", JUPYTERHUB_SERVICE_PREFIX=prefix,
               JUPYTERHUB_API_URL="http://127.0.0.1:9/hub/api", JUPYTERHUB_BASE_URL="/",
               JUPYTERHUB_CLIENT_ID="service-rummylab-class", JUPYTERHUB_OAUTH_CALLBACK_URL=prefix + "oauth_callback",
               RUMMYLAB_DB=db, RUMMYLAB_N="2000")
    log = tmp_path / "serve.log"
    lesson = tmp_path / "lessons"
    lesson.mkdir()
    (lesson / "00-start-here.ipynb").write_bytes((lessons_dir() / "00-start-here.ipynb").read_bytes())
    with open(log, "wb") as out:
        proc = subprocess.Popen([sys.executable, "-m", "rummylab.cli", "serve", str(lesson), "--students=1",
                                 f"--teacher-port={free_port()}"], env=env, stdout=out, stderr=subprocess.STDOUT)

    class Stay(urllib.request.HTTPRedirectHandler):
        def redirect_request(self, *args: object, **kwargs: object) -> None:
            return None  # the redirect itself is the answer

    opener = urllib.request.build_opener(Stay)
    try:
        where = None
        for _ in range(300):
            assert proc.poll() is None, log.read_text()[-3000:]
            try:
                opener.open(f"http://127.0.0.1:{port}{prefix}voila/render/00-start-here.ipynb", timeout=5)
            except urllib.error.HTTPError as exc:
                where = exc.headers.get("Location") if exc.code == 302 else None
                break
            except OSError:
                time.sleep(0.2)
        assert where and where.startswith("/hub/api/oauth2/authorize?"), (where, log.read_text()[-3000:])
        assert "client_id=service-rummylab-class" in where and "state=" in where
        with pytest.raises(urllib.error.HTTPError) as outside:  # nothing served outside the prefix
            opener.open(f"http://127.0.0.1:{port}/voila/render/00-start-here.ipynb", timeout=5)
        assert outside.value.code == 404
        kernels: list[Any] = []
        for _ in range(300):  # the warm kernel of the lesson of the day
            kernels = kernel_processes(proc.pid)
            if kernels:
                break
            time.sleep(0.2)
        assert kernels, log.read_text()[-3000:]
        kernel_env = kernels[0].environ()
        assert not [k for k in kernel_env if k.startswith("JUPYTERHUB_")]
        assert kernel_env["RUMMYLAB_DB"] == str((tmp_path / "progress.sqlite").resolve())  # RUMMYLAB_DB, no --db
        assert "the-services-token" not in log.read_text()
    finally:
        proc.terminate()
        try:
            proc.wait(20)
        except subprocess.TimeoutExpired:
            proc.kill()


def test_the_teacher_page_shows_a_class_at_a_time(tmp_path: Path) -> None:
    """On a hub a class is a hub group of students: a link for each with a member who has checks,
    relative (any prefix) and keeping the lesson shown; ``?class=`` shows only its members' rows."""
    from rummylab.classroom.teacher import teacher_page

    db = tmp_path / "progress.sqlite"
    p = Progress(db)
    evil = "<i>7c</i>'"
    p.record("Ada", "00-start-here", "deck_size", True, "52", hub_user="student01")
    p.record("student02", "00-start-here", "deck_size", False, "54", hub_user="student02")
    p.record("student03", "02-melds-and-deadwood", "deadwood_count", True, "7", hub_user="student03")
    p.record("Guest", "00-start-here", "deck_size", True, "52")  # no hub user: in no class
    groups = {"class-7a": ["student01", "student03"], "class-7b": ["student02"], evil: ["student03"],
              "teachers": ["teacher"], "class-8a": ["student09"]}  # no checks: no link
    page = teacher_page(db, "", "http://hub/", groups)
    nav = page[page.index("<nav class='rl-classes'>"):]
    nav = nav[:nav.index("</nav>")]
    assert "href='?' aria-current=page>all classes" in nav and "href='?class=class-7a'>class-7a" in nav
    assert "href='?class=class-7b'>" in nav and "class-8a" not in nav and "teachers" not in nav
    assert "<i>" not in page and "&lt;i&gt;7c&lt;/i&gt;&#x27;" in nav and "href='?class=%3Ci%3E7c%3C%2Fi%3E%27'" in nav
    assert "Guest" in page and "Ada (student01)" in page  # every class

    page = teacher_page(db, "", "http://hub/", groups, "class-7a")
    students = gradebook_table(page)
    assert "Ada (student01)" in students and "student03" in students
    assert "student02" not in students and "Guest" not in students
    assert "<a href='?class=class-7a' aria-current=page>class-7a</a>" in page
    assert "href='?lesson=02-melds-and-deadwood&amp;class=class-7a'" in page  # the lesson links keep the class

    page = teacher_page(db, "00", "http://hub/", groups, "class-7b")
    students = gradebook_table(page)
    assert "student02" in students and "Ada" not in students and "deadwood_count" not in page
    assert "href='?lesson=00-start-here'>all classes" in page  # the class links keep the lesson
    assert "href='?lesson=00-start-here&amp;class=class-7a'>class-7a" in page

    from rummylab.classroom.teacher import teacher_csv

    assert "<a href='gradebook.csv?lesson=00-start-here&amp;class=class-7b' download>Download CSV</a>" in page
    name, text = teacher_csv(db, "00", groups, "class-7b")  # what the page's link downloads
    assert name == "gradebook-00-start-here-class-7b.csv"
    assert text == "student,name,00-start-here/deck_size,solved,tried\nstudent02,student02,0,0,1\n"
    name, text = teacher_csv(db, "", groups, evil)
    assert name == "gradebook-_i_7c_i_.csv" and text.splitlines()[1:] == ["student03,student03,1,1,1"]

    page = teacher_page(db, "", "http://hub/", groups, "class-9z")  # no such group: every class, said
    assert "No hub group &#x27;class-9z&#x27;: showing every class." in page and "Guest" in page
    page = teacher_page(db, "", "http://hub/", None, "", note="The classes could not be read just now.")
    assert "rl-classes" not in page and "The classes could not be read just now." in page


class FakeTeacherHub(FakeHub):
    """The hub as the teacher page asks it (``HubOAuthenticated``): whose token a request has, and
    whether she has the service's access scope (the teacher group's role); no hub API to ask."""

    access_scopes = {"access:services!service=rummylab"}
    scopes = {"token-of-ada": set(), "token-of-the-teacher": access_scopes}
    api_url, api_token = "http://127.0.0.1:9/hub/api", ""

    def get_user(self, handler: Any) -> dict[str, Any] | None:
        token = handler.request.headers.get("Authorization", "").removeprefix("token ")
        name = {**TOKENS, "token-of-the-teacher": "teacher"}.get(token)
        return {"name": name, "kind": "user", "scopes": sorted(self.scopes.get(token, ()))} if name else None

    def check_scopes(self, required: set[str], model: dict[str, Any]) -> set[str]:
        return set(required) & set(model["scopes"])

    def _persist_url_token_if_set(self, handler: Any) -> None:
        pass


def test_the_teacher_downloads_the_gradebook_csv_from_the_service(tmp_path: Path, monkeypatch: pytest.MonkeyPatch
                                                                   ) -> None:
    """``gradebook.csv`` beside the teacher page: the hub's login first, a student gets 403, the
    teacher the gradebook (a row a hub login, with the name she typed) for the lesson asked."""
    import csv
    import io
    import urllib.error
    import urllib.request

    monkeypatch.setenv("RUMMYLAB_SPOOL", str(tmp_path / "spool"))
    db = f"sqlite:///{tmp_path / 'progress.sqlite'}"
    p = Progress(db)
    p.record("Ada", "00-start-here", "deck_size", True, "52", hub_user="student01")
    p.record("<b>Bea</b>", "00-start-here", "deck_size", False, "54", hub_user="student02")
    p.record("student02", "02-melds-and-deadwood", "deadwood_count", True, "7", hub_user="student02")
    service = Service(db, free_port(), hub=FakeTeacherHub())
    service.start()

    class Stay(urllib.request.HTTPRedirectHandler):
        def redirect_request(self, *args: Any, **kwargs: Any) -> None:
            return None

    def get(path: str, token: str = "") -> tuple[int, dict[str, str], str]:
        request = urllib.request.Request(service.url + path, headers={"Authorization": f"token {token}"} if token
                                         else {})
        try:
            with urllib.request.build_opener(Stay).open(request, timeout=10) as r:
                return r.status, dict(r.headers), r.read().decode()
        except urllib.error.HTTPError as exc:
            return exc.code, dict(exc.headers), exc.read().decode()

    try:
        code, headers, body = get("gradebook.csv")
        assert code == 302 and headers["Location"].startswith("/hub/login") and "deck_size" not in body
        code, _, body = get("gradebook.csv", "token-of-ada")
        assert code == 403 and "deck_size" not in body
        code, _, page = get("?lesson=00", "token-of-the-teacher")
        assert code == 200 and "<a href='gradebook.csv?lesson=00-start-here' download>Download CSV</a>" in page
        assert "<th scope='row'>&lt;b&gt;Bea&lt;/b&gt; (student02)</th>" in page
        code, headers, body = get("gradebook.csv?lesson=00", "token-of-the-teacher")
        assert code == 200 and headers["Content-Type"] == "text/csv; charset=utf-8"
        assert headers["Content-Disposition"] == 'attachment; filename="gradebook-00-start-here.csv"'
        assert list(csv.DictReader(io.StringIO(body))) == [
            {"student": "student01", "name": "Ada", "00-start-here/deck_size": "1", "solved": "1", "tried": "1"},
            {"student": "student02", "name": "<b>Bea</b>", "00-start-here/deck_size": "0", "solved": "0",
             "tried": "1"}]
    finally:
        service.stop()


def test_the_service_reads_the_hubs_groups_with_its_own_token() -> None:
    """Every page of the hub's groups, with the service's token; kept a while; an error when the hub refuses."""
    import tornado.httpclient
    import tornado.web

    from rummylab.classroom.hub_service import HubGroups

    asked: list[str] = []

    class Groups(tornado.web.RequestHandler):
        def get(self) -> None:
            asked.append(self.request.uri or "")
            if self.request.headers.get("Authorization") != "token the-services-token":
                self.set_status(403)
                self.finish({"message": "no"})
                return
            offset = int(self.get_argument("offset"))
            items = [{"kind": "group", "name": f"class-{i}", "users": [f"student{i:02d}"]} for i in range(3)]
            following = {"offset": offset + 2, "limit": 2} if offset == 0 else None
            self.finish({"items": items[offset:offset + 2], "_pagination": {"offset": offset, "next": following}})

    class Auth:
        def __init__(self, url: str, token: str) -> None:
            self.api_url, self.api_token = url, token

    async def run() -> None:
        port = free_port()
        server = tornado.web.Application([(r"/hub/api/groups", Groups)]).listen(port, address="127.0.0.1")
        try:
            url = f"http://127.0.0.1:{port}/hub/api"
            groups = HubGroups(Auth(url, "the-services-token"))  # type: ignore[arg-type]
            assert await groups() == {"class-0": ["student00"], "class-1": ["student01"], "class-2": ["student02"]}
            await groups()  # kept: not asked again
            assert len(asked) == 2 and "offset=2" in asked[1]
            with pytest.raises(tornado.httpclient.HTTPClientError, match="403"):
                await HubGroups(Auth(url, "a-students-token"))()  # type: ignore[arg-type]
        finally:
            server.stop()

    # a thread of its own: a test before this one in the process may have left an event loop running here
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        pool.submit(asyncio.run, run()).result(60)


def test_classes_on_the_hub(tmp_path: Path) -> None:
    """``--class NAME=STUDENT,...``: a hub group; the service's role reads groups and nothing more."""
    from traitlets.config import Config

    options, _ = hub.hub_options(str(lessons_dir()), "00", 3, None, "teachers", "127.0.0.1", 8000,
                                 str(tmp_path), "local", ["7a=student01,student02", "7b=student03"])
    assert options["classes"] == {"7a": ["student01", "student02"], "7b": ["student03"]}
    c = Config()
    hub.configure(c, **{**options, "password": "a-class-password", "teacher_password": "t" * 32})
    assert c.JupyterHub.load_groups == {"teachers": {"users": ["teacher"]}, "7a": {"users": ["student01", "student02"]},
                                        "7b": {"users": ["student03"]}}
    service_roles = [r for r in c.JupyterHub.load_roles if r.get("services")]
    assert service_roles == [{"name": "rummylab-service", "services": ["rummylab"],
                              "scopes": ["list:groups", "read:groups"]}]
    for given, message in [(["7a=student04"], "student04 not among the students"), (["7a"], "NAME=student01"),
                           (["teachers=student01"], "not the teacher group"), (["7a="], "its students"),
                           (["<b>=student01"], "a name of letters")]:
        with pytest.raises(ValueError, match=message):
            hub.hub_options(str(lessons_dir()), "00", 3, None, "teachers", "127.0.0.1", 8000, str(tmp_path),
                            "local", given)


def test_warm_student_servers(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                              capsys: pytest.CaptureFixture[str]) -> None:
    """``--warm N``: each student's server is ``rummylab serve --hub-server`` on her home, opening at
    the lesson of the day; ``serve --hub-server`` needs the hub's variables of a user's server."""
    from traitlets.config import Config

    from rummylab.classroom.hub_login import service_env

    options, _ = hub.hub_options(str(lessons_dir()), "02", 2, None, "teachers", "127.0.0.1", 8000,
                                 str(tmp_path), "local", warm=1)
    c = Config()
    hub.configure(c, **{**options, "password": "a-class-password", "teacher_password": "t" * 32})
    assert c.Spawner.cmd[1:] == ["-m", "rummylab.cli", "serve", ".", "--hub-server", "--students=1",
                                 "--lesson=02-melds-and-deadwood.ipynb"] and c.Spawner.args == []
    assert c.Spawner.default_url == "/voila/render/02-melds-and-deadwood.ipynb"
    assert "secret" not in repr(c.Spawner.environment)
    with pytest.raises(ValueError, match="--warm 5"):
        hub.hub_options(str(lessons_dir()), "02", 2, None, "teachers", "127.0.0.1", 8000, str(tmp_path), "local",
                        warm=5)

    server = {"JUPYTERHUB_USER": "student01", "JUPYTERHUB_API_TOKEN": "her-servers-token",
              "JUPYTERHUB_SERVICE_URL": "http://127.0.0.1:40123/user/student01/",
              "JUPYTERHUB_SERVICE_PREFIX": "/user/student01/"}
    assert service_env(server) is None  # a teacher's terminal in her own server: not a hub server
    assert service_env(server, single_user=True) == {"ip": "127.0.0.1", "port": 40123,
                                                     "base_url": "/user/student01/"}
    for name in [n for n in os.environ if n.startswith("JUPYTERHUB_")]:
        monkeypatch.delenv(name)
    assert main(["serve", str(lessons_dir()), "--hub-server"]) == 2
    assert "--hub-server: JupyterHub did not start this server" in capsys.readouterr().err


def test_the_service_reads_the_exercises_of_the_lessons_it_serves(tmp_path: Path) -> None:
    """``Grader.of_folder`` runs each lesson once (as the key does) in a thread, the lesson of the
    day first; a restart reads them from its cache without running a lesson."""
    from rummylab.lessons.starter import new_lesson

    folder = tmp_path / "lessons"
    folder.mkdir()
    new_lesson(folder / "12-my-lesson.ipynb")
    grader = Grader.of_folder(folder, "12-my-lesson.ipynb", tmp_path / "key-cache")
    assert not grader.ready("12-my-lesson")  # not read yet: checks of it wait
    grader.start().join(120)
    assert grader.ready("12-my-lesson") and not grader.failed
    ((lesson, name),) = grader.graded
    assert lesson == "12-my-lesson" and name.endswith("_deadwood")
    right = grader.graded[(lesson, name)].answer
    assert grader.grade(lesson, name, str(right), False) is True and grader.grade(lesson, name, "999", True) is False
    assert grader.grade("12-my-lesson", "free_text", "why not", None) is None  # a response
    with pytest.raises(ValueError, match="no exercise 'made_up'"):
        grader.grade("12-my-lesson", "made_up", "1", True)

    again = Grader.of_folder(folder, "", tmp_path / "key-cache")
    import rummylab.lessons.key as key

    def no_run(*args: Any) -> Any:
        raise AssertionError("a cached lesson is not run again")

    original, key.key_runs = key.key_runs, no_run  # type: ignore[assignment]
    try:
        again.start().join(30)
    finally:
        key.key_runs = original
    assert again.graded == grader.graded and not again.failed


def test_a_link_in_her_home_is_replaced_never_followed(tmp_path: Path) -> None:
    """The spawn hook (root, on a school's hub) writes each lesson as a new file of hers: a link she
    made to another file (the hub's secrets) is replaced, and what it pointed to is untouched."""
    home, secret = tmp_path / "home", tmp_path / "secret"
    home.mkdir(mode=0o755)
    secret.write_text("the hub's own")
    (home / "00-start-here.ipynb").symlink_to(secret)
    spawner = type("Spawner", (), {"home_dir": str(home), "user": type("User", (), {"name": "nobody-here"})()})()
    hub.copy_lessons_hook(lessons_dir())(spawner)
    assert secret.read_text() == "the hub's own"
    copied = home / "00-start-here.ipynb"
    assert not copied.is_symlink() and copied.read_bytes() == (lessons_dir() / "00-start-here.ipynb").read_bytes()
    assert stat.S_IMODE(home.stat().st_mode) == 0o700  # hers alone


def test_the_service_refuses_what_it_does_not_serve_and_reads_what_is_added(tmp_path: Path) -> None:
    """A lesson not in the folder is refused (a name of her own would fill the teacher's page); one
    put there while the service runs is read then (its checks wait meanwhile), and one edited is
    read again; a damaged cache of a key is read again from the lesson."""
    from rummylab.lessons.starter import new_lesson

    folder, cache = tmp_path / "lessons", tmp_path / "key-cache"
    folder.mkdir()
    new_lesson(folder / "12-my-lesson.ipynb")
    grader = Grader.of_folder(folder, "", cache)
    grader.start().join(120)
    with pytest.raises(ValueError, match="no lesson 'made-up' is served"):
        grader.grade("made-up", "free", "anything", None)
    new_lesson(folder / "13-another.ipynb")
    assert not grader.ready("13-another")  # found, being read
    assert _run(grader.wait("13-another", 120)) and not grader.failed
    assert any(lesson == "13-another" for lesson, _ in grader.graded)
    assert grader.ready("../12-my-lesson") and "../12-my-lesson" not in grader.lessons  # a path: not looked for
    # the teacher edits a lesson mid-class: it is read again, and graded as it is now
    edited = folder / "12-my-lesson.ipynb"
    (old_name,) = [name for lesson, name in grader.graded if lesson == "12-my-lesson"]
    edited.write_text(edited.read_text(encoding="utf-8").replace(old_name, "renamed_deadwood"), encoding="utf-8")
    assert not grader.ready("12-my-lesson")  # being read again: its checks wait
    assert _run(grader.wait("12-my-lesson", 120)) and not grader.failed
    assert [name for lesson, name in grader.graded if lesson == "12-my-lesson"] == ["renamed_deadwood"]
    with pytest.raises(ValueError, match=f"no exercise '{old_name}'"):
        grader.grade("12-my-lesson", old_name, "10", True)
    for kept in cache.glob("*.json"):
        kept.write_text("{not json")
    again = Grader.of_folder(folder, "", cache)
    again.start().join(120)
    assert again.graded == grader.graded and not again.failed


def test_each_student_logs_in_with_her_own_password(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    """Named students each get a password of their own (made up once, kept in the state folder for
    the teacher, mode 600); the hub keeps only their hashes; nobody logs in as a classmate. With
    any name allowed (``--students 0``) the class password stays, for a trial."""
    from traitlets.config import Config

    from rummylab.classroom.hub_auth import ClassPasswords, hashed, matches

    monkeypatch.setenv(hub.TEACHER_PASSWORD_ENV, "t" * 32)
    options, said = hub.hub_options(str(lessons_dir()), "00", 2, None, "teachers", "127.0.0.1", 8000,
                                    str(tmp_path), "local")
    kept = tmp_path / hub.STUDENT_PASSWORDS
    assert said is not None and str(kept) in said and "class password" not in said
    assert stat.S_IMODE(kept.stat().st_mode) == 0o600
    words = dict(line.split(",") for line in kept.read_text().split()[1:])
    assert set(words) == {"student01", "student02"} and words["student01"] != words["student02"]
    again, _ = hub.hub_options(str(lessons_dir()), "00", 3, None, "teachers", "127.0.0.1", 8000, str(tmp_path), "local")
    assert dict(line.split(",") for line in kept.read_text().split()[1:2]) == {"student01": words["student01"]}
    assert matches(words["student02"], again["hashes"]["student02"]) and not matches(words["student01"],
                                                                                  again["hashes"]["student02"])
    c = Config()
    hub.configure(c, **{**options, "password": "a-class-password", "teacher_password": "t" * 32})
    assert c.JupyterHub.authenticator_class == "rummylab.classroom.hub_auth.ClassPasswords"
    assert words["student01"] not in repr(c)  # hashes only
    auth = ClassPasswords(hashes=dict(c.ClassPasswords.hashes), admin_users={"teacher"})

    def login(name: str, word: str) -> Any:
        return _run(auth.authenticate(None, {"username": name, "password": word}))

    assert login("student01", words["student01"]) == {"name": "student01", "admin": False}
    assert login("student02", words["student01"]) is None  # her password is hers alone
    assert login("student01", "a-class-password") is None and login("nobody", words["student01"]) is None
    assert login("teacher", "t" * 32) == {"name": "teacher", "admin": True}
    assert not matches("x", "not-a-hash") and matches("x", hashed("x"))
    with pytest.raises(ValueError, match="named students need their passwords"):
        hub.configure(Config(), **{**options, "password": "p" * 8, "teacher_password": "t" * 32, "hashes": None})
    trial = Config()
    hub.configure(trial, **{**options, "students": 0, "hashes": None, "password": "p" * 8,
                            "teacher_password": "t" * 32})
    assert trial.JupyterHub.authenticator_class == "shared-password" and trial.Authenticator.allow_all



def test_a_flood_of_checks_is_refused_for_later(service: Service) -> None:
    """A student may send CHECKS_A_MINUTE checks: past them her request gets 429 with a
    Retry-After, nothing is written, and her kernel keeps the checks for later; another student
    is not held back."""
    import urllib.error

    from rummylab.classroom.hub_service import CHECKS_A_MINUTE

    service.start()
    most = int(CHECKS_A_MINUTE.split("/")[0])
    check = {"lesson": "00-start-here", "exercise": "deck_size", "answer": "52", "at": None}
    for batch in range(most // 100):
        _post(service, "token-of-ada", *({**check, "check_id": f"a{batch}-{i}"} for i in range(100)))
    with pytest.raises(urllib.error.HTTPError) as refused:
        _post(service, "token-of-ada", {**check, "check_id": "one-too-many"})
    assert refused.value.code == 429 and int(refused.value.headers["Retry-After"]) >= 1
    assert _post(service, "token-of-bea", {**check, "check_id": "b1"})["written"] is True
    flooded = ServiceProgress(service.url, token="token-of-ada", user="student01")
    assert flooded.record("Ada", "00-start-here", "deck_size", None, "52") is False  # kept for later
    assert flooded.waiting() == 1
    assert Progress(service.db).rows().height == most + 1


def test_the_hub_renders_the_lesson_of_the_day_once_for_its_students(tmp_path: Path) -> None:
    """``rummylab hub`` renders the lesson of the day's rendered-once cells before the hub starts,
    beside its private state, readable by the students' servers (755 and 644), under the settings
    their kernels run with; the config tells their servers where."""
    import nbformat

    from rummylab.classroom.hub import CLASS_SETTINGS, outputs_folder, render_lessons
    from rummylab.lessons.rendered import RENDERED_ONCE, kept, lesson_key

    lessons = tmp_path / "lessons"
    lessons.mkdir()
    v4 = nbformat.v4
    nb = v4.new_notebook(cells=[v4.new_code_cell("print('for the class')", metadata={"tags": [RENDERED_ONCE]})])
    nbformat.write(nb, lessons / "01-one.ipynb")
    state = tmp_path / "state"
    done, background = render_lessons(lessons, "01-one.ipynb", state)
    assert done == ["01-one"] and background is None
    out = outputs_folder(state)
    assert stat.S_IMODE(out.stat().st_mode) == 0o755
    assert all(stat.S_IMODE(f.stat().st_mode) == 0o644 for f in out.iterdir())
    outputs = kept(out, lesson_key(nbformat.read(lessons / "01-one.ipynb", as_version=4).cells, CLASS_SETTINGS))
    assert outputs is not None and "for the class" in json.dumps(outputs)
    from traitlets.config import Config

    c = Config()
    hub.configure(c, lessons=str(lessons), lesson="01", db="postgresql://u@db/class", password="a-class-password",
                  teacher_password="t" * 32, students=0, state_dir=str(state), spawner="local")
    assert c.Spawner.environment["RUMMYLAB_OUTPUTS"] == str(out)
    assert {k: c.Spawner.environment[k] for k in CLASS_SETTINGS} == CLASS_SETTINGS
