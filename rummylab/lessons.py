"""Lesson exercises with self-checks: ``check("exercise", answer)`` says right or wrong, and why."""

from __future__ import annotations

import html
import os
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from . import gin, three_handed
from .cards import parse_cards


def sample_size(default: int) -> int:
    """Monte Carlo sample size for lessons: ``RUMMYLAB_N`` if set (small in CI, big in class)."""
    return int(os.environ.get("RUMMYLAB_N", default))


def seed(default: int = 2026) -> int:
    """Seed for lessons: ``RUMMYLAB_SEED`` if set."""
    return int(os.environ.get("RUMMYLAB_SEED", default))


@dataclass(frozen=True, repr=False)
class Feedback:
    """The verdict on an answer."""

    right: bool
    why: str

    def __bool__(self) -> bool:
        return self.right

    def __str__(self) -> str:
        return ("✔ Right. " if self.right else "✘ Not quite. ") + self.why

    __repr__ = __str__

    def _repr_html_(self) -> str:
        colour = "#1b5e20" if self.right else "#b71c1c"
        return f"<div class='rl-feedback' style='color:{colour}'>{html.escape(str(self))}</div>"


@dataclass(frozen=True)
class Exercise:
    prompt: str
    answer: Callable[[], Any]
    explain: Callable[[], str]
    normalise: Callable[[Any], Any] = lambda x: x


def _cards_set(x: Any) -> frozenset[str]:
    return frozenset(str(c) for c in parse_cards(x, jokers=0))


HAND_02 = "AS 2S 3S 7H 7D 7C 9C TC JC KD"
HAND_02B = "3H 4H 5H 6H 7H 8H 9H 6S 6D KC"
KNOCK_03 = ("AS 2S 3S 7H 7D 7C 9C TC JC 4D", "4S 5S 8C KS QH JD 8S 6H 2C 9H")
UNDERCUT_04 = ("AS 2S 3S 7H 7D 7C 9C TC JC 4D", "5S 6S 7S QH QD QS 2H 3H 4H AD")
DISCARD_06 = "AS 2S 3S 7H 7D 7C 9C TC JC KD QH"
NO_LIFE_09 = "AS 2S 3S 5H 9H 8C 9D 9C 9S 2D 4C 6H KD"

EXERCISES: dict[str, Exercise] = {
    "deck_size": Exercise(
        "How many cards does a gin deck have?", lambda: 52,
        lambda: "One standard deck: 4 suits × 13 ranks = 52 cards, no jokers.", int),
    "stock_after_deal": Exercise(
        "After the deal of two-handed gin, how many cards are in the stock?",
        lambda: 31, lambda: "52 cards − 10 − 10 dealt − 1 upcard = 31.", int),
    "deadwood": Exercise(
        f"What is the deadwood of {HAND_02}?",
        lambda: gin.deadwood(HAND_02),
        lambda: "Melds " + ", ".join(str(m) for m in gin.analyze(HAND_02).melds) + "; KD alone counts 10.", int),
    "deadwood_split_run": Exercise(
        f"What is the least deadwood of {HAND_02B}? (Hint: a run can be cut.)",
        lambda: gin.deadwood(HAND_02B),
        lambda: "Cut the 7-card run around 6H: " + ", ".join(str(m) for m in gin.analyze(HAND_02B).melds)
        + "; only KC is left.", int),
    "knock_points": Exercise(
        f"The knocker holds {KNOCK_03[0]}, the defender {KNOCK_03[1]}. How many points does the knocker score?",
        lambda: gin.score_knock(*KNOCK_03).knocker_points,
        lambda: " ".join(_explain(gin.score_knock(*KNOCK_03))), int),
    "undercut": Exercise(
        f"The knocker holds {UNDERCUT_04[0]}, the defender {UNDERCUT_04[1]}. Who scores, and how much? "
        "Answer like ('defender', 28).",
        lambda: ("defender", gin.score_knock(*UNDERCUT_04).defender_points),
        lambda: " ".join(_explain(gin.score_knock(*UNDERCUT_04))),
        lambda x: (str(x[0]).lower(), int(x[1]))),
    "next_roles": Exercise(
        "P1 is in the box, P2 captain, P3 sits out. The box loses. Who is in the box next?",
        lambda: three_handed.next_roles(three_handed.Roles(box="P1", captain="P2", sitting_out="P3"),
                                        "box_lost").box,
        lambda: "A losing box sits out; the captain moves into the box and the sitter becomes captain.",
        lambda x: str(x).strip().upper()),
    "best_discard": Exercise(
        f"Holding {DISCARD_06} after the draw, which discards leave the least deadwood?",
        lambda: _cards_set(gin.best_discards(DISCARD_06).discards),
        lambda: f"Discarding KD or QH leaves deadwood {gin.best_discards(DISCARD_06).deadwood}; both are optimal.",
        _cards_set),
    "wild_rank_round_8": Exercise(
        "In round 8 of Three Thirteen, which rank is wild?",
        lambda: "T", lambda: "Round r deals r + 2 cards and that rank is wild: round 8 deals 10 cards, so tens.",
        lambda x: "T" if str(x).strip().upper() in ("T", "10") else str(x).strip().upper()),
    "thirteen_penalty": Exercise(
        "Round 3 (fives wild): what is the least penalty of 5H 7S 9S KD 2C?",
        lambda: _thirteen().penalty,
        lambda: "The wild 5H fills the gap in 7S _ 9S (as 8S); KD and 2C are left: 10 + 2 = 12.", int),
    "pure_or_not": Exercise(
        "Sevens are wild. Is 5H 6H 7H a pure sequence, an impure one, a set, or not a group?",
        lambda: "pure",
        lambda: "The 7H is in its own place, right after 6H: no joker stands in for a missing card, so it is pure.",
        lambda x: str(x).strip().lower().replace(" sequence", "")),
    "loser_points_no_life": Exercise(
        f"Sevens are wild. How many points does {NO_LIFE_09} lose when another player declares?",
        lambda: _indian_points(NO_LIFE_09),
        lambda: "It holds a pure sequence (AS 2S 3S) but no second sequence, so every card counts: "
        "86 points, capped at 80.", int),
    "gin_outs": Exercise(
        f"Holding {HAND_02}, how many of the unseen cards make gin on the next draw?",
        lambda: len(_draws().gin_cards),
        lambda: "The gin outs are " + " ".join(str(c) for c in sorted(_draws().gin_cards))
        + ": each completes or extends a meld so that KD can be discarded.", int),
}


def _indian_points(hand: str) -> int:
    from .indian import loser_points
    return loser_points(hand, "7").points


def _thirteen() -> Any:
    from .three_thirteen import analyze
    return analyze("5H 7S 9S KD 2C", 3)


def _draws() -> Any:
    from .odds import draw_odds
    return draw_odds(HAND_02)


def _explain(result: gin.KnockResult) -> list[str]:
    from .widgets.scorer import explain
    return explain(result, gin.DEFAULT)


def prompt(exercise: str) -> str:
    """The question of an exercise."""
    return _get(exercise).prompt


def _get(exercise: str) -> Exercise:
    if exercise not in EXERCISES:
        raise ValueError(f"unknown exercise {exercise!r}: one of {', '.join(EXERCISES)}")
    return EXERCISES[exercise]


def check(exercise: str, answer: Any) -> Feedback:
    """Is ``answer`` right for this exercise? The feedback says why."""
    ex = _get(exercise)
    try:
        given = ex.normalise(answer)
    except (ValueError, TypeError, IndexError) as exc:
        return Feedback(False, f"I could not read that answer ({exc}). {ex.prompt}")
    right = given == ex.normalise(ex.answer())
    return Feedback(right, ex.explain())
