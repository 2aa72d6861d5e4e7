"""The class report as a standalone page, from ``Progress.rows``: the gradebook, a chart of who
solved what (SVG, no scripts) and the answers per exercise; the teacher page is this page."""

from __future__ import annotations

import html
from collections.abc import Callable, Iterable
from typing import Any

from .gradebook import STYLE, gradebook_html, gradebook_of
from .report import answers_html, exercise_table
from .reviews import reviews_html
from .words import _, html_lang


def solved_ticks(top: int, most: int = 10) -> list[int]:
    """Whole-number ticks from 0 to at least ``top`` (at least 1), at most about ``most`` of them:
    a count of students has no half a student, and no label twice."""
    top = max(top, 1)
    step = max(1, -(-top // most))
    return list(range(0, top + step, step))


def _chart_svg(rows: Any) -> str:
    """Who solved what, as SVG (vl-convert: offline, no scripts): a bar a graded exercise (one
    with right or wrong answers; responses are not solved), students who solved it."""
    import io

    import altair as alt
    import polars as pl

    graded = rows.filter(pl.col("right").is_not_null())
    if not graded.height:
        return ""
    by_exercise = exercise_table(graded).rename({"tried": "students tried", "solved": "students solved"})
    several = by_exercise["lesson"].n_unique() > 1
    by_exercise = by_exercise.with_columns(
        (pl.col("lesson").str.split("-").list.first() + " " + pl.col("exercise") if several
         else pl.col("exercise")).alias("exercise"))
    ticks = solved_ticks(int(by_exercise["students solved"].max() or 0))
    solved, tried = _("students solved"), _("students tried")  # the columns keep their (English) names
    exercise = _("exercise")  # said by the bars' descriptions (for a screen reader); the axis shows no title
    chart = alt.Chart(by_exercise).mark_bar().encode(
        y=alt.Y("exercise:N", title=exercise, axis=alt.Axis(title=None), sort=None),
        x=alt.X("students solved:Q", title=solved, scale=alt.Scale(domain=[0, ticks[-1]], nice=False),
                axis=alt.Axis(values=ticks, format="d")),
        tooltip=[alt.Tooltip("exercise:N", title=exercise), alt.Tooltip("students solved:Q", title=solved),
                 alt.Tooltip("students tried:Q", title=tried)]).properties(title=_("Who solved what"))
    buf = io.StringIO()
    chart.save(buf, format="svg")
    return buf.getvalue()


def report_html(rows: Any, *, lesson: str | None = None, lessons: Iterable[str] = (),
                link: Callable[[str | None], str] | None = None, csv_link: str | None = None) -> str:
    """The class report of ``Progress.rows`` as a standalone page: a chart of who solved what
    (rendered to SVG, no scripts), the gradebook (a row a student, a column an exercise) and the
    answers per exercise. With ``link`` (lesson or None for all -> URL), links to filter by each of
    ``lessons``; ``lesson`` is the one shown; ``csv_link``, where the gradebook's CSV is downloaded."""
    e = html.escape
    said = {key: e(text) for key, text in (
        ("none", _("No checks recorded yet.")), ("lesson", _("Lesson:")), ("title", _("rummylab: class report")),
        # TRANSLATORS: the lesson the class report shows; {lesson} is its name (shown in bold).
        ("shown", _("Lesson {lesson}")))}
    svg = _chart_svg(rows) if rows.height else f"<p>{said['none']}</p>"
    nav = ""
    if link is not None and lessons:
        items = [(None, _("all lessons")), *((name, name) for name in lessons)]
        nav = f"<nav class='rl-lessons'>{said['lesson']} " + " | ".join(
            f"<a href='{e(link(name))}'{' aria-current=page' if name == lesson else ''}>{e(text)}</a>"
            for name, text in items) + "</nav>"
    shown = f"<p class='rl-lesson'>{said['shown'].format(lesson=f'<b>{e(lesson)}</b>')}</p>" if lesson else ""
    book = gradebook_html(gradebook_of(rows), csv_link) if rows.height else ""
    answers = (reviews_html(rows) + answers_html(rows)) if rows.height else ""
    return (f"<!doctype html><html lang='{page_language()}'><head><meta charset='utf-8'><title>{said['title']}</title>"
            "<style>.rl-lessons a[aria-current]{font-weight:bold;text-decoration:none;color:inherit}"
            f".rl-wrong td:nth-child(2){{color:#b71c1c}}.rl-right td:nth-child(2){{color:#1b5e20}}{STYLE}</style>"
            f"</head><body><h1>{heading()}</h1>{nav}{shown}{book}{svg}{answers}</body></html>")


def heading() -> str:
    """The report's heading in the language in use, escaped (the teacher page puts its own in its place)."""
    return html.escape(_("Class report"))


def page_language() -> str:
    """The ``lang`` of the page: the language in use (the pseudo-language's page is "en"), escaped."""
    return html.escape(html_lang())
