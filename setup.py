"""Builds the compiled kernels (ext/*.pyx -> rummylab.kernel._kernel and _wild, rummylab.sim._play,
whose shared codes ext/_codes.pxi are written from rummylab/sim/codes.py first), packs the lessons
(notebooks/*.ipynb -> rummylab/notebooks in the wheel), builds the lesson page template
(rummylab/page_template.py) and compiles the gettext catalogs (rummylab/locale/*/LC_MESSAGES/*.po)."""

import importlib.util
import shutil
import sys
from pathlib import Path
from types import ModuleType

import numpy
from Cython.Build import cythonize
from setuptools import Extension, setup
from setuptools.command.build_py import build_py

HERE = Path(__file__).resolve().parent


def _load(name: str, path: Path) -> ModuleType:
    """A module of rummylab loaded by its path (importing rummylab would need its dependencies)."""
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def page_template() -> ModuleType:
    """rummylab/page_template.py."""
    return _load("_rummylab_page_template", HERE / "rummylab" / "page_template.py")


def compile_catalogs(package: Path) -> None:
    """rummylab/i18n/compile.py: every gettext catalog of ``package``/locale compiled to its .mo."""
    _load("_rummylab_i18n_compile", HERE / "rummylab" / "i18n" / "compile.py").compile_catalogs(package / "locale")


def write_codes() -> None:
    """ext/_codes.pxi from rummylab/sim/codes.py, the one definition of the numbers the play loops
    share with the Python side (rewritten only when it changes, so an unchanged build stays built)."""
    text = _load("_rummylab_codes", HERE / "rummylab" / "sim" / "codes.py").pxi()
    target = HERE / "ext" / "_codes.pxi"
    if not target.exists() or target.read_text() != text:
        target.write_text(text)


class BuildWithLessons(build_py):
    """The lessons ship inside the package, so `pip install rummylab` brings them, and so does the
    lesson page template: built into the wheel, or in place for an editable install (gitignored)."""

    def run(self) -> None:
        super().run()
        target = Path(self.build_lib) / "rummylab" / "notebooks"
        target.mkdir(parents=True, exist_ok=True)
        for nb in sorted((HERE / "notebooks").glob("*.ipynb")):
            shutil.copy(nb, target / nb.name)
        package = HERE / "rummylab" if self.editable_mode else Path(self.build_lib) / "rummylab"
        page_template().build(package)
        compile_catalogs(package)


COMPILE_ARGS = ["-O2", "-g0", "-ffp-contract=off"]
"""No debug information, -O2: the generated C is 5.6 MB, and debug information made the build a
third slower (every `make test` builds the kernel twice: in the venv and for Binder). -O3 took
40% longer to compile for no speed: meld_speed, wild_speed and game_speed gave the same figures
within their run-to-run spread (2026-11-25). -ffp-contract=off: gcc fuses no multiply and add
into one rounding, so the compiled expert bot (ext/_play_gin_expert.pxi) computes every double
as Python does, and decides as rummylab.gin.expert does."""


NPYRANDOM = {"library_dirs": [str(Path(numpy.get_include()).parents[1] / "random" / "lib")],
             "libraries": ["npyrandom", "m"]}
"""numpy's random C library (libnpyrandom.a, shipped with numpy): the play loops shuffle and draw
with numpy's own ``random_interval`` and bounded draws instead of copies of them."""


if __name__ == "__main__":  # as setuptools runs it (tests/test_page_template.py imports BuildWithLessons)
    write_codes()
    setup(
        ext_modules=cythonize(
            [Extension("rummylab.kernel._kernel", ["ext/_kernel.pyx"], include_dirs=[numpy.get_include()],
                       extra_compile_args=COMPILE_ARGS),
             Extension("rummylab.kernel._wild", ["ext/_wild.pyx"], extra_compile_args=COMPILE_ARGS),
             Extension("rummylab.sim._play", ["ext/_play.pyx"], include_dirs=[numpy.get_include()],
                       extra_compile_args=COMPILE_ARGS, **NPYRANDOM)],
            compiler_directives={"language_level": 3, "boundscheck": False, "wraparound": False},
            include_path=["ext"],  # ext/rummylab/kernel/*.pxd: the play loops call the searches
            nthreads=2,
        ),
        cmdclass={"build_py": BuildWithLessons},
        options={"build_ext": {"parallel": 2}},  # the two kernels compile side by side
    )
