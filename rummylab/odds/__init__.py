"""Odds: exact enumeration, Monte Carlo with standard errors, draw odds; in process or on Dask."""

from .draws import DrawOdds, draw_odds
from .exact import exact_gin, exact_histogram, summary
from .montecarlo import gin_dealt, gin_dealt_histogram, gin_turns, indian_dealt, three_thirteen_dealt
from .pure_sequence import p_pure_sequence

__all__ = [
    "DrawOdds",
    "draw_odds",
    "exact_gin",
    "exact_histogram",
    "gin_dealt",
    "gin_dealt_histogram",
    "gin_turns",
    "summary",
    "indian_dealt",
    "p_pure_sequence",
    "three_thirteen_dealt",
]
