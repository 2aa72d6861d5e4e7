"""Odds: exact enumeration, Monte Carlo with standard errors, draw odds; in process or on Dask.

The submodules load when a name of theirs is first used (PEP 562): the draw odds a lesson's
HandAnalyzer shows need neither polars nor the exact tables, and a class kernel is 20 MB smaller
without them. (lazy_loader does the same for large packages; for eleven names a dict will do.)"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .draws import DrawOdds, draw_odds
    from .exact import exact_gin, exact_histogram, summary
    from .montecarlo import gin_dealt, gin_dealt_histogram, gin_turns, indian_dealt, three_thirteen_dealt
    from .pure_sequence import p_pure_sequence

_WHERE = {
    "DrawOdds": "draws", "draw_odds": "draws",
    "exact_gin": "exact", "exact_histogram": "exact", "summary": "exact",
    "gin_dealt": "montecarlo", "gin_dealt_histogram": "montecarlo", "gin_turns": "montecarlo",
    "indian_dealt": "montecarlo", "three_thirteen_dealt": "montecarlo",
    "p_pure_sequence": "pure_sequence",
}

__all__ = ["DrawOdds", "draw_odds", "exact_gin", "exact_histogram", "gin_dealt", "gin_dealt_histogram", "gin_turns",
           "indian_dealt", "p_pure_sequence", "summary", "three_thirteen_dealt"]


def __getattr__(name: str) -> Any:
    if name not in _WHERE:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(f".{_WHERE[name]}", __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *_WHERE])
