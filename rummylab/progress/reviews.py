"""The reviews students open (a game table's *Review this hand*), kept as responses and read back
for the teacher: per student, the hands reviewed and her error per decision over the lesson.

A review is kept as one sentence (``summary``), which the teacher reads as it is in the
gradebook's tooltip; ``parse`` reads the same sentence back (its one grammar is here), and
``reviews_html`` sums a lesson's reviews per student.
"""

from __future__ import annotations

import html
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .report import person
from .words import NP_, _, pgettext

RESPONSE = "hands_reviewed"
"""The response a review is kept as (``lessons.review_log``'s default name)."""
MARKS = {"inaccuracy": NP_("review mark", "inaccuracy"), "mistake": NP_("review mark", "mistake"),
         "blunder": NP_("review mark", "blunder")}
"""The marks a review gives a decision, as the teacher page names them (kept in English in the summary)."""
_SUMMARY = re.compile(r"^(\d+) decisions, the best move in (\d+); ([0-9.]+) points lost a decision"
                      r"(?: \(([^)]*)\))?; luck ([+-][0-9.]+)$")


def summary(decisions: int, best: int, error_rate: float, marks: Mapping[str, int], luck: float) -> str:
    """A review as the sentence kept for the teacher."""
    shown = ", ".join(f"{m} {n}" for m, n in marks.items() if n)
    return (f"{decisions} decisions, the best move in {best}; {error_rate:.2f} points lost a decision"
            + (f" ({shown})" if shown else "") + f"; luck {luck:+.1f}")


@dataclass(frozen=True)
class Reviewed:
    """One review read back."""

    decisions: int
    best: int
    error_rate: float
    marks: dict[str, int]
    luck: float


def parse(text: str) -> Reviewed | None:
    """A kept review's sentence read back; None for text that is not one."""
    found = _SUMMARY.match(text.strip())
    if not found:
        return None
    marks = {}
    for part in (found.group(4) or "").split(","):
        name, _space, n = part.strip().rpartition(" ")
        if name and n.isdigit():
            marks[name] = int(n)
    return Reviewed(int(found.group(1)), int(found.group(2)), float(found.group(3)), marks, float(found.group(5)))


def _mark(mark: str, count: int) -> str:
    """A mark and how many a student got, as the teacher page shows them: "mistake 2"."""
    name = pgettext("review mark", MARKS[mark]) if mark in MARKS else mark
    # TRANSLATORS: one of a student's review marks ("mistake", "blunder"…) and how many she got: "mistake 2".
    return _("{mark} {count}").format(mark=name, count=count)


def reviews_html(rows: Any) -> str:
    """Per student (by hub login, else name): hands reviewed, decisions, the best move's share,
    points lost per decision over all of them, the marks and the luck; "" when no one reviewed."""
    import polars as pl

    kept = rows.filter((pl.col("exercise") == RESPONSE) & pl.col("right").is_null()) if rows.height else rows
    if not kept.height:
        return ""
    per: dict[str, list[Reviewed]] = {}
    for who, answer in kept.with_columns(person().alias("_who")).select("_who", "answer").iter_rows():
        found = parse(answer or "")
        if found is not None:
            per.setdefault(str(who), []).append(found)
    body = []
    for who, hers in sorted(per.items()):
        decisions = sum(r.decisions for r in hers)
        lost = sum(r.error_rate * r.decisions for r in hers) / decisions if decisions else 0.0
        marks: dict[str, int] = {}
        for r in hers:
            for m, n in r.marks.items():
                marks[m] = marks.get(m, 0) + n
        shown = ", ".join(_mark(m, n) for m, n in sorted(marks.items())) or _("none")
        best = sum(r.best for r in hers) / decisions if decisions else 0.0
        body.append(f"<tr><th scope='row'>{html.escape(who)}</th><td>{len(hers)}</td><td>{decisions}</td>"
                    f"<td>{best:.0%}</td><td>{lost:.2f}</td><td>{html.escape(shown)}</td>"
                    f"<td>{sum(r.luck for r in hers):+.1f}</td></tr>")
    columns = (pgettext("table column", "student"), pgettext("table column", "hands reviewed"),
               pgettext("table column", "decisions"), pgettext("table column", "best move"),
               pgettext("table column", "points lost a decision"), pgettext("table column", "marks"),
               pgettext("table column", "luck"))
    head = "<tr>" + "".join(f"<th scope='col'>{html.escape(c)}</th>" for c in columns) + "</tr>"
    title = html.escape(_("Hands reviewed"))
    legend = html.escape(_("Each student's reviews over the lesson: how often her move was the best, and the points "
                           "she lost a decision (each decision judged from what she knew then; marks: inaccuracy 3, "
                           "mistake 6, blunder 12 points)."))
    return (f"<section class='rl-reviews'><h2>{title}</h2><p class='rl-legend'>{legend}</p>"
            f"<table class='rl-gradebook'><thead>{head}</thead><tbody>{''.join(body)}</tbody></table></section>")
