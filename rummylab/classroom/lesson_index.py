"""A class's first page: its lessons by title, in order, with what the student solved in each.

It replaces Voilà's file list ("Select items to open with Voilà", file names) at the class's root
and at ``voila/tree``. A lesson's title is its first heading; its exercises are the names its
code cells give ``exercise(...)`` (read from the notebook, not run). A student is known by her hub
login on a hub; on a laptop by the name she gives on this page, kept in a cookie of her browser
(``NAME_COOKIE``: a name, never a secret). Her progress comes from the class's store: the SQLite
file or database of ``rummylab serve``, or on a hub the rummylab service (her own rows only, by
her token). Nothing here needs polars: the page is drawn by the class server, not a kernel.
"""

from __future__ import annotations

import html
import json
import re
import urllib.parse
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from ..i18n import _, html_lang, language, pgettext, using

NAME_COOKIE = "rummylab-name"
LANG_COOKIE = "rummylab-lang"
"""The language a student chose on the class's first page (a code such as "hi": no secret)."""
HEADING = re.compile(r"^\s*#\s+(.+?)\s*#*\s*$", re.M)
EXERCISE = re.compile(r"""\bexercise\(\s*(?:name\s*=\s*)?["']([A-Za-z][\w-]{0,59})["']""")


@dataclass(frozen=True, kw_only=True)
class Lesson:
    """A notebook of the class's folder, as the index lists it."""

    path: str
    """Relative to the folder, with ``/``."""
    title: str
    exercises: tuple[str, ...]

    @property
    def name(self) -> str:
        """What the store calls the lesson: the notebook's name without ``.ipynb``."""
        return Path(self.path).stem


def read_lesson(path: Path, folder: Path) -> Lesson:
    """The lesson at ``path``: its first heading (else its file name in words) and exercise names.
    ValueError for a file that is not a notebook."""
    try:
        cells = json.loads(path.read_text(encoding="utf-8")).get("cells", [])
    except (OSError, ValueError, AttributeError) as exc:
        raise ValueError(f"{path.name} is not a notebook: {exc}") from None
    title, exercises = "", []
    for cell in cells:
        source = "".join(cell.get("source", "")) if isinstance(cell, dict) else ""
        if not title and cell.get("cell_type") == "markdown" and (found := HEADING.search(source)):
            title = found.group(1)
        if cell.get("cell_type") == "code":
            exercises += [n for n in EXERCISE.findall(source) if n not in exercises]
    words = path.stem.lstrip("0123456789-_ ").replace("-", " ").replace("_", " ")
    return Lesson(path=path.relative_to(folder).as_posix(), title=title or words.capitalize() or path.stem,
                  exercises=tuple(exercises))


@lru_cache(maxsize=256)
def _read_kept(path: Path, folder: Path, mtime_ns: int, size: int) -> Lesson:
    """``read_lesson``, kept while the file is unchanged (every visit to the index asks again)."""
    return read_lesson(path, folder)


def lessons_in(folder: Path) -> list[Lesson]:
    """The notebooks of ``folder`` (not its hidden ones, nor checkpoints), in file-name order."""
    found = []
    for path in sorted(folder.glob("*.ipynb")):
        if path.name.startswith((".", "_")):
            continue
        try:
            stat = path.stat()
            found.append(_read_kept(path, folder, stat.st_mtime_ns, stat.st_size))
        except (OSError, ValueError):  # a broken or vanished file is no lesson (Voilà says why if opened)
            continue
    return found


def _progress(lesson: Lesson, solved: dict[str, dict[str, bool]] | None) -> str:
    if solved is None:
        return ""
    done = solved.get(lesson.name, {})
    right = sum(done.get(e, False) for e in lesson.exercises) if lesson.exercises else sum(done.values())
    total = len(lesson.exercises)
    if not total:
        return ""
    cls = "rl-done" if right == total else "rl-some" if right or done else "rl-none"
    said = html.escape(_("{right} of {total} solved").format(right=right, total=total))
    return f'<span class="rl-progress {cls}">{said}</span>'


STYLE = """
body { font-family: system-ui, sans-serif; margin: 0; color: #263238; background: #fafafa; }
main { max-width: 44rem; margin: 0 auto; padding: 1.2rem; }
h1 { font-size: 1.5rem; margin: .4rem 0 1rem; }
ol.rl-lessons { list-style: none; padding: 0; margin: 0; }
ol.rl-lessons li { background: #fff; border: 1px solid #cfd8dc; border-radius: 6px; margin: .4rem 0; }
ol.rl-lessons a { display: flex; justify-content: space-between; gap: 1rem; padding: .8rem 1rem;
  color: inherit; text-decoration: none; }
ol.rl-lessons a:hover { background: #eceff1; }
.rl-progress { white-space: nowrap; font-size: .9rem; }
.rl-done { color: #2e7d32; } .rl-some { color: #ef6c00; } .rl-none { color: #78909c; }
form.rl-who { margin: 0 0 1rem; display: flex; gap: .5rem; flex-wrap: wrap; align-items: center; }
form.rl-who input { font-size: 1rem; padding: .3rem; max-width: 16rem; }
.rl-note { color: #546e7a; font-size: .9rem; }
h2 { font-size: 1.15rem; margin: 1.4rem 0 .3rem; }
ul.rl-skills { padding-left: 1.2rem; }
nav.rl-languages { text-align: right; font-size: .95rem; }
nav.rl-languages a[aria-current] { font-weight: bold; color: inherit; text-decoration: none; }
"""


def offered_languages(folder: Path) -> list[str]:
    """The languages a class served from ``folder`` offers: English, and each built beside it (LANG/)."""
    from ..i18n import languages

    return ["en", *(code for code in languages() if code != "en" and any((folder / code).glob("*.ipynb")))] \
        if any((folder / "en").glob("*.ipynb")) else ["en"]


def language_name(code: str) -> str:
    """A language's name in itself ("हिन्दी", "Română"), as Babel's CLDR data writes it."""
    from babel import Locale, UnknownLocaleError

    try:
        name = Locale.parse(code).get_display_name(code) or code
    except (ValueError, LookupError, UnknownLocaleError):  # a language Babel does not know (her own catalog)
        return code
    return name[:1].upper() + name[1:]


def lessons_for(folder: Path, lang: str) -> list[Lesson]:
    """The lessons a student reading ``lang`` is offered: those built in it (LANG/), else the English ones."""
    if any((folder / lang).glob("*.ipynb")):
        return [Lesson(path=f"{lang}/{lesson.path}", title=lesson.title, exercises=lesson.exercises)
                for lesson in lessons_in(folder / lang)]
    return lessons_in(folder)


def _languages_html(offered: list[str], current: str) -> str:
    if len(offered) < 2:
        return ""
    links = " · ".join(f'<a href="?lang={html.escape(code)}" lang="{html.escape(code)}"'
                       f'{" aria-current=true" if code == current else ""}>{html.escape(language_name(code))}</a>'
                       for code in offered)
    return f'<nav class="rl-languages">{links}</nav>'


def index_html(lessons: list[Lesson], base_url: str, *, solved: dict[str, dict[str, bool]] | None = None,
               who: str | None = None, ask_name: bool = True, note: str = "", skills: dict[str, Any] | None = None,
               offered: list[str] | None = None) -> str:
    """The index page: ``lessons`` linked under ``base_url``; with ``solved`` (the student's
    progress), how many exercises of each she solved. Every name and title is escaped."""
    items = "\n".join(
        f'<li><a href="{html.escape(base_url)}voila/render/{html.escape(urllib.parse.quote(lesson.path))}">'
        f'<span class="rl-title">{html.escape(lesson.title)}</span>{_progress(lesson, solved)}</a></li>'
        for lesson in lessons)
    said = {key: html.escape(text) for key, text in (("name", _("Your name")), ("show", _("Show my progress")),
                                                    ("hello", _("Hello, {name}.").format(name=who or "")),
                                                    ("lessons", _("Lessons")))}
    if ask_name:
        who_html = (f'<form class="rl-who" method="get"><label for="rl-name">{said["name"]}</label>'
                    f'<input id="rl-name" name="name" value="{html.escape(who or "")}" maxlength="60" '
                    f'autocomplete="name"><button type="submit">{said["show"]}</button></form>')
    else:
        who_html = f'<p class="rl-who">{said["hello"]}</p>' if who else ""
    note_html = f'<p class="rl-note">{html.escape(note)}</p>' if note else ""
    lang = html.escape(html_lang())
    return (f'<!DOCTYPE html><html lang="{lang}"><head><meta charset="utf-8">'
            f'<meta name="viewport" content="width=device-width, initial-scale=1"><title>{said["lessons"]}</title>'
            f"<style>{STYLE}</style></head><body><main>{_languages_html(offered or [], language())}"
            f"<h1>{said['lessons']}</h1>{who_html}{note_html}"
            f'<ol class="rl-lessons">{items}</ol>{_skills_html(skills or {})}</main></body></html>')


def _known_name(typed: str | None) -> str | None:
    from ..progress import check_name

    try:
        return check_name(urllib.parse.unquote(typed)) if typed else None
    except ValueError:
        return None


def student_progress(db: str | None, *, name: str | None = None, hub_token: str | None = None
                     ) -> dict[str, dict[str, bool]] | None:
    """What the student solved, from the class's store ``db``: on a hub by her token (the service
    answers for its owner only), else by her name. None when nobody is known or there is no store;
    ValueError when the store cannot say now."""
    from ..progress import Progress
    from ..progress.hub_client import is_service_url, solved_on_hub

    if not db:
        return None
    if is_service_url(db):
        return solved_on_hub(db, hub_token) if hub_token else None
    if name is None or not Progress(db).exists():
        return {} if name is not None else None
    return Progress(db).solved(student=name)


def student_skills(db: str | None, *, name: str | None = None, hub_token: str | None = None) -> dict[str, Any]:
    """The student's skills (``progress.mastery``), found as ``student_progress`` finds her
    progress; {} when nobody is known or there is no store."""
    from ..progress import Progress
    from ..progress.hub_client import is_service_url, skills_on_hub

    if not db:
        return {}
    if is_service_url(db):
        return skills_on_hub(db, hub_token) if hub_token else {}
    if name is None or not Progress(db).exists():
        return {}
    return dict(Progress(db).skills(name))


def _skills_html(skills: dict[str, Any]) -> str:
    from ..progress.mastery import STREAK

    if not skills:
        return ""
    def state(s: Any) -> str:
        return _("mastered ✔") if s.mastered else _("{streak} of {needed} in a row").format(streak=s.streak,
                                                                                             needed=STREAK)

    items = "".join(f'<li class="{"rl-done" if s.mastered else "rl-some" if s.streak else "rl-none"}">'
                    f'{html.escape(pgettext("skill", s.skill))}: {html.escape(state(s))}</li>' for s in skills.values())
    title = html.escape(_("Your skills"))
    rule = html.escape(_("A skill is mastered after {needed} right answers in a row, each to a new question.").format(
        needed=STREAK))
    return f'<h2>{title}</h2><p class="rl-note">{rule}</p><ul class="rl-skills">{items}</ul>'


def make_handler() -> type:
    """The index's Tornado handler (a Jupyter server handler: the class's login guards it)."""
    import asyncio
    import os

    from jupyter_server.base.handlers import JupyterHandler
    from tornado import web

    from ..progress import DB_ENV, check_name

    class LessonIndexHandler(JupyterHandler):  # type: ignore[misc]
        """``GET``: the index; ``?name=…`` keeps a typed name in the browser's cookie (a laptop's class)."""

        def initialize(self, folder: str) -> None:
            self.folder = Path(folder)

        @web.authenticated  # type: ignore[misc]
        async def get(self) -> None:
            hub_auth = getattr(self.identity_provider, "hub_auth", None)
            on_hub = hub_auth is not None
            offered = offered_languages(self.folder)
            asked = self.get_argument("lang", None)
            if asked is not None:  # her choice of language, kept in her browser
                if asked in offered:
                    self.set_cookie(LANG_COOKIE, asked, path=self.base_url, httponly=True, samesite="Lax",
                                    expires_days=180)
                self.redirect(self.request.path)
                return
            kept = self.get_cookie(LANG_COOKIE)
            lang = kept if kept in offered else language()
            with using(lang):
                await self.index(on_hub, hub_auth, offered)

        async def index(self, on_hub: bool, hub_auth: Any, offered: list[str]) -> None:
            typed, note = self.get_argument("name", None), ""
            if typed is not None and not on_hub:
                try:
                    chosen = check_name(typed)
                except ValueError as exc:
                    note = str(exc)
                else:
                    self.set_cookie(NAME_COOKIE, urllib.parse.quote(chosen), path=self.base_url, httponly=True,
                                    samesite="Lax", expires_days=180)
                    self.redirect(self.request.path)
                    return
            who = self.current_user.username if on_hub else _known_name(self.get_cookie(NAME_COOKIE))
            token = getattr(hub_auth, "api_token", None) if on_hub else None
            db = os.environ.get(DB_ENV)

            def read() -> tuple[Any, dict[str, Any]]:
                return (student_progress(db, name=who, hub_token=token),
                        student_skills(db, name=who, hub_token=token))

            try:
                solved, skills = await asyncio.get_running_loop().run_in_executor(None, read)
            except ValueError as exc:  # the lessons are listed all the same
                solved, skills, note = None, {}, _("Your progress cannot be shown now: {why}").format(why=exc)
            self.set_header("Cache-Control", "no-store")
            self.finish(index_html(lessons_for(self.folder, language()), self.base_url, solved=solved, who=who,
                                   ask_name=not on_hub, note=note, skills=skills, offered=offered))

    return LessonIndexHandler
