"""Serving a class: options checked before anything starts, a class code off 127.0.0.1, warm
kernels for the lessons of the day."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rummylab import classroom
from rummylab.serve import lessons_dir, offline_template, voila_command


def test_lessons_of_the_day_by_number_or_name() -> None:
    folder = lessons_dir()
    assert classroom.find_lessons(folder, ["02"]) == ["02-melds-and-deadwood.ipynb"]
    assert classroom.find_lessons(folder, ["08-pure-sequence.ipynb", "00"]) == [
        "08-pure-sequence.ipynb", "00-start-here.ipynb"]
    with pytest.raises(ValueError, match="'99': no such lesson"):
        classroom.find_lessons(folder, ["99"])


def test_pool_options() -> None:
    opts = classroom.pool_options(["02-melds-and-deadwood.ipynb"], 30)
    config = json.loads(opts[1].split("=", 1)[1])
    assert config == {"default": {"pool_size": 0}, "02-melds-and-deadwood.ipynb": {"pool_size": 30}}
    assert classroom.pool_options(["02-melds-and-deadwood.ipynb"], 0) == []
    with pytest.raises(ValueError, match="--students 61"):
        classroom.pool_options(["x.ipynb"], 61)


def test_codes() -> None:
    code = classroom.new_code()
    assert len(code) == 6 and set(code) <= set(classroom.CODE_ALPHABET)
    with pytest.raises(ValueError, match="class code 'a b'"):
        classroom.check_code("a b")


def test_the_command_carries_the_code_and_the_pool(tmp_path: Path) -> None:
    cmd, env = voila_command(lessons_dir(), 9000, tmp_path / "p.sqlite", ip="0.0.0.0", code="K7QF3M",
                             students=3, lessons=["00-start-here.ipynb"])
    assert "--Voila.ip=0.0.0.0" in cmd and "--token=K7QF3M" in cmd
    assert "--Voila.identity_provider_class=rummylab.classroom.ClassCodeProvider" in cmd
    assert "--preheat_kernel=True" in cmd
    plain, _ = voila_command(lessons_dir(), 9000, tmp_path / "p.sqlite")
    assert "--Voila.ip=127.0.0.1" in plain and not any(c.startswith("--token") for c in plain)


def test_the_lesson_page_is_light_and_links_nothing_outside(tmp_path: Path) -> None:
    template = offline_template(tmp_path) / "voila" / "templates" / "rummylab"
    page = (template / "index.html.j2").read_text()
    assert "voila/templates/rummylab/static/lessons.js" in page and "lessons.css" in page
    assert "main_js" not in page and "voila_setup" not in page  # not Voilà's JupyterLab bundle
    for text in (page, *(f.read_text() for f in (template / "static").iterdir())):
        assert "://" not in text  # nothing fetched from another host
    assert (template / "static" / "lessons.js").stat().st_size < 40_000
    assert not any("<link" in line and "://" in line for line in (template / "page.html").read_text().splitlines())
