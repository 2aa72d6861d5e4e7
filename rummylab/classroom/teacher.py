"""The teacher page's HTML, shared by ``rummylab serve``'s teacher page (a token) and the rummylab
hub service's (a teacher group): the class's progress, live, as a gradebook, a lesson at a time,
and on a hub a class (a hub group of students) at a time; and the gradebook as CSV
(``gradebook.csv`` beside the page, the same lesson and class)."""

from __future__ import annotations

import html
import re
import urllib.parse
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any

from ..i18n import _, ngettext

CSV_PATH = "gradebook.csv"
"""The gradebook's CSV, beside the teacher page (a relative link: the page works under any prefix)."""
REFRESH = 5
"""Seconds between the teacher page's refreshes."""


def _query(lesson: str | None, group: str | None) -> str:
    return urllib.parse.urlencode({k: v for k, v in (("lesson", lesson), ("class", group)) if v})


def _class_rows(progress: Any, wanted: str, classes_of: Mapping[str, set[str]], chosen_class: str | None,
                notes: list[str]) -> tuple[Any, str | None, list[str]]:
    """The rows shown (a lesson's when ``wanted`` names one, a class's when one is chosen), the
    lesson shown and every lesson with checks; a lesson not found is a sentence in ``notes``."""
    import polars as pl

    from ..progress import find_lesson

    lessons = progress.lessons()
    lesson = None
    if wanted:
        try:
            lesson = find_lesson(wanted, lessons)
        except ValueError as exc:
            # TRANSLATORS: {error} says why the lesson asked for is not shown ("lesson '07': no checks…").
            notes.append(_("{error}: showing every lesson.").format(error=exc))
    rows = progress.rows(lesson=lesson)
    if chosen_class:
        rows = rows.filter(pl.col("hub_user").is_in(sorted(classes_of[chosen_class])))
    return rows, lesson, lessons


def teacher_page(db: Path | str, wanted: str, class_url: str, groups: Mapping[str, Iterable[str]] | None = None,
                 wanted_class: str = "", note: str = "") -> str:
    """The class's progress in the store ``db`` (what ``Progress`` takes) as a page that refreshes
    itself: one lesson when ``wanted`` names one ("" for all), links to the others (``?lesson=``,
    relative, so the page works under any prefix), and to the gradebook's CSV. On a hub, ``groups``
    (hub group -> its members) adds the classes: links to each group with a member who has checks
    (``?class=``), and ``wanted_class`` shows only its members' checks; ``note``, a sentence above
    the report. Names and answers are escaped; a store that cannot be read is one sentence, never a
    traceback."""
    from ..progress import Progress, report_html
    from ..progress.page import heading, page_language

    classes_of = {name: set(members) for name, members in (groups or {}).items()}
    chosen_class = wanted_class if wanted_class in classes_of else None

    def link(lesson: str | None, group: str | None = chosen_class) -> str:
        return "?" + _query(lesson, group)

    notes = [note] if note else []
    if wanted_class and not chosen_class:
        notes.append(_("No hub group {name}: showing every class.").format(name=repr(wanted_class)))
    classes = ""
    try:
        progress = Progress(db)
        if not progress.exists() and not progress.waiting():
            raise ValueError(_("No answer has been checked yet."))
        rows, lesson, lessons = _class_rows(progress, wanted, classes_of, chosen_class, notes)
        if classes_of:
            everyone = progress.rows() if lesson is not None or chosen_class else rows
            classes = _classes_nav(classes_of, set(everyone["hub_user"].drop_nulls()), chosen_class,
                                   lambda group: link(lesson, group))
        csv_link = CSV_PATH + (f"?{q}" if (q := _query(lesson, chosen_class)) else "")
        page = report_html(rows, lesson=lesson, lessons=lessons, link=link, csv_link=csv_link)
    except ValueError as exc:  # no database yet, or one that cannot be read
        page = (f"<!doctype html><html lang='{page_language()}'><head><meta charset='utf-8'></head><body>"
                f"<h1>{heading()}</h1><p>{html.escape(str(exc))}</p></body></html>")
    shown_notes = "".join(f"<p class='rl-note'>{html.escape(n)}</p>" for n in notes)
    title = html.escape(_("The class, live"))
    # TRANSLATORS: {url} is the class's address (shown in bold); {seconds}, how often the teacher page refreshes.
    join = html.escape(ngettext("Students join at {url}; this page refreshes every {seconds} second.",
                                "Students join at {url}; this page refreshes every {seconds} seconds.", REFRESH))
    intro = (f"<h1>{title}</h1><p>{join.format(url=f'<b>{html.escape(class_url)}</b>', seconds=REFRESH)}</p>"
             f"{classes}{shown_notes}")
    style = "<style>.rl-classes a[aria-current]{font-weight:bold;text-decoration:none;color:inherit}</style>"
    refresh = f"<meta http-equiv='refresh' content='{REFRESH}'>"
    return (page.replace("<head>", f"<head>{refresh}{style if classes else ''}", 1)
            .replace("<body>", "<body class='rl-teacher-page' style='font-family:sans-serif'>", 1)
            .replace(f"<h1>{heading()}</h1>", intro, 1))


def teacher_csv(db: Path | str, wanted: str, groups: Mapping[str, Iterable[str]] | None = None,
                wanted_class: str = "") -> tuple[str, str]:
    """The gradebook of the rows the teacher page shows (the same ``wanted`` lesson and class) as
    (a file name, CSV text: ``gradebook.gradebook_csv``); only a header before the first check.
    A store that cannot be read: ValueError."""
    from ..progress import Gradebook, Progress, gradebook_csv, gradebook_of

    classes_of = {name: set(members) for name, members in (groups or {}).items()}
    chosen_class = wanted_class if wanted_class in classes_of else None
    progress = Progress(db)
    lesson, book = None, Gradebook([], [], [])
    if progress.exists() or progress.waiting():
        rows, lesson, _lessons = _class_rows(progress, wanted, classes_of, chosen_class, [])
        book = gradebook_of(rows)
    parts = ["gradebook", *(p for p in (lesson, chosen_class) if p)]
    name = re.sub(r"[^A-Za-z0-9._-]+", "_", "-".join(parts)) + ".csv"
    return name, gradebook_csv(book)


def csv_headers(name: str) -> dict[str, str]:
    """HTTP headers of the gradebook's CSV: a download named ``name``, never kept by a cache."""
    return {"Content-Type": "text/csv; charset=utf-8", "Content-Disposition": f'attachment; filename="{name}"',
            "Cache-Control": "no-store"}


def _classes_nav(groups: Mapping[str, set[str]], users: set[str], chosen: str | None,
                 link: Callable[[str | None], str]) -> str:
    """Links to every class (hub group) with a member in ``users`` (those with checks), and to all."""
    e = html.escape
    shown = sorted(name for name, members in groups.items() if members & users or name == chosen)
    if not shown:
        return ""
    items = [(None, _("all classes")), *((name, name) for name in shown)]
    label = html.escape(_("Class:"))
    return (f"<nav class='rl-classes'>{label} " + " | ".join(
                f"<a href='{e(link(name))}'{' aria-current=page' if name == chosen else ''}>{e(text)}</a>"
                for name, text in items) + "</nav>")
