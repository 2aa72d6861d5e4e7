"""Who has done which exercise, and what they typed: each ``lessons.check`` of a named student is a
row in an SQLite database (write-ahead log, so a class can write at once), read back as polars tables.

The database is ``RUMMYLAB_DB`` (``rummylab serve --db`` sets it; by default ``progress.sqlite``
in the served folder). Without it, nothing is recorded.

The schema has a version (table ``schema_version``); rummylab brings an older file up to date on
first connect, in one write transaction, so a class of kernels connecting at once migrates it once.
"""

from __future__ import annotations

import html
import os
import sqlite3
import time
import unicodedata
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

DB_ENV = "RUMMYLAB_DB"
NAME_MAX = 60
"""The longest student name accepted."""
ANSWER_MAX = 200
"""Characters of an answer kept (the rest is cut)."""
LABEL_MAX = 200
"""The longest lesson or exercise name accepted."""
WAIT = 60.0
"""Seconds a check waits at most while other students write."""

SCHEMA_VERSION = 2
"""v1: ``checks(student, lesson, exercise, right, at)``, no version table. v2: ``right`` is
``correct`` (``right`` is reserved in PostgreSQL; NULL: a response, neither right nor wrong), the
answer typed is kept, and a version table."""

_CREATE = [
    "CREATE TABLE schema_version (version INTEGER NOT NULL)",
    "CREATE TABLE checks (student TEXT NOT NULL, lesson TEXT NOT NULL, exercise TEXT NOT NULL, "
    "correct INTEGER, answer TEXT NOT NULL DEFAULT '', at REAL NOT NULL)",
    "CREATE INDEX checks_by_exercise ON checks (lesson, exercise)",
]
"""The current schema, on a new file (the version row is written after)."""

_MIGRATE: dict[int, list[str]] = {
    1: ["ALTER TABLE checks RENAME TO checks_v1",
        *_CREATE,
        "INSERT INTO checks (student, lesson, exercise, correct, answer, at) "
        "SELECT student, lesson, exercise, \"right\", '', at FROM checks_v1",
        "DROP TABLE checks_v1"],
}
"""From version k to the current one."""

_BUSY = (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED)


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


def _check_label(value: Any, what: str) -> str:
    """A lesson or exercise name: non-empty text of at most ``LABEL_MAX`` characters."""
    if not isinstance(value, str) or not value.strip():
        raise ValueError(f"the {what} name must be non-empty text, not {value!r}")
    if len(value) > LABEL_MAX:
        raise ValueError(f"the {what} name has {len(value)} characters; at most {LABEL_MAX}")
    return value


def default_db() -> Path | None:
    """The database checks go to (``RUMMYLAB_DB``), or None: nothing is recorded."""
    value = os.environ.get(DB_ENV, "").strip()
    return Path(value) if value else None


def _busy(exc: sqlite3.Error) -> bool:
    """Another connection holds the lock (worth waiting for)."""
    return (getattr(exc, "sqlite_errorcode", 0) & 0xFF) in _BUSY


def schema_version(con: sqlite3.Connection) -> int:
    """The file's schema version: 0 for an empty file, 1 for one from before the version table."""
    tables = {name for (name,) in con.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    if "schema_version" in tables:
        (version,) = con.execute("SELECT MAX(version) FROM schema_version").fetchone()
        return int(version or 0)
    return 1 if "checks" in tables else 0


def _migrate(con: sqlite3.Connection, path: Path) -> None:
    """Bring the file to ``SCHEMA_VERSION`` (once: the first connection to take the write lock
    does it, the others find it done). Rows are kept."""
    if schema_version(con) == SCHEMA_VERSION:
        return
    con.execute("BEGIN IMMEDIATE")
    try:
        version = schema_version(con)
        if version > SCHEMA_VERSION:
            raise ValueError(f"the progress database {path} has schema version {version}, from a newer "
                             f"rummylab (this one knows up to {SCHEMA_VERSION}): upgrade rummylab")
        if version < SCHEMA_VERSION:
            for statement in _MIGRATE[version] if version else _CREATE:
                con.execute(statement)
            con.execute("DELETE FROM schema_version")
            con.execute("INSERT INTO schema_version VALUES (?)", (SCHEMA_VERSION,))
        con.execute("COMMIT")
    except BaseException:
        if con.in_transaction:
            con.execute("ROLLBACK")
        raise


class Progress:
    """The checks database at ``path`` (made, or brought up to date, on first use)."""

    def __init__(self, path: Path | str) -> None:
        self.path = Path(path)

    def _connect(self, timeout: float = WAIT) -> sqlite3.Connection:
        """An autocommit connection to the current schema; sqlite3.OperationalError when busy past
        ``timeout``, ValueError when the file cannot be used."""
        try:
            con = sqlite3.connect(self.path, timeout=timeout, isolation_level=None)
        except sqlite3.Error as exc:
            raise ValueError(f"the progress database {self.path} cannot be used: {exc}") from None
        try:
            con.execute("PRAGMA journal_mode=WAL")
            con.execute("PRAGMA synchronous=NORMAL")  # with WAL: a crash of the machine may lose the last checks only
            _migrate(con, self.path)
        except sqlite3.Error as exc:
            con.close()
            if _busy(exc):
                raise
            raise ValueError(f"the progress database {self.path} cannot be used: {exc}") from None
        except BaseException:
            con.close()
            raise
        return con

    def _retrying(self, work: Callable[[sqlite3.Connection], Any]) -> Any:
        """``work(connection)``, tried again while other connections hold the lock, for ``WAIT`` seconds."""
        deadline = time.monotonic() + WAIT
        pause = 0.05
        while True:
            try:
                con = self._connect(timeout=max(deadline - time.monotonic(), 0.1))
                try:
                    return work(con)
                finally:
                    con.close()
            except sqlite3.OperationalError as exc:
                if not _busy(exc):
                    raise ValueError(f"the progress database {self.path} cannot be used: {exc}") from None
                if time.monotonic() > deadline:
                    raise ValueError(f"the progress database {self.path} is busy: {exc}") from None
                time.sleep(pause)
                pause = min(pause * 2, 1.0)
            except sqlite3.Error as exc:
                raise ValueError(f"the progress database {self.path} cannot be used: {exc}") from None

    def record(self, student: str, lesson: str, exercise: str, right: bool | None, answer: str = "") -> None:
        """Add one check and the answer typed (its first ``ANSWER_MAX`` characters; ``right`` None: a
        response, neither right nor wrong); waits (up to a minute) while other students write.
        ValueError for a bad input or a database that cannot be used."""
        name = check_name(student)
        lesson, exercise = _check_label(lesson, "lesson"), _check_label(exercise, "exercise")
        if not isinstance(answer, str):
            raise ValueError(f"an answer is kept as text, not {type(answer).__name__}")
        row = (name, lesson, exercise, None if right is None else int(bool(right)), answer[:ANSWER_MAX], time.time())

        def insert(con: sqlite3.Connection) -> None:
            con.execute("INSERT INTO checks (student, lesson, exercise, correct, answer, at) "
                        "VALUES (?, ?, ?, ?, ?, ?)", row)

        self._retrying(insert)

    def rows(self, student: str | None = None, lesson: str | None = None) -> Any:
        """The checks as a polars frame (student, lesson, exercise, right (null: a response), answer,
        at), oldest first; with ``student`` or ``lesson``, only theirs."""
        import polars as pl

        where, args = [], []
        if student is not None:
            where.append("student = ?")
            args.append(check_name(student))
        if lesson is not None:
            where.append("lesson = ?")
            args.append(lesson)
        sql = ("SELECT student, lesson, exercise, correct, answer, at FROM checks"
               + (" WHERE " + " AND ".join(where) if where else "") + " ORDER BY at")
        data = self._retrying(lambda con: con.execute(sql, args).fetchall())
        schema = {"student": pl.Utf8, "lesson": pl.Utf8, "exercise": pl.Utf8, "right": pl.Boolean,
                  "answer": pl.Utf8, "at": pl.Float64}
        return pl.DataFrame(data, schema=schema, orient="row")

    def lessons(self) -> list[str]:
        """The lessons with checks, sorted."""
        return [lesson for (lesson,) in self._retrying(
            lambda con: con.execute("SELECT DISTINCT lesson FROM checks ORDER BY lesson").fetchall())]

    def find_lesson(self, wanted: str) -> str:
        """The lesson with checks that ``wanted`` names ("02", "02-melds-and-deadwood", its .ipynb file);
        ValueError naming it and the lessons there are otherwise."""
        return find_lesson(wanted, self.lessons())

    def report(self, lesson: str | None = None) -> Any:
        """Per student and exercise: attempts, solved (any right answer)."""
        return report_table(self.rows(lesson=lesson))

    def exercises(self, lesson: str | None = None) -> Any:
        """Per exercise: students who tried it, students who solved it, checks."""
        return exercise_table(self.rows(lesson=lesson))

    def answers(self, lesson: str | None = None) -> Any:
        """Per exercise, the answers given: wrong ones first, the most common first."""
        return answer_table(self.rows(lesson=lesson))


def find_lesson(wanted: str, known: Iterable[str]) -> str:
    """The one of ``known`` that ``wanted`` names: itself, its number ("02") or its notebook file."""
    known = list(known)
    name = wanted.strip().removesuffix(".ipynb")
    hits = [k for k in known if k == name] or [k for k in known if k.startswith(f"{name}-")]
    if len(hits) != 1:
        why = "no checks recorded for that lesson" if not hits else "more than one lesson"
        raise ValueError(f"lesson {wanted!r}: {why} (lessons with checks: {', '.join(known) or 'none yet'})")
    return hits[0]


def report_table(rows: Any) -> Any:
    """Per student and exercise, from ``Progress.rows``: attempts, solved (any right answer)."""
    import polars as pl

    return (rows.group_by("student", "lesson", "exercise")
            .agg(pl.len().alias("attempts"), pl.col("right").any().alias("solved"))
            .sort("student", "lesson", "exercise"))


def exercise_table(rows: Any) -> Any:
    """Per exercise, from ``Progress.rows``, in the order the class first tried them: students
    who tried it, students who solved it, checks."""
    import polars as pl

    return (rows.group_by("lesson", "exercise")
            .agg(pl.col("student").n_unique().alias("tried"),
                 pl.col("student").filter(pl.col("right")).n_unique().alias("solved"),
                 pl.len().alias("checks"), pl.col("at").min().alias("first"))
            .sort("lesson", "first", "exercise").drop("first"))


def answer_table(rows: Any) -> Any:
    """Per exercise and answer, from ``Progress.rows``: right (null: a response), times given, by how
    many students; wrong answers first, then responses, then right ones, the most common first."""
    import polars as pl

    rank = pl.when(pl.col("right").is_null()).then(1).when(pl.col("right")).then(2).otherwise(0)
    return (rows.group_by("lesson", "exercise", "answer", "right")
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
