"""The cards a player cannot see, drawn from her view only, for every family: how likely an
opponent holds an unseen card given what that opponent was seen to take, throw and leave on the
pile (``hold_weight``: one rule, gin's expert and every family's worlds read it), a set of cards
drawn with the chance its weights give it (``weighted_draw``), and a world dealt again
(``redealt``: Indian rummy, Three Thirteen; gin's worlds are in ``gin.worlds``).

Plain: imports numpy and the cards only.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from .cards import Card

HOLD_WEIGHT = 8
"""An unseen card's weight of being in an opponent's hand before the evidence (``hold_weight``)."""
CHANCES_KEPT = 64
"""``Seen.draw`` keeps the chances of this many sets of cards (the first other hand is drawn from
the same cards in every world; the later ones from what is left)."""


def hold_weight(picked: int, thrown: int, declined: int, base: int = HOLD_WEIGHT) -> int:
    """An unseen card's weight of being in an opponent's hand, in whole numbers: ``base``, doubled
    for each card it melds with that the opponent took from the pile (``picked``), halved for each
    it melds with that they threw, cut by a quarter for each they left on the pile to draw from the
    stock (``declined``), never below 1 (in that order: the compiled gin expert computes it alike)."""
    w = base
    for _i in range(picked):
        w *= 2
    for _i in range(thrown):
        w = max(1, w // 2)
    for _i in range(declined):
        w = max(1, w * 3 // 4)
    return w


def near(a: Card, b: Card, ace_high: bool = False) -> bool:
    """Whether two natural cards meld together: the same rank (other suits), or the same suit a
    rank or two apart (the ace next to the king too when ``ace_high``). A printed joker melds with
    anything and tells nothing: never near."""
    if a.is_joker or b.is_joker or a == b:
        return False
    if a.rank == b.rank:
        return True
    gap = abs(a.rank - b.rank)
    return a.suit == b.suit and (gap <= 2 or (ace_high and gap >= 11))


class Seen:
    """What each other player was seen to do this deal, as each unseen card's weight of being in
    her hand (``hold_weight``), for ``redealt``: the cards she took from the pile and holds, threw
    and left (per seat; empty: nothing seen), ``related`` saying which cards meld (a family leaves
    its wild cards out: they tell nothing). Each card's weight is worked out once, and each hand's
    chances (``suffix_polynomials``) once for the cards it is drawn from."""

    def __init__(self, picked: Sequence[Sequence[Card]], thrown: Sequence[Sequence[Card]],
                 declined: Sequence[Sequence[Card]], related: Callable[[Card, Card], bool]) -> None:
        self.picked, self.thrown, self.declined, self.related = picked, thrown, declined, related
        self._weight: dict[tuple[int, Card], float] = {}
        self._chances: dict[tuple[int, int, tuple[Card, ...]], tuple[list[float], list[list[float]]]] = {}

    def weights(self, p: int, cards: Sequence[Card]) -> np.ndarray:
        """Each card's weight of being in hand ``p``."""
        return np.array([self._of(p, c) for c in cards])

    def _of(self, p: int, c: Card) -> float:
        w = self._weight.get((p, c))
        if w is None:
            seen = lambda cards: cards[p] if p < len(cards) else ()  # noqa: E731
            w = self._weight[p, c] = float(hold_weight(sum(self.related(c, x) for x in seen(self.picked)),
                                                       sum(self.related(c, t) for t in seen(self.thrown)),
                                                       sum(self.related(c, y) for y in seen(self.declined))))
        return w

    def draw(self, p: int, cards: Sequence[Card], k: int, rng: np.random.Generator) -> list[bool]:
        """``weighted_draw`` of one hand: which of ``cards`` hand ``p`` holds (k of them), from
        ``rng.random(len(cards))``, in plain floats (one draw: numpy's overhead would cost more)."""
        key = (p, k, tuple(cards))
        found = self._chances.get(key)
        if found is None:
            if len(self._chances) >= CHANCES_KEPT:  # a later hand's cards change world by world
                self._chances.clear()
            raw = self.weights(p, cards)
            scaled = raw / raw.max() if len(raw) else raw
            found = self._chances[key] = (scaled.tolist(), suffix_polynomials(scaled, k).tolist())
        w, e = found
        left, out = k, []
        for i, u in enumerate(rng.random(len(cards)).tolist()):
            take = left > 0 and u < w[i] * e[i + 1][left - 1] / e[i][left]
            out.append(take)
            left -= take
        return out


def suffix_polynomials(weights: np.ndarray, k: int) -> np.ndarray:
    """e[i, j]: the elementary symmetric polynomial of degree j of weights[i:], j = 0..k."""
    m = len(weights)
    e = np.zeros((m + 1, k + 1))
    e[:, 0] = 1.0
    for i in range(m - 1, -1, -1):
        e[i, 1:] = e[i + 1, 1:] + weights[i] * e[i + 1, :-1]
    return e


def weighted_draw(weights: np.ndarray, k: int, draws: np.ndarray) -> np.ndarray:
    """Which of the m cards each of n draws takes (n x m, True: taken): k cards, a set of them as
    likely as the product of its weights, card by card with its exact conditional chance, card i
    taken when ``draws[:, i]`` (uniforms in [0, 1)) is below it. The compiled gin loop draws alike
    (ext/_play_gin_rollout_bot.pxi, ``_rollout_worlds``)."""
    n, m = draws.shape
    e = suffix_polynomials(weights, k)
    left = np.full(n, k)
    chosen = np.zeros((n, m), dtype=bool)
    for i in range(m):
        can = left > 0
        p = np.where(can, weights[i] * e[i + 1, np.maximum(left - 1, 0)] / np.where(can, e[i, left], 1.0), 0.0)
        take = draws[:, i] < p
        chosen[:, i] = take
        left -= take
    return chosen


def redealt(hands: Sequence[tuple[Any, ...]], me: int, hidden: Sequence[Any], rng: np.random.Generator,
            kept: Sequence[tuple[Any, ...]] = (), seen: Seen | None = None
            ) -> tuple[tuple[tuple[Any, ...], ...], list[Any]]:
    """A world from seat ``me``'s view: the cards she cannot see (the other ``hands`` and
    ``hidden``, the unseen rest) dealt again, each other hand its size and still holding the cards
    ``kept[p]`` (those it was seen to take from the pile); the new hands and the cards left over
    (the stock, in random order). ``seen``: what the other players were seen to do, each hand's
    unknown cards drawn by their weights (``Seen.draw``) in seat order (None: all alike). The
    unseen cards are taken in sorted order, so where they lay is never read."""
    known = [list(kept[p]) if p < len(kept) and p != me else [] for p in range(len(hands))]
    unseen: list[Any] = list(hidden)
    for p, h in enumerate(hands):
        if p != me:
            rest = list(h)
            for c in known[p]:
                rest.remove(c)  # one copy (two decks hold two of a card)
            unseen += rest
    unseen.sort()
    if seen is None:
        dealt = [unseen[i] for i in rng.permutation(len(unseen))]
        out, at = [], 0
        for p, h in enumerate(hands):
            if p == me:
                out.append(tuple(h))
            else:
                size = len(h) - len(known[p])
                out.append(tuple(sorted(known[p] + dealt[at:at + size])))
                at += size
        return tuple(out), dealt[at:]
    out = []
    for p, h in enumerate(hands):
        if p == me:
            out.append(tuple(h))
            continue
        taken = seen.draw(p, unseen, len(h) - len(known[p]), rng)
        out.append(tuple(sorted(known[p] + [c for c, t in zip(unseen, taken, strict=True) if t])))
        unseen = [c for c, t in zip(unseen, taken, strict=True) if not t]
    return tuple(out), [unseen[i] for i in rng.permutation(len(unseen))]
