"""Progress a teacher can see: named students' checks in SQLite (WAL), the class report; bad names
and broken databases get a clear message and the lesson goes on; a class writing at once loses nothing."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from rummylab import lessons
from rummylab.cli import main
from rummylab.progress import NAME_MAX, Progress, check_name

pytestmark = pytest.mark.once
PROGRESS_PY = Path(__file__).resolve().parents[1] / "rummylab" / "progress.py"


@pytest.fixture
def classroom(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    db = tmp_path / "progress.sqlite"
    monkeypatch.setenv("RUMMYLAB_DB", str(db))
    monkeypatch.setattr(lessons, "_STUDENT", None)
    return db


@pytest.mark.parametrize(("name", "why"), [("", "empty"), ("   ", "empty"), ("x" * 200, "at most 60"),
                                           ("a\x07b", "control"), (42, "text")])
def test_bad_names_are_explained(name: object, why: str) -> None:
    with pytest.raises(ValueError, match=why):
        check_name(name)
    assert check_name("  Ana   Pop ") == "Ana Pop" and len(check_name("y" * NAME_MAX)) == NAME_MAX


def test_checks_of_a_named_student_are_recorded(classroom: Path) -> None:
    lessons.check("deck_size", 52)  # no name yet: nothing recorded
    assert not classroom.exists()
    lessons.set_student("Ana")
    assert lessons.check("deck_size", 54).right is False
    assert lessons.check("deck_size", 52).right is True
    assert lessons.check("deck_size", ...).right is None  # a blank is not an attempt
    lessons.set_student("Radu")
    lessons.check("undercut", ("defender", 28))
    p = Progress(classroom)
    assert p.rows().height == 3
    mine = p.rows(student="Ana")  # a student reads only their own rows
    assert set(mine["student"]) == {"Ana"} and mine["right"].to_list() == [False, True]
    report = p.report()
    ana = report.filter(report["student"] == "Ana").row(0, named=True)
    assert (ana["exercise"], ana["attempts"], ana["solved"], ana["lesson"]) == ("deck_size", 2, True, "00-start-here")


def test_a_broken_database_never_stops_the_lesson(classroom: Path) -> None:
    classroom.write_bytes(b"this is not a database" * 100)
    lessons.set_student("Ana")
    f = lessons.check("deck_size", 52)
    assert f.right is True and "not saved" in f.why
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
for i in range(50):
    p.record(f"student {sys.argv[3]}", "00-start-here", "deck_size", i % 2 == 0)
"""


def test_thirty_students_at_once_lose_no_row(tmp_path: Path) -> None:
    db = tmp_path / "class.sqlite"
    procs = [subprocess.Popen([sys.executable, "-c", WRITER, str(PROGRESS_PY), str(db), str(k)])
             for k in range(30)]
    assert all(p.wait(timeout=300) == 0 for p in procs)
    rows = Progress(db).rows()
    assert rows.height == 1500 and rows["student"].n_unique() == 30


def test_class_report_cli(classroom: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    lessons.set_student("Ana")
    lessons.check("deck_size", 52)
    page = tmp_path / "report.html"
    assert main(["class", "report", "--db", str(classroom), "--html", str(page)]) == 0
    out = capsys.readouterr().out
    assert "1 students, 1 checks" in out and "deck_size" in out
    html = page.read_text(encoding="utf-8")
    assert "<svg" in html and "Ana" in html and "<script" not in html
    assert main(["class", "report", "--db", str(tmp_path / "none.sqlite")]) == 2
    assert "no progress database" in capsys.readouterr().err
