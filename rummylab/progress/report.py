"""The class report from ``Progress.rows``: per student and exercise, per exercise, the answers given
(wrong first, the most common first), the responses and who sent them, as tables, plain text and
HTML (the page that shows them with the gradebook: ``page``)."""

from __future__ import annotations

import html
import unicodedata
from collections.abc import Iterable
from typing import Any, NamedTuple

from .words import NP_, _, ngettext, pgettext


def find_lesson(wanted: str, known: Iterable[str]) -> str:
    """The one of ``known`` that ``wanted`` names: itself, its number ("02") or its notebook file."""
    known = list(known)
    name = wanted.strip().removesuffix(".ipynb")
    hits = [k for k in known if k == name] or [k for k in known if k.startswith(f"{name}-")]
    if len(hits) != 1:
        there = ", ".join(known) or _("none yet")
        said = (_("lesson {lesson}: no checks recorded for that lesson (lessons with checks: {known})") if not hits
                else _("lesson {lesson}: more than one lesson (lessons with checks: {known})"))
        raise ValueError(said.format(lesson=repr(wanted), known=there))
    return hits[0]


def person() -> Any:
    """Who a row counts for: her hub user where there is one (a typed name is only shown), else the
    name she typed (a laptop's class has no hub)."""
    import polars as pl

    return pl.coalesce(pl.col("hub_user"), pl.col("student"))


def shown_name() -> Any:
    """A student as the teacher reads her: the name she typed and her hub user, "Bea (student02)",
    where they differ, so that a typed name never hides (or takes) who answered."""
    import polars as pl

    hub = pl.col("hub_user")
    return (pl.when(hub.is_not_null() & (hub != pl.col("student")))
            .then(pl.concat_str([pl.col("student"), pl.lit(" ("), hub, pl.lit(")")]))
            .otherwise(pl.col("student")))


def report_table(rows: Any) -> Any:
    """Per student (her hub user, on a hub) and exercise, from ``Progress.rows``: attempts, solved
    (any right answer; null for responses, which are sent, neither solved nor not); a student is
    shown by the name she typed last and her hub user, the same on every row."""
    import polars as pl

    rows = rows.with_columns(person().alias("_who"), shown_name().alias("student"))
    names = rows.sort("at").group_by("_who").agg(pl.col("student").last())  # one name a person: her latest
    right = pl.col("right")
    solved = pl.when(right.is_not_null().any()).then(right.any()).otherwise(None)
    return (rows.group_by("_who", "lesson", "exercise")
            .agg(pl.len().alias("attempts"), solved.alias("solved"))
            .join(names, on="_who").sort("_who", "lesson", "exercise")
            .select("student", "lesson", "exercise", "attempts", "solved"))


def exercise_table(rows: Any) -> Any:
    """Per exercise, from ``Progress.rows``, in the order the class first tried them: students
    (hub users, on a hub) who tried it, who solved it, checks."""
    import polars as pl

    return (rows.with_columns(person().alias("student")).group_by("lesson", "exercise")
            .agg(pl.col("student").n_unique().alias("tried"),
                 pl.col("student").filter(pl.col("right")).n_unique().alias("solved"),
                 pl.len().alias("checks"), pl.col("at").min().alias("first"))
            .sort("lesson", "first", "exercise").drop("first"))


def answer_table(rows: Any) -> Any:
    """Per exercise and answer, from ``Progress.rows``: right (null: a response), times given, by how
    many students; wrong answers first, then responses, then right ones, the most common first."""
    import polars as pl

    rank = pl.when(pl.col("right").is_null()).then(1).when(pl.col("right")).then(2).otherwise(0)
    return (rows.with_columns(person().alias("student")).group_by("lesson", "exercise", "answer", "right")
            .agg(pl.len().alias("times"), pl.col("student").n_unique().alias("students"))
            .sort([pl.col("lesson"), pl.col("exercise"), rank, pl.col("times"), pl.col("answer")],
                  descending=[False, False, False, True, False]))


def response_table(rows: Any) -> Any:
    """Per exercise and student, from ``Progress.rows``, the responses (free answers) she sent:
    student (her name as shown: "Bea (student02)"), answer, times, in the order first sent."""
    import polars as pl

    rows = rows.filter(pl.col("right").is_null()).sort("at", maintain_order=True)
    names = rows.group_by(person().alias("_who"), maintain_order=True).agg(shown_name().last().alias("student"))
    return (rows.with_columns(person().alias("_who"))
            .group_by("lesson", "exercise", "_who", "answer", maintain_order=True)
            .agg(pl.len().alias("times"), pl.col("at").min().alias("first"))
            .join(names, on="_who", maintain_order="left")
            .sort("lesson", "exercise", "first", maintain_order=True)
            .select("lesson", "exercise", "student", "answer", "times"))


WRONG_SHOWN = 10
"""Wrong answers shown per exercise (the most common); the others are counted."""
RIGHT_SHOWN = 5
RESPONSES_SHOWN = 60


def _kind(right: bool | None) -> str:
    return "response" if right is None else "right" if right else "wrong"


KINDS = {"response": NP_("answer kind", "response"), "right": NP_("answer kind", "right"),
         "wrong": NP_("answer kind", "wrong")}
"""An answer's kind as the teacher page names it (the plain-text report and the page's classes keep the English)."""


class _Exercise(NamedTuple):
    """One exercise's answers as shown: its counts (and ``summary``, a sentence of them), the right
    and wrong answers shown, (answers, times) of the wrong ones left out, the responses shown (who
    sent what) and how many are left out."""

    ex: dict[str, Any]
    shown: list[dict[str, Any]]
    more: tuple[int, int]
    responses: list[dict[str, Any]]
    more_responses: int


def _per_exercise(rows: Any) -> list[_Exercise]:
    """For each exercise of ``Progress.rows``, in the order the class first tried them: its answers."""
    answers, responses = answer_table(rows), response_table(rows)
    out = []
    for ex in exercise_table(rows).iter_rows(named=True):
        def mine(frame: Any, ex: dict[str, Any] = ex) -> list[dict[str, Any]]:
            return list(frame.filter((frame["lesson"] == ex["lesson"]) & (frame["exercise"] == ex["exercise"]))
                        .iter_rows(named=True))
        of = {kind: [a for a in mine(answers) if _kind(a["right"]) == kind] for kind in ("wrong", "right")}
        sent = mine(responses)
        rest = of["wrong"][WRONG_SHOWN:]
        shown = of["wrong"][:WRONG_SHOWN] + of["right"][:RIGHT_SHOWN]
        ex["summary"] = _summary(ex["tried"], ex["solved"], ex["checks"], answered=not of["wrong"] and not of["right"])
        out.append(_Exercise(ex, shown, (len(rest), sum(a["times"] for a in rest)), sent[:RESPONSES_SHOWN],
                             max(0, len(sent) - RESPONSES_SHOWN)))
    return out


def _summary(tried: int, solved: int, checks: int, *, answered: bool) -> str:
    """An exercise's counts as a sentence: "3 students tried, 1 solved (4 checks)", or for an exercise
    of responses only "2 students answered (3 checks)"."""
    # TRANSLATORS: an exercise's checks (all answers sent), put in the parentheses of its counts: "4 checks".
    checked = ngettext("{n} check", "{n} checks", checks).format(n=checks)
    if answered:
        # TRANSLATORS: an exercise of free responses: how many students answered it; {checks}: "3 checks".
        said = ngettext("{n} student answered ({checks})", "{n} students answered ({checks})", tried)
    else:
        # TRANSLATORS: an exercise's counts: students who tried it, how many of them solved it; {checks}: "4 checks".
        said = ngettext("{n} student tried, {solved} solved ({checks})",
                        "{n} students tried, {solved} solved ({checks})", tried)
    return said.format(n=tried, solved=solved, checks=checked)


def _students(n: int) -> str:
    return ngettext("{n} student", "{n} students", n).format(n=n)


def _other_wrong(more: int, times: int) -> str:
    """The wrong answers left out, in the plain-text report: "3 other wrong answers, 5 times"."""
    given = ngettext("{n} time", "{n} times", times).format(n=times)
    # TRANSLATORS: wrong answers not listed in the plain-text report; {times} is "5 times" (its own plural).
    return ngettext("{n} other wrong answer, {times}", "{n} other wrong answers, {times}", more).format(
        n=more, times=given)


def _printable(text: str) -> str:
    """``text`` with control characters shown as escapes (for a terminal)."""
    return "".join(repr(ch)[1:-1] if unicodedata.category(ch).startswith("C") else ch for ch in text)


def answers_text(rows: Any) -> str:
    """The answers per exercise as plain text, from ``Progress.rows``; each response after the name
    of who sent it."""
    lines = []
    not_kept = _("(not kept)")
    for ex, shown, (more, times), responses, more_responses in _per_exercise(rows):
        lines.append(f"{_printable(ex['lesson'])} / {_printable(ex['exercise'])}: {ex['summary']}")
        for a in shown:
            answer = repr(_printable(a["answer"])) if a["answer"] else not_kept
            lines.append(f"  {_kind(a['right']):8}  {answer}  x{a['times']} ({_students(a['students'])})")
        if more:
            lines.append(f"  ... {_other_wrong(more, times)}")
        for r in responses:
            answer = repr(_printable(r["answer"])) if r["answer"] else not_kept
            again = f"  x{r['times']}" if r["times"] > 1 else ""
            lines.append(f"  response  {_printable(r['student'])}: {answer}{again}")
        if more_responses:
            others = ngettext("{n} other response", "{n} other responses", more_responses).format(n=more_responses)
            lines.append(f"  ... {others}")
    return "\n".join(lines) or _("No checks recorded yet.")


def table_text(table: Any) -> str:
    """A polars frame as an aligned plain-text table: a header, a rule, a row a line (no types, no
    frame); numbers right-aligned, text made printable, nulls blank."""
    def text(value: Any) -> str:
        return "" if value is None else _printable(str(value))

    cells = [list(table.columns), *([text(v) for v in row] for row in table.iter_rows())]
    widths = [max(len(row[i]) for row in cells) for i in range(len(table.columns))]
    numeric = [table.schema[c].is_numeric() for c in table.columns]
    lines = ["  ".join((v.rjust(w) if num and n else v.ljust(w)) for v, w, num in zip(row, widths, numeric,
                                                                                        strict=True)).rstrip()
             for n, row in enumerate(cells)]
    lines.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(lines)


def students_text(table: Any) -> str:
    """``report_table`` as plain text: solved yes, no, or sent (a response)."""
    import polars as pl

    solved = pl.col("solved")
    return table_text(table.with_columns(
        pl.when(solved.is_null()).then(pl.lit("sent")).when(solved).then(pl.lit("yes")).otherwise(pl.lit("no"))
        .alias("solved")))


def answers_html(rows: Any) -> str:
    """The answers per exercise as HTML (every name and answer escaped); the responses, each by who sent it."""
    e = html.escape
    said = {key: e(text) for key, text in (
        ("title", _("Answers per exercise")), ("not_kept", _("(not kept)")),
        ("answer", pgettext("table column", "answer")), ("times", pgettext("table column", "times")),
        ("students", pgettext("table column", "students")), ("student", pgettext("table column", "student")),
        ("response", pgettext("table column", "response")))}
    parts = [f"<section class='rl-answers'><h2>{said['title']}</h2>"]
    for ex, shown, (more, times), responses, more_responses in _per_exercise(rows):
        parts.append(f"<div class='rl-exercise-answers'><h3>{e(ex['lesson'])} &middot; {e(ex['exercise'])}</h3>"
                     f"<p class='rl-counts'>{e(ex['summary'])}</p>")
        if shown:
            parts.append(f"<table border='1'><tr><th>{said['answer']}</th><th></th><th>{said['times']}</th>"
                         f"<th>{said['students']}</th></tr>")
            for a in shown:
                answer = f"<code>{e(a['answer'])}</code>" if a["answer"] else f"<i>{said['not_kept']}</i>"
                kind = _kind(a["right"])
                kind_shown = e(pgettext("answer kind", KINDS[kind]))
                parts.append(f"<tr class='rl-{kind}'><td>{answer}</td><td>{kind_shown}</td><td>{a['times']}</td>"
                             f"<td>{a['students']}</td></tr>")
            parts.append("</table>")
        if more:
            given = ngettext("{n} time", "{n} times", times).format(n=times)
            # TRANSLATORS: wrong answers not listed on the teacher page; {times} is "5 times" (its own plural).
            others = ngettext("… and {n} other wrong answer, given {times}.",
                              "… and {n} other wrong answers, given {times}.", more).format(n=more, times=given)
            parts.append(f"<p>{e(others)}</p>")
        if responses:
            parts.append(f"<table border='1' class='rl-responses'><tr><th>{said['student']}</th>"
                         f"<th>{said['response']}</th></tr>")
            for r in responses:
                answer = f"<code>{e(r['answer'])}</code>" if r["answer"] else f"<i>{said['not_kept']}</i>"
                sent = e(ngettext("(sent {n} time)", "(sent {n} times)", r["times"]).format(n=r["times"]))
                again = f" <small>{sent}</small>" if r["times"] > 1 else ""
                parts.append(f"<tr class='rl-response'><td>{e(r['student'])}</td><td>{answer}{again}</td></tr>")
            parts.append("</table>")
        if more_responses:
            others = ngettext("… and {n} other response.", "… and {n} other responses.",
                              more_responses).format(n=more_responses)
            parts.append(f"<p>{e(others)}</p>")
        parts.append("</div>")
    return "".join(parts) + "</section>"
