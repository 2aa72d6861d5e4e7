"""The one place checks wait: a queue per database and process, written by a background thread
that retries with backoff while the database is unreachable, and a local spool of JSON-lines files
for what waits longer (kept on disk at once, so a kernel that dies loses nothing).

A queue writes to a ``Sink``: a database (``Database``), or the rummylab hub service that holds one
(``hub_client.Service``): the same waiting, spool and upload for both.

A check waits in memory for a moment at most; when a write fails, the rows go to a new spool file
(written to a temporary name, then renamed: never half a file). The thread retries; the next
successful write, in any process on this machine, uploads the spool: a file is claimed by renaming
it (one process wins), its rows are inserted in one transaction, then it is removed. A row keeps
its ``check_id`` from the start, and the database keeps one row per id, so a row uploaded twice (a
process died between the commit and the removal) is still written once.
"""

from __future__ import annotations

import atexit
import contextlib
import json
import os
import sys
import threading
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from . import engines
from .engines import COLUMNS, Target, Unusable

SPOOL_ENV = "RUMMYLAB_SPOOL"
MOMENT = 2.0
"""Seconds a check waits at most for its row to be written (then it is written later)."""
MOMENT_DOWN = 0.5
"""Seconds a check waits at most while the database is known to be unreachable."""
WAIT = 60.0
"""Seconds the thread waits for SQLite's write lock, a reader waits for a batch, and exit waits."""
BACKOFF = (0.25, 30.0)
"""The first and the longest pause between retries while the database is unreachable."""
CONNECT = 5.0
"""Seconds the thread waits for a PostgreSQL server to answer a connection."""
IDLE = 10.0
"""Seconds the thread keeps its connection open with nothing to write."""
STALE_CLAIM = 300.0
"""Seconds after which a claimed spool file whose uploader died may be claimed again."""


def spool_root() -> Path:
    """Where spooled checks wait: ``RUMMYLAB_SPOOL``, else ``$XDG_DATA_HOME/rummylab/spool``."""
    given = os.environ.get(SPOOL_ENV, "").strip()
    if given:
        return Path(given).expanduser()
    data = os.environ.get("XDG_DATA_HOME", "").strip() or str(Path.home() / ".local" / "share")
    return Path(data) / "rummylab" / "spool"


class Sink(Protocol):
    """Where a queue's rows go: ``key`` names its spool folder, ``shown`` names it without a secret."""

    @property
    def key(self) -> str: ...

    @property
    def shown(self) -> str: ...

    def connect(self) -> Any:
        """A connection for ``write`` (Unusable says why not)."""

    def write(self, con: Any, rows: list[dict[str, Any]]) -> None:
        """Write ``rows`` (dicts of ``COLUMNS``) all at once, or raise."""

    def close(self, con: Any) -> None: ...

    def unusable(self, exc: BaseException) -> Unusable:
        """``exc`` as one line naming the sink (never a secret), lasting or not."""


@dataclass(frozen=True)
class Database:
    """A database as a ``Sink``."""

    target: Target

    @property
    def key(self) -> str:
        return self.target.key

    @property
    def shown(self) -> str:
        return self.target.shown

    def connect(self) -> Any:
        return engines.connect(self.target, WAIT, connect=CONNECT)

    def write(self, con: Any, rows: list[dict[str, Any]]) -> None:
        engines.write(self.target, con, [tuple(r.get(c) for c in COLUMNS) for r in rows])

    def close(self, con: Any) -> None:
        con.close()

    def unusable(self, exc: BaseException) -> Unusable:
        return engines.unusable(self.target, exc)


def sink_of(where: Target | Sink) -> Sink:
    """A database's ``Target`` as its ``Sink``; a sink as it is."""
    return Database(where) if isinstance(where, Target) else where


def _log(message: str) -> None:
    """A line for the teacher's terminal (a kernel's own stderr, never a student's page)."""
    with contextlib.suppress(OSError, ValueError, AttributeError):  # no stderr at exit: nothing to say it on
        print(message, file=sys.__stderr__, flush=True)


class Spool:
    """The spool folder of one database (or service): files of JSON lines, one check a line."""

    def __init__(self, where: Target | Sink) -> None:
        self.sink = sink_of(where)
        self.dir = spool_root() / self.sink.key

    def put(self, rows: list[dict[str, Any]]) -> None:
        """Keep ``rows`` in a new file (complete or absent: written, synced, then renamed)."""
        self.dir.mkdir(parents=True, exist_ok=True, mode=0o700)
        note = self.dir / "DATABASE"
        if not note.exists():
            note.write_text(self.sink.shown + "\n", encoding="utf-8")  # for a person looking; never a password
        name = f"{time.time():.6f}-{os.getpid()}-{uuid.uuid4().hex[:8]}"
        tmp = self.dir / f".{name}.tmp"
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            for row in rows:
                f.write(json.dumps(row, ensure_ascii=False) + "\n")
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, self.dir / f"{name}.jsonl")

    def waiting(self) -> list[Path]:
        """The files waiting to be uploaded, oldest first (and claims abandoned by a dead uploader)."""
        try:
            names = os.listdir(self.dir)
        except FileNotFoundError:
            return []
        now = time.time()
        out = []
        for n in sorted(names):
            p = self.dir / n
            if n.endswith(".jsonl"):
                out.append(p)
            elif n.endswith(".claimed"):
                with contextlib.suppress(FileNotFoundError):
                    if now - p.stat().st_mtime > STALE_CLAIM:
                        out.append(p)
        return out

    def count(self) -> int:
        """Checks waiting in the spool."""
        total = 0
        for p in self.waiting():
            with contextlib.suppress(FileNotFoundError):
                total += sum(1 for line in p.read_text(encoding="utf-8").splitlines() if line.strip())
        return total

    def upload(self, con: Any) -> int:
        """Write every waiting file with ``con``, each in one transaction, and remove it; the
        number of rows uploaded. A file another process claimed first is left to it."""
        done = 0
        for path in self.waiting():
            claimed = path.with_name(f"{path.name.split('.')[0]}.{uuid.uuid4().hex[:8]}.claimed")
            try:
                os.rename(path, claimed)
                os.utime(claimed)
            except FileNotFoundError:
                continue  # another process took it
            try:
                rows, bad = _read(claimed)
                if rows:
                    self.sink.write(con, rows)
            except BaseException:
                with contextlib.suppress(OSError):  # back, for the next try
                    os.rename(claimed, path if path.suffix == ".jsonl" else path.with_suffix(".jsonl"))
                raise
            if bad:
                claimed.with_suffix(".bad").write_text("".join(bad), encoding="utf-8")
                _log(f"rummylab: {len(bad)} unreadable line(s) of the spool kept in {claimed.with_suffix('.bad')}")
            claimed.unlink(missing_ok=True)
            done += len(rows)
        return done


def _read(path: Path) -> tuple[list[dict[str, Any]], list[str]]:
    """The rows of a spool file, and its lines that are not a check."""
    rows, bad = [], []
    for line in path.read_text(encoding="utf-8").splitlines(keepends=True):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
            if not isinstance(row, dict) or not row.get("check_id") or not row.get("student"):
                raise ValueError("not a check")
            rows.append(row)
        except ValueError:
            bad.append(line)
    return rows, bad


@dataclass
class _Check:
    row: dict[str, Any]
    done: threading.Event = field(default_factory=threading.Event)
    written: bool = False
    error: Unusable | None = None


class Writer:
    """One database's (or service's) queue in this process, and the thread that writes it."""

    def __init__(self, where: Target | Sink) -> None:
        self.sink = sink_of(where)
        self.spool = Spool(self.sink)
        self.pid = os.getpid()
        self.cond = threading.Condition()
        self.queue: list[_Check] = []
        self.inflight: list[_Check] = []
        """Checks taken by the thread and not yet written or spooled."""
        self.error: Unusable | None = None
        """Why the last write failed (None: the last write worked)."""
        self.retry_at = 0.0
        self.pause = BACKOFF[0]
        self.stopping = False
        self.thread: threading.Thread | None = None
        self.con: Any = None

    # -- the caller's side

    def put(self, row: dict[str, Any]) -> bool:
        """Queue ``row``: True once written, False when it waits (in memory for a moment, then in
        the spool). While the database is unreachable a new check is a reason to try again at
        once (it waits less). Unusable (lasting) when the database cannot be used: the row is
        spooled, and tried again after the backoff only."""
        return self.put_all([row])

    def put_all(self, rows: list[dict[str, Any]]) -> bool:
        """``put`` for several rows at once (they wait a moment together): True once all are written."""
        checks = [_Check(row) for row in rows]
        if not checks:
            return True
        with self.cond:
            down = self.error
            if down is None or not down.lasting:
                self.queue.extend(checks)
                self.retry_at = 0.0
                self._start()
                self.cond.notify_all()
        if down is not None and down.lasting:
            try:
                self.spool.put(rows)
            except OSError as exc:  # no disk to wait on: in memory, tried after the backoff
                _log(f"rummylab: cannot spool {len(rows)} check(s): {exc}")
                with self.cond:
                    self.queue.extend(checks)
            raise Unusable(str(down), True)
        deadline = time.monotonic() + (MOMENT if down is None else MOMENT_DOWN)
        for check in checks:
            check.done.wait(max(0.0, deadline - time.monotonic()))
        lasting = next((c.error for c in checks if c.error is not None and c.error.lasting), None)
        if lasting is not None:
            raise Unusable(str(lasting), True)
        return all(c.written for c in checks)

    def drain(self, timeout: float = WAIT) -> None:
        """Wait (up to ``timeout``) until nothing of this process waits in memory."""
        deadline = time.monotonic() + timeout
        with self.cond:
            while (self.queue or self.inflight) and self.thread is not None and self.thread.is_alive():
                left = deadline - time.monotonic()
                if left <= 0:
                    return
                self.cond.wait(min(left, 0.5))

    def close(self, timeout: float = WAIT) -> None:
        """Write what waits in memory (for ``timeout`` at most), spool the rest, stop the thread.
        A batch still being written is spooled too: its ids keep it from being written twice."""
        self.drain(timeout)
        with self.cond:
            self.stopping = True
            left, self.queue = self.queue + self.inflight, []
            self.cond.notify_all()
        if left:
            try:
                self.spool.put([c.row for c in left])
            except OSError as exc:
                _log(f"rummylab: {len(left)} check(s) for {self.sink.shown} are lost: cannot spool them: {exc}")
            for c in left:
                c.done.set()
        if self.thread is not None:
            self.thread.join(timeout=5)

    def _start(self) -> None:
        if self.thread is None or not self.thread.is_alive():
            self.stopping = False
            self.thread = threading.Thread(target=self._run, name=f"rummylab-progress-{self.sink.key}",
                                           daemon=True)
            self.thread.start()

    # -- the thread's side

    def _run(self) -> None:
        idle_since = time.monotonic()
        while True:
            with self.cond:
                while not self.stopping:
                    now = time.monotonic()
                    if self.error is not None:
                        if now >= self.retry_at:
                            break
                        self.cond.wait(self.retry_at - now)
                    elif self.queue:
                        break
                    else:
                        if self.con is not None and now - idle_since > IDLE:
                            self._disconnect()
                        self.cond.wait(IDLE)
                if self.stopping:
                    self._disconnect()
                    return
                batch, self.queue = self.queue, []
                self.inflight = batch
            self._attempt(batch)
            idle_since = time.monotonic()

    def _attempt(self, batch: list[_Check]) -> None:
        """Write ``batch`` and the spool; on failure spool the batch and wait before the next try."""
        try:
            try:
                self._write(batch)
            except Unusable as exc:
                if exc.lasting:
                    raise
                self._disconnect()  # a connection the server dropped (a restart): once more, anew
                self._write(batch)
        except Unusable as exc:
            self._disconnect()
            if batch:
                try:
                    self.spool.put([c.row for c in batch])
                except OSError as spool_exc:  # no disk to wait on: keep them in memory
                    _log(f"rummylab: cannot spool {len(batch)} check(s): {spool_exc}")
                    with self.cond:
                        self.queue[:0] = batch
                        batch = []
            with self.cond:
                if self.error is None or self.error.args != exc.args:
                    _log(f"rummylab: {exc}; checks wait in {self.spool.dir} and are retried")
                self.error, self.inflight = exc, []
                self.retry_at = time.monotonic() + self.pause
                self.pause = min(self.pause * 2, BACKOFF[1])
                self.cond.notify_all()
            for c in batch:
                c.error = exc
                c.done.set()
            return
        with self.cond:
            if self.error is not None:
                _log(f"rummylab: {self.sink.shown} answers again; waiting checks written")
            self.error, self.inflight, self.pause = None, [], BACKOFF[0]
            self.cond.notify_all()
        for c in batch:
            c.written = True
            c.done.set()

    def _write(self, batch: list[_Check]) -> None:
        try:
            if self.con is None:
                self.con = self.sink.connect()
            if batch:
                self.sink.write(self.con, [c.row for c in batch])
            self.spool.upload(self.con)
        except Exception as exc:
            raise self.sink.unusable(exc) from None

    def _disconnect(self) -> None:
        if self.con is not None:
            with contextlib.suppress(Exception):  # closing a broken connection
                self.sink.close(self.con)
            self.con = None


_WRITERS: dict[tuple[int, str], Writer] = {}
_LOCK = threading.Lock()


def writer(where: Target | Sink) -> Writer:
    """This process's queue for ``where`` (one per database or service)."""
    sink = sink_of(where)
    key = (os.getpid(), sink.key)
    with _LOCK:
        w = _WRITERS.get(key)
        if w is None:
            w = _WRITERS[key] = Writer(sink)
        return w


def pending(where: Target | Sink) -> Writer | None:
    """This process's queue for ``where``, if it has one."""
    return _WRITERS.get((os.getpid(), sink_of(where).key))


EXIT_WAIT = 5.0
"""Seconds a process about to exit waits for its checks to be written before spooling them."""


def close_all(timeout: float = EXIT_WAIT) -> None:
    """Write or spool every queue of this process (registered at exit)."""
    for (pid, _), w in list(_WRITERS.items()):
        if pid == os.getpid():
            w.close(timeout)
    _WRITERS.clear()


atexit.register(close_all)
