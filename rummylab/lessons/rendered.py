"""Cells rendered once for the whole class: a lesson's tables and charts that are the same for
every student (the same seed, the same sample) are computed by one kernel when the class server
starts, and every student's kernel shows those outputs instead of computing them again.

A lesson marks such a cell with the tag ``RENDERED_ONCE``. Its kernel then never runs it: a
served lesson's kernel holds only what its widgets and exercises need (no polars for a
simulation's table: ``benchmarks/kernel_memory.py``), and a class starts without thirty
kernels computing the same simulation. A cell so marked may define nothing a later cell of the
lesson uses (``check_rendered_once``, run by the preflight), since no student's kernel has it.
The outputs are kept by the lesson's cells (ids and sources) and the settings that shape them
(``SETTINGS``), so an edited lesson or another seed is rendered anew, never shown stale.
"""

from __future__ import annotations

import ast
import hashlib
import json
import os
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

RENDERED_ONCE = "rendered-once"
"""The tag of a cell whose outputs are the same for every student."""
OUTPUTS_ENV = "RUMMYLAB_OUTPUTS"
"""The folder of a class's rendered outputs (set by ``rummylab serve`` and the hub for Voilà)."""
SETTINGS = ("RUMMYLAB_SEED", "RUMMYLAB_N", "RUMMYLAB_CHARTS", "RUMMYLAB_APP", "RUMMYLAB_LANG")
"""The settings a lesson's outputs depend on."""


def is_rendered_once(cell: Any) -> bool:
    """Whether ``cell`` is a code cell tagged ``RENDERED_ONCE``."""
    return cell.get("cell_type") == "code" and RENDERED_ONCE in cell.get("metadata", {}).get("tags", [])


def lesson_key(cells: Iterable[Any], settings: Mapping[str, str]) -> str:
    """What a lesson's rendered outputs are kept under: its cells (ids and sources), the settings
    of ``SETTINGS`` in ``settings``, and rummylab's version."""
    from .. import __version__

    digest = hashlib.sha256(__version__.encode())
    for cell in cells:
        digest.update(f"{cell.get('id', '')}\0{cell.get('source', '')}\0".encode())
    digest.update(json.dumps({k: settings.get(k, "") for k in SETTINGS}, sort_keys=True).encode())
    return digest.hexdigest()[:32]


def _targets(node: ast.AST) -> set[str]:
    """The names an assignment target binds (``a``, ``a, b``, ``[a, *b]``)."""
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}


def _names(tree: ast.Module) -> tuple[set[str], set[str]]:
    """The names a cell binds for later cells (at its top level: assignments, loop targets,
    imports, definitions) and the names it reads that it does not bind anywhere itself."""
    bound: set[str] = set()
    for node in tree.body:
        if isinstance(node, ast.Assign):
            bound |= {n for t in node.targets for n in _targets(t)}
        elif isinstance(node, ast.AnnAssign | ast.AugAssign | ast.For | ast.AsyncFor):
            bound |= _targets(node.target)
        elif isinstance(node, ast.With | ast.AsyncWith):
            bound |= {n for item in node.items if item.optional_vars for n in _targets(item.optional_vars)}
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            bound.add(node.name)
        elif isinstance(node, ast.Import | ast.ImportFrom):
            bound |= {(a.asname or a.name).split(".")[0] for a in node.names}
    anywhere = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Load)}
    anywhere |= {a.arg for n in ast.walk(tree) if isinstance(n, ast.arguments)
                 for a in (*n.posonlyargs, *n.args, *n.kwonlyargs, *filter(None, (n.vararg, n.kwarg)))}
    anywhere |= bound
    read = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)} - anywhere
    return bound, read


def check_rendered_once(cells: list[Any]) -> list[str]:
    """What a lesson's rendered-once cells bind that a later cell reads (no student's kernel has it)."""
    problems = []
    bound_by: dict[str, int] = {}
    for index, cell in enumerate(cells):
        if cell.get("cell_type") != "code":
            continue
        try:
            bound, read = _names(ast.parse(cell.get("source", "")))
        except SyntaxError:  # IPython magics and the like: the preflight's run says what is wrong
            continue
        if not is_rendered_once(cell):
            for name in sorted(read & set(bound_by)):
                problems.append(f"cell {index + 1} reads {name!r}, which cell {bound_by[name] + 1} binds, but that "
                                f"cell is {RENDERED_ONCE}: no student's kernel runs it")
            for name in bound:
                bound_by.pop(name, None)  # bound again here: later cells read this one
        else:
            bound_by.update(dict.fromkeys(bound, index))
    return problems


def outputs_of(cells: Iterable[Any]) -> dict[str, list[Any]]:
    """The outputs of a run lesson's rendered-once cells, by cell id."""
    return {cell["id"]: list(cell.get("outputs", [])) for cell in cells if is_rendered_once(cell)}


def keep(folder: Path, key: str, outputs: Mapping[str, list[Any]]) -> Path:
    """Write ``outputs`` (``outputs_of``) under ``key`` in ``folder``, readable by every student's server."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{key}.json"
    part = path.with_suffix(f".{os.getpid()}.part")
    part.write_text(json.dumps(outputs), encoding="utf-8")
    part.chmod(0o644)
    part.replace(path)
    return path


def kept(folder: Path | str | None, key: str) -> dict[str, list[Any]] | None:
    """The outputs kept under ``key`` in ``folder``, or None (not rendered, or unreadable)."""
    if not folder:
        return None
    try:
        found = json.loads((Path(folder) / f"{key}.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return found if isinstance(found, dict) else None


def render(paths: list[Path], settings: Mapping[str, str], folder: Path) -> list[str]:
    """Run each lesson of ``paths`` that has rendered-once cells once under ``settings`` and keep
    those cells' outputs in ``folder`` (a lesson kept already is not run again); the names of the
    lessons rendered."""
    import nbformat

    from .runner import kernel, run_lesson

    def needed(path: Path) -> bool:
        cells = nbformat.read(path, as_version=4).cells
        return any(is_rendered_once(c) for c in cells) and kept(folder, lesson_key(cells, settings)) is None

    todo = [p for p in paths if needed(p)]
    if not todo:
        return []
    done = []
    with kernel() as client:
        for path in todo:
            run = run_lesson(client, path, dict(settings))
            if run.errors:  # the class runs the lesson whole, as without this
                continue
            cells = nbformat.read(path, as_version=4).cells
            keep(folder, lesson_key(cells, settings), outputs_of(run.notebook.cells))
            done.append(path.stem)
    return done


def default_folder() -> Path:
    """Where a laptop's class keeps rendered outputs: the user's cache (kept across classes; an
    edited lesson or other settings are rendered anew)."""
    base = os.environ.get("XDG_CACHE_HOME", "").strip() or str(Path.home() / ".cache")
    return Path(base) / "rummylab" / "outputs"


def settings_of(env: Mapping[str, str]) -> dict[str, str]:
    """The ``SETTINGS`` of an environment (a class server's, whose kernels copy it)."""
    return {k: env[k] for k in SETTINGS if k in env}


def main(argv: list[str] | None = None) -> None:
    """``python -m rummylab.lessons.rendered LESSON... --out DIR``: render the lessons' rendered-once
    cells under this environment's settings (a class server runs it for the lessons not of the day)."""
    import argparse

    ap = argparse.ArgumentParser(prog="python -m rummylab.lessons.rendered", description=__doc__.splitlines()[0])
    ap.add_argument("lessons", nargs="+", type=Path)
    ap.add_argument("--out", type=Path, required=True)
    args = ap.parse_args(argv)
    done = render(args.lessons, settings_of(os.environ), args.out)
    print(f"rummylab: rendered once for the class: {', '.join(done) or 'nothing'}", flush=True)


if __name__ == "__main__":
    main()
