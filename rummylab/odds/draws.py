"""Draw odds for the hand in front of you: what the next stock card does, exactly."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..cards import DECK, Card, CardsLike, parse_cards
from ..gin.analysis import KNOCK_LIMIT, gin_kernel


@dataclass(frozen=True)
class DrawOdds:
    """Every unseen card is equally likely to be the next stock card."""

    deadwood: int
    """Deadwood of the hand now (10 cards)."""
    after_draw: tuple[tuple[Card, int], ...]
    """For each unseen card: deadwood after drawing it and making the best discard."""
    knock_limit: int = KNOCK_LIMIT

    @property
    def unseen(self) -> int:
        return len(self.after_draw)

    def _cards(self, keep: object) -> frozenset[Card]:
        return frozenset(c for c, dw in self.after_draw if keep(dw))  # type: ignore[operator]

    @property
    def improving(self) -> frozenset[Card]:
        """Outs that lower the deadwood."""
        return self._cards(lambda dw: dw < self.deadwood)

    @property
    def knocking(self) -> frozenset[Card]:
        """Outs after which the hand can knock."""
        return self._cards(lambda dw: dw <= self.knock_limit)

    @property
    def gin_cards(self) -> frozenset[Card]:
        """Outs that make gin."""
        return self._cards(lambda dw: dw == 0)

    def probability(self, outs: frozenset[Card]) -> float:
        return len(outs) / self.unseen if self.unseen else 0.0

    @property
    def p_improve(self) -> float:
        return self.probability(self.improving)

    @property
    def p_knock(self) -> float:
        return self.probability(self.knocking)

    @property
    def p_gin(self) -> float:
        return self.probability(self.gin_cards)


def draw_odds(hand: CardsLike, seen: CardsLike = (), *, knock_limit: int = KNOCK_LIMIT) -> DrawOdds:
    """Exact odds that the next stock card improves a 10-card hand, lets it knock, or makes
    gin. ``seen``: cards known not to be in the stock (the discard pile, the opponent's pick-ups)."""
    cards = parse_cards(hand, size=10, jokers=0)
    known = parse_cards(seen, jokers=0)
    mask = sum(c.bit for c in cards)
    seen_mask = 0
    for c in known:
        if mask & c.bit:
            raise ValueError(f"{c}: in the hand and among the seen cards")
        seen_mask |= c.bit
    unseen = [c for c in DECK if not (mask | seen_mask) & c.bit]
    k = gin_kernel()
    masks = np.array([mask | c.bit for c in unseen], dtype=np.uint64)
    out = np.empty(masks.size, dtype=np.int32)
    k.deadwood_batch(masks, out, True)
    return DrawOdds(deadwood=int(k.deadwood(mask)), after_draw=tuple(zip(unseen, out.tolist(), strict=True)),
                    knock_limit=knock_limit)
