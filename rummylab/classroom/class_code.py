"""A class served from one machine: a class code for the lessons, a teacher page with its own
token, and the Voilà options that keep kernels warm for the lesson of the day (how Voilà hands
them out, and the rest of what a class changes inside Voilà: ``voila_patches``).

Voilà loads ``ClassCodeProvider`` by name: a visitor without the class code sees a page that
asks for it, and no kernel starts for them. The teacher page is a small Tornado app in the
``rummylab serve`` process: the class's progress, live, for whoever holds the teacher token.
"""

from __future__ import annotations

import hmac
import html
import json
import os
import re
import secrets
from collections.abc import Callable
from pathlib import Path
from typing import Any

from jupyter_server.utils import url_path_join
from voila.voila_identity_provider import VoilaIdentityProvider, VoilaLoginHandler

OWN_PAGE = "rummylab-voila"
"""Voilà's own lesson page, served offline: for a lesson whose widgets have front ends of their
own (the light page sends it there: ``page.js``; shipped in the package: ``page_template``)."""


CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
"""Letters and digits a class can read out without confusion (no O/0, no I/1)."""
MAX_STUDENTS = 60
REFILL_DELAY = 300
"""Seconds before a warm kernel a student took is replaced."""
REFILL_GAP = 15
"""Seconds between two replacements: each runs the lesson, and thirty at once would take the
laptop from the class for a minute and a half."""
LEFT_AFTER = float(os.environ.get("RUMMYLAB_LEFT_AFTER", "60"))
"""Seconds after a lesson page's last connection closes (the student left or reloaded it) before
its kernel is shut down; a page that reconnects sooner keeps it."""

LOGIN_PAGE = """<!DOCTYPE html>
<html lang="{lang}"><head><meta charset="utf-8"><title>{title}</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>body{{font-family:sans-serif;max-width:28em;margin:4em auto;padding:0 1em;color:#263238}}
input{{font-size:1.4em;letter-spacing:.15em;width:9em;text-transform:uppercase}}
button{{font-size:1.2em}} .error{{color:#b71c1c;font-weight:700}}</style></head>
<body class="rl-class-login"><h1>{heading}</h1>
<p>{ask}</p>
{error}
<form action="{action}" method="post">{xsrf}
<input type="hidden" name="next" value="{next}">
<input name="password" id="class-code" autocomplete="off" autofocus aria-label="{code}">
<button type="submit" id="join">{join}</button></form>
<p><small>{note}</small></p>
</body></html>"""


def new_code(length: int = 6) -> str:
    """A class code to read out: ``length`` characters of ``CODE_ALPHABET``."""
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(length))


def check_code(code: str, what: str = "class code") -> str:
    """A code given on the command line: 4 to 64 letters, digits, - or _ (ValueError otherwise)."""
    if not 4 <= len(code) <= 64 or not all(c.isalnum() or c in "-_" for c in code):
        raise ValueError(f"{what} {code!r}: 4 to 64 letters, digits, - or _")
    return code


class ClassCodeLogin(VoilaLoginHandler):
    """The page a visitor without the class code sees: it asks for the code. Its form posts to the
    login page under the class's base URL (``--base-url``: where the browser sees it)."""

    def _render(self, message: dict[str, str] | None = None) -> None:
        from ..i18n import _, html_lang, languages, using
        from .lesson_index import LANG_COOKIE

        kept = self.get_cookie(LANG_COOKIE)
        with using(kept if kept in languages() else None):  # her language, else the class's
            said = {"title": _("rummylab: class code"), "heading": _("rummylab lessons"),
                    "code": _("class code"), "join": _("Join"),
                    "note": _("Without the code no lesson opens, and nothing runs for you."),
                    "wrong": _("That is not the class code: ask your teacher.")}
            ask = _("Type the {code} your teacher reads out, then press {join}.")
            lang = html_lang()
        words = {k: html.escape(v) for k, v in said.items()}
        ask = html.escape(ask).format(code=f"<b>{words['code']}</b>", join=f"<b>{words['join']}</b>")
        error = f"<p class='error' id='wrong-code'>{words['wrong']}</p>" if message and message.get("error") else ""
        self.write(LOGIN_PAGE.format(error=error, action=html.escape(url_path_join(self.base_url, "login")),
                                     xsrf=self.xsrf_form_html(), lang=lang, ask=ask,
                                     **{k: v for k, v in words.items() if k != "wrong"},
                                     next=html.escape(self.get_argument("next", default=self.base_url))))


class ClassCodeProvider(VoilaIdentityProvider):
    """Voilà's token login with the class-code page, served under Voilà's prefix (Voilà routes an
    identity provider's handlers as given, where its login URL has the base URL)."""

    def get_handlers(self) -> list[tuple[str, object]]:
        prefix = getattr(self.parent, "server_url", None) or "/"
        return [(url_path_join(prefix, "login"), ClassCodeLogin),
                (url_path_join(prefix, "logout"), self.logout_handler_class)]

    def process_login_form(self, handler: Any) -> Any:
        """A visitor who typed the class code (read out in capitals: any case will do)."""
        typed = handler.get_argument("password", default="").strip().upper()
        if self.token and hmac.compare_digest(typed.encode(), self.token.upper().encode()):
            return self.generate_anonymous_user(handler)
        return None


def pool_options(lessons: list[str], students: int) -> list[str]:
    """Voilà options that keep ``students`` kernels, each with its lesson already run, for each
    of ``lessons`` (notebook file names); other lessons start a kernel when opened."""
    if not 0 <= students <= MAX_STUDENTS:
        raise ValueError(f"--students {students}: 0 to {MAX_STUDENTS}")
    if students == 0 or not lessons:
        return []
    pools = {"default": {"pool_size": 0}, **{name: {"pool_size": students} for name in lessons}}
    # a kernel taken from the pool is replaced only after the rush, so that replacements (each
    # running the lesson) do not compete with the students arriving
    return ["--preheat_kernel=True", f"--VoilaKernelManager.kernel_pools_config={json.dumps(pools)}",
            f"--VoilaKernelManager.fill_delay={REFILL_DELAY}"]


def running_under(pid: int, wanted: Callable[[str], bool]) -> list[Any]:
    """The live processes under ``pid`` (psutil) whose command line ``wanted`` accepts: one that
    has just ended (a zombie, or gone) is passed over."""
    import psutil

    out = []
    for child in psutil.Process(pid).children(recursive=True):
        try:
            if wanted(" ".join(child.cmdline())):
                out.append(child)
        except psutil.Error:
            pass
    return out


def kernel_processes(pid: int) -> list[Any]:
    """The kernel processes under a class server (psutil)."""
    from .class_kernel import is_kernel

    return running_under(pid, is_kernel)


def first_lesson(folder: Path) -> list[str]:
    """The lesson warmed when none is named: the folder's first (00 for the packaged lessons), if any."""
    names = sorted(p.name for p in folder.glob("*.ipynb") if not p.name.startswith("."))
    return names[:1]


def find_lessons(folder: Path, wanted: list[str]) -> list[str]:
    """The notebook names in ``folder`` that ``wanted`` names ("02", "02-melds…", a file name)."""
    names = sorted(p.name for p in folder.glob("*.ipynb"))
    out = []
    for w in wanted:
        hits = [n for n in names if n == w or n.startswith(w if w.endswith(".ipynb") else f"{w}-") or n == f"{w}.ipynb"]
        if len(hits) != 1:
            known = ", ".join(n.split("-")[0] for n in names)
            raise ValueError(f"--lesson {w!r}: {'no such lesson' if not hits else 'more than one lesson'} "
                             f"in {folder} (lessons: {known})")
        out.append(hits[0])
    return out


# -- the teacher page ---------------------------------------------------------------------


def teacher_app(db: Path | str, token: str, class_url: str) -> Any:
    """A Tornado app: ``/`` shows the class's progress to whoever gives ``?token=`` (or has the
    cookie from giving it once); everyone else gets 403 and a short page. ``?lesson=NAME`` (or its
    number) shows one lesson; the page links each lesson with checks (``teacher.teacher_page``).
    ``/gradebook.csv`` (the same token or cookie, the same ``?lesson=``) is the gradebook as CSV."""
    import tornado.web

    from .teacher import CSV_PATH, csv_headers, teacher_csv, teacher_page

    class Teacher(tornado.web.RequestHandler):
        def allowed(self) -> bool:
            """Whether the request has the teacher token (or its cookie): a 403 page when not."""
            given = self.get_argument("token", default="") or (self.get_secure_cookie("teacher") or b"").decode()
            if not hmac.compare_digest(given.encode(), token.encode()):
                self.set_status(403)
                self.write("<!DOCTYPE html><html><body class='rl-teacher-denied'><h1>Teacher page</h1>"
                           "<p>This page needs the teacher token that <code>rummylab serve</code> printed.</p>"
                           "</body></html>")
                return False
            self.set_secure_cookie("teacher", token, httponly=True, samesite="Strict")
            return True

        def get(self) -> None:
            if self.allowed():
                self.write(teacher_page(db, self.get_argument("lesson", default="").strip(), class_url))

    class GradebookCSV(Teacher):
        def get(self) -> None:
            if not self.allowed():
                return
            try:
                name, text = teacher_csv(db, self.get_argument("lesson", default="").strip())
            except ValueError as exc:  # a store that cannot be read
                self.set_status(503)
                self.set_header("Content-Type", "text/plain; charset=utf-8")
                self.write(f"{exc}\n")
                return
            for header, value in csv_headers(name).items():
                self.set_header(header, value)
            self.write(text)

    return tornado.web.Application([(r"/", Teacher), (rf"/{re.escape(CSV_PATH)}", GradebookCSV)],
                                   cookie_secret=secrets.token_hex(16))
