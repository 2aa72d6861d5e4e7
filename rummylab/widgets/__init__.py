"""Jupyter widgets for the lessons (ipywidgets; they work in Voilà)."""

from .analyzer import HandAnalyzer
from .indian import GroupingBoard, IndianTable
from .scorer import KnockScorer, explain
from .table import GinTable
from .thirteen import ThirteenAnalyzer, ThirteenTable

__all__ = ["GinTable", "GroupingBoard", "HandAnalyzer", "IndianTable", "KnockScorer", "ThirteenAnalyzer",
           "ThirteenTable", "explain"]
