"""Gin rummy: hand analysis (melds, deadwood, best discards, big gin)."""

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

__all__ = [
    "GIN_MELDS",
    "KNOCK_LIMIT",
    "DiscardAnalysis",
    "HandAnalysis",
    "analyze",
    "best_discards",
    "deadwood",
    "deadwood_batch",
]
