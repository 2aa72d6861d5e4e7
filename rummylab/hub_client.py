"""A lesson kernel's store on JupyterHub: each check goes over HTTP to the rummylab hub service
(``/services/rummylab/``), which alone holds the database. The kernel sends the student's own hub
token; the service asks the hub whose it is and records that hub user (a typed name is only shown).

``RUMMYLAB_DB`` names the service: ``rummylab+http://host:port/services/rummylab/`` (or https), or
a plain ``http(s)://`` URL. The kernel never holds a database address or password."""

from __future__ import annotations

import json
import os
import urllib.error
import urllib.parse
import urllib.request
from typing import Any

SCHEMES = ("rummylab+http", "rummylab+https", "http", "https")
TOKEN_ENV = "JUPYTERHUB_API_TOKEN"
CHECKS = "api/checks"
"""The service's endpoint for one check (POST, JSON)."""
TIMEOUT = 10.0
"""Seconds a check waits for the service at most."""
UNSENT: list[bytes] = []
"""Checks this kernel could not send yet (the service was down), oldest first."""


def is_service_url(where: object) -> bool:
    """``where`` names the rummylab hub service (an HTTP URL), not a database."""
    return isinstance(where, str) and where.strip().partition("://")[0].lower() in SCHEMES


class ServiceProgress:
    """The rummylab hub service at ``url``, with ``Progress.record``'s signature. The token is the
    kernel's own (``JUPYTERHUB_API_TOKEN``) unless given."""

    def __init__(self, url: str, token: str | None = None) -> None:
        if not is_service_url(url):
            raise ValueError(f"the rummylab service address {url!r} is not an http(s) URL")
        scheme, _, rest = url.strip().partition("://")
        base = f"{scheme.lower().removeprefix('rummylab+')}://{rest}"
        parts = urllib.parse.urlsplit(base)
        if not parts.hostname:
            raise ValueError(f"the rummylab service address {url!r} names no host")
        self.url = base if base.endswith("/") else base + "/"
        self.name = self.url
        self.token = token if token is not None else os.environ.get(TOKEN_ENV, "")

    def __repr__(self) -> str:
        return f"ServiceProgress({self.url!r})"

    def record(self, student: str, lesson: str, exercise: str, right: bool | None, answer: str = "",
               hub_user: str | None = None) -> bool:
        """Send one check (and any this kernel could not send before); True once the service has
        written them, False when it cannot be reached now (the check is sent with the next one).
        ValueError when the service refuses it (a bad input, or no hub token), in one sentence.
        ``student`` and ``hub_user`` are not sent: the service takes the student from the token."""
        if not self.token:
            raise ValueError("this kernel has no JupyterHub token, so the rummylab service cannot tell who you are")
        UNSENT.append(json.dumps({"lesson": lesson, "exercise": exercise, "right": right,
                                  "answer": answer}).encode())
        while UNSENT:
            if not self._send(UNSENT[0]):
                return False
            UNSENT.pop(0)
        return True

    def _send(self, body: bytes) -> bool:
        request = urllib.request.Request(self.url + CHECKS, data=body, method="POST", headers={
            "Authorization": f"token {self.token}", "Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(request, timeout=TIMEOUT):
                return True  # the service has it (written, or queued by its store)
        except urllib.error.HTTPError as exc:
            if exc.code in (400, 401, 403):
                UNSENT.remove(body)  # refused for good: sending it again would be refused again
                try:
                    reason = json.loads(exc.read() or b"{}").get("error", "")
                except ValueError:
                    reason = ""
                raise ValueError(reason or f"the rummylab service refused the check ({exc.code})") from None
            return False  # the service is down or restarting: kept for later
        except (OSError, ValueError):
            return False

def open_store(where: object) -> Any:
    """The store checks go to: the rummylab hub service for its URL, else ``Progress(where)``."""
    if is_service_url(where):
        return ServiceProgress(str(where))
    from .progress import Progress

    return Progress(where)  # type: ignore[arg-type]
