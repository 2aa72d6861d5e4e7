"""Card strings, masks, two-deck hands and seeded dealing."""

from __future__ import annotations

import numpy as np
import pytest

import rummylab as rl
from rummylab.cards import DECK, FULL_DECK, TwoDeckHand, check_mask


def test_parse_accepts_every_spelling() -> None:
    cards = rl.parse_cards("AS 10d K♥ JK tc 9♣ qh")
    assert [str(c) for c in cards] == ["AS", "TD", "KH", "JK", "TC", "9C", "QH"]
    assert rl.parse_cards(["as", "Td"]) == rl.parse_cards([rl.Card.parse("AS"), "10D"])
    assert rl.parse_cards("AS,2S; 3S") == rl.parse_cards("AS 2S 3S")
    assert rl.JOKER.is_joker and str(rl.JOKER) == "JK"
    assert rl.Card.parse("7♦").symbol == "7♦"


def test_mask_round_trip_and_bit_layout() -> None:
    assert rl.to_mask("AS") == 1 and rl.to_mask("KS") == 1 << 12
    assert rl.to_mask("AH") == 1 << 16 and rl.to_mask("KC") == 1 << 60
    assert rl.to_mask(DECK) == FULL_DECK
    hand = rl.parse_cards("AS 2S 3S 7H 7D 7C 9C TC JC KD")
    assert set(rl.from_mask(rl.to_mask(hand))) == set(hand)
    assert rl.from_mask(0) == ()


def test_two_deck_hand_holds_two_copies_and_jokers() -> None:
    h = TwoDeckHand.from_cards("7S 7S 7H JK JK 2C")
    assert h.once == rl.to_mask("7S 7H 2C") and h.twice == rl.to_mask("7S") and h.jokers == 2
    assert sorted(map(str, h.cards())) == sorted(["7S", "7S", "7H", "JK", "JK", "2C"])
    assert len(h) == 6


def test_random_hands_are_seeded_distinct_and_uniform() -> None:
    a, b = rl.random_hands(20000, 10, 7), rl.random_hands(20000, 10, np.random.default_rng(7))
    assert a.dtype == np.uint64 and (a == b).all()
    assert (np.bitwise_count(a) == 10).all() and (a & ~np.uint64(FULL_DECK) == 0).all()
    assert not (a == rl.random_hands(20000, 10, 8)).all()
    # every card about equally likely: 20000 * 10 / 52 = 3846 per card
    counts = np.array([np.count_nonzero(a & np.uint64(c.bit)) for c in DECK])
    assert abs(counts - 3846).max() < 4 * np.sqrt(3846)


def test_dense_hands_are_crowded() -> None:
    d = rl.dense_hands(500, 11, 3)
    assert (np.bitwise_count(d) == 11).all() and (d & ~np.uint64(FULL_DECK) == 0).all()
    assert (d == rl.dense_hands(500, 11, 3)).all()


MALFORMED = [
    ("AS 2S 1S", "1S"),            # unknown rank
    ("AS 2X", "2X"),               # unknown suit
    ("AS 11H", "11H"),             # unknown rank
    ("A", "'A'"),                  # too short
    ("AS AS", "AS"),               # duplicate in one deck
    ("ZZ", "ZZ"),
    ("10", "'10'"),                # no suit
    ("0S", "0S"),
    ("AS ♥", "♥"),
    ("KH KH 2C", "KH"),
    ("AS 2S 3S 4S 5S 6S 7S 8S 9S JK", "JK"),   # joker where gin has none
    ("S A", "'S'"),
]


@pytest.mark.parametrize(("text", "token"), MALFORMED)
def test_malformed_cards_name_the_token(text: str, token: str) -> None:
    with pytest.raises(ValueError, match=token.replace("'", "'?")):
        rl.to_mask(text)


@pytest.mark.parametrize("bad", [-1, 2**64, 1 << 13, 1 << 63, 1.5, "AS", None, True])
def test_bad_masks_are_refused(bad: object) -> None:
    with pytest.raises(ValueError, match="mask"):
        check_mask(bad)  # type: ignore[arg-type]


def test_non_iterable_and_bad_items() -> None:
    with pytest.raises(ValueError, match="iterable"):
        rl.parse_cards(5)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="42"):
        rl.parse_cards(["AS", 42])  # type: ignore[list-item]
    with pytest.raises(ValueError, match="wrong hand size: 2 cards"):
        rl.parse_cards("AS 2S", size=10)
    with pytest.raises(ValueError, match="3 copies"):
        rl.parse_cards("AS AS AS", copies=2)
    with pytest.raises(ValueError, match="JK: more than 2"):
        rl.parse_cards("JK JK JK")


@pytest.mark.parametrize(("n", "size", "seed"), [(-1, 10, 1), (5, 53, 1), (5, 10, "x"), (5, 10, 1.5)])
def test_random_hands_bad_arguments(n: int, size: int, seed: object) -> None:
    with pytest.raises(ValueError):
        rl.random_hands(n, size, seed)  # type: ignore[arg-type]


def test_cards_show_as_cards() -> None:
    """In a notebook (and Voilà's app mode) cards and hands show as chips, in text as card strings."""
    hand = rl.parse_cards("AS 10d K♥")
    assert hand == tuple(hand) and str(hand) == "AS TD KH" and repr(hand) == "Cards('AS TD KH')"
    assert hand._repr_html_().count("rl-chip") == 3
    assert "rl-chip" in hand[0]._repr_html_() and "♥" in hand[2]._repr_html_()
    assert str(rl.from_mask(rl.to_mask("2S AS"))) == "AS 2S"
