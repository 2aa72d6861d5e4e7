"""What rummylab adds inside a student's single-user server on JupyterHub (Voilà as a server
extension): the kernel manager that shuts down a left page's kernel, and the lesson-cell error log."""

from __future__ import annotations

from typing import Any

from jupyter_server.services.kernels.kernelmanager import AsyncMappingKernelManager

from .voila_patches import log_cell_errors, rendered_once, warm_first

LeftPagesClosedKernels = warm_first(lambda base, preheat, *args, **kwargs: base)(AsyncMappingKernelManager, False)
"""The server's kernel manager with ``voila_patches``' ``LeftPagesClosed``: a lesson's kernel goes
``LEFT_AFTER`` seconds after its page's last connection closed (Voilà's warm pools, the rest of
``warm_first``, exist only in Voilà's own app)."""


def _jupyter_server_extension_points() -> list[dict[str, str]]:
    return [{"module": "rummylab.classroom.hub_server"}]


def _load_jupyter_server_extension(server_app: Any) -> None:
    """A lesson cell that raises shows one short line; its traceback goes to the server's log; a
    cell rendered once for the class shows its kept outputs."""
    log_cell_errors()
    rendered_once()
