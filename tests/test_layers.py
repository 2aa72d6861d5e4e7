"""The package's layers import downwards: no import circle, and each layer imports only those below it
(docs/architecture.md draws them). Every import counts, at the top of a module or inside a function,
except those for type checkers only."""

from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

import pytest

pytestmark = pytest.mark.once  # reads the source only: the compiled run has it


PACKAGE = Path(__file__).resolve().parent.parent / "rummylab"

LAYERS = (
    ("cards", "display", "_startup", "i18n"),
    ("kernel",),
    ("play", "chance", "ratings", "screening", "hidden", "decisions"),
    ("sim", "bots"),
    ("gin", "three_thirteen", "indian"),
    ("odds", "questions", "charts", "widgets"),
    ("progress",),
    ("page_template",),
    ("lessons",),
    ("classroom",),
    ("cli", "__main__"),
)
"""Bottom to top: a module may import its own layer's modules and those of the layers below."""


COMPILED = ("_kernel", "_wild", "_play")
"""The compiled modules (rummylab.kernel's searches, rummylab.sim's play loops): no .py to read."""


def modules() -> dict[str, Path]:
    """Every module of the package by dotted name (a package by its own name)."""
    found = {}
    for path in PACKAGE.rglob("*.py"):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        found[name] = path
    return found


def imports(name: str, path: Path, known: dict[str, Path]) -> set[str]:
    """The package's modules that ``name`` imports (compiled modules by their own names)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    typing_only = {id(node) for block in ast.walk(tree) if isinstance(block, ast.If)
                   and "TYPE_CHECKING" in ast.unparse(block.test) for node in ast.walk(block)}
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    out = set()
    for node in ast.walk(tree):
        if id(node) in typing_only:
            continue
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(anchor + ([node.module] if node.module else []))
            targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in known or a.name in COMPILED else base
                       for a in node.names]
        else:
            continue
        for target in targets:
            if target.split(".")[0] == "rummylab" and target != name:
                out.add(target)
    return out


def graph() -> dict[str, set[str]]:
    known = modules()
    return {name: imports(name, path, known) for name, path in known.items()}


def layer_of(module: str) -> int:
    parts = module.split(".")
    top = parts[1] if len(parts) > 1 else ""
    for i, names in enumerate(LAYERS):
        if top in names:
            return i
    raise AssertionError(f"{module}: in no layer of tests/test_layers.py LAYERS (add it where it belongs)")


def test_every_module_is_in_a_layer() -> None:
    for name in modules():
        if name != "rummylab":
            layer_of(name)


def test_imports_point_down() -> None:
    upward = [(m, t) for m, targets in graph().items() if m != "rummylab"
              for t in targets if t != "rummylab" and layer_of(t) > layer_of(m)]
    assert not upward, "imports that point up a layer: " + ", ".join(f"{m} -> {t}" for m, t in upward)


def test_no_import_circle() -> None:
    edges = defaultdict(set)
    for module, targets in graph().items():
        for target in targets:
            # importing a.b.c runs the package a.b first: an edge to a package is to its __init__ only
            edges[module].add(target)
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    circles = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in edges.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            part = []
            while True:
                w = stack.pop()
                part.append(w)
                if w == v:
                    break
            if len(part) > 1:
                circles.append(sorted(part))

    for v in list(edges):
        if v not in index:
            visit(v)
    assert not circles, f"modules that import each other: {circles}"


def test_the_kernel_knows_no_game() -> None:
    games = ("gin", "three_thirteen", "indian", "play", "bots", "sim")
    for module, targets in graph().items():
        if module.startswith("rummylab.kernel"):
            assert not [t for t in targets if t.split(".")[1] in games], (module, targets)


def test_mypy_skips_only_packages_rummylab_never_imports() -> None:
    """pyproject's mypy overrides skip reading a few packages reached only through others; one that
    rummylab imports itself must stay checked."""
    import tomllib

    config = tomllib.loads((PACKAGE.parent / "pyproject.toml").read_text())["tool"]["mypy"]["overrides"]
    skipped = {m.removesuffix(".*") for o in config if o.get("follow_imports") == "skip" for m in o["module"]}
    used = set()
    for path in PACKAGE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                used |= {a.name.split(".")[0] for a in node.names}
            elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                used.add(node.module.split(".")[0])
    assert skipped and not skipped & used, skipped & used


BY_NAME = {"rummylab.play": ("FAMILIES",), "rummylab.cli": ("SIMULATORS",)}
"""The modules that load others by name (importlib), and the mappings that name what they load:
the layer check cannot see such an import, so this test reads those names instead."""
OWN_OR_OUTSIDE = ("rummylab.odds", "rummylab.gin", "rummylab._startup", "rummylab.questions")
"""Loads by name that stay inside: odds and gin load their own submodules when first asked (a lean
import: gin's ``evaluate`` and ``review`` bring the play engine), _startup a module of jsonschema's,
questions polars (when first used: a lesson's kernel may ask a numpy-only question)."""


def test_what_is_loaded_by_name_is_named_and_declared() -> None:
    """Every ``importlib.import_module`` in the package loads a module named in a mapping of
    ``BY_NAME`` (or one of ``OWN_OR_OUTSIDE``'s), and each module so
    named exists and stands in the layer the mapping's owner may reach at run time: play's
    ``FAMILIES`` (``play.replay`` of any family's history) names each family's game module, a layer
    above play, loaded by name on purpose so that play imports no family; the CLI's ``SIMULATORS``
    names each family's simulation module, below the CLI."""
    import importlib
    import re

    known = modules()
    for name, path in known.items():
        text = path.read_text(encoding="utf-8")
        if re.search(r"\bimport_module\(|__import__\(", text):
            assert name in BY_NAME or name in OWN_OR_OUTSIDE, \
                f"{name} loads a module by name: declare the mapping it loads from in BY_NAME"
    for owner, mappings in BY_NAME.items():
        module = importlib.import_module(owner)
        for mapping in mappings:
            for target in getattr(module, mapping).values():
                assert target in known, f"{owner}.{mapping} names {target}, which is not a module of rummylab"
                if owner == "rummylab.play":
                    assert layer_of(target) == layer_of("rummylab.gin.game"), (owner, target)
                else:
                    assert layer_of(target) <= layer_of(owner), (owner, target)
