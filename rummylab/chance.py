"""Where every chance outcome of a game comes from: one stream per chance event, defined once.

A game's chance events (a deal, the discard pile shuffled into a new stock, a dropped hand shuffled back,
the toss, the first dealer) each draw from their own numpy ``Philox`` stream, keyed by the
game's seed and family and counted by the event: ``stream("gin", 7, "deal", 3)`` is the fourth
deal of gin game 7 wherever it is dealt. Philox is counter-based, so an event's stream is a
position in it, not a seeding: nothing is hashed and no generator is copied. The engine
shuffles with ``Generator.shuffle``; the compiled loops set the same state (``bit_state``) on
their own Philox and shuffle with numpy's C ``random_interval`` (what ``Generator.shuffle``
draws), so for a seed both play the same games; either way the outcomes are recorded in the
history (``play.Chance``) and a trace, and a game replays without a generator.

Plain: imports numpy only.
"""

from __future__ import annotations

from collections.abc import MutableSequence
from typing import Any, TypeVar

import numpy as np

T = TypeVar("T")

WORD = 2**64


def _word(name: str) -> int:
    """A name as a 64-bit number (its first 8 bytes), to key or count a stream by it."""
    raw = name.encode()
    if len(raw) > 8:
        raise ValueError(f"{name!r}: a chance stream's name has at most 8 bytes")
    return int.from_bytes(raw, "little")


def bit_state(family: str, seed: int, kind: str, deal: int = 0, number: int = 0) -> dict[str, Any]:
    """The ``Philox.state`` at the start of one chance event: key (seed, family), counter
    (0, kind, deal, number). ``number`` tells apart the events of a kind in one deal (the
    restock count, the player who dropped)."""
    if not 0 <= seed < WORD:
        raise ValueError(f"seed={seed!r}: a game seed is a whole number from 0 to 2**64 - 1")
    return {"bit_generator": "Philox",
            "state": {"counter": np.array([0, _word(kind), deal, number], dtype=np.uint64),
                      "key": np.array([seed, _word(family)], dtype=np.uint64)},
            "buffer": np.zeros(4, dtype=np.uint64), "buffer_pos": 4, "has_uint32": 0, "uinteger": 0}


def stream(family: str, seed: int, kind: str, deal: int = 0, number: int = 0) -> np.random.Generator:
    """The generator of one chance event (see ``bit_state``)."""
    bits = np.random.Philox(0)
    bits.state = bit_state(family, seed, kind, deal, number)  # type: ignore[assignment]  # numpy types it narrowly
    return np.random.Generator(bits)


def shuffle(items: MutableSequence[T], family: str, seed: int, kind: str, deal: int = 0,
            number: int = 0) -> MutableSequence[T]:
    """``items`` shuffled in place by the event's stream (``Generator.shuffle``), and returned."""
    stream(family, seed, kind, deal, number).shuffle(items)  # type: ignore[arg-type]
    return items


def below(n: int, family: str, seed: int, kind: str, deal: int = 0, number: int = 0) -> int:
    """A number from 0 to n - 1 by the event's stream (``Generator.integers``)."""
    return int(stream(family, seed, kind, deal, number).integers(n))
