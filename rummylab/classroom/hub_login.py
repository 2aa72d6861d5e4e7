"""``rummylab serve`` started by JupyterHub as a service of its own: it listens where the hub says
(``JUPYTERHUB_SERVICE_URL``), under the hub's prefix (``JUPYTERHUB_SERVICE_PREFIX``), and every page
needs the hub's login (``HubLogin``, its OAuth: users the hub grants ``access:services`` to).

Behind jupyter-server-proxy (a teacher's own server) ``--base-url`` is the proxy's path and the
proxy does the hub's login. Either way the class's kernels get no ``JUPYTERHUB_*`` variable: with
the service's (or the teacher's) token, a student could act as it on the hub (``take_hub_env``;
``serve.voila_command`` leaves them out when the hub's login is not used)."""

from __future__ import annotations

import contextlib
import os
import urllib.parse
from typing import Any

from jupyter_server.utils import url_path_join
from jupyterhub.services.auth import HubOAuth
from jupyterhub.singleuser.extension import JupyterHubIdentityProvider, JupyterHubOAuthCallbackHandler

HUB_PREFIX = "JUPYTERHUB_"
_TAKEN: list[HubOAuth] = []
"""The hub's OAuth client ``main`` made before Voilà starts (its warm kernels copy the environment
before Voilà makes its identity provider)."""
def service_env(environ: Any = os.environ, single_user: bool = False) -> dict[str, Any] | None:
    """Where a hub service listens: {"ip", "port", "base_url"}, when JupyterHub started this process
    as a service (``JUPYTERHUB_SERVICE_NAME``, its token and URL set), or with ``single_user`` as a
    user's server (``JUPYTERHUB_USER``), else None. ValueError for a URL that names no port."""
    name = environ.get("JUPYTERHUB_SERVICE_NAME") or (single_user and environ.get("JUPYTERHUB_USER"))
    if not (name and environ.get("JUPYTERHUB_API_TOKEN") and environ.get("JUPYTERHUB_SERVICE_URL")):
        return None
    url = urllib.parse.urlsplit(environ["JUPYTERHUB_SERVICE_URL"])
    try:
        port = url.port or {"http": 80, "https": 443}[url.scheme]
    except (ValueError, KeyError):
        raise ValueError(f"JUPYTERHUB_SERVICE_URL {environ['JUPYTERHUB_SERVICE_URL']!r}: not an http URL") from None
    prefix = environ.get("JUPYTERHUB_SERVICE_PREFIX") or (
        f"/services/{name}/" if environ.get("JUPYTERHUB_SERVICE_NAME") else f"/user/{name}/")
    return {"ip": url.hostname or "127.0.0.1", "port": port, "base_url": prefix}


STUDENTS_OWN = ("JUPYTERHUB_API_TOKEN", "JUPYTERHUB_USER")
"""What the kernels of a student's own server keep (``progress.hub_client`` sends her checks with them to
the rummylab service): her login and her server's token, as Jupyter's own single-user server
gives her kernels; never the variables of a service (its token is the service's)."""


def take_hub_env() -> HubOAuth:
    """The hub's OAuth client, made from the ``JUPYTERHUB_*`` variables, which then leave this
    process: every kernel copies its environment. A user's own server (no
    ``JUPYTERHUB_SERVICE_NAME``) keeps ``STUDENTS_OWN``."""
    auth = HubOAuth(cache_max_age=60)
    for name in auth.trait_names():  # each default reads its variable now, while it is here
        with contextlib.suppress(Exception):  # a trait this hub does not use
            getattr(auth, name)
    keep = STUDENTS_OWN if not os.environ.get("JUPYTERHUB_SERVICE_NAME") and os.environ.get("JUPYTERHUB_USER") else ()
    for name in [n for n in os.environ if n.startswith(HUB_PREFIX) and n not in keep]:
        del os.environ[name]
    return auth


class HubLogin(JupyterHubIdentityProvider):  # type: ignore[misc]
    """Voilà's identity provider: the hub's OAuth (JupyterHub's own, for single-user servers), its
    callback under Voilà's prefix (Voilà does not prefix an identity provider's handlers)."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.pop("token", None)  # Voilà passes its own (none): the hub's login is the only one
        kwargs.setdefault("hub_auth", _TAKEN[0] if _TAKEN else take_hub_env())
        super().__init__(**kwargs)

    def get_handlers(self) -> list[tuple[Any, ...]]:
        prefix = getattr(self.parent, "server_url", "/") or "/"
        return [(url_path_join(prefix, "oauth_callback"), JupyterHubOAuthCallbackHandler, {"hub_auth": self.hub_auth})]


def main() -> None:
    """``voila_patches.run_voila``, the hub's variables taken out of this process first; a user's
    server opens at the hub's default URL (``Spawner.default_url``: the lesson of the day)."""
    start = os.environ.get("JUPYTERHUB_DEFAULT_URL", "")
    _TAKEN[:] = [take_hub_env()]
    from .voila_patches import run_voila

    run_voila(start)


if __name__ == "__main__":  # run as the module Voilà imports HubLogin from, so both see one _TAKEN
    from rummylab.classroom.hub_login import main as imported_main

    imported_main()
