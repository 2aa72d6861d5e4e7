"""Skills and mastery: a skill is mastered after ``STREAK`` right answers in a row, each to a
question she had not answered right before (another variant, or another exercise of the skill).

A wrong answer starts the count again; a right answer to a variant she had already answered right
(the same hand again) neither counts nor breaks it; free responses are not answers. Once mastered,
a skill stays mastered: the gradebook also shows the streak now. The rule is stated here once and
read by the landing page, the teacher's gradebook and the export.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

STREAK = 3
"""Right answers in a row, on fresh questions, that master a skill."""


@dataclass(frozen=True, kw_only=True)
class SkillState:
    """Where one student stands on one skill."""

    skill: str
    streak: int
    """Right answers in a row now, on fresh questions."""
    best: int
    """The longest such run so far."""
    right: int
    tried: int

    @property
    def mastered(self) -> bool:
        return self.best >= STREAK

    def __str__(self) -> str:
        if self.mastered:
            return f"{self.skill}: mastered"
        return f"{self.skill}: {self.streak} of {STREAK} in a row"


Check = tuple[str, str, str, "int | None", bool]
"""(skill, lesson, exercise, variant, right) of one graded check, in time order."""


def skill_states(checks: Iterable[Check]) -> dict[str, SkillState]:
    """Each skill's state from one student's graded checks, oldest first."""
    streak: dict[str, int] = {}
    best: dict[str, int] = {}
    right: dict[str, int] = {}
    tried: dict[str, int] = {}
    answered: set[tuple[str, str, int | None]] = set()
    for skill, lesson, exercise, variant, is_right in checks:
        tried[skill] = tried.get(skill, 0) + 1
        question = (lesson, exercise, variant)
        if not is_right:
            streak[skill] = 0
        elif question not in answered:
            answered.add(question)
            right[skill] = right.get(skill, 0) + 1
            streak[skill] = streak.get(skill, 0) + 1
            best[skill] = max(best.get(skill, 0), streak[skill])
    return {s: SkillState(skill=s, streak=streak.get(s, 0), best=best.get(s, 0), right=right.get(s, 0), tried=n)
            for s, n in sorted(tried.items())}
