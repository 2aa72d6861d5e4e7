"""Progress a teacher can see: named students' checks and what they typed, in SQLite (a path or a
sqlite:/// URL) or PostgreSQL, the same behaviour on each; the class report with the answers per
exercise; bad names, bad addresses and broken databases get a clear message and the lesson goes on;
a class writing at once loses nothing, even across a server restart; a database gone mid-lesson
costs a check no time and loses no row (a spool, uploaded once); an older schema is migrated once,
keeping its rows, however many kernels connect at once."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import polars as pl
import pytest

from rummylab import lessons
from rummylab.cli import main
from rummylab.lessons import exercises
from rummylab.progress import ANSWER_MAX, NAME_MAX, SCHEMA_VERSION, Progress, check_name, find_lesson, queue

pytestmark = pytest.mark.once
PROGRESS = Path(__file__).resolve().parents[1] / "rummylab" / "progress"
ENGINES = ["path", "sqlite-url", pytest.param("postgresql", marks=pytest.mark.xdist_group("postgresql"))]


@pytest.fixture(autouse=True)
def spool(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """Each test's own spool; its queues written and stopped at the end."""
    folder = tmp_path / "spool"
    monkeypatch.setenv("RUMMYLAB_SPOOL", str(folder))
    yield folder
    queue.close_all(timeout=5)


_DBS = [0]


@pytest.fixture(params=ENGINES)
def where(request: pytest.FixtureRequest, tmp_path: Path) -> str | Path:
    """A new, empty database: a path, a sqlite:/// URL, or a database on the test cluster."""
    if request.param == "path":
        return tmp_path / "progress.sqlite"
    if request.param == "sqlite-url":
        return f"sqlite:///{tmp_path / 'progress.sqlite'}"  # sqlite:////absolute/path
    _DBS[0] += 1
    return str(request.getfixturevalue("pg_cluster").create_db(f"t{os.getpid()}_{_DBS[0]}"))


@pytest.fixture
def classroom(where: str | Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[str | Path]:
    """A class keeping progress in lesson 00, with its exercise ``deck_size``; no name given yet."""
    monkeypatch.setenv("RUMMYLAB_DB", str(where))
    monkeypatch.setenv("RUMMYLAB_LESSON", "00-start-here")
    monkeypatch.setattr(exercises, "_STUDENT", None)
    exercises.reset()
    exercises.PENDING.clear()
    lessons.exercise("deck_size", "How many cards in a deck?", answer=52, mistakes={54: "Without the jokers."})
    yield where
    exercises.reset()
    exercises.PENDING.clear()


@pytest.mark.parametrize(("name", "why"), [("", "empty"), ("   ", "empty"), ("x" * 200, "at most 60"),
                                           ("a\x07b", "control"), (42, "text")])
def test_bad_names_are_explained(name: object, why: str) -> None:
    with pytest.raises(ValueError, match=why):
        check_name(name)
    assert check_name("  Ana   Pop ") == "Ana Pop" and len(check_name("y" * NAME_MAX)) == NAME_MAX


def test_checks_of_a_named_student_are_recorded(classroom: str | Path, monkeypatch: pytest.MonkeyPatch) -> None:
    lessons.check("deck_size", 53)  # no name yet: kept, not recorded
    p = Progress(classroom)
    assert not p.exists() or p.path is None
    lessons.set_student("Ana")  # then recorded under the name
    assert lessons.check("deck_size", 54).right is False
    assert lessons.check("deck_size", 52).right is True
    assert lessons.check("deck_size", ...).right is None  # a blank is not an attempt
    monkeypatch.setenv("JUPYTERHUB_USER", "radu-p")  # on JupyterHub, rows name the hub user
    lessons.set_student("Radu")
    lessons.check("deck_size", "52")
    assert p.rows().height == 4
    mine = p.rows(student="Ana")  # a student reads only their own rows
    assert set(mine["student"]) == {"Ana"} and mine["right"].to_list() == [False, False, True]
    assert mine["answer"].to_list() == ["53", "54", "52"]  # what was typed, normalised
    assert p.rows()["hub_user"].to_list() == [None, None, None, "radu-p"]
    report = p.report()
    ana = report.filter(report["student"] == "Ana").row(0, named=True)
    assert (ana["exercise"], ana["attempts"], ana["solved"], ana["lesson"]) == ("deck_size", 3, True, "00-start-here")
    assert p.waiting() == 0


@pytest.mark.parametrize("where", ["path"], indirect=True)
def test_a_broken_database_never_stops_the_lesson(classroom: Path, spool: Path) -> None:
    classroom.write_bytes(b"this is not a database" * 100)
    lessons.set_student("Ana")
    f = lessons.check("deck_size", 52)
    assert f.right is True and "saved later" in f.why and "cannot be used" in f.why
    with pytest.raises(ValueError, match="cannot be used"):
        Progress(classroom).rows()
    assert Progress(classroom).waiting() == 1  # kept in the spool, for when the file is mended
    classroom.unlink()
    queue.close_all()
    assert Progress(classroom).rows()["answer"].to_list() == ["52"] and Progress(classroom).waiting() == 0


def test_the_name_box(classroom: str | Path) -> None:
    box = lessons.name_box()
    (text, button), note = box.children[0].children, box.children[1]
    text.value = "x" * 200
    button.click()
    assert "at most 60" in note.value and lessons.student() is None
    text.value = "Maria"
    button.click()
    assert "Hello, Maria" in note.value and lessons.student() == "Maria"


WRITER = """
import importlib.util, sys
spec = importlib.util.spec_from_file_location("progress", sys.argv[1] + "/__init__.py",
                                              submodule_search_locations=[sys.argv[1]])
progress = importlib.util.module_from_spec(spec); sys.modules["progress"] = progress; spec.loader.exec_module(progress)
p = progress.Progress(sys.argv[2])
for i in range(int(sys.argv[4])):
    p.record(f"student {sys.argv[3]}", "00-start-here", "deck_size", i % 2 == 0, f"{sys.argv[3]}:{i}")
"""
"""A student's kernel, as light as it can be: the progress package alone (not rummylab's kernel)."""


def writers(db: str | Path, students: int, checks: int, during: Any = None) -> None:
    """``students`` processes, started at once, each recording ``checks`` checks; ``during()`` is
    called while they write."""
    procs = [subprocess.Popen([sys.executable, "-c", WRITER, str(PROGRESS), str(db), str(k), str(checks)])
             for k in range(students)]
    if during is not None:
        during()
    assert all(p.wait(timeout=300) == 0 for p in procs)


@pytest.mark.parametrize("where", ["path"], indirect=True)
def test_thirty_students_at_once_lose_no_row(where: Path) -> None:
    writers(where, 30, 50)
    rows = Progress(where).rows()
    assert rows.height == 1500 and rows["student"].n_unique() == 30
    assert set(rows["answer"]) == {f"{k}:{i}" for k in range(30) for i in range(50)}  # every answer, once


@pytest.mark.xdist_group("postgresql")
def test_thirty_students_across_a_server_restart_lose_no_row(pg_cluster: Any) -> None:
    """30 kernels write 50 checks each while PostgreSQL restarts: every row is there, once."""
    url = pg_cluster.create_db("restart")

    def restart() -> None:
        deadline = time.monotonic() + 60
        while Progress(url).rows().height < 300 and time.monotonic() < deadline:  # mid-class
            time.sleep(0.05)
        pg_cluster.restart()

    writers(url, 30, 50, during=restart)
    rows = Progress(url).rows()  # uploads what the kernels spooled while the server was down
    assert rows.height == 1500 and rows["student"].n_unique() == 30
    assert sorted(rows["answer"]) == sorted(f"{k}:{i}" for k in range(30) for i in range(50))  # each once
    assert Progress(url).waiting() == 0


def test_threads_writing_at_once_lose_no_row(where: str | Path) -> None:
    p = Progress(where)
    failed: list[BaseException] = []

    def write(k: int) -> None:
        try:
            for i in range(40):
                p.record(f"student {k}", "01-dealing", f"ex{i % 4}", i % 3 == 0, str(i))
        except BaseException as exc:  # noqa: BLE001 (said by the test)
            failed.append(exc)

    threads = [threading.Thread(target=write, args=(k,)) for k in range(12)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not failed
    assert Progress(where).rows().height == 12 * 40


@pytest.mark.xdist_group("postgresql")
def test_a_database_gone_mid_lesson_costs_no_time_and_loses_no_row(
        pg_cluster: Any, spool: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """The server stops for good: a check still answers at once and says "saved later"; the rows
    wait in the spool; once the server is back the next check (or, from a kernel gone since, the
    class report) uploads them, once."""
    url = pg_cluster.create_db("gone")
    monkeypatch.setenv("RUMMYLAB_DB", url)
    monkeypatch.setenv("RUMMYLAB_LESSON", "00-start-here")
    monkeypatch.setattr(exercises, "_STUDENT", None)
    exercises.reset()
    lessons.exercise("deck_size", "How many cards in a deck?", answer=52)
    lessons.set_student("Ana")
    assert lessons.check("deck_size", 52).why == "52 is right."
    pg_cluster.stop()
    try:
        for typed in (53, 54, 52):
            start = time.monotonic()
            f = lessons.check("deck_size", typed)
            assert time.monotonic() - start < 1.0, "a check waited on the database"
            assert "saved later" in f.why and "Traceback" not in f.why and pg_cluster.password not in f.why
        assert Progress(url).waiting() == 3
        # a kernel that ends while the server is down leaves its checks in the spool
        writers(url, 1, 4)
        assert Progress(url).waiting() == 7
    finally:
        pg_cluster.start()
    assert lessons.check("deck_size", 52).right is True  # the next write uploads the spool
    p = Progress(url)
    assert p.waiting() == 0 and p.rows()["answer"].to_list() == ["52", "53", "54", "52", "0:0", "0:1", "0:2", "0:3",
                                                                "52"]
    # and the report uploads what a kernel left while the server was down
    pg_cluster.stop()
    try:
        writers(url, 1, 2)
    finally:
        pg_cluster.start()
    assert p.waiting() == 2 and not list(spool.rglob("*.claimed"))
    capsys.readouterr()
    assert main(["class", "report", "--db", url]) == 0
    out = capsys.readouterr().out
    assert "2 spooled checks uploaded" in out and "2 students, 11 checks" in out and pg_cluster.password not in out
    assert main(["class", "report", "--db", url]) == 0
    assert "2 students, 11 checks" in capsys.readouterr().out and p.rows().height == 11  # once
    assert not [f for f in spool.rglob("*") if f.is_file() and f.name != "DATABASE"]


@pytest.mark.xdist_group("postgresql")
def test_a_wrong_password_or_a_bad_url_is_one_clear_line(
        pg_cluster: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    url = pg_cluster.create_db("pw")
    wrong = url.replace(pg_cluster.password, "n0t-The-Pa55word")
    with pytest.raises(ValueError) as caught:
        Progress(wrong).rows()
    said = str(caught.value)
    assert "\n" not in said and "password authentication failed" in said and f":{pg_cluster.port}/pw" in said
    assert "n0t-The-Pa55word" not in said and pg_cluster.password not in said
    with pytest.raises(ValueError, match="password authentication failed") as caught:
        Progress(wrong).record("Ana", "00-start-here", "deck_size", True, "52")  # kept, said
    assert "n0t-The-Pa55word" not in str(caught.value) and Progress(url).waiting() == 1
    assert main(["class", "report", "--db", wrong]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "n0t-The-Pa55word" not in err and "127.0.0.1" in err
    assert Progress(url).rows()["answer"].to_list() == ["52"]  # the right password uploads it
    for bad, why in [("mysql://u:secret@h/db", "unknown database scheme 'mysql'"),
                     ("postgresql://u:secret@h:notaport/db", "bad PostgreSQL URL"),
                     ("postgresql://u:secret@h:5432/", "name one database"),
                     ("postgresql://u:secret@/db", "names no host"),
                     ("sqlite://host/x.db", "sqlite:///relative/path")]:
        with pytest.raises(ValueError, match=why) as caught:
            Progress(bad)
        assert "secret" not in str(caught.value) and "\n" not in str(caught.value), bad
    assert main(["serve", str(tmp_path), "--db", "postgresql://u:secret@h:x/db"]) == 2
    err = capsys.readouterr().err
    assert "bad PostgreSQL URL" in err and "secret" not in err


def v1_sqlite(path: Path, rows: int) -> Path:
    """A database as rummylab wrote it before the schema had a version (rollback journal)."""
    con = sqlite3.connect(path)
    con.execute("CREATE TABLE IF NOT EXISTS checks (student TEXT NOT NULL, lesson TEXT NOT NULL, "
                "exercise TEXT NOT NULL, right INTEGER NOT NULL, at REAL NOT NULL)")
    con.executemany("INSERT INTO checks VALUES (?, ?, ?, ?, ?)",
                    [(f"old {i % 5}", "00-start-here", "deck_size", i % 2, 1000.0 + i) for i in range(rows)])
    con.commit()
    con.close()
    return path


OLD = {1: ['CREATE TABLE checks (student TEXT NOT NULL, lesson TEXT NOT NULL, exercise TEXT NOT NULL, '
           '"right" INTEGER NOT NULL, at DOUBLE PRECISION NOT NULL)'],
       2: ["CREATE TABLE schema_version (version INTEGER NOT NULL)", "INSERT INTO schema_version VALUES (2)",
           "CREATE TABLE checks (student TEXT NOT NULL, lesson TEXT NOT NULL, exercise TEXT NOT NULL, "
           "correct INTEGER, answer TEXT NOT NULL DEFAULT '', at DOUBLE PRECISION NOT NULL)",
           "CREATE INDEX checks_by_exercise ON checks (lesson, exercise)"]}
OLD[3] = [s.replace("VALUES (2)", "VALUES (3)") for s in OLD[2]] + [
    "ALTER TABLE checks ADD COLUMN hub_user TEXT", "ALTER TABLE checks ADD COLUMN check_id TEXT",
    "CREATE UNIQUE INDEX checks_by_id ON checks (check_id)"]
"""The first three schemas, as rummylab made them (v1 on SQLite only, in practice)."""


def old_db(where: str | Path, version: int, rows: int) -> None:
    """A database of schema ``version`` with ``rows`` checks of an old class."""
    p = Progress(where)
    data = [(f"old {i % 5}", "00-start-here", "deck_size", i % 2, 1000.0 + i) for i in range(rows)]
    insert = ("INSERT INTO checks (student, lesson, exercise, "
              + ('"right"' if version == 1 else "correct") + ", at) VALUES (?, ?, ?, ?, ?)")
    if p.path is not None:
        con = sqlite3.connect(p.path)
        for statement in OLD[version]:
            con.execute(statement)
        con.executemany(insert, data)
        con.commit()
        con.close()
        return
    import psycopg

    with psycopg.connect(str(where)) as pg:
        for statement in OLD[version]:
            pg.execute(statement)
        pg.cursor().executemany(insert.replace("?", "%s"), data)


def columns(where: str | Path) -> dict[str, list[str]]:
    """The tables and their columns."""
    p = Progress(where)
    if p.path is not None:
        con = sqlite3.connect(p.path)
        try:
            names = [n for (n,) in con.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
            return {n: [c[1] for c in con.execute(f"PRAGMA table_info({n})")] for n in names}
        finally:
            con.close()
    import psycopg

    with psycopg.connect(str(where)) as pg:
        out: dict[str, list[str]] = {}
        for table, column in pg.execute("SELECT table_name, column_name FROM information_schema.columns WHERE "
                                        "table_schema = 'public' ORDER BY table_name, ordinal_position"):
            out.setdefault(table, []).append(column)
        return out


def version_rows(where: str | Path) -> list[tuple[Any, ...]]:
    p = Progress(where)
    if p.path is not None:
        con = sqlite3.connect(p.path)
        try:
            return con.execute("SELECT version FROM schema_version").fetchall()
        finally:
            con.close()
    import psycopg

    with psycopg.connect(str(where)) as pg:
        return pg.execute("SELECT version FROM schema_version").fetchall()


@pytest.mark.parametrize("version", [1, 2, 3])
def test_an_older_schema_is_migrated_keeping_its_rows(where: str | Path, version: int) -> None:
    old_db(where, version, 10)
    p = Progress(where)
    rows = p.rows()
    assert rows.height == 10 and rows["right"].to_list() == [bool(i % 2) for i in range(10)]
    assert set(rows["answer"]) == {""} and rows["at"].to_list() == [1000.0 + i for i in range(10)]
    assert columns(where) == {"schema_version": ["version"], "checks": [
        "student", "lesson", "exercise", "correct", "answer", "at", "hub_user", "check_id", "variant", "skill"]}
    assert version_rows(where) == [(SCHEMA_VERSION,)]
    p.record("Ana", "00-start-here", "deck_size", True, "52", hub_user="ana")
    assert p.rows().height == 11  # her typed name and her hub user:
    assert p.report().filter(p.report()["student"] == "Ana (ana)")["solved"].to_list() == [True]
    if p.path is not None:
        con = sqlite3.connect(p.path)
        assert con.execute("PRAGMA journal_mode").fetchone() == ("wal",)
        con.close()


@pytest.mark.parametrize("where", ["path", pytest.param("postgresql", marks=pytest.mark.xdist_group("postgresql"))],
                         indirect=True)
def test_a_class_connecting_at_once_migrates_once(where: str | Path) -> None:
    sqlite = Progress(where).path is not None
    kernels = 30 if sqlite else 10  # a kernel with psycopg takes 0.3 s of CPU to start
    old_db(where, 1 if sqlite else 2, 25)
    writers(where, kernels, 10)
    rows = Progress(where).rows()
    assert rows.height == 25 + kernels * 10
    assert rows.filter(rows["student"].str.starts_with("old")).height == 25
    assert version_rows(where) == [(SCHEMA_VERSION,)]


def test_a_database_from_a_newer_rummylab_is_refused(where: str | Path) -> None:
    Progress(where).record("Ana", "00-start-here", "deck_size", True, "52")
    p = Progress(where)
    if p.path is not None:
        con = sqlite3.connect(p.path)
        con.execute("UPDATE schema_version SET version = ?", (SCHEMA_VERSION + 1,))
        con.commit()
        con.close()
    else:
        import psycopg

        with psycopg.connect(str(where)) as pg:
            pg.execute("UPDATE schema_version SET version = %s", (SCHEMA_VERSION + 1,))
    with pytest.raises(ValueError, match="newer rummylab"):
        Progress(where).rows()
    with pytest.raises(ValueError, match="another rummylab changed it|newer rummylab"):
        Progress(where).record("Ana", "00-start-here", "deck_size", True, "52")
    assert p.waiting() == 1  # kept for a rummylab that knows the schema


@pytest.mark.parametrize(("args", "why"), [(("Ana", "", "x", True), "lesson name"),
                                           (("Ana", "00", None, True), "exercise name"),
                                           (("Ana", "00", "x", True, 52), "answer is kept as text"),
                                           (("Ana", "00", "x", True, "", ""), "hub user name"),
                                           (("", "00", "x", True), "empty")])
def test_bad_checks_are_explained(tmp_path: Path, args: tuple[object, ...], why: str) -> None:
    with pytest.raises(ValueError, match=why):
        Progress(tmp_path / "p.sqlite").record(*args)  # type: ignore[arg-type]


def test_the_spool_is_json_lines_and_a_claimed_file_is_uploaded_once(tmp_path: Path, spool: Path) -> None:
    """A row uploaded twice (an uploader that died between its commit and removing the file) is
    written once: each check keeps its id."""
    db = tmp_path / "p.sqlite"
    p = Progress(db)
    rows = [{"check_id": f"id{i}", "student": "Ana", "lesson": "00-start-here", "exercise": "deck_size",
             "correct": 1, "answer": str(i), "at": 1000.0 + i, "hub_user": None} for i in range(3)]
    queue.Spool(p.target).put(rows)
    queue.Spool(p.target).put(rows[1:])  # the same checks again
    (folder,) = [d for d in spool.iterdir() if d.is_dir()]
    files = sorted(folder.glob("*.jsonl"))
    assert [json.loads(line)["check_id"] for line in files[0].read_text().splitlines()] == ["id0", "id1", "id2"]
    assert (folder / "DATABASE").read_text().strip() == str(db.resolve()) and p.waiting() == 5
    assert p.upload() == 5 and p.rows()["answer"].to_list() == ["0", "1", "2"] and p.waiting() == 0


def test_answers_per_exercise_wrong_first_most_common_first(where: str | Path) -> None:
    p = Progress(where)
    for student, right, answer in [("Ana", False, "54"), ("Bo", False, "53"), ("Cy", False, "54"),
                                   ("Ana", False, "54"), ("Ana", True, "52"), ("Bo", True, "52")]:
        p.record(student, "00-start-here", "deck_size", right, answer)
    p.record("Dan", "00-start-here", "why", None, "x" * 500)  # a response: neither right nor wrong
    p.record("Dan", "02-melds-and-deadwood", "meld", False, "7H 8H")
    answers = p.answers("00-start-here").filter(pl.col("exercise") == "deck_size")
    assert answers.select("answer", "right", "times", "students").rows() == [
        ("54", False, 3, 2), ("53", False, 1, 1), ("52", True, 2, 2)]
    assert p.rows(lesson="00-start-here").filter(pl.col("exercise") == "why")["answer"].to_list() == [
        "x" * ANSWER_MAX]  # kept, cut
    ex = p.exercises("00-start-here")
    assert ex.select("exercise", "tried", "solved", "checks").rows() == [("deck_size", 3, 2, 6), ("why", 1, 0, 1)]
    assert p.lessons() == ["00-start-here", "02-melds-and-deadwood"]
    assert p.find_lesson("02") == find_lesson("02-melds-and-deadwood.ipynb", p.lessons()) == "02-melds-and-deadwood"
    with pytest.raises(ValueError, match="'07': no checks recorded for that lesson"):
        p.find_lesson("07")


def test_class_report_cli(classroom: str | Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    lessons.set_student("Ana")
    lessons.check("deck_size", 52)
    page = tmp_path / "report.html"
    assert main(["class", "report", "--db", str(classroom), "--html", str(page)]) == 0
    out = capsys.readouterr().out
    assert "1 students, 1 checks" in out and "deck_size" in out and "right     '52'  x1 (1 student)" in out
    html = page.read_text(encoding="utf-8")
    assert "<svg" in html and "Ana" in html and "<script" not in html and "<code>52</code>" in html
    assert main(["class", "report", "--db", str(tmp_path / "none.sqlite")]) == 2
    assert "no progress database" in capsys.readouterr().err


def test_class_report_shows_answers_and_filters_by_lesson(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "p.sqlite"
    p = Progress(db)
    evil = "<script>alert(1)</script>"
    p.record(evil, "00-start-here", "deck_size", False, evil)
    p.record("Ana", "00-start-here", "deck_size", False, "54")
    p.record("Bo", "00-start-here", "deck_size", False, "54")
    p.record("Ana", "02-melds-and-deadwood", "deadwood_count", True, "12")
    page = tmp_path / "report.html"
    assert main(["class", "report", "--db", str(db), "--lesson", "00", "--html", str(page)]) == 0
    out = capsys.readouterr().out
    assert "lesson 00-start-here: 3 students, 3 checks" in out and "deadwood_count" not in out
    assert out.index("'54'  x2") < out.index(f"{evil!r}  x1")  # the most common wrong answer first
    html = page.read_text(encoding="utf-8")
    assert "<script" not in html and "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert html.index("<code>54</code>") < html.index("<code>&lt;script&gt;") and "deadwood_count" not in html
    assert main(["class", "report", "--db", str(db), "--lesson", "09"]) == 2
    assert "lesson '09': no checks recorded" in capsys.readouterr().err


def gradebook_rows(db: Path) -> Progress:
    """A class of five: solved on a second try, tried twice, a response (a name and an answer that are
    HTML), a hub user who typed a name, one who never tried; and a formula for a name."""
    p = Progress(db)
    p.record("Ana", "02-melds-and-deadwood", "deadwood_count", True, "12", at=1000.0)  # a later lesson, first
    p.record("Ana", "00-start-here", "why", None, "because", at=1001.0)
    p.record("Ana", "00-start-here", "deck_size", False, "54", at=1002.0)
    p.record("Ana", "00-start-here", "deck_size", True, "52", at=1003.0)
    p.record("Bo", "00-start-here", "deck_size", False, "53", at=1004.0)
    p.record("Bo", "00-start-here", "deck_size", False, "54", at=1005.0)
    p.record("<b>Eve</b>", "00-start-here", "why", None, "<script>alert(1)</script>", at=1006.0)
    p.record("student01", "00-start-here", "deck_size", False, "50", hub_user="student01", at=1007.0)
    p.record("Ada", "00-start-here", "deck_size", True, "52", hub_user="student01", at=1008.0)  # her display name
    p.record("=1+1", "00-start-here", "deck_size", False, "1", at=1009.0)
    return p


def test_the_gradebook_a_row_a_student_a_cell_an_exercise(tmp_path: Path) -> None:
    """Solved (any right answer), tried, sent (a response: never "not solved"), not tried; columns by
    lesson, then as first tried; a hub user counted by her login and shown with the name she typed."""
    from rummylab.progress import gradebook_of, report_table
    from rummylab.progress.gradebook import SENT, SOLVED, TRIED, Cell

    rows = gradebook_rows(tmp_path / "p.sqlite").rows()
    book = gradebook_of(rows)
    assert book.exercises == [("00-start-here", "why"), ("00-start-here", "deck_size"),
                              ("02-melds-and-deadwood", "deadwood_count")]
    assert book.graded == [("00-start-here", "deck_size"), ("02-melds-and-deadwood", "deadwood_count")]
    by = {s.login: s for s in book.students}
    assert [s.login for s in book.students] == ["<b>Eve</b>", "=1+1", "Ana", "Bo", "student01"]
    deck, why = ("00-start-here", "deck_size"), ("00-start-here", "why")
    assert by["Ana"].cells[deck] == Cell(SOLVED, 2, "52") and by["Ana"].cells[why] == Cell(SENT, 1, "because")
    assert by["Bo"].cells[deck] == Cell(TRIED, 2, "54") and why not in by["Bo"].cells  # not tried
    assert by["<b>Eve</b>"].cells == {why: Cell(SENT, 1, "<script>alert(1)</script>")}
    assert by["student01"].cells == {deck: Cell(SOLVED, 2, "52")} and by["student01"].shown == "Ada (student01)"
    assert (by["Ana"].count(SOLVED), by["Ana"].count(SOLVED, TRIED), by["Bo"].count(SOLVED, TRIED)) == (2, 2, 1)
    table = report_table(rows)
    assert table.filter(pl.col("exercise") == "why")["solved"].to_list() == [None, None]  # sent, not "false"


def test_the_gradebook_page_colours_cells_and_escapes_names_and_answers(tmp_path: Path) -> None:
    from rummylab.progress import report_html

    rows = gradebook_rows(tmp_path / "p.sqlite").rows()
    page = report_html(rows, csv_link="gradebook.csv?lesson=00-start-here")
    table = page[page.index("<table class='rl-students rl-gradebook'>"):]
    table = table[:table.index("</table>")]
    assert "<th colspan='2' scope='colgroup'>00-start-here</th><th colspan='1' scope='colgroup'>02-melds" in table
    assert ("<th scope='row'>Ana</th><td class='rl-sent' title='a response, 1 check; last answer: because'>sent</td>"
            "<td class='rl-solved' title='solved, 2 checks; last answer: 52'>\u2714 2</td>"
            "<td class='rl-solved' title='solved, 1 check; last answer: 12'>\u2714 1</td><td>2</td><td>2</td>") in table
    assert ("<th scope='row'>Bo</th><td class='rl-none' title='not tried'></td>"
            "<td class='rl-tried' title='not solved, 2 checks; last answer: 54'>\u2718 2</td>") in table
    assert ("<th scope='row'>&lt;b&gt;Eve&lt;/b&gt;</th><td class='rl-sent' title='a response, 1 check; last answer: "
            "&lt;script&gt;alert(1)&lt;/script&gt;'>sent</td>") in table
    assert "<th scope='row'>Ada (student01)</th>" in table and "solved</td>" not in table  # no "solved False"
    assert "<script" not in page and "<b>Eve" not in page
    assert "<a href='gradebook.csv?lesson=00-start-here' download>Download CSV</a>" in page
    # the responses, each by who sent it, escaped
    assert "<tr class='rl-response'><td>Ana</td><td><code>because</code></td></tr>" in page
    assert ("<tr class='rl-response'><td>&lt;b&gt;Eve&lt;/b&gt;</td><td><code>&lt;script&gt;alert(1)&lt;/script&gt;"
            "</code></td></tr>") in page


def test_the_chart_counts_whole_students(tmp_path: Path) -> None:
    """The axis of students solved has whole-number ticks, each once (not "0 1 1 2 2"); responses have no bar."""
    import re

    from rummylab.progress import report_html
    from rummylab.progress.page import solved_ticks

    assert solved_ticks(0) == [0, 1] and solved_ticks(2) == [0, 1, 2] and solved_ticks(10) == list(range(11))
    assert solved_ticks(25) == list(range(0, 28, 3)) and solved_ticks(30) == list(range(0, 31, 3))
    page = report_html(gradebook_rows(tmp_path / "p.sqlite").rows())
    svg = page[page.index("<svg"):page.index("</svg>")]
    labels = re.findall(r"<text\b[^>]*>(.*?)</text>", svg, re.S)
    assert labels[:labels.index("students solved")] == ["0", "1", "2"]  # two students solved deck_size
    assert "00 deck_size" in labels and "02 deadwood_count" in labels and not any("why" in t for t in labels)


def test_the_gradebook_csv_is_what_a_school_gradebook_imports(tmp_path: Path) -> None:
    """A row a student (her login), her typed name, a column a graded exercise (1 solved, 0 tried,
    empty not tried; responses left out), solved and tried; a name is never a formula."""
    import csv
    import io

    from rummylab.progress import gradebook_csv, gradebook_of

    text = gradebook_csv(gradebook_of(gradebook_rows(tmp_path / "p.sqlite").rows()))
    reader = csv.DictReader(io.StringIO(text))
    assert reader.fieldnames == ["student", "name", "00-start-here/deck_size", "02-melds-and-deadwood/deadwood_count",
                                 "solved", "tried"]
    got = {row["student"]: row for row in reader}
    assert got["Ana"] == {"student": "Ana", "name": "Ana", "00-start-here/deck_size": "1",
                          "02-melds-and-deadwood/deadwood_count": "1", "solved": "2", "tried": "2"}
    assert got["Bo"] == {"student": "Bo", "name": "Bo", "00-start-here/deck_size": "0",
                         "02-melds-and-deadwood/deadwood_count": "", "solved": "0", "tried": "1"}
    assert got["student01"]["name"] == "Ada" and got["student01"]["00-start-here/deck_size"] == "1"
    assert got["<b>Eve</b>"] == {"student": "<b>Eve</b>", "name": "<b>Eve</b>", "00-start-here/deck_size": "",
                                 "02-melds-and-deadwood/deadwood_count": "", "solved": "0", "tried": "0"}
    assert got["'=1+1"]["name"] == "'=1+1"  # a spreadsheet shows it, never runs it
    assert gradebook_csv(gradebook_of(Progress(tmp_path / "p.sqlite").rows().clear())) == "student,name,solved,tried\n"


def test_the_gradebook_shows_each_students_skills(tmp_path: Path) -> None:
    """A column a skill: mastered after three right answers in a row to fresh questions, else her
    streak; in the CSV, 1 mastered, 0 not yet, empty not tried; names escaped."""
    import csv
    import io

    from rummylab.progress import gradebook_csv, gradebook_of
    from rummylab.progress.gradebook import gradebook_html

    p = Progress(tmp_path / "p.sqlite")
    for n, right in enumerate([True, True, True]):
        p.record("<b>Ana</b>", "02-melds-and-deadwood", "split", right, str(n), variant=n, skill="count deadwood")
    p.record("Bo", "02-melds-and-deadwood", "split", True, "10", variant=5, skill="count deadwood")
    p.record("Bo", "02-melds-and-deadwood", "split", True, "10", variant=5, skill="count deadwood")  # the same hand
    p.record("Bo", "04-gin", "undercut", False, "knocker, 3", skill="gin and undercut")
    book = gradebook_of(p.rows())
    assert book.skills == ["count deadwood", "gin and undercut"]
    page = gradebook_html(book)
    assert "\u2714 mastered" in page and "1 of 3" in page and "0 of 3" in page and "&lt;b&gt;Ana&lt;/b&gt;" in page
    rows = {r["student"]: r for r in csv.DictReader(io.StringIO(gradebook_csv(book)))}
    assert rows["<b>Ana</b>"]["skill/count deadwood"] == "1" and rows["<b>Ana</b>"]["skill/gin and undercut"] == ""
    assert rows["Bo"]["skill/count deadwood"] == "0" and rows["Bo"]["skill/gin and undercut"] == "0"


def test_class_report_cli_writes_the_gradebook_csv_and_a_plain_table(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import csv

    db = tmp_path / "p.sqlite"
    gradebook_rows(db)
    out_csv = tmp_path / "grades.csv"
    assert main(["class", "report", "--db", str(db), "--csv", str(out_csv)]) == 0
    out = capsys.readouterr().out
    assert f"written to {out_csv}" in out
    lines = out.splitlines()
    header = lines.index(next(line for line in lines if line.startswith("student ")))
    assert lines[header].split() == ["student", "lesson", "exercise", "attempts", "solved"]
    assert set(lines[header + 1]) == {"-", " "} and "str" not in lines[header + 1:header + 3]
    assert any(line.split() == ["Bo", "00-start-here", "deck_size", "2", "no"] for line in lines)
    assert any(line.split() == ["<b>Eve</b>", "00-start-here", "why", "1", "sent"] for line in lines)
    assert "\u2502" not in out and "\u2506" not in out  # no polars frame
    assert "response  <b>Eve</b>: '<script>alert(1)</script>'" in out  # a response by who sent it
    with out_csv.open(newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    assert [r["student"] for r in rows] == ["<b>Eve</b>", "'=1+1", "Ana", "Bo", "student01"]
    assert main(["class", "report", "--db", str(db), "--lesson", "02", "--csv"]) == 0  # alone, on stdout
    assert capsys.readouterr().out == ("student,name,02-melds-and-deadwood/deadwood_count,solved,tried\n"
                                       "Ana,Ana,1,1,1\n")
    assert main(["class", "report", "--db", str(db), "--csv", str(tmp_path / "no" / "such" / "g.csv")]) == 2
    assert "cannot write" in capsys.readouterr().err


def test_the_teacher_reads_each_students_reviews(tmp_path: Path) -> None:
    """A review kept as its sentence is read back; the teacher page sums a student's reviews:
    hands, decisions, the best move's share, points lost a decision, marks, luck (names escaped)."""
    from rummylab.progress.page import report_html
    from rummylab.progress.reviews import RESPONSE, parse, summary

    one = summary(10, 7, 1.25, {"mistake": 1, "blunder": 0, "inaccuracy": 2}, -3.5)
    assert one == "10 decisions, the best move in 7; 1.25 points lost a decision (mistake 1, inaccuracy 2); luck -3.5"
    found = parse(one)
    assert found is not None and found.marks == {"mistake": 1, "inaccuracy": 2} and found.luck == -3.5
    assert parse("I think so") is None
    p = Progress(tmp_path / "p.sqlite")
    p.record("<b>Ana</b>", "06-play", RESPONSE, None, one)
    p.record("<b>Ana</b>", "06-play", RESPONSE, None, summary(30, 27, 0.25, {}, 2.0))
    p.record("Bo", "06-play", RESPONSE, None, "not a review")
    page = report_html(p.rows())
    ana = page[page.index("&lt;b&gt;Ana&lt;/b&gt;</th><td>2"):]
    assert ana.startswith("&lt;b&gt;Ana&lt;/b&gt;</th><td>2</td><td>40</td><td>85%</td><td>0.50</td>"
                          "<td>inaccuracy 2, mistake 1</td><td>-1.5</td>")
    assert "<b>Ana</b>" not in page and "Hands reviewed" in page
