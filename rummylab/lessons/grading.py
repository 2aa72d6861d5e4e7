"""The server's grade of a check: what a student typed, read against the exercise as the teacher's
key defines it (``key.key``: the lessons run, each exercise's kind and right answer), never against
what her kernel says. The rummylab hub service grades every check this way."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from .key import KeyEntry
from .kinds import ANY_CARD, KINDS, ONE_OF, AnyKind, Kind, Parts

_OR = re.compile(r"\s+or\s+", re.IGNORECASE)


def kind_named(name: str) -> AnyKind:
    """The kind a key entry names (``Kind.name``, or a ``Parts`` name such as ``(text, number)``);
    ValueError names an unknown one."""
    if name.startswith("(") and name.endswith(")"):
        return Parts(kinds=tuple(_simple(part.strip()) for part in name[1:-1].split(",")))
    return _simple(name)


def _simple(name: str) -> Kind:
    if name not in KINDS:
        raise ValueError(f"kind {name!r}: one of {', '.join(KINDS)}")
    return KINDS[name]


def read_shown(kind: AnyKind, text: str) -> Any:
    """``text`` as ``kind.show`` or ``kind.tell`` writes it (or a student types it), in the kind's
    normal form: their inverse, where several acceptable answers are joined by "or"."""
    if isinstance(kind, Parts):
        parts = text.split(",")
        if len(parts) != len(kind.kinds):
            raise ValueError(f"give {len(kind.kinds)} parts split by commas ({kind.what})")
        return tuple(read_shown(k, p.strip()) for k, p in zip(kind.kinds, parts, strict=True))
    if kind in (ONE_OF, ANY_CARD) and _OR.search(text):
        return kind.read([part for part in _OR.split(text.strip()) if part])
    return kind.read(text)


@dataclass(frozen=True)
class Graded:
    """One exercise as the server grades it: its kind and its right answer in normal form."""

    kind: AnyKind
    answer: Any
    skill: str = ""
    """What the exercise practises (the key's), recorded with each check the server grades."""

    def right(self, typed: str) -> bool:
        """Whether ``typed`` is right; an answer that cannot be read is wrong."""
        try:
            given = read_shown(self.kind, typed)
        except ValueError:
            return False
        return bool(self.kind.right(given, self.answer))


def graded(entries: Iterable[KeyEntry]) -> dict[tuple[str, str], Graded | dict[int, Graded]]:
    """{(lesson, exercise): how it is graded} from the key's entries: a variant exercise's is
    {variant: how that variant is graded}. ValueError names an entry (or a variant) whose answer
    the server cannot read back (the preflight would fail that lesson too)."""
    found: dict[tuple[str, str], Graded | dict[int, Graded]] = {}
    for e in entries:
        kind = kind_named(e.kind)
        if e.variants:
            found[(e.lesson, e.name)] = {
                v.number: _graded(kind, v.answer, e.skill, f"{e.lesson} / {e.name} variant {v.number}")
                for v in e.variants if not v.error}
        else:
            found[(e.lesson, e.name)] = _graded(kind, e.answer, e.skill, f"{e.lesson} / {e.name}")
    return found


def _graded(kind: AnyKind, shown: str, skill: str, what: str) -> Graded:
    try:
        return Graded(kind, read_shown(kind, shown), skill)
    except ValueError as exc:
        raise ValueError(f"{what}: the key's answer {shown!r} cannot be read back: {exc}") from None
