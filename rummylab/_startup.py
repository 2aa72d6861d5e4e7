"""Start-up work skipped by every rummylab process (a kernel, the class server).

jsonschema, which altair, nbformat and Jupyter's server import, imports ``rfc3987_syntax`` for
its "iri" format check, and that module builds 35 Lark parsers as it is imported: 2.5 s of CPU
in every process, 75 s for a class of 30 kernels. No schema rummylab meets uses the format, so
the module is loaded the first time a check calls it instead.
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
import types
from typing import Any

IRI_SYNTAX = "rfc3987_syntax"
IRI_SYNTAX_TESTED = (1,)
"""The major versions of rfc3987-syntax the stand-in was tested with (its module is replaced in
``sys.modules`` until first use); with another, nothing is deferred."""


def _tested_iri_syntax() -> bool:
    import importlib.metadata

    try:
        major = int(importlib.metadata.version("rfc3987-syntax").split(".")[0])
    except (importlib.metadata.PackageNotFoundError, ValueError):
        return False
    return major in IRI_SYNTAX_TESTED


def defer_iri_syntax() -> None:
    """Stand in for ``rfc3987_syntax`` until something uses it (then the real module loads); only
    for the versions tested (``IRI_SYNTAX_TESTED``)."""
    if IRI_SYNTAX in sys.modules or importlib.util.find_spec(IRI_SYNTAX) is None or not _tested_iri_syntax():
        return
    stand_in = types.ModuleType(IRI_SYNTAX, "loads the real rfc3987_syntax on first use")

    def real() -> types.ModuleType:
        if sys.modules.get(IRI_SYNTAX) is stand_in:
            del sys.modules[IRI_SYNTAX]
        return importlib.import_module(IRI_SYNTAX)

    def is_valid_syntax(*args: Any, **kwargs: Any) -> Any:
        return real().is_valid_syntax(*args, **kwargs)

    def attribute(name: str) -> Any:
        if name.startswith("__"):  # what the import system asks of any module (``__path__``, …)
            raise AttributeError(name)
        return getattr(real(), name)

    stand_in.is_valid_syntax = is_valid_syntax  # type: ignore[attr-defined]
    stand_in.__getattr__ = attribute  # type: ignore[method-assign]
    sys.modules[IRI_SYNTAX] = stand_in
