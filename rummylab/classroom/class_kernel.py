"""A class's lesson kernel: ipykernel without its debugger. A served lesson shows no code, so no
one debugs it, and debugpy (which ipykernel imports at start to offer a debugger) holds 8 MB in
every kernel: 240 MB for a class of 30. ``rummylab serve`` runs its kernels with this one: its
``python3`` kernel spec (``CLASS_KERNELS``) comes first on the class server's ``JUPYTER_PATH``.
JupyterLab (``make lab``, ``rummylab hub --lab``) keeps the usual kernel and its debugger.

The spec also starts the kernel without IPython's input history (a thread and an SQLite file: no
one types in a served lesson) and with glibc's ``MALLOC_TRIM_THRESHOLD_`` at 128 kB, so memory a
lesson's cells freed goes back to the system instead of staying in the kernel's heap (lesson 11:
about 25 MB; benchmarks/kernel_memory.py)."""

from __future__ import annotations

import sys
from pathlib import Path

CLASS_KERNELS = Path(__file__).resolve().parent.parent / "share" / "jupyter-class"
"""A Jupyter data folder holding one kernel spec, ``python3``: this module's kernel."""
MODULE = "rummylab.classroom.class_kernel"


def is_kernel(cmdline: str) -> bool:
    """Whether a process's command line is a lesson's kernel: a class's (this module) or ipykernel's."""
    return MODULE in cmdline or "ipykernel" in cmdline


def main() -> None:
    """Start ipykernel with ``import debugpy`` refused (a ``None`` in ``sys.modules`` makes an
    import raise ImportError, which ipykernel takes as "no debugger")."""
    sys.modules["debugpy"] = None  # type: ignore[assignment]
    from ipykernel import kernelapp

    kernelapp.launch_new_instance()


if __name__ == "__main__":
    main()
