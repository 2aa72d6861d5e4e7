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
    """The verdict on an answer: right, wrong (with why), or None while no answer is written.
    Shown in a notebook or a Voilà app, a blank one comes with a box to type the answer in."""

    right: bool | None
    why: str
    exercise: str = ""

    def __bool__(self) -> bool:
        return bool(self.right)

    def __str__(self) -> str:
        mark = {True: "✔ Right. ", False: "✘ Not quite. ", None: "✎ "}[self.right]
        return mark + self.why

    __repr__ = __str__

    def _repr_html_(self) -> str:
        colour = {True: "#1b5e20", False: "#b71c1c", None: "#37474f"}[self.right]
        return f"<div class='rl-feedback' style='color:{colour}'>{html.escape(str(self))}</div>"

    def _ipython_display_(self) -> None:
        from IPython.display import display

        display({"text/plain": str(self), "text/html": self._repr_html_()}, raw=True)
        if self.right is None and self.exercise:
            display(answer_box(self.exercise, with_prompt=False))


@dataclass(frozen=True)
class Exercise:
    """A question, its answer (computed by the package) and why; a hint; common wrong answers."""

    prompt: str
    answer: Callable[[], Any]
    explain: Callable[[], str]
    normalise: Callable[[Any], Any] = lambda x: x
    hint: str = ""
    mistakes: Callable[[], dict[Any, str]] = dict
    """Normalised wrong answers that many give, each with what went wrong."""
    lesson: str = ""
    """The notebook that asks it."""


def _cards_set(x: Any) -> frozenset[str]:
    return frozenset(str(c) for c in parse_cards(x, jokers=0))


HAND_02 = "AS 2S 3S 7H 7D 7C 9C TC JC KD"
HAND_02B = "3H 4H 5H 6H 7H 8H 9H 6S 6D KC"
CORNER_02 = "KH AH 2H 5C 5D 5S 9C TC JC 7D"
KNOCK_03 = ("AS 2S 3S 7H 7D 7C 9C TC JC 4D", "4S 5S 8C KS QH JD 8S 6H 2C 9H")
UNDERCUT_04 = ("AS 2S 3S 7H 7D 7C 9C TC JC 4D", "5S 6S 7S QH QD QS 2H 3H 4H AD")
DISCARD_06 = "AS 2S 3S 7H 7D 7C 9C TC JC KD QH"
NO_LIFE_09 = "AS 2S 3S 5H 9H 8C 9D 9C 9S 2D 4C 6H KD"

EXERCISES: dict[str, Exercise] = {
    "deck_size": Exercise(
        "How many cards does a gin deck have?", lambda: 52,
        lambda: "One standard deck: 4 suits × 13 ranks = 52 cards, no jokers.", int,
        hint="Four suits, thirteen ranks; does gin use jokers?",
        mistakes=lambda: {
            54: "Gin is played without jokers: the 52 cards of one standard deck."},
        lesson="00-start-here"),
    "stock_after_deal": Exercise(
        "After the deal of two-handed gin, how many cards are in the stock?",
        lambda: 31, lambda: "52 cards − 10 − 10 dealt − 1 upcard = 31.", int,
        hint="Count what leaves the deck: two hands of ten, and one more card.",
        mistakes=lambda: {
            32: "The upcard is turned face up from the stock too: 52 - 20 - 1 = 31.",
            42: "Each player gets ten cards, not five: 52 - 10 - 10 - 1 = 31."},
        lesson="01-dealing-and-the-upcard"),
    "deadwood": Exercise(
        f"What is the deadwood of {HAND_02}?",
        lambda: gin.deadwood(HAND_02),
        lambda: "Melds " + ", ".join(str(m) for m in gin.analyze(HAND_02).melds) + "; KD alone counts 10.", int,
        hint="Find the melds first; only the cards left over count.",
        mistakes=lambda: {
            13: "A king counts 10, not 13: J, Q and K are worth 10 each."},
        lesson="02-melds-and-deadwood"),
    "deadwood_split_run": Exercise(
        f"What is the least deadwood of {HAND_02B}? (Hint: a run can be cut.)",
        lambda: gin.deadwood(HAND_02B),
        lambda: "Cut the 7-card run around 6H: " + ", ".join(str(m) for m in gin.analyze(HAND_02B).melds)
        + "; only KC is left.", int,
        hint="The seven hearts need not all stay in one run: could 6H join the sixes?",
        mistakes=lambda: {
            22: "That keeps the seven-card run whole: 6S 6D KC are left (6 + 6 + 10). Cut the run so 6H makes "
            "a set with 6S 6D: 3H 4H 5H and 7H 8H 9H stay runs, and only KC is left."},
        lesson="02-melds-and-deadwood"),
    "around_the_corner": Exercise(
        f"What is the least deadwood of {CORNER_02}?",
        lambda: gin.deadwood(CORNER_02),
        lambda: "Melds " + ", ".join(str(m) for m in gin.analyze(CORNER_02).melds)
        + "; KH AH 2H is no run (the ace is low only), so 10 + 1 + 2 + 7 = 20.", int,
        hint="Is K-A-2 a run in gin? The ace is low only.",
        mistakes=lambda: {
            7: "K-A-2 is not a run: the ace is low only, so KH AH 2H count 10 + 1 + 2, and 7D is left too."},
        lesson="02-melds-and-deadwood"),
    "knock_points": Exercise(
        f"The knocker holds {KNOCK_03[0]}, the defender {KNOCK_03[1]}. How many points does the knocker score?",
        lambda: gin.score_knock(*KNOCK_03).knocker_points,
        lambda: " ".join(_explain(gin.score_knock(*KNOCK_03))), int,
        hint="Lay off first: which of the defender's cards fit the knocker's melds?",
        mistakes=lambda: {
            68: "You forgot the layoffs: the defender lays off 4S 5S 8C on the knocker's melds before counting, "
            "so 55 - 4 = 51, not 72 - 4."},
        lesson="03-knocking-and-layoffs"),
    "undercut": Exercise(
        f"The knocker holds {UNDERCUT_04[0]}, the defender {UNDERCUT_04[1]}. Who scores, and how much? "
        "Answer like ('defender', 28).",
        lambda: ("defender", gin.score_knock(*UNDERCUT_04).defender_points),
        lambda: " ".join(_explain(gin.score_knock(*UNDERCUT_04))),
        lambda x: (str(x[0]).lower(), int(x[1])),
        hint="Compare the two deadwoods after layoffs. Who has less, and what bonus does that earn?",
        mistakes=lambda: {
            ("defender", 3): "The difference is 3, but an undercut also earns the undercut bonus of 25: 28.",
            ("knocker", 3): "The defender has less deadwood (1 against 4): an undercut, and the defender scores.",
            ("knocker", 28): "The defender, not the knocker, scores an undercut."},
        lesson="04-gin-big-gin-and-undercut"),
    "next_roles": Exercise(
        "P1 is in the box, P2 captain, P3 sits out. The box loses. Who is in the box next?",
        lambda: three_handed.next_roles(three_handed.Roles(box="P1", captain="P2", sitting_out="P3"),
                                        "box_lost").box,
        lambda: "A losing box sits out; the captain moves into the box and the sitter becomes captain.",
        lambda x: str(x).strip().upper(),
        hint="A box that loses leaves the box. Who takes it over?",
        mistakes=lambda: {
            "P1": "A losing box does not stay: P1 sits out next.",
            "P3": "The sitter becomes captain; the captain (P2) moves into the box."},
        lesson="05-three-handed-gin-in-the-box"),
    "three_handed_final": Exercise(
        "Three-handed gin with gin.THREE_HANDED: the box has 85 points and wins a hand worth 30. "
        "What is the box's score at the end of the game?",
        lambda: 85 + 30 + gin.THREE_HANDED.game_bonus,
        lambda: "85 + 30 = 115 reaches 100, so the game ends; the brief's three-handed game adds no game, "
        "box or shutout bonus, so the box ends on 115.", int,
        hint="Does 85 + 30 reach 100? What bonuses does gin.THREE_HANDED add at the end?",
        mistakes=lambda: {
            215: "That adds a 100-point game bonus, which two-handed gin has; the three-handed preset has none.",
            140: "That adds a box bonus of 25; the three-handed preset has none."},
        lesson="05-three-handed-gin-in-the-box"),
    "best_discard": Exercise(
        f"Holding {DISCARD_06} after the draw, which discards leave the least deadwood?",
        lambda: _cards_set(gin.best_discards(DISCARD_06).discards),
        lambda: f"Discarding KD or QH leaves deadwood {gin.best_discards(DISCARD_06).deadwood}; both are optimal.",
        _cards_set,
        hint="Try each card: which discards leave the least deadwood? There may be more than one.",
        mistakes=lambda: {
            frozenset({"KD"}): "KD is one best discard, but QH leaves the same deadwood: name both.",
            frozenset({"QH"}): "QH is one best discard, but KD leaves the same deadwood: name both."},
        lesson="04-gin-big-gin-and-undercut"),
    "wild_rank_round_8": Exercise(
        "In round 8 of Three Thirteen, which rank is wild?",
        lambda: "T", lambda: "Round r deals r + 2 cards and that rank is wild: round 8 deals 10 cards, so tens.",
        lambda x: "T" if str(x).strip().upper() in ("T", "10") else str(x).strip().upper(),
        hint="The wild rank follows the hand size, not the round number.",
        mistakes=lambda: {
            "8": "Round 8 deals 10 cards, and the wild rank is the hand size: tens (T), not eights."},
        lesson="07-three-thirteen"),
    "thirteen_penalty": Exercise(
        "Round 3 (fives wild): what is the least penalty of 5H 7S 9S KD 2C?",
        lambda: _thirteen().penalty,
        lambda: "The wild 5H fills the gap in 7S _ 9S (as 8S); KD and 2C are left: 10 + 2 = 12.", int,
        hint="The 5H is wild in round 3: where can it stand in?",
        mistakes=lambda: {
            17: "5H is wild this round: it fills 7S _ 9S as the 8S, so it does not count. Only KD and 2C do.",
            31: "7S, 9S and the wild 5H make a run (5H as 8S): only KD and 2C are left."},
        lesson="07-three-thirteen"),
    "ace_high_thirteen": Exercise(
        "Round 2 of Three Thirteen (fours wild), played with three_thirteen.ACE_HIGH: what is the least "
        "penalty of QS KS AS AD?",
        lambda: _thirteen_penalty("QS KS AS AD", 2, ace_high=True),
        lambda: "Under ACE_HIGH Q-K-A is a run, so QS KS AS meld; the AD is left over, and a leftover ace "
        "costs 15 in this variant.", int,
        hint="Is Q-K-A a run in this variant? And what does a leftover ace cost in it?",
        mistakes=lambda: {
            1: "Q-K-A is a run here, but a leftover ace costs 15 under ACE_HIGH, not 1.",
            22: "That is the default rule (no Q-K-A, aces cost 1). Under ACE_HIGH Q-K-A is a run and the AD "
            "costs 15.",
            50: "Q-K-A is a run under ACE_HIGH: only the AD is left over."},
        lesson="07-three-thirteen"),
    "joker_from_pile": Exercise(
        "Indian rummy, sevens wild, in the middle of a deal: the player before you throws 7D. May you take it "
        "from the discard pile? Answer True or False.",
        lambda: False,
        lambda: "7D is a wild joker this deal, and a joker is never taken from the discard pile; the one "
        "exception is the first upcard, on the first player's first turn.",
        lambda x: {"true": True, "false": False, "yes": True, "no": False}.get(str(x).strip().lower(), x),
        hint="Is 7D a joker in this deal? What may never be taken from the pile?",
        mistakes=lambda: {
            True: "7D is a wild joker when sevens are wild, and jokers stay in the pile (only the first upcard, "
            "on the first turn, may be taken)."},
        lesson="08-pure-sequence"),
    "pure_or_not": Exercise(
        "Sevens are wild. Is 5H 6H 7H a pure sequence, an impure one, a set, or not a group?",
        lambda: "pure",
        lambda: "The 7H is in its own place, right after 6H: no joker stands in for a missing card, so it is pure.",
        lambda x: str(x).strip().lower().replace(" sequence", ""),
        hint="A wild card in its own place is just that card.",
        mistakes=lambda: {
            "impure": "7H is wild, but here it stands in its own place after 6H: no card is missing, so the "
            "sequence stays pure."},
        lesson="08-pure-sequence"),
    "loser_points_no_life": Exercise(
        f"Sevens are wild. How many points does {NO_LIFE_09} lose when another player declares?",
        lambda: _indian_points(NO_LIFE_09),
        lambda: "It holds a pure sequence (AS 2S 3S) but no second sequence, so every card counts: "
        "86 points, capped at 80.", int,
        hint="Two sequences, one of them pure? If not, every card counts, up to a cap.",
        mistakes=lambda: {
            86: "Every card counts, but a loser loses at most 80 points in one deal."},
        lesson="09-indian-rummy-scoring"),
    "deals_chips": Exercise(
        "Deals rummy, three players with 240 chips each. In the first deal you show validly; the other two "
        "lose 30 and 80 points. How many chips do you have now?",
        lambda: 240 + 30 + 80,
        lambda: "The deal's winner takes each loser's points in chips: 240 + 30 + 80 = 350.", int,
        hint="Where do the losers' points go in deals rummy?",
        mistakes=lambda: {
            240: "A valid show wins the deal, and the winner takes the losers' points in chips.",
            270: "Both losers pay: 30 and 80.",
            320: "Both losers pay: 30 and 80."},
        lesson="09-indian-rummy-scoring"),
    "gin_outs": Exercise(
        f"Holding {HAND_02}, how many of the unseen cards make gin on the next draw?",
        lambda: len(_draws().gin_cards),
        lambda: "The gin outs are " + " ".join(str(c) for c in sorted(_draws().gin_cards))
        + ": each completes or extends a meld so that KD can be discarded.", int,
        hint="Which unseen cards let you meld all but one card, which you then discard?",
        mistakes=lambda: {
            3: "Count again: 4S, 7S, 8C and QC all make gin."},
        lesson="10-hand-odds"),
    "trace_turns": Exercise(
        "Play gin.bots.trace(1, (\"greedy\", \"greedy\"), seed=3). How many turns did the first hand last?",
        lambda: _first_hand_turns(),
        lambda: f"The first hand ended on turn {_first_hand_turns() - 1}, counted from 0: {_first_hand_turns()} "
        "turns (a hand's record counts the turns; a turn is a draw and a discard, or a knock).", int,
        hint="Keep the rows of hand 0 and look at the last one's turn: turns are numbered from 0.",
        mistakes=lambda: {_first_hand_turns() - 1: "That is the last turn's number: turns are numbered from 0, "
                          "so the hand lasted one turn more."},
        lesson="11-questions-an-analyst-asks"),
}


def _first_hand_turns() -> int:
    from .gin import bots
    hands = bots.simulate(1, ("greedy", "greedy"), seed=3)
    return int(hands["turns"][0])


def _indian_points(hand: str) -> int:
    from .indian import loser_points
    return loser_points(hand, "7").points


def _thirteen_penalty(hand: str, round_no: int, ace_high: bool) -> int:
    from .three_thirteen import ACE_HIGH, DEFAULT, penalty
    return penalty(hand, round_no, ACE_HIGH if ace_high else DEFAULT)


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
    """Is ``answer`` right for this exercise? The feedback says why (and, for a common wrong
    answer, what went wrong). ``...`` (no answer yet) is neither right nor wrong."""
    ex = _get(exercise)
    if answer is ...:
        return Feedback(None, f"Write your answer in place of ... and run the cell again, or type it in the box "
                        f"below. {ex.prompt} (Stuck? lessons.hint({exercise!r}), or the Hint button, gives a hint.)",
                        exercise)
    try:
        given = ex.normalise(answer)
    except (ValueError, TypeError, IndexError) as exc:
        return Feedback(False, f"I could not read that answer ({exc}). {ex.prompt}")
    if given == ex.normalise(ex.answer()):
        return _recorded(exercise, Feedback(True, ex.explain()))
    known = ex.mistakes()
    if _hashable(given) and given in known:
        return _recorded(exercise, Feedback(False, known[given]))
    return _recorded(exercise, Feedback(False, f"{answer!r} is not it. Hint: {ex.hint}" if ex.hint
                                        else f"{answer!r} is not it."))


_STUDENT: str | None = None


def set_student(name: str) -> str:
    """Who is answering (for the teacher's progress table); ValueError says what is wrong."""
    global _STUDENT
    from .progress import check_name

    _STUDENT = check_name(name)
    return _STUDENT


def student() -> str | None:
    """The name given in this session, if any."""
    return _STUDENT


def _recorded(exercise: str, feedback: Feedback) -> Feedback:
    """Record a checked answer when a student has named themselves and the class keeps progress;
    a database problem is said in the feedback, never raised: the lesson goes on."""
    from .progress import Progress, default_db

    db = default_db()
    if _STUDENT is None or db is None:
        return feedback
    try:
        Progress(db).record(_STUDENT, _get(exercise).lesson, exercise, bool(feedback.right))
    except (ValueError, OSError) as exc:
        return Feedback(feedback.right, f"{feedback.why} (Your progress was not saved: {exc}.)")
    return feedback


def name_box() -> Any:
    """A small widget for the top of a lesson: a student types their name once per session."""
    import ipywidgets as w

    text = _css(w.Text(value=_STUDENT or "", placeholder="your name", description="Name", continuous_update=False,
                       layout=w.Layout(width="320px")), "rl-name")
    button, note = _css(w.Button(description="That's me"), "rl-name-ok"), _css(w.HTML(), "rl-name-note")

    def save(_: Any) -> None:
        try:
            note.value = f"Hello, {html.escape(set_student(text.value))}: your checked answers count for the class."
        except ValueError as exc:
            note.value = f"<span style='color:#b71c1c'>{html.escape(str(exc))}</span>"

    button.on_click(save)
    text.observe(save, names="value")  # Enter (or leaving the box) saves too
    return w.VBox([w.HBox([text, button]), note])


def _css(widget: Any, css_class: str) -> Any:
    """The widget, with a CSS class (the browser tests find it by that)."""
    widget.add_class(css_class)
    return widget


def from_text(text: str) -> Any:
    """An answer typed in a box, as the value a student would write in code: a number, True or
    False, a quoted string, or words; "defender, 28" is ("defender", 28)."""
    import ast

    def one(t: str) -> Any:
        t = t.strip()
        try:
            return ast.literal_eval(t)
        except (ValueError, SyntaxError):
            return t

    value = one(text)
    if isinstance(value, str) and "," in value:
        return tuple(one(part) for part in value.split(","))
    return value


def answer_box(exercise: str, with_prompt: bool = True) -> Any:
    """The exercise's question, a box for the answer and a Check button; the feedback appears
    below (and counts for the class, like ``check``)."""
    import ipywidgets as w

    ex = _get(exercise)
    text = _css(w.Text(placeholder="your answer", layout=w.Layout(width="320px")), "rl-answer")
    button, hint_button = _css(w.Button(description="Check"), "rl-check"), _css(w.Button(description="Hint"), "rl-hint")
    out = _css(w.HTML(), "rl-answer-feedback")

    def run(_: Any) -> None:
        out.value = (check(exercise, from_text(text.value))._repr_html_() if text.value.strip()
                     else "<div class='rl-feedback'>Type your answer in the box first.</div>")

    def show_hint(_: Any) -> None:
        out.value = f"<div class='rl-feedback'>Hint: {html.escape(hint(exercise))}</div>"

    button.on_click(run)
    hint_button.on_click(show_hint)
    prompt = [w.HTML(f"<div class='rl-prompt'>✎ {html.escape(ex.prompt)}</div>")] if with_prompt else []
    box = w.VBox([*prompt, w.HBox([text, button, hint_button]), out])
    box.add_class("rl-answer-box")
    box.add_class(f"rl-exercise-{exercise}")
    return box


def _hashable(x: Any) -> bool:
    try:
        hash(x)
    except TypeError:
        return False
    return True


def hint(exercise: str) -> str:
    """A hint for an exercise (never the answer)."""
    return _get(exercise).hint


@dataclass(frozen=True)
class KeyEntry:
    """One exercise in the teacher's key."""

    name: str
    lesson: str
    prompt: str
    answer: Any
    explanation: str
    hint: str
    mistakes: dict[Any, str]


def key() -> list[KeyEntry]:
    """The teacher's answer key: every exercise, lesson by lesson, with its answer and why."""
    entries = [KeyEntry(name, ex.lesson, ex.prompt, ex.answer(), ex.explain(), ex.hint, ex.mistakes())
               for name, ex in EXERCISES.items()]
    return sorted(entries, key=lambda e: e.lesson)


def _show(answer: Any) -> str:
    if isinstance(answer, frozenset):
        return " ".join(sorted(answer))
    return str(answer)


def key_text() -> str:
    """The answer key as plain text."""
    out = []
    for e in key():
        block = [f"[{e.lesson}] {e.name}", f"  Q: {e.prompt}", f"  A: {_show(e.answer)}", f"  Why: {e.explanation}"]
        block += [f"  If a student says {_show(k)}: {v}" for k, v in e.mistakes.items()]
        out.append("\n".join(block))
    return "\n\n".join(out)


def key_html() -> str:
    """The answer key as a standalone HTML page (no scripts, nothing fetched)."""
    rows = []
    for e in key():
        wrong = "".join(f"<li><b>{html.escape(_show(k))}</b>: {html.escape(v)}</li>" for k, v in e.mistakes.items())
        rows.append(f"<section><h2>{html.escape(e.lesson)} · {html.escape(e.name)}</h2>"
                    f"<p>{html.escape(e.prompt)}</p><p><b>Answer:</b> {html.escape(_show(e.answer))}</p>"
                    f"<p><b>Why:</b> {html.escape(e.explanation)}</p><p><b>Hint:</b> {html.escape(e.hint)}</p>"
                    + (f"<p>Common wrong answers:</p><ul>{wrong}</ul>" if wrong else "") + "</section>")
    return ("<!doctype html><html><head><meta charset='utf-8'><title>rummylab: the teacher's key</title>"
            "<style>body{font-family:sans-serif;max-width:50em;margin:auto}section{border-top:1px solid #ccc}</style>"
            "</head><body><h1>rummylab: the teacher's key</h1>" + "".join(rows) + "</body></html>")
