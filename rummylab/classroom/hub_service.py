"""The rummylab hub service (``/services/rummylab/`` behind JupyterHub's proxy): it alone holds the
progress database and grades. Lesson kernels POST checks to ``api/checks`` with their student's hub
token: what she typed, for which exercise; the service asks the hub whose token it is, grades the
answer itself against the lessons it was given (``Grader``: the teacher's key, never the kernel's
verdict) and records that hub user (and the name she typed, as her display name only). Teachers (a hub group, given
``access:services!service=rummylab`` by a role) log in with the hub's OAuth and see the teacher page
of the whole hub, a lesson or a class (a hub group, read from the hub's API) at a time; anyone else
gets 403.

JupyterHub starts it (``python -m rummylab.classroom.hub_service``) with its ``JUPYTERHUB_*`` variables,
``RUMMYLAB_DB`` (and the database's password file, ``PGPASSFILE``) and ``RUMMYLAB_LESSONS``
(``rummylab.classroom.hub.configure``)."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import hashlib
import json
import os
import re
import secrets
import sys
import threading
import time
import urllib.parse
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from jupyterhub.services.auth import HubAuth, HubOAuth, HubOAuthCallbackHandler, HubOAuthenticated
from limits import parse, storage, strategies
from tornado import web

from ..progress import ANSWER_MAX, LABEL_MAX

CLASS_URL_ENV = "RUMMYLAB_CLASS_URL"
MAX_BODY = 1024 * 1024
"""A check is a few hundred bytes (4 kB at most), a request 100 at most; anything larger is refused
before it is read."""


CHECKS_A_MINUTE = "300/minute"
"""Checks one hub user may send (a moving window): a class sends a few a minute each, a kernel
uploading its spool after an outage three batches of 100; past it a request gets 429 and the
kernel keeps its checks in its spool for later (nothing is lost), so no student can flood the
class database or the teacher page. The ``limits`` package keeps the window, in memory."""


class Allowance:
    """How many checks each hub user may still send (``CHECKS_A_MINUTE``)."""

    def __init__(self, rate: str = CHECKS_A_MINUTE) -> None:
        self.item = parse(rate)
        self.window = strategies.MovingWindowRateLimiter(storage.MemoryStorage())

    def take(self, user: str, checks: int) -> bool:
        """Count ``checks`` against ``user``'s window: False (and nothing counted) when over it."""
        return bool(self.window.hit(self.item, user, cost=checks))

    def retry_after(self, user: str) -> int:
        """Seconds until ``user``'s window has room again."""
        return max(1, int(self.window.get_window_stats(self.item, user).reset_time - time.time()) + 1)


class Checks(web.RequestHandler):
    """``POST api/checks``: ``{"checks": [...]}`` (``progress.hub_client.SENT``), ``Authorization: token <the
    student's hub token>``; answers ``{"written": bool, "refused": [...]}``."""

    def initialize(self, db: str, hub_auth: HubAuth, grader: Grader, allowance: Allowance) -> None:
        self.db, self.auth, self.grader, self.allowance = db, hub_auth, grader, allowance

    def check_xsrf_cookie(self) -> None:
        """Kernels send a token, never a cookie: there is no cross-site form to guard against."""

    def _refuse(self, status: int, why: str) -> None:
        self.set_status(status)
        self.finish({"error": why})

    async def post(self) -> None:
        found = HubAuth.auth_header_pat.match(self.request.headers.get("Authorization", ""))
        user = await self.auth.user_for_token(found.group(1), sync=False) if found else None
        if not user or user.get("kind", "user") != "user":
            self._refuse(403, "the rummylab service needs a hub user's token")
            return
        try:
            body = json.loads(self.request.body or b"{}")
            checks = body.get("checks") if isinstance(body, dict) else None
            if not isinstance(checks, list) or not 1 <= len(checks) <= MAX_CHECKS:
                raise ValueError(f"send {{\"checks\": [...]}}: 1 to {MAX_CHECKS} checks")
        except ValueError as exc:  # a bad request, said to the kernel (which logs it)
            self._refuse(400, str(exc))
            return
        if not self.allowance.take(user["name"], len(checks)):  # the kernel keeps them for later
            self.set_header("Retry-After", str(self.allowance.retry_after(user["name"])))
            self._refuse(429, f"more than {CHECKS_A_MINUTE} checks: send again later")
            return
        lessons = sorted({str(c.get("lesson", ""))[:LABEL_MAX] for c in checks if isinstance(c, dict)})
        deadline = time.monotonic() + KEY_WAIT  # one wait for the whole request, however many lessons
        waiting = [lesson for lesson in lessons
                   if not await self.grader.wait(lesson, max(0.0, deadline - time.monotonic()))]
        if waiting:  # the kernel keeps its checks and sends them again (a 503 is "later", never "lost")
            self._refuse(503, f"the exercises of {', '.join(waiting)} are still being read: send again later")
            return
        rows, refused = [], []
        for check in checks:
            try:
                rows.append(_row(check, user["name"], time.time(), self.grader))
            except ValueError as exc:  # one bad check is refused alone: the others are written
                refused.append({"check_id": str(check.get("check_id", ""))[:64] if isinstance(check, dict) else "",
                                "error": str(exc)})
        written = await asyncio.get_running_loop().run_in_executor(None, _record, self.db, rows)
        self.finish({"written": written, "refused": refused})


class Solved(web.RequestHandler):
    """``GET api/solved`` with ``Authorization: token <a hub user's token>``: her own exercises per
    lesson, right or not yet (``Progress.solved`` by her hub login), for her lesson index, and the
    variants she answered right (``Progress.right_variants``), for her kernels; nobody else's."""

    def initialize(self, db: str, hub_auth: HubAuth) -> None:
        self.db, self.auth = db, hub_auth

    async def get(self) -> None:
        from ..progress import Progress

        found = HubAuth.auth_header_pat.match(self.request.headers.get("Authorization", ""))
        user = await self.auth.user_for_token(found.group(1), sync=False) if found else None
        if not user or user.get("kind", "user") != "user":
            self.set_status(403)
            self.finish({"error": "the rummylab service needs a hub user's token"})
            return
        store = Progress(self.db)

        def read() -> dict[str, Any]:
            skills = store.skills(user["name"], by_login=True)
            return {"solved": store.solved(hub_user=user["name"]),
                    "variants": store.right_variants(user["name"], by_login=True),
                    "puzzles": store.attempts(user["name"], PUZZLE_PREFIX, by_login=True),
                    "skills": {k: {"streak": v.streak, "best": v.best, "right": v.right, "tried": v.tried}
                               for k, v in skills.items()}}

        try:
            answer = await asyncio.get_running_loop().run_in_executor(None, read)
        except ValueError as exc:  # the database is away: the index shows the lessons without progress
            self.set_status(503)
            self.finish({"error": str(exc)})
            return
        self.finish(answer)


PUZZLE_PREFIX = "puzzle-"
"""A check of a shipped puzzle (``lessons.puzzle_log``): graded from the puzzle, in any lesson."""
MAX_CHECKS = 100
"""Checks one request may send (``progress.hub_client.BATCH``)."""
OLDEST = 30 * 24 * 3600.0
"""A check's time, as the kernel says, is kept when within this many seconds before now (a check
spooled through a long outage); else, and for a time to come, the service's own time."""


def _row(check: Any, hub_user: str, now: float, grader: Grader) -> dict[str, Any]:
    """The row of one check a kernel sent: the hub user is the token's, never the kernel's; the
    verdict is the service's own (``Grader.grade``), never the kernel's ``correct``; the student is
    the display name she typed, else her hub user; the id is prefixed with the hub user, so that no
    student can take (or overwrite) another's check id. ValueError names a bad input."""
    from ..progress import check_row

    if not isinstance(check, dict):
        raise ValueError("a check is a JSON object")
    if check.get("correct") not in (1, 0, None):
        raise ValueError("correct is 1, 0 or null")
    said = None if check.get("correct") is None else bool(check["correct"])  # only told apart from a response
    answer = check.get("answer", "")
    answer = answer[:ANSWER_MAX] if isinstance(answer, str) else ""  # what is kept is what is graded
    variant = check.get("variant")
    if variant is not None:
        from ..lessons.variants import check_number

        variant = check_number(variant)
    lesson, exercise = str(check.get("lesson", ""))[:LABEL_MAX], str(check.get("exercise", ""))[:LABEL_MAX]
    right = grader.grade(lesson, exercise, answer, said, variant)
    given_id = check.get("check_id")
    if not isinstance(given_id, str) or not given_id:
        raise ValueError("a check has a check_id")
    at = check.get("at")
    at = at if isinstance(at, int | float) and not isinstance(at, bool) and now - OLDEST <= at <= now else now
    student = check.get("student") or hub_user
    return check_row(student, check.get("lesson"), check.get("exercise"), right, answer,
                     hub_user, check_id=f"{hub_user}:{given_id}", at=at, variant=variant,
                     skill=grader.skill(lesson, exercise) or None)


LESSON_NAME = re.compile(r"[\w][\w.-]{0,99}")
"""A lesson's name as a notebook's stem: no folder, no dot first."""
KEY_WAIT = 8.0
"""Seconds a check waits for its lesson's exercises to be read (at the service's start); then the
kernel is told to send it again later (its timeout is ``hub_client.TIMEOUT``, 10 s)."""
KEY_SAMPLE = 300
"""``RUMMYLAB_N`` of the lesson runs that read the exercises (as ``rummylab lessons key``)."""


class Grader:
    """The exercises of the lessons served, read as the teacher's key reads them (``lessons.key``:
    each lesson run once in a kernel of the service's own, the lesson of the day first, in a
    thread), kept in ``cache`` by the notebook's contents so a restart reads them at once."""

    def __init__(self, lessons: Iterable[Path] = (), cache: Path | None = None, folder: Path | None = None) -> None:
        self.paths = list(lessons)
        self.cache = cache
        self.folder = folder
        """Where a lesson added while the service runs is looked for (``of_folder``'s)."""
        self.graded: dict[tuple[str, str], Any] = {}
        self.lessons: dict[str, threading.Event] = {p.stem: threading.Event() for p in self.paths}
        self.failed: dict[str, str] = {}
        self.stamps: dict[str, tuple[int, int]] = {}
        """Each lesson's file (modified time, size) when it was read: an edited lesson is read again."""
        self._lock = threading.Lock()

    @classmethod
    def of(cls, entries: Iterable[Any]) -> Grader:
        """A grader of these key entries (``lessons.key.KeyEntry``), all read now."""
        from ..lessons.grading import graded

        grader = cls()
        grader.graded = graded(entries)
        for lesson, _ in grader.graded:
            grader.lessons.setdefault(lesson, threading.Event()).set()
        return grader

    @classmethod
    def of_folder(cls, folder: Path, first: str = "", cache: Path | None = None) -> Grader:
        """A grader of the lessons in ``folder``, ``first`` (a notebook's file name) read first by ``start``."""
        from ..lessons.runner import lessons_in

        paths = sorted(lessons_in(folder), key=lambda p: (p.name != first, p.name))
        return cls(paths, cache, folder)

    def start(self, paths: list[Path] | None = None) -> threading.Thread:
        """Read every lesson's exercises (or those of ``paths``) in a thread, from the cache where
        it has them."""
        thread = threading.Thread(target=self._read_all, args=(paths,), name="rummylab-key", daemon=True)
        thread.start()
        return thread

    def _added(self, lesson: str) -> bool:
        """A lesson put in the folder after the start: read now (its checks wait meanwhile)."""
        if self.folder is None or not LESSON_NAME.fullmatch(lesson) or not (self.folder / f"{lesson}.ipynb").is_file():
            return False
        with self._lock:
            if lesson not in self.lessons:
                self.lessons[lesson] = threading.Event()
                self.start([self.folder / f"{lesson}.ipynb"])
        return True

    def _edited(self, lesson: str) -> None:
        """A lesson whose file changed since it was read is read again now (its checks wait
        meanwhile, then are graded by the lesson as it is)."""
        path = self.folder / f"{lesson}.ipynb" if self.folder is not None else None
        event = self.lessons.get(lesson)
        if path is None or event is None or not event.is_set() or lesson not in self.stamps:
            return
        with contextlib.suppress(OSError):
            if _stamp(path) == self.stamps[lesson]:
                return
            with self._lock:
                if self.lessons[lesson] is event:  # not already being read again
                    print(f"rummylab service: {lesson} was edited: its exercises are read again", file=sys.stderr,
                          flush=True)
                    self.lessons[lesson] = threading.Event()
                    self.start([path])

    def _cached(self, path: Path) -> Path | None:
        if self.cache is None:
            return None
        from .. import __version__

        digest = hashlib.sha256(path.read_bytes() + __version__.encode()).hexdigest()[:32]
        return self.cache / f"{digest}.json"

    def _read_all(self, paths: list[Path] | None = None) -> None:
        from ..lessons.grading import graded
        from ..lessons.key import entries_from_json, entries_json, key_runs

        todo = []
        for path in self.paths if paths is None else paths:
            with contextlib.suppress(OSError):
                self.stamps[path.stem] = _stamp(path)  # before it is read: an edit meanwhile reads it again
            kept = self._cached(path)
            try:
                if kept is not None and kept.is_file():
                    self._add(path.stem, graded(entries_from_json(json.loads(kept.read_text(encoding="utf-8")))))
                    continue
            except (OSError, ValueError, TypeError, KeyError) as exc:  # a damaged cache: run the lesson again
                print(f"rummylab service: the kept key of {path.stem} is read again ({type(exc).__name__})",
                      file=sys.stderr, flush=True)
            todo.append(path)
        try:
            for path, found in key_runs(todo, KEY_SAMPLE) if todo else ():
                if isinstance(found, ValueError):
                    self._fail(path.stem, str(found))
                    continue
                try:
                    self._add(path.stem, graded(found))
                except ValueError as exc:
                    self._fail(path.stem, str(exc))
                    continue
                kept = self._cached(path)
                if kept is not None:
                    with contextlib.suppress(OSError):  # no cache: the next start runs it again
                        kept.parent.mkdir(parents=True, exist_ok=True)
                        part = kept.with_suffix(f".{os.getpid()}.part")
                        part.write_text(json.dumps(entries_json(found)), encoding="utf-8")
                        part.replace(kept)  # atomic: a start never reads half a key
        except Exception as exc:  # noqa: BLE001 - no kernel could start: every lesson left is said, none hangs
            for path in todo:
                if not self.lessons[path.stem].is_set():
                    self._fail(path.stem, f"{type(exc).__name__}: {exc}")

    def _add(self, lesson: str, found: dict[tuple[str, str], Any]) -> None:
        with self._lock:  # the lesson's exercises as read now: an edit may have dropped one
            self.graded = {k: v for k, v in self.graded.items() if k[0] != lesson} | found
            self.failed.pop(lesson, None)
        self.lessons.setdefault(lesson, threading.Event()).set()

    def _fail(self, lesson: str, why: str) -> None:
        with self._lock:
            self.graded = {k: v for k, v in self.graded.items() if k[0] != lesson}
        self.failed[lesson] = why
        print(f"rummylab service: the exercises of {lesson} cannot be read, so its checks are kept ungraded: {why}",
              file=sys.stderr, flush=True)
        self.lessons.setdefault(lesson, threading.Event()).set()

    def ready(self, lesson: str) -> bool:
        """Whether ``lesson``'s exercises are read (or it is not a lesson served)."""
        self._edited(lesson)
        event = self.lessons.get(lesson)
        if event is None and self._added(lesson):
            event = self.lessons[lesson]
        return event is None or event.is_set()

    async def wait(self, lesson: str, timeout: float) -> bool:
        """Whether ``lesson``'s exercises are read (or it is not a lesson served), waiting ``timeout`` s at most."""
        end = time.monotonic() + timeout
        while not self.ready(lesson):
            if time.monotonic() > end:
                return False
            await asyncio.sleep(0.1)
        return True

    def grade(self, lesson: str, exercise: str, typed: str, said: bool | None, variant: int | None = None
              ) -> bool | None:
        """The service's verdict on ``typed`` for ``exercise`` of ``lesson`` (its ``variant``, for a
        variant exercise: the key holds every variant's answer): True or False for an exercise of
        the lessons served; None for a response (an answer with no right one: the kernel said None)
        or a lesson whose exercises could not be read. ValueError for a lesson not served, a verdict
        claimed for an exercise the lessons do not define, or a variant missing or not had."""
        if exercise.startswith(PUZZLE_PREFIX):  # a shipped puzzle, whatever lesson shows it
            from ..gin.puzzles import by_id

            return by_id(exercise.removeprefix(PUZZLE_PREFIX)).right(typed)
        found = self.graded.get((lesson, exercise))
        if isinstance(found, dict):  # a variant exercise
            if variant not in found:
                raise ValueError(f"exercise {exercise!r} of {lesson!r} has variants: say which was answered"
                                 if variant is None else f"exercise {exercise!r} has no variant {variant}")
            return bool(found[variant].right(typed))
        if found is not None:
            return bool(found.right(typed))
        if lesson in self.failed:
            return None
        if lesson not in self.lessons:  # a name of her own would fill the teacher's page with lessons
            raise ValueError(f"no lesson {lesson[:60]!r} is served")
        if said is not None:
            raise ValueError(f"no exercise {exercise!r} in the lesson {lesson!r} served: a response has no verdict")
        return None


    def skill(self, lesson: str, exercise: str) -> str:
        """What ``exercise`` of ``lesson`` practises, as the key says ("" when it says nothing)."""
        if exercise.startswith(PUZZLE_PREFIX):
            from ..lessons.puzzle_log import SKILL

            return SKILL
        found = self.graded.get((lesson, exercise))
        if isinstance(found, dict):
            found = next(iter(found.values()), None)
        return found.skill if found is not None else ""


def _stamp(path: Path) -> tuple[int, int]:
    """A file's (modified time in ns, size): a change says it was edited."""
    st = path.stat()
    return st.st_mtime_ns, st.st_size


def _record(db: str, rows: list[dict[str, Any]]) -> bool:
    """Write ``rows`` through the store's queue: True when written now, False when they wait in the
    service's own queue and spool (never lost)."""
    from ..progress import Progress
    from ..progress.queue import writer

    target = Progress(db).target
    try:
        return writer(target).put_all(rows)
    except Exception as exc:  # noqa: BLE001 - the database cannot be used: the rows are in the spool
        print(f"rummylab service: {len(rows)} check(s) wait in the spool: {target.scrub(str(exc))}",
              file=sys.stderr, flush=True)
        return False


GROUPS_MAX_AGE = 15.0
"""Seconds the hub's groups are kept before they are asked again (the teacher page refreshes every 5)."""
PAGE_SIZE = 200
"""Groups asked for at a time (JupyterHub's largest page by default)."""


class HubGroups:
    """The hub's groups and their members (a class is a group of students), asked of the hub's API
    with the service's own token (its role: ``list:groups``, ``read:groups``), kept
    ``GROUPS_MAX_AGE`` seconds."""

    def __init__(self, hub_auth: HubAuth) -> None:
        self.auth = hub_auth
        self._kept: tuple[float, dict[str, list[str]]] | None = None

    async def __call__(self) -> dict[str, list[str]]:
        """{group: its members}; an error (``tornado.httpclient.HTTPClientError``, ``OSError``,
        ``ValueError``) when the hub cannot say."""
        from tornado.httpclient import AsyncHTTPClient

        now = time.monotonic()
        if self._kept is not None and now - self._kept[0] < GROUPS_MAX_AGE:
            return self._kept[1]
        groups: dict[str, list[str]] = {}
        offset: int | None = 0
        while offset is not None:
            query = urllib.parse.urlencode({"offset": offset, "limit": PAGE_SIZE})
            reply = await AsyncHTTPClient().fetch(
                f"{self.auth.api_url.rstrip('/')}/groups?{query}", request_timeout=10,
                headers={"Authorization": f"token {self.auth.api_token}",
                         "Accept": "application/jupyterhub-pagination+json"})
            page = json.loads(reply.body)
            if not isinstance(page, dict) or not isinstance(page.get("items"), list):
                raise ValueError("the hub's API did not answer with a page of groups")
            for group in page["items"]:
                groups[str(group["name"])] = [str(user) for user in group.get("users") or []]
            following = (page.get("_pagination") or {}).get("next")
            offset = int(following["offset"]) if following else None
        self._kept = (now, groups)
        return groups


class Teacher(HubOAuthenticated, web.RequestHandler):
    """The teacher page: the hub's OAuth, then only users with the service's access scope (the
    teacher group's role): a student gets 403. ``?lesson=`` shows a lesson, ``?class=`` a hub group's
    students."""

    def initialize(self, db: str, hub_auth: HubOAuth, class_url: str, groups: HubGroups) -> None:
        self.db, self.hub_auth, self.class_url, self.groups = db, hub_auth, class_url, groups

    @web.authenticated
    async def get(self) -> None:
        from .teacher import teacher_page

        wanted = self.get_argument("lesson", default="").strip()
        wanted_class = self.get_argument("class", default="").strip()
        groups, note = None, ""
        try:
            groups = await self.groups()
        except Exception as exc:  # noqa: BLE001 - the page still shows, every class at once
            print(f"rummylab service: the hub's groups could not be read: {exc}", file=sys.stderr, flush=True)
            note = "The classes (the hub's groups) could not be read just now: the hub's log says why."
        page = await asyncio.get_running_loop().run_in_executor(
            None, functools.partial(teacher_page, self.db, wanted, self.class_url, groups, wanted_class, note))
        self.set_header("Cache-Control", "no-store")
        self.finish(page)


class GradebookCSV(Teacher):
    """The teacher page's gradebook as CSV (``teacher.teacher_csv``), for the same users, with the
    same ``?lesson=`` and ``?class=``; every class when the hub's groups cannot be read."""

    @web.authenticated
    async def get(self) -> None:
        from .teacher import csv_headers, teacher_csv

        wanted = self.get_argument("lesson", default="").strip()
        wanted_class = self.get_argument("class", default="").strip()
        groups = None
        try:
            groups = await self.groups() if wanted_class else None
        except Exception as exc:  # noqa: BLE001 - every class, as the page says when it happens
            print(f"rummylab service: the hub's groups could not be read: {exc}", file=sys.stderr, flush=True)
        try:
            name, text = await asyncio.get_running_loop().run_in_executor(
                None, functools.partial(teacher_csv, self.db, wanted, groups, wanted_class))
        except ValueError as exc:  # a store that cannot be read
            print(f"rummylab service: the gradebook could not be read: {exc}", file=sys.stderr, flush=True)
            raise web.HTTPError(503) from None
        for header, value in csv_headers(name).items():
            self.set_header(header, value)
        self.finish(text)


class Callback(HubOAuthCallbackHandler):
    def initialize(self, hub_auth: HubOAuth) -> None:
        self.hub_auth = hub_auth


def make_app(db: str, prefix: str, class_url: str, hub_auth: HubOAuth | None = None,
             grader: Grader | None = None, allowance: Allowance | None = None) -> web.Application:
    """The service's Tornado app under ``prefix`` (``/services/rummylab/``); ``hub_auth`` is the
    hub's (from the ``JUPYTERHUB_*`` variables) unless given; ``grader`` grades the checks (one
    that knows no lesson when not given: every check is refused)."""
    if not db:
        raise ValueError("the rummylab service needs RUMMYLAB_DB: the progress database")
    from ..progress import Progress

    Progress(db)  # a bad address fails now, in the hub's log, not at the first check
    hub_auth = hub_auth or HubOAuth(cache_max_age=60)
    grader = grader if grader is not None else Grader()
    teacher = {"db": db, "hub_auth": hub_auth, "class_url": class_url, "groups": HubGroups(hub_auth)}
    return web.Application([
        (prefix, Teacher, teacher),
        (prefix + "gradebook.csv", GradebookCSV, teacher),
        (prefix + "api/checks", Checks, {"db": db, "hub_auth": hub_auth, "grader": grader,
                                          "allowance": allowance or Allowance()}),
        (prefix + "api/solved", Solved, {"db": db, "hub_auth": hub_auth}),
        (prefix + "oauth_callback", Callback, {"hub_auth": hub_auth}),
    ], cookie_secret=secrets.token_bytes(32), login_url=hub_auth.login_url, xsrf_cookies=False)


def main() -> None:
    """Run the service where JupyterHub says (``JUPYTERHUB_SERVICE_URL``, ``JUPYTERHUB_SERVICE_PREFIX``)."""
    from ..progress import DB_ENV

    url = urllib.parse.urlsplit(os.environ["JUPYTERHUB_SERVICE_URL"])
    prefix = os.environ.get("JUPYTERHUB_SERVICE_PREFIX", "/services/rummylab/")
    from .hub import LESSON_OF_THE_DAY_ENV, LESSONS_ENV

    folder = os.environ.get(LESSONS_ENV, "").strip()
    if not folder or not Path(folder).is_dir():
        sys.exit(f"rummylab service: {LESSONS_ENV} names no folder of lessons ({folder!r}): the service grades from it")
    grader = Grader.of_folder(Path(folder), os.environ.get(LESSON_OF_THE_DAY_ENV, ""), Path("key-cache").resolve())
    try:
        app = make_app(os.environ.get(DB_ENV, "").strip(), prefix, os.environ.get(CLASS_URL_ENV, ""), grader=grader)
    except ValueError as exc:
        sys.exit(f"rummylab service: {exc}")
    grader.start()

    async def serve() -> None:
        app.listen(url.port or 80, address=url.hostname or "127.0.0.1", max_body_size=MAX_BODY)
        print(f"rummylab service: listening on {url.hostname}:{url.port}{prefix}", flush=True)
        await asyncio.Event().wait()

    asyncio.run(serve())


if __name__ == "__main__":
    main()
