"""Melds with wild cards as cards: what the wild-card search found, in Card objects."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..cards import BIT_CARD, RANKS, SUITS, Card, bits_of


@dataclass(frozen=True)
class WildMeld:
    """A meld with wild cards: the cards held, and what each wild card stands for."""

    kind: str
    """set, run, pure (a run with no wild standing in), or wild (wild cards only)."""
    cards: tuple[Card, ...]
    stands_for: tuple[str, ...]
    """For each wild card used as a wild: the card it stands for ("9S"), or a rank for a set ("K")."""

    def __str__(self) -> str:
        wild = f" (wild as {' '.join(self.stands_for)})" if self.stands_for else ""
        return " ".join(map(str, self.cards)) + wild


def melds_of(cards: tuple[Card, ...], arrangement: Any, wild_rank: int,
             ace_high: bool) -> tuple[tuple[WildMeld, ...], tuple[Card, ...]]:
    """(melds, leftover cards) of a kernel arrangement of these cards; wild cards that stand
    for themselves are placed as naturals, the others (and printed jokers) where wilds go."""
    _, melds, dead, _ = arrangement
    wilds = [c for c in cards if c.rank == wild_rank] + [c for c in cards if c.is_joker]
    for m in melds:
        if m[0] in ("set", "run", "pure"):
            for b in m[-2]:
                if BIT_CARD[b].rank == wild_rank:
                    wilds.remove(BIT_CARD[b])
    out = []
    for m in melds:
        if m[0] == "wild":
            n = m[1]
            out.append(WildMeld("wild", tuple(wilds[:n]), ("any",) * n))
            wilds = wilds[n:]
            continue
        naturals = tuple(BIT_CARD[b] for b in m[-2])
        n = m[-1]
        mine, wilds = tuple(wilds[:n]), wilds[n:]
        stands = ((RANKS[m[1]],) * n if m[0] == "set" else _run_stand_ins(m[1], m[2], m[3], naturals, n, ace_high))
        out.append(WildMeld(m[0], naturals + mine, stands))
    leftover = [BIT_CARD[b] for layer in dead for b in bits_of(layer)] + wilds
    return tuple(out), tuple(sorted(leftover))


def _run_stand_ins(suit: int, first: int, length: int, naturals: tuple[Card, ...], n: int,
                   ace_high: bool) -> tuple[str, ...]:
    top = 13 if ace_high else 12
    held = {(13 if (c.rank == 0 and first + length - 1 == 13) else c.rank) for c in naturals}
    places = [q for q in range(first, first + length) if q not in held]
    hi, lo = first + length - 1, first
    while len(places) < n:  # absorbed wilds extend the run
        if hi < top:
            hi += 1
            places.append(hi)
        else:
            lo -= 1
            places.insert(0, lo)
    return tuple(RANKS[q % 13] + SUITS[suit] for q in places[:n])
