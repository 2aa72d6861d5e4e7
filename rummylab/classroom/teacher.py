"""The teacher page's HTML, shared by ``rummylab serve``'s teacher page (a token) and the rummylab
hub service's (a teacher group): the class's progress, live, a lesson at a time, and on a hub a
class (a hub group of students) at a time."""

from __future__ import annotations

import html
import urllib.parse
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path


def teacher_page(db: Path | str, wanted: str, class_url: str, groups: Mapping[str, Iterable[str]] | None = None,
                 wanted_class: str = "", note: str = "") -> str:
    """The class's progress in the store ``db`` (what ``Progress`` takes) as a page that refreshes
    itself: one lesson when ``wanted`` names one ("" for all), links to the others (``?lesson=``,
    relative, so the page works under any prefix). On a hub, ``groups`` (hub group -> its members)
    adds the classes: links to each group with a member who has checks (``?class=``), and
    ``wanted_class`` shows only its members' checks; ``note``, a sentence above the report. Names and
    answers are escaped; a store that cannot be read is one sentence, never a traceback."""
    import polars as pl

    from ..progress import Progress, find_lesson, report_html, report_table

    classes_of = {name: set(members) for name, members in (groups or {}).items()}
    chosen_class = wanted_class if wanted_class in classes_of else None

    def link(lesson: str | None, group: str | None = chosen_class) -> str:
        return "?" + urllib.parse.urlencode({k: v for k, v in (("lesson", lesson), ("class", group)) if v})

    note = f"<p class='rl-note'>{html.escape(note)}</p>" if note else ""
    if wanted_class and not chosen_class:
        note += f"<p class='rl-note'>No hub group {html.escape(repr(wanted_class))}: showing every class.</p>"
    classes = ""
    try:
        progress = Progress(db)
        if not progress.exists() and not progress.waiting():
            raise ValueError("No answer has been checked yet.")
        lessons = progress.lessons()
        lesson = None
        if wanted:
            try:
                lesson = find_lesson(wanted, lessons)
            except ValueError as exc:
                note += f"<p class='rl-note'>{html.escape(str(exc))}: showing every lesson.</p>"
        rows = progress.rows(lesson=lesson)
        if classes_of:
            everyone = rows if lesson is None else progress.rows()  # read once when no lesson is chosen
            classes = _classes_nav(classes_of, set(everyone["hub_user"].drop_nulls()), chosen_class,
                                   lambda group: link(lesson, group))
        if chosen_class:
            rows = rows.filter(pl.col("hub_user").is_in(sorted(classes_of[chosen_class])))
        page = report_html(report_table(rows), rows, lesson=lesson, lessons=lessons, link=link)
    except ValueError as exc:  # no database yet, or one that cannot be read
        page = ("<!doctype html><html><head><meta charset='utf-8'></head><body><h1>Class report</h1>"
                f"<p>{html.escape(str(exc))}</p></body></html>")
    intro = (f"<h1>The class, live</h1><p>Students join at <b>{html.escape(class_url)}</b>; this page "
             f"refreshes every 5 seconds.</p>{classes}{note}")
    style = "<style>.rl-classes a[aria-current]{font-weight:bold;text-decoration:none;color:inherit}</style>"
    return (page.replace("<head>", f"<head><meta http-equiv='refresh' content='5'>{style if classes else ''}", 1)
            .replace("<body>", "<body class='rl-teacher-page' style='font-family:sans-serif'>", 1)
            .replace("<h1>Class report</h1>", intro, 1))


def _classes_nav(groups: Mapping[str, set[str]], users: set[str], chosen: str | None,
                 link: Callable[[str | None], str]) -> str:
    """Links to every class (hub group) with a member in ``users`` (those with checks), and to all."""
    e = html.escape
    shown = sorted(name for name, members in groups.items() if members & users or name == chosen)
    if not shown:
        return ""
    items = [(None, "all classes"), *((name, name) for name in shown)]
    return ("<nav class='rl-classes'>Class: " + " | ".join(
                f"<a href='{e(link(name))}'{' aria-current=page' if name == chosen else ''}>{e(text)}</a>"
                for name, text in items) + "</nav>")
