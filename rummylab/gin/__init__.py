"""Gin rummy: hand analysis, rules, knock scoring; decisions judged (``evaluate``, ``review``, loaded when
first used: a lesson that does not judge decisions does not load the play engine)."""

from importlib import import_module
from typing import Any

from .analysis import (
    GIN_MELDS,
    KNOCK_LIMIT,
    DiscardAnalysis,
    HandAnalysis,
    analyze,
    best_discards,
    deadwood,
    deadwood_batch,
)
from .rules import CLASSIC, DEFAULT, EAAI, THREE_HANDED, TOURNAMENT, Rules
from .scoring import KnockResult, layoff_options, least_deadwood_arrangements, score_knock

__all__ = [
    "GIN_MELDS",
    "KNOCK_LIMIT",
    "DiscardAnalysis",
    "HandAnalysis",
    "analyze",
    "best_discards",
    "deadwood",
    "deadwood_batch",
    "CLASSIC",
    "DEFAULT",
    "EAAI",
    "THREE_HANDED",
    "TOURNAMENT",
    "Rules",
    "KnockResult",
    "layoff_options",
    "least_deadwood_arrangements",
    "score_knock",
    "evaluate",
    "Evaluation",
    "OptionValue",
    "review",
    "Review",
    "review_frame",
]

_LATER = {"evaluate": "evaluation", "Evaluation": "evaluation", "OptionValue": "evaluation", "review": "game_review",
          "Review": "game_review", "review_frame": "reviews"}
"""Names loaded when first used, and their modules."""


SUBMODULES = ("bots", "game", "three_handed", "equity", "puzzles")
"""Submodules loaded when first named (``gin.bots.simulate(...)`` after ``from rummylab import gin``)."""


def __getattr__(name: str) -> Any:
    if name in SUBMODULES:
        return import_module(f".{name}", __name__)
    if name not in _LATER:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(f".{_LATER[name]}", __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_LATER, *SUBMODULES})
