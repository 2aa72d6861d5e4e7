"""Who has done which exercise: each ``lessons.check`` of a named student is a row in an SQLite
database (write-ahead log, so a class can write at once), read back as polars tables.

The database is ``RUMMYLAB_DB`` (``rummylab serve --db`` sets it; by default ``progress.sqlite``
in the served folder). Without it, nothing is recorded.
"""

from __future__ import annotations

import os
import sqlite3
import time
import unicodedata
from pathlib import Path
from typing import Any

DB_ENV = "RUMMYLAB_DB"
NAME_MAX = 60
"""The longest student name accepted."""

_SCHEMA = """CREATE TABLE IF NOT EXISTS checks (
    student TEXT NOT NULL, lesson TEXT NOT NULL, exercise TEXT NOT NULL, right INTEGER NOT NULL, at REAL NOT NULL)"""


def check_name(name: Any) -> str:
    """A student's name, trimmed; ValueError says what is wrong with a bad one."""
    if not isinstance(name, str):
        raise ValueError(f"a name is text, not {type(name).__name__}")
    clean = " ".join(name.split())
    if not clean:
        raise ValueError("please type your name (it is empty)")
    if len(clean) > NAME_MAX:
        raise ValueError(f"that name has {len(clean)} characters; at most {NAME_MAX}, please")
    if any(unicodedata.category(ch).startswith("C") for ch in clean):
        raise ValueError("a name cannot hold control characters")
    return clean


def default_db() -> Path | None:
    """The database checks go to (``RUMMYLAB_DB``), or None: nothing is recorded."""
    value = os.environ.get(DB_ENV, "").strip()
    return Path(value) if value else None


class Progress:
    """The checks database at ``path`` (made on first use)."""

    def __init__(self, path: Path | str) -> None:
        self.path = Path(path)

    def _connect(self) -> sqlite3.Connection:
        try:
            con = sqlite3.connect(self.path, timeout=60)
            con.execute("PRAGMA journal_mode=WAL")
            con.execute(_SCHEMA)
        except sqlite3.DatabaseError as exc:
            raise ValueError(f"the progress database {self.path} cannot be used: {exc}") from None
        return con

    def record(self, student: str, lesson: str, exercise: str, right: bool) -> None:
        """Add one check; waits (up to a minute) while other students write."""
        name = check_name(student)
        for attempt in range(20):
            try:
                con = self._connect()
                try:
                    with con:
                        con.execute("INSERT INTO checks VALUES (?, ?, ?, ?, ?)",
                                    (name, lesson, exercise, int(bool(right)), time.time()))
                finally:
                    con.close()
                return
            except sqlite3.OperationalError as exc:  # busy past the timeout: try again
                if attempt == 19:
                    raise ValueError(f"the progress database {self.path} is busy: {exc}") from None
                time.sleep(0.05 * (attempt + 1))

    def rows(self, student: str | None = None) -> Any:
        """The checks as a polars frame; with ``student``, only that student's rows."""
        import polars as pl

        con = self._connect()
        try:
            if student is None:
                data = con.execute("SELECT student, lesson, exercise, right, at FROM checks ORDER BY at").fetchall()
            else:
                data = con.execute("SELECT student, lesson, exercise, right, at FROM checks WHERE student = ? "
                                   "ORDER BY at", (check_name(student),)).fetchall()
        finally:
            con.close()
        schema = {"student": pl.Utf8, "lesson": pl.Utf8, "exercise": pl.Utf8, "right": pl.Boolean, "at": pl.Float64}
        return pl.DataFrame(data, schema=schema, orient="row")

    def report(self) -> Any:
        """Per student and exercise: attempts, solved (any right answer), first solved (seconds)."""
        import polars as pl

        rows = self.rows()
        return (rows.group_by("student", "lesson", "exercise")
                .agg(pl.len().alias("attempts"), pl.col("right").any().alias("solved"))
                .sort("student", "lesson", "exercise"))


def report_html(table: Any) -> str:
    """The class report as a standalone page: an Altair chart (rendered to SVG, no scripts) and the table."""
    import html
    import io

    import altair as alt
    import polars as pl

    by_exercise = table.group_by("exercise").agg(pl.col("solved").sum().alias("students solved"),
                                                 pl.len().alias("students tried")).sort("exercise")
    chart = alt.Chart(by_exercise).mark_bar().encode(
        y=alt.Y("exercise:N", title=None), x=alt.X("students solved:Q"),
        tooltip=["exercise", "students solved", "students tried"]).properties(title="Who solved what")
    svg = "<p>No checks recorded yet.</p>"
    if by_exercise.height:
        buf = io.StringIO()
        chart.save(buf, format="svg")  # vl-convert: offline, no scripts in the page
        svg = buf.getvalue()
    head = "".join(f"<th>{html.escape(c)}</th>" for c in table.columns)
    body = "".join("<tr>" + "".join(f"<td>{html.escape(str(v))}</td>" for v in row) + "</tr>"
                   for row in table.iter_rows())
    return ("<!doctype html><html><head><meta charset='utf-8'><title>rummylab: class report</title></head><body>"
            f"<h1>Class report</h1>{svg}<table border='1'><tr>{head}</tr>{body}</table></body></html>")
