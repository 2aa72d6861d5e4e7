"""Serve the lessons as a click-through app with Voilà, on 127.0.0.1 only, fully offline.

Voilà runs the kernels (warm ones for a class) and renders each lesson; the ``rummylab``
template, shipped in the package (``page_template``), draws the lesson with a light page of its own
(``rummylab/app``) and the lesson index without Voilà's CDN links.
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
from pathlib import Path
from typing import Any

from ..lessons.files import copy_lessons, lessons_dir  # noqa: F401  (serve's before: the CLI and tests use them)

LAB_EXTRA = 'pip install "rummylab[lab]"'


def require_voila() -> None:
    """A clear one-line error (not a traceback) when the lab extra is not installed, or its Voilà is
    not one the tests ran (``voila_patches.check_voila``)."""
    if importlib.util.find_spec("voila") is None:
        raise ValueError(f"serving lessons needs Voilà, which is not installed: {LAB_EXTRA}")
    from .voila_patches import check_voila

    check_voila()


def wait_for_http(url: str, timeout: float = 180) -> bool:
    """Wait until ``url`` answers (a server starting); False if it has not within ``timeout``."""
    import time
    import urllib.request

    end = time.monotonic() + timeout
    while time.monotonic() < end:
        try:
            with urllib.request.urlopen(url, timeout=2):
                return True
        except OSError:
            time.sleep(0.3)
    return False


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def next_free_port(port: int, ip: str = "127.0.0.1") -> int:
    """``port`` + 1 when nothing listens there on ``ip``, else any free port."""
    host = "" if ip in EVERY_ADDRESS else ip
    with socket.socket() as s:
        try:
            s.bind((host, port + 1))
        except OSError:
            s.bind((host, 0))
        return int(s.getsockname()[1])


def progress_db(path: Path | str, db: Path | str | None = None) -> Path | str:
    """Where a class's checks go: ``db`` (a SQLite file as an absolute path, a PostgreSQL URL as
    given), else ``RUMMYLAB_DB``, else ``progress.sqlite`` in the served folder. ValueError for a
    bad address."""
    from ..progress import DB_ENV, parse
    from ..progress.hub_client import is_service_url

    db = db if db is not None else (os.environ.get(DB_ENV, "").strip() or None)
    if db is None:
        folder = Path(path) if Path(path).is_dir() else Path(path).parent
        return (folder / "progress.sqlite").resolve()
    if is_service_url(db):  # a hub's rummylab service (a student's server on a hub): kernels send it checks
        return str(db)
    target = parse(db)
    return target.path if target.path is not None else str(db)


LOOPBACK = ("127.0.0.1", "localhost", "::1")
EVERY_ADDRESS = ("0.0.0.0", "::")
KERNEL_MB = 110
"""About what one warm lesson kernel holds (benchmarks/kernel_memory.py, 2026-11-27: 64 MB for a
lesson without polars, 92-109 MB with it, lesson 11 132 MB)."""


def voila_command(path: Path | str | None = None, port: int = 8866, db: Path | str | None = None, *,
                  ip: str = "127.0.0.1", code: str | None = None, students: int = 0,
                  lessons: list[str] | None = None, base_url: str = "/",
                  hub_login: bool = False) -> tuple[list[str], dict[str, str]]:
    """The command and environment that serve ``path`` (a notebook or a folder) with Voilà on
    ``ip``; the kernels record named students' checks in ``progress_db(path, db)``. With
    ``code`` only a visitor who types it gets a lesson; with ``students``, that many kernels
    per lesson of ``lessons`` (file names) are started and run ahead of time. ``base_url``: the
    path the class is served under (behind a hub or a proxy); ``hub_login``: every page needs the
    hub's login (``hub_login.HubLogin``; a class code is not used)."""
    from ..charts import CHARTS_ENV
    from ..lessons.exercises import APP_ENV
    from ..page_template import TEMPLATE, data_dir
    from ..progress import DB_ENV
    from .class_kernel import CLASS_KERNELS

    path = path or lessons_dir()
    templates = data_dir()  # read where installed, never written
    base_url = check_base_url(base_url)
    env = dict(os.environ)
    if not hub_login:  # the kernels copy Voilà's environment: no hub token (a teacher's) for a student
        env = {k: v for k, v in env.items() if not k.startswith("JUPYTERHUB_")}
    env[DB_ENV] = str(progress_db(path, db))
    env.setdefault(CHARTS_ENV, "svg")  # charts as SVG from the kernels: the page loads no Vega
    env[APP_ENV] = "1"  # exercises say "type your answer below", not "run the cell again"
    # the page template, and the class's kernel (no debugger: class_kernel) as the python3 kernel spec
    env["JUPYTER_PATH"] = os.pathsep.join(filter(None, [str(templates), str(CLASS_KERNELS),
                                                        env.get("JUPYTER_PATH", "")]))
    cmd = [sys.executable, "-m", "rummylab.classroom", str(path), "--no-browser", f"--port={port}",
           f"--Voila.ip={ip}", f"--template={TEMPLATE}",
           # a cell that raises shows one short line and the lesson goes on; the log has the traceback
           "--show_tracebacks=False", "--VoilaExecutor.allow_errors=True",
           "--VoilaConfiguration.classic_tree=True",  # a sub-folder's list, drawn by the server
           # a class starting at once keeps the CPU busy: wait for outputs and kernels longer
           "--VoilaExecutor.iopub_timeout=30", "--VoilaExecutor.startup_timeout=300"]
    if os.name == "posix":  # kernels talk over Unix sockets: thirty starting at once can race for
        cmd.append("--KernelManager.transport=ipc")  # the same free TCP port (one then dies)
    if base_url != "/":  # served and routed under the same path (jupyter-server-proxy: absolute_url)
        cmd += [f"--Voila.base_url={base_url}", f"--Voila.server_url={base_url}"]
    if hub_login:  # hub_login's main takes the hub's variables out of Voilà before any kernel copies them
        cmd[2] = "rummylab.classroom.hub_login"
        cmd.append("--Voila.identity_provider_class=rummylab.classroom.hub_login.HubLogin")
    elif code:
        cmd += [f"--token={code}", "--Voila.identity_provider_class=rummylab.classroom.class_code.ClassCodeProvider"]
    if students and Path(path).is_dir():
        from .class_code import pool_options

        cmd += pool_options(lessons or [], students)
    return cmd, env


def check_base_url(base_url: str) -> str:
    """``base_url`` as a path that starts and ends with ``/``; ValueError for one that is not a path."""
    if not isinstance(base_url, str) or not re.fullmatch(r"/?([\w.~-]+/)*[\w.~-]*/?", base_url):
        raise ValueError(f"--base-url {base_url!r}: a path such as /user/ada/proxy/8866/ (letters, digits, -._~)")
    return "/" + base_url.strip("/") + "/" if base_url.strip("/") else "/"


def serve(path: Path | str | None = None, port: int | None = None, db: Path | str | None = None, *,
          ip: str | None = None, code: str | None = None, students: int = 0, lessons: list[str] | None = None,
          teacher_port: int | None = None, teacher_token: str | None = None, base_url: str | None = None,
          hub_server: bool = False, lang: str | None = None) -> int:
    """Serve a class until interrupted (Ctrl+C): the lessons with Voilà, warm kernels for the
    lessons of the day, a class code when students connect from other devices, and a teacher
    page. Started by JupyterHub as a service, it listens where the hub says, under its prefix, and
    every page needs the hub's login (``hub_login``). With ``hub_server``, it is a student's own
    server on a hub (``rummylab hub --warm``): the same, her kernels keep her own hub login for her
    checks, and the hub service has the teacher page. With ``lang`` (``hi``, ``ro``…) the lessons are
    built in that language and every page and kernel speaks it. Returns Voilà's exit status."""
    require_voila()
    from .class_code import check_code, find_lessons, first_lesson, new_code

    path = Path(path or lessons_dir())
    if not path.exists():
        raise ValueError(f"{path}: no such lesson or folder")
    language = None
    if lang is not None:  # every language built beside the English lessons; the class starts in ``lang``
        from ..i18n import LANG_ENV, check_language

        db = progress_db(path, db)  # the checks stay where the English class's go
        language = check_language(lang)
        os.environ[LANG_ENV] = language  # the index, the teacher page and the kernels
        root = class_folder(path, own_catalogs=not hub_server)
        path = root / language / path.name if path.is_file() else root
    hub = hub_service(single_user=hub_server)
    if hub_server and not hub:
        raise ValueError("--hub-server: JupyterHub did not start this server (JUPYTERHUB_USER, "
                         "JUPYTERHUB_API_TOKEN and JUPYTERHUB_SERVICE_URL are not all set)")
    if hub:  # the hub's port, prefix and login; the options given still win
        ip, port, base_url = ip or hub["ip"], port or hub["port"], base_url or hub["base_url"]
    ip, port, base_url = ip or "127.0.0.1", port or 8866, check_base_url(base_url or "/")
    if hub:
        code = None  # the hub's login, not a class code
    elif code is None and ip not in LOOPBACK:
        code = new_code()  # other devices can reach the class: only those told the code get in
    code = code and check_code(code)
    teacher_token = check_code(teacher_token, "teacher token") if teacher_token else new_code(12)
    folder = path if path.is_dir() else path.parent
    chosen = find_lessons(folder, lessons) if lessons else first_lesson(folder)
    chosen = chosen if students and path.is_dir() else []
    if language is not None:  # the lessons of the day in the class's language
        chosen = [f"{language}/{name}" for name in chosen]
    cmd, env = voila_command(path, port, db, ip=ip, code=code, students=students, lessons=chosen,
                             base_url=base_url, hub_login=bool(hub))
    from ..i18n import _

    shown = "127.0.0.1" if ip in LOOPBACK else (_("<this machine's address>") if ip in EVERY_ADDRESS else ip)
    class_url = _("the hub's {path} (its login)").format(path=base_url) if hub else f"http://{shown}:{port}{base_url}"
    tport = teacher_port or next_free_port(port, ip)
    print("rummylab: " + _("serving {path} at {url} (Ctrl+C stops)").format(path=path, url=class_url), flush=True)
    if code:
        print("  " + _("class code: {code}   (students type it on the first page)").format(code=code), flush=True)
    if chosen:
        print("  " + _("warming {lessons}: {n} kernel(s) each, about {gb} GB; each lesson is run ahead of time").format(
            lessons=", ".join(chosen), n=students, gb=f"{KERNEL_MB * students * len(chosen) / 1000:.1f}"), flush=True)
    if not hub_server:
        print("  " + _("teacher page: {url}").format(url=f"http://{shown}:{tport}/?token={teacher_token}"), flush=True)
    else:  # a student's own server: Voilà in this process (no second one to hold), its warm kernel not
        from .voila_patches import ONE_KERNEL_ENV

        env[ONE_KERNEL_ENV] = "1"  # replaced while she has it (one kernel a student)
        os.execve(cmd[0], cmd, env)
    from ..lessons.rendered import OUTPUTS_ENV

    rest = render_for_class(folder, path, chosen, env, language)
    proc = subprocess.Popen(cmd, env=env)
    if rest:  # the other lessons, rendered while the class goes on, at a lower priority
        background = subprocess.Popen([sys.executable, "-m", "rummylab.lessons.rendered", *map(str, rest), "--out",
                                       env[OUTPUTS_ENV]], env=env, stdout=subprocess.DEVNULL,
                                      preexec_fn=(lambda: os.nice(10)) if os.name == "posix" else None)
    signal.signal(signal.SIGTERM, _interrupt)  # a stopped class stops its Voilà and kernels too
    try:
        if not hub_server:  # a student's server on a hub: the hub service has the teacher page
            _run_teacher_page(progress_db(path, db), teacher_token, class_url, ip, tport, proc)
        return proc.wait()
    except KeyboardInterrupt:
        proc.terminate()
        try:
            return proc.wait(15)
        except subprocess.TimeoutExpired:
            proc.kill()
            return 0
    finally:
        if rest and background.poll() is None:
            background.terminate()


def in_language(path: Path, lang: str) -> Path:
    """The lesson (or folder of lessons) ``path`` in ``lang``: built from its catalogs into
    ``class_folder``'s LANG sub-folder (English too, with its language cell). The process and its
    kernels then speak ``lang`` (``RUMMYLAB_LANG``)."""
    from ..i18n import LANG_ENV, check_language

    code = check_language(lang)
    os.environ[LANG_ENV] = code
    where = class_folder(path) / code
    return where / path.name if path.is_file() else where


def class_folder(path: Path, own_catalogs: bool = True) -> Path:
    """The folder a class is served from: the lessons' own (or, where that may not be written, a copy
    in this user's cache), with each language's lessons built in a sub-folder (``hi/``, ``ro/``:
    ``lessons.translate``) for the students who choose it on the class's first page."""
    from ..i18n.catalogs import LOCALES_ENV, reload
    from ..lessons.translate import lesson_languages, translate_folder

    folder = path if path.is_dir() else path.parent
    own = str((folder / "locale").resolve())
    if own_catalogs and (folder / "locale").is_dir() and own not in os.environ.get(LOCALES_ENV, "").split(os.pathsep):
        # a teacher's own lessons bring their own catalogs (not a student's server on a hub: her home is hers)
        os.environ[LOCALES_ENV] = os.pathsep.join(filter(None, [own, os.environ.get(LOCALES_ENV)]))
        reload()
    root = folder
    if not os.access(folder, os.W_OK):  # a copy of its own for each folder of lessons
        digest = hashlib.sha256(str(folder.resolve()).encode()).hexdigest()[:12]
        root = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "rummylab" / "class" / digest
        root.mkdir(parents=True, exist_ok=True)
        for nb in folder.glob("*.ipynb"):
            shutil.copy2(nb, root / nb.name)
    for code in ("en", *lesson_languages()):  # English too: each lesson then sets its kernel's language
        translate_folder(root, code, root / code)
    return root


def render_for_class(folder: Path, path: Path, chosen: list[str], env: dict[str, str],
                     language: str | None = None) -> list[Path]:
    """Render the cells of the lessons of the day that are the same for every student, once, before
    the class starts (``lessons.rendered``; its folder in ``env``); the folder's other lessons (in the
    class's ``language``, when it has one), for the server to render in the background."""
    from ..lessons.rendered import OUTPUTS_ENV, default_folder, render, settings_of
    from ..lessons.runner import lessons_in

    env.setdefault(OUTPUTS_ENV, str(default_folder()))
    lessons = lessons_in(path / language if language is not None and path.is_dir() else path)
    first = [folder / name for name in chosen] or lessons[:1]
    done = render(first, settings_of(env), Path(env[OUTPUTS_ENV]))
    if done:
        print(f"  rendered once for the class: {', '.join(done)}", flush=True)
    return [p for p in lessons if p not in first]


def hub_service(single_user: bool = False) -> dict[str, Any] | None:
    """Where JupyterHub says this service listens ({"ip", "port", "base_url"}), when it started
    ``rummylab serve`` as one (or, with ``single_user``, as a user's server), else None
    (``hub_login.service_env``)."""
    if not os.environ.get("JUPYTERHUB_SERVICE_NAME") and not single_user:
        return None
    try:
        from .hub_login import service_env
    except ImportError:
        raise ValueError("JupyterHub started rummylab serve as a service, but JupyterHub is not installed here: "
                         'pip install "rummylab[hub]"') from None
    return service_env(single_user=single_user)


def _interrupt(signum: int, frame: Any) -> None:
    raise KeyboardInterrupt


def _run_teacher_page(db: Path | str, token: str, class_url: str, ip: str, port: int,
                      voila: subprocess.Popen[bytes]) -> None:
    """Serve the teacher page until Voilà exits."""
    import asyncio

    from .class_code import teacher_app

    async def main() -> None:
        server = teacher_app(db, token, class_url).listen(port, address=ip)
        try:
            while voila.poll() is None:
                await asyncio.sleep(0.5)
        finally:
            server.stop()

    asyncio.run(main())
