# rummylab: `make lab` opens the lessons, `make test` runs every test.
# Both set everything up from a fresh clone: a .venv, the compiled kernel, tools.

PYTHON  ?= python3
VENV    ?= .venv
BIN     := $(VENV)/bin
# uv installs into the venv (pip would take four times as long): a teacher waits less, and
# `make test` keeps its minutes for the tests.
UV      := $(BIN)/uv pip install --quiet --python $(BIN)/python
SOURCES := pyproject.toml setup.py rummylab/sim/codes.py $(wildcard ext/*.pyx ext/*.pxi ext/rummylab/*/*.pxd)
# The lesson page's template, built from rummylab/app (rummylab/page_template.py; the editable install
# builds it too, and a wheel's build_py): rebuilt alone when the page changes, without the kernels.
PAGE    := rummylab/share/jupyter/voila/templates/rummylab/index.html.j2
ROOT_FLAG := $(if $(filter 0,$(shell id -u)),--allow-root,)

.PHONY: lab test install lint unit-tests pure-python-tests system-packages browser postgresql proxy bench class clean

lab: $(VENV)/.installed-lab $(PAGE)
	$(BIN)/jupyter lab notebooks/ --ip=127.0.0.1 $(ROOT_FLAG)

# Chromium and PostgreSQL install beside the venv; lint runs beside the compiled suite (it needs
# little CPU); then the suite on the Python twin.
test:
	$(MAKE) -j2 $(VENV)/.installed-test system-packages proxy
	$(MAKE) -j2 lint unit-tests
	$(MAKE) pure-python-tests

install: $(VENV)/.installed-lab $(PAGE)

$(VENV)/bin/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet uv

# Build requirements first (pyproject.toml's build-system.requires), so the kernel builds in the venv
# (no isolated download).
$(VENV)/.build-tools: $(VENV)/bin/python pyproject.toml
	$(BIN)/python -c "import re; t = open('pyproject.toml').read(); \
	  print('\n'.join(re.findall(r'\"([^\"]+)\"', re.search(r'(?m)^requires = \[(.*)\]', t).group(1))))" \
	  > $(VENV)/requirements-build.txt
	$(UV) -r $(VENV)/requirements-build.txt "tomli; python_version < '3.11'"
	touch $@

CHECK_KERNEL := RUMMYLAB_REQUIRE_COMPILED=1 $(BIN)/python -c "import rummylab; assert rummylab.BACKEND == 'cython'; print('rummylab', rummylab.__version__, 'kernel:', rummylab.BACKEND)"

$(VENV)/.installed-lab: $(VENV)/.build-tools $(SOURCES)
	$(UV) --compile-bytecode --no-build-isolation -e ".[lab]"
	$(CHECK_KERNEL)
	touch $@

# The test set-up covers `make lab` as well. Under `make -j2` (as `make test` runs it) the kernel
# compiles while pip installs the dependencies.
$(VENV)/.installed-test: $(VENV)/.dependencies-test $(VENV)/.kernel $(PAGE)
	$(CHECK_KERNEL)
	touch $@ $(VENV)/.installed-lab

# Byte-compiled at install: the tests start a hundred Python processes (kernels, servers), and
# where PYTHONDONTWRITEBYTECODE is set each would compile every module it imports.
$(VENV)/.dependencies-test: $(VENV)/.build-tools pyproject.toml
	$(BIN)/python -c "import sys; from importlib import import_module; \
	  p = import_module('tomllib' if sys.version_info >= (3, 11) else 'tomli').load(open('pyproject.toml', 'rb'))['project']; \
	  x = p['optional-dependencies']; print('\n'.join(p['dependencies'] + x['lab'] + x['hub'] + x['test']))" \
	  > $(VENV)/requirements-test.txt
	$(UV) --compile-bytecode -r $(VENV)/requirements-test.txt
	touch $@

$(VENV)/.kernel: $(VENV)/.build-tools $(SOURCES)
	$(UV) --no-deps --no-build-isolation -e .
	touch $@

$(PAGE): rummylab/page_template.py $(wildcard rummylab/app/*.j2 rummylab/app/static/*)
	$(PYTHON) rummylab/page_template.py

# Debian's packages the tests use: Chromium for the real-browser tests (never a downloaded browser
# build), PostgreSQL's server for the progress store's (tests/pg.py starts a throwaway cluster), Noto's
# fonts so that the browser draws the Hindi lessons' Devanagari (the page fetches no web font).
# One apt-get for both: two at once would fail on each other's lock.
MISSING_PACKAGES = $(if $(shell command -v chromium),,chromium) \
                   $(if $(wildcard /usr/lib/postgresql/*/bin/initdb),,postgresql) \
                   $(if $(wildcard /usr/share/fonts/truetype/noto/NotoSansDevanagari-Regular.ttf),,fonts-noto-core)
system-packages:
	@missing="$(strip $(MISSING_PACKAGES))"; [ -z "$$missing" ] || { \
	  if [ "$$(id -u)" = 0 ]; then apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing >/dev/null; \
	  else echo "$$missing missing: run 'sudo apt-get install $$missing'"; exit 1; fi; }

browser postgresql: system-packages

# JupyterHub's proxy (npm's configurable-http-proxy) in the venv, for rummylab hub and its browser test.
PROXY := $(VENV)/node_modules/.bin/configurable-http-proxy
proxy: $(PROXY)
$(PROXY): | $(VENV)/bin/python
	@command -v npm >/dev/null 2>&1 || { echo "npm is missing (JupyterHub's proxy is an npm package): install Node.js"; exit 1; }
	npm install --silent --no-fund --no-audit --prefix $(VENV) configurable-http-proxy

lint: $(VENV)/.installed-test
	$(BIN)/ruff check rummylab tests benchmarks
	$(BIN)/mypy

# pytest-xdist spreads the tests over every core (2 here), handing them out longest first
# (tests/conftest.py); the lessons' browser tests stay on one process (one Voilà server).
XDIST := -n auto --dist loadgroup --durations=15

# One BLAS thread per process: the two workers already fill the cores, and an idle OpenBLAS
# thread spins on a core of its own after each matrix product.
TEST_ENV := OPENBLAS_NUM_THREADS=1

unit-tests: $(VENV)/.installed-test
	$(TEST_ENV) RUMMYLAB_REQUIRE_COMPILED=1 $(BIN)/pytest $(XDIST)

pure-python-tests: $(VENV)/.installed-test
	$(TEST_ENV) RUMMYLAB_PURE_PYTHON=1 $(BIN)/pytest $(XDIST) -m "not slow" --ignore=tests/browser

# The lessons as a click-through app for a classroom (Voilà on 127.0.0.1:8866), e.g.
#   make class LESSON=02 STUDENTS=30 IP=0.0.0.0   (students on other devices type a class code)
LESSON ?= 00
STUDENTS ?= 1
IP ?= 127.0.0.1
class: $(VENV)/.installed-lab $(PAGE)
	$(BIN)/rummylab serve notebooks --port 8866 --lesson $(LESSON) --students $(STUDENTS) --ip $(IP)

bench: $(VENV)/.installed-test
	$(BIN)/python benchmarks/meld_speed.py

clean:
	rm -rf $(VENV) build *.egg-info rummylab/*/*.so ext/*.c ext/*.html ext/_codes.pxi $(PAGE)
