"""Jupyter widgets for the lessons (ipywidgets; they work in Voilà)."""

from .analyzer import HandAnalyzer
from .indian import GroupingBoard, IndianTable
from .scorer import KnockScorer, explain
from .table import GinTable
from .thirteen import ThirteenAnalyzer, ThirteenTable

__all__ = ["GinTable", "GroupingBoard", "HandAnalyzer", "IndianTable", "KnockScorer", "PuzzleTrainer",
           "ThirteenAnalyzer", "ThirteenTable", "explain"]


def __getattr__(name: str) -> object:
    """``PuzzleTrainer`` loads when first named: it brings the evaluation engine, which lessons
    without puzzles need not hold in their kernels."""
    if name == "PuzzleTrainer":
        from .puzzle import PuzzleTrainer

        return PuzzleTrainer
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
