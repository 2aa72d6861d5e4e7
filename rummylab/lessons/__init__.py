"""Lessons: exercises defined in the notebook that asks them, checks that understand cards and
hands, the widgets a student answers with, the teacher's key and the preflight of a folder.

``exercise(name, prompt, answer=…)`` defines an exercise; ``check(name, answer)`` says right or
wrong, and why. See docs/authoring.md.
"""

from __future__ import annotations

import os

from .boxes import answer_box, from_text, name_box, respond, review_log
from .exercises import (
    EXERCISES,
    Exercise,
    Feedback,
    another,
    check,
    current_lesson,
    exercise,
    hint,
    in_app,
    prompt,
    say,
    set_student,
    student,
    words,
)
from .kinds import KINDS
from .puzzle_log import puzzle_log
from .variants import VARIANTS

__all__ = ["EXERCISES", "KINDS", "VARIANTS", "Exercise", "Feedback", "another", "answer_box", "check",
           "current_lesson", "exercise", "from_text", "hint", "in_app", "name_box", "prompt", "puzzle_log", "respond",
           "review_log", "sample_size", "say", "seed", "set_student", "student", "words"]


def sample_size(default: int) -> int:
    """Monte Carlo sample size for lessons: ``RUMMYLAB_N`` if set (small in CI, big in class)."""
    return int(os.environ.get("RUMMYLAB_N", default))


def seed(default: int = 2026) -> int:
    """Seed for lessons: ``RUMMYLAB_SEED`` if set."""
    return int(os.environ.get("RUMMYLAB_SEED", default))
