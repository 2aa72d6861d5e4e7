"""Progress a teacher can see: named students' checks and what they typed in SQLite (WAL), the
class report with the answers per exercise; bad names and broken databases get a clear message and
the lesson goes on; a class writing at once loses nothing; a file of the first schema is migrated
once, keeping its rows, however many kernels connect at once."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import polars as pl
import pytest

from rummylab import lessons
from rummylab.cli import main
from rummylab.lessons import exercises
from rummylab.progress import ANSWER_MAX, NAME_MAX, SCHEMA_VERSION, Progress, check_name, find_lesson

pytestmark = pytest.mark.once
PROGRESS_PY = Path(__file__).resolve().parents[1] / "rummylab" / "progress.py"


@pytest.fixture
def classroom(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A class keeping progress in lesson 00, with its exercise ``deck_size``; no name given yet."""
    db = tmp_path / "progress.sqlite"
    monkeypatch.setenv("RUMMYLAB_DB", str(db))
    monkeypatch.setenv("RUMMYLAB_LESSON", "00-start-here")
    monkeypatch.setattr(exercises, "_STUDENT", None)
    exercises.reset()
    exercises.PENDING.clear()
    lessons.exercise("deck_size", "How many cards in a deck?", answer=52, mistakes={54: "Without the jokers."})
    yield db
    exercises.reset()
    exercises.PENDING.clear()


@pytest.mark.parametrize(("name", "why"), [("", "empty"), ("   ", "empty"), ("x" * 200, "at most 60"),
                                           ("a\x07b", "control"), (42, "text")])
def test_bad_names_are_explained(name: object, why: str) -> None:
    with pytest.raises(ValueError, match=why):
        check_name(name)
    assert check_name("  Ana   Pop ") == "Ana Pop" and len(check_name("y" * NAME_MAX)) == NAME_MAX


def test_checks_of_a_named_student_are_recorded(classroom: Path) -> None:
    lessons.check("deck_size", 53)  # no name yet: kept, not recorded
    assert not classroom.exists()
    lessons.set_student("Ana")  # then recorded under the name
    assert lessons.check("deck_size", 54).right is False
    assert lessons.check("deck_size", 52).right is True
    assert lessons.check("deck_size", ...).right is None  # a blank is not an attempt
    lessons.set_student("Radu")
    lessons.check("deck_size", "52")
    p = Progress(classroom)
    assert p.rows().height == 4
    mine = p.rows(student="Ana")  # a student reads only their own rows
    assert set(mine["student"]) == {"Ana"} and mine["right"].to_list() == [False, False, True]
    assert mine["answer"].to_list() == ["53", "54", "52"]  # what was typed, normalised
    report = p.report()
    ana = report.filter(report["student"] == "Ana").row(0, named=True)
    assert (ana["exercise"], ana["attempts"], ana["solved"], ana["lesson"]) == ("deck_size", 3, True, "00-start-here")


def test_a_broken_database_never_stops_the_lesson(classroom: Path) -> None:
    classroom.write_bytes(b"this is not a database" * 100)
    lessons.set_student("Ana")
    f = lessons.check("deck_size", 52)
    assert f.right is True and "saved later" in f.why and "cannot be used" in f.why
    with pytest.raises(ValueError, match="cannot be used"):
        Progress(classroom).rows()


def test_the_name_box(classroom: Path) -> None:
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
spec = importlib.util.spec_from_file_location("progress", sys.argv[1])
progress = importlib.util.module_from_spec(spec); spec.loader.exec_module(progress)
p = progress.Progress(sys.argv[2])
for i in range(int(sys.argv[4])):
    p.record(f"student {sys.argv[3]}", "00-start-here", "deck_size", i % 2 == 0, f"{sys.argv[3]}:{i}")
"""


def writers(db: Path, students: int, checks: int) -> None:
    """``students`` processes, started at once, each recording ``checks`` checks."""
    procs = [subprocess.Popen([sys.executable, "-c", WRITER, str(PROGRESS_PY), str(db), str(k), str(checks)])
             for k in range(students)]
    assert all(p.wait(timeout=300) == 0 for p in procs)


def test_thirty_students_at_once_lose_no_row(tmp_path: Path) -> None:
    db = tmp_path / "class.sqlite"
    writers(db, 30, 50)
    rows = Progress(db).rows()
    assert rows.height == 1500 and rows["student"].n_unique() == 30
    assert set(rows["answer"]) == {f"{k}:{i}" for k in range(30) for i in range(50)}  # every answer, once


def test_threads_writing_at_once_lose_no_row(tmp_path: Path) -> None:
    p = Progress(tmp_path / "class.sqlite")
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
    assert Progress(p.path).rows().height == 12 * 40


def v1_file(path: Path, rows: int) -> Path:
    """A database as rummylab wrote it before the schema had a version (rollback journal)."""
    con = sqlite3.connect(path)
    con.execute("CREATE TABLE IF NOT EXISTS checks (student TEXT NOT NULL, lesson TEXT NOT NULL, "
                "exercise TEXT NOT NULL, right INTEGER NOT NULL, at REAL NOT NULL)")
    con.executemany("INSERT INTO checks VALUES (?, ?, ?, ?, ?)",
                    [(f"old {i % 5}", "00-start-here", "deck_size", i % 2, 1000.0 + i) for i in range(rows)])
    con.commit()
    con.close()
    return path


def tables(path: Path) -> dict[str, list[str]]:
    con = sqlite3.connect(path)
    try:
        names = [n for (n,) in con.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
        return {n: [c[1] for c in con.execute(f"PRAGMA table_info({n})")] for n in names}
    finally:
        con.close()


def test_a_first_schema_file_is_migrated_keeping_its_rows(tmp_path: Path) -> None:
    db = v1_file(tmp_path / "old.sqlite", 10)
    p = Progress(db)
    rows = p.rows()
    assert rows.height == 10 and rows["right"].to_list() == [bool(i % 2) for i in range(10)]
    assert set(rows["answer"]) == {""} and rows["at"].to_list() == [1000.0 + i for i in range(10)]
    assert tables(db) == {"schema_version": ["version"],
                          "checks": ["student", "lesson", "exercise", "correct", "answer", "at"]}
    con = sqlite3.connect(db)
    assert con.execute("SELECT version FROM schema_version").fetchall() == [(SCHEMA_VERSION,)]
    assert con.execute("PRAGMA journal_mode").fetchone() == ("wal",)
    con.close()
    p.record("Ana", "00-start-here", "deck_size", True, "52")
    assert p.rows().height == 11 and p.report().filter(p.report()["student"] == "Ana")["solved"].to_list() == [True]


def test_a_class_connecting_at_once_migrates_once(tmp_path: Path) -> None:
    db = v1_file(tmp_path / "old.sqlite", 25)
    writers(db, 30, 10)
    rows = Progress(db).rows()
    assert rows.height == 25 + 300
    assert rows.filter(rows["student"].str.starts_with("old")).height == 25
    con = sqlite3.connect(db)
    assert con.execute("SELECT version FROM schema_version").fetchall() == [(SCHEMA_VERSION,)]
    con.close()


def test_a_file_from_a_newer_rummylab_is_refused(tmp_path: Path) -> None:
    db = tmp_path / "new.sqlite"
    Progress(db).record("Ana", "00-start-here", "deck_size", True, "52")
    con = sqlite3.connect(db)
    con.execute("UPDATE schema_version SET version = ?", (SCHEMA_VERSION + 1,))
    con.commit()
    con.close()
    with pytest.raises(ValueError, match="newer rummylab"):
        Progress(db).record("Ana", "00-start-here", "deck_size", True, "52")


@pytest.mark.parametrize(("args", "why"), [(("Ana", "", "x", True), "lesson name"),
                                           (("Ana", "00", None, True), "exercise name"),
                                           (("Ana", "00", "x", True, 52), "answer is kept as text"),
                                           (("", "00", "x", True), "empty")])
def test_bad_checks_are_explained(tmp_path: Path, args: tuple[object, ...], why: str) -> None:
    with pytest.raises(ValueError, match=why):
        Progress(tmp_path / "p.sqlite").record(*args)  # type: ignore[arg-type]


def test_answers_per_exercise_wrong_first_most_common_first(tmp_path: Path) -> None:
    p = Progress(tmp_path / "p.sqlite")
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


def test_class_report_cli(classroom: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
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
