"""A lesson kernel's store on JupyterHub: each check goes over HTTP to the rummylab hub service
(``/services/rummylab/``), which alone holds the database. The kernel sends the student's own hub
token; the service asks the hub whose it is and records that hub user (a typed name is sent as her
display name).

Checks go through the store's own queue (``progress.queue``, with ``Service`` as its sink): one the
service cannot take now (it is down or restarting) waits in memory for a moment, then in the spool
on the student's disk, and goes with the next check the service takes (or the queue's retry). Each
check keeps its id, so one sent twice is written once.

``RUMMYLAB_DB`` names the service: ``rummylab+http://host:port/services/rummylab/`` (or https), or
a plain ``http(s)://`` URL. The kernel never holds a database address or password."""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass
from typing import Any

from .engines import Unusable

SCHEMES = ("rummylab+http", "rummylab+https", "http", "https")
TOKEN_ENV = "JUPYTERHUB_API_TOKEN"
USER_ENV = "JUPYTERHUB_USER"
CHECKS = "api/checks"
"""The service's endpoint for checks (POST, JSON: ``{"checks": [row, …]}``)."""
SOLVED = "api/solved"
"""The service's endpoint for a student's own progress (GET: ``{"solved": {lesson: {exercise: bool}},
"variants": {lesson: {exercise: variants answered right}}}``)."""
TIMEOUT = 10.0
"""Seconds a request waits for the service at most."""
BATCH = 100
"""Checks sent in one request at most (a spool uploaded after a long outage goes in several)."""
SENT = ("check_id", "student", "lesson", "exercise", "correct", "answer", "at", "variant")
"""What a check sends: never ``hub_user`` (the service takes it from the token)."""


def is_service_url(where: object) -> bool:
    """``where`` names the rummylab hub service (an HTTP URL), not a database."""
    return isinstance(where, str) and where.strip().partition("://")[0].lower() in SCHEMES


def service_base(url: str) -> str:
    """``url`` as the service's plain http(s) base URL, ending in ``/``. ValueError for a bad one."""
    if not is_service_url(url):
        raise ValueError(f"the rummylab service address {url!r} is not an http(s) URL")
    scheme, _, rest = url.strip().partition("://")
    base = f"{scheme.lower().removeprefix('rummylab+')}://{rest}"
    if not urllib.parse.urlsplit(base).hostname:
        raise ValueError(f"the rummylab service address {url!r} names no host")
    return base if base.endswith("/") else base + "/"


@dataclass(frozen=True)
class Service:
    """The rummylab hub service as the queue's ``Sink``: a student's own spool (its ``key`` holds
    her hub user, so a shared home never mixes two students' checks)."""

    url: str
    token: str
    user: str = ""

    @property
    def key(self) -> str:
        return "service-" + hashlib.sha256(f"{self.url}\n{self.user}".encode()).hexdigest()[:16]

    @property
    def shown(self) -> str:
        return f"the rummylab service {self.url}"

    def connect(self) -> Any:
        return None  # a request per batch: nothing to keep open

    def close(self, con: Any) -> None:
        pass

    def write(self, con: Any, rows: list[dict[str, Any]]) -> None:
        """POST ``rows`` in batches; the service writes each batch (or keeps it, in its own queue)."""
        for start in range(0, len(rows), BATCH):
            self._post([{k: row.get(k) for k in SENT} for row in rows[start:start + BATCH]])

    def _post(self, checks: list[dict[str, Any]]) -> None:
        body = json.dumps({"checks": checks}).encode()
        request = urllib.request.Request(self.url + CHECKS, data=body, method="POST", headers={
            "Authorization": f"token {self.token}", "Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(request, timeout=TIMEOUT) as reply:
                answer = json.loads(reply.read() or b"{}")
        except urllib.error.HTTPError as exc:
            reason = ""
            with contextlib.suppress(ValueError, AttributeError, OSError):
                reason = str(json.loads(exc.read() or b"{}").get("error", ""))
            # 401/403: this token will not do (a later kernel's will, and uploads the spool); else
            # the hub's proxy says the service is down (503) or restarting: try again later
            lasting = exc.code in (401, 403)
            raise Unusable(f"{self.shown} refused the checks ({exc.code}{': ' + reason if reason else ''})"
                           if lasting else f"{self.shown} cannot be reached now ({exc.code})", lasting) from None
        except (OSError, ValueError) as exc:
            raise Unusable(f"{self.shown} cannot be reached now ({type(exc).__name__})", False) from None
        for refused in answer.get("refused", []) if isinstance(answer, dict) else []:
            # a check the service will never take (a bad input): sending it again would not help
            from .queue import _log

            _log(f"rummylab: {self.shown} refused a check: {str(refused)[:300]}")

    def unusable(self, exc: BaseException) -> Unusable:
        if isinstance(exc, Unusable):
            return exc
        return Unusable(f"{self.shown} cannot be reached now ({type(exc).__name__})", False)


class ServiceProgress:
    """The rummylab hub service at ``url``, with ``Progress.record``'s signature. The token and hub
    user are the kernel's own (``JUPYTERHUB_API_TOKEN``, ``JUPYTERHUB_USER``) unless given."""

    def __init__(self, url: str, token: str | None = None, user: str | None = None) -> None:
        self.url = service_base(url)
        self.name = self.url
        self.token = token if token is not None else os.environ.get(TOKEN_ENV, "")
        self.sink = Service(self.url, self.token, user if user is not None else os.environ.get(USER_ENV, ""))

    def __repr__(self) -> str:
        return f"ServiceProgress({self.url!r})"

    def record(self, student: str, lesson: str, exercise: str, right: bool | None, answer: str = "",
               hub_user: str | None = None, *, variant: int | None = None, skill: str | None = None) -> bool:
        """Send one check (and any waiting in this student's spool); True once the service has it,
        False when it cannot be reached now (the check waits in the spool and goes later).
        ValueError for a bad input, no hub token, or a token the service refuses (the check is
        kept all the same). ``student`` goes as her display name; ``hub_user`` is not sent: the
        service takes it from the token."""
        from . import check_row
        from .queue import writer

        if not self.token:
            raise ValueError("this kernel has no JupyterHub token, so the rummylab service cannot tell who you are")
        row = check_row(student, lesson, exercise, right, answer, variant=variant, skill=skill)
        try:
            return writer(self.sink).put(row)
        except Unusable as exc:
            raise ValueError(str(exc)) from None

    def waiting(self) -> int:
        """This student's checks waiting in the spool for the service."""
        from .queue import Spool

        return Spool(self.sink).count()

    def attempts(self, student: str, prefix: str) -> list[tuple[str, bool]]:
        """``Progress.attempts`` of this token's hub user (the service answers for her only):
        her puzzle attempts. ValueError when it cannot say now."""
        if not self.token:
            raise ValueError("this kernel has no JupyterHub token")
        request = urllib.request.Request(self.url + SOLVED, headers={"Authorization": f"token {self.token}"})
        try:
            with urllib.request.urlopen(request, timeout=TIMEOUT) as reply:
                found = json.loads(reply.read() or b"{}").get("puzzles", [])
        except (OSError, ValueError, AttributeError) as exc:
            raise ValueError(f"the rummylab service cannot say your puzzles now ({exc})") from None
        return [(str(e), bool(r)) for e, r in found if str(e).startswith(prefix)]

    def right_variants(self, student: str) -> dict[str, dict[str, int]]:
        """``Progress.right_variants`` of this token's hub user (``student`` is hers: the service
        answers for the token's owner only). ValueError when it cannot say now."""
        if not self.token:
            raise ValueError("this kernel has no JupyterHub token")
        return {lesson: {str(e): int(n) for e, n in exercises.items()}
                for lesson, exercises in _progress_on_hub(self.url, self.token, "variants").items()}


def _progress_on_hub(url: str, token: str, part: str) -> dict[str, dict[str, Any]]:
    """``part`` of the service's ``SOLVED`` answer for the hub user whose ``token`` this is.
    ValueError when the service cannot say now."""
    request = urllib.request.Request(service_base(url) + SOLVED, headers={"Authorization": f"token {token}"})
    try:
        with urllib.request.urlopen(request, timeout=TIMEOUT) as reply:
            answer = json.loads(reply.read() or b"{}")
    except (OSError, ValueError) as exc:
        raise ValueError(f"the rummylab service cannot say your progress now ({exc})") from None
    found = answer.get(part) if isinstance(answer, dict) else None
    if not isinstance(found, dict):
        raise ValueError("the rummylab service sent no progress")
    return {str(lesson): dict(exercises) for lesson, exercises in found.items() if isinstance(exercises, dict)}


def skills_on_hub(url: str, token: str) -> dict[str, Any]:
    """The skills (``mastery.SkillState``) of the hub user whose ``token`` this is, as the service at
    ``url`` counts them. ValueError when the service cannot say now."""
    from .mastery import SkillState

    try:
        return {str(k): SkillState(skill=str(k), streak=int(v["streak"]), best=int(v["best"]), right=int(v["right"]),
                                   tried=int(v["tried"])) for k, v in _progress_on_hub(url, token, "skills").items()}
    except (KeyError, TypeError, ValueError) as exc:
        raise ValueError(f"the rummylab service sent skills that cannot be read ({exc})") from None


def solved_on_hub(url: str, token: str) -> dict[str, dict[str, bool]]:
    """The progress of the hub user whose ``token`` this is, as the service at ``url`` has it
    (``Progress.solved`` by hub login). ValueError when the service cannot say now."""
    return {lesson: {str(e): bool(r) for e, r in exercises.items()}
            for lesson, exercises in _progress_on_hub(url, token, "solved").items()}


def open_store(where: object) -> Any:
    """The store checks go to: the rummylab hub service for its URL, else ``Progress(where)``."""
    if is_service_url(where):
        return ServiceProgress(str(where))
    from . import Progress

    return Progress(where)  # type: ignore[arg-type]
