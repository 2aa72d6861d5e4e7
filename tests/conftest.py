"""Shared test set-up: sample sizes from the environment, both kernel backends."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from rummylab.backend import compiled_module  # noqa: E402

AGREEMENT_N = int(os.environ.get("RUMMYLAB_AGREEMENT_N", "20000"))
"""Seeded hands per (generator, size) in the kernel == twin == oracle check."""

IN_CI = bool(os.environ.get("CI"))

PARTS = 4
"""The long agreement checks run in this many seeded parts, so pytest-xdist spreads them over the cores."""


def backends() -> list[str]:
    """Backends to test: the twin always, the compiled kernel when built (required under CI)."""
    if compiled_module() is None:
        if IN_CI or os.environ.get("RUMMYLAB_REQUIRE_COMPILED") == "1":
            raise RuntimeError("the compiled kernel is not built; run `make test`")
        return ["python"]
    return ["cython", "python"]


@pytest.fixture(params=backends())
def backend(request: pytest.FixtureRequest) -> str:
    return str(request.param)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """On the pure-Python run (RUMMYLAB_PURE_PYTHON=1), skip what that run would only repeat: tests
    that name their backend (the compiled run already ran them on both) and tests marked ``once``
    (they do not touch a kernel)."""
    if os.environ.get("RUMMYLAB_PURE_PYTHON") != "1":
        return
    keep, repeat = [], []
    for item in items:
        named = "backend" in getattr(item, "fixturenames", ()) and "[" in item.name
        (repeat if named or item.get_closest_marker("once") else keep).append(item)
    if repeat:
        config.hook.pytest_deselected(items=repeat)
        items[:] = keep
