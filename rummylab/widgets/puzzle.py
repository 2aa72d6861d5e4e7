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
from ..ratings import Rating, pick, rate
from .analyzer import card_button

Log = Callable[[str, str, bool], str]
"""Keeps an answer for the teacher (``lessons.puzzle_log()``): (puzzle id, card, right) -> a note."""


def position_html(p: Puzzle) -> str:
    """What the student sees of a puzzle: her cards, the pile, what her opponent holds from it."""
    pile = parse_cards(p.pile, jokers=0)
    shown = " ".join(card_chip(c) for c in pile[-6:])
    return (f"<div class='rl-puzzle-position'><p>You hold {chips(parse_cards(p.hand, jokers=0))}.</p>"
            f"<p>The discard pile{' (its last six, top card last)' if len(pile) > 6 else ' (top card last)'}: "
            f"{shown}; {p.stock} cards are left in the stock.</p>"
            f"<p>Your opponent took from the pile and holds: {chips(parse_cards(p.picked, jokers=0))}.</p>"
            "<p><b>Which card do you throw?</b></p></div>")


def verdict_html(p: Puzzle, card: str) -> str:
    """The answer to ``card``: right or how much it loses, why, and every discard's value."""
    values = {c: (v, se) for c, v, se in p.values}
    if card == p.best:
        head = f"✔ Right: {card} is the best throw, {p.margin:.1f} ± {p.margin_se:.1f} points better than the next."
    else:
        lost = values[p.best][0] - values[card][0]
        head = f"✘ Not quite: {p.best} is the best throw; {card} gives up about {lost:.1f} points."
    rows = "".join(f"<tr><td>{html.escape(c)}</td><td>{v:+.1f} ± {se:.1f}</td></tr>" for c, v, se in p.values[:5])
    return (f"<div class='rl-puzzle-verdict'><p>{html.escape(head)}</p><p>Why: {html.escape(p.reason)}.</p>"
            f"<table><tr><th>throw</th><th>net points to the hand's end</th></tr>{rows}</table></div>")


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
        self.next = w.Button(description="Next puzzle", layout=w.Layout(display="none"))
        self.next.add_class("rl-puzzle-next")
        self.next.on_click(lambda _: self.show(self.choose()))
        super().__init__([self.head, self.position, self.cards, self.feedback, self.next])
        self.add_class("rl-puzzles")
        self.show(self.choose())

    def rating(self) -> Rating:
        """Her rating from her attempts (each puzzle's first)."""
        return rate((i, self.by_id[i].rating, r) for i, r in self.attempts)

    def choose(self) -> Puzzle:
        """The next puzzle: one she has not tried, near her rating."""
        return pick(self.puzzles, self.rating().rating, (i for i, _ in self.attempts), self.rng)

    def show(self, p: Puzzle) -> None:
        """Put puzzle ``p`` on the table."""
        self.puzzle, self.answered = p, False
        self.head.value = (f"<p class='rl-puzzle-head'>Puzzle {html.escape(p.id)} (rated {p.rating:.0f}) · "
                           f"your puzzle rating: {self.rating()}</p>")
        self.position.value = position_html(p)
        buttons = []
        for card in parse_cards(p.hand, jokers=0):
            b = card_button(card)
            b.on_click(lambda _, c=str(card): self.answer(c))
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
