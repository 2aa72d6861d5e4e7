"""Serving a class: options checked before anything starts, a class code off 127.0.0.1, warm
kernels for the lessons of the day."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from rummylab.classroom import class_code, voila_patches
from rummylab.classroom.serve import lessons_dir, voila_command

pytestmark = pytest.mark.once  # serving a class touches no search: the compiled run has it


def test_lessons_of_the_day_by_number_or_name() -> None:
    folder = lessons_dir()
    assert class_code.find_lessons(folder, ["02"]) == ["02-melds-and-deadwood.ipynb"]
    assert class_code.find_lessons(folder, ["08-pure-sequence.ipynb", "00"]) == [
        "08-pure-sequence.ipynb", "00-start-here.ipynb"]
    with pytest.raises(ValueError, match="'99': no such lesson"):
        class_code.find_lessons(folder, ["99"])


def test_a_teachers_folder_warms_its_first_lesson_or_nothing(tmp_path: Path) -> None:
    """`rummylab serve DIR` with no --lesson warms the folder's first lesson (00 of the packaged ones),
    and nothing in a folder with none."""
    assert class_code.first_lesson(lessons_dir()) == ["00-start-here.ipynb"]
    (tmp_path / "my-lesson.ipynb").write_text("{}")
    (tmp_path / ".hidden.ipynb").write_text("{}")
    assert class_code.first_lesson(tmp_path) == ["my-lesson.ipynb"]
    assert class_code.first_lesson(tmp_path / "empty") == []


def test_a_served_lesson_goes_on_past_a_cell_that_raises(tmp_path: Path) -> None:
    cmd, env = voila_command(lessons_dir(), 9000, tmp_path / "p.sqlite")
    assert "--show_tracebacks=False" in cmd and "--VoilaExecutor.allow_errors=True" in cmd
    assert env["RUMMYLAB_APP"] == "1"  # exercises say "type your answer below"
    # (the page's one short line for such a cell: tests/test_page_template.py)


def test_pool_options() -> None:
    opts = class_code.pool_options(["02-melds-and-deadwood.ipynb"], 30)
    config = json.loads(opts[1].split("=", 1)[1])
    assert config == {"default": {"pool_size": 0}, "02-melds-and-deadwood.ipynb": {"pool_size": 30}}
    assert class_code.pool_options(["02-melds-and-deadwood.ipynb"], 0) == []
    with pytest.raises(ValueError, match="--students 61"):
        class_code.pool_options(["x.ipynb"], 61)


def test_codes() -> None:
    code = class_code.new_code()
    assert len(code) == 6 and set(code) <= set(class_code.CODE_ALPHABET)
    with pytest.raises(ValueError, match="class code 'a b'"):
        class_code.check_code("a b")


def test_the_command_carries_the_code_and_the_pool(tmp_path: Path) -> None:
    cmd, env = voila_command(lessons_dir(), 9000, tmp_path / "p.sqlite", ip="0.0.0.0", code="K7QF3M",
                             students=3, lessons=["00-start-here.ipynb"])
    assert "--Voila.ip=0.0.0.0" in cmd and "--token=K7QF3M" in cmd
    assert "--Voila.identity_provider_class=rummylab.classroom.class_code.ClassCodeProvider" in cmd
    assert "--preheat_kernel=True" in cmd
    assert env["RUMMYLAB_CHARTS"] == "svg"  # the students' pages load no charting JavaScript
    plain, _ = voila_command(lessons_dir(), 9000, tmp_path / "p.sqlite")
    assert "--Voila.ip=127.0.0.1" in plain and not any(c.startswith("--token") for c in plain)


def test_warm_kernels_are_handed_out_only_when_ready_and_replaced_one_at_a_time() -> None:
    """A visitor never waits for a replacement still waiting out its delay (a fresh kernel starts
    for them instead), but does wait for a kernel already warming; replacements for taken kernels
    start REFILL_GAP seconds apart."""
    import asyncio

    class Pools:  # the part of Voilà's kernel manager that warm_first changes
        fill_delay = 300.0

        def notify_disconnect(self, kernel_id: str) -> None:
            pass

        async def shutdown_kernel(self, kernel_id: str) -> None:
            pass

        def __init__(self) -> None:
            self._pools: dict[str, list[asyncio.Future[str]]] = {}
            self.delays: list[float | None] = []
            self.envs: list[dict[str, str] | None] = []

        def fill_if_needed(self, delay: float | None = None, notebook_name: str = "",
                           extra_kernel_env_variables: dict[str, str] | None = None) -> None:
            self.delays.append(delay)
            self.envs.append(extra_kernel_env_variables)
            self._pools.setdefault(notebook_name, []).append(asyncio.get_running_loop().create_future())

        async def get_rendered_notebook(self, notebook_name: str) -> str:
            return await self._pools[notebook_name].pop(0)

        def get_pool_size(self, notebook_name: str) -> int:  # Voilà's counts every kernel in the pool
            return len(self._pools.get(notebook_name, []))

    async def run() -> None:
        manager = voila_patches.warm_first(lambda base, preheat: base)(Pools, True)()
        manager._announcing = True  # (announce_when_warm has a test of its own)
        manager.fill_if_needed(None, "00.ipynb")  # a replacement, five minutes away
        ready = asyncio.get_running_loop().create_future()
        ready.set_result("warm kernel")
        manager._pools["00.ipynb"].append(ready)
        assert manager.get_pool_size("00.ipynb") == 1  # the replacement does not count
        assert await manager.get_rendered_notebook("00.ipynb") == "warm kernel"
        assert manager.get_pool_size("00.ipynb") == 0  # so the next visitor gets a kernel at once
        manager.fill_if_needed(0, "00.ipynb")  # a kernel warming now: worth waiting for
        assert manager.get_pool_size("00.ipynb") == 1
        manager.fill_if_needed(None, "00.ipynb")
        assert manager.delays == [300.0, 0, 300.0 + 2 * class_code.REFILL_GAP]
        assert manager.envs == [{"RUMMYLAB_LESSON": "00"}] * 3  # a warm kernel knows its lesson
        voila_patches.ONE_KERNEL[0] = True  # a student's own server on a hub: she keeps the one she took
        try:
            manager.fill_if_needed(0, "00.ipynb")  # her warm kernel, at her server's start
            manager.fill_if_needed(None, "00.ipynb")  # she took it: no replacement
            assert manager.delays == [300.0, 0, 300.0 + 2 * class_code.REFILL_GAP, 0]
        finally:
            voila_patches.ONE_KERNEL[0] = False

    in_thread(run())


def in_thread(coroutine: Any) -> None:
    """Run a coroutine in a thread of its own (a test process may already run an event loop)."""
    import asyncio
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(1) as pool:
        pool.submit(asyncio.run, coroutine).result()


def test_class_ready_once_every_warm_kernel_has_run_its_lesson(capsys: pytest.CaptureFixture[str]) -> None:
    """Not when the kernels have merely started (thirty students then took kernels still running
    the lesson); a kernel that failed to start is said, and the class goes on without it."""
    import asyncio

    async def run() -> None:
        loop = asyncio.get_running_loop()
        lesson: asyncio.Future[None] = loop.create_future()
        started, broken = loop.create_future(), loop.create_future()
        started.set_result({"kernel_id": "k1", "task": lesson})
        broken.set_exception(RuntimeError("Address already in use"))
        pools = {"00-start-here.ipynb": [started, broken], "01-dealing-and-the-upcard.ipynb": []}
        announcing = asyncio.create_task(voila_patches.announce_when_warm(pools))
        await asyncio.sleep(1.5)
        assert not announcing.done()  # the lesson is still running
        lesson.set_result(None)
        await asyncio.wait_for(announcing, 5)

    in_thread(run())
    assert "class ready: 1 warm kernel(s) (1 failed to start)" in capsys.readouterr().out


def test_a_voila_the_tests_did_not_run_is_refused(monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    """rummylab reaches into Voilà's internals (voila_patches): another version is refused, by name,
    before anything starts (``rummylab serve`` says it in one line)."""
    from rummylab.cli import main

    for version in ("0.6.0", "0.6.0a1", "0.5.12", "1.0.0", "not a version"):
        monkeypatch.setattr(voila_patches, "installed_voila", lambda v=version: v)
        with pytest.raises(voila_patches.VoilaNotTested,
                           match=rf"Voilà {re.escape(version)} is installed.*tested with voila>=0\.5\.13,<0\.6"):
            voila_patches.check_voila()
    assert main(["serve", str(lessons_dir()), "--db", str(tmp_path / "p.sqlite")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("rummylab: error: Voilà not a version is installed") and err.count("\n") == 1, err
    for version in ("0.5.13", "0.5.14rc1", "0.5.99"):
        monkeypatch.setattr(voila_patches, "installed_voila", lambda v=version: v)
        assert voila_patches.check_voila() == version
    monkeypatch.setattr(voila_patches, "installed_voila", lambda: None)
    with pytest.raises(voila_patches.VoilaNotTested, match="not installed"):
        voila_patches.check_voila()


def test_the_tested_range_is_pyprojects() -> None:
    import tomllib

    project = tomllib.loads((Path(__file__).resolve().parent.parent / "pyproject.toml").read_text())
    assert f"voila{voila_patches.VOILA_TESTED}" in project["project"]["optional-dependencies"]["lab"]
    from rummylab.lessons.key import IPYWIDGETS_TESTED

    assert f"ipywidgets{IPYWIDGETS_TESTED}" in project["project"]["dependencies"]  # key.py's reach-in
    from rummylab.charts import ALTAIR_TESTED

    assert f"altair>=5.4,<{int(ALTAIR_TESTED[-1]) + 1}" in project["project"]["dependencies"]  # charts' reach-in


def test_a_patched_attribute_that_is_gone_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    import voila.notebook_renderer

    monkeypatch.delattr(voila.notebook_renderer, "VoilaExecutor")
    with pytest.raises(voila_patches.VoilaNotTested, match=r"has no voila\.notebook_renderer\.VoilaExecutor, "):
        voila_patches.log_cell_errors()
    with pytest.raises(voila_patches.VoilaNotTested, match=r"has no builtins\.object\.notify_disconnect, "):
        voila_patches.warm_first(lambda base, preheat: base)(object, False)


def test_voila_patches_alone_reach_into_voila() -> None:
    """Voilà's app, renderer and executor are imported by one module of the package."""
    package = Path(class_code.__file__).resolve().parent.parent
    reach = re.compile(r"\bvoila\.(app|notebook_renderer|execute)\b|\bfrom voila import\b")
    touching = sorted(p.relative_to(package).as_posix() for p in package.rglob("*.py")
                      if reach.search(p.read_text(encoding="utf-8")))
    assert touching == ["classroom/voila_patches.py"]


def teacher_replies(db: Path, plain: list[tuple[str, str]], with_cookie: list[tuple[str, str]],
                    cookie_from: str) -> dict[str, Any]:
    """A laptop's teacher page (its token ``T0KEN-teacher``) on a free port: its replies to the
    ``plain`` paths, then to the ``with_cookie`` paths with the cookie the reply ``cookie_from`` set."""
    got: dict[str, Any] = {}

    async def run() -> None:
        import tornado.httpclient
        import tornado.httpserver
        import tornado.netutil

        sockets = tornado.netutil.bind_sockets(0, "127.0.0.1")
        base = f"http://127.0.0.1:{sockets[0].getsockname()[1]}/"
        server = tornado.httpserver.HTTPServer(class_code.teacher_app(db, "T0KEN-teacher", "http://class:8866"))
        server.add_sockets(sockets)
        client = tornado.httpclient.AsyncHTTPClient()
        try:
            for name, path in plain:
                got[name] = await client.fetch(base + path, raise_error=False)
            cookie = got[cookie_from].headers["Set-Cookie"].split(";")[0]
            for name, path in with_cookie:
                got[name] = await client.fetch(base + path, raise_error=False, headers={"Cookie": cookie})
        finally:
            server.stop()

    in_thread(run())
    return got


def test_the_teacher_page_needs_its_token_shows_answers_and_filters_by_lesson(tmp_path: Path) -> None:
    """Per exercise: who tried and solved it, the answers, the most common wrong one first; a
    lesson at a time; names and answers escaped."""
    from rummylab.progress import Progress

    db = tmp_path / "progress.sqlite"
    evil = "<script>alert(1)</script>"
    p = Progress(db)
    for student, answer in [(evil, evil), ("Ana", "54"), ("Bo", "54"), ("Ana", "52")]:
        p.record(student, "00-start-here", "deck_size", answer == "52", answer)
    p.record("Cy", "02-melds-and-deadwood", "deadwood_count", False, "13")
    got = teacher_replies(db, [("none", ""), ("wrong", "?token=nope"), ("all", "?token=T0KEN-teacher")],
                          [("00", "?lesson=00-start-here"), ("02", "?lesson=02"), ("99", "?lesson=99")], "all")
    pages = {name: (r.code, r.body.decode()) for name, r in got.items()}
    assert pages["none"][0] == pages["wrong"][0] == 403 and "deck_size" not in pages["none"][1] + pages["wrong"][1]
    code, page = pages["all"]
    assert code == 200 and "http://class:8866" in page and "deck_size" in page and "deadwood_count" in page
    assert "<script" not in page and "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert page.index("<code>54</code>") < page.index("<code>&lt;script&gt;") < page.index("<code>52</code>")
    assert "3 students tried, 1 solved (4 checks)" in page
    assert "href='?lesson=02-melds-and-deadwood'" in page and "href='?'" in page  # the lesson filter
    code, page = pages["00"]  # the cookie stands for the token
    assert code == 200 and "deck_size" in page and "deadwood_count" not in page
    assert "<a href='?lesson=00-start-here' aria-current=page>" in page
    assert "deadwood_count" in pages["02"][1] and "deck_size" not in pages["02"][1]
    code, page = pages["99"]
    assert code == 200 and "no checks recorded for that lesson" in page and "deck_size" in page


def test_the_teacher_page_is_a_gradebook_with_its_csv_behind_the_token(tmp_path: Path) -> None:
    """A row a student, a cell an exercise; "Download CSV" (the lesson shown) serves the gradebook
    as CSV to the token or its cookie only."""
    import csv
    import io

    from rummylab.progress import Progress

    db = tmp_path / "progress.sqlite"
    p = Progress(db)
    p.record("<b>Eve</b>", "00-start-here", "deck_size", False, "<script>alert(1)</script>")
    p.record("Ana", "00-start-here", "deck_size", True, "52")
    p.record("Ana", "00-start-here", "why", None, "a free answer")
    p.record("Ana", "02-melds-and-deadwood", "deadwood_count", False, "13")
    got = teacher_replies(db, [("none", "gradebook.csv"), ("wrong", "gradebook.csv?token=nope"),
                               ("page", "?token=T0KEN-teacher&lesson=00"),
                               ("csv", "gradebook.csv?token=T0KEN-teacher")],
                          [("lesson", "gradebook.csv?lesson=00-start-here")], "page")
    for name in ("none", "wrong"):
        assert got[name].code == 403 and b"deck_size" not in got[name].body and b"Eve" not in got[name].body
    page = got["page"].body.decode()
    assert "<a href='gradebook.csv?lesson=00-start-here' download>Download CSV</a>" in page
    table = page[page.index("<table class='rl-students rl-gradebook'>"):]
    assert "<th scope='row'>&lt;b&gt;Eve&lt;/b&gt;</th><td class='rl-tried' " in table
    assert "title='not solved, 1 check; last answer: &lt;script&gt;alert(1)&lt;/script&gt;'>\u2718 1</td>" in table
    assert "<script" not in page and "deadwood_count" not in page
    r = got["csv"]
    assert r.code == 200 and r.headers["Content-Type"] == "text/csv; charset=utf-8"
    assert r.headers["Content-Disposition"] == 'attachment; filename="gradebook.csv"'
    rows = list(csv.DictReader(io.StringIO(r.body.decode())))
    assert [(row["student"], row["00-start-here/deck_size"], row["02-melds-and-deadwood/deadwood_count"],
             row["solved"], row["tried"]) for row in rows] == [("<b>Eve</b>", "0", "", "0", "1"),
                                                                ("Ana", "1", "0", "1", "2")]
    r = got["lesson"]  # the cookie stands for the token; the lesson shown
    assert r.code == 200 and r.headers["Content-Disposition"] == 'attachment; filename="gradebook-00-start-here.csv"'
    assert r.body.decode().splitlines()[0] == "student,name,00-start-here/deck_size,solved,tried"


def test_the_class_code_page_is_under_the_base_url(tmp_path: Path) -> None:
    """Behind a proxy (``--base-url``) a visitor is sent to the class-code page under that path, its
    form posts there, the code lets her in and takes her where she was going; nothing answers at /login."""
    import http.cookiejar
    import re
    import subprocess
    import urllib.error
    import urllib.parse
    import urllib.request

    from rummylab.classroom.serve import free_port, wait_for_http

    lessons = tmp_path / "lessons"
    lessons.mkdir()
    for name in ("00-start-here.ipynb", "02-melds-and-deadwood.ipynb"):
        (lessons / name).write_bytes((lessons_dir() / name).read_bytes())
    port, base = free_port(), "/school/class-7b/"
    cmd, env = voila_command(lessons, port, tmp_path / "p.sqlite", code="K7QF3M", base_url=base)
    log = tmp_path / "voila.log"

    class Stay(urllib.request.HTTPRedirectHandler):
        def redirect_request(self, *args: object, **kwargs: object) -> None:
            return None  # the redirect itself is the answer

    jar = http.cookiejar.CookieJar()
    opener = urllib.request.build_opener(Stay, urllib.request.HTTPCookieProcessor(jar))
    url = f"http://127.0.0.1:{port}"

    def ask(path: str, form: dict[str, str] | None = None) -> tuple[int, str, str]:
        data = urllib.parse.urlencode(form).encode() if form is not None else None
        try:
            with opener.open(url + path, data=data, timeout=30) as r:
                return r.status, "", r.read().decode()
        except urllib.error.HTTPError as exc:
            return exc.code, exc.headers.get("Location", ""), exc.read().decode()

    with open(log, "wb") as out:
        proc = subprocess.Popen(cmd, env=env, stdout=out, stderr=subprocess.STDOUT)
    try:
        assert wait_for_http(f"{url}{base}voila/static/voila.js", 120), log.read_text()[-3000:]
        code, where, _ = ask(f"{base}voila/render/00-start-here.ipynb")
        assert code == 302 and where == f"{base}login?next=%2Fschool%2Fclass-7b%2Fvoila%2Frender%2F00-start-here.ipynb"
        code, _, page = ask(where)
        assert code == 200 and "class-code" in page
        assert f'action="{base}login"' in page and 'value="/school/class-7b/voila/render/00-start-here.ipynb"' in page
        assert ask("/login")[0] == 404  # nothing outside the base URL
        xsrf = re.search(r'name="_xsrf" value="([^"]+)"', page)
        assert xsrf, page
        form = {"_xsrf": xsrf.group(1), "next": f"{base}voila/tree", "password": "nope"}
        code, _, page = ask(f"{base}login", form)
        assert code == 401 and "wrong-code" in page and f'action="{base}login"' in page
        code, where, _ = ask(f"{base}login", {**form, "password": "k7qf3m"})  # read out in capitals: any case
        assert code == 302 and where == f"{base}voila/tree"
        code, _, page = ask(base)  # in: the lesson index, under the base URL, lessons by title
        assert code == 200 and f'href="{base}voila/render/00-start-here.ipynb"' in page
        assert "2. Melds and deadwood" in page and "Select items" not in page
        code, where, _ = ask(f"{base}voila/tree?name=Ada")  # her name, kept by her browser
        assert code == 302 and where == f"{base}voila/tree"
        from rummylab.progress import Progress

        Progress(tmp_path / "p.sqlite").record("Ada", "02-melds-and-deadwood", "deadwood_split_run", True, "3")
        code, _, page = ask(base)
        assert 'value="Ada"' in page and "1 of 3 solved" in page
    finally:
        proc.terminate()
        proc.wait(20)


def test_the_lesson_index_lists_titles_in_order_with_progress(tmp_path: Path) -> None:
    """The index reads each notebook's first heading and its exercises' names (not running it);
    a file without a heading is named by its words; every title and name is escaped."""
    from rummylab.classroom.lesson_index import index_html, lessons_in

    found = lessons_in(lessons_dir())
    assert [x.name for x in found] == sorted(p.stem for p in lessons_dir().glob("*.ipynb"))
    assert found[2].title == "2. Melds and deadwood" and found[2].exercises == ("deadwood_split_run",
                                                                                 "around_the_corner", "which_deadwood")
    (tmp_path / "12-my-own_lesson.ipynb").write_text(json.dumps({"cells": [
        {"cell_type": "code", "source": ["exercise('a', 'Q?', answer=1)\n", "exercise(\"b\", 'Q?', answer=2)"]}]}))
    (tmp_path / "broken.ipynb").write_text("{")
    (tmp_path / ".hidden.ipynb").write_text("{}")
    (own,) = lessons_in(tmp_path)
    assert own.title == "My own lesson" and own.exercises == ("a", "b")
    page = index_html([own], "/c/", solved={"12-my-own_lesson": {"a": True, "b": False}}, who="<Eve>")
    assert "1 of 2 solved" in page and "&lt;Eve&gt;" in page and "<Eve>" not in page
    assert 'href="/c/voila/render/12-my-own_lesson.ipynb"' in page


def test_a_class_kernel_runs_without_a_debugger(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The class server's ``python3`` kernel spec is rummylab's (``class_kernel``): an ipykernel that
    runs the lesson's code and answers as any other, with no debugpy (8 MB a kernel)."""
    from jupyter_client.kernelspec import KernelSpecManager
    from jupyter_client.manager import KernelManager

    _, env = voila_command(lessons_dir(), 9000, tmp_path / "p.sqlite")
    monkeypatch.setenv("JUPYTER_PATH", env["JUPYTER_PATH"])  # as Voilà finds kernel specs
    spec = KernelSpecManager().get_kernel_spec("python3")
    assert spec.argv[1:3] == ["-m", "rummylab.classroom.class_kernel"] and not spec.metadata["debugger"]
    km = KernelManager(kernel_name="python3")
    km.start_kernel()
    kc = km.client()
    kc.start_channels()
    printed: list[str] = []
    try:
        kc.wait_for_ready(timeout=60)
        reply = kc.execute_interactive("import sys; print(sys.modules.get('debugpy', 'none'), 6 * 7)", timeout=60,
                                       output_hook=lambda m: printed.append(m["content"].get("text", "")))
        assert reply["content"]["status"] == "ok"
    finally:
        kc.stop_channels()
        km.shutdown_kernel(now=True)
    assert "".join(printed).split() == ["None", "42"]  # refused in sys.modules, and the kernel works


def test_a_cell_rendered_once_runs_once_for_the_class(tmp_path: Path) -> None:
    """``rummylab serve`` renders a lesson's rendered-once cells before the class starts; a
    student's page shows their outputs, and her kernel does not run them (the cell's side effect
    happens once, at the render); an edited lesson runs whole."""
    import subprocess
    import urllib.request

    import nbformat

    from rummylab.classroom.serve import free_port, render_for_class, wait_for_http
    from rummylab.lessons.rendered import OUTPUTS_ENV, RENDERED_ONCE

    lessons, marks = tmp_path / "lessons", tmp_path / "runs.txt"
    lessons.mkdir()
    v4 = nbformat.v4
    heavy = v4.new_code_cell(f"open({str(marks)!r}, 'a').write('ran\\n')\nprint('the class table: 42')",
                             metadata={"tags": [RENDERED_ONCE]})
    nb = v4.new_notebook(cells=[v4.new_markdown_cell("# One lesson"), heavy, v4.new_code_cell("print('hers')")])
    nbformat.write(nb, lessons / "01-one.ipynb")
    port = free_port()
    cmd, env = voila_command(lessons, port, tmp_path / "p.sqlite")
    env[OUTPUTS_ENV] = str(tmp_path / "outputs")
    assert render_for_class(lessons, lessons, [], env) == []  # the folder's one lesson: rendered now
    assert marks.read_text() == "ran\n"
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
    try:
        url = f"http://127.0.0.1:{port}/voila/render/01-one.ipynb"
        assert wait_for_http(f"http://127.0.0.1:{port}/voila/static/voila.js", 120)
        for _ in range(2):  # two students
            with urllib.request.urlopen(url, timeout=120) as r:
                page = r.read().decode()
            assert "the class table: 42" in page and "hers" in page
        assert marks.read_text() == "ran\n"  # no student's kernel ran it
        nb.cells[2].source = "print('edited')"
        nbformat.write(nb, lessons / "01-one.ipynb")
        with urllib.request.urlopen(url, timeout=120) as r:
            assert "the class table: 42" in r.read().decode()
        assert marks.read_text() == "ran\nran\n"  # not rendered as it is now: run whole, never stale
    finally:
        proc.terminate()
        proc.wait(20)


def test_a_rendered_once_cell_may_bind_nothing_a_later_cell_reads() -> None:
    from rummylab.lessons.rendered import RENDERED_ONCE, check_rendered_once, lesson_key

    def cells(*sources: tuple[str, bool]) -> list[dict[str, Any]]:
        return [{"cell_type": "code", "source": s, "metadata": {"tags": [RENDERED_ONCE] if once else []}}
                for s, once in sources]

    assert check_rendered_once(cells(("import polars as pl\nt = pl.DataFrame()\nxs = [c for c in 'ab']", True),
                                     ("print([c for c in 'cd'])", False), ("t = 1\nprint(t)", False))) == []
    assert check_rendered_once(cells(("sim = 1", True), ("def f(x):\n    return x", False),
                                     ("print(sim)", False))) == [
        "cell 3 reads 'sim', which cell 1 binds, but that cell is rendered-once: no student's kernel runs it"]
    one = cells(("x = 1", True))
    assert lesson_key(one, {"RUMMYLAB_SEED": "7"}) != lesson_key(one, {"RUMMYLAB_SEED": "8"})
    assert lesson_key(one, {}) != lesson_key(cells(("x = 2", True)), {})
