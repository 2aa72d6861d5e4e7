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

from ..progress import ANSWER_MAX
from .kinds import YES_NO, AnyKind, kind_of

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


NAME_NOTE = "Type your name at the top of the lesson, so this answer counts for your teacher."
"""Said under an answer checked before the student gave her name; taken away once she gives it."""
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
        return self.why.endswith(f" ({NAME_NOTE})")

    def named(self) -> Feedback:
        """The feedback once the student gave her name: without ``NAME_NOTE``."""
        return Feedback(self.right, self.why.removesuffix(f" ({NAME_NOTE})"), self.exercise)

    def __str__(self) -> str:
        mark = {True: "✔ Right. ", False: "✘ Not quite. ", None: "✎ "}[self.right]
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

    @property
    def shown(self) -> str:
        """The right answer as told to a person ("QD or KS" where either card is right)."""
        return self.kind.tell(self.answer)

    def __repr__(self) -> str:
        return f"Exercise({self.name!r})"

    def _repr_html_(self) -> str:
        text = re.sub(r"`([^`]+)`", r"<code>\1</code>", html.escape(self.prompt))  # `AS 2S` as in markdown
        return f"<div class='rl-prompt rl-exercise-prompt'><b>Exercise.</b> {text}</div>"

    def _repr_pretty_(self, printer: Any, cycle: bool) -> None:
        printer.text(f"Exercise. {self.prompt}")


EXERCISES: dict[str, Exercise] = {}
"""The exercises defined in this kernel, by name."""
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


def exercise(name: str, prompt: str, *, answer: Any, hint: str = "", mistakes: Mapping[Any, str] | None = None,
             explain: str | Callable[[], str] = "", kind: str | None = None, lesson: str | None = None) -> Exercise:
    """Define an exercise in the lesson that asks it, and show its question.

    ``answer`` is the right answer (or a function that computes it); ``kind`` says how answers
    are read and compared ("number", "text", "yes/no", "cards", "any card of", "melds", "one of"),
    inferred from the answer when omitted. ``mistakes`` maps wrong answers, written as a student
    types them, to what went wrong. Everything is checked here: a bad answer, hint or mistake
    raises ``ValueError`` naming it. ``lesson`` is the notebook's name unless given."""
    if not isinstance(name, str) or not NAME.match(name):
        raise ValueError(f"exercise name {name!r}: letters, digits, _ or -, starting with a letter, at most 60")
    if not isinstance(prompt, str) or not prompt.strip():
        raise ValueError(f"exercise {name!r}: prompt must be the question, as text")
    if answer is ...:
        raise ValueError(f"exercise {name!r}: answer is ...; give the right answer (or a function that computes it)")
    value = _value(f"exercise {name!r}: answer", answer)
    try:
        how = kind_of(value, kind)
        right = how.read(value)
    except ValueError as exc:
        raise ValueError(f"exercise {name!r}: answer {value!r}: {exc}") from None
    why = _value(f"exercise {name!r}: explain", explain)
    if not isinstance(why, str):
        raise ValueError(f"exercise {name!r}: explain must be text, not {type(why).__name__}")
    if not isinstance(hint, str):
        raise ValueError(f"exercise {name!r}: hint must be text, not {type(hint).__name__}")
    if hint and _gives_away(hint, how, right):
        raise ValueError(f"exercise {name!r}: the hint {hint!r} gives the answer ({how.tell(right)}) away")
    known: dict[Any, str] = {}
    for typed, what_went_wrong in (mistakes or {}).items():
        try:
            wrong = how.read(typed)
        except ValueError as exc:
            raise ValueError(f"exercise {name!r}: mistake {typed!r} cannot be read as {how.what}: {exc}") from None
        if how.right(wrong, right):
            raise ValueError(f"exercise {name!r}: mistake {typed!r} is a right answer")
        if not isinstance(what_went_wrong, str) or not what_went_wrong.strip():
            raise ValueError(f"exercise {name!r}: mistake {typed!r} needs an explanation, as text")
        if wrong in known:
            raise ValueError(f"exercise {name!r}: mistake {typed!r} is listed twice ({how.show(wrong)})")
        known[wrong] = what_went_wrong
    ex = Exercise(name=name, prompt=prompt.strip(), answer=right, kind=how, explain=why, hint=hint, mistakes=known,
                  lesson=lesson if lesson is not None else current_lesson())
    EXERCISES[name] = ex
    ASKED.discard(name)
    return ex


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
        return Feedback(None, f"The exercise {name!r} is not defined in this lesson yet{guess or '.'} Run the cells "
                        "above this one, or tell your teacher.")
    ex = EXERCISES[name]
    if answer is ...:
        how = ("Type your answer in the box below and press Check" if in_app()
               else "Write your answer in place of ... and run the cell again, or type it in the box below")
        return Feedback(None, f"{how} ({ex.kind.what}).", name)
    try:
        given = ex.kind.read(answer)
    except ValueError as exc:
        return Feedback(False, f"I could not read that answer: {exc}. Answer with {ex.kind.what}.")
    typed = ex.kind.show(given)
    if ex.kind.right(given, ex.answer):
        return _recorded(ex, Feedback(True, ex.explain or f"{ex.shown} is right."), typed)
    if given in ex.mistakes:
        return _recorded(ex, Feedback(False, ex.mistakes[given]), typed)
    why = f"{typed} is not it." + (f" Hint: {ex.hint}" if ex.hint else "")
    return _recorded(ex, Feedback(False, why), typed)


def _log(message: str) -> None:
    """A line for the teacher's terminal (a served kernel's stderr), not the student's page."""
    print(message, file=sys.__stderr__, flush=True)


_STUDENT: str | None = None
PENDING: list[tuple[str, str, bool | None, str]] = []
"""Checks made on this page before the student gave a name (or while the store's address cannot
be one): (lesson, exercise, right, answer), recorded under the name once it is given. A check
with a name goes to the store at once; one the database cannot take now waits in the store's own
queue, not here."""


def set_student(name: str) -> str:
    """Who is answering (for the teacher's progress table); ValueError says what is wrong. Checks
    made on this page before the name was given are recorded now, under it."""
    global _STUDENT
    from ..progress import check_name

    _STUDENT = check_name(name)
    _flush()
    _named()
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


def _send(checks: list[tuple[str, str, bool | None, str]]) -> str:
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
        return f"Your answer is kept on this page and will be saved later ({exc})."
    note = ""
    for lesson, exercise, right, typed in checks:
        try:
            if not store.record(name, lesson, exercise, right, typed, hub_user=hub_user()):
                note = "Your answer is saved later: the class's database cannot be reached just now."
        except ValueError as exc:  # the store keeps the check all the same
            note = f"Your answer is kept and will be saved later ({exc})."
    return note


def record(ex: Exercise, right: bool | None, typed: str) -> str:
    """Keep a checked answer for the teacher: "" when recorded (or the class keeps no progress),
    else a sentence for the student (no name yet: the answer is kept on the page, in ``PENDING``,
    and recorded under the name once given; the database cannot be reached now: the store writes
    it later)."""
    from ..progress import default_db

    if default_db() is None:
        return ""
    check = (ex.lesson or UNNAMED, ex.name, right, typed[:ANSWER_MAX])
    if student() is None:
        PENDING.append(check)
        return NAME_NOTE
    return _send([check])


def _recorded(ex: Exercise, feedback: Feedback, typed: str) -> Feedback:
    note = record(ex, feedback.right, typed)
    return Feedback(feedback.right, f"{feedback.why} ({note})") if note else feedback


def reset() -> None:
    """Forget this kernel's exercises (a lesson run again from the top, in one kernel)."""
    EXERCISES.clear()
    ASKED.clear()
    WHEN_NAMED.clear()
