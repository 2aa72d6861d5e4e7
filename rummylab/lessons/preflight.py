"""The preflight: run every lesson of a folder as the class will (under its defaults and two other
seeds, small), and say per lesson what would go wrong in class: errors, exercises checked but not
defined, answers shipped typed in, right answers the check refuses, mistakes it does not explain,
and widgets the class page cannot draw."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..i18n import _, ngettext
from .exercises import did_you_mean
from .rendered import check_rendered_once
from .runner import LessonRun, cell_label, kernel, lessons_in, run_lesson

CLASS_PAGE = {"RUMMYLAB_SEED": "7", "RUMMYLAB_N": "300", "RUMMYLAB_CHARTS": "svg", "RUMMYLAB_APP": "1"}
"""A small run as ``rummylab serve`` runs a lesson: charts drawn as SVG in the kernel, app mode."""
VARIANTS: list[dict[str, str]] = [{}, CLASS_PAGE, {"RUMMYLAB_SEED": "11", "RUMMYLAB_N": "300"}]
"""The lesson's own defaults, then other seeds with a small sample: no statement may fail by chance."""

TYPED_IN = re.compile(r"^\s*answer\s*=(?!\s*\.\.\.\s*(?:#.*)?$)\s*(.+)$", re.M)
CORE_MODULES = ("@jupyter-widgets/controls", "@jupyter-widgets/base", "@jupyter-widgets/output")


@dataclass
class Verdict:
    """What the preflight found in one lesson; ``ok`` when nothing would go wrong in class."""

    lesson: str
    problems: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    exercises: list[str] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def ok(self) -> bool:
        return not self.problems

    def __str__(self) -> str:
        mark = "ok  " if self.ok else "FAIL"
        head = f"{mark} {self.lesson} " + _("({seconds} s; exercises: {exercises})").format(
            seconds=f"{self.seconds:.0f}", exercises=", ".join(self.exercises) or _("none"))
        return "\n".join([head, *(f"  ✘ {p}" for p in self.problems), *(f"  · {n}" for n in self.notes)])


def typed_in(nb: Any) -> list[str]:
    """Answers a lesson ships filled in (``answer = 52`` where ``answer = ...`` belongs)."""
    found = []
    for i, cell in enumerate(nb.cells):
        if cell.cell_type == "code" and "check(" in cell.source:
            found += [f"{cell_label(nb.cells, i)}: answer = {m.group(1).strip()}"
                      for m in TYPED_IN.finditer(cell.source)]
    return found


def page_models() -> set[str]:
    """The widget models the light class page draws (its renderers, e.g. ``IntSliderModel(view)``)
    or keeps without a view (jslink's ``LinkModel(manager, model)``)."""
    from ..page_template import APP

    names: set[str] = set()
    drawn = re.compile(r"^\s*(?:async\s+)?(\w+Model)\s*\(\s*(?:view|manager)\b", re.M)
    for script in (APP / "static").glob("*.js"):
        names |= set(drawn.findall(script.read_text(encoding="utf-8")))
    return names


def judge(runs: list[LessonRun]) -> Verdict:
    """One lesson's verdict from its runs (the first under the lesson's defaults)."""
    first = runs[0]
    verdict = Verdict(first.path.stem, seconds=sum(r.seconds for r in runs))
    verdict.problems += errors(runs)
    report = first.report
    verdict.exercises = [e["name"] for e in report.get("exercises", [])]
    verdict.problems += undefined(first)
    shipped = _("an answer is shipped typed in ({typed}): exercises ship blank, answer = ...")
    verdict.problems += [shipped.format(typed=t) for t in typed_in(first.notebook)]
    verdict.problems += check_rendered_once(first.notebook.cells)
    for e in report.get("exercises", []):
        if not e["answer_accepted"]:
            verdict.problems.append(_("{exercise}: the right answer typed as {typed} is marked wrong").format(
                exercise=e["name"], typed=repr(e["typed"])))
        verdict.problems += [_("{exercise}: the mistake {typed} does not get its explanation").format(
            exercise=e["name"], typed=repr(t)) for t in e["unexplained"]]
        verdict.problems += variant_problems(e)
        if e.get("variants"):
            verdict.notes.append(_("{exercise}: {n} variants checked").format(exercise=e["name"], n=len(e["variants"])))
    drawn = page_models()
    for module, model in report.get("widgets", []):
        if module in CORE_MODULES or module == "anywidget":
            if model not in drawn and model != "LayoutModel" and not model.endswith("StyleModel"):
                verdict.problems.append(_("the class page cannot draw the widget {model}").format(model=model))
        elif not module.startswith("rummylab"):
            verdict.notes.append(_("the widget {model} ({module}) has a front end of its own: the lesson is served "
                                   "with Voilà's own page").format(model=model, module=module))
    return verdict


SHOWN_VARIANTS = 3
"""Variants whose problems are listed one by one; the rest are counted."""


def variant_problems(entry: dict[str, Any]) -> list[str]:
    """What is wrong with any variant of a variant exercise (the key report's ``variants``): one
    that cannot be made or asked, a right answer refused, a mistake not explained."""
    found = []
    for v in entry.get("variants", []):
        what = _("{exercise} variant {n}").format(exercise=entry["name"], n=v["number"])
        if v.get("error"):
            found.append(f"{what}: {v['error']}")
            continue
        if "kind" in entry and v.get("kind", entry["kind"]) != entry["kind"]:
            found.append(_("{what}: its answer {answer} is read as {kind}, the exercise's as {kinds}: give every "
                           "variant's answer the same kind (kind=…)").format(what=what, answer=repr(v["answer"]),
                                                                           kind=v["kind"], kinds=entry["kind"]))
            continue
        if not v["answer_accepted"]:
            found.append(_("{what}: the right answer {answer} is marked wrong").format(what=what,
                                                                                      answer=repr(v["answer"])))
        found += [_("{exercise}: the mistake {typed} does not get its explanation").format(exercise=what, typed=repr(t))
                  for t in v["unexplained"]]
    if len(found) > SHOWN_VARIANTS:
        found = found[:SHOWN_VARIANTS] + [_("{exercise}: and {n} more problems in its variants").format(
            exercise=entry["name"], n=len(found) - SHOWN_VARIANTS)]
    return found


def _settings(run: LessonRun) -> str:
    return ", ".join(f"{k}={v}" for k, v in run.env.items() if k != "RUMMYLAB_LESSON") or _("its defaults")


def errors(runs: list[LessonRun]) -> list[str]:
    """The runs' errors, each said once with the settings it happened under ("every setting" when
    all), and the runs that stopped short without one."""
    under: dict[str, list[str]] = {}
    for run in runs:
        for e in run.errors:
            under.setdefault(str(e), []).append(_settings(run))
    said = [_("under {settings}: {error}").format(
        settings=_("every setting") if len(runs) > 1 and len(where) == len(runs) else _(" and ").join(where), error=e)
        for e, where in under.items()]
    return said + [_("under {settings}: the lesson did not run to its end").format(settings=_settings(run))
                   for run in runs if not run.report and not run.errors]


def _naming(nb: Any, name: str) -> list[int]:
    """The code cells whose source names ``name`` in quotes."""
    quoted = re.compile(rf"""(['"]){re.escape(name)}\1""")
    return [i for i, c in enumerate(nb.cells) if c.cell_type == "code" and quoted.search(c.source)]


def undefined(run: LessonRun) -> list[str]:
    """Exercises the run checked but never defined, with the cell that names each and the defined
    names it is closest to; not those named in a cell that raised (that error, said already, is why)."""
    failed, defined = {e.cell for e in run.errors}, [e["name"] for e in run.report.get("exercises", [])]
    found = []
    for name in run.report.get("undefined", []):
        cells = _naming(run.notebook, name)
        if failed & set(cells):
            continue
        where = f" in {cell_label(run.notebook.cells, cells[0])}" if cells else ""
        found.append(f"check({name!r}){where}, but no exercise {name!r} is defined (lessons.exercise)"
                     + did_you_mean(name, defined))
    return found


def untranslated_note(path: Path) -> list[str]:
    """A lesson built in another language (``rummylab lessons translate``) with strings its catalog does
    not translate yet: how many, shown in English in class."""
    import json

    meta = json.loads(Path(path).read_text(encoding="utf-8")).get("metadata", {}).get("rummylab", {})
    missing = meta.get("untranslated", 0)
    if not missing:
        return []
    return [ngettext("{n} of its strings has no {lang} translation yet: it shows in English (rummylab lessons "
                     "catalog; docs/translating.md)",
                     "{n} of its strings have no {lang} translation yet: they show in English (rummylab lessons "
                     "catalog; docs/translating.md)", missing).format(n=missing, lang=meta.get("lang"))]


def preflight(folder: Path | str, variants: list[dict[str, str]] | None = None,
              progress: Any = None) -> list[Verdict]:
    """Run every lesson in ``folder`` under each of ``variants`` (default ``VARIANTS``) and judge it;
    ``progress(verdict)`` is called as each lesson is done."""
    verdicts = []
    with kernel() as client:
        for path in lessons_in(folder):
            runs = [run_lesson(client, path, env) for env in (variants or VARIANTS)]
            verdict = judge(runs)
            verdict.notes += untranslated_note(path)
            if progress is not None:
                progress(verdict)
            verdicts.append(verdict)
    return verdicts
