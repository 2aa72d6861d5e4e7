"""Cards, card strings and card masks.

A card is one bit of a 64-bit mask (as in eval7): suit ``s`` (S, H, D, C = 0..3)
and rank ``r`` (A = 0 … K = 12) sit at bit ``16 * s + r``. A two-deck hand is
two masks (cards held at least once, cards held twice) plus a joker count.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field

import numpy as np

from .i18n import _

RANKS = "A23456789TJQK"
SUITS = "SHDC"
SUIT_SYMBOLS = "♠♥♦♣"
_SUIT_ALIASES = {**{s: i for i, s in enumerate(SUITS)}, **{s: i for i, s in enumerate(SUIT_SYMBOLS)},
                 **{s: i for i, s in enumerate("♤♡♢♧")}}
_RANK_ALIASES = {**{r: i for i, r in enumerate(RANKS)}, "10": 9}
_JOKER_WORDS = {"JK", "JOKER", "🃏"}

RANK_MASK = 0x1FFF
"""The 13 rank bits of one suit."""
FULL_DECK = sum(RANK_MASK << (16 * s) for s in range(4))
"""Mask of all 52 cards."""
ACES = sum(1 << (16 * s) for s in range(4))
"""Mask of the four aces; ``ACES << rank`` is that rank in every suit."""


@dataclass(frozen=True, eq=False, slots=True)
class Card:
    """One playing card; ``str(card)`` is its two-character form (``"TD"``, ``"JK"``). Cards
    order by rank, then suit."""

    rank: int
    """0 (ace) … 12 (king); 13 for the printed joker."""
    suit: int
    """0..3 for S, H, D, C; 4 for the printed joker."""
    _bit: int = field(init=False, repr=False, compare=False)
    _order: int = field(init=False, repr=False, compare=False)  # rank, then suit: one int to compare and hash

    def __post_init__(self) -> None:
        if not ((0 <= self.rank < 13 and 0 <= self.suit < 4) or (self.rank, self.suit) == (13, 4)):
            raise ValueError(f"no such card: rank {self.rank!r}, suit {self.suit!r}")
        object.__setattr__(self, "_bit", 0 if self.rank == 13 else 1 << (16 * self.suit + self.rank))
        object.__setattr__(self, "_order", self.rank * 8 + self.suit)

    # cards are sorted, counted and put in sets in every turn of every game: one int each
    def __hash__(self) -> int:
        return self._order

    def __eq__(self, other: object) -> bool:
        return self._order == other._order if other.__class__ is Card else NotImplemented  # type: ignore[attr-defined]

    def __lt__(self, other: Card) -> bool:
        return self._order < other._order if other.__class__ is Card else NotImplemented

    def __le__(self, other: Card) -> bool:
        return self._order <= other._order if other.__class__ is Card else NotImplemented

    def __gt__(self, other: Card) -> bool:
        return self._order > other._order if other.__class__ is Card else NotImplemented

    def __ge__(self, other: Card) -> bool:
        return self._order >= other._order if other.__class__ is Card else NotImplemented

    @property
    def is_joker(self) -> bool:
        return self.rank == 13

    @property
    def bit(self) -> int:
        """The card's single-bit mask."""
        if not self._bit:
            raise ValueError("JK (a printed joker) has no bit in a card mask")
        return self._bit

    @property
    def symbol(self) -> str:
        """Display form with a suit symbol, e.g. ``"T♦"``."""
        return "JK" if self.is_joker else RANKS[self.rank] + SUIT_SYMBOLS[self.suit]

    def __str__(self) -> str:
        return "JK" if self.is_joker else RANKS[self.rank] + SUITS[self.suit]

    def __repr__(self) -> str:
        return f"Card({str(self)!r})"

    def _repr_html_(self) -> str:
        from .display import card_chip

        return card_chip(self)

    @classmethod
    def parse(cls, token: str) -> Card:
        """One card from a string such as ``"AS"``, ``"10d"``, ``"K♥"`` or ``"JK"``."""
        return _parse_token(token)


JOKER = Card(13, 4)


class Cards(tuple):  # type: ignore[type-arg]
    """A tuple of cards that shows itself as cards: ``AS TD KH`` in text, card chips in HTML."""

    __slots__ = ()

    def __str__(self) -> str:
        return " ".join(map(str, self))

    def __repr__(self) -> str:
        return f"Cards({str(self)!r})"

    def _repr_html_(self) -> str:
        from .display import chips

        return chips(self)
"""The printed joker."""

DECK: tuple[Card, ...] = tuple(Card(r, s) for s in range(4) for r in range(13))
"""The 52 cards, suit by suit."""

CardsLike = str | Card | Iterable[str | Card]
"""What every function accepts as cards: ``"AS TD"``, ``["AS", "TD"]`` or Cards."""

_TOKEN_SPLIT = re.compile(r"[\s,;]+")


def _parse_token(token: str) -> Card:
    if not isinstance(token, str):
        raise ValueError(f"card {token!r} is not a string or Card")
    t = token.strip()
    if t.upper() in _JOKER_WORDS:
        return JOKER
    if len(t) < 2:
        raise ValueError(_("card {token} is too short: write a rank and a suit, e.g. 'AS' or '10D'").format(
            token=repr(token)))
    rank_part, suit_part = t[:-1].upper(), t[-1].upper()
    if rank_part not in _RANK_ALIASES:
        raise ValueError(_("card {token} has unknown rank {rank} (ranks: A 2-9 T or 10 J Q K)").format(
            token=repr(token), rank=repr(t[:-1])))
    if suit_part not in _SUIT_ALIASES:
        raise ValueError(_("card {token} has unknown suit {suit} (suits: S H D C or ♠ ♥ ♦ ♣)").format(
            token=repr(token), suit=repr(t[-1])))
    return Card(_RANK_ALIASES[rank_part], _SUIT_ALIASES[suit_part])


def parse_cards(
    cards: CardsLike,
    *,
    size: int | Iterable[int] | None = None,
    copies: int = 1,
    jokers: int = 2,
) -> tuple[Card, ...]:
    """Cards from a string, an iterable of strings, or Cards, checked.

    ``size``: the allowed hand size(s); ``copies``: how often one card may appear
    (the number of decks); ``jokers``: how many printed jokers may appear.
    Raises ``ValueError`` naming the bad token.
    """
    if isinstance(cards, Card):
        items: list[str | Card] = [cards]
    elif isinstance(cards, str):
        items = [t for t in _TOKEN_SPLIT.split(cards.strip()) if t]
    else:
        try:
            items = list(cards)
        except TypeError:
            raise ValueError(f"cards must be a string or an iterable of cards, not {cards!r}") from None
    out = Cards(c if isinstance(c, Card) else _parse_token(c) for c in items)
    counts: dict[Card, int] = {}
    for c in out:
        counts[c] = counts.get(c, 0) + 1
        if c.is_joker:
            if counts[c] > jokers:
                raise ValueError(_("JK: a printed joker is not allowed here") if jokers == 0
                                 else _("JK: more than {n} printed jokers").format(n=jokers))
        elif counts[c] > copies:
            one = _("{card}: duplicate card ({n} copies in a one deck hand)")
            more = _("{card}: duplicate card ({n} copies in a {decks} decks hand)")
            raise ValueError((one if copies == 1 else more).format(card=c, n=counts[c], decks=copies))
    if size is not None:
        sizes = (size,) if isinstance(size, int) else tuple(size)
        if len(out) not in sizes:
            want = _(" or ").join(str(s) for s in sizes)
            raise ValueError(_("wrong hand size: {n} cards ({cards}); {want} expected").format(
                n=len(out), cards=" ".join(map(str, out)) or _("none"), want=want))
    return out


def to_mask(cards: CardsLike) -> int:
    """A one-deck hand as a 64-bit mask."""
    mask = 0
    for c in parse_cards(cards, jokers=0):
        mask |= c.bit
    return mask


def check_mask(mask: int) -> int:
    """The mask as an int, if it is a valid one-deck card mask; else ``ValueError``."""
    if isinstance(mask, (bool, float)) or not isinstance(mask, (int, np.integer)):
        raise ValueError(f"card mask {mask!r} is not an integer")
    m = int(mask)
    if m < 0 or m >> 64:
        raise ValueError(f"card mask {m:#x} is not a 64-bit unsigned integer")
    if m & ~FULL_DECK:
        bad = (m & ~FULL_DECK).bit_length() - 1
        raise ValueError(f"card mask {m:#x} sets bit {bad}, which is no card "
                         "(bits 13-15 of each 16-bit suit are unused)")
    return m


def from_mask(mask: int) -> tuple[Card, ...]:
    """The cards of a one-deck mask, suit by suit, ace to king."""
    return mask_cards(check_mask(mask))


BIT_CARD: dict[int, Card] = {c.bit: c for c in DECK}
"""The card of each single-bit mask."""


def mask_cards(mask: int) -> tuple[Card, ...]:
    """The cards of a validated mask, suit by suit, ace to king."""
    out = []
    while mask:
        low = mask & -mask
        out.append(BIT_CARD[low])
        mask ^= low
    return Cards(out)


def bits_of(mask: int) -> list[int]:
    """The single-bit masks of a hand, lowest first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low)
        mask ^= low
    return out


def without(cards: Iterable[Card], card: Card) -> list[Card]:
    """The cards with one copy of ``card`` taken out."""
    out = list(cards)
    out.remove(card)
    return out


def deck_masks(cards: Iterable[Card]) -> tuple[int, int, int, int]:
    """(once, twice, thrice, printed jokers) of validated cards from up to three decks: the
    cards held at least once, at least twice, three times."""
    once = twice = thrice = jokers = 0
    for c in cards:
        b = c._bit
        if not b:
            jokers += 1
        elif twice & b:
            thrice |= b
        elif once & b:
            twice |= b
        else:
            once |= b
    return once, twice, thrice, jokers


def two_deck_masks(cards: Iterable[Card]) -> tuple[int, int, int]:
    """(once, twice, printed jokers) of validated cards from two decks."""
    once, twice, _thrice, jokers = deck_masks(cards)
    return once, twice, jokers


def cards_str(cards: Iterable[Card]) -> str:
    """Cards as a space-separated string, e.g. ``"AS 2S 3S"``."""
    return " ".join(str(c) for c in cards)


@dataclass(frozen=True, slots=True, kw_only=True)
class TwoDeckHand:
    """A hand from two decks (and printed jokers): two masks plus a joker count."""

    once: int
    """Cards held at least once."""
    twice: int
    """Cards held twice (a subset of ``once``)."""
    jokers: int = 0
    """Printed jokers held."""

    def __post_init__(self) -> None:
        check_mask(self.once)
        check_mask(self.twice)
        if self.twice & ~self.once:
            raise ValueError(f"twice mask {self.twice:#x} holds cards missing from once mask {self.once:#x}")
        if not 0 <= self.jokers <= 2:
            raise ValueError(f"{self.jokers} printed jokers: a two-deck pack has 2")

    @classmethod
    def from_cards(cls, cards: CardsLike) -> TwoDeckHand:
        once, twice, jokers = two_deck_masks(parse_cards(cards, copies=2, jokers=2))
        return cls(once=once, twice=twice, jokers=jokers)

    def cards(self) -> tuple[Card, ...]:
        out: list[Card] = []
        for c in DECK:
            if self.once & c.bit:
                out.append(c)
            if self.twice & c.bit:
                out.append(c)
        return tuple(out) + (JOKER,) * self.jokers

    def __len__(self) -> int:
        return self.once.bit_count() + self.twice.bit_count() + self.jokers


# Bit of the i-th card of DECK, for vectorised dealing.
_DECK_BITS = np.array([c.bit for c in DECK], dtype=np.uint64)

SeedLike = int | np.random.Generator | None


def rng_from(seed: SeedLike) -> np.random.Generator:
    """A numpy Generator from a seed or a Generator (``None``: fresh entropy)."""
    if isinstance(seed, np.random.Generator):
        return seed
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, (int, np.integer))):
        raise ValueError(f"seed {seed!r} is not an integer or numpy Generator")
    return np.random.default_rng(seed)


def random_hands(n: int, size: int, seed: SeedLike) -> np.ndarray:
    """``n`` uniformly random one-deck hands of ``size`` distinct cards, as uint64 masks."""
    if not isinstance(n, (int, np.integer)) or n < 0:
        raise ValueError(f"n={n!r}: the number of hands must be a non-negative integer")
    if not isinstance(size, (int, np.integer)) or not 0 <= size <= 52:
        raise ValueError(f"size={size!r}: a one-deck hand has 0 to 52 cards")
    rng = rng_from(seed)
    masks = np.zeros(int(n), dtype=np.uint64)
    # Floyd's sampling: each step adds one new card, uniformly over all k-subsets.
    for j in range(52 - size, 52):
        pick = _DECK_BITS[rng.integers(0, j + 1, size=int(n))]
        taken = (masks & pick) != 0
        masks |= np.where(taken, _DECK_BITS[j], pick)
    return masks


def dense_hands(n: int, size: int, seed: SeedLike) -> np.ndarray:
    """``n`` hands crowded into a few suits and neighbouring ranks, as uint64 masks.

    Dense hands hold many overlapping sets and runs: the hard cases for a meld search.
    """
    if not 3 <= size <= 20:
        raise ValueError(f"size={size!r}: dense hands have 3 to 20 cards")
    rng = rng_from(seed)
    out = np.empty(int(n), dtype=np.uint64)
    for i in range(int(n)):
        n_suits = int(rng.integers(2, 5))
        width = max(-(-size // n_suits), int(rng.integers(3, 9)))
        width = min(width, 13)
        while n_suits * width < size:
            width += 1
        suits = rng.choice(4, size=n_suits, replace=False)
        low = int(rng.integers(0, 13 - width + 1))
        cells = [(int(s), low + r) for s in suits for r in range(width)]
        chosen = rng.choice(len(cells), size=size, replace=False)
        m = 0
        for k in chosen:
            s, r = cells[int(k)]
            m |= 1 << (16 * s + r)
        out[i] = m
    return out
