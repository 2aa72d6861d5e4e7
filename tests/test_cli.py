"""The command line: readable analysis, one error line and exit 2 on bad input."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from rummylab.cli import main


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "rummylab", *args], capture_output=True, text=True, check=False)


def test_analyze_ten_cards() -> None:
    r = run("analyze", "AS 2S 3S 7H 7D 7C 9C TC JC KD")
    assert r.returncode == 0, r.stderr
    assert "melds:          7H 7D 7C | AS 2S 3S | 9C TC JC" in r.stdout
    assert "deadwood cards: KD" in r.stdout
    assert "deadwood:       10" in r.stdout
    assert "can knock:      yes" in r.stdout


def test_analyze_eleven_cards_lists_best_discards() -> None:
    r = run("analyze", "AS", "2S", "3S", "7H", "7D", "7C", "9C", "TC", "JC", "KD", "QH")
    assert r.returncode == 0, r.stderr
    assert "best discards:  KD QH (deadwood 10 after discarding)" in r.stdout
    assert "big gin:        no" in r.stdout


def test_analyze_json_big_gin() -> None:
    r = run("analyze", "--json", "AS 2S 3S 4S 5H 5D 5C 9C 9D 9H 9S")
    out = json.loads(r.stdout)
    assert out["big_gin"] and out["gin"] and out["deadwood"] == 0


@pytest.mark.parametrize(("hand", "token"), [
    ("AS 2S 3S 7H 7D 7C 9C TC JC KX", "KX"),
    ("AS 2S 3S", "wrong hand size: 3"),
    ("AS AS 3S 7H 7D 7C 9C TC JC KD", "AS: duplicate"),
    ("AS 2S 3S 7H 7D 7C 9C TC JC JK", "JK"),
])
def test_bad_input_is_one_line_and_exit_2(hand: str, token: str) -> None:
    r = run("analyze", hand)
    assert r.returncode == 2
    assert r.stdout == ""
    assert r.stderr.count("\n") == 1 and r.stderr.startswith("rummylab: error:") and token in r.stderr


def test_lessons_copy(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "class"
    assert main(["lessons", "copy", str(folder)]) == 0
    assert len(list(folder.glob("*.ipynb"))) >= 11 and "copied" in capsys.readouterr().out
    assert main(["lessons", "copy", str(folder)]) == 0
    assert "0 lessons copied" in capsys.readouterr().out  # a teacher's edits are kept
    assert main(["lessons", "copy", str(folder), "--force"]) == 0
    (tmp_path / "afile").write_text("x")
    assert main(["lessons", "copy", str(tmp_path / "afile")]) == 2
    assert "is a file, not a folder" in capsys.readouterr().err


def test_serve_without_the_lab_extra_says_how_to_get_it() -> None:
    block = ("import sys\n"
             "class Block:\n"
             "    def find_spec(self, name, path=None, target=None):\n"
             "        if name == 'voila': raise ImportError('not installed')\n"
             "sys.meta_path.insert(0, Block())\n"
             "import importlib.util\n"
             "importlib.util.find_spec = lambda name, *a: None if name == 'voila' else _find(name, *a)\n")
    code = ("import importlib.util; _find = importlib.util.find_spec\n" + block
            + "from rummylab.cli import main; sys.exit(main(['serve']))")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert r.returncode == 2 and r.stdout == ""
    assert r.stderr.strip().splitlines() == [
        'rummylab: error: serving lessons needs Voilà, which is not installed: pip install "rummylab[lab]"']


def test_serve_a_missing_path(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["serve", "/no/such/lesson.ipynb"]) == 2
    assert "no such lesson or folder" in capsys.readouterr().err


def test_simulate_refuses_what_it_would_ignore(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Every option changes the games or is refused by name (docs/rules.md)."""
    import polars as pl

    assert main(["simulate", "indian", "--pool", "201", "--deals", "2", "--games", "1", "--no-progress"]) == 2
    assert "pool=201 with deals=2" in capsys.readouterr().err
    assert main(["simulate", "three_thirteen", "--players", "3", "--games", "1", "--no-progress",
                 "--out", str(tmp_path / "t.csv")]) == 0
    assert pl.read_csv(tmp_path / "t.csv").height == 11 * 3  # one row per player per round: three players
    for argv, message in ((["gin", "--players", "3"], "--players 3: gin is played by 2"),
                          (["gin_three_handed", "--players", "2"], "--players 2: gin_three_handed is played by 3"),
                          (["three_thirteen", "--players", "3", "--bots", "greedy,greedy"], "--players 3 and 2 bots"),
                          (["gin", "--pool", "201"], "--pool 201: only Indian rummy has a pool"),
                          (["three_thirteen", "--deals", "2"], "--deals 2: only Indian rummy has deals rummy")):
        assert main(["simulate", *argv, "--games", "1", "--no-progress"]) == 2
        assert message in capsys.readouterr().err


@pytest.mark.once  # the command's wiring; the engine on the twin is test_simulation's
def test_simulate_writes_parquet_and_names_bad_options(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import polars as pl


    out = tmp_path / "hands.parquet"
    assert main(["simulate", "gin", "--bots", "strong,greedy", "--hands", "200", "--rules", "classic",
                 "--no-progress", "--out", str(out)]) == 0
    hands = pl.read_parquet(out)
    assert hands.height >= 200 and hands.filter(hands["game"] < hands["game"].max()).height < 200
    assert main(["simulate", "three_thirteen", "--games", "2", "--no-progress", "--out", str(tmp_path / "r.csv")]) == 0
    assert pl.read_csv(tmp_path / "r.csv").height == 2 * 11 * 2
    assert main(["simulate", "gin", "--rules", "brief", "--games", "1"]) == 2
    assert "--rules brief: gin has default, classic" in capsys.readouterr().err
    assert main(["simulate", "gin", "--bots", "greedy,genius", "--games", "1"]) == 2
    assert "unknown bot 'genius'" in capsys.readouterr().err
    assert main(["simulate", "indian", "--players", "3", "--bots", "greedy,random,greedy", "--pool", "points",
                 "--games", "3", "--rules", "brief", "--no-progress", "--out", str(tmp_path / "i.parquet")]) == 0
    assert pl.read_parquet(tmp_path / "i.parquet")["deals"].to_list() == [1] * 3
    assert main(["simulate", "indian", "--deals", "2", "--bots", "random,random", "--games", "2", "--no-progress"]) == 0
    assert "chips_1" in capsys.readouterr().out
    assert main(["simulate", "indian", "--pool", "150", "--games", "1"]) == 2
    assert "--pool 150: 101, 201 or points" in capsys.readouterr().err
