"""rummylab's Voilà templates ship in the package (``rummylab.page_template``): the built lesson page
is what its sources give, setup.py's build_py puts every template file in the wheel, the files
that restate Voilà's templates still match the Voilà installed, nothing links outside, and
``rummylab serve`` and ``rummylab hub`` write no template anywhere."""

from __future__ import annotations

import os
import re
import runpy
import shutil
import tempfile
from pathlib import Path

import pytest

from rummylab import page_template
from rummylab.classroom.class_code import OWN_PAGE
from rummylab.page_template import APP, DATA, LESSON_PAGE, TEMPLATE, lesson_page

pytestmark = pytest.mark.once  # the page's files only: the compiled run has it

ROOT = Path(__file__).resolve().parent.parent
TEMPLATES = DATA / "voila" / "templates"
SHIPPED = sorted([f"{TEMPLATE}/conf.json", f"{TEMPLATE}/index.html.j2", f"{TEMPLATE}/page.html",
                  f"{OWN_PAGE}/conf.json", f"{OWN_PAGE}/index.html.j2"])


def test_the_built_lesson_page_is_what_its_sources_give() -> None:
    built = page_template.HERE / LESSON_PAGE
    assert built.is_file(), f"the lesson page is not built: {page_template.REBUILD}"
    assert built.read_text(encoding="utf-8") == lesson_page(), \
        f"{built} is older than its sources in {APP}: rebuild it with {page_template.REBUILD}"
    assert page_template.data_dir() == DATA
    assert sorted(str(p.relative_to(TEMPLATES)) for p in TEMPLATES.rglob("*") if p.is_file()) == SHIPPED


def test_a_stale_or_missing_lesson_page_is_refused_with_how_to_rebuild(tmp_path: Path,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    package = tmp_path / "rummylab"
    shutil.copytree(page_template.HERE / "share", package / "share")
    monkeypatch.setattr(page_template, "HERE", package)
    assert page_template.data_dir() == DATA  # the copy is fresh
    (package / LESSON_PAGE).write_text(lesson_page().replace("rl-lesson-page", "rl-old-page"), encoding="utf-8")
    with pytest.raises(ValueError, match=r"older than its sources .*: make install \(or: python rummylab/page_t"):
        page_template.data_dir()
    (package / LESSON_PAGE).unlink()
    with pytest.raises(ValueError, match="is not built .*make install"):
        page_template.data_dir()


def test_build_py_puts_the_templates_in_the_wheel(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """setup.py's build_py (what `pip wheel` and `uv build` run), into a build folder of its own."""
    from setuptools.dist import Distribution

    monkeypatch.chdir(ROOT)
    build_py = runpy.run_path(str(ROOT / "setup.py"), run_name="rummylab_setup")["BuildWithLessons"]
    dist = Distribution({"script_name": "setup.py"})
    dist.parse_config_files()  # pyproject.toml: the packages and their package data
    dist.get_command_obj("egg_info").egg_base = str(tmp_path)  # its manifest, out of the source tree
    command = build_py(dist)
    command.build_lib = str(tmp_path / "lib")
    command.ensure_finalized()
    command.run()
    lib = tmp_path / "lib"
    templates = lib / "rummylab" / "share" / "jupyter" / "voila" / "templates"
    assert sorted(str(p.relative_to(templates)) for p in templates.rglob("*") if p.is_file()) == SHIPPED
    assert (templates / TEMPLATE / "index.html.j2").read_text(encoding="utf-8") == lesson_page()
    for name in SHIPPED:
        if name != f"{TEMPLATE}/index.html.j2":
            assert (templates / name).read_bytes() == (TEMPLATES / name).read_bytes(), name
    assert (lib / "rummylab" / "app" / "static" / "page.js").is_file()  # preflight reads the page's models
    assert (lib / "rummylab" / "notebooks" / "00-start-here.ipynb").is_file()


def _lines(text: str) -> list[str]:
    """Template lines without indentation, blank lines and a leading ``{#- … -#}`` comment."""
    text = re.sub(r"\A\{#-.*?-#\}\n", "", text, flags=re.S)
    return [line.strip() for line in text.splitlines() if line.strip()]


def _cdn(line: str) -> bool:
    return "<link" in line and "://" in line


def _voila_templates() -> Path:
    from jupyter_core.paths import jupyter_path

    for root in map(Path, jupyter_path()):
        if (root / "voila" / "templates" / "lab" / "index.html.j2").is_file():
            return root / "voila" / "templates"
    raise AssertionError("Voilà's lab template is not installed")


def _block(text: str, name: str) -> str:
    found = re.search(r"\{%-? block " + name + r" -?%\}(.*?)\{%-? endblock(?: " + name + r")? ?-?%\}", text, re.S)
    assert found, name
    return found.group(1)


def test_what_restates_voilas_templates_still_matches_them() -> None:
    """page.html is Voilà's base page without its CDN link, with the lab page's stylesheets; the
    rummylab-voila lesson page's notebook_css is the lab template's without its CDN links. A Voilà
    that changes them fails here: restate the new lines (rummylab/share/jupyter/voila/templates)."""
    voila = _voila_templates()
    base = (voila / "base" / "page.html").read_text()
    styles = _block((voila / "lab" / "page.html").read_text(), "stylesheets")
    expected = [line for line in _lines(base) if not _cdn(line)]
    at = expected.index("{% block stylesheets %}")
    assert expected[at + 1] == "{% endblock %}"
    expected[at + 1:at + 1] = _lines(styles)
    assert _lines((TEMPLATES / TEMPLATE / "page.html").read_text()) == expected

    lab = _block((voila / "lab" / "index.html.j2").read_text(), "notebook_css")
    ours = (TEMPLATES / OWN_PAGE / "index.html.j2").read_text()
    assert "{%- extends 'voila/templates/lab/index.html.j2' -%}" in ours
    assert _lines(_block(ours, "notebook_css")) == [
        "{{ super.super() }}" if line == "{{ super() }}" else line for line in _lines(lab) if not _cdn(line)]
    assert '"base_template": "rummylab"' in (TEMPLATES / OWN_PAGE / "conf.json").read_text()  # our page.html
    assert '"base_template": "lab"' in (TEMPLATES / TEMPLATE / "conf.json").read_text()


def test_the_lesson_page_is_light_and_links_nothing_outside() -> None:
    page = (TEMPLATES / TEMPLATE / "index.html.j2").read_text()
    assert "class Manager" in page and "RENDER" in page and ".rl-lesson-page" in page  # inside the page
    assert "/* lessons.css */" not in page and "import {" not in page
    assert "main_js" not in page and "voila_setup" not in page  # not Voilà's JupyterLab bundle
    assert "rl-cell-error" in page  # a cell that raises: one short line
    for text in (page, *(f.read_text() for f in (APP / "static").iterdir())):
        assert "://" not in text  # nothing fetched from another host
    assert (APP / "static" / "lessons.js").stat().st_size < 40_000
    for name in SHIPPED:
        assert not [line for line in (TEMPLATES / name).read_text().splitlines() if _cdn(line)], name


def test_serve_and_hub_write_no_template(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Their servers read the templates where rummylab is installed: no temporary folder, nothing in
    the hub's state folder, the package's files untouched."""
    try:
        import jupyterhub  # noqa: F401
    except ImportError:  # make test installs it: under CI its absence fails
        why = "JupyterHub is not installed: pip install 'rummylab[hub]'"
        (pytest.fail if os.environ.get("CI") else pytest.skip)(why)
    from traitlets.config import Config

    from rummylab.classroom import hub
    from rummylab.classroom.serve import lessons_dir, voila_command

    def no_temporary_folder(*args: object, **kwargs: object) -> str:
        raise AssertionError("a temporary folder was made")

    monkeypatch.setattr(tempfile, "mkdtemp", no_temporary_folder)
    before = {p: p.stat().st_mtime_ns for p in TEMPLATES.rglob("*")}
    monkeypatch.setenv("JUPYTER_PATH", "/srv/jupyter")
    _, env = voila_command(lessons_dir(), 9000, tmp_path / "p.sqlite")
    from rummylab.classroom.class_kernel import CLASS_KERNELS

    assert env["JUPYTER_PATH"].split(os.pathsep) == [str(DATA), str(CLASS_KERNELS), "/srv/jupyter"]
    c = Config()
    state = tmp_path / "state"
    monkeypatch.setattr(hub, "proxy_command", lambda: ["configurable-http-proxy"])
    hub.configure(c, lessons=str(lessons_dir()), lesson="00", db="sqlite:///x.sqlite", password="a-class-password",
                  teacher_password="t" * 32, state_dir=str(state), spawner="local")
    assert c.Spawner.environment["JUPYTER_PATH"] == str(DATA)
    assert list(state.iterdir()) == []
    assert {p: p.stat().st_mtime_ns for p in TEMPLATES.rglob("*")} == before
