"""Jupyter widgets for the lessons: HandAnalyzer, KnockScorer, GinTable (ipywidgets; work in Voilà)."""

from .analyzer import HandAnalyzer
from .scorer import KnockScorer, explain
from .table import GinTable
from .thirteen import ThirteenAnalyzer, ThirteenTable

__all__ = ["GinTable", "HandAnalyzer", "KnockScorer", "ThirteenAnalyzer", "ThirteenTable", "explain"]
