"""The teacher page's HTML, shared by ``rummylab serve``'s teacher page (a token) and the rummylab
hub service's (a teacher group): the class's progress, live, a lesson at a time."""

from __future__ import annotations

import html
import urllib.parse
from pathlib import Path
from typing import Any


def teacher_page(db: Path | str, wanted: str, class_url: str) -> str:
    """The class's progress in the store ``db`` (what ``Progress`` takes) as a page that refreshes
    itself: one lesson when ``wanted`` names one ("" for all), links to the others (``?lesson=``,
    relative, so the page works under any prefix). Names and answers are escaped; a store that
    cannot be read is one sentence, never a traceback."""
    from .progress import Progress, find_lesson, report_html, report_table

    def link(lesson: str | None) -> str:
        return "?" + urllib.parse.urlencode({"lesson": lesson} if lesson else {})

    note = ""
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
                note = f"<p class='rl-note'>{html.escape(str(exc))}: showing every lesson.</p>"
        rows = with_hub_users(progress.rows(lesson=lesson))
        page = report_html(report_table(rows), rows, lesson=lesson, lessons=lessons, link=link)
    except ValueError as exc:  # no database yet, or one that cannot be read
        page = ("<!doctype html><html><head><meta charset='utf-8'></head><body><h1>Class report</h1>"
                f"<p>{html.escape(str(exc))}</p></body></html>")
    intro = (f"<h1>The class, live</h1><p>Students join at <b>{html.escape(class_url)}</b>; this page "
             f"refreshes every 5 seconds.</p>{note}")
    return (page.replace("<head>", "<head><meta http-equiv='refresh' content='5'>", 1)
            .replace("<body>", "<body class='rl-teacher-page' style='font-family:sans-serif'>", 1)
            .replace("<h1>Class report</h1>", intro, 1))


def with_hub_users(rows: Any) -> Any:
    """``rows`` with each student shown by the name she typed and her hub user, "Ada (student01)",
    where they differ: a typed name is only shown, so two students typing the same one stay apart."""
    import polars as pl

    hub = pl.col("hub_user")
    return rows.with_columns(
        pl.when(hub.is_not_null() & (hub != pl.col("student")))
        .then(pl.concat_str([pl.col("student"), pl.lit(" ("), hub, pl.lit(")")]))
        .otherwise(pl.col("student")).alias("student"))
