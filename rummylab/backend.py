"""The search kernels behind rummylab: compiled (Cython) or their pure-Python twins.

``BACKEND`` is ``"cython"`` or ``"python"``. ``RUMMYLAB_PURE_PYTHON=1`` forces the twins;
``RUMMYLAB_REQUIRE_COMPILED=1`` makes a missing build an ImportError instead of a warning.
``meld_kernel`` (one deck, no wild cards) and ``wild_kernel`` (wild cards, up to three
decks) are the one place where a game's rules become kernel arguments.
"""

from __future__ import annotations

import functools
import os
import warnings
from dataclasses import dataclass
from types import ModuleType
from typing import TYPE_CHECKING, Any

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


def play_loops() -> ModuleType | None:
    """The compiled play loops (``rummylab._play``) under the compiled backend, else None: the
    Python engine plays (the same games, slower)."""
    if BACKEND != "cython":
        return None
    try:
        from . import _play  # type: ignore[attr-defined]
    except ImportError:
        return None
    return _play


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


def wild_options(rules: Any, *, every_card_one: bool = False) -> WildOptions:
    """The search options of a Three Thirteen or Indian rummy ``Rules`` (``every_card_one``:
    each card costs 1, so a penalty of 0 means every card is grouped)."""
    from .indian.rules import Rules as IndianRules
    from .three_thirteen.rules import Rules as ThirteenRules

    if isinstance(rules, ThirteenRules):
        # "a meld needs a non-wild card": a card of the wild rank is wild, even among its own rank
        return WildOptions(points=(1,) * 13 if every_card_one else rules.points, ace_high=rules.ace_high,
                           max_wilds=rules.max_wilds_per_meld, min_non_wild=rules.min_non_wild,
                           wild_as_self=rules.min_non_wild == 0)
    if isinstance(rules, IndianRules):
        return WildOptions(points=(1,) * 13 if every_card_one else rules.points, ace_high=rules.ace_high,
                           max_wilds=rules.max_jokers_per_group, min_non_wild=0 if rules.jokers_only_group else 1,
                           identical_in_set=rules.set_allow_duplicate_suits, set_max=rules.set_max_size,
                           min_runs=2, min_pure_runs=1, wild_natural_in_pure=rules.wild_natural_in_pure,
                           min_life_length=rules.min_life_length, run_max=rules.sequence_max_size)
    raise ValueError(f"no wild-card search for {type(rules).__name__}: Three Thirteen or Indian rummy rules")


def wild_kernel(options: WildOptions | Any, backend: str | None = None, *, every_card_one: bool = False) -> WildKernel:
    """The wild-card search for ``WildOptions`` or a game's ``Rules`` (``every_card_one``: see
    ``wild_options``)."""
    return _kernel_of(options, backend or BACKEND, every_card_one)


@functools.lru_cache(maxsize=256)
def _kernel_of(options: WildOptions | Any, backend: str, every_card_one: bool) -> WildKernel:
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
