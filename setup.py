"""Builds the compiled meld kernels (ext/*.pyx -> rummylab._kernel, rummylab._wild)."""

import numpy
from Cython.Build import cythonize
from setuptools import Extension, setup

setup(
    ext_modules=cythonize(
        [Extension("rummylab._kernel", ["ext/_kernel.pyx"], include_dirs=[numpy.get_include()],
                   extra_compile_args=["-O3"]),
         Extension("rummylab._wild", ["ext/_wild.pyx"], extra_compile_args=["-O3"])],
        compiler_directives={"language_level": 3, "boundscheck": False, "wraparound": False},
        nthreads=2,
    ),
    options={"build_ext": {"parallel": 2}},  # the two kernels compile side by side
)
