"""The gradebook from ``Progress.rows``: one row a student, one column an exercise, each cell solved,
tried (not solved), sent (a response) or not tried, and one column a skill (mastered, or her
streak: ``mastery``); as HTML tables for the teacher page and as a CSV that Canvas's and Moodle's
gradebook imports take (docs/gradebook.md)."""

from __future__ import annotations

import csv
import html
import io
from dataclasses import dataclass, field
from typing import Any

from .mastery import STREAK, SkillState, skill_states
from .report import person
from .words import _, ngettext, pgettext

SOLVED, TRIED, SENT = "solved", "tried", "sent"
"""A cell's state: any right answer; only wrong ones; only responses (neither right nor wrong)."""
TITLE_MAX = 200
"""Characters of the last answer shown in a cell's tooltip."""
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
"""A CSV cell starting with one of these is read as a formula by a spreadsheet: a name is quoted."""


@dataclass(frozen=True)
class Cell:
    """What one student did in one exercise: ``state``, her checks, her last answer."""

    state: str
    attempts: int
    last: str | None


@dataclass
class Student:
    """A gradebook row: ``login`` (her hub user, else the name she typed) counts her checks;
    ``name`` is the name she typed last; ``cells`` by (lesson, exercise)."""

    login: str
    name: str
    cells: dict[tuple[str, str], Cell] = field(default_factory=dict)
    skills: dict[str, SkillState] = field(default_factory=dict)

    @property
    def shown(self) -> str:
        """Her name as the teacher reads it: "Bea (student02)" where the name she typed is not her login."""
        return self.name if self.name == self.login else f"{self.name} ({self.login})"

    def count(self, *states: str) -> int:
        """Her exercises in any of ``states``."""
        return sum(cell.state in states for cell in self.cells.values())


@dataclass
class Gradebook:
    """``exercises`` (lesson, exercise) by lesson, then in the order the class first checked them;
    ``graded`` those with a right or wrong answer (not only responses); ``students`` by login."""

    exercises: list[tuple[str, str]]
    graded: list[tuple[str, str]]
    students: list[Student]
    skills: list[str] = field(default_factory=list)
    """The skills the exercises checked name, sorted."""


def gradebook_of(rows: Any) -> Gradebook:
    """The gradebook of ``Progress.rows`` (already filtered to a lesson or a class)."""
    import polars as pl

    if not rows.height:
        return Gradebook([], [], [])
    rows = rows.with_columns(person().alias("_who")).sort("at", maintain_order=True)
    order = (rows.group_by("lesson", "exercise")
             .agg(pl.col("at").min().alias("first"), pl.col("right").is_not_null().any().alias("graded"))
             .sort("lesson", "first", "exercise"))
    graded_answer = pl.col("answer").filter(pl.col("right").is_not_null())
    cells = (rows.group_by("_who", "lesson", "exercise", maintain_order=True)
             .agg(pl.col("right").any().alias("right"), pl.col("right").is_not_null().sum().alias("graded"),
                  pl.len().alias("checks"), graded_answer.last().alias("last_graded"),
                  pl.col("answer").last().alias("last")))
    names = rows.group_by("_who", maintain_order=True).agg(pl.col("student").last())
    students = {who: Student(who, name) for who, name in names.iter_rows()}
    for who, lesson, exercise, right, graded, checks, last_graded, last in cells.iter_rows():
        cell = (Cell(SOLVED if right else TRIED, graded, last_graded) if graded else Cell(SENT, checks, last))
        students[who].cells[(lesson, exercise)] = cell
    skilled = rows.filter(pl.col("skill").is_not_null() & pl.col("right").is_not_null())
    for who, part in skilled.group_by("_who", maintain_order=True):
        students[str(who[0])].skills = skill_states(part.select("skill", "lesson", "exercise", "variant", "right")
                                                    .iter_rows())
    return Gradebook(exercises=[(le, ex) for le, ex in order.select("lesson", "exercise").iter_rows()],
                     graded=[(le, ex) for le, ex, g in order.select("lesson", "exercise", "graded").iter_rows() if g],
                     students=sorted(students.values(), key=lambda s: (s.login.casefold(), s.login)),
                     skills=sorted(skilled["skill"].unique().to_list()))


STYLE = (".rl-gradebook{border-collapse:collapse}.rl-gradebook th,.rl-gradebook td{border:1px solid #cfd8dc;"
         "padding:2px 6px}.rl-gradebook td{text-align:center;white-space:nowrap}"
         ".rl-gradebook tbody th{text-align:left;font-weight:normal}"
         ".rl-solved{background:#c8e6c9;color:#1b5e20}.rl-tried{background:#ffe0b2;color:#e65100}"
         ".rl-sent{background:#eceff1;color:#546e7a}.rl-legend span{padding:1px 6px}"
         ".rl-legend .rl-none{border:1px solid #cfd8dc}.rl-scroll{overflow-x:auto;margin-bottom:1em}"
         ".rl-gradebook tbody th{position:sticky;left:0;background:#fff}")
"""The gradebook's colours: solved green, tried orange, sent grey, not tried blank."""

_MARK = {SOLVED: "\u2714", TRIED: "\u2718"}


def _not_tried() -> str:
    """An empty cell: nothing tried, said in its tooltip."""
    title = html.escape(_("not tried"))
    return f"<td class='rl-none' title='{title}'></td>"


def _cell_html(cell: Cell | None) -> str:
    """A gradebook cell: its state as a class, its checks ("✔ 2", "✘ 3", "sent"), its last answer as a tooltip."""
    if cell is None:
        return _not_tried()
    last = cell.last if cell.last is not None else _("(not kept)")
    if len(last) > TITLE_MAX:
        last = last[:TITLE_MAX] + "\u2026"
    n = cell.attempts
    if cell.state == SOLVED:
        # TRANSLATORS: a gradebook cell's tooltip; {last} is the student's last answer as she typed it.
        said = ngettext("solved, {n} check; last answer: {last}", "solved, {n} checks; last answer: {last}", n)
    elif cell.state == TRIED:
        # TRANSLATORS: a gradebook cell's tooltip; {last} is the student's last answer as she typed it.
        said = ngettext("not solved, {n} check; last answer: {last}", "not solved, {n} checks; last answer: {last}", n)
    else:
        # TRANSLATORS: a gradebook cell's tooltip (a free response); {last} is the student's last response.
        said = ngettext("a response, {n} check; last answer: {last}", "a response, {n} checks; last answer: {last}", n)
    title = html.escape(said.format(n=n, last=last))
    text = (html.escape(pgettext("gradebook cell", "sent")) if cell.state == SENT
            else f"{_MARK[cell.state]} {cell.attempts}")
    return f"<td class='rl-{cell.state}' title='{title}'>{text}</td>"


def gradebook_html(book: Gradebook, csv_link: str | None = None) -> str:
    """The gradebook as an HTML section (every name, exercise and answer escaped): a row a student,
    the exercises under their lesson; ``csv_link``, where its CSV is downloaded."""
    e = html.escape
    said = {key: e(text) for key, text in (
        ("title", _("Gradebook")), ("none", _("No checks recorded yet.")), ("download", _("Download CSV")),
        # TRANSLATORS: {link} is the link "Download CSV"; the gradebook's CSV file, for a school's gradebook import.
        ("csv", _("{link} (a row a student, a column an exercise: 1 solved, 0 tried; for a school's gradebook)")),
        ("solved", pgettext("gradebook legend", "solved")),
        ("tried", pgettext("gradebook legend", "tried, not solved")),
        ("sent", pgettext("gradebook legend", "sent: a response")),
        ("blank", pgettext("gradebook legend", "blank: not tried")),
        ("number", _("the number: her checks; point at a cell for her last answer")),
        ("student", pgettext("table column", "student")), ("solved_n", pgettext("gradebook column", "solved")),
        ("tried_n", pgettext("gradebook column", "tried")))}
    link = f"<a href='{e(csv_link)}' download>{said['download']}</a>" if csv_link else ""
    download = f"<p class='rl-download'>{said['csv'].format(link=link)}</p>" if csv_link else ""
    legend = (f"<p class='rl-legend'><span class='rl-solved'>\u2714 {said['solved']}</span> "
              f"<span class='rl-tried'>\u2718 {said['tried']}</span> <span class='rl-sent'>{said['sent']}</span> "
              f"<span class='rl-none'>{said['blank']}</span> &middot; {said['number']}</p>")
    if not book.students:
        return (f"<section class='rl-gradebook-section'><h2>{said['title']}</h2><p>{said['none']}</p>"
                f"{download}</section>")
    lessons: list[tuple[str, int]] = []
    for lesson, _exercise in book.exercises:
        if lessons and lessons[-1][0] == lesson:
            lessons[-1] = (lesson, lessons[-1][1] + 1)
        else:
            lessons.append((lesson, 1))
    head = (f"<thead><tr><th rowspan='2' scope='col'>{said['student']}</th>"
            + "".join(f"<th colspan='{n}' scope='colgroup'>{e(lesson)}</th>" for lesson, n in lessons)
            + f"<th rowspan='2' scope='col'>{said['solved_n']}</th><th rowspan='2' scope='col'>{said['tried_n']}</th>"
            "</tr><tr>"
            + "".join(f"<th scope='col'>{e(exercise)}</th>" for _lesson, exercise in book.exercises) + "</tr></thead>")
    body = "".join(
        f"<tr><th scope='row'>{e(s.shown)}</th>"
        + "".join(_cell_html(s.cells.get(key)) for key in book.exercises)
        + f"<td>{s.count(SOLVED)}</td><td>{s.count(SOLVED, TRIED)}</td></tr>" for s in book.students)
    return (f"<section class='rl-gradebook-section'><h2>{said['title']}</h2>{download}{legend}<div class='rl-scroll'>"
            f"<table class='rl-students rl-gradebook'>{head}<tbody>{body}</tbody></table></div>"
            f"{skills_html(book)}</section>")


def _skill_cell(state: SkillState | None) -> str:
    if state is None:
        return _not_tried()
    # TRANSLATORS: a skill cell's tooltip: her right answers, all her answers, her right answers in a row now.
    title = html.escape(ngettext("{right} right of {n} answer; {streak} in a row now",
                                 "{right} right of {n} answers; {streak} in a row now", state.tried).format(
        right=state.right, n=state.tried, streak=state.streak))
    if state.mastered:
        mastered = html.escape(pgettext("skill", "mastered"))
        return f"<td class='rl-solved' title='{title}'>\u2714 {mastered}</td>"
    # TRANSLATORS: a skill cell: her right answers in a row now, of those that master the skill ("1 of 3").
    so_far = html.escape(_("{streak} of {needed}").format(streak=state.streak, needed=STREAK))
    return f"<td class='rl-tried' title='{title}'>{so_far}</td>"


def skills_html(book: Gradebook) -> str:
    """The students' skills: mastered, or how many right answers in a row so far (``mastery``)."""
    if not book.skills:
        return ""
    e = html.escape
    student, skills = e(pgettext("table column", "student")), e(_("Skills"))
    rule = e(ngettext("A skill is mastered after {needed} right answer in a row, each to a new question (another "
                      "variant or exercise); point at a cell for her answers.",
                      "A skill is mastered after {needed} right answers in a row, each to a new question (another "
                      "variant or exercise); point at a cell for her answers.", STREAK).format(needed=STREAK))
    names = [e(pgettext("skill", k)) for k in book.skills]  # the store keeps the English name
    head = f"<tr><th scope='col'>{student}</th>" + "".join(f"<th scope='col'>{n}</th>" for n in names) + "</tr>"
    body = "".join(f"<tr><th scope='row'>{e(s.shown)}</th>" + "".join(_skill_cell(s.skills.get(k)) for k in book.skills)
                   + "</tr>" for s in book.students)
    return (f"<h3>{skills}</h3><p class='rl-legend'>{rule}</p>"
            f"<div class='rl-scroll'><table class='rl-gradebook rl-skills'><thead>{head}</thead><tbody>{body}</tbody>"
            "</table></div>")


def _safe(text: str) -> str:
    """``text`` as a spreadsheet shows it, never run as a formula ("=1+1" is written "'=1+1")."""
    return "'" + text if text.startswith(FORMULA_START) else text


CSV_FIRST = ("student", "name")
CSV_LAST = ("solved", "tried")


def gradebook_csv(book: Gradebook) -> str:
    """The gradebook as CSV for a school's gradebook import: student (her login on a hub, else the
    name she typed), name (the name she typed), a "lesson/exercise" column for each graded exercise
    (1 solved, 0 tried and not solved, empty not tried; responses left out), a "skill/NAME" column
    for each skill (1 mastered, 0 not yet, empty not tried), solved and tried (counts)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow([*CSV_FIRST, *(f"{lesson}/{exercise}" for lesson, exercise in book.graded),
                     *(f"skill/{k}" for k in book.skills), *CSV_LAST])
    for s in book.students:
        cells = [s.cells.get(key) for key in book.graded]
        skills = [s.skills.get(k) for k in book.skills]
        writer.writerow([_safe(s.login), _safe(s.name),
                         *("" if c is None or c.state == SENT else int(c.state == SOLVED) for c in cells),
                         *("" if k is None else int(k.mastered) for k in skills),
                         s.count(SOLVED), s.count(SOLVED, TRIED)])
    return out.getvalue()
