"""A puzzle trainer's link to the class: each answer to a puzzle is kept as a check of the
exercise ``puzzle-ID`` (graded again by the server on a hub, from the shipped puzzles), and the
student's earlier attempts are read back from the store, so her rating follows her from page to
page."""

from __future__ import annotations

from typing import Any

from .exercises import UNNAMED, Exercise, _who, current_lesson, record
from .kinds import CARDS

PREFIX = "puzzle-"
SKILL = "best discard"


class PuzzleLog:
    """``log(puzzle_id, card, right)`` records an answer; ``log.attempts()`` her earlier ones."""

    def __call__(self, puzzle_id: str, card: str, right: bool) -> str:
        """Keep the answer for the teacher: "" when kept, else a sentence for the student."""
        ex = Exercise(name=PREFIX + puzzle_id, prompt="Which card do you throw?", answer=None, kind=CARDS,
                      explain="", lesson=current_lesson() or UNNAMED, skill=SKILL)
        return record(ex, right, card)

    def attempts(self) -> list[tuple[str, bool]]:
        """(puzzle id, solved) of her earlier answers, oldest first; [] when the store cannot say."""
        from ..progress import default_db
        from ..progress.hub_client import open_store

        who, db = _who(), default_db()
        if not who or db is None:
            return []
        try:
            found: Any = open_store(db).attempts(who, PREFIX)
        except (ValueError, AttributeError):
            return []
        return [(name.removeprefix(PREFIX), bool(right)) for name, right in found]


def puzzle_log() -> PuzzleLog:
    """The callback a ``PuzzleTrainer``'s ``log`` takes in a lesson."""
    return PuzzleLog()
