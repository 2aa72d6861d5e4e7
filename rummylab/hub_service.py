"""The rummylab hub service (``/services/rummylab/`` behind JupyterHub's proxy): it alone holds the
progress database. Lesson kernels POST each check to ``api/checks`` with their student's hub token;
the service asks the hub whose token it is and records that hub user. Teachers (a hub group, given
``access:services!service=rummylab`` by a role) log in with the hub's OAuth and see the teacher page
of the whole hub, a lesson at a time; anyone else gets 403.

JupyterHub starts it (``python -m rummylab.hub_service``) with its ``JUPYTERHUB_*`` variables and
``RUMMYLAB_DB`` (``rummylab.hub.configure``)."""

from __future__ import annotations

import asyncio
import json
import os
import secrets
import sys
import urllib.parse
from typing import Any

from jupyterhub.services.auth import HubAuth, HubOAuth, HubOAuthCallbackHandler, HubOAuthenticated
from tornado import web

CLASS_URL_ENV = "RUMMYLAB_CLASS_URL"
MAX_BODY = 16 * 1024
"""A check is a few hundred bytes; anything much larger is refused before it is read."""


class Checks(web.RequestHandler):
    """``POST api/checks``: one check, ``Authorization: token <the student's hub token>``."""

    def initialize(self, db: str, hub_auth: HubAuth) -> None:
        self.db, self.auth = db, hub_auth

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
            check = json.loads(self.request.body or b"{}")
            if not isinstance(check, dict):
                raise ValueError("a check is a JSON object")
            right = check.get("right")
            if right not in (True, False, None):
                raise ValueError("right is true, false or null")
            # the token's owner is who answered: a name typed on the page only greets the student
            written = await asyncio.get_running_loop().run_in_executor(None, _record, self.db, check, user["name"])
        except ValueError as exc:  # a bad input, said to the kernel (which tells the student)
            self._refuse(400, str(exc))
            return
        self.finish({"written": bool(written)})


def _record(db: str, check: dict[str, Any], hub_user: str) -> bool:
    from .progress import Progress

    written = Progress(db).record(hub_user, check.get("lesson"), check.get("exercise"),  # type: ignore[arg-type]
                                  check.get("right"), check.get("answer", ""), hub_user=hub_user)
    return written is not False


class Teacher(HubOAuthenticated, web.RequestHandler):
    """The teacher page: the hub's OAuth, then only users with the service's access scope (the
    teacher group's role): a student gets 403."""

    def initialize(self, db: str, hub_auth: HubOAuth, class_url: str) -> None:
        self.db, self.hub_auth, self.class_url = db, hub_auth, class_url

    @web.authenticated
    async def get(self) -> None:
        from .teacher import teacher_page

        wanted = self.get_argument("lesson", default="").strip()
        page = await asyncio.get_running_loop().run_in_executor(None, teacher_page, self.db, wanted, self.class_url)
        self.set_header("Cache-Control", "no-store")
        self.finish(page)


class Callback(HubOAuthCallbackHandler):
    def initialize(self, hub_auth: HubOAuth) -> None:
        self.hub_auth = hub_auth


def make_app(db: str, prefix: str, class_url: str) -> web.Application:
    """The service's Tornado app under ``prefix`` (``/services/rummylab/``)."""
    if not db:
        raise ValueError("the rummylab service needs RUMMYLAB_DB: the progress database")
    from .progress import Progress

    Progress(db)  # a bad address fails now, in the hub's log, not at the first check
    hub_auth = HubOAuth(cache_max_age=60)
    return web.Application([
        (prefix, Teacher, {"db": db, "hub_auth": hub_auth, "class_url": class_url}),
        (prefix + "api/checks", Checks, {"db": db, "hub_auth": hub_auth}),
        (prefix + "oauth_callback", Callback, {"hub_auth": hub_auth}),
    ], cookie_secret=secrets.token_bytes(32), login_url=hub_auth.login_url, xsrf_cookies=False)


def main() -> None:
    """Run the service where JupyterHub says (``JUPYTERHUB_SERVICE_URL``, ``JUPYTERHUB_SERVICE_PREFIX``)."""
    from .progress import DB_ENV

    url = urllib.parse.urlsplit(os.environ["JUPYTERHUB_SERVICE_URL"])
    prefix = os.environ.get("JUPYTERHUB_SERVICE_PREFIX", "/services/rummylab/")
    try:
        app = make_app(os.environ.get(DB_ENV, "").strip(), prefix, os.environ.get(CLASS_URL_ENV, ""))
    except ValueError as exc:
        sys.exit(f"rummylab service: {exc}")

    async def serve() -> None:
        app.listen(url.port or 80, address=url.hostname or "127.0.0.1", max_body_size=MAX_BODY)
        print(f"rummylab service: listening on {url.hostname}:{url.port}{prefix}", flush=True)
        await asyncio.Event().wait()

    asyncio.run(serve())


if __name__ == "__main__":
    main()
