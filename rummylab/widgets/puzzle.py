"""PuzzleTrainer: "which card do you throw?" positions cut from expert games, at the student's
level (a Glicko-2 rating), each answered with what every discard is worth and why."""

from __future__ import annotations

import html
from collections.abc import Callable, Sequence

import ipywidgets as w
import numpy as np

from ..cards import parse_cards, rng_from
from ..display import card_chip, chips
from ..gin.puzzles import Puzzle, shipped
from ..i18n import _, ngettext
from ..ratings import Rating, pick, rate
from .analyzer import card_button
from .style import fill, text

Log = Callable[[str, str, bool], str]
"""Keeps an answer for the teacher (``lessons.puzzle_log()``): (puzzle id, card, right) -> a note."""


def position_html(p: Puzzle) -> str:
    """What the student sees of a puzzle: her cards, the pile, what her opponent holds from it."""
    pile = parse_cards(p.pile, jokers=0)
    shown = " ".join(card_chip(c) for c in pile[-6:])
    hold = fill(_("You hold {cards}."), cards=chips(parse_cards(p.hand, jokers=0)))
    if len(pile) > 6:
        said = ngettext("The discard pile (its last six, top card last): {pile}; {n} card is left in the stock.",
                        "The discard pile (its last six, top card last): {pile}; {n} cards are left in the stock.",
                        p.stock)
    else:
        said = ngettext("The discard pile (top card last): {pile}; {n} card is left in the stock.",
                        "The discard pile (top card last): {pile}; {n} cards are left in the stock.", p.stock)
    discards = fill(said, pile=shown, n=p.stock)
    picked = fill(_("Your opponent took from the pile and holds: {cards}."),
                  cards=chips(parse_cards(p.picked, jokers=0)))
    question = text(_("Which card do you throw?"))
    return (f"<div class='rl-puzzle-position'><p>{hold}</p><p>{discards}</p><p>{picked}</p>"
            f"<p><b>{question}</b></p></div>")


def verdict_html(p: Puzzle, card: str) -> str:
    """The answer to ``card``: right or how much it loses, why, and every discard's value."""
    values = {c: (v, se) for c, v, se in p.values}
    if card == p.best:
        head = "✔ " + _("Right: {card} is the best throw, {margin} ± {se} points better than the next.").format(
            card=card, margin=f"{p.margin:.1f}", se=f"{p.margin_se:.1f}")
    else:
        lost = values[p.best][0] - values[card][0]
        head = "✘ " + _("Not quite: {best} is the best throw; {card} gives up about {lost} points.").format(
            best=p.best, card=card, lost=f"{lost:.1f}")
    rows = "".join(f"<tr><td>{html.escape(c)}</td><td>{v:+.1f} ± {se:.1f}</td></tr>" for c, v, se in p.values[:5])
    why = fill(_("Why: {reason}."), reason=html.escape(p.reason))
    said = {key: text(words) for key, words in (("throw", _("throw")),
                                                 ("net", _("net points to the hand's end")))}
    return (f"<div class='rl-puzzle-verdict'><p>{html.escape(head)}</p><p>{why}</p>"
            f"<table><tr><th>{said['throw']}</th><th>{said['net']}</th></tr>{rows}</table></div>")


class PuzzleTrainer(w.VBox):
    """One puzzle at a time, picked near the student's rating; ``log`` keeps each answer (and
    ``log.attempts()``, when it has one, gives her earlier ones, so her rating follows her)."""

    def __init__(self, *, seed: int = 0, puzzles: Sequence[Puzzle] | None = None, log: Log | None = None) -> None:
        self.puzzles = tuple(puzzles if puzzles is not None else shipped())
        if not self.puzzles:
            raise ValueError("a PuzzleTrainer needs at least one puzzle")
        self.rng: np.random.Generator = rng_from(seed)
        self.keep = log
        self.by_id = {p.id: p for p in self.puzzles}
        earlier: list[tuple[str, bool]] = getattr(log, "attempts", lambda: [])()
        self.attempts: list[tuple[str, bool]] = [(i, r) for i, r in earlier if i in self.by_id]
        self.head, self.position, self.feedback = w.HTML(), w.HTML(), w.HTML()
        self.cards = w.HBox(layout=w.Layout(flex_flow="row wrap"))
        self.next = w.Button(description=_("Next puzzle"), layout=w.Layout(display="none"))
        self.next.add_class("rl-puzzle-next")
        self.next.on_click(lambda _event: self.show(self.choose()))
        super().__init__([self.head, self.position, self.cards, self.feedback, self.next])
        self.add_class("rl-puzzles")
        self.show(self.choose())

    def rating(self) -> Rating:
        """Her rating from her attempts (each puzzle's first)."""
        return rate((i, self.by_id[i].rating, r) for i, r in self.attempts)

    def choose(self) -> Puzzle:
        """The next puzzle: one she has not tried, near her rating."""
        return pick(self.puzzles, self.rating().rating, (i for i, _right in self.attempts), self.rng)

    def show(self, p: Puzzle) -> None:
        """Put puzzle ``p`` on the table."""
        self.puzzle, self.answered = p, False
        head = fill(_("Puzzle {id} (rated {rating}) · your puzzle rating: {yours}"), id=html.escape(p.id),
                    rating=f"{p.rating:.0f}", yours=self.rating())
        self.head.value = f"<p class='rl-puzzle-head'>{head}</p>"
        self.position.value = position_html(p)
        buttons = []
        for card in parse_cards(p.hand, jokers=0):
            b = card_button(card)
            b.on_click(lambda _event, c=str(card): self.answer(c))
            buttons.append(b)
        self.cards.children = buttons
        self.feedback.value, self.next.layout.display = "", "none"

    def answer(self, card: str) -> None:
        """Throw ``card``: the verdict, kept (first answer only) and counted in her rating."""
        p = self.puzzle
        right = p.right(card)
        note = ""
        if not self.answered:
            self.answered = True
            self.attempts.append((p.id, right))
            if self.keep is not None:
                note = self.keep(p.id, card, right)
        self.feedback.value = verdict_html(p, card) + (f"<p class='rl-note'>{html.escape(note)}</p>" if note else "")
        self.next.layout.display = ""
