"""Where the checks are kept: a path or ``sqlite:///…`` (SQLite, embedded, one machine) or
``postgresql://user[:password]@host:port/db`` (PostgreSQL through psycopg 3), one schema and one
SQL text for both, created and migrated by rummylab.

The adapter is written by hand, not an ORM: SQLAlchemy would be a large dependency for six
queries, and the two engines differ here only in the parameter mark (``?`` / ``%s``), how a
connection is opened, how tables are listed, how a migration is locked and which errors are
worth waiting out.
"""

from __future__ import annotations

import contextlib
import hashlib
import re
import sqlite3
import urllib.parse
from dataclasses import dataclass
from pathlib import Path
from typing import Any

SCHEMA_VERSION = 4
"""v1: ``checks(student, lesson, exercise, right, at)``, no version table. v2: ``right`` is
``correct`` (``right`` is reserved in PostgreSQL; NULL: a response, neither right nor wrong), the
answer typed is kept, and a version table. v3: ``hub_user`` (the JupyterHub user, or NULL) and
``check_id`` (unique: a check retried after a lost connection or uploaded from a spool is
written once). v4: ``variant`` (which variant of a variant exercise was answered, or NULL) and
``skill`` (what the exercise practises, or NULL)."""

_V2 = [
    "CREATE TABLE schema_version (version INTEGER NOT NULL)",
    "CREATE TABLE checks (student TEXT NOT NULL, lesson TEXT NOT NULL, exercise TEXT NOT NULL, "
    "correct INTEGER, answer TEXT NOT NULL DEFAULT '', at DOUBLE PRECISION NOT NULL)",
    "CREATE INDEX checks_by_exercise ON checks (lesson, exercise)",
]
_V3 = [
    "ALTER TABLE checks ADD COLUMN hub_user TEXT",
    "ALTER TABLE checks ADD COLUMN check_id TEXT",
    "CREATE UNIQUE INDEX checks_by_id ON checks (check_id)",
]
_STEPS: dict[int, tuple[list[str], int]] = {
    0: (_V2, 2),
    1: (["ALTER TABLE checks RENAME TO checks_v1",
         *_V2,
         "INSERT INTO checks (student, lesson, exercise, correct, answer, at) "
         "SELECT student, lesson, exercise, \"right\", '', at FROM checks_v1",
         "DROP TABLE checks_v1"], 2),
    2: (_V3, 3),
    3: (["ALTER TABLE checks ADD COLUMN variant INTEGER", "ALTER TABLE checks ADD COLUMN skill TEXT"], 4),
}
"""From version k: the statements, and the version they make (0: an empty database); the version
row is written after the last.
Every statement runs as it is on both engines (``DOUBLE PRECISION``: PostgreSQL's ``REAL`` keeps
7 digits, too few for a time)."""

COLUMNS = ("check_id", "student", "lesson", "exercise", "correct", "answer", "at", "hub_user", "variant", "skill")
INSERT = (f"INSERT INTO checks ({', '.join(COLUMNS)}) VALUES ({', '.join('?' * len(COLUMNS))}) "
          "ON CONFLICT (check_id) DO NOTHING")
"""A check written twice (a retry, a spool uploaded twice) is kept once."""

_LOCK = 0x72756D6D796C6162
"""The PostgreSQL advisory lock a migration holds ("rummylab")."""


@dataclass(frozen=True)
class Target:
    """A parsed database address: ``engine`` "sqlite" (``path``) or "postgresql" (``url``, with
    the password); ``shown`` names it without the password; ``key`` is a stable name for its spool."""

    engine: str
    shown: str
    path: Path | None = None
    url: str = ""
    password: str = ""

    @property
    def key(self) -> str:
        return hashlib.sha256(self.shown.encode()).hexdigest()[:16]

    def scrub(self, text: str) -> str:
        """``text`` with the password (and its URL-quoted form) replaced by ***."""
        for secret in {self.password, urllib.parse.quote(self.password, safe="")} - {""}:
            text = text.replace(secret, "***")
        return text


def parse(where: Path | str) -> Target:
    """The database at ``where``: a path, ``sqlite:///relative`` or ``sqlite:////absolute`` (as
    SQLAlchemy writes them), or ``postgresql://user[:password]@host[:port]/db[?options]``.
    ValueError names the bad part (never the password)."""
    if isinstance(where, Path):
        return _sqlite(where)
    if not isinstance(where, str) or not where.strip():
        raise ValueError(f"a progress database is a path or a URL, not {where!r}")
    text = where.strip()
    scheme, sep, rest = text.partition("://")
    if not sep:
        return _sqlite(Path(text))
    scheme = scheme.lower()
    if scheme == "sqlite":
        if not rest.startswith("/") or len(rest) < 2:
            raise ValueError(f"{_no_secret(text)}: a SQLite URL is sqlite:///relative/path or "
                             "sqlite:////absolute/path (no host)")
        return _sqlite(Path(rest[1:]))
    if scheme in ("postgresql", "postgres"):
        return _postgresql(text)
    raise ValueError(f"unknown database scheme {scheme!r} in {_no_secret(text)}: use a path, "
                     "sqlite:///PATH or postgresql://user:password@host:port/db")


def _sqlite(path: Path) -> Target:
    path = path.expanduser().resolve()
    return Target("sqlite", str(path), path=path)


def _no_secret(url: str) -> str:
    """``url`` with any password after ``user:`` hidden."""
    return re.sub(r"(://[^/@:]*):[^/@]*@", r"\1:***@", url)


def _postgresql(url: str) -> Target:
    shown = _no_secret(url)
    try:
        parts = urllib.parse.urlsplit(url)
        port = parts.port
    except ValueError as exc:
        raise ValueError(f"a bad PostgreSQL URL {shown}: {_no_secret(str(exc))}") from None
    db = urllib.parse.unquote(parts.path.lstrip("/"))
    if not db or "/" in db:
        raise ValueError(f"a bad PostgreSQL URL {shown}: name one database after the host, as in "
                         "postgresql://user:password@host:5432/rummylab")
    options = urllib.parse.parse_qs(parts.query)
    if not parts.hostname and "host" not in options:
        raise ValueError(f"a bad PostgreSQL URL {shown}: it names no host")
    user = urllib.parse.unquote(parts.username or "")
    host = parts.hostname or options["host"][0]
    name = f"postgresql://{user + '@' if user else ''}{host}{f':{port}' if port else ''}/{db}"
    return Target("postgresql", name, url=url, password=urllib.parse.unquote(parts.password or ""))


class Unusable(Exception):
    """The database cannot be written now: ``lasting`` when waiting will not help (a wrong
    password, a file that is not a database, a schema from a newer rummylab). The message names
    the database, never its password."""

    def __init__(self, message: str, lasting: bool) -> None:
        super().__init__(message)
        self.lasting = lasting


_PG_LASTING = ("authentication failed", "does not exist", "no pg_hba.conf entry", "no password supplied",
               "not permitted to log in", "permission denied", "password must be", "invalid connection option",
               "invalid sslmode", "invalid integer value")


def _lasting(target: Target, exc: BaseException) -> bool:
    """Waiting will not help with this error."""
    if isinstance(exc, ValueError):
        return True
    if target.engine == "sqlite":
        code = getattr(exc, "sqlite_errorcode", 0) & 0xFF
        return code not in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED, sqlite3.SQLITE_IOERR, sqlite3.SQLITE_FULL)
    state = getattr(exc, "sqlstate", None) or ""
    if state[:2] in ("08", "53", "57", "40"):  # connection, resources, shutdown, serialisation
        return False
    if state:
        return True
    return any(mark in str(exc) for mark in _PG_LASTING)


def unusable(target: Target, exc: BaseException) -> Unusable:
    """One line naming the database and what is wrong (the first line of the driver's message)."""
    if isinstance(exc, Unusable):
        return exc
    said = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
    said = said.removeprefix("connection failed: ")
    if isinstance(exc, ValueError):
        message = said
    elif _lasting(target, exc):
        message = f"the progress database {target.shown} cannot be used: {said}"
    else:
        message = f"the progress database {target.shown} cannot be reached now: {said}"
    return Unusable(target.scrub(message), _lasting(target, exc))


def connect(target: Target, timeout: float, connect: float = 10.0) -> Any:
    """An autocommit DB-API connection, on the current schema (migrated first if need be); SQLite
    waits up to ``timeout`` for its lock, PostgreSQL ``connect`` for the server. Unusable says why not."""
    try:
        con = _open(target, timeout, connect)
    except Exception as exc:
        raise unusable(target, exc) from None
    try:
        migrate(target, con)
    except Exception as exc:
        con.close()
        raise unusable(target, exc) from None
    return con


def _open(target: Target, timeout: float, connect: float) -> Any:
    if target.engine == "sqlite":
        assert target.path is not None
        con = sqlite3.connect(target.path, timeout=timeout, isolation_level=None, check_same_thread=False)
        try:
            con.execute("PRAGMA journal_mode=WAL")
            con.execute("PRAGMA synchronous=NORMAL")  # with WAL: a crash of the machine may lose the last checks only
        except BaseException:
            con.close()
            raise
        return con
    try:
        import psycopg
    except ImportError:
        raise ValueError(f"the progress database {target.shown} needs psycopg: "
                         "pip install 'rummylab[hub]'") from None
    return psycopg.connect(target.url, autocommit=True, connect_timeout=max(2, round(connect)),
                           application_name="rummylab")


def sql(target: Target, text: str) -> str:
    """``text`` in the engine's parameter style (the SQL here has no other ``?`` and no ``%``)."""
    return text.replace("?", "%s") if target.engine == "postgresql" else text


def execute(target: Target, con: Any, text: str, args: Any = ()) -> Any:
    """A cursor over ``text`` run with ``args``."""
    cur = con.cursor()
    cur.execute(sql(target, text), args)
    return cur


def schema_version(target: Target, con: Any) -> int:
    """The database's schema version: 0 when empty, 1 for a file from before the version table."""
    if target.engine == "sqlite":
        listed = "SELECT name FROM sqlite_master WHERE type = 'table'"
    else:
        listed = "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema()"
    tables = {name for (name,) in execute(target, con, listed).fetchall()}
    if "schema_version" in tables:
        (version,) = execute(target, con, "SELECT MAX(version) FROM schema_version").fetchone()
        return int(version or 0)
    return 1 if "checks" in tables else 0


def begin(target: Target, con: Any) -> None:
    """Start a write transaction (SQLite: taking the write lock now, so two writers never deadlock)."""
    execute(target, con, "BEGIN IMMEDIATE" if target.engine == "sqlite" else "BEGIN")


def migrate(target: Target, con: Any) -> None:
    """Bring the database to ``SCHEMA_VERSION``, keeping its rows, once: the first connection to
    take the lock (SQLite's write lock; PostgreSQL: a transaction-level advisory lock) does it, in
    one transaction, and the others find it done. ValueError for a schema from a newer rummylab."""
    if schema_version(target, con) == SCHEMA_VERSION:
        return
    begin(target, con)
    try:
        if target.engine == "postgresql":
            execute(target, con, "SELECT pg_advisory_xact_lock(?)", (_LOCK,))
        version = schema_version(target, con)
        if version > SCHEMA_VERSION:
            raise ValueError(f"the progress database {target.shown} has schema version {version}, from a newer "
                             f"rummylab (this one knows up to {SCHEMA_VERSION}): upgrade rummylab")
        if version < SCHEMA_VERSION:
            step = version
            while step < SCHEMA_VERSION:
                statements, step = _STEPS[step]
                for statement in statements:
                    execute(target, con, statement)
            execute(target, con, "DELETE FROM schema_version")
            execute(target, con, "INSERT INTO schema_version (version) VALUES (?)", (SCHEMA_VERSION,))
        execute(target, con, "COMMIT")
    except BaseException:
        with contextlib.suppress(Exception):  # the connection may be gone; the first error says why
            execute(target, con, "ROLLBACK")
        raise


def write(target: Target, con: Any, rows: list[tuple[Any, ...]]) -> None:
    """Insert ``rows`` (in ``COLUMNS`` order) in one transaction, on the current schema."""
    begin(target, con)
    try:
        (version,) = execute(target, con, "SELECT MAX(version) FROM schema_version").fetchone()
        if version != SCHEMA_VERSION:
            raise ValueError(f"the progress database {target.shown} has schema version {version}, "
                             f"not {SCHEMA_VERSION}: another rummylab changed it (upgrade rummylab)")
        con.cursor().executemany(sql(target, INSERT), rows)
        execute(target, con, "COMMIT")
    except BaseException:
        with contextlib.suppress(Exception):  # the connection may be gone; the first error says why
            execute(target, con, "ROLLBACK")
        raise
