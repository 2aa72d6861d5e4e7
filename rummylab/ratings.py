"""Puzzle ratings: a student's Glicko-2 rating from her puzzle attempts, and the next puzzle at
her level.

Each first attempt at a puzzle is one rating period against the puzzle's rating (Lichess rates
puzzles this way; Glicko-2 by the ``glicko2`` package rather than our own arithmetic). A shipped
puzzle's rating is held fixed with deviation ``PUZZLE_RD``: a class is too small to re-rate
puzzles from, and a student's code cannot move them. A puzzle tried again does not count again.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Protocol, TypeVar

import glicko2
import numpy as np

START = 1500.0
START_RD = 350.0
PUZZLE_RD = 60.0
NEAREST = 5
"""The next puzzle is drawn from this many unsolved ones nearest her rating."""


@dataclass(frozen=True)
class Rating:
    """A rating and its deviation (about two deviations either side hold the true level)."""

    rating: float
    rd: float

    def __str__(self) -> str:
        return f"{self.rating:.0f} ± {2 * self.rd:.0f}"


class Rated(Protocol):
    """Anything with an id and a rating (a puzzle)."""

    @property
    def id(self) -> str: ...

    @property
    def rating(self) -> float: ...


R = TypeVar("R", bound=Rated)


def rate(attempts: Iterable[tuple[str, float, bool]]) -> Rating:
    """The rating after ``attempts`` (puzzle id, puzzle rating, solved), oldest first; only the
    first attempt at each puzzle counts."""
    player = glicko2.Player(rating=START, rd=START_RD)
    seen: set[str] = set()
    for puzzle_id, puzzle_rating, solved in attempts:
        if puzzle_id in seen:
            continue
        seen.add(puzzle_id)
        player.update_player([puzzle_rating], [PUZZLE_RD], [1.0 if solved else 0.0])
    return Rating(float(player.rating), float(player.rd))


def pick(puzzles: Sequence[R], rating: float, tried: Iterable[str], rng: np.random.Generator) -> R:
    """A puzzle she has not tried, among the ``NEAREST`` nearest ``rating`` (all tried: any).
    ValueError when there are none."""
    if not puzzles:
        raise ValueError("there are no puzzles to pick from")
    done = set(tried)
    fresh = [p for p in puzzles if p.id not in done] or list(puzzles)
    near = sorted(fresh, key=lambda p: (abs(p.rating - rating), p.id))[:NEAREST]
    return near[int(rng.integers(len(near)))]
