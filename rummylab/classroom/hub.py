"""rummylab on JupyterHub: each student is a hub user whose own server serves the lessons as the app
and nothing else (``app_command``: ``rummylab serve --hub-server``, Voilà's own app behind the hub's
login: no JupyterLab, console, terminal, contents or kernels API, and a kernel takes no
``execute_request``), opening at the lesson of the day; the rummylab hub service
(``rummylab.classroom.hub_service``) alone holds the progress database, grades every check itself
and serves the teacher page to a teacher group. ``--lab`` (a coding class) gives each student
JupyterLab with Voilà as a server extension instead (``singleuser_args``): she runs code, but still
reaches no secret and no grade.

``rummylab hub --config-only FILE`` writes a ``jupyterhub_config.py`` that calls ``configure``;
``rummylab hub`` writes it to its state folder and runs JupyterHub on it. The database's password
never goes on a command line: it comes from ``PGPASSWORD`` or ``~/.pgpass`` and reaches the service
alone, in a file of mode 600 (``service_secrets``).
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import secrets
import shutil
import signal
import subprocess
import sys
import urllib.parse
from collections.abc import Callable
from pathlib import Path
from typing import Any

SERVICE = "rummylab"
TEACHER_GROUP = "teachers"
TEACHER = "teacher"
"""The teacher's hub user (in the teacher group) that ``configure`` names; more can be added."""
PASSWORD_ENV = "RUMMYLAB_HUB_PASSWORD"
"""The class's shared password for ``--students 0`` (anyone, any name: a trial; one is made up and
printed when it is not set). Named students each have their own (``student_passwords``)."""
TEACHER_PASSWORD_ENV = "RUMMYLAB_HUB_TEACHER_PASSWORD"
"""The teacher's own password, 32 characters at least (made up and printed when not set): with the
class password alone anyone could log in as the teacher."""
SPAWNERS = {"local": "jupyterhub.spawner.LocalProcessSpawner", "simple": "jupyterhub.spawner.SimpleLocalProcessSpawner"}
"""local: each student a system account (a school's hub). simple: no accounts, every student's server
runs as the hub's own user with no isolation (a trial or a test; JupyterHub says: never in production),
and never as root (``check_spawner``)."""
LESSONS_ENV = "RUMMYLAB_LESSONS"
"""The folder of lessons the service grades from (its key: ``hub_service.Grader``)."""
LESSON_OF_THE_DAY_ENV = "RUMMYLAB_LESSON_OF_THE_DAY"
"""The lesson whose exercises the service reads first."""
PGPASSFILE = "rummylab-service.pgpass"
"""The database password for the service alone (libpq's password file, mode 600, in the state folder)."""
def proxy_command() -> list[str]:
    """configurable-http-proxy: in the venv's ``node_modules`` (``make test`` puts it there), else on PATH."""
    for candidate in (Path(sys.prefix) / "node_modules" / ".bin" / "configurable-http-proxy",
                      shutil.which("configurable-http-proxy")):
        if candidate and Path(candidate).exists():
            return [str(candidate)]
    raise ValueError("JupyterHub's proxy is not installed: npm install --prefix "
                     f"{sys.prefix} configurable-http-proxy (or npm install -g configurable-http-proxy)")


def _free_port() -> int:
    from .serve import free_port

    return free_port()


def student_names(students: int) -> list[str]:
    """``student01`` … for a class of ``students``."""
    if not 0 <= students <= 500:
        raise ValueError(f"--students {students}: 0 to 500")
    return [f"student{i:02d}" for i in range(1, students + 1)]


def copy_lessons_hook(lessons: Path) -> Callable[[Any], None]:
    """A ``pre_spawn_hook``: the lessons of ``lessons`` into the student's home, the teacher's copy
    replacing an older one (a student's answers live in the store, not the notebooks)."""

    def copy(spawner: Any) -> None:
        home = Path(getattr(spawner, "home_dir", "") or os.path.expanduser(f"~{spawner.user.name}"))
        home.mkdir(mode=0o700, parents=True, exist_ok=True)
        owner = _owner(spawner.user.name)
        if owner is not None or home.stat().st_uid == os.getuid():
            os.chmod(home, 0o700)  # her home is hers alone (Debian makes homes 755: others could list it)
        for nb in sorted(lessons.glob("*.ipynb")):
            _write_own(home / nb.name, nb.read_bytes(), owner)

    return copy


def _write_own(target: Path, data: bytes, owner: tuple[int, int] | None) -> None:
    """Write ``data`` to ``target`` in a student's home as a new file of hers. What stands there is
    unlinked first, never followed: as root, a link she made to another file (the hub's secrets,
    /etc/passwd) would otherwise be overwritten and handed to her."""
    with contextlib.suppress(FileNotFoundError):
        os.unlink(target)  # her link (or her old copy) goes; what it pointed to is untouched
    fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o644)
    try:
        if owner is not None:  # a system account's home: the student owns her lessons
            os.fchown(fd, *owner)
        os.write(fd, data)
    finally:
        os.close(fd)


def _owner(name: str) -> tuple[int, int] | None:
    """(uid, gid) of a system account when the hub runs as root, else None."""
    if os.name != "posix" or os.getuid() != 0:
        return None
    import pwd

    try:
        entry = pwd.getpwnam(name)
    except KeyError:
        return None
    return entry.pw_uid, entry.pw_gid


def singleuser_args() -> list[str]:
    """The options of a student's JupyterLab (``--lab``): Voilà with the rummylab template, a left
    page's kernel shut down, no terminals, short lesson errors, no news or update checks fetched."""
    args = ["--ServerApp.terminals_enabled=False",
            "--LabApp.news_url=None", "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate",
            "--VoilaConfiguration.template=rummylab",
            "--VoilaConfiguration.show_tracebacks=False",
            "--VoilaExecutor.allow_errors=True",
            "--VoilaExecutor.iopub_timeout=30",
            "--ServerApp.kernel_manager_class=rummylab.classroom.hub_server.LeftPagesClosedKernels",
            "--ServerApp.jpserver_extensions=rummylab.classroom.hub_server=True"]
    # kernels on TCP, not ipc as in rummylab serve: a server holds a kernel or two (no race for ports),
    # and ipc sockets live in the home's runtime folder, whose path can pass the 107 bytes a socket name has
    if os.name == "posix" and os.getuid() == 0:
        args.append("--allow-root")
    return args


MAX_WARM = 1
"""Warm kernels a student's server may keep (``--warm``): one, which she takes; it is not replaced
while she has it (``serve --hub-server``), so she costs one kernel whatever she does."""


def app_command(lesson: str, warm: int = 0, lang: str | None = None) -> list[str]:
    """A student's server that serves the lessons as the app and nothing else: ``rummylab serve``
    on her home (where the lessons are copied), as a hub server (``serve --hub-server``: the hub's
    port, prefix and login, her own kernels' hub login, no teacher page), with ``warm`` kernels that
    have run ``lesson`` before she opens it (0: her kernel starts when she opens it)."""
    if not 0 <= warm <= MAX_WARM:
        raise ValueError(f"--warm {warm}: 0 or {MAX_WARM} (a kernel that has run the lesson before she opens it)")
    return [sys.executable, "-m", "rummylab.cli", "serve", ".", "--hub-server", f"--students={warm}",
            f"--lesson={lesson}", *([f"--lang={lang}"] if lang else [])]



def private_folder(folder: Path) -> None:
    """``folder`` made (or kept) readable by its owner only: the hub's secrets and database."""
    folder.mkdir(parents=True, exist_ok=True, mode=0o700)
    if folder.stat().st_uid == os.getuid():
        os.chmod(folder, 0o700)


def check_spawner(spawner: str) -> None:
    """ValueError for an unknown spawner, or ``simple`` run as root (every student's code as root)."""
    if spawner not in SPAWNERS:
        raise ValueError(f"spawner {spawner!r}: one of {', '.join(SPAWNERS)}")
    if spawner == "simple" and os.name == "posix" and os.getuid() == 0:
        raise ValueError("--spawner simple runs every student's server as the hub's own user, here root: run the "
                         "hub as an unprivileged user, or use --spawner local (students as system accounts)")


def check_db(db: str) -> Any:
    """The progress database's address checked: ValueError for a bad one, or one holding a password
    (a command line is seen by every local account): the password goes in PGPASSWORD or ~/.pgpass."""
    from ..progress import parse

    target = parse(db)
    query = urllib.parse.parse_qs(urllib.parse.urlsplit(db).query) if "://" in db else {}
    if target.password or any(key.lower() in ("password", "passfile") for key in query):
        raise ValueError(f"--db {target.shown}: no password in the address (every account on this machine can read "
                         "a command line): put it in PGPASSWORD or ~/.pgpass, which reach the rummylab service alone")
    return target


def service_secrets(state: Path, db: str, environ: Any = os.environ) -> dict[str, str]:
    """The service's environment for the database ``db``: its address, and the password, when
    ``PGPASSWORD`` gives one, in a libpq password file of mode 600 in ``state`` (``PGPASSFILE``);
    else libpq reads ``PGPASSFILE`` or the hub user's ``~/.pgpass`` itself. Nothing here reaches a
    student: JupyterHub gives a service's environment to the service alone."""
    env = {"RUMMYLAB_DB": db}
    password = environ.get("PGPASSWORD", "")
    target = check_db(db)
    if target.engine != "postgresql":
        return env
    path = state / PGPASSFILE
    private_folder(state)
    if password:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            escaped = password.replace("\\", "\\\\").replace(":", "\\:")
            f.write(f"*:*:*:*:{escaped}\n")
        os.chmod(path, 0o600)
        env["PGPASSFILE"] = str(path)
    elif path.is_file():  # written by ``rummylab hub`` before it started the hub without PGPASSWORD
        env["PGPASSFILE"] = str(path)
    elif environ.get("PGPASSFILE"):
        env["PGPASSFILE"] = environ["PGPASSFILE"]
    return env


def configure(c: Any, *, lessons: str, lesson: str, db: str, password: str, teacher_password: str,
              students: int = 0,
              teacher_group: str = TEACHER_GROUP, ip: str = "127.0.0.1", port: int = 8000,
              state_dir: str = ".", spawner: str = "local", classes: dict[str, list[str]] | None = None,
              warm: int = 0, lab: bool = False, hashes: dict[str, str] | None = None, lang: str | None = None) -> None:
    """Fill the JupyterHub config ``c``: students ``student01``… (``students``) log in each with her
    own password (``hashes``: ``hub_auth.hashed`` of each), or with ``students=0`` anyone under any
    name with the class ``password``; the hub user ``teacher`` (an admin, in ``teacher_group``) with
    ``teacher_password`` only; each
    student's server opens at ``lesson`` of ``lessons`` (copied into her home at spawn), checks go
    to the rummylab service, which alone holds ``db`` and reads the hub's groups (``classes``, a
    group's name -> its students, and any made on the hub's admin page) for the teacher page's
    classes. Each student's server serves the lessons as the app only (``app_command``, with ``warm``
    kernels run ahead), or with ``lab`` JupyterLab with Voilà (``singleuser_args``). The service
    grades checks from ``lessons`` and alone holds the database (``service_secrets``). With ``lang``
    the class starts in that language (each student may choose another on its first page), and the
    teacher page speaks it. Internal ports are picked at start."""
    from ..i18n import LANG_ENV, check_language
    from .class_code import find_lessons
    from .serve import EVERY_ADDRESS, LOOPBACK

    lang = check_language(lang) if lang is not None else None
    language = {LANG_ENV: lang} if lang else {}
    folder = Path(lessons).resolve()
    if not folder.is_dir():
        raise ValueError(f"{folder}: no such folder of lessons")
    chosen = find_lessons(folder, [lesson])[0]
    check_spawner(spawner)
    if lab and warm:
        raise ValueError("--warm is for the app (the default), not --lab")
    from ..lessons.rendered import OUTPUTS_ENV
    from ..page_template import data_dir

    state = Path(state_dir).resolve()
    private_folder(state)
    templates = data_dir()  # the student servers read the page template where rummylab is installed
    public = "127.0.0.1" if ip in EVERY_ADDRESS or ip in LOOPBACK else ip
    service_url = f"http://{public}:{port}/services/{SERVICE}/"

    c.JupyterHub.bind_url = f"http://{ip}:{port}"
    c.JupyterHub.hub_bind_url = f"http://127.0.0.1:{_free_port()}"
    c.ConfigurableHTTPProxy.api_url = f"http://127.0.0.1:{_free_port()}"
    c.ConfigurableHTTPProxy.command = proxy_command()
    c.ConfigurableHTTPProxy.pid_file = str(state / "proxy.pid")
    c.JupyterHub.db_url = f"sqlite:///{state / 'jupyterhub.sqlite'}"
    c.JupyterHub.cookie_secret_file = str(state / "jupyterhub_cookie_secret")
    c.JupyterHub.pid_file = str(state / "jupyterhub.pid")
    c.Authenticator.admin_users = {TEACHER}
    names = student_names(students)
    if names:  # each student her own password (hub_auth): nobody logs in as a classmate
        if hashes is None or set(hashes) != set(names):
            raise ValueError("named students need their passwords: hashes for each (hub_options makes them)")
        from .hub_auth import hashed

        c.JupyterHub.authenticator_class = "rummylab.classroom.hub_auth.ClassPasswords"
        c.ClassPasswords.hashes = {**hashes, TEACHER: hashed(teacher_password)}
        c.Authenticator.allowed_users = {*names, TEACHER}
    else:  # a trial: anyone with the class password, under any name (no name is proof of anyone)
        c.JupyterHub.authenticator_class = "shared-password"
        c.SharedPasswordAuthenticator.user_password = password
        c.SharedPasswordAuthenticator.admin_password = teacher_password  # admin users need this one
        c.Authenticator.allow_all = True
    groups = check_classes(classes or {}, names, teacher_group)
    c.JupyterHub.load_groups = {teacher_group: {"users": [TEACHER]},
                                **{name: {"users": members} for name, members in groups.items()}}
    c.JupyterHub.load_roles = [{"name": "rummylab-teachers", "groups": [teacher_group],
                                "scopes": [f"access:services!service={SERVICE}"]},
                               # the service reads the classes (the hub's groups and their members), nothing more
                               {"name": "rummylab-service", "services": [SERVICE],
                                "scopes": ["list:groups", "read:groups"]}]
    c.JupyterHub.services = [{
        "name": SERVICE, "url": f"http://127.0.0.1:{_free_port()}",
        "command": [sys.executable, "-m", "rummylab.classroom.hub_service"],
        "environment": {**service_secrets(state, db), "RUMMYLAB_CLASS_URL": f"http://{public}:{port}/",
                        LESSONS_ENV: str(folder), LESSON_OF_THE_DAY_ENV: chosen, **language},
        "cwd": str(state), "oauth_no_confirm": True, "display": False}]  # its key-cache/ is in the state folder
    c.JupyterHub.spawner_class = SPAWNERS[spawner]
    if spawner == "simple":
        c.SimpleLocalProcessSpawner.home_dir_template = str(state / "homes" / "{username}")
    c.Spawner.pre_spawn_hook = copy_lessons_hook(folder)
    c.Spawner.cmd = [sys.executable, "-m", "jupyterhub.singleuser"] if lab else app_command(chosen, warm, lang)
    c.Spawner.default_url = f"/voila/render/{lang}/{chosen}" if lang and not lab else f"/voila/render/{chosen}"
    c.Spawner.args = singleuser_args() if lab else []
    # the kernels know the service's URL and nothing else of the class (env_keep passes no secret)
    c.Spawner.environment = {"RUMMYLAB_DB": f"rummylab+{service_url}", **CLASS_SETTINGS, **language,
                             "JUPYTER_PATH": str(templates), OUTPUTS_ENV: str(outputs_folder(state))}
    c.Spawner.http_timeout = 120


_NAME = re.compile(r"[A-Za-z0-9][\w.-]{0,63}")


def check_classes(classes: dict[str, list[str]], students: list[str], teacher_group: str) -> dict[str, list[str]]:
    """``classes`` (a hub group's name -> its students) checked: names of letters, digits, ``-._``,
    the students among ``students`` when the class list is fixed; ValueError names a bad one."""
    for name, members in classes.items():
        if not _NAME.fullmatch(name) or name == teacher_group:
            raise ValueError(f"--class {name!r}: a name of letters, digits, - _ or ., not the teacher group")
        if not members or not all(_NAME.fullmatch(m) for m in members):
            raise ValueError(f"--class {name}: its students, e.g. {name}=student01,student02")
        unknown = sorted(set(members) - set(students)) if students else []
        if unknown:
            raise ValueError(f"--class {name}: {', '.join(unknown)} not among the students "
                             f"({students[0]} to {students[-1]})")
    return {name: sorted(set(members)) for name, members in classes.items()}


def parse_classes(given: list[str]) -> dict[str, list[str]]:
    """``--class NAME=USER,USER`` options as {NAME: [USER, ...]} (a name given twice: its students joined)."""
    classes: dict[str, list[str]] = {}
    for item in given:
        name, sep, members = item.partition("=")
        if not sep:
            raise ValueError(f"--class {item!r}: NAME=student01,student02")
        classes.setdefault(name.strip(), []).extend(m.strip() for m in members.split(",") if m.strip())
    return classes


def config_text(**options: Any) -> str:
    """A ``jupyterhub_config.py`` that calls ``configure`` with ``options`` (it holds the class
    password and database address: written readable by its owner only)."""
    arguments = "".join(f"    {key}={json.dumps(value)},\n" for key, value in options.items())
    return ("# JupyterHub for a rummylab class, written by `rummylab hub` (keep it private: it holds the\n"
            "# class password and the progress database's address). Edit freely: e.g. another\n"
            "# c.JupyterHub.authenticator_class after configure(...).\n"
            "import os\n\n"
            "from rummylab.classroom.hub import configure\n\n"
            f"configure(\n    c,\n{arguments})\n"
            "os.umask(0o077)  # what the hub writes from here on (its database, the progress store) is its own\n")


def write_config(path: Path | str, **options: Any) -> Path:
    """Write ``config_text(**options)`` to ``path`` (mode 600)."""
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        f.write(config_text(**options))
    os.chmod(target, 0o600)
    return target


def hub_options(lessons: str | None, lesson: str | None, students: int, db: str | None, teacher_group: str,
                ip: str, port: int, state_dir: str, spawner: str,
                classes: list[str] | None = None, warm: int = 0,
                lab: bool = False, lang: str | None = None) -> tuple[dict[str, Any], str | None]:
    """The options of ``configure`` from the command line, and the passwords made up, to print
    (None when the environment gave both). ValueError names a bad option."""
    from .class_code import find_lessons, first_lesson
    from .hub_auth import hashed
    from .serve import lessons_dir

    folder = Path(lessons).resolve() if lessons else lessons_dir()
    if not folder.is_dir():
        raise ValueError(f"{folder}: no such folder of lessons")
    chosen = find_lessons(folder, [lesson])[0] if lesson else (first_lesson(folder) or [""])[0]
    if not chosen:
        raise ValueError(f"{folder} holds no lesson (.ipynb)")
    state = Path(state_dir).resolve()
    store = db or f"sqlite:///{state / 'progress.sqlite'}"
    check_db(store)  # a bad address, or one with a password, is said now
    check_spawner(spawner)
    names = student_names(students)
    if not teacher_group.replace("-", "").replace("_", "").isalnum():
        raise ValueError(f"--teacher-group {teacher_group!r}: letters, digits, - or _")
    groups = check_classes(parse_classes(classes or []), names, teacher_group)
    given = os.environ.get(PASSWORD_ENV, "")
    password = given or secrets.token_urlsafe(9)
    if len(password) < 8:
        raise ValueError(f"{PASSWORD_ENV}: at least 8 characters")
    teacher_given = os.environ.get(TEACHER_PASSWORD_ENV, "")
    teacher_password = teacher_given or secrets.token_urlsafe(24)
    if len(teacher_password) < 32 or teacher_password == password:
        raise ValueError(f"{TEACHER_PASSWORD_ENV}: at least 32 characters, not the class password")
    options: dict[str, Any] = {"lessons": str(folder), "lesson": chosen, "db": store, "password": password,
               "teacher_password": teacher_password, "students": students, "teacher_group": teacher_group,
               "ip": ip, "port": port, "state_dir": str(state), "spawner": spawner}
    if groups:
        options["classes"] = groups
    if lab and warm:
        raise ValueError("--warm is for the app (the default), not --lab")
    if warm:
        app_command(chosen, warm)  # a bad number is said now
        options["warm"] = warm
    if lab:
        options["lab"] = True
    if lang is not None:
        from ..i18n import check_language

        options["lang"] = check_language(lang)
    made_up = [f"class password: {password} (set {PASSWORD_ENV} to choose it)"] if not given and not names else []
    made_up += [f"teacher password: {teacher_password} (set {TEACHER_PASSWORD_ENV} to choose it)"] \
        if not teacher_given else []
    if names:
        kept = student_passwords(state, names)
        options["hashes"] = {name: hashed(word) for name, word in kept.items()}
        made_up.append(f"each student's password: {state / STUDENT_PASSWORDS} (hand them out)")
    return options, "; ".join(made_up) or None


STUDENT_PASSWORDS = "student-passwords.csv"
"""Each student's password, for the teacher to hand out (mode 600 in the state folder)."""


def student_passwords(state: Path, names: list[str]) -> dict[str, str]:
    """Each of ``names``'s password: kept from ``state``'s ``STUDENT_PASSWORDS`` (a hub started
    again keeps them), made up for a name not there yet, and the file written back (mode 600)."""
    import csv

    from .hub_auth import passwords

    path = state / STUDENT_PASSWORDS
    kept: dict[str, str] = {}
    if path.is_file():
        with open(path, encoding="utf-8", newline="") as f:
            kept = {row["student"]: row["password"] for row in csv.DictReader(f) if row.get("password")}
    made = passwords([name for name in names if name not in kept])
    everyone = {name: kept.get(name) or made[name] for name in names}
    private_folder(state)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8", newline="") as f:
        out = csv.writer(f)
        out.writerow(["student", "password"])
        out.writerows(everyone.items())
    os.chmod(path, 0o600)
    return everyone


CLASS_SETTINGS = {"RUMMYLAB_APP": "1", "RUMMYLAB_CHARTS": "svg"}
"""What a student's lesson kernel runs under (the settings its rendered-once cells are rendered with)."""


def outputs_folder(state: Path) -> Path:
    """Where the hub keeps its lessons' rendered-once outputs: beside its private state folder,
    readable by every student's server, written by the hub's account alone."""
    return state.parent / f"{state.name}-outputs"


def render_lessons(folder: Path, first: str, state: Path) -> tuple[list[str], subprocess.Popen[bytes] | None]:
    """Render the lesson of the day's rendered-once cells (``lessons.rendered``) for the students'
    kernels now, and the folder's other lessons in a background process at a lower priority (the
    caller stops it with the hub): the lessons rendered now, and that process."""
    from ..lessons.rendered import SETTINGS, render
    from ..lessons.runner import lessons_in

    out = outputs_folder(state)
    out.mkdir(mode=0o755, parents=True, exist_ok=True)
    os.chmod(out, 0o755)  # students read it (their servers run as them); only the hub writes it
    lessons = lessons_in(folder)
    done = render([p for p in lessons if p.name == first], CLASS_SETTINGS, out)
    rest = [str(p) for p in lessons if p.name != first]
    if not rest:
        return done, None
    env = {k: v for k, v in os.environ.items() if k not in SETTINGS and k != "PGPASSWORD"} | CLASS_SETTINGS
    background = subprocess.Popen([sys.executable, "-m", "rummylab.lessons.rendered", *rest, "--out", str(out)],
                                  env=env, stdout=subprocess.DEVNULL,
                                  preexec_fn=(lambda: os.nice(10)) if os.name == "posix" else None)
    return done, background


def run_hub(config: Path, state_dir: Path) -> int:
    """Run JupyterHub on ``config`` until interrupted; its proxy and the student servers stop with it.
    ``PGPASSWORD`` is not passed on: ``service_secrets`` wrote it for the service alone."""
    cmd = [sys.executable, "-m", "jupyterhub", "-f", str(config)]
    env = {k: v for k, v in os.environ.items() if k != "PGPASSWORD"}
    proc = subprocess.Popen(cmd, cwd=state_dir, env=env)  # the config sets the hub's umask

    def stop(signum: int, frame: Any) -> None:
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, stop)
    try:
        return proc.wait()
    except KeyboardInterrupt:
        proc.terminate()  # JupyterHub stops the servers it spawned, the service and the proxy
        try:
            return proc.wait(30)
        except subprocess.TimeoutExpired:
            proc.kill()
            return 0
