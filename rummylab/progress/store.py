"""``Progress``: the checks of a class in one database (SQLite or PostgreSQL), written through the
queue (a check never waits more than a moment, a row is never lost) and read back as polars tables."""

from __future__ import annotations

import math
import os
import re
import time
import unicodedata
import uuid
from pathlib import Path
from typing import Any

from . import engines, queue
from .engines import Target, Unusable
from .report import answer_table, exercise_table, find_lesson, report_table
from .words import _

DB_ENV = "RUMMYLAB_DB"
HUB_USER_ENV = "JUPYTERHUB_USER"
NAME_MAX = 60
"""The longest student name accepted."""
ANSWER_MAX = 200
"""Characters of an answer kept (the rest is cut)."""
LABEL_MAX = 200
"""The longest lesson, exercise or hub user name accepted."""
WAIT = queue.WAIT
"""Seconds a reader waits at most while other students write."""


def check_name(name: Any) -> str:
    """A student's name, trimmed; ValueError says what is wrong with a bad one."""
    if not isinstance(name, str):
        raise ValueError(_("a name is text, not {kind}").format(kind=type(name).__name__))
    clean = " ".join(name.split())
    if not clean:
        raise ValueError(_("please type your name (it is empty)"))
    if len(clean) > NAME_MAX:
        raise ValueError(_("that name has {n} characters; at most {most}, please").format(n=len(clean), most=NAME_MAX))
    if any(unicodedata.category(ch).startswith("C") for ch in clean):
        raise ValueError(_("a name cannot hold control characters"))
    return clean


def _check_label(value: Any, what: str) -> str:
    """A lesson, exercise or hub user name: non-empty text of at most ``LABEL_MAX`` characters."""
    if not isinstance(value, str) or not value.strip():
        raise ValueError(f"the {what} name must be non-empty text, not {value!r}")
    if len(value) > LABEL_MAX:
        raise ValueError(f"the {what} name has {len(value)} characters; at most {LABEL_MAX}")
    return value


CHECK_ID = re.compile(r"^[\w.:@+-]{1,200}$")


def check_row(student: Any, lesson: Any, exercise: Any, right: Any, answer: Any = "", hub_user: Any = None, *,
              check_id: Any = None, at: Any = None, variant: Any = None, skill: Any = None) -> dict[str, Any]:
    """One check as the row the queue writes, its inputs checked (ValueError names a bad one): a new
    ``check_id`` unless given (a retried check keeps its own), the time now unless ``at`` is given;
    ``variant``: the variant answered of a variant exercise (``lessons.variants``), else None;
    ``skill``: what the exercise practises, else None."""
    name = check_name(student)
    lesson, exercise = _check_label(lesson, "lesson"), _check_label(exercise, "exercise")
    if right not in (True, False, None):
        raise ValueError(f"right is True, False or None, not {right!r}")
    if not isinstance(answer, str):
        raise ValueError(f"an answer is kept as text, not {type(answer).__name__}")
    if hub_user is not None:
        hub_user = _check_label(hub_user, "hub user")
    if check_id is None:
        check_id = uuid.uuid4().hex
    elif not isinstance(check_id, str) or not CHECK_ID.match(check_id):
        raise ValueError(f"a check id is up to 200 letters, digits or _.:@+-, not {str(check_id)[:40]!r}")
    if at is None:
        at = time.time()
    elif isinstance(at, bool) or not isinstance(at, int | float) or not math.isfinite(at):
        raise ValueError(f"a check's time is a number of seconds, not {str(at)[:40]!r}")
    if variant is not None and (isinstance(variant, bool) or not isinstance(variant, int) or not 0 <= variant < 2**31):
        raise ValueError(f"a variant is a whole number, not {str(variant)[:40]!r}")
    if skill is not None:
        skill = _check_label(skill, "skill") if skill else None
    return {"check_id": check_id, "student": name, "lesson": lesson, "exercise": exercise,
            "correct": None if right is None else int(bool(right)), "answer": answer[:ANSWER_MAX],
            "at": float(at), "hub_user": hub_user, "variant": variant, "skill": skill}


def default_db() -> Path | str | None:
    """The database checks go to (``RUMMYLAB_DB``: a path, or a ``sqlite:///`` or
    ``postgresql://`` URL, returned as text), or None: nothing is recorded."""
    value = os.environ.get(DB_ENV, "").strip()
    if not value:
        return None
    return value if "://" in value else Path(value)


class Progress:
    """The checks database at ``where`` (a path or URL; made, or brought up to date, on first
    use). ValueError at once for an address that cannot be one (never naming its password)."""

    def __init__(self, where: Path | str) -> None:
        self.target: Target = engines.parse(where)
        self.path: Path | None = self.target.path
        """The SQLite file, or None for PostgreSQL."""
        self.name = self.target.shown
        """The database, named without its password."""

    def __repr__(self) -> str:
        return f"Progress({self.name!r})"

    def exists(self) -> bool:
        """False for a SQLite file not made yet (a server is taken to exist)."""
        return self.path is None or self.path.is_file()

    def record(self, student: str, lesson: str, exercise: str, right: bool | None, answer: str = "",
               hub_user: str | None = None, *, check_id: str | None = None, at: float | None = None,
               variant: int | None = None, skill: str | None = None) -> bool:
        """Add one check and the answer typed (its first ``ANSWER_MAX`` characters; ``right`` None:
        a response, neither right nor wrong), by ``hub_user`` when on JupyterHub. True once written;
        False when the database cannot be reached now: the check is written later (a background
        retry, else a local spool uploaded by the next write or report). Waits a moment at most.
        ValueError for a bad input, or a database that cannot be used (a wrong password, a file
        that is not a database): the check is kept in the spool all the same. ``check_id`` and
        ``at`` (``check_row``) are given by the hub service for a check a kernel made; ``variant``
        is the variant answered of a variant exercise, ``skill`` what the exercise practises."""
        row = check_row(student, lesson, exercise, right, answer, hub_user, check_id=check_id, at=at, variant=variant,
                        skill=skill)
        try:
            return queue.writer(self.target).put(row)
        except Unusable as exc:
            raise ValueError(str(exc)) from None

    def waiting(self) -> int:
        """Checks of this database waiting in this machine's spool (not yet in the database)."""
        return queue.Spool(self.target).count()

    def upload(self) -> int:
        """Write the checks waiting in this machine's spool; how many. ValueError when the
        database cannot be reached."""
        con = self._connect()
        try:
            return queue.Spool(self.target).upload(con)
        except Exception as exc:
            raise ValueError(str(engines.unusable(self.target, exc))) from None
        finally:
            con.close()

    def _connect(self) -> Any:
        """A connection for reading, after this process's own checks are written. ValueError when
        the database cannot be used; SQLite's busy moments are waited out."""
        w = queue.pending(self.target)
        if w is not None:
            w.drain(WAIT)
        deadline = time.monotonic() + WAIT
        pause = 0.05
        while True:
            try:
                return engines.connect(self.target, WAIT)
            except Unusable as exc:
                if exc.lasting or self.path is None or time.monotonic() > deadline:
                    raise ValueError(str(exc)) from None
                time.sleep(pause)
                pause = min(pause * 2, 1.0)

    def _read(self, text: str, args: Any = ()) -> list[tuple[Any, ...]]:
        """The rows ``text`` selects, after the spool of this machine is uploaded."""
        con = self._connect()
        try:
            try:
                queue.Spool(self.target).upload(con)
            except Exception as exc:  # noqa: BLE001 - the spool waits for the next try; the read goes on
                queue._log(f"rummylab: the spool of {self.name} waits: {engines.unusable(self.target, exc)}")
            return list(engines.execute(self.target, con, text, args).fetchall())
        except ValueError:
            raise
        except Exception as exc:
            raise ValueError(str(engines.unusable(self.target, exc))) from None
        finally:
            con.close()

    def rows(self, student: str | None = None, lesson: str | None = None) -> Any:
        """The checks as a polars frame (student, lesson, exercise, right (null: a response), answer,
        at, hub_user, variant (null: not a variant exercise), skill), oldest first; with
        ``student`` or ``lesson``, only theirs."""
        import polars as pl

        where, args = [], []
        if student is not None:
            where.append("student = ?")
            args.append(check_name(student))
        if lesson is not None:
            where.append("lesson = ?")
            args.append(lesson)
        data = self._read("SELECT student, lesson, exercise, correct, answer, at, hub_user, variant, skill FROM checks"
                          + (" WHERE " + " AND ".join(where) if where else "") + " ORDER BY at", args)
        schema = {"student": pl.Utf8, "lesson": pl.Utf8, "exercise": pl.Utf8, "right": pl.Boolean,
                  "answer": pl.Utf8, "at": pl.Float64, "hub_user": pl.Utf8, "variant": pl.Int64, "skill": pl.Utf8}
        data = [(s, le, e, None if c is None else bool(c), a, float(at), h, v, k)
                for s, le, e, c, a, at, h, v, k in data]
        return pl.DataFrame(data, schema=schema, orient="row")

    def solved(self, *, student: str | None = None, hub_user: str | None = None) -> dict[str, dict[str, bool]]:
        """One student's exercises per lesson, each True once answered right (responses left out):
        by the name she typed (a laptop's class) or by her hub login (every check of hers on a
        hub, whatever name she typed). Plain SQL: the lesson index reads it without polars."""
        if (student is None) == (hub_user is None):
            raise ValueError("say whose progress: student= (a typed name) or hub_user= (a hub login)")
        column, who = ("student", student) if student is not None else ("hub_user", hub_user)
        data = self._read(f"SELECT lesson, exercise, MAX(CASE WHEN correct = 1 THEN 1 ELSE 0 END) FROM checks "
                          f"WHERE {column} = ? AND correct IS NOT NULL GROUP BY lesson, exercise", [check_name(who)])
        out: dict[str, dict[str, bool]] = {}
        for lesson, exercise, right in data:
            out.setdefault(lesson, {})[exercise] = bool(right)
        return out

    def right_variants(self, student: str, *, by_login: bool = False) -> dict[str, dict[str, int]]:
        """Per lesson and variant exercise, how many of its variants ``student`` answered right
        (``by_login``: ``student`` is a hub login): where her variants have got to."""
        column = "hub_user" if by_login else "student"
        data = self._read(f"SELECT lesson, exercise, COUNT(DISTINCT variant) FROM checks WHERE {column} = ? "
                          "AND correct = 1 AND variant IS NOT NULL GROUP BY lesson, exercise", [check_name(student)])
        out: dict[str, dict[str, int]] = {}
        for lesson, exercise, count in data:
            out.setdefault(lesson, {})[exercise] = int(count)
        return out

    def skills(self, student: str, *, by_login: bool = False) -> dict[str, Any]:
        """``student``'s skills (``mastery.skill_states``) from her graded checks of exercises that
        name one (``by_login``: ``student`` is a hub login). Plain SQL, no polars."""
        from .mastery import skill_states

        column = "hub_user" if by_login else "student"
        data = self._read(f"SELECT skill, lesson, exercise, variant, correct FROM checks WHERE {column} = ? "
                          "AND skill IS NOT NULL AND correct IS NOT NULL ORDER BY at", [check_name(student)])
        return skill_states((k, le, e, v, bool(c)) for k, le, e, v, c in data)

    def attempts(self, student: str, prefix: str, *, by_login: bool = False) -> list[tuple[str, bool]]:
        """(exercise, right) of ``student``'s graded checks of exercises named ``prefix``…, oldest
        first (``by_login``: ``student`` is a hub login): her puzzle attempts."""
        column = "hub_user" if by_login else "student"
        data = self._read(f"SELECT exercise, correct FROM checks WHERE {column} = ? AND correct IS NOT NULL "
                          "AND exercise LIKE ? ORDER BY at", [check_name(student), prefix.replace("%", "") + "%"])
        return [(str(e), bool(c)) for e, c in data]

    def lessons(self) -> list[str]:
        """The lessons with checks, sorted."""
        return sorted(lesson for (lesson,) in self._read("SELECT DISTINCT lesson FROM checks"))

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
