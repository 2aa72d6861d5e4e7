"""A played hand's review as a student reads it at a game table (gin's, Indian rummy's)."""

from __future__ import annotations

import html
from typing import Any

from ..display import card_chip
from ..i18n import NP_, _, ngettext, pgettext
from .style import fill, text

MARK_WORDS = {"blunder": NP_("review mark", "blunder"), "mistake": NP_("review mark", "mistake"),
              "inaccuracy": NP_("review mark", "inaccuracy")}
"""A marked decision's mark (``decisions.marked``), in words."""


def review_html(r: Any) -> str:
    """A hand's review for the student, short enough for a phone: how many best moves, each
    marked decision with the better move and why, the small slips counted, the draws' luck."""
    lost = [d for d in r.decisions if d.loss > 0]
    marked = [d for d in lost if d.mark]
    best = len(r.decisions) - len(lost)
    n = len(r.decisions)
    review = text(_("Review"))
    summary = fill(ngettext("the best move in {best} of {n} decision; {loss} points given up in all.",
                            "the best move in {best} of {n} decisions; {loss} points given up in all.", n),
                   best=f"<b class='rl-review-best'>{best}</b>", n=n, loss=f"{r.loss:.1f}")
    lines = [f"<p><b>{review}</b>: {summary}</p>"]
    items = []
    for d in marked:
        mark = text(pgettext("review mark", MARK_WORDS[d.mark]) if d.mark in MARK_WORDS else d.mark)
        said = fill(_("{mark}: turn {turn}, you chose {played}; better {best} (−{loss} ± {se} points)."),
                    mark=f"<b class='rl-mark rl-mark-{d.mark}'>{mark}</b>", turn=d.turn + 1,
                    played=f"<i>{html.escape(d.played)}</i>",
                    best=f"<b class='rl-review-better'>{html.escape(d.best)}</b>", loss=f"{d.loss:.1f}",
                    se=f"{d.loss_se:.1f}")
        items.append(f"<li>{said} <span class='rl-review-reason'>{html.escape(d.reason)}</span>"
                     f"{cards_html(d)}</li>")
    if items:
        lines.append(f"<ol class='rl-review-decisions'>{''.join(items)}</ol>")
    small = len(lost) - len(marked)
    if small:
        little = fill(ngettext("{n} other move gave up a little ({points} points in all): close calls.",
                               "{n} other moves gave up a little ({points} points in all): close calls.", small),
                      n=small, points=f"{sum(d.loss for d in lost if not d.mark):.1f}")
        lines.append(f"<p class='rl-review-small'>{little}</p>")
    if r.draws:
        luck = " ".join(f"{html.escape(x.card)} {x.luck:+.1f}" for x in r.draws)
        said = fill(_("Your draws' luck (points): {luck}; in all {total}. Your result {result}, {adjusted} "
                      "without the luck."), luck=luck, total=f"{r.luck:+.1f}", result=f"{r.result:+d}",
                    adjusted=f"{r.adjusted:+.1f}")
        lines.append(f"<p>{said}</p>")
    return "".join(lines)


PLAYED_STYLE = "text-decoration:line-through;opacity:.6"
BETTER_STYLE = "outline:2px solid #2a7"


def cards_html(d: Any) -> str:
    """The decision's cards as chips (``display.card_chip``), the one the student threw struck out
    and the better one ringed (a move that throws no card, a draw or a drop, marks none)."""
    if not d.cards:
        return ""
    played, better, chips = d.played_card, d.best_card, []
    for c in d.cards:
        cls, style = ["rl-review-card"], []
        if played is not None and c == played:
            cls.append("rl-review-played")
            style.append(PLAYED_STYLE)
            played = None  # one copy only
        if better is not None and c == better:
            cls.append("rl-review-better-card")
            style.append(BETTER_STYLE)
            better = None
        chips.append(card_chip(c, cls=" ".join(cls), style=";".join(style)))
    return f"<div class='rl-review-cards'>{''.join(chips)}</div>"


def show_review(table: Any, done: Any) -> None:
    """A game table shows the review ``done`` and hands it to its ``on_review`` (whose note, if
    any, is shown under it)."""
    table.review.value = review_html(done)
    if table.on_review is not None:
        note = table.on_review(done)
        if note:
            table.review.value += f"<p class='rl-review-note'>{html.escape(str(note))}</p>"
    table.refresh()
