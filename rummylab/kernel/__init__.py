"""The search kernels behind rummylab: compiled (Cython, ``_kernel`` and ``_wild``) or their
pure-Python twins (``_kernel_py``, ``_wild_py``), and the one selector between them.

``BACKEND`` is ``"cython"`` or ``"python"``. ``RUMMYLAB_PURE_PYTHON=1`` forces the twins;
``RUMMYLAB_REQUIRE_COMPILED=1`` makes a missing build an ImportError instead of a warning.
``meld_kernel`` (one deck, no wild cards) and ``wild_kernel`` (wild cards, up to three
decks) take meld options, never a game: a game's ``Rules`` says what it needs of the wild-card
search with ``kernel_options()``. (Imported as ``rummylab.backend`` too, its older name.)
"""

from __future__ import annotations

import functools
import os
import warnings
from dataclasses import dataclass
from types import ModuleType
from typing import TYPE_CHECKING, Protocol

from . import _kernel_py, _wild_py

if TYPE_CHECKING:
    from ._kernel_py import MeldKernel
    from ._wild_py import WildKernel
    from .melds import MeldRules

BUILD_HINT = ("run `make lab` (or `pip install -e .` in the project folder) to build it; "
              "gcc and the Python headers are needed")

IMPOSSIBLE = _wild_py.IMPOSSIBLE
"""What the wild-card search returns when no arrangement meets the runs required (1 << 29)."""


class CompiledKernelMissing(RuntimeWarning):
    """The compiled kernel did not load: rummylab runs on its (slower) Python twin."""


def _truthy(name: str) -> bool:
    return os.environ.get(name, "").strip().lower() not in ("", "0", "false", "no")


def compiled_modules() -> tuple[ModuleType, ModuleType] | None:
    """The compiled (meld, wild) kernel modules, or None when they are not built."""
    try:
        from . import _kernel, _wild  # type: ignore[attr-defined]
    except ImportError:
        return None
    return _kernel, _wild


def compiled_module() -> ModuleType | None:
    """The compiled meld kernel module, or None when it is not built."""
    built = compiled_modules()
    return built[0] if built else None


def _select() -> str:
    if _truthy("RUMMYLAB_PURE_PYTHON"):
        return "python"
    try:
        from . import _kernel, _wild  # type: ignore[attr-defined]  # noqa: F401
    except ImportError as exc:
        if _truthy("RUMMYLAB_REQUIRE_COMPILED"):
            raise ImportError(f"rummylab's compiled kernel is missing ({exc}); {BUILD_HINT}") from exc
        warnings.warn(f"rummylab's compiled kernel is missing, using the slow Python twin; {BUILD_HINT}",
                      CompiledKernelMissing, stacklevel=3)
        return "python"
    return "cython"


BACKEND = _select()


def _modules(backend: str | None) -> tuple[ModuleType, ModuleType]:
    name = backend or BACKEND
    if name == "python":
        return _kernel_py, _wild_py
    if name == "cython":
        built = compiled_modules()
        if built is None:
            raise ValueError(f"the compiled kernel is not built; {BUILD_HINT}")
        return built
    raise ValueError(f"backend {backend!r}: 'cython' or 'python'")


def meld_module(backend: str | None = None) -> ModuleType:
    """The meld kernel module of a backend ("cython", "python", or None: the selected one)."""
    return _modules(backend)[0]


def wild_module(backend: str | None = None) -> ModuleType:
    """The wild-card kernel module of a backend ("cython", "python", or None: the selected one)."""
    return _modules(backend)[1]


def meld_kernel(rules: MeldRules, backend: str | None = None) -> MeldKernel:
    """The one-deck meld search for these meld rules."""
    return _meld_kernel(rules.points, rules.ace_high, rules.min_run, rules.set_min, rules.set_max, backend or BACKEND)


@functools.lru_cache(maxsize=64)
def _meld_kernel(points: tuple[int, ...], ace_high: bool, min_run: int, set_min: int, set_max: int,
                 backend: str) -> MeldKernel:
    kernel: MeldKernel = meld_module(backend).MeldKernel(points, ace_high, min_run, set_min, set_max)
    return kernel


@dataclass(frozen=True, kw_only=True)
class WildOptions:
    """What the wild-card search is told: card values and what a meld may be."""

    points: tuple[int, ...]
    """Ace to king: what a card left over costs."""
    ace_high: bool = False
    max_wilds: int | None = None
    """Wild cards one meld may hold (None: any)."""
    min_non_wild: int = 0
    """Natural cards a meld needs."""
    identical_in_set: bool = True
    """A set may hold two copies of one card."""
    set_max: int | None = None
    min_runs: int = 0
    """Runs the hand needs before its other cards count as melded."""
    min_pure_runs: int = 0
    """Of those, runs without wild cards standing in."""
    wild_natural_in_pure: bool = True
    """A wild card in its own place keeps a run pure."""
    min_life_length: int = 3
    """Cards a required run needs."""
    run_max: int | None = None
    """The longest run (None: 13)."""
    wild_as_self: bool = True
    """A card of the wild rank may stand for itself (a natural card); else it is always wild."""


class KernelRules(Protocol):
    """A game's rules that use the wild-card search (Three Thirteen's, Indian rummy's): frozen."""

    def __hash__(self) -> int: ...

    def kernel_options(self, *, every_card_one: bool = False) -> WildOptions: ...


def wild_options(rules: KernelRules, *, every_card_one: bool = False) -> WildOptions:
    """The search options of a game's ``Rules`` (``every_card_one``: each card costs 1, so a
    penalty of 0 means every card is grouped)."""
    options = getattr(rules, "kernel_options", None)
    if options is None:
        raise ValueError(f"no wild-card search for {type(rules).__name__}: Three Thirteen or Indian rummy rules")
    found: WildOptions = options(every_card_one=every_card_one)
    return found


def wild_kernel(options: WildOptions | KernelRules, backend: str | None = None, *,
                every_card_one: bool = False) -> WildKernel:
    """The wild-card search for ``WildOptions`` or a game's ``Rules`` (``every_card_one``: see
    ``wild_options``)."""
    return _kernel_of(options, backend or BACKEND, every_card_one)


@functools.lru_cache(maxsize=256)
def _kernel_of(options: WildOptions | KernelRules, backend: str, every_card_one: bool) -> WildKernel:
    if not isinstance(options, WildOptions):
        options = wild_options(options, every_card_one=every_card_one)
    return _wild_kernel(options, backend)


@functools.lru_cache(maxsize=64)
def _wild_kernel(o: WildOptions, backend: str) -> WildKernel:
    kernel: WildKernel = wild_module(backend).WildKernel(
        o.points, ace_high=o.ace_high, max_wilds=o.max_wilds, min_non_wild=o.min_non_wild,
        identical_in_set=o.identical_in_set, set_max=o.set_max, min_runs=o.min_runs, min_pure_runs=o.min_pure_runs,
        wild_natural_in_pure=o.wild_natural_in_pure, min_life_length=o.min_life_length, wild_as_self=o.wild_as_self,
        run_max=o.run_max)
    return kernel
