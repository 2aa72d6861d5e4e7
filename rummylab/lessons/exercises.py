"""Exercises defined in the lesson that asks them, and checks that say right or wrong, and why.

``exercise(name, prompt, answer=…)`` checks everything when it is defined (the answer, each
common mistake, the hint), so a lesson that defines its exercises without an error cannot fail
in class. ``check(name, answer)`` reads the answer the way its kind says (cards in any order and
notation, numbers typed as text…), explains a known mistake, and records the check for the
teacher when the class keeps progress.
"""

from __future__ import annotations

import difflib
import html
import os
import re
import sys
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..i18n import N_, _, language, pgettext
from ..progress import ANSWER_MAX
from .kinds import TEXT, YES_NO, AnyKind, in_her_words, kind_of

APP_ENV = "RUMMYLAB_APP"
"""Set (by ``rummylab serve``) in the kernels of a served class: the lesson shows without its code."""
LESSON_ENV = "RUMMYLAB_LESSON"
"""The lesson's name, where the kernel cannot tell which notebook it runs (set by the preflight)."""
UNNAMED = "unnamed lesson"
"""The lesson recorded for an exercise defined where the notebook's name cannot be told."""
NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_\-]{0,59}$")


def in_app() -> bool:
    """True in a served class (app mode: students see outputs, not code)."""
    return os.environ.get(APP_ENV, "") not in ("", "0")


NAME_NOTE = N_("Type your name at the top of the lesson, so this answer counts for your teacher.")
"""Said under an answer checked before the student gave her name; taken away once she gives it."""
EXERCISE_WORD = N_("Exercise.")
"""The word before an exercise's question."""
WHEN_NAMED: list[Callable[[], None]] = []
"""Feedback shown with ``NAME_NOTE``, each a function that redraws it without: called (and
forgotten) when the student gives her name."""


def when_named(redraw: Callable[[], None]) -> None:
    """Call ``redraw`` once the student gives her name (``set_student``)."""
    WHEN_NAMED.append(redraw)


def _named() -> None:
    """Redraw the feedback that asked for the name, now that it is given."""
    waiting = WHEN_NAMED[:]
    WHEN_NAMED.clear()
    for redraw in waiting:
        try:
            redraw()
        except Exception as exc:  # a page gone or a widget closed: the name is set all the same
            _log(f"rummylab: feedback could not be redrawn: {type(exc).__name__}: {exc}")


ANSWER_BOX: list[Callable[..., Any]] = []
"""The answer box a blank check shows (``boxes.answer_box``, which registers itself: the widgets
sit above the checks, so this module does not import them)."""


@dataclass(frozen=True, repr=False)
class Feedback:
    """The verdict on an answer: right, wrong (with why), or None while no answer is written.
    Shown in a notebook or a served lesson, a blank one comes with a box to type the answer in."""

    right: bool | None
    why: str
    exercise: str = ""

    def __bool__(self) -> bool:
        return bool(self.right)

    @property
    def asks_name(self) -> bool:
        """Whether it asks the student for her name (``NAME_NOTE``), which ``named`` takes away."""
        return self.why.endswith(f" ({_(NAME_NOTE)})")

    def named(self) -> Feedback:
        """The feedback once the student gave her name: without ``NAME_NOTE``."""
        return Feedback(self.right, self.why.removesuffix(f" ({_(NAME_NOTE)})"), self.exercise)

    def __str__(self) -> str:
        mark = {True: "✔ " + _("Right.") + " ", False: "✘ " + _("Not quite.") + " ", None: "✎ "}[self.right]
        return mark + self.why

    __repr__ = __str__

    def _repr_html_(self) -> str:
        colour = {True: "#1b5e20", False: "#b71c1c", None: "#37474f"}[self.right]
        return f"<div class='rl-feedback' style='color:{colour}'>{html.escape(str(self))}</div>"

    def _bundle(self) -> dict[str, str]:
        return {"text/plain": str(self), "text/html": self._repr_html_()}

    def _ipython_display_(self) -> None:
        from IPython.display import display

        handle = display(self._bundle(), raw=True, display_id=self.asks_name)
        if handle is not None:  # redrawn without the request once the name is given
            when_named(lambda: handle.update(self.named()._bundle(), raw=True))
        if self.right is None and self.exercise in EXERCISES and ANSWER_BOX:
            display(ANSWER_BOX[0](self.exercise, with_prompt=False))


@dataclass(frozen=True, kw_only=True, repr=False)
class Exercise:
    """A question, its right answer in normal form, why it is right, a hint, and common wrong
    answers (normal form -> what went wrong). Made by ``exercise``, which checks them all."""

    name: str
    prompt: str
    answer: Any
    """The right answer, in the kind's normal form."""
    kind: AnyKind
    explain: str
    hint: str = ""
    mistakes: Mapping[Any, str] = field(default_factory=dict)
    lesson: str = ""
    """The notebook that asks it."""
    variant: int | None = None
    """The variant this is (``variants.VARIANTS`` of them), or None: one question for everyone."""
    skill: str = ""
    """What it practises, in a few words ("count deadwood"): the gradebook's columns."""
    given: str = ""
    """A text answer as the lesson wrote it ("SJ"), shown instead of its normal form ("sj")."""

    @property
    def shown(self) -> str:
        """The right answer as told to a person ("QD or KS" where either card is right; a text as
        the lesson wrote it)."""
        return self.given or self.kind.tell(self.answer)

    def __repr__(self) -> str:
        return f"Exercise({self.name!r})"

    def _repr_html_(self) -> str:
        text = re.sub(r"`([^`]+)`", r"<code>\1</code>", html.escape(self.prompt))  # `AS 2S` as in markdown
        return f"<div class='rl-prompt rl-exercise-prompt'><b>{html.escape(_(EXERCISE_WORD))}</b> {text}</div>"

    def _repr_pretty_(self, printer: Any, cycle: bool) -> None:
        printer.text(f"{_(EXERCISE_WORD)} {self.prompt}")

    def _ipython_display_(self) -> None:
        from IPython.display import display

        if self.variant is not None and PROMPT_VIEW:  # a live prompt: her variant, and the next one
            display(PROMPT_VIEW[0](self.name))
        else:
            display({"text/plain": f"{_(EXERCISE_WORD)} {self.prompt}", "text/html": self._repr_html_()}, raw=True)


@dataclass(frozen=True, kw_only=True)
class Source:
    """A variant exercise as the lesson defines it: ``make`` draws a variant from a generator, and
    each other part is a value or a function of that variant."""

    name: str
    lesson: str
    make: Callable[[Any], Any]
    prompt: Any
    answer: Any
    hint: Any
    mistakes: Any
    explain: Any
    kind: str | None
    skill: str

    def build(self, number: int) -> Exercise:
        """Variant ``number``, checked as ``exercise`` checks a question (ValueError names the
        variant and what is wrong with it)."""
        from .variants import check_number, variant_rng

        number = check_number(number)
        what = f"exercise {self.name!r}, variant {number}"
        try:
            drawn = self.make(variant_rng(self.lesson, self.name, number))
        except Exception as exc:  # a teacher's function may raise anything: say which variant
            raise ValueError(f"{what}: variants raised {type(exc).__name__}: {exc}") from exc

        def part(label: str, value: Any) -> Any:
            if not callable(value):
                return value
            try:
                return value(drawn)
            except Exception as exc:
                raise ValueError(f"{what}: {label} raised {type(exc).__name__}: {exc}") from exc

        return _built(self.name, part("prompt", self.prompt), part("answer", self.answer), hint=part("hint", self.hint),
                      mistakes=part("mistakes", self.mistakes), explain=part("explain", self.explain), kind=self.kind,
                      lesson=self.lesson, variant=number, skill=self.skill, what=what)


EXERCISES: dict[str, Exercise] = {}
"""The exercises defined in this kernel, by name (a variant exercise: the student's variant now)."""
SOURCES: dict[str, Source] = {}
"""The variant exercises defined in this kernel, by name."""
ATTEMPT: dict[str, int] = {}
"""Per variant exercise, the variants the student answered right so far (read from the store
when she is known, counted here after): her variant is ``variant_number(…, attempt)``."""
DONE: set[str] = set()
"""Variant exercises whose variant shown she answered right: *Another one* is offered."""
WATCHERS: dict[str, list[Callable[[Exercise], None]]] = {}
"""Per variant exercise, what redraws it when its variant changes (prompts, answer boxes)."""
PROMPT_VIEW: list[Callable[[str], Any]] = []
"""The live prompt of a variant exercise (``boxes.live_prompt``, which registers itself)."""
_LOADED: list[str | None] = [None]
"""Whose attempts ``ATTEMPT`` holds (read from the store once per student)."""
ASKED: set[str] = set()
"""Names checked in this kernel that no exercise defines (the preflight reports them)."""


def _value(what: str, value: Any) -> Any:
    """A value, or what a zero-argument callable returns; an error names ``what``."""
    if not callable(value):
        return value
    try:
        return value()
    except Exception as exc:  # a teacher's function may raise anything: say which part failed
        raise ValueError(f"{what}: calling it raised {type(exc).__name__}: {exc}") from exc


def exercise(name: str, prompt: Any, *, answer: Any, hint: Any = "", mistakes: Any = None,
             explain: Any = "", kind: str | None = None, lesson: str | None = None,
             variants: Callable[[Any], Any] | None = None, skill: str = "") -> Exercise:
    """Define an exercise in the lesson that asks it, and show its question.

    ``answer`` is the right answer (or a function that computes it); ``kind`` says how answers
    are read and compared ("number", "text", "yes/no", "cards", "any card of", "melds", "one of"),
    inferred from the answer when omitted. ``mistakes`` maps wrong answers, written as a student
    types them, to what went wrong. Everything is checked here: a bad answer, hint or mistake
    raises ``ValueError`` naming it. ``lesson`` is the notebook's name unless given.

    With ``variants`` (a function of a ``numpy.random.Generator`` that draws one variant: a hand,
    a deal…), each student gets her own variant (``lessons.variants``), and ``prompt``,
    ``answer``, ``hint``, ``mistakes`` and ``explain`` may each be a function of the variant.
    ``skill`` names what the exercise practises, for the gradebook."""
    if not isinstance(name, str) or not NAME.match(name):
        raise ValueError(f"exercise name {name!r}: letters, digits, _ or -, starting with a letter, at most 60")
    if not isinstance(skill, str) or len(skill) > 60:
        raise ValueError(f"exercise {name!r}: skill {skill!r} names what it practises, in at most 60 characters")
    if answer is ...:
        raise ValueError(f"exercise {name!r}: answer is ...; give the right answer (or a function that computes it)")
    lesson = lesson if lesson is not None else current_lesson()
    if variants is None:
        ex = _built(name, prompt, _value(f"exercise {name!r}: answer", answer), hint=hint, mistakes=mistakes,
                    explain=_value(f"exercise {name!r}: explain", explain), kind=kind, lesson=lesson,
                    skill=skill.strip(), what=f"exercise {name!r}")
        SOURCES.pop(name, None)
    else:
        if not callable(variants):
            raise ValueError(f"exercise {name!r}: variants must be a function of a random generator, "
                             f"not {type(variants).__name__}")
        source = Source(name=name, lesson=lesson, make=variants, prompt=prompt, answer=answer, hint=hint,
                        mistakes=mistakes, explain=explain, kind=kind, skill=skill.strip())
        ex = source.build(_number(source))
        SOURCES[name] = source
        DONE.discard(name)
    EXERCISES[name] = ex
    ASKED.discard(name)
    return ex


def localized(lesson: str, text: Any) -> Any:
    """A lesson's words in the language in use: a text from the lesson's catalog (context: the
    lesson's name), or a teacher's own ``{"en": …, "hi": …}`` in the language there is, else English."""
    if isinstance(text, Mapping) and text and all(isinstance(k, str) and len(k) <= 5 for k in text):
        return text.get(language(), text.get("en", next(iter(text.values()))))
    if isinstance(text, str) and text.strip():
        return pgettext(lesson, text)
    return text


def say(text: Any, /, **fields: Any) -> str:
    """A lesson's own sentence in the student's language (from the lesson's catalog, as ``exercise``'s
    words), its ``{fields}`` filled in: ``say("Cut {card}: every {rank} is wild.", card=…, rank=…)``."""
    words = localized(current_lesson(), text)
    return str(words).format(**fields) if fields else str(words)


def words(*texts: str) -> frozenset[str]:
    """The answers a student may type for ``texts`` (a lesson's words, "knocker", "pure sequence"):
    each in English and in every language with a catalog, lower case. The class's server grades
    with the same set whatever language the student reads (it may run in another)."""
    from ..i18n import languages, using

    lesson, out = current_lesson(), set()
    for text in texts:
        out.add(text.lower())
        for lang in languages():
            with using(lang):
                out.add(pgettext(lesson, text).lower())
    return frozenset(out)


def _built(name: str, prompt: Any, value: Any, *, hint: Any, mistakes: Any, explain: Any, kind: str | None,
           lesson: str, skill: str, what: str, variant: int | None = None) -> Exercise:
    """One question from its parts' values, each checked (ValueError starts with ``what``), its
    words in the language in use (``localized``)."""
    prompt, hint, explain = localized(lesson, prompt), localized(lesson, hint), localized(lesson, explain)
    if isinstance(mistakes, Mapping):
        mistakes = {typed: localized(lesson, why) for typed, why in mistakes.items()}
    if not isinstance(prompt, str) or not prompt.strip():
        raise ValueError(f"{what}: prompt must be the question, as text")
    if value is ...:
        raise ValueError(f"{what}: answer is ...; give the right answer")
    try:
        how = kind_of(value, kind)
        right = how.read(value)
    except ValueError as exc:
        raise ValueError(f"{what}: answer {value!r}: {exc}") from None
    if not isinstance(explain, str):
        raise ValueError(f"{what}: explain must be text, not {type(explain).__name__}")
    if not isinstance(hint, str):
        raise ValueError(f"{what}: hint must be text, not {type(hint).__name__}")
    if hint and _gives_away(hint, how, right):
        raise ValueError(f"{what}: the hint {hint!r} gives the answer ({how.tell(right)}) away")
    if mistakes is not None and not isinstance(mistakes, Mapping):
        raise ValueError(f"{what}: mistakes must map wrong answers to what went wrong, not {type(mistakes).__name__}")
    known: dict[Any, str] = {}
    for typed, what_went_wrong in (mistakes or {}).items():
        try:
            wrong = how.read(typed)
        except ValueError as exc:
            raise ValueError(f"{what}: mistake {typed!r} cannot be read as {how.what}: {exc}") from None
        if how.right(wrong, right):
            raise ValueError(f"{what}: mistake {typed!r} is a right answer")
        if not isinstance(what_went_wrong, str) or not what_went_wrong.strip():
            raise ValueError(f"{what}: mistake {typed!r} needs an explanation, as text")
        if wrong in known:
            raise ValueError(f"{what}: mistake {typed!r} is listed twice ({how.show(wrong)})")
        known[wrong] = what_went_wrong
    given = " ".join(value.split()) if how is TEXT and isinstance(value, str) else ""
    return Exercise(name=name, prompt=prompt.strip(), answer=right, kind=how, explain=explain, hint=hint,
                    mistakes=known, lesson=lesson, variant=variant, skill=skill, given=given)


def _who() -> str:
    """Whose variants a kernel shows: her hub login, else the name she typed, else "" (the class's)."""
    return hub_user() or _STUDENT or ""


def _number(source: Source) -> int:
    """The variant of ``source`` the student meets now."""
    from .variants import variant_number

    _load_attempts()
    return variant_number(source.lesson, source.name, _who(), ATTEMPT.get(source.name, 0))


def _load_attempts() -> None:
    """``ATTEMPT`` for the student now known, from the store (once a student): the variants she
    answered right before (another page, a reload). Left at 0 where the store cannot say."""
    from ..progress import default_db
    from ..progress.hub_client import open_store

    who = _who()
    if _LOADED[0] == who:
        return
    _LOADED[0] = who
    ATTEMPT.clear()
    db = default_db()
    if not who or db is None:
        return
    try:
        counts = open_store(db).right_variants(who)
    except ValueError as exc:  # the store is away: she starts at her first variant, said to the teacher
        _log(f"rummylab: the variants {who!r} answered cannot be read now: {exc}")
        return
    lesson = current_lesson() or UNNAMED
    ATTEMPT.update({exercise: n for exercise, n in counts.get(lesson, {}).items()})


def another(name: str) -> Exercise:
    """The next variant of the variant exercise ``name``, once the student answered the one shown
    right (ValueError otherwise, saying why); every view of it is redrawn."""
    if name not in SOURCES:
        raise ValueError(f"exercise {name!r} has no variants{did_you_mean(name, SOURCES)}")
    if name not in DONE:
        raise ValueError(f"answer exercise {name!r} first: another one comes once this one is right")
    ATTEMPT[name] = ATTEMPT.get(name, 0) + 1
    DONE.discard(name)
    return _show_variant(name)


def _show_variant(name: str) -> Exercise:
    ex = EXERCISES[name] = SOURCES[name].build(_number(SOURCES[name]))
    for redraw in WATCHERS.get(name, []):
        try:
            redraw(ex)
        except Exception as exc:  # a closed widget: the variant is set all the same
            _log(f"rummylab: a view of {name!r} could not be redrawn: {type(exc).__name__}: {exc}")
    return ex


def on_variant(name: str, redraw: Callable[[Exercise], None]) -> None:
    """Call ``redraw`` with the new variant whenever exercise ``name`` shows another."""
    WATCHERS.setdefault(name, []).append(redraw)


def _gives_away(hint: str, how: AnyKind, right: Any) -> bool:
    """Whether ``hint`` writes the answer out; never for yes/no, whose "no" any hint may say."""
    if how is YES_NO:
        return False
    return any(re.search(rf"(?<![\w.]){re.escape(shown)}(?!\w|\.\d)", hint, re.IGNORECASE)
               for shown in {how.show(right), how.tell(right)})


def current_lesson() -> str:
    """The running notebook's name (without .ipynb), or "" when it cannot be told."""
    candidates = [os.environ.get(LESSON_ENV, "")]
    try:
        from IPython import get_ipython

        shell = get_ipython()
        if shell is not None:
            candidates.append(str(shell.user_ns.get("__session__", "") or ""))
    except ImportError:  # pragma: no cover - IPython comes with the lab extra
        pass
    candidates += [os.environ.get("JPY_SESSION_NAME", ""), _voila_notebook()]
    for c in candidates:
        if c.strip():
            return Path(c.strip()).stem
    return ""


def _voila_notebook() -> str:
    """The notebook of a kernel Voilà started for a page (``/voila/render/NAME.ipynb``)."""
    path = os.environ.get("PATH_INFO", "") or os.environ.get("SCRIPT_NAME", "")
    return path if path.endswith(".ipynb") else ""


def did_you_mean(name: str, names: Iterable[str]) -> str:
    """": did you mean 'a' or 'b'?" for the names closest to a mistyped ``name``, else ""."""
    close = difflib.get_close_matches(str(name), list(names), n=3)
    return f": did you mean {' or '.join(repr(c) for c in close)}?" if close else ""


def get(name: str) -> Exercise:
    """The exercise called ``name``; ValueError names the exercises there are."""
    if name not in EXERCISES:
        there = ", ".join(EXERCISES) or "none yet"
        raise ValueError(f"unknown exercise {name!r}{did_you_mean(name, EXERCISES)} (this lesson defines {there})")
    return EXERCISES[name]


def prompt(name: str) -> str:
    """The question of an exercise."""
    return get(name).prompt


def hint(name: str) -> str:
    """A hint for an exercise (never the answer)."""
    return get(name).hint


def check(name: str, answer: Any) -> Feedback:
    """Is ``answer`` right for the exercise ``name``? The feedback says why (and, for a common
    wrong answer, what went wrong). ``...`` (no answer yet) is neither right nor wrong; an
    exercise the lesson has not defined is said in the feedback, never raised in class."""
    if name not in EXERCISES:
        ASKED.add(str(name))
        guess = did_you_mean(name, EXERCISES)
        _log(f"rummylab: check({name!r}) but no exercise {name!r} is defined in this lesson{guess}")
        return Feedback(None, _("The exercise {name} is not defined in this lesson yet").format(name=repr(name))
                        + (guess or ".") + " " + _("Run the cells above this one, or tell your teacher."))
    ex = EXERCISES[name]
    if answer is ...:
        how = (_("Type your answer in the box below and press Check") if in_app()
               else _("Write your answer in place of ... and run the cell again, or type it in the box below"))
        return Feedback(None, f"{how} ({_(ex.kind.what)}).", name)
    feedback, typed = verdict(ex, answer)
    if typed is None:  # unreadable: nothing to record
        return feedback
    if feedback.right and ex.variant is not None and EXERCISES.get(name) is ex:
        DONE.add(name)  # another one is offered
    return _recorded(ex, feedback, typed)


def verdict(ex: Exercise, answer: Any) -> tuple[Feedback, str | None]:
    """What ``check`` says of ``answer`` to ``ex``, recording nothing, and the answer as kept
    (None when it cannot be read)."""
    try:
        given = ex.kind.read(answer)
    except ValueError as exc:
        return Feedback(False, _("I could not read that answer: {error}. Answer with {what}.").format(
            error=exc, what=_(ex.kind.what))), None
    typed = ex.kind.show(given)
    if ex.kind.right(given, ex.answer):
        return Feedback(True, ex.explain or _("{answer} is right.").format(answer=in_her_words(ex.shown)),
                        ex.name), typed
    if given in ex.mistakes:
        return Feedback(False, ex.mistakes[given], ex.name), typed
    hint = " " + _("Hint: {hint}").format(hint=ex.hint) if ex.hint else ""
    return Feedback(False, _("{answer} is not it.").format(answer=in_her_words(typed)) + hint, ex.name), typed


def _log(message: str) -> None:
    """A line for the teacher's terminal (a served kernel's stderr), not the student's page."""
    print(message, file=sys.__stderr__, flush=True)


_STUDENT: str | None = None
PENDING: list[tuple[str, str, bool | None, str, int | None, str]] = []
"""Checks made on this page before the student gave a name (or while the store's address cannot
be one): (lesson, exercise, right, answer, variant, skill), recorded under the name once it is given. A check
with a name goes to the store at once; one the database cannot take now waits in the store's own
queue, not here."""


def set_student(name: str) -> str:
    """Who is answering (for the teacher's progress table); ValueError says what is wrong. Checks
    made on this page before the name was given are recorded now, under it."""
    global _STUDENT
    from ..progress import check_name

    before = _who()
    _STUDENT = check_name(name)
    _flush()
    _named()
    if _who() != before:
        for exercise_name in list(SOURCES):  # her own variants now (and where she left them)
            DONE.discard(exercise_name)
            _show_variant(exercise_name)
    return _STUDENT


def student() -> str | None:
    """The name given in this session, else the student's hub login (``hub_user``), else None."""
    return _STUDENT or hub_user()


def hub_user() -> str | None:
    """The student's JupyterHub login (``JUPYTERHUB_USER``) when the lesson runs on a hub, else None:
    she is known without typing a name (one she types is shown instead, as her display name)."""
    from ..progress import HUB_USER_ENV, check_name

    try:
        return check_name(os.environ.get(HUB_USER_ENV, ""))
    except ValueError:  # not on a hub
        return None


def _flush() -> str:
    """Hand the checks kept for a name (``PENDING``) to the store, now that it is given."""
    waiting = PENDING[:]
    PENDING.clear()
    return _send(waiting) if waiting else ""


def _send(checks: list[tuple[str, str, bool | None, str, int | None, str]]) -> str:
    """Hand ``checks`` to the store, under the student's name; "" or a sentence for the student when
    they are saved later (the store keeps them until the database takes them). Without a store
    address they are kept on this page, in ``PENDING``, and said once."""
    from ..progress import default_db
    from ..progress.hub_client import open_store

    db, name = default_db(), student()
    if name is None or db is None:
        return ""
    try:
        store = open_store(db)
    except ValueError as exc:  # an address that cannot be one: kept here, said once
        _log(f"rummylab: checks are not recorded: {exc}")
        PENDING[:0] = checks
        return _("Your answer is kept on this page and will be saved later ({why}).").format(why=exc)
    note = ""
    for lesson, exercise, right, typed, variant, skill in checks:
        try:
            if not store.record(name, lesson, exercise, right, typed, hub_user=hub_user(), variant=variant,
                                skill=skill or None):
                note = _("Your answer is saved later: the class's database cannot be reached just now.")
        except ValueError as exc:  # the store keeps the check all the same
            note = _("Your answer is kept and will be saved later ({why}).").format(why=exc)
    return note


def record(ex: Exercise, right: bool | None, typed: str) -> str:
    """Keep a checked answer for the teacher: "" when recorded (or the class keeps no progress),
    else a sentence for the student (no name yet: the answer is kept on the page, in ``PENDING``,
    and recorded under the name once given; the database cannot be reached now: the store writes
    it later)."""
    from ..progress import default_db

    if default_db() is None:
        return ""
    check = (ex.lesson or UNNAMED, ex.name, right, typed[:ANSWER_MAX], ex.variant, ex.skill)
    if student() is None:
        PENDING.append(check)
        return _(NAME_NOTE)
    return _send([check])


def _recorded(ex: Exercise, feedback: Feedback, typed: str) -> Feedback:
    note = record(ex, feedback.right, typed)
    return Feedback(feedback.right, f"{feedback.why} ({note})", feedback.exercise) if note else feedback


def reset() -> None:
    """Forget this kernel's exercises (a lesson run again from the top, in one kernel)."""
    EXERCISES.clear()
    ASKED.clear()
    WHEN_NAMED.clear()
    SOURCES.clear()
    ATTEMPT.clear()
    DONE.clear()
    WATCHERS.clear()
    _LOADED[0] = None
