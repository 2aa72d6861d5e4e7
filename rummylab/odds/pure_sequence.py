"""Exact chance that a dealt Indian rummy hand holds a pure sequence (three consecutive cards
of one suit), by counting the hands of each suit that hold none."""

from __future__ import annotations

from fractions import Fraction
from math import comb


def _suit_without_run(ace_high: bool) -> list[int]:
    """ways[k]: ways to hold k cards of one suit from two decks with no three consecutive ranks
    held (A-2-3 … Q-K-A when ``ace_high``)."""
    # state: (ace held, consecutive ranks held at the end, 0..2) -> polynomial in cards held
    states: dict[tuple[bool, int], list[int]] = {(False, 0): [1]}
    for rank in range(13):
        nxt: dict[tuple[bool, int], list[int]] = {}
        for (ace, run), poly in states.items():
            for copies, ways in ((0, 1), (1, 2), (2, 1)):  # C(2, copies)
                held = copies > 0
                new_run = run + 1 if held else 0
                if new_run >= 3:
                    continue
                key = (ace or (rank == 0 and held), new_run)
                acc = nxt.setdefault(key, [])
                for k, v in enumerate(poly):
                    while len(acc) <= k + copies:
                        acc.append(0)
                    acc[k + copies] += v * ways
        states = nxt
    total: list[int] = [0] * 27
    for (ace, run), poly in states.items():
        if ace_high and ace and run >= 2:
            continue  # Q-K-A
        for k, v in enumerate(poly):
            total[k] += v
    return total


def p_pure_sequence(cards: int = 13, printed_jokers: int = 2, ace_high: bool = True) -> Fraction:
    """Exact P(a hand of ``cards`` from two decks plus printed jokers holds a pure sequence),
    counting a wild-joker card in its own place as natural (the default)."""
    suit = _suit_without_run(ace_high)
    poly = [1]
    for _ in range(4):
        poly = [sum(poly[i] * suit[k - i] for i in range(len(poly)) if 0 <= k - i < len(suit))
                for k in range(len(poly) + len(suit) - 1)]
    none = sum(poly[k] * comb(printed_jokers, cards - k) for k in range(len(poly)) if 0 <= cards - k <= printed_jokers)
    return 1 - Fraction(none, comb(104 + printed_jokers, cards))
