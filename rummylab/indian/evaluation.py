"""What each option of an Indian rummy decision is worth to the player to act: drop or play on
(at a draw), each discard or a declaration (after drawing), in the points she keeps off her score
this deal, with standard errors.

A declaration's value is exact (a valid show ends the deal: she pays 0), and so is a drop's (the
first or middle drop's points). Playing on and each discard are valued by rollouts: worlds drawn
from what she sees only (her hand, the discard pile, the cut card; every unseen card dealt at
random to the other hands and the stock), each played out to the deal's end by greedy bots
(``players.GreedyBot``, which never drops), the same worlds for every option, so the difference
of two options has a smaller error than either value.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from ..cards import Card, SeedLike, rng_from
from .game import DRAW_STOCK, DROP, Action, Kind, Phase, State, apply, legal_actions
from .players import GreedyBot

SAMPLES = 128
"""Worlds an option is played out in by default."""
MAX_ACTIONS = 2_000
"""A rollout that has not ended its deal after this many moves is an error (it never happens)."""


@dataclass(frozen=True, kw_only=True)
class Option:
    """One option: the points the player to act can expect to pay this deal (negated: higher is
    better), its standard error, and its difference to the best with that difference's error."""

    action: Action
    label: str
    value: float
    se: float
    diff: float
    diff_se: float
    exact: bool


@dataclass(frozen=True, kw_only=True)
class Evaluation:
    """Every option of the decision, best first."""

    seat: int
    phase: Phase
    options: tuple[Option, ...]
    worlds: int

    @property
    def best(self) -> Option:
        return self.options[0]

    def of(self, action: Action) -> Option:
        """The value of ``action`` (one of the options)."""
        for o in self.options:
            if o.action == action:
                return o
        raise ValueError(f"{action} is not an option of this decision")

    def __str__(self) -> str:
        lines = [f"player {self.seat} to act ({self.phase.value}); points this deal, negated "
                 f"({self.worlds} worlds)"]
        for o in self.options:
            err = "exact" if o.exact else f"± {o.se:.1f}"
            diff = "best" if o is self.best else f"{o.diff:+.1f}" + ("" if o.exact and self.best.exact
                                                                     else f" ± {o.diff_se:.1f}")
            lines.append(f"  {o.label:<22} {o.value:+7.1f} {err:<8} {diff}")
        return "\n".join(lines)


def _label(action: Action) -> str:
    if action.kind is Kind.DISCARD:
        return f"discard {action.card}"
    if action.kind is Kind.DECLARE:
        return f"declare, throwing {action.card}"
    return "drop" if action.kind is Kind.DROP else "play on"


def options(state: State) -> list[Action]:
    """The decision's options: at a draw, drop or play on (drawing); after drawing, each distinct
    discard, and a declaration when one is valid (greedy's grouping). ValueError otherwise."""
    if state.phase is Phase.DRAW:
        legal = legal_actions(state)
        if DROP not in legal:
            raise ValueError("this draw allows no drop: there is no decision to value")
        return [DROP, DRAW_STOCK if DRAW_STOCK in legal else legal[0]]
    if state.phase is Phase.DISCARD:
        hand = state.hands[state.to_play]
        found = [Action(Kind.DISCARD, c) for c in sorted(set(hand))]
        show = GreedyBot(0, drops=False).act(state)
        return ([show] if show.kind is Kind.DECLARE else []) + found
    raise ValueError(f"phase {state.phase.value}: a decision is a draw or a discard")


def world(state: State, rng: np.random.Generator) -> State:
    """``state`` with what its player to act cannot see dealt again at random: the other hands and
    the stock above the cut card (which stays face up at the bottom)."""
    me = state.to_play
    unseen: list[Card] = sorted([c for p, h in enumerate(state.hands) if p != me for c in h] + list(state.stock[1:]))
    order = rng.permutation(len(unseen))  # of the unseen cards in order: where they lie is never read
    dealt = [unseen[i] for i in order]
    hands, at = [], 0
    for p, h in enumerate(state.hands):
        if p == me:
            hands.append(h)
        else:
            hands.append(tuple(dealt[at:at + len(h)]))
            at += len(h)
    return replace(state, hands=tuple(hands), stock=(state.stock[0], *dealt[at:]))


def _played_out(state: State, seed: int) -> float:
    """The points the seat to act pays by the end of the deal (negated), greedy bots for everyone."""
    me = state.to_play
    bots = [GreedyBot(np.random.default_rng([seed, p]), drops=False) for p in range(state.players)]
    for _ in range(MAX_ACTIONS):
        if state.phase in (Phase.DEAL_OVER, Phase.GAME_OVER):
            return -float(state.deal_points[me])
        state = apply(state, bots[state.to_play].act(state))
    raise RuntimeError("a rollout did not end its deal")  # pragma: no cover - a deal ends by the stock's rules


def _exact(state: State, action: Action) -> float | None:
    """The value of an option that needs no rollout: a drop's points, a valid show's 0."""
    if action.kind is Kind.DROP:
        return -float(apply(state, action).deal_points[state.to_play])
    if action.kind is Kind.DECLARE:
        return 0.0
    return None


def evaluate(state: State, *, samples: int = SAMPLES, seed: SeedLike = 0) -> Evaluation:
    """Every option of the decision ``state`` asks of its player to act, valued from her view
    (``options``, ``world``): ``samples`` worlds, the same for every option, each played out by
    greedy bots. ValueError for a bad ``samples`` or a state with no decision."""
    if isinstance(samples, bool) or not isinstance(samples, int) or samples < 2:
        raise ValueError(f"samples={samples!r}: a whole number of worlds, 2 or more")
    actions = options(state)
    rng = rng_from(seed)
    worlds = [(world(state, rng), int(rng.integers(2**31))) for _ in range(samples)]
    played: dict[Action, Any] = {}
    for action in actions:
        exact = _exact(state, action)
        played[action] = exact if exact is not None else np.array(
            [_played_out(apply(w, action), s) for w, s in worlds])
    means = {a: float(np.mean(v)) if isinstance(v, np.ndarray) else float(v) for a, v in played.items()}
    best = max(actions, key=lambda a: (means[a], -actions.index(a)))
    out = []
    for action in sorted(actions, key=lambda a: (-means[a], actions.index(a))):
        v, b = played[action], played[best]
        se = float(np.std(v, ddof=1) / np.sqrt(samples)) if isinstance(v, np.ndarray) else 0.0
        paired = (np.asarray(v) - np.asarray(b)) * np.ones(samples)
        diff_se = float(np.std(paired, ddof=1) / np.sqrt(samples))
        out.append(Option(action=action, label=_label(action), value=means[action], se=se,
                          diff=means[action] - means[best], diff_se=diff_se, exact=not isinstance(v, np.ndarray)))
    return Evaluation(seat=state.to_play, phase=state.phase, options=tuple(out), worlds=samples)
