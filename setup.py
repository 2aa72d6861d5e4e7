"""Builds the compiled kernels (ext/*.pyx -> rummylab._kernel, _wild, _play) and packs
the lessons (notebooks/*.ipynb -> rummylab/notebooks in the wheel)."""

import shutil
from pathlib import Path

import numpy
from Cython.Build import cythonize
from setuptools import Extension, setup
from setuptools.command.build_py import build_py


class BuildWithLessons(build_py):
    """The lessons ship inside the package, so `pip install rummylab` brings them."""

    def run(self) -> None:
        super().run()
        target = Path(self.build_lib) / "rummylab" / "notebooks"
        target.mkdir(parents=True, exist_ok=True)
        for nb in sorted(Path("notebooks").glob("*.ipynb")):
            shutil.copy(nb, target / nb.name)


COMPILE_ARGS = ["-O2", "-g0"]
"""No debug information, -O2: the generated C is 5.6 MB, and debug information made the build a
third slower (every `make test` builds the kernel twice: in the venv and for Binder). -O3 took
40% longer to compile for no speed: meld_speed, wild_speed and game_speed gave the same figures
within their run-to-run spread (2026-11-25)."""


setup(
    ext_modules=cythonize(
        [Extension("rummylab._kernel", ["ext/_kernel.pyx"], include_dirs=[numpy.get_include()],
                   extra_compile_args=COMPILE_ARGS),
         Extension("rummylab._wild", ["ext/_wild.pyx"], extra_compile_args=COMPILE_ARGS),
         Extension("rummylab._play", ["ext/_play.pyx"], include_dirs=[numpy.get_include()],
                   extra_compile_args=COMPILE_ARGS)],
        compiler_directives={"language_level": 3, "boundscheck": False, "wraparound": False},
        include_path=["ext"],  # ext/rummylab/_kernel.pxd: the play loops call the meld search
        nthreads=2,
    ),
    cmdclass={"build_py": BuildWithLessons},
    options={"build_ext": {"parallel": 2}},  # the two kernels compile side by side
)
