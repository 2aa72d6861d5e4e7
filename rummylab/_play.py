"""Pieces shared by the game modules: immutable states changed only by checked actions."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any, TypeVar

S = TypeVar("S")


class IllegalAction(ValueError):
    """An action the rules do not allow now; the message names the rule."""


def evolve(state: S, **changes: Any) -> S:
    """A copy of a frozen state with some fields changed (no re-validation: the caller checked)."""
    new = object.__new__(type(state))
    new.__dict__.update(state.__dict__)
    new.__dict__.update(changes)
    return new


def replace_at(items: tuple, i: int, value: Any) -> tuple:
    """The tuple with item i replaced."""
    return items[:i] + (value,) + items[i + 1:]


def restock(stock: tuple, discards: tuple, reshuffles: int, key: str) -> tuple[tuple, tuple, int]:
    """(stock, discards, reshuffles): an empty stock is refilled by the discard pile, all but
    its top card, shuffled by an RNG seeded with ``key`` and the reshuffle count."""
    if stock:
        return stock, discards, reshuffles
    pile = list(discards[:-1])
    random.Random(f"{key}:reshuffle{reshuffles}").shuffle(pile)
    return tuple(pile), discards[-1:], reshuffles + 1


def apply_checked(state: S, action: Any, action_type: type, step: Callable[[S, Any], S],
                  error: type[Exception]) -> S:
    """The state after a checked action, with the action added to its history."""
    if not isinstance(action, action_type):
        raise error(f"{action!r} is not an Action")
    new = step(state, action)
    new.__dict__["history"] = state.history + (action,)  # type: ignore[attr-defined]
    return new
