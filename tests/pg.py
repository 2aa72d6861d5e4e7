"""A throwaway PostgreSQL cluster for the tests: Debian's server binaries, a temporary folder, a free
port on 127.0.0.1, password (scram) authentication over TCP; stopped by its PID at the end."""

from __future__ import annotations

import os
import secrets
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from pathlib import Path

USER = "postgres"


def server_bin() -> Path | None:
    """The newest installed PostgreSQL's bin folder (Debian: /usr/lib/postgresql/N/bin), or None."""
    found = sorted(Path("/usr/lib/postgresql").glob("*/bin/initdb"), key=lambda p: int(p.parent.parent.name)
                   if p.parent.parent.name.isdigit() else 0)
    return found[-1].parent if found else None


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Cluster:
    """A cluster in ``root`` on ``port``: ``url(db)``, ``stop()``, ``start()``, ``restart()``, ``close()``."""

    def __init__(self, bin_dir: Path) -> None:
        self.bin = bin_dir
        self.root = Path(tempfile.mkdtemp(prefix="rummylab-pg-"))
        self.data, self.sock, self.log = self.root / "data", self.root / "sock", self.root / "log"
        self.port = free_port()
        self.password = secrets.token_urlsafe(12)
        self.as_user = ["runuser", "-u", USER, "--"] if os.geteuid() == 0 else []
        self.sock.mkdir()
        pwfile = self.root / "pw"
        pwfile.write_text(self.password + "\n")
        if self.as_user:
            shutil.chown(self.root, USER)
            shutil.chown(self.sock, USER)
            shutil.chown(pwfile, USER)
        self._run("initdb", "-D", str(self.data), "-U", USER, "--no-sync", "--auth-local=trust",
                  "--auth-host=scram-sha-256", f"--pwfile={pwfile}", "-E", "UTF8", "--locale=C")
        self.start()

    def _run(self, tool: str, *args: str) -> None:
        subprocess.run([*self.as_user, str(self.bin / tool), *args], check=True, cwd=self.root,
                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)

    def url(self, db: str = "postgres", password: str | None = None) -> str:
        return f"postgresql://{USER}:{self.password if password is None else password}@127.0.0.1:{self.port}/{db}"

    def start(self) -> None:
        self._run("pg_ctl", "-D", str(self.data), "-w", "-l", str(self.log), "-o",
                  f"-p {self.port} -k {self.sock} -c listen_addresses=127.0.0.1 -c fsync=off "
                  "-c full_page_writes=off -c max_connections=200", "start")

    def stop(self) -> None:
        self._run("pg_ctl", "-D", str(self.data), "-w", "-m", "fast", "stop")

    def restart(self) -> None:
        self._run("pg_ctl", "-D", str(self.data), "-w", "-m", "fast", "restart")

    def pid(self) -> int | None:
        try:
            return int((self.data / "postmaster.pid").read_text().split()[0])
        except (OSError, ValueError, IndexError):
            return None

    def create_db(self, name: str) -> str:
        """A new empty database; its URL."""
        import psycopg

        with psycopg.connect(self.url(), autocommit=True) as con:
            con.execute(f'CREATE DATABASE "{name}"')
        return self.url(name)

    def close(self) -> None:
        """Stop the server by its PID (a fast shutdown) and remove the folder."""
        pid = self.pid()
        if pid is not None:
            try:
                os.kill(pid, signal.SIGINT)
                for _ in range(200):
                    os.kill(pid, 0)
                    time.sleep(0.05)
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        shutil.rmtree(self.root, ignore_errors=True)
