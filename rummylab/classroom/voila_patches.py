"""Every touch of Voilà's internals, in one place, for the Voilà versions the tests ran
(``VOILA_TESTED``, pyproject's pin of the lab extra): importing this module checks the installed
Voilà against that range and refuses any other (``VoilaNotTested``, one line from the CLI), and
each attribute is checked before it is patched (the error names it; no AttributeError from deep
inside Voilà). tests/test_classroom.py holds the range to pyproject.toml and this module to being
the only one that imports ``voila.app``, ``voila.notebook_renderer`` or ``voila.execute``.

What it reaches into, and why:

- ``voila.app.voila_kernel_manager_factory``: the name ``voila.app`` makes its kernel manager
  class with (imported there from ``voila.voila_kernel_manager``), replaced by ``warm_first(…)``
  (``run_voila``). Its classes override the manager's ``notify_disconnect`` (jupyter_server's
  ``MappingKernelManager``) and Voilà's pool methods ``get_pool_size``, ``get_rendered_notebook``
  and ``fill_if_needed`` (with its ``extra_kernel_env_variables``), and read the private ``_pools``
  (a lesson's list of pool futures; a started one's result is a dict whose ``"task"`` runs the
  lesson: ``kernel_started``, ``lesson_run``), jupyter_server's private ``_kernel_connections``
  (a kernel's open websockets) and the ``fill_delay`` trait. Why: a left page's kernel is shut
  down; a visitor gets a warm kernel that is ready or warming, never a replacement waiting out its
  fill delay; replacements start ``REFILL_GAP`` seconds apart; a warm kernel knows its lesson; the
  teacher's terminal says ``class ready``. ``hub_server`` applies the same classes (without the
  pools) to a student's Jupyter server on a hub.
- ``voila.notebook_renderer.NotebookRenderer.initialize`` (and the renderer's ``notebook_path``
  and ``request_handler``), wrapped (``own_front_ends``). Why: a lesson the light page sent to
  Voilà's own page (``class_code.OWN_PAGE``) is logged once, and its later visits go there at once.
- ``voila.notebook_renderer.VoilaExecutor``: the name the renderer makes its executor from,
  replaced by a subclass of ``voila.execute.VoilaExecutor`` that overrides
  ``strip_code_cell_errors`` (``log_cell_errors``). Why: with ``allow_errors`` Voilà logs no cell
  error, and a lesson cell's traceback must reach the teacher's terminal.
- nbclient's ``NotebookClient.async_execute_cell`` (public), overridden in a further subclass of the
  renderer's executor (``rendered_once``), which reads the executor's ``nb``. Why: a lesson's
  cells rendered once for the class show their kept outputs, and no student's kernel runs them.
- ``voila.app.Voila.init_handlers``, wrapped (``lesson_index``, ``open_at``), and the app's
  ``notebook_path``, ``root_dir`` and ``server_url`` read there. Why: a served folder's root and
  ``voila/tree`` show the lessons by title with the student's progress, not Voilà's file list;
  on a hub, the root redirects to the lesson of the day (``Spawner.default_url``), as a Jupyter
  server's root does.
- ``voila.app.main``: Voilà's command line, run once the above are patched (``run_voila``).

Not here, and not private: ``class_code.ClassCodeProvider`` is an identity provider, which Voilà
loads by name (``--Voila.identity_provider_class``); the page templates restate lines of Voilà's
templates (``page_template``; tests/test_page_template.py holds them to the Voilà installed).
"""

from __future__ import annotations

import asyncio
import importlib.metadata
from pathlib import Path
from typing import Any

from ..lessons.exercises import LESSON_ENV

VOILA_TESTED = ">=0.5.13,<0.6"
"""The Voilà versions the tests ran (pyproject.toml's lab extra: a test holds the two together)."""


class VoilaNotTested(ValueError):
    """The installed Voilà is not one the tests ran, or lacks something this module patches (a
    ValueError: the CLI says it in one line)."""


def installed_voila() -> str | None:
    """The installed Voilà's version (its package metadata), None when it is not installed."""
    try:
        return importlib.metadata.version("voila")
    except importlib.metadata.PackageNotFoundError:
        return None


def check_voila() -> str:
    """The installed Voilà's version, when it is in ``VOILA_TESTED``; VoilaNotTested otherwise."""
    from packaging.specifiers import SpecifierSet
    from packaging.version import InvalidVersion

    version = installed_voila()
    if version is None:
        raise VoilaNotTested('serving lessons needs Voilà, which is not installed: pip install "rummylab[lab]"')
    try:
        tested = SpecifierSet(VOILA_TESTED).contains(version, prereleases=True)
    except InvalidVersion:
        tested = False
    if not tested:
        raise VoilaNotTested(f"Voilà {version} is installed, but rummylab reaches into Voilà's internals and was "
                             f'tested with voila{VOILA_TESTED} only: pip install "voila{VOILA_TESTED}" '
                             "(rummylab/classroom/voila_patches.py lists what it reaches into)")
    return version


VOILA_VERSION = check_voila()
"""The installed Voilà's version, checked when this module is imported."""


def _dotted(owner: Any) -> str:
    """A module's or a class's dotted name, for an error."""
    if isinstance(owner, type):
        return f"{owner.__module__}.{owner.__qualname__}"
    return str(getattr(owner, "__name__", type(owner).__qualname__))


def _reach(owner: Any, name: str) -> Any:
    """``owner``'s attribute ``name``, which the Voilà versions tested have; VoilaNotTested names it
    when it is gone."""
    try:
        return getattr(owner, name)
    except AttributeError:
        raise VoilaNotTested(f"Voilà {VOILA_VERSION} has no {_dotted(owner)}.{name}, which rummylab patches "
                             f"(tested with voila{VOILA_TESTED}: rummylab/classroom/voila_patches.py)") from None


def warm_first(factory: Any) -> Any:
    """Voilà's kernel-manager factory, changed so that a left page's kernel is shut down, and a
    visitor gets a warm kernel that is ready or already warming, and otherwise a kernel started
    at once, as for other lessons. (Voilà counts a replacement still waiting out its
    ``fill_delay`` as warm, and the visitor waited for it: five minutes, for a student who reloads
    the page or comes after the class took every warm kernel.) Replacements start ``REFILL_GAP``
    seconds apart, not all at once."""
    from jupyter_core.utils import ensure_async

    from .class_code import LEFT_AFTER, REFILL_GAP

    def make(base_class: Any, preheat_kernel: bool, *args: Any, **kwargs: Any) -> Any:
        manager = factory(base_class, preheat_kernel, *args, **kwargs)
        for name in ("notify_disconnect", "shutdown_kernel") + (
                ("get_pool_size", "get_rendered_notebook", "fill_if_needed") if preheat_kernel else ()):
            _reach(manager, name)

        class LeftPagesClosed(manager):  # type: ignore[misc, valid-type]
            """Shuts down a lesson's kernel ``LEFT_AFTER`` seconds after its page's last connection
            closed: a class whose students reload pages keeps one kernel a student."""

            def _left(self, kernel_id: str) -> bool:
                """No page is connected to this (running) kernel."""
                return kernel_id in self and self._kernel_connections.get(kernel_id, 1) == 0

            def notify_disconnect(self, kernel_id: str) -> None:
                super().notify_disconnect(kernel_id)
                if self._left(kernel_id):
                    asyncio.get_event_loop().call_later(LEFT_AFTER, self._shut_down_if_left, kernel_id)

            def _shut_down_if_left(self, kernel_id: str) -> None:
                if self._left(kernel_id):
                    asyncio.ensure_future(ensure_async(self.shutdown_kernel(kernel_id)))

        if not preheat_kernel:
            return LeftPagesClosed

        class WarmFirst(LeftPagesClosed):
            _starts: dict[Any, float]  # pool task -> when its kernel starts (after its fill delay)

            def usable(self, task: Any) -> bool:
                """Ready, or already warming: not a replacement still waiting out its delay."""
                now = asyncio.get_event_loop().time()
                return kernel_started(task) or (not task.done() and self._starts.get(task, 0.0) <= now)

            def get_pool_size(self, notebook_name: str) -> int:
                return sum(map(self.usable, self._pools.get(notebook_name, [])))

            async def get_rendered_notebook(self, notebook_name: str, *args: Any, **kwargs: Any) -> Any:
                pool = self._pools.get(notebook_name, [])
                first = next(filter(kernel_started, pool), None) or next(filter(self.usable, pool), None)
                if first is not None:  # Voilà takes the pool's first kernel: make it this one
                    pool.remove(first)
                    pool.insert(0, first)
                return await super().get_rendered_notebook(notebook_name, *args, **kwargs)

            def fill_if_needed(self, delay: float | None = None, notebook_name: str | None = None,
                               *args: Any, **kwargs: Any) -> None:
                if delay is None and ONE_KERNEL[0]:  # a student's own server: she keeps the one she took
                    return
                if delay is None:  # a kernel was taken: its replacement waits its turn
                    waiting = sum(not t.done() for t in self._pools.get(notebook_name, []))
                    delay = self.fill_delay + REFILL_GAP * waiting
                before = len(self._pools.get(notebook_name, []))
                if notebook_name and not args:  # a warm kernel knows its lesson (an exercise's lesson)
                    extra = dict(kwargs.pop("extra_kernel_env_variables", None) or {})
                    kwargs["extra_kernel_env_variables"] = {LESSON_ENV: Path(notebook_name).stem, **extra}
                super().fill_if_needed(delay, notebook_name, *args, **kwargs)
                if not hasattr(self, "_starts"):
                    self._starts = {}
                start = asyncio.get_event_loop().time() + delay
                for task in self._pools.get(notebook_name, [])[before:]:
                    self._starts[task] = start
                if delay == 0 and not getattr(self, "_announcing", False):  # the class's first warm-up
                    self._announcing = True
                    asyncio.get_event_loop().create_task(announce_when_warm(self._pools))

        return WarmFirst

    return make


def kernel_started(item: Any) -> bool:
    """A pool item whose kernel has started (its lesson may still be running)."""
    return bool(item.done() and not item.cancelled() and item.exception() is None)


def lesson_run(item: Any) -> bool:
    """A pool item whose kernel has started and run its lesson (Voilà renders it ahead of time)."""
    return kernel_started(item) and bool(item.result()["task"].done())


async def announce_when_warm(pools: dict[str, list[Any]]) -> None:
    """Print ``class ready`` (with the kernels' memory) once every warm kernel has run its lesson,
    or failed to start (said too: the class goes on with the others)."""
    import os

    from .class_code import kernel_processes

    def settled(item: Any) -> bool:  # run its lesson, or failed to start
        return bool(item.done() and (lesson_run(item) or not kernel_started(item)))

    def filled() -> list[Any]:  # lessons not of the day have no pool
        return [item for items in pools.values() for item in items]

    while not (filled() and all(map(settled, filled()))):
        await asyncio.sleep(1)
    kernels = kernel_processes(os.getpid())
    each = sum(p.memory_info().rss for p in kernels) / max(len(kernels), 1) / 2**20
    warm = sum(map(lesson_run, filled()))
    from ..i18n import _

    failed = " " + _("({n} failed to start)").format(n=len(filled()) - warm) if warm < len(filled()) else ""
    print("rummylab: " + _("class ready: {warm} warm kernel(s){failed}, {mb} MB each").format(
        warm=warm, failed=failed, mb=f"{each:.0f}"), flush=True)


ONE_KERNEL_ENV = "RUMMYLAB_ONE_KERNEL"
"""Set (by ``serve --hub-server``) for a student's own server on a hub: a warm kernel taken is not replaced."""
ONE_KERNEL = [False]
"""This Voilà is a student's own server (``ONE_KERNEL_ENV``)."""


def run_voila(start: str = "") -> None:
    """Voilà's command line, with ``warm_first`` kernel pools, the lesson index, lesson cells'
    errors logged and lessons with front ends of their own kept on Voilà's page (``python -m
    rummylab.classroom``); with ``start``, the root opens that page (``open_at``)."""
    import os

    import voila.app

    ONE_KERNEL[0] = os.environ.pop(ONE_KERNEL_ENV, "") == "1"  # read here, not copied into kernels

    voila.app.voila_kernel_manager_factory = warm_first(_reach(voila.app, "voila_kernel_manager_factory"))
    lesson_index()
    if start:
        open_at(start)
    log_cell_errors()
    rendered_once()
    own_front_ends()
    _reach(voila.app, "main")()


def own_front_ends() -> None:
    """A lesson the light page sent to Voilà's own page (``?template=OWN_PAGE``: its widgets have
    front ends of their own) is logged once, and its later visits go there at once."""
    import re

    import voila.notebook_renderer

    from .class_code import OWN_PAGE

    renderer = _reach(voila.notebook_renderer, "NotebookRenderer")
    initialize = _reach(renderer, "initialize")
    own: set[str] = set()

    async def initialize_own(self: Any, **kwargs: Any) -> Any:
        path = self.notebook_path
        if kwargs.get("template") == OWN_PAGE and path not in own:
            own.add(path)
            handler = self.request_handler
            widgets = re.sub(r"[^\w@/. -]", "", handler.get_argument("widgets", "") if handler else "")[:200]
            print(f"rummylab: {Path(path).name} has widgets with front ends of their own ({widgets or 'unnamed'}): "
                  "served with Voilà's own page", flush=True)
        elif kwargs.get("template") is None and path in own:
            kwargs["template"] = OWN_PAGE
        return await initialize(self, **kwargs)

    renderer.initialize = initialize_own


def log_cell_errors() -> None:
    """A lesson cell that raises shows students one short line (``--show_tracebacks=False``); its
    traceback goes to the teacher's terminal. Voilà logs only errors that stop a lesson, and with
    ``allow_errors`` none does, so the executor its renderer makes logs each one before stripping it."""
    import voila.execute
    import voila.notebook_renderer

    _reach(voila.notebook_renderer, "VoilaExecutor")  # the name the renderer makes its executor from
    executor = _reach(voila.execute, "VoilaExecutor")
    _reach(executor, "strip_code_cell_errors")

    class LoggedErrors(executor):  # type: ignore[misc, valid-type]
        def strip_code_cell_errors(self, cell: Any) -> Any:
            for out in cell.get("outputs", []) if cell.get("cell_type") == "code" else []:
                if out.get("output_type") == "error" and out.get("ename") != "ExecutionError":
                    self.log.error("rummylab: a lesson cell raised %s: %s\n%s\n%s", out.get("ename"),
                                   out.get("evalue"), cell.get("source", ""), "\n".join(out.get("traceback", [])))
            return super().strip_code_cell_errors(cell)

    voila.notebook_renderer.VoilaExecutor = LoggedErrors


def lesson_index() -> None:
    """A served folder's root and ``voila/tree`` show ``lesson_index``'s page (the lessons by title,
    with the student's progress) in place of Voilà's file list; ``open_at`` may still send the
    root to the lesson of the day. A single notebook served has no index."""
    import voila.app
    from jupyter_server.utils import url_path_join

    from .lesson_index import make_handler

    init_handlers = _reach(_reach(voila.app, "Voila"), "init_handlers")
    handler = make_handler()

    def with_index(self: Any) -> list[Any]:
        if self.notebook_path:
            return init_handlers(self)
        spec = {"folder": str(self.root_dir)}
        return [(self.server_url, handler, spec), (url_path_join(self.server_url, r"/voila/tree/?"), handler, spec),
                *init_handlers(self)]

    voila.app.Voila.init_handlers = with_index


def rendered_once() -> None:
    """A lesson cell rendered once for the class (``lessons.rendered``) shows the outputs kept for
    it, and the kernel does not run it: the executor the renderer makes (nbclient's
    ``async_execute_cell``) returns the cell with those outputs. A lesson not rendered (edited, or
    other settings) runs whole, as without this."""
    import os

    import nbformat
    import voila.notebook_renderer

    from ..lessons.rendered import OUTPUTS_ENV, is_rendered_once, kept, lesson_key, settings_of

    executor = _reach(voila.notebook_renderer, "VoilaExecutor")
    _reach(executor, "async_execute_cell")

    class RenderedOnce(executor):  # type: ignore[misc, valid-type]
        async def async_execute_cell(self, cell: Any, cell_index: int, *args: Any, **kwargs: Any) -> Any:
            if is_rendered_once(cell):
                if not hasattr(self, "_rummylab_kept"):
                    self._rummylab_kept = kept(os.environ.get(OUTPUTS_ENV),
                                               lesson_key(self.nb.cells, settings_of(os.environ))) or {}
                outputs = self._rummylab_kept.get(cell.get("id"))
                if outputs is not None:
                    cell.outputs = [nbformat.from_dict(o) for o in outputs]
                    return cell
            return await super().async_execute_cell(cell, cell_index, *args, **kwargs)

    voila.notebook_renderer.VoilaExecutor = RenderedOnce


def open_at(default_url: str) -> None:
    """Voilà's root (its lesson index) redirects to ``default_url`` under its base URL, as a Jupyter
    server's does: the hub sends a user to her server's root once it has started."""
    import voila.app
    from jupyter_server.utils import url_path_join
    from tornado.web import RedirectHandler

    init_handlers = _reach(_reach(voila.app, "Voila"), "init_handlers")

    def with_start(self: Any) -> list[Any]:
        return [(self.server_url, RedirectHandler, {"url": url_path_join(self.base_url, default_url)}),
                *init_handlers(self)]

    voila.app.Voila.init_handlers = with_start
