"""Gin rummy: hand analysis, rules, knock scoring."""

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
from .rules import CLASSIC, DEFAULT, THREE_HANDED, TOURNAMENT, Rules
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
    "THREE_HANDED",
    "TOURNAMENT",
    "Rules",
    "KnockResult",
    "layoff_options",
    "least_deadwood_arrangements",
    "score_knock",
]
