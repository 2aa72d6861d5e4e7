"""rummylab hub without a hub: the config it writes, what a student's server gets (no secret), the
kernel's client of the service, and bad input named."""

from __future__ import annotations

import stat
from pathlib import Path

import pytest

pytest.importorskip("jupyterhub")

from rummylab import hub  # noqa: E402
from rummylab.cli import main  # noqa: E402
from rummylab.hub_client import ServiceProgress, is_service_url, open_store  # noqa: E402
from rummylab.serve import lessons_dir  # noqa: E402


def test_config_only_writes_a_private_config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv(hub.PASSWORD_ENV, "a-class-password")
    monkeypatch.setenv(hub.TEACHER_PASSWORD_ENV, "t" * 32)
    path = tmp_path / "jupyterhub_config.py"
    assert main(["hub", str(lessons_dir()), "--config-only", str(path), "--lesson", "02", "--students", "3",
                 f"--state-dir={tmp_path / 'state'}", "--db=postgresql://u:secret@db.example/class"]) == 0
    assert "passwords: from RUMMYLAB_HUB_PASSWORD" in capsys.readouterr().out
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    text = path.read_text()
    assert "from rummylab.hub import configure" in text and 'lesson="02-melds-and-deadwood.ipynb"' in text


def test_a_student_server_holds_no_secret(tmp_path: Path) -> None:
    from traitlets.config import Config

    c = Config()
    hub.configure(c, lessons=str(lessons_dir()), lesson="00", db="postgresql://u:secret@db/class",
                  password="a-class-password", teacher_password="t" * 32, students=2, state_dir=str(tmp_path),
                  spawner="simple")
    env = c.Spawner.environment
    assert env["RUMMYLAB_DB"].startswith("rummylab+http://127.0.0.1:8000/services/rummylab/")
    assert "secret" not in repr(env) and "secret" not in repr(c.Spawner.args)
    assert c.Spawner.default_url == "/voila/render/00-start-here.ipynb"
    assert "--ServerApp.terminals_enabled=False" in c.Spawner.args
    assert c.JupyterHub.services[0]["environment"]["RUMMYLAB_DB"] == "postgresql://u:secret@db/class"
    assert c.Authenticator.allowed_users == {"student01", "student02", "teacher"}
    assert c.Authenticator.admin_users == {"teacher"}  # her own password, not the class's
    template = Path(env["JUPYTER_PATH"]) / "voila" / "templates" / "rummylab" / "index.html.j2"
    assert "rl-lesson-page" in template.read_text()  # the page template, in the package


def test_the_kernels_client_of_the_service() -> None:
    assert is_service_url("rummylab+http://127.0.0.1:8000/services/rummylab/") and not is_service_url("x.sqlite")
    store = open_store("rummylab+https://hub.school/services/rummylab")
    assert isinstance(store, ServiceProgress) and store.url == "https://hub.school/services/rummylab/"
    with pytest.raises(ValueError, match="no JupyterHub token"):
        ServiceProgress("http://127.0.0.1:9/services/rummylab/", token="").record("a", "00", "x", True)
    assert ServiceProgress("http://127.0.0.1:9/", token="t").record("a", "00", "x", True) is False  # kept


@pytest.mark.parametrize("args, message", [
    (["--students", "-1"], "--students -1"), (["--teacher-group", "a b"], "--teacher-group"),
    (["--lesson", "99"], "--lesson '99'"), (["--db", "mysql://x/y"], "unknown database scheme")])
def test_bad_hub_options_are_named(args: list[str], message: str, tmp_path: Path,
                                   capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["hub", "--config-only", str(tmp_path / "c.py"), *args]) == 2
    assert message in capsys.readouterr().err
