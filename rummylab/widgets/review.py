"""A played hand's review as a student reads it at a game table (gin's, Indian rummy's)."""

from __future__ import annotations

import html
from typing import Any


def review_html(r: Any) -> str:
    """A hand's review for the student, short enough for a phone: how many best moves, each
    marked decision with the better move and why, the small slips counted, the draws' luck."""
    lost = [d for d in r.decisions if d.loss > 0]
    marked = [d for d in lost if d.mark]
    best = len(r.decisions) - len(lost)
    lines = [f"<p><b>Review</b>: the best move in <b class='rl-review-best'>{best}</b> of {len(r.decisions)} "
             f"decisions; {r.loss:.1f} points given up in all.</p>"]
    items = [f"<li><b class='rl-mark rl-mark-{d.mark}'>{d.mark}</b>: turn {d.turn + 1}, you chose "
             f"<i>{html.escape(d.played)}</i>; better <b class='rl-review-better'>{html.escape(d.best)}</b> "
             f"(−{d.loss:.1f} ± {d.loss_se:.1f} points). <span class='rl-review-reason'>{html.escape(d.reason)}"
             f"</span></li>" for d in marked]
    if items:
        lines.append(f"<ol class='rl-review-decisions'>{''.join(items)}</ol>")
    small = len(lost) - len(marked)
    if small:
        lines.append(f"<p class='rl-review-small'>{small} other move{'s' if small > 1 else ''} gave up a little "
                     f"({sum(d.loss for d in lost if not d.mark):.1f} points in all): close calls.</p>")
    if r.draws:
        luck = " ".join(f"{html.escape(x.card)} {x.luck:+.1f}" for x in r.draws)
        lines.append(f"<p>Your draws' luck (points): {luck}; in all {r.luck:+.1f}. Your result "
                     f"{r.result:+d}, {r.adjusted:+.1f} without the luck.</p>")
    return "".join(lines)


def show_review(table: Any, done: Any) -> None:
    """A game table shows the review ``done`` and hands it to its ``on_review`` (whose note, if
    any, is shown under it)."""
    table.review.value = review_html(done)
    if table.on_review is not None:
        note = table.on_review(done)
        if note:
            table.review.value += f"<p class='rl-review-note'>{html.escape(str(note))}</p>"
    table.refresh()
