"""The parts of the EAAI framework's ``GinRummyUtil.java`` (and ``Card.java``) the ports use.

Source: https://github.com/tneller/gin-rummy-eaai, commit 559c712516e3b0fd6b908864acd141e254d94f39,
``ginrummy/GinRummyUtil.java`` and ``ginrummy/Card.java`` (GPL-2.0-or-later, Todd W. Neller).

The Java framework numbers a card ``suit * 13 + rank`` with the suits in the order C, H, S, D
and keeps a set of cards as a ``long`` with bit ``id`` set ("bitstring"). rummylab puts a card at
bit ``16 * suit + rank`` with the suits S, H, D, C. ``to_java``/``from_java`` convert.

Deadwood *values* are the same in both (sets of 3-4, runs of 3+ with the ace low, A=1, 2-10,
J/Q/K=10), so the ports take minimum deadwood from rummylab's kernel (``gin_kernel()``; its
agreement with a brute-force oracle is tested in the project). Where a player depends on *which*
least-deadwood meld sets exist and in *what order* Java lists them (MARJJ's ``getBestMeld`` keeps
the first of equally good ones), this module repeats ``cardsToAllMaximalMeldSets`` step by step:
the same meld list order and the same breadth-first search, so ``best_meld_sets`` lists the sets
in Java's order. (Java returns each set's melds in ``HashSet`` order; nothing here depends on the
order of melds inside a set, so they are listed by meld index.)
"""

from __future__ import annotations

import functools
from collections import deque

from rummylab.cards import BIT_CARD, DECK, Card

RANK_NAMES = "A23456789TJQK"
SUIT_NAMES = "CHSD"
"""Java's ``Card.suitNames``: suit 0 is clubs."""
NUM_RANKS, NUM_SUITS, NUM_CARDS = 13, 4, 52

GOAL_SCORE = 100
GIN_BONUS = 25
UNDERCUT_BONUS = 25
MAX_DEADWOOD = 10

_RL_SUIT_TO_JAVA = {0: 2, 1: 1, 2: 3, 3: 0}  # rummylab S, H, D, C -> Java C=0, H=1, S=2, D=3
_JAVA_SUIT_TO_RL = {v: k for k, v in _RL_SUIT_TO_JAVA.items()}

JAVA_ID: dict[int, int] = {c.bit: _RL_SUIT_TO_JAVA[c.suit] * NUM_RANKS + c.rank for c in DECK}
"""rummylab card bit -> Java card id."""
RL_BIT: list[int] = [0] * NUM_CARDS
"""Java card id -> rummylab card bit."""
for _bit, _id in JAVA_ID.items():
    RL_BIT[_id] = _bit


def java_card(card_id: int) -> Card:
    """The rummylab Card of a Java card id."""
    return BIT_CARD[RL_BIT[card_id]]


def java_id(card: Card) -> int:
    return JAVA_ID[card.bit]


def to_java(mask: int) -> int:
    """rummylab card mask -> Java bitstring."""
    out = 0
    while mask:
        low = mask & -mask
        out |= 1 << JAVA_ID[low]
        mask ^= low
    return out


def from_java(bits: int) -> int:
    """Java bitstring -> rummylab card mask."""
    out = 0
    while bits:
        low = bits & -bits
        out |= RL_BIT[low.bit_length() - 1]
        bits ^= low
    return out


def rank_of(card_id: int) -> int:
    return card_id % NUM_RANKS


def suit_of(card_id: int) -> int:
    return card_id // NUM_RANKS


def points(card_id: int) -> int:
    """``GinRummyUtil.getDeadwoodPoints(card)``: A=1 ... 9, T/J/Q/K=10."""
    return min(rank_of(card_id) + 1, 10)


def bits_points(bits: int) -> int:
    """Deadwood points of every card in a Java bitstring."""
    total = 0
    while bits:
        low = bits & -bits
        total += points(low.bit_length() - 1)
        bits ^= low
    return total


def ids_of(bits: int) -> list[int]:
    """Card ids of a Java bitstring in increasing id order (``bitstringToCards``)."""
    out = []
    while bits:
        low = bits & -bits
        out.append(low.bit_length() - 1)
        bits ^= low
    return out


def _build_meld_lists() -> list[list[int]]:
    """``GinRummyUtil.meldBitstrings``: lists where each meld is a superset of the one before."""
    lists: list[list[int]] = []
    for suit in range(NUM_SUITS):  # runs, by suit then starting rank, growing
        for start in range(NUM_RANKS - 2):
            meld = (1 << (suit * NUM_RANKS + start)) | (1 << (suit * NUM_RANKS + start + 1))
            run: list[int] = []
            for rank in range(start + 2, NUM_RANKS):
                meld |= 1 << (suit * NUM_RANKS + rank)
                run.append(meld)
            lists.append(run)
    for rank in range(NUM_RANKS):  # sets: the four 3-card sets (leaving out suit 0..3), then all four
        every = sum(1 << (s * NUM_RANKS + rank) for s in range(NUM_SUITS))
        for left_out in range(NUM_SUITS + 1):
            lists.append([every & ~(1 << (left_out * NUM_RANKS + rank)) if left_out < NUM_SUITS else every])
    return lists


MELD_LISTS = _build_meld_lists()
ALL_MELDS = frozenset(m for lst in MELD_LISTS for m in lst)
"""``getAllMeldBitstrings()``."""


def all_meld_bitstrings(cards: int) -> list[int]:
    """``cardsToAllMeldBitstrings``: every meld within the cards, in Java's order."""
    out = []
    for lst in MELD_LISTS:
        for meld in lst:
            if meld & cards == meld:
                out.append(meld)
            else:
                break
    return out


@functools.lru_cache(maxsize=1 << 16)
def maximal_meld_sets(cards: int) -> tuple[tuple[int, ...], ...]:
    """``cardsToAllMaximalMeldSets``: every set of disjoint melds no further meld can join, in the
    order Java's breadth-first search first closes them (duplicates in its queue included)."""
    melds = all_meld_bitstrings(cards)
    n = len(melds)
    closed: set[frozenset[int]] = set()
    queue: deque[frozenset[int]] = deque(frozenset((i,)) for i in range(n))
    out: list[tuple[int, ...]] = []
    while queue:
        chosen = queue.popleft()
        if chosen in closed:
            continue
        union = 0
        for i in chosen:
            union |= melds[i]
        closed.add(chosen)
        maximal = True
        for i in range(n):
            if i in chosen:
                continue
            if union & melds[i] == 0:
                maximal = False
                queue.append(chosen | {i})
        if maximal:
            out.append(tuple(melds[i] for i in sorted(chosen)))
    return tuple(out)


def meld_set_deadwood(melds: tuple[int, ...], cards: int) -> int:
    """``getDeadwoodPoints(melds, hand)``."""
    melded = 0
    for m in melds:
        melded |= m
    return bits_points(cards & ~melded)


@functools.lru_cache(maxsize=1 << 16)
def best_meld_sets(cards: int) -> tuple[tuple[int, ...], ...]:
    """``cardsToBestMeldSets``: the maximal meld sets of least deadwood, in Java's order
    (empty when the cards hold no meld)."""
    best: list[tuple[int, ...]] = []
    least = None
    for melds in maximal_meld_sets(cards):
        dw = meld_set_deadwood(melds, cards)
        if least is None or dw < least:
            least, best = dw, [melds]
        elif dw == least:
            best.append(melds)
    return tuple(best)


def best_deadwood(cards: int) -> int:
    """``getBestDeadwood``-style: least deadwood of exactly these cards (Java bitstring), by the
    Java search (the rummylab kernel gives the same value faster; see ``best_meld_sets``)."""
    sets = best_meld_sets(cards)
    return meld_set_deadwood(sets[0], cards) if sets else bits_points(cards)


def parse(text: str) -> int:
    """Java bitstring of card strings in Java notation ("TD 2C" ...; the same as rummylab's)."""
    out = 0
    for token in text.replace(",", " ").split():
        out |= 1 << (SUIT_NAMES.index(token[1]) * NUM_RANKS + RANK_NAMES.index(token[0]))
    return out


def card_str(card_id: int) -> str:
    return RANK_NAMES[rank_of(card_id)] + SUIT_NAMES[suit_of(card_id)]
