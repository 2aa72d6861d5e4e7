"""A password of her own for each student on a school's hub (``rummylab hub --students N``), so
that nobody logs in as a classmate: JupyterHub's ``shared-password`` authenticator takes one
password for every user (any student could log in as any other), and PAM needs the school to give
each system account a password. Here each hub user has a password made up by ``rummylab hub``
(``passwords``), handed out by the teacher, kept in the config only as a salted PBKDF2 hash
(``hashlib``, the standard library's)."""

from __future__ import annotations

import hashlib
import hmac
import secrets
from typing import Any

from jupyterhub.auth import Authenticator
from traitlets import Dict, Unicode

ITERATIONS = 200_000
"""PBKDF2-SHA256 rounds of a stored password (a login costs about 0.1 s of CPU)."""


def hashed(password: str, salt: str | None = None, iterations: int = ITERATIONS) -> str:
    """``pbkdf2_sha256$ROUNDS$SALT$HASH`` of ``password``: what the config keeps."""
    salt = salt or secrets.token_hex(16)
    digest = hashlib.pbkdf2_hmac("sha256", password.encode(), salt.encode(), iterations).hex()
    return f"pbkdf2_sha256${iterations}${salt}${digest}"


def matches(password: str, stored: str) -> bool:
    """Whether ``password`` is the one ``stored`` (``hashed``'s) was made from; constant time."""
    try:
        scheme, rounds, salt, _ = stored.split("$")
        if scheme != "pbkdf2_sha256":
            return False
        return hmac.compare_digest(hashed(password, salt, int(rounds)), stored)
    except ValueError:
        return False


def passwords(names: list[str], length: int = 10) -> dict[str, str]:
    """A password made up for each name: letters and digits a student can copy from a slip (no
    0/O, 1/l/I)."""
    alphabet = "abcdefghijkmnpqrstuvwxyz23456789"
    return {name: "".join(secrets.choice(alphabet) for _ in range(length)) for name in names}


class ClassPasswords(Authenticator):  # type: ignore[misc]
    """Each hub user logs in with her own password (``hashes``: user -> ``hashed``); nobody else can."""

    hashes = Dict(Unicode(), config=True, help="Each user's password, as rummylab's hashed() keeps it.")

    async def authenticate(self, handler: Any, data: dict[str, str]) -> dict[str, Any] | None:
        name = self.normalize_username(data.get("username", ""))
        stored = self.hashes.get(name)
        if stored is None or not matches(data.get("password", ""), stored):
            return None
        return {"name": name, "admin": name in self.admin_users}
