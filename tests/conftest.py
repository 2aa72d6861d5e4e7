"""Shared test set-up: sample sizes from the environment, both kernel backends."""

from __future__ import annotations

import os
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from rummylab.kernel import compiled_module  # noqa: E402

SOAK = int(os.environ.get("RUMMYLAB_SOAK", "1"))
"""How many times the suite's sample sizes the long checks play: 1 in ``make test`` (enough to
catch a regression within its ten minutes), more in ``benchmarks/soak.py`` (run and recorded)."""


def soak(n: int) -> int:
    """``n`` games or hands, times ``SOAK``."""
    return n * SOAK


AGREEMENT_N = int(os.environ.get("RUMMYLAB_AGREEMENT_N", str(soak(5_000))))
"""Seeded hands per (generator, size) in the kernel == twin == oracle check."""

IN_CI = bool(os.environ.get("CI"))

os.environ.setdefault("RUMMYLAB_SPOOL", tempfile.mkdtemp(prefix="rummylab-spool-"))
"""Checks a test's database cannot take wait here (and in the kernels it starts), not in ~/.local."""

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


@pytest.fixture(scope="session")
def pg_cluster() -> Iterator[object]:
    """A throwaway PostgreSQL cluster (tests/pg.py) for this test process, stopped at the end.
    Without PostgreSQL's binaries: a failure under CI (``make test`` installs them), else a skip."""
    from pg import Cluster, server_bin

    found = server_bin()
    if found is None:
        why = "PostgreSQL's server is not installed (apt-get install postgresql; make test does)"
        if IN_CI:
            pytest.fail(why)
        pytest.skip(why)
    cluster = Cluster(found)
    try:
        yield cluster
    finally:
        cluster.close()


LONGEST_FIRST = (
    "tests/test_binder.py",
    "tests/browser/",
    "tests/test_simulation.py::test_compiled_thirteen_loop_plays_the_engines_games",
    "tests/test_bots_finish.py::test_thousands_of_three_thirteen",
    "tests/test_bots_finish.py::test_thousands",
    "tests/test_three_thirteen_game.py::test_full_games_keep_every_invariant",
    "tests/test_odds.py::test_cli",
    "tests/test_notebooks.py::test_lesson_runs_under_any_seed_and_size[11",
    "tests/test_indian.py::test_search_equals_oracle",
    "tests/test_indian_discard.py::test_best_discard_equals_the_oracle",
    "tests/test_indian_game.py::test_thousands_of_games_keep_the_rules",
    "tests/test_odds.py::test_dask",
    "tests/test_three_thirteen.py::test_search_equals_oracle",
    "tests/test_gin_game.py::test_random_games_keep_every_invariant",
    "tests/test_three_handed.py::test_games_keep_every_invariant",
    "tests/test_bots_finish.py::test_gin_pairings_finish",
    "tests/test_indian_game.py::test_simulate",
    "tests/test_agreement.py::test_kernel_twin_and_oracle_agree",
    "tests/test_state_machines.py",
    "tests/test_notebooks.py",
    "tests/test_simulation.py",
)
"""The tests that take longest, in about that order: pytest-xdist hands tests out from the front,
so the two workers start on these and finish together."""


@pytest.fixture
def fresh_exercises(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[Path]:
    """A kernel's exercises forgotten, no student, a progress database of its own (its path)."""
    from rummylab.lessons import exercises

    db = tmp_path / "progress.sqlite"
    monkeypatch.setenv("RUMMYLAB_DB", str(db))
    monkeypatch.delenv("JUPYTERHUB_USER", raising=False)
    monkeypatch.setattr(exercises, "_STUDENT", None)
    exercises.reset()
    exercises.PENDING.clear()
    yield db
    exercises.reset()
    exercises.PENDING.clear()


def _longest_first(item: pytest.Item) -> int:
    return next((i for i, prefix in enumerate(LONGEST_FIRST) if item.nodeid.startswith(prefix)), len(LONGEST_FIRST))


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """On the pure-Python run (RUMMYLAB_PURE_PYTHON=1), skip what that run would only repeat: tests
    that name their backend or are marked ``both_backends`` (the compiled run already ran them on
    both), and tests marked ``once``
    (they do not touch a kernel)."""
    items.sort(key=_longest_first)
    if os.environ.get("RUMMYLAB_PURE_PYTHON") != "1":
        return
    keep, repeat = [], []
    for item in items:
        named = "backend" in getattr(item, "fixturenames", ()) and "[" in item.name
        (repeat if named or item.get_closest_marker("once") or item.get_closest_marker("both_backends")
         else keep).append(item)
    if repeat:
        config.hook.pytest_deselected(items=repeat)
        items[:] = keep
