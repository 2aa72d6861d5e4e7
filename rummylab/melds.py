"""Melds, meld rules and the kernel selector (compiled kernel or its Python twin).

``RUMMYLAB_PURE_PYTHON=1`` forces the twin; ``RUMMYLAB_REQUIRE_COMPILED=1`` makes a
missing compiled kernel an ImportError instead of a warning.
"""

from __future__ import annotations

import functools
import os
import warnings
from dataclasses import dataclass
from types import ModuleType
from typing import Literal

from . import _kernel_py
from .cards import RANK_MASK, Card, cards_str, mask_cards

BUILD_HINT = ("run `make lab` (or `pip install -e .` in the project folder) to build it; "
              "gcc and the Python headers are needed")


class CompiledKernelMissing(RuntimeWarning):
    """The compiled kernel did not load: rummylab runs on its (slower) Python twin."""


def _truthy(name: str) -> bool:
    return os.environ.get(name, "").strip().lower() not in ("", "0", "false", "no")


def _select() -> tuple[str, ModuleType]:
    if _truthy("RUMMYLAB_PURE_PYTHON"):
        return "python", _kernel_py
    try:
        from . import _kernel  # type: ignore[attr-defined]
    except ImportError as exc:
        if _truthy("RUMMYLAB_REQUIRE_COMPILED"):
            raise ImportError(f"rummylab's compiled kernel is missing ({exc}); {BUILD_HINT}") from exc
        warnings.warn(f"rummylab's compiled kernel is missing, using the slow Python twin; {BUILD_HINT}",
                      CompiledKernelMissing, stacklevel=3)
        return "python", _kernel_py
    return "cython", _kernel


BACKEND, _backend = _select()


def compiled_module() -> ModuleType | None:
    """The compiled kernel module, or None when it is not built."""
    try:
        from . import _kernel  # type: ignore[attr-defined]
    except ImportError:
        return None
    return _kernel  # type: ignore[no-any-return]


def wild_module(backend: str | None = None) -> ModuleType:
    """The wild-card kernel module of a backend ("cython", "python", or the selected one)."""
    if (backend or BACKEND) == "python":
        from . import _wild_py
        return _wild_py
    try:
        from . import _wild  # type: ignore[attr-defined]
    except ImportError as exc:
        if backend == "cython":
            raise ValueError("the compiled wild-card kernel is not built") from exc
        from . import _wild_py
        return _wild_py
    return _wild  # type: ignore[no-any-return]


GIN_POINTS = (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10)
"""Deadwood values ace to king: A = 1, 2-10 face value, J/Q/K = 10."""


@dataclass(frozen=True, kw_only=True)
class MeldRules:
    """What counts as a meld and what an unmelded card costs (one deck, no wilds)."""

    points: tuple[int, ...] = GIN_POINTS
    ace_high: bool = False
    min_run: int = 3
    set_min: int = 3
    set_max: int = 4

    def kernel(self, backend: str | None = None) -> _kernel_py.MeldKernel:
        """The search kernel for these rules ("cython", "python", or the selected one)."""
        return _kernel_for(self, backend or BACKEND)


@functools.lru_cache(maxsize=64)
def _kernel_for(rules: MeldRules, backend: str) -> _kernel_py.MeldKernel:
    module = {"python": _kernel_py, "cython": compiled_module()}.get(backend)
    if module is None:
        raise ValueError(f"backend {backend!r} is not available (built: {compiled_module() is not None})")
    kernel: _kernel_py.MeldKernel = module.MeldKernel(rules.points, rules.ace_high, rules.min_run,
                                                      rules.set_min, rules.set_max)
    return kernel


@dataclass(frozen=True)
class Meld:
    """A set or a run; ``str(meld)`` lists its cards, e.g. ``"7H 7D 7C"``."""

    kind: Literal["set", "run"]
    cards: tuple[Card, ...]

    def __str__(self) -> str:
        return cards_str(self.cards)

    @property
    def mask(self) -> int:
        m = 0
        for c in self.cards:
            m |= c.bit
        return m


def _suit_cards(suit: int, ranks: list[int]) -> tuple[Card, ...]:
    return tuple(Card(r % 13, suit) for r in ranks)


def _runs_on_line(line: int, nbits: int, min_run: int, offset: int) -> list[list[int]]:
    """Each block of at least min_run adjacent bits of a line, as ranks."""
    runs: list[list[int]] = []
    i = 0
    while i < nbits:
        if line >> i & 1:
            j = i
            while j < nbits and line >> j & 1:
                j += 1
            if j - i >= min_run:
                runs.append([k + offset for k in range(i, j)])
            i = j
        else:
            i += 1
    return runs


def suit_runs(suit: int, suit_mask: int, rules: MeldRules) -> list[Meld]:
    """The runs of one suit's cards in a run-only arrangement of least deadwood."""
    runs = _runs_on_line(suit_mask, 13, rules.min_run, 0)
    if rules.ace_high and suit_mask & 1:
        kernel = rules.kernel()
        high_runs = _runs_on_line(suit_mask >> 1 | 1 << 12, 13, rules.min_run, 1)
        low_dw = sum(rules.points[r] for r in range(13)
                     if suit_mask >> r & 1 and not any(r in run for run in runs))
        if low_dw > kernel.suit_deadwood(suit_mask):
            runs = high_runs
    return [Meld("run", _suit_cards(suit, run)) for run in runs]


def melds_of(mask: int, set_cards: int, rules: MeldRules) -> list[Meld]:
    """The melds of an arrangement: sets from ``set_cards``, runs from the rest."""
    by_rank: dict[int, list[Card]] = {}
    for c in mask_cards(set_cards):
        by_rank.setdefault(c.rank, []).append(c)
    melds = [Meld("set", tuple(cards)) for _, cards in sorted(by_rank.items())]
    rest = mask & ~set_cards
    for s in range(4):
        melds.extend(suit_runs(s, rest >> (16 * s) & RANK_MASK, rules))
    return melds
