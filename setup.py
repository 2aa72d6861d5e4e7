"""Builds the compiled meld kernel (ext/_kernel.pyx -> rummylab._kernel)."""

import numpy
from Cython.Build import cythonize
from setuptools import Extension, setup

setup(
    ext_modules=cythonize(
        [Extension("rummylab._kernel", ["ext/_kernel.pyx"], include_dirs=[numpy.get_include()],
                   extra_compile_args=["-O3"])],
        compiler_directives={"language_level": 3, "boundscheck": False, "wraparound": False},
    )
)
