"""The teacher's key: every exercise of a folder of lessons with its answer, why, a hint and the
common wrong answers, built by running the lessons (an exercise is defined where it is asked)."""

from __future__ import annotations

import html
from collections.abc import Iterator
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from ..i18n import _, html_lang
from .exercises import ASKED, EXERCISES, SOURCES, Exercise, verdict


@dataclass(frozen=True)
class VariantKey:
    """One variant of a variant exercise in the key: its question and answer, or why it fails."""

    number: int
    prompt: str = ""
    answer: str = ""
    explanation: str = ""
    mistakes: dict[str, str] = field(default_factory=dict)
    answer_accepted: bool = True
    unexplained: tuple[str, ...] = ()
    error: str = ""
    """Why this variant cannot be asked (the preflight fails the lesson); "" when it can."""


@dataclass(frozen=True)
class KeyEntry:
    """One exercise in the teacher's key (answers as a student would type them)."""

    name: str
    lesson: str
    prompt: str
    answer: str
    kind: str
    explanation: str
    hint: str
    mistakes: dict[str, str]
    answer_accepted: bool = True
    """The check takes the answer typed as shown (the preflight fails a lesson where it does not)."""
    unexplained: tuple[str, ...] = ()
    """Listed mistakes whose check does not give their explanation."""
    skill: str = ""
    variants: tuple[VariantKey, ...] = ()
    """Every variant of a variant exercise (its prompt and answer above are the class's first)."""


def _judged(ex: Exercise) -> dict[str, Any]:
    """An exercise (or a variant) as the key has it: its answer and mistakes as typed, and whether
    each, checked as a student types it, gets its verdict and explanation."""
    from .boxes import from_text

    mistakes = {ex.kind.show(wrong): why for wrong, why in ex.mistakes.items()}
    return {"prompt": ex.prompt, "answer": ex.shown, "explanation": ex.explain, "mistakes": mistakes,
            "answer_accepted": verdict(ex, from_text(ex.kind.typed(ex.answer)))[0].right is True,
            "unexplained": [typed for typed, why in mistakes.items() if verdict(ex, from_text(typed))[0].why != why]}


def _variant_keys(name: str) -> list[dict[str, Any]]:
    """Every variant of the variant exercise ``name``, judged (or the error that stops one)."""
    from .variants import VARIANTS

    found = []
    for number in range(VARIANTS):
        try:
            built = SOURCES[name].build(number)
            found.append({"number": number, "kind": built.kind.name, **_judged(built)})
        except ValueError as exc:
            found.append({"number": number, "error": str(exc)})
    return found


def lesson_report() -> dict[str, Any]:
    """What this kernel's lesson defined and used (run in the kernel after the last cell): its
    exercises, each right answer and mistake checked as typed, undefined exercises it checked,
    and the widgets alive (model module and name)."""
    entries = []
    for ex in EXERCISES.values():
        entries.append({"name": ex.name, "lesson": ex.lesson, "kind": ex.kind.name, "hint": ex.hint,
                        "typed": ex.kind.typed(ex.answer), "skill": ex.skill, **_judged(ex),
                        "variants": _variant_keys(ex.name) if ex.name in SOURCES else []})
    return {"exercises": entries, "undefined": sorted(ASKED), "widgets": _widgets()}


IPYWIDGETS_TESTED = ">=8,<9"
"""The ipywidgets versions whose private ``widget._instances`` (every live widget) ``_widgets`` reads:
pyproject's pin (a test holds the two together)."""


def _widgets() -> list[list[str]]:
    """Every live widget's (model module, model name), for the preflight: read from ipywidgets'
    private registry, refused by name on a version outside ``IPYWIDGETS_TESTED``."""
    try:
        import ipywidgets
        from ipywidgets.widgets import widget
    except ImportError:  # pragma: no cover - ipywidgets is a dependency
        return []
    if not ipywidgets.__version__.startswith("8.") or not hasattr(widget, "_instances"):
        raise ValueError(f"ipywidgets {ipywidgets.__version__} has no widget._instances as the versions "
                         f"{IPYWIDGETS_TESTED} rummylab was tested with: the preflight cannot list a lesson's widgets")
    alive = {(w._model_module, w._model_name) for w in list(widget._instances.values())}
    return sorted([module, name] for module, name in alive)


def _variant(v: dict[str, Any]) -> VariantKey:
    v = {k: x for k, x in v.items() if k != "kind"}  # the preflight's: every variant has the exercise's kind
    return VariantKey(**{**v, "mistakes": dict(v.get("mistakes", {})), "unexplained": tuple(v.get("unexplained", ()))})


def entries(report: dict[str, Any]) -> list[KeyEntry]:
    """The key entries of one lesson run's report."""
    return [KeyEntry(e["name"], e["lesson"], e["prompt"], e["answer"], e["kind"], e["explanation"], e["hint"],
                     dict(e["mistakes"]), bool(e["answer_accepted"]), tuple(e["unexplained"]), e.get("skill", ""),
                     tuple(_variant(v) for v in e.get("variants", [])))
            for e in report.get("exercises", [])]


def key(folder: Path | str | None = None, lesson: str | None = None, sample: int = 300) -> list[KeyEntry]:
    """The key of the lessons in ``folder`` (default: the packaged ones), or of one ``lesson``
    (a name such as ``02`` or ``02-melds-and-deadwood``): each lesson is run, small (``sample``
    hands where it samples), to read its exercises. ValueError for a lesson that fails to run."""
    from .files import lessons_dir
    from .runner import lessons_in

    paths = lessons_in(folder or lessons_dir())
    if lesson is not None:
        paths = [p for p in paths if p.stem == lesson or p.stem.startswith(f"{lesson}-") or p.name == lesson]
        if not paths:
            raise ValueError(f"--lesson {lesson}: no such lesson in {folder or 'the packaged lessons'}")
    found: list[KeyEntry] = []
    for _path, of_lesson in key_runs(paths, sample):
        if isinstance(of_lesson, ValueError):
            raise of_lesson
        found += of_lesson
    return found


def key_runs(paths: list[Path], sample: int = 300) -> Iterator[tuple[Path, list[KeyEntry] | ValueError]]:
    """Each lesson of ``paths`` run in one kernel, in turn: (its path, its key entries), or a
    ValueError saying why it did not run to its end."""
    from .runner import kernel, run_lesson

    with kernel() as client:
        for path in paths:
            run = run_lesson(client, path, {"RUMMYLAB_N": str(sample)})
            if not run.report:
                yield path, ValueError(f"{path.name} did not run to its end: "
                                       f"{run.errors[0] if run.errors else 'no report'}")
            else:
                yield path, entries(run.report)


def entries_json(found: list[KeyEntry]) -> list[dict[str, Any]]:
    """Key entries as JSON-able dicts (``entries_from_json`` reads them back)."""
    return [asdict(e) for e in found]


def entries_from_json(data: list[dict[str, Any]]) -> list[KeyEntry]:
    """Key entries from ``entries_json``."""
    return [KeyEntry(**{**e, "mistakes": dict(e["mistakes"]), "unexplained": tuple(e["unexplained"]),
                        "variants": tuple(_variant(v) for v in e.get("variants", []))}) for e in data]


def for_student(found: list[KeyEntry], student: str, attempts: dict[str, dict[str, int]] | None = None
                ) -> list[KeyEntry]:
    """The key as ``student`` meets it now: each variant exercise's entry is her current variant
    (``attempts``: per lesson and exercise, the variants she answered right, as the store counts
    them; none: her first)."""
    from .variants import variant_number

    out = []
    for e in found:
        if not e.variants:
            out.append(e)
            continue
        number = variant_number(e.lesson, e.name, student, (attempts or {}).get(e.lesson, {}).get(e.name, 0))
        v = next(v for v in e.variants if v.number == number)
        out.append(KeyEntry(e.name, e.lesson, v.prompt or v.error, v.answer, e.kind, v.explanation, e.hint,
                            dict(v.mistakes), v.answer_accepted, v.unexplained, e.skill, (v,)))
    return out


def _variant_note(e: KeyEntry) -> str:
    if not e.variants:
        return ""
    if len(e.variants) == 1:
        return " " + _("(variant {n})").format(n=e.variants[0].number)
    return " " + _("({n} variants, each student her own: the class's first shown)").format(n=len(e.variants))


def key_text(found: list[KeyEntry]) -> str:
    """The answer key as plain text."""
    out = []
    said = {"q": _("Q: {prompt}"), "a": _("A: {answer}"), "why": _("Why: {why}"), "hint": _("Hint: {hint}"),
            "says": _("If a student says {typed}: {why}")}
    for e in found:
        block = [f"[{e.lesson}] {e.name}{_variant_note(e)}", "  " + said["q"].format(prompt=e.prompt),
                 "  " + said["a"].format(answer=e.answer)]
        block += ["  " + said["why"].format(why=e.explanation)] if e.explanation else []
        block += ["  " + said["hint"].format(hint=e.hint)] if e.hint else []
        block += ["  " + said["says"].format(typed=typed, why=why) for typed, why in e.mistakes.items()]
        out.append("\n".join(block))
    return "\n\n".join(out) if out else _("No exercises: these lessons define none (lessons.exercise).")


def key_html(found: list[KeyEntry]) -> str:
    """The answer key as a standalone HTML page (no scripts, nothing fetched)."""
    esc = html.escape
    said = {k: esc(v) for k, v in (("answer", _("Answer:")), ("why", _("Why:")), ("hint", _("Hint:")),
                                   ("wrong", _("Common wrong answers:")), ("title", _("rummylab: the teacher's key")))}
    rows = []
    for e in found:
        wrong = "".join(f"<li><b>{esc(typed)}</b>: {esc(why)}</li>" for typed, why in e.mistakes.items())
        rows.append(f"<section><h2>{esc(e.lesson)} · {esc(e.name)}{esc(_variant_note(e))}</h2>"
                    f"<p>{esc(e.prompt)}</p><p><b>{said['answer']}</b> {esc(e.answer)}</p>"
                    + (f"<p><b>{said['why']}</b> {esc(e.explanation)}</p>" if e.explanation else "")
                    + (f"<p><b>{said['hint']}</b> {esc(e.hint)}</p>" if e.hint else "")
                    + (f"<p>{said['wrong']}</p><ul>{wrong}</ul>" if wrong else "") + "</section>")
    lang = esc(html_lang())
    return (f"<!doctype html><html lang='{lang}'><head><meta charset='utf-8'><title>{said['title']}</title>"
            "<style>body{font-family:sans-serif;max-width:50em;margin:auto}section{border-top:1px solid #ccc}</style>"
            f"</head><body><h1>{said['title']}</h1>" + "".join(rows) + "</body></html>")
