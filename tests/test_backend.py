"""Backend selection: compiled by default, the twin on request, loud when the build is missing."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

import rummylab
from rummylab.kernel import compiled_module


def _python(code: str, **env: str) -> subprocess.CompletedProcess[str]:
    full = {k: v for k, v in os.environ.items() if not k.startswith("RUMMYLAB_")} | env
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=full, check=False)


def test_backend_is_compiled_unless_forced() -> None:
    if os.environ.get("RUMMYLAB_PURE_PYTHON") == "1":
        assert rummylab.BACKEND == "python"
    else:
        assert rummylab.BACKEND == "cython", "the compiled kernel did not load: run `make test`"


def test_pure_python_env_forces_the_twin() -> None:
    r = _python("import rummylab; print(rummylab.BACKEND)", RUMMYLAB_PURE_PYTHON="1")
    assert r.stdout.strip() == "python"
    assert r.stderr == ""


@pytest.mark.skipif(compiled_module() is None, reason="needs the compiled kernel")
def test_default_backend_is_cython_in_a_fresh_process() -> None:
    assert _python("import rummylab; print(rummylab.BACKEND)").stdout.strip() == "cython"


BLOCK_KERNEL = (
    "import sys\n"
    "class Block:\n"
    "    def find_spec(self, name, path=None, target=None):\n"
    "        if name == 'rummylab.kernel._kernel': raise ImportError('blocked for the test')\n"
    "sys.meta_path.insert(0, Block())\n"
)


def test_missing_build_warns_once_with_a_fix() -> None:
    r = _python(BLOCK_KERNEL + "import warnings; warnings.simplefilter('default')\n"
                "import rummylab, rummylab.gin\nprint(rummylab.BACKEND)")
    assert r.stdout.strip() == "python"
    assert r.stderr.count("compiled kernel is missing") == 1
    assert "make lab" in r.stderr and "pip install -e ." in r.stderr


def test_require_compiled_fails_loudly_when_missing() -> None:
    r = _python(BLOCK_KERNEL + "import rummylab", RUMMYLAB_REQUIRE_COMPILED="1")
    assert r.returncode != 0
    assert "ImportError" in r.stderr and "make lab" in r.stderr


def _public(obj: object) -> set[str]:
    return {n for n in dir(obj) if not n.startswith("_")}


@pytest.mark.skipif(compiled_module() is None, reason="needs the compiled kernel")
def test_twins_offer_exactly_the_compiled_methods() -> None:
    """Methods and option attributes alike, so no caller needs to ask which kernel it has."""
    from rummylab.kernel import _kernel, _kernel_py, _wild, _wild_py  # type: ignore[attr-defined]

    points = (1,) * 13
    assert _public(_kernel.MeldKernel(points)) == _public(_kernel_py.MeldKernel(points))
    assert _public(_wild.WildKernel(points)) == _public(_wild_py.WildKernel(points))


def test_one_place_maps_rules_to_kernels() -> None:
    from rummylab import backend, indian, three_thirteen
    from rummylab.gin import DEFAULT as GIN

    k = backend.wild_kernel(indian.Rules(min_life_length=4))
    assert (k.min_runs, k.min_pure_runs, k.min_life_length, k.ace_high) == (2, 1, 4, True)
    assert k is indian.Rules(min_life_length=4).kernel()
    t = backend.wild_kernel(three_thirteen.Rules(max_wilds_per_meld=1, ace_penalty=15))
    assert (t.max_wilds, t.points[0], t.min_runs) == (1, 15, 0)
    assert backend.wild_kernel(backend.WildOptions(points=(1,) * 13)).points == (1,) * 13
    with pytest.raises(ValueError, match="no wild-card search for Rules"):
        backend.wild_kernel(GIN)
    with pytest.raises(ValueError, match="'fortran'"):
        backend.meld_module("fortran")


IRI_CHECK = """
import sys
import rummylab, altair, jsonschema
assert "lark" not in sys.modules, "the IRI parsers were built on import"
check = jsonschema.Draft7Validator.FORMAT_CHECKER
assert check.conforms("http://example.com/a", "iri") and not check.conforms("not an iri", "iri")
assert "lark" in sys.modules and hasattr(sys.modules["rfc3987_syntax"], "__file__")
print("ok")
"""


@pytest.mark.once
def test_the_iri_syntax_module_loads_only_when_a_check_uses_it() -> None:
    """rummylab keeps jsonschema's rfc3987_syntax (2.5 s of parser building) from loading with
    altair; an "iri" format check still gets the real module."""
    r = subprocess.run([sys.executable, "-c", IRI_CHECK], capture_output=True, text=True, check=False)
    assert r.stdout.strip() == "ok", r.stderr[-2000:]
