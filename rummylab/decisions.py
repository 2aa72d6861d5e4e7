"""Options of a decision valued by rollouts, for the families without a compiled start-anywhere
loop (Indian rummy, Three Thirteen): every option meets the same sampled worlds, so the
difference of two options has a smaller error than either value; an option whose value needs no
rollout is exact. Each family says what its options are, how a world is drawn from the player's
view, how a rollout ends and what it is worth (``indian.evaluation``, ``three_thirteen.evaluation``)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from .cards import SeedLike, rng_from


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


@dataclass(frozen=True, kw_only=True)
class Evaluation:
    """Every option of the decision, best first; ``unit`` says what a value counts."""

    seat: int
    phase: Any
    options: tuple[Option, ...]
    worlds: int
    unit: str

    @property
    def best(self) -> Option:
        return self.options[0]

    def of(self, action: Any) -> Option:
        """The value of ``action`` (one of the options)."""
        for o in self.options:
            if o.action == action:
                return o
        raise ValueError(f"{action} is not an option of this decision")

    def __str__(self) -> str:
        lines = [f"player {self.seat} to act ({self.phase.value}); {self.unit} ({self.worlds} worlds)"]
        for o in self.options:
            err = "exact" if o.exact else f"± {o.se:.1f}"
            diff = "best" if o is self.best else f"{o.diff:+.1f}" + ("" if o.exact and self.best.exact
                                                                     else f" ± {o.diff_se:.1f}")
            lines.append(f"  {o.label:<22} {o.value:+7.1f} {err:<8} {diff}")
        return "\n".join(lines)


def redealt(hands: Sequence[tuple[Any, ...]], me: int, hidden: Sequence[Any], rng: np.random.Generator
            ) -> tuple[tuple[tuple[Any, ...], ...], list[Any]]:
    """A world from seat ``me``'s view: the cards she cannot see (the other ``hands`` and
    ``hidden``, the unseen rest) dealt again at random, each other hand its size; the new hands
    and the cards left over (the stock). The unseen cards are taken in order, so where they lay is
    never read."""
    unseen = sorted([c for p, h in enumerate(hands) if p != me for c in h] + list(hidden))
    dealt = [unseen[i] for i in rng.permutation(len(unseen))]
    out, at = [], 0
    for p, h in enumerate(hands):
        if p == me:
            out.append(tuple(h))
        else:
            out.append(tuple(dealt[at:at + len(h)]))
            at += len(h)
    return tuple(out), dealt[at:]


def check_samples(samples: object) -> int:
    """``samples`` as a number of worlds; ValueError names a bad one."""
    if isinstance(samples, bool) or not isinstance(samples, int) or samples < 2:
        raise ValueError(f"samples={samples!r}: a whole number of worlds, 2 or more")
    return samples


def valued(state: Any, actions: Sequence[Any], *, seat: int, phase: Any, unit: str, samples: int, seed: SeedLike,
           world: Callable[[Any, np.random.Generator], Any],
           played_out: Callable[[Sequence[Any], Sequence[int]], np.ndarray],
           exact: Callable[[Any, Any], float | None], label: Callable[[Any], str],
           apply: Callable[[Any, Any], Any]) -> Evaluation:
    """``actions`` of ``state`` valued: ``exact`` where it gives a value, else the mean over
    ``samples`` worlds (the same for every option) of what ``played_out`` gives the states after
    the action, each with its world's seed (one call for every option and world)."""
    samples = check_samples(samples)
    rng = rng_from(seed)
    worlds = [(world(state, rng), int(rng.integers(2**31))) for _ in range(samples)]
    played: dict[Any, float | np.ndarray] = {}
    rolled = []
    for action in actions:
        known = exact(state, action)
        if known is None:
            rolled.append(action)
        else:
            played[action] = known
    if rolled:
        after = [apply(w, a) for a in rolled for w, _ in worlds]
        values = np.asarray(played_out(after, [s for _ in rolled for _, s in worlds]), dtype=float)
        played.update(zip(rolled, values.reshape(len(rolled), samples), strict=True))
    means = {a: float(np.mean(v)) for a, v in played.items()}
    order = list(actions)
    best = max(order, key=lambda a: (means[a], -order.index(a)))
    out = []
    for action in sorted(order, key=lambda a: (-means[a], order.index(a))):
        v = played[action]
        se = float(np.std(v, ddof=1) / np.sqrt(samples)) if isinstance(v, np.ndarray) else 0.0
        paired = (np.asarray(v) - np.asarray(played[best])) * np.ones(samples)
        out.append(Option(action=action, label=label(action), value=means[action], se=se,
                          diff=means[action] - means[best], diff_se=float(np.std(paired, ddof=1) / np.sqrt(samples)),
                          exact=not isinstance(v, np.ndarray)))
    return Evaluation(seat=seat, phase=phase, options=tuple(out), worlds=samples, unit=unit)
