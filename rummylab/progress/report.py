"""The class report from ``Progress.rows``: per student and exercise, per exercise, the answers given
(wrong first, the most common first), as tables, plain text and a standalone page."""

from __future__ import annotations

import html
import unicodedata
from collections.abc import Callable, Iterable
from typing import Any


def find_lesson(wanted: str, known: Iterable[str]) -> str:
    """The one of ``known`` that ``wanted`` names: itself, its number ("02") or its notebook file."""
    known = list(known)
    name = wanted.strip().removesuffix(".ipynb")
    hits = [k for k in known if k == name] or [k for k in known if k.startswith(f"{name}-")]
    if len(hits) != 1:
        why = "no checks recorded for that lesson" if not hits else "more than one lesson"
        raise ValueError(f"lesson {wanted!r}: {why} (lessons with checks: {', '.join(known) or 'none yet'})")
    return hits[0]


def person() -> Any:
    """Who a row counts for: her hub user where there is one (a typed name is only shown), else the
    name she typed (a laptop's class has no hub)."""
    import polars as pl

    return pl.coalesce(pl.col("hub_user"), pl.col("student"))


def shown_name() -> Any:
    """A student as the teacher reads her: the name she typed and her hub user, "Bea (student02)",
    where they differ, so that a typed name never hides (or takes) who answered."""
    import polars as pl

    hub = pl.col("hub_user")
    return (pl.when(hub.is_not_null() & (hub != pl.col("student")))
            .then(pl.concat_str([pl.col("student"), pl.lit(" ("), hub, pl.lit(")")]))
            .otherwise(pl.col("student")))


def report_table(rows: Any) -> Any:
    """Per student (her hub user, on a hub) and exercise, from ``Progress.rows``: attempts, solved
    (any right answer); a student is shown by the name she typed last and her hub user, the same
    on every row."""
    import polars as pl

    rows = rows.with_columns(person().alias("_who"), shown_name().alias("student"))
    names = rows.sort("at").group_by("_who").agg(pl.col("student").last())  # one name a person: her latest
    return (rows.group_by("_who", "lesson", "exercise")
            .agg(pl.len().alias("attempts"), pl.col("right").any().alias("solved"))
            .join(names, on="_who").sort("_who", "lesson", "exercise")
            .select("student", "lesson", "exercise", "attempts", "solved"))


def exercise_table(rows: Any) -> Any:
    """Per exercise, from ``Progress.rows``, in the order the class first tried them: students
    (hub users, on a hub) who tried it, who solved it, checks."""
    import polars as pl

    return (rows.with_columns(person().alias("student")).group_by("lesson", "exercise")
            .agg(pl.col("student").n_unique().alias("tried"),
                 pl.col("student").filter(pl.col("right")).n_unique().alias("solved"),
                 pl.len().alias("checks"), pl.col("at").min().alias("first"))
            .sort("lesson", "first", "exercise").drop("first"))


def answer_table(rows: Any) -> Any:
    """Per exercise and answer, from ``Progress.rows``: right (null: a response), times given, by how
    many students; wrong answers first, then responses, then right ones, the most common first."""
    import polars as pl

    rank = pl.when(pl.col("right").is_null()).then(1).when(pl.col("right")).then(2).otherwise(0)
    return (rows.with_columns(person().alias("student")).group_by("lesson", "exercise", "answer", "right")
            .agg(pl.len().alias("times"), pl.col("student").n_unique().alias("students"))
            .sort([pl.col("lesson"), pl.col("exercise"), rank, pl.col("times"), pl.col("answer")],
                  descending=[False, False, False, True, False]))


WRONG_SHOWN = 10
"""Wrong answers shown per exercise (the most common); the others are counted."""
RIGHT_SHOWN = 5
RESPONSES_SHOWN = 60


def _kind(right: bool | None) -> str:
    return "response" if right is None else "right" if right else "wrong"


def _per_exercise(rows: Any) -> list[tuple[dict[str, Any], list[dict[str, Any]], tuple[int, int]]]:
    """For each exercise: its counts (and ``summary``, a sentence of them), the answers shown, and
    (answers, times) of the wrong ones left out."""
    answers = answer_table(rows)
    out = []
    for ex in exercise_table(rows).iter_rows(named=True):
        given = answers.filter((answers["lesson"] == ex["lesson"]) & (answers["exercise"] == ex["exercise"]))
        of = {kind: [a for a in given.iter_rows(named=True) if _kind(a["right"]) == kind]
              for kind in ("wrong", "response", "right")}
        rest = of["wrong"][WRONG_SHOWN:]
        shown = of["wrong"][:WRONG_SHOWN] + of["response"][:RESPONSES_SHOWN] + of["right"][:RIGHT_SHOWN]
        students, checks = _count(ex["tried"], "student"), _count(ex["checks"], "check")
        ex["summary"] = (f"{students} answered" if not of["wrong"] and not of["right"] else
                         f"{students} tried, {ex['solved']} solved") + f" ({checks})"
        out.append((ex, shown, (len(rest), sum(a["times"] for a in rest))))
    return out


def _count(n: int, what: str) -> str:
    return f"{n} {what}{'s' if n != 1 else ''}"


def _printable(text: str) -> str:
    """``text`` with control characters shown as escapes (for a terminal)."""
    return "".join(repr(ch)[1:-1] if unicodedata.category(ch).startswith("C") else ch for ch in text)


def answers_text(rows: Any) -> str:
    """The answers per exercise as plain text, from ``Progress.rows``."""
    lines = []
    for ex, shown, (more, times) in _per_exercise(rows):
        lines.append(f"{_printable(ex['lesson'])} / {_printable(ex['exercise'])}: {ex['summary']}")
        for a in shown:
            answer = repr(_printable(a["answer"])) if a["answer"] else "(not kept)"
            lines.append(f"  {_kind(a['right']):8}  {answer}  x{a['times']} ({_count(a['students'], 'student')})")
        if more:
            lines.append(f"  ... {more} other wrong answers, {times} times")
    return "\n".join(lines) or "No checks recorded yet."


def _answers_html(rows: Any) -> str:
    """The answers per exercise as HTML (every name and answer escaped)."""
    e = html.escape
    parts = ["<section class='rl-answers'><h2>Answers per exercise</h2>"]
    for ex, shown, (more, times) in _per_exercise(rows):
        parts.append(f"<div class='rl-exercise-answers'><h3>{e(ex['lesson'])} &middot; {e(ex['exercise'])}</h3>"
                     f"<p class='rl-counts'>{e(ex['summary'])}</p><table border='1'><tr><th>answer</th><th></th>"
                     "<th>times</th><th>students</th></tr>")
        for a in shown:
            answer = f"<code>{e(a['answer'])}</code>" if a["answer"] else "<i>(not kept)</i>"
            kind = _kind(a["right"])
            parts.append(f"<tr class='rl-{kind}'><td>{answer}</td><td>{kind}</td><td>{a['times']}</td>"
                         f"<td>{a['students']}</td></tr>")
        parts.append("</table>")
        if more:
            parts.append(f"<p>&hellip; and {more} other wrong answers, given {times} times.</p>")
        parts.append("</div>")
    return "".join(parts) + "</section>"


def report_html(table: Any, rows: Any = None, *, lesson: str | None = None, lessons: Iterable[str] = (),
                link: Callable[[str | None], str] | None = None) -> str:
    """The class report as a standalone page: an Altair chart (rendered to SVG, no scripts), the
    answers per exercise (with ``rows``, from ``Progress.rows``) and the table ``table`` (from
    ``Progress.report``). With ``link`` (lesson or None for all -> URL), links to filter by each of
    ``lessons``; ``lesson`` is the one shown."""
    import io

    import altair as alt
    import polars as pl

    e = html.escape
    by_exercise = (exercise_table(rows).rename({"tried": "students tried", "solved": "students solved"})
                   if rows is not None else
                   table.group_by("exercise").agg(pl.col("solved").sum().alias("students solved"),
                                                  pl.len().alias("students tried")).sort("exercise"))
    chart = alt.Chart(by_exercise).mark_bar().encode(
        y=alt.Y("exercise:N", title=None, sort=None),
        x=alt.X("students solved:Q", axis=alt.Axis(tickMinStep=1, format="d")),
        tooltip=["exercise", "students solved", "students tried"]).properties(title="Who solved what")
    svg = "<p>No checks recorded yet.</p>"
    if by_exercise.height:
        buf = io.StringIO()
        chart.save(buf, format="svg")  # vl-convert: offline, no scripts in the page
        svg = buf.getvalue()
    nav = ""
    if link is not None and lessons:
        items = [(None, "all lessons"), *((name, name) for name in lessons)]
        nav = "<nav class='rl-lessons'>Lesson: " + " | ".join(
            f"<a href='{e(link(name))}'{' aria-current=page' if name == lesson else ''}>{e(text)}</a>"
            for name, text in items) + "</nav>"
    shown = f"<p class='rl-lesson'>Lesson <b>{e(lesson)}</b></p>" if lesson else ""
    answers = _answers_html(rows) if rows is not None else ""
    head = "".join(f"<th>{e(c)}</th>" for c in table.columns)
    body = "".join("<tr>" + "".join(f"<td>{e(str(v))}</td>" for v in row) + "</tr>" for row in table.iter_rows())
    return ("<!doctype html><html><head><meta charset='utf-8'><title>rummylab: class report</title>"
            "<style>.rl-lessons a[aria-current]{font-weight:bold;text-decoration:none;color:inherit}"
            ".rl-wrong td:nth-child(2){color:#b71c1c}.rl-right td:nth-child(2){color:#1b5e20}</style></head><body>"
            f"<h1>Class report</h1>{nav}{shown}{svg}{answers}<h2>Students</h2>"
            f"<table border='1' class='rl-students'><tr>{head}</tr>{body}</table></body></html>")
