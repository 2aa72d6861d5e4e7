"""The widgets a lesson puts in front of a student: a name box, an answer box with Check and Hint,
and a box that sends any widget's value (a free-text answer, a choice) to the teacher."""

from __future__ import annotations

import ast
import html
import re
import traceback
from typing import Any

from ..i18n import _, ngettext
from ..progress.reviews import RESPONSE as REVIEWS
from .exercises import (
    ANSWER_BOX,
    ANSWER_MAX,
    DONE,
    EXERCISES,
    NAME,
    PENDING,
    PROMPT_VIEW,
    Exercise,
    Feedback,
    another,
    check,
    current_lesson,
    get,
    hub_user,
    localized,
    on_variant,
    record,
    set_student,
    student,
    when_named,
)
from .exercises import _log as log_for_teacher
from .kinds import Kind


def _css(widget: Any, css_class: str) -> Any:
    """The widget, with a CSS class (the browser tests find it by that)."""
    widget.add_class(css_class)
    return widget


def _note(text: str, colour: str = "#37474f") -> str:
    return f"<div class='rl-feedback' style='color:{colour}'>{html.escape(text)}</div>"


def _show(out: Any, feedback: Feedback) -> None:
    """``feedback`` in the HTML widget ``out``; a request for the name goes once the name is given
    (unless a later answer replaced it)."""
    out.value = shown = feedback._repr_html_()
    if feedback.asks_name:
        def redraw() -> None:
            if out.value == shown:
                out.value = feedback.named()._repr_html_()

        when_named(redraw)


def name_box() -> Any:
    """A small widget for the top of a lesson: a student types their name once per session. On a
    hub her login is already set (checks count without typing); a name typed is shown instead."""
    import ipywidgets as w

    text = _css(w.Text(value=student() or "", placeholder=_("your name"), description=_("Name"),
                       continuous_update=False, layout=w.Layout(width="320px")), "rl-name")
    button, note = _css(w.Button(description=_("That's me")), "rl-name-ok"), _css(w.HTML(), "rl-name-note")
    greeted: list[str | None] = [student()]
    login = hub_user()
    if login is not None:
        note.value = html.escape(_("Hello, {name}: your checked answers count for the class. Type another name "
                                   "to be shown by it.").format(name=login))

    def save(_event: Any) -> None:
        try:
            kept = len(PENDING)
            name = set_student(text.value)
        except ValueError as exc:
            note.value = f"<span style='color:#b71c1c'>{html.escape(str(exc))}</span>"
            return
        saved = kept - len(PENDING)
        if name == greeted[0] and not saved:
            return  # Enter, then the button: the greeting stays as it was
        greeted[0] = name
        earlier = " " + ngettext("Your earlier answer on this page now counts too.",
                                 "Your {n} earlier answers on this page now count too.", saved).format(n=saved)
        note.value = html.escape(_("Hello, {name}: your checked answers count for the class.").format(name=name)
                                 + (earlier if saved else ""))

    button.on_click(save)
    text.observe(save, names="value")  # Enter (or leaving the box) saves too
    return w.VBox([w.HBox([text, button]), note])


_COMMA_NUMBER = re.compile(r"\s*[-+]?[\d.]*\d,\d+\s*%?\s*")
"""One number with a comma in it ("0,25", "1,000"): kept as typed, for its kind to read as the student's
language writes numbers (Python would read a tuple)."""


def from_text(text: str) -> Any:
    """An answer typed in a box, as the value a student would write in code: a number, True or
    False, a quoted string, or words; "defender, 28" is ("defender", 28)."""

    def one(t: str) -> Any:
        t = t.strip()
        if _COMMA_NUMBER.fullmatch(t):
            return t
        try:
            value = ast.literal_eval(t)
        except (ValueError, SyntaxError, MemoryError, RecursionError):
            return t
        return value if isinstance(value, int | float | str | bool | tuple) else t

    if _COMMA_NUMBER.fullmatch(text):
        return text.strip()
    value = one(text)
    if isinstance(value, str) and ("," in value or ";" in value):
        return tuple(one(part) for part in value.split(";" if ";" in value else ","))
    return value


def _safely(run: Any, out: Any) -> Any:
    """A button's action that never leaves a student with nothing: an error is one short line on
    the page, and its traceback goes to the teacher's terminal."""

    def act(arg: Any) -> None:
        try:
            run(arg)
        except Exception:  # a teacher's exercise may raise anything: the page must say something
            log_for_teacher("rummylab: an answer box failed:\n" + traceback.format_exc())
            out.value = _note(_("Something went wrong checking this answer: tell your teacher."), "#b71c1c")

    return act


def live_prompt(exercise: str) -> Any:
    """A variant exercise's question as a widget: the student's variant, redrawn with the next."""
    import ipywidgets as w

    view = _css(_css(w.HTML(get(exercise)._repr_html_()), "rl-live-prompt"), f"rl-prompt-{exercise}")
    on_variant(exercise, lambda ex: setattr(view, "value", ex._repr_html_()))
    return view


PROMPT_VIEW[:] = [live_prompt]


def _prompt_line(ex: Exercise) -> str:
    return f"<div class='rl-prompt'>✎ {html.escape(ex.prompt)}</div>"


def answer_box(exercise: str, with_prompt: bool = True) -> Any:
    """The exercise's question, a box for the answer, Check and Hint buttons; the feedback
    appears below (and counts for the class, like ``check``). A variant exercise answered right
    offers *Another one*: the student's next variant, in place."""
    import ipywidgets as w

    ex = get(exercise)
    text = _css(w.Text(placeholder=_("your answer"), layout=w.Layout(width="320px")), "rl-answer")
    button = _css(w.Button(description=_("Check")), "rl-check")
    hint_button = _css(w.Button(description=_("Hint")), "rl-hint")
    next_button = _css(w.Button(description=_("Another one"), layout=w.Layout(display="none")), "rl-another")
    out = _css(w.HTML(), "rl-answer-feedback")
    prompt = w.HTML(_prompt_line(ex))

    def run(_event: Any) -> None:
        if not text.value.strip():
            out.value = _note(_("Type your answer in the box first."))
            return
        _show(out, check(exercise, from_text(text.value)))
        if exercise in DONE:
            next_button.layout.display = ""

    def show_hint(_event: Any) -> None:
        now = get(exercise)
        out.value = _note(_("Hint: {hint}").format(hint=now.hint) if now.hint
                          else _("There is no hint for this one: think it through."))

    def redraw(new: Exercise) -> None:  # another variant: a fresh question, nothing answered yet
        prompt.value, text.value, out.value = _prompt_line(new), "", ""
        next_button.layout.display = "none"

    button.on_click(_safely(run, out))
    hint_button.on_click(_safely(show_hint, out))
    next_button.on_click(_safely(lambda _event: another(exercise), out))
    if ex.variant is not None:
        on_variant(exercise, redraw)
    buttons = [button, hint_button, *([next_button] if ex.variant is not None else [])]
    box = w.VBox([*([prompt] if with_prompt else []), w.HBox([text, *buttons]), out])
    box.add_class("rl-answer-box")
    box.add_class(f"rl-exercise-{exercise}")
    return box


ANSWER_BOX[:] = [answer_box]


def _as_text(value: Any) -> str:
    """A widget's value as the text recorded for the teacher."""
    if isinstance(value, list | tuple | set | frozenset):
        return ", ".join(str(v) for v in value)
    return str(value)


def _check_response_name(name: object) -> None:
    """ValueError unless ``name`` can name a response (``NAME``)."""
    if not isinstance(name, str) or not NAME.match(name):
        raise ValueError(f"response name {name!r}: letters, digits, _ or -, starting with a letter, at most 60")


def respond(name: str, widget: Any, *, button: str | None = None) -> Any:
    """A box that sends ``widget``'s value to the teacher when the student presses ``button``: a
    free-text answer (a Textarea) or a choice (a Dropdown, a SelectMultiple of cards…). When
    ``name`` is a defined exercise, the value is checked too; otherwise it is kept as a response."""
    import ipywidgets as w

    _check_response_name(name)
    if not isinstance(widget, w.ValueWidget):
        raise ValueError(f"respond({name!r}, …): {type(widget).__name__} has no value to send; give an input "
                         "widget such as w.Textarea()")
    send = _css(w.Button(description=_("Send") if button is None else localized(current_lesson(), button)), "rl-send")
    out = _css(w.HTML(), "rl-answer-feedback")

    def run(_event: Any) -> None:
        value = widget.value
        if name in EXERCISES:
            _show(out, check(name, value))
            return
        typed = _as_text(value).strip()
        if not typed:
            out.value = _note(_("Write something first."))
            return
        ex = Exercise(name=name, prompt="", answer=None, kind=_RESPONSE, explain="",
                                lesson=current_lesson())
        note = record(ex, None, typed)
        _show(out, Feedback(None, _("Sent to your teacher.") + (f" ({note})" if note else "")))

    send.on_click(_safely(run, out))
    box = w.VBox([widget, send, out])
    box.add_class("rl-response")
    box.add_class(f"rl-exercise-{name}")
    return box


_RESPONSE = Kind(name="response", what="anything", read=lambda x: str(x)[:ANSWER_MAX], show=str)
"""A free answer: kept as written, neither right nor wrong."""


def review_log(name: str = REVIEWS) -> Any:
    """A callback for a game table's ``on_review``: each review the student opens is kept for
    the teacher as a response named ``name`` (its summary: decisions, the best move in how many,
    points lost a decision, the marks, the luck), under the current lesson."""
    _check_response_name(name)

    def keep(review: Any) -> str:
        from ..progress.reviews import summary

        best = sum(1 for d in review.decisions if d.loss == 0)
        kept = summary(len(review.decisions), best, review.error_rate, _marks(review), review.luck)
        ex = Exercise(name=name, prompt="", answer=None, kind=_RESPONSE, explain="", lesson=current_lesson())
        return record(ex, None, kept)

    return keep


def _marks(review: Any) -> dict[str, int]:
    out: dict[str, int] = {}
    for d in review.decisions:
        if d.mark:
            out[d.mark] = out.get(d.mark, 0) + 1
    return out

