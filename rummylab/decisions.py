"""Decisions judged, for every family: the options of a decision valued by rollouts (Indian
rummy, Three Thirteen: every option meets the same sampled worlds, so the difference of two
options has a smaller error than either value; an option whose value needs no rollout is exact;
each family says what its options are, how a world is drawn from the player's view and what a
rollout is worth: ``indian.evaluation``, ``three_thirteen.evaluation``), and a played game's
review (its decisions with their loss and mark, its draws' luck, per hand and per game), which
gin's, Indian rummy's and Three Thirteen's reviews fill."""

from __future__ import annotations

import html
import json
import math
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from .cards import SeedLike, rng_from
from .i18n import N_, NP_, _, ngettext, pgettext
from .screening import REACH, Effort, best_played, deadline, mean, paired, screened, standard_error

MARK_WORDS = {"blunder": NP_("review mark", "blunder"), "mistake": NP_("review mark", "mistake"),
              "inaccuracy": NP_("review mark", "inaccuracy")}
"""A decision's mark (``marked``: the key stays English) in words: ``pgettext("review mark", …)``."""
PART_WORDS = {"hand": NP_("review part", "hand"), "deal": NP_("review part", "deal"),
              "round": NP_("review part", "round")}
"""What a family calls a hand (``Review.part``), in words: ``pgettext("review part", …)``."""
MARKED = {"hand": N_("hand {hand} turn {turn}: {mark}, {played} (−{loss} ± {se}): {reason}"),
          "deal": N_("deal {hand} turn {turn}: {mark}, {played} (−{loss} ± {se}): {reason}"),
          "round": N_("round {hand} turn {turn}: {mark}, {played} (−{loss} ± {se}): {reason}")}
"""A marked decision in a review's text, by what the family calls a hand."""


@dataclass(frozen=True, kw_only=True)
class Option:
    """One option: its value for the player to act (higher is better), its standard error, and
    its difference to the best with that difference's error."""

    action: Any
    label: str
    value: float
    se: float
    diff: float
    diff_se: float
    exact: bool
    worlds: int = 0
    """The worlds it was played in (0: exact)."""


@dataclass(frozen=True, kw_only=True)
class Evaluation:
    """Every option of the decision, best first; ``unit`` says what a value counts."""

    seat: int
    phase: Any
    options: tuple[Option, ...]
    worlds: int
    unit: str
    chance: bool = False
    """The values are chances (shown as percentages)."""

    @property
    def best(self) -> Option:
        return self.options[0]

    def of(self, action: Any) -> Option:
        """The value of ``action`` (one of the options)."""
        for o in self.options:
            if o.action == action:
                return o
        raise ValueError(f"{action} is not an option of this decision")

    def played(self, action: Any) -> tuple[str, float, float]:
        """(label, value, error of its difference to the best) of ``action``, one of the options."""
        o = self.of(action)
        return o.label, o.value, o.diff_se

    def __str__(self) -> str:
        """The options, best first, in the language in use (``unit``: English, marked with ``N_``)."""
        lines = [ngettext("player {seat} to act ({phase}); {unit} ({worlds} world)",
                          "player {seat} to act ({phase}); {unit} ({worlds} worlds)", self.worlds).format(
            seat=self.seat, phase=self.phase.value, unit=_(self.unit), worlds=self.worlds)]
        exact, best = _("exact"), _("best")
        show = (lambda x: f"{x:.1%}") if self.chance else (lambda x: f"{x:+.1f}")
        for o in self.options:
            err = exact if o.exact else f"± {show(o.se).lstrip('+')}"
            diff = best if o is self.best else show(o.diff) + ("" if o.exact and self.best.exact
                                                               else f" ± {show(o.diff_se).lstrip('+')}")
            lines.append(f"  {o.label:<22} {show(o.value):>7} {err:<8} {diff}")
        return "\n".join(lines)


def distribution(written: Mapping[str, float]) -> dict[int, float]:
    """A shipped distribution (whole numbers as text, probabilities written to 8 places) as
    numbers, made to add up to 1 again."""
    total = sum(written.values())
    return {int(x): q / total for x, q in written.items()}


def write_shipped(path: Path, made_by: str, results: list[dict[str, Any]], **measured: int) -> None:
    """A shipped results file: what made it, how much it measured, its seed (0) and the results,
    as compact JSON (``distribution`` reads each distribution back)."""
    path.write_text(json.dumps({"made_by": made_by, **measured, "seed": 0, "results": results},
                               separators=(",", ":")) + "\n", encoding="utf-8")
    print(f"wrote {path}")


def check_samples(samples: object) -> int:
    """``samples`` as a number of worlds; ValueError names a bad one."""
    if isinstance(samples, bool) or not isinstance(samples, int) or samples < 2:
        raise ValueError(f"samples={samples!r}: a whole number of worlds, 2 or more")
    return samples


@dataclass(frozen=True, kw_only=True)
class Sizes:
    """A family's screening sizes (``screening.Effort``): worlds every option is played in first,
    and the errors at which the candidates' and the other options' differences are sure."""

    screen: int
    target_se: float
    option_se: float


@dataclass(frozen=True, kw_only=True)
class Measure:
    """What a family's option is valued by (a horizon): ``unit`` in words (English, marked with
    ``N_``), ``played_out``: the values of the states after an option, each with its world's seed;
    ``exact``: an option's value that needs no rollout, or None; ``effort``: the screening's sizes;
    ``chance``: the values are chances."""

    unit: str
    played_out: Callable[[Sequence[Any], Sequence[int]], np.ndarray]
    effort: Sizes
    exact: Callable[[Any, Any], float | None] = lambda state, action: None
    chance: bool = False


def valued(state: Any, actions: Sequence[Any], *, seat: int, phase: Any, measure: Measure, samples: int,
           seed: SeedLike, world: Callable[[Any, np.random.Generator], Any], label: Callable[[Any], str],
           apply: Callable[[Any, Any], Any], budget_ms: float | None = None, keep: Sequence[Any] = (),
           every_diff: bool = True) -> Evaluation:
    """``actions`` of ``state`` valued by ``measure``: its ``exact`` where it gives a value, else
    the mean of what its ``played_out`` gives the states after the action in worlds drawn by
    ``world`` (each with its own seed), the same worlds for every option, at most ``samples`` of
    them, effort where it matters (``screening.screened``: the measure's screen and errors,
    ``budget_ms``, ``keep``, ``every_diff``)."""
    effort, exact, played_out = measure.effort, measure.exact, measure.played_out
    samples = check_samples(samples)
    if budget_ms is not None and not budget_ms > 0:
        raise ValueError(f"budget_ms={budget_ms}: more than 0")
    rng = rng_from(seed)
    worlds: list[tuple[Any, int]] = []
    known = [exact(state, a) for a in actions]

    def play(i: int, start: int, stop: int) -> np.ndarray:
        if known[i] is not None:
            return np.full(stop - start, known[i], dtype=float)
        while len(worlds) < stop:  # drawn in order as they are needed: the same worlds however many
            worlds.append((world(state, rng), int(rng.integers(2**31))))
        after = [apply(w, actions[i]) for w, _seed in worlds[start:stop]]
        return np.asarray(played_out(after, [s for _world, s in worlds[start:stop]]), dtype=float)

    rolled = [i for i, k in enumerate(known) if k is None]
    played = screened(len(actions), Effort(screen=effort.screen, cap=samples if rolled else 1, reach=REACH,
                                           target_se=effort.target_se, option_se=effort.option_se,
                                           every_diff=every_diff, deadline=deadline(budget_ms)),
                      play, kept={i for i, a in enumerate(actions) if a in keep}, dtype=float)
    best = best_played(played)
    out = []
    for i in sorted(range(len(actions)), key=lambda i: (-mean(played[i]), i)):
        x, sure = played[i], known[i] is not None
        diff, diff_se = (0.0, 0.0) if i == best else paired(x, played[best])
        if sure and known[best] is not None:
            diff_se = 0.0  # two exact values
        out.append(Option(action=actions[i], label=label(actions[i]), value=mean(x), se=0.0 if sure else
                          standard_error(x), diff=diff, diff_se=diff_se, exact=sure, worlds=0 if sure else len(x)))
    out.sort(key=lambda o: o.action != actions[best])  # the best first (stable: the rest by value)
    return Evaluation(seat=seat, phase=phase, options=tuple(out), worlds=max(len(x) for x in played),
                      unit=measure.unit, chance=measure.chance)


def marked(loss: float, se: float, thresholds: Sequence[tuple[str, float]]) -> str | None:
    """The mark of a loss: the highest of ``thresholds`` (name, points; highest first) it reaches,
    if it is more than twice its error."""
    if loss <= 2 * se:
        return None
    for name, threshold in thresholds:
        if loss >= threshold:
            return name
    return None


@dataclass(frozen=True, kw_only=True)
class Decision:
    """One decision of the reviewed seat."""

    hand: int
    turn: int
    """From 0: the hand's turns before it (gin), the seat's own turns (the others)."""
    phase: Any
    played: str
    best: str
    loss: float
    """Expected points the played move gave up against the best (0 when it was the best)."""
    loss_se: float
    mark: str | None
    reason: str
    evaluation: Any
    cards: tuple[Any, ...] = ()
    """The seat's cards at the decision (to show the moves on them)."""
    played_card: Any = None
    """The card the played move throws (None for a draw or a drop) ..."""
    best_card: Any = None
    """... and the card the best move throws."""


def thrown_cards(action: Any, best: Any) -> dict[str, Any]:
    """A decision's ``played_card`` and ``best_card`` from the played and the best actions."""
    return {"played_card": getattr(action, "card", None), "best_card": getattr(best, "card", None)}


@dataclass(frozen=True, kw_only=True)
class Draw:
    """The luck of one stock draw: the hand's expected result after the card drawn minus before
    the draw (the average over every card the seat could have drawn)."""

    hand: int
    turn: int
    card: str
    luck: float
    se: float


@dataclass(frozen=True, kw_only=True)
class HandReview:
    """One hand: what the seat won or lost, its decisions' loss, its draws' luck."""

    hand: int
    result: int
    decisions: int
    loss: float
    """Points lost over the hand's decisions (expected)."""
    luck: float
    marks: dict[str, int]

    @property
    def error_rate(self) -> float:
        """Points lost a decision."""
        return self.loss / self.decisions if self.decisions else 0.0

    @property
    def adjusted(self) -> float:
        """The result with the draws' luck taken out."""
        return self.result - self.luck


@dataclass(frozen=True, kw_only=True)
class Review:
    """A game reviewed for ``seat``; ``part`` names what the family calls a hand ("deal", "round")."""

    seat: int
    decisions: tuple[Decision, ...]
    draws: tuple[Draw, ...]
    hands: tuple[HandReview, ...]
    part: str = "hand"

    @property
    def loss(self) -> float:
        """Points lost over the finished hands' decisions (as ``result``: a hand still in play counts in
        neither; its decisions are in ``decisions``)."""
        return sum(h.loss for h in self.hands)

    @property
    def error_rate(self) -> float:
        """Points lost a decision over the finished hands."""
        n = sum(h.decisions for h in self.hands)
        return self.loss / n if n else 0.0

    @property
    def result(self) -> int:
        return sum(h.result for h in self.hands)

    @property
    def luck(self) -> float:
        return sum(h.luck for h in self.hands)

    @property
    def adjusted(self) -> float:
        return self.result - self.luck

    def frame(self) -> Any:
        """One row per decision (a polars DataFrame)."""
        import polars as pl

        return pl.DataFrame([{"hand": d.hand, "turn": d.turn, "phase": d.phase.value, "played": d.played,
                              "best": d.best, "loss": d.loss, "loss_se": d.loss_se, "mark": d.mark,
                              "reason": d.reason} for d in self.decisions],
                            schema={"hand": pl.Int64, "turn": pl.Int64, "phase": pl.Utf8, "played": pl.Utf8,
                                    "best": pl.Utf8, "loss": pl.Float64, "loss_se": pl.Float64, "mark": pl.Utf8,
                                    "reason": pl.Utf8})

    def __str__(self) -> str:
        """The review in the language in use: the totals, then each marked decision."""
        n = len(self.decisions)
        lines = [ngettext("player {seat}: {n} decision, {loss} points lost ({rate} a decision); result {result}, "
                          "luck {luck}, luck-adjusted {adjusted}",
                          "player {seat}: {n} decisions, {loss} points lost ({rate} a decision); result {result}, "
                          "luck {luck}, luck-adjusted {adjusted}", n).format(
            seat=self.seat, n=n, loss=f"{self.loss:.1f}", rate=f"{self.error_rate:.2f}", result=f"{self.result:+d}",
            luck=f"{self.luck:+.1f}", adjusted=f"{self.adjusted:+.1f}")]
        template = _(MARKED[self.part]) if self.part in MARKED else (
            _("{part} {hand} turn {turn}: {mark}, {played} (−{loss} ± {se}): {reason}"))
        for d in self.decisions:
            if d.mark:
                lines.append("  " + template.format(part=self.part, hand=d.hand, turn=d.turn, mark=_mark(d.mark),
                                                    played=d.played, loss=f"{d.loss:.1f}", se=f"{d.loss_se:.1f}",
                                                    reason=d.reason))
        return "\n".join(lines)

    def _repr_html_(self) -> str:
        rows = "".join(
            f"<tr class='rl-mark-{d.mark or 'none'}'><td>{d.hand}</td><td>{d.turn}</td><td>{html.escape(d.played)}</td>"
            f"<td>{html.escape(d.best)}</td><td>{d.loss:.1f} ± {d.loss_se:.1f}</td>"
            f"<td>{html.escape(_mark(d.mark)) if d.mark else ''}</td><td>{html.escape(d.reason)}</td></tr>"
            for d in self.decisions)
        head = html.escape(str(self).splitlines()[0])
        part = pgettext("review part", PART_WORDS[self.part]) if self.part in PART_WORDS else self.part
        said = [html.escape(word) for word in (part, _("turn"), _("played"), _("best"), _("points lost"), _("mark"),
                                                _("why"))]
        heads = "".join(f"<th>{word}</th>" for word in said)
        return f"<div class='rl-review'><p>{head}</p><table><tr>{heads}</tr>{rows}</table></div>"

    def page(self) -> str:
        """The review as a whole HTML page, in the language in use."""
        style = ("body{font-family:system-ui,sans-serif;margin:2em}td,th{padding:.2em .6em;text-align:left;"
                 "vertical-align:top}.rl-mark-blunder{background:#fdd}.rl-mark-mistake{background:#fec}"
                 ".rl-mark-inaccuracy{background:#ffe}")
        title = html.escape(_("rummylab: review of player {seat}").format(seat=self.seat))
        heading = html.escape(_("Review of player {seat}").format(seat=self.seat))
        return (f"<!doctype html><html><head><meta charset='utf-8'><title>{title}</title><style>{style}</style>"
                f"</head><body><h1>{heading}</h1>{self._repr_html_()}</body></html>")




@dataclass(frozen=True, kw_only=True)
class Reviewer:
    """What a family's review needs to know (Indian rummy's, Three Thirteen's): ``part`` is what
    it calls a hand; the rest read a state (and the action made from it)."""

    part: str
    marks: tuple[tuple[str, float], ...]
    result: Callable[[Any, int], int | None]
    """At the end of a hand, the seat's result (points won, negative: paid); else None."""
    decision: Callable[[Any, Any], Evaluation | None]
    """The evaluation of the decision the action answers (None: no decision to judge)."""
    played: Callable[[Any, Any, Evaluation], tuple[str, float, float]]
    """The move made: its label, its value and the error of its difference to the best."""
    reason: Callable[[Any, Evaluation, str, float], str]
    draw_value: Callable[[Any], Option]
    """Before a stock draw: the value of drawing (the average over every card she could draw)."""
    follows: Callable[[Any], Any]
    """After a draw: the move the rollouts' player makes, whose value the draw is judged by."""
    hand_no: Callable[[Any], int]
    stock_draw: Any
    """The action that draws from the stock."""


NOT_A_TURN = ("leave", "reconnect")
"""Moves at a draw that are no turn of hers (Indian rummy: leaving the table, coming back to it)."""


def walk(reviewer: Reviewer, steps: Iterable[tuple[Any, Any]], seat: int, first: int) -> Review:
    """A review of ``seat`` over a game's ``steps`` (``Game.steps``), from hand ``first`` on."""
    decisions: list[Decision] = []
    draws: list[Draw] = []
    hands: list[HandReview] = []
    pending: tuple[Option, Counter[Any]] | None = None  # before her stock draw: its value, her hand
    count, loss, luck, tally = 0, 0.0, 0.0, {m: 0 for m, _points in reviewer.marks}
    turn = -1  # her turns in the hand so far, less one
    for state, action in steps:
        if reviewer.hand_no(state) < first:
            continue
        result = reviewer.result(state, seat)
        if result is not None:
            if not hands or hands[-1].hand != reviewer.hand_no(state):
                hands.append(HandReview(hand=reviewer.hand_no(state), result=result, decisions=count, loss=loss,
                                        luck=luck, marks=tally))
                count, loss, luck, tally = 0, 0.0, 0.0, {m: 0 for m, _points in reviewer.marks}
                turn = -1
            pending = None
        if action is None:
            break
        if result is not None or state.to_play != seat:
            continue
        if state.phase.value == "draw" and getattr(action.kind, "value", "") not in NOT_A_TURN:
            turn += 1
        e = reviewer.decision(state, action)
        if pending is not None and e is not None:
            before, held = pending
            after = e.of(reviewer.follows(state))
            drawn = next(iter((Counter(state.hands[seat]) - held).elements()))
            draws.append(Draw(hand=reviewer.hand_no(state), turn=turn, card=str(drawn),
                              luck=after.value - before.value, se=math.hypot(after.se, before.se)))
            luck += after.value - before.value
            pending = None
        if action == reviewer.stock_draw:  # its value: the decision's own where it was an option (the same worlds)
            valued = e is not None and any(o.action == action for o in e.options)
            pending = (e.of(action) if valued else reviewer.draw_value(state), Counter(state.hands[seat]))  # type: ignore[union-attr]
        if e is None or len(e.options) < 2:
            continue
        label, value, se = reviewer.played(state, action, e)
        lost = max(0.0, e.best.value - value)
        lost_se = 0.0 if lost == 0 else se
        d = Decision(hand=reviewer.hand_no(state), turn=turn, phase=state.phase, played=label, best=e.best.label,
                     loss=lost, loss_se=lost_se, mark=marked(lost, lost_se, reviewer.marks),
                     reason=reviewer.reason(state, e, label, value), evaluation=e,
                     cards=tuple(state.hands[seat]), **thrown_cards(action, e.best.action))
        if d.mark:
            tally[d.mark] += 1
        decisions.append(d)
        count += 1
        loss += lost
    return Review(seat=seat, decisions=tuple(decisions), draws=tuple(draws), hands=tuple(hands), part=reviewer.part)


def _mark(mark: str) -> str:
    """A decision's mark in words, in the language in use."""
    return pgettext("review mark", MARK_WORDS[mark]) if mark in MARK_WORDS else mark


def marks(inaccuracy: float, mistake: float, blunder: float) -> tuple[tuple[str, float], ...]:
    """A family's marks, highest first, from its thresholds in points."""
    return (("blunder", blunder), ("mistake", mistake), ("inaccuracy", inaccuracy))


def reviewed(game: Any, state_type: type, history_json: Callable[[Any], Mapping[str, Any]], family: str, seat: object,
             samples: object) -> Mapping[str, Any]:
    """The history a review reads: ``game`` itself, or the history of a ``state_type`` state;
    ValueError names a bad game, ``seat`` or ``samples``."""
    check_samples(samples)
    data = history_json(game) if isinstance(game, state_type) else game
    if not isinstance(data, Mapping) or "actions" not in data:
        raise ValueError(f"{type(game).__name__}: review takes {family} history (history_json) or a State")
    players = int(data.get("players", 2))
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < players:
        raise ValueError(f"seat={seat!r}: a player of this game, 0 to {players - 1}")
    return data


def first_hand(data: Mapping[str, Any], next_kind: str, last: bool) -> int:
    """The number of the first hand a review reads: 1, or with ``last`` the last hand's (hands
    counted by the history's ``next_kind`` actions)."""
    return sum(1 for a in data["actions"] if a.get("kind") == next_kind) + 1 if last else 1
