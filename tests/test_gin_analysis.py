"""Hand-written gin fixtures for every meld rule of docs/rules.md §1, and the analysis API."""

from __future__ import annotations

import numpy as np
import pytest

import rummylab as rl
from rummylab import gin


def melds(hand: str) -> list[str]:
    return sorted(str(m) for m in gin.analyze(hand).melds)


def test_the_readme_hand() -> None:
    a = gin.analyze("AS 2S 3S 7H 7D 7C 9C TC JC KD")
    assert a.deadwood == 10
    assert [str(c) for c in a.deadwood_cards] == ["KD"]
    assert melds("AS 2S 3S 7H 7D 7C 9C TC JC KD") == ["7H 7D 7C", "9C TC JC", "AS 2S 3S"]


@pytest.mark.parametrize(("hand", "dw"), [
    # the ace is low: A-2-3 is a run
    ("AS 2S 3S 4H 5H 6H 8D 8C 8S KD", 10),
    # Q-K-A is not a run: the ace high stays deadwood (1 + 10 + 10)
    ("QS KS AS 4H 5H 6H 8D 8C 8S 9S", 30),
    # K-A-2 is not a run
    ("KS AS 2S 4H 5H 6H 8D 8C 8S 9S", 22),
    # point values: A = 1, 2-10 face, J/Q/K = 10
    ("AH 3D 5C 7S 9H JD QC KS 2H 4C", 61),
    # a 4-set
    ("7S 7H 7D 7C 2H 3H 4H JD JC JS", 0),
    # a 3-set plus a run sharing the rank: 7C goes to the run
    ("7S 7H 7D 7C 8C 9C 2D 3D 4D KH", 10),
    # a long run cut around a set card: 3-4-5H, 6H 6S 6D, 7-8-9H
    ("3H 4H 5H 6H 7H 8H 9H 6S 6D KC", 10),
    # a 6-run split: 5H goes to the set 5S 5D 5H, runs 6-7-8H
    ("3H 4H 5H 6H 7H 8H 5S 5D 6S 6D", 19),
    # a 6-run kept whole with a 4-set: gin
    ("AS 2S 3S 4S 5S 6S 9H 9D 9C 9S", 0),
    # a card is in one meld only: 8H goes to the set 8S 8D 8H (47), not the run 6-7-8H (50)
    ("6H 7H 8H 8S 8D 2C 2S KD QD TD", 47),
    # runs are one suit
    ("AS 2H 3S 4D 5C 6S 7H 8D 9C TS", 55),
])
def test_deadwood_fixtures(hand: str, dw: int) -> None:
    assert gin.deadwood(hand) == dw
    a = gin.analyze(hand)
    assert a.deadwood == dw
    assert sum(min(c.rank + 1, 10) for c in a.deadwood_cards) == dw


def test_run_split_melds_are_reported() -> None:
    assert melds("3H 4H 5H 6H 7H 8H 9H 6S 6D KC") == ["3H 4H 5H", "6S 6H 6D", "7H 8H 9H"]
    assert melds("AS 2S 3S 4S 5S 6S 9H 9D 9C 9S") == ["9S 9H 9D 9C", "AS 2S 3S 4S 5S 6S"]


def test_big_gin() -> None:
    b = gin.best_discards("AS 2S 3S 4S 5H 5D 5C 9C 9D 9H 9S")
    assert b.big_gin and b.gin and b.deadwood == 0 and b.can_knock
    assert {str(c) for c in b.discards} == {"AS", "4S", "9C", "9D", "9H", "9S"}
    assert gin.analyze("AS 2S 3S 4S 5H 5D 5C 9C 9D 9H 9S").deadwood == 0
    assert gin.deadwood("AS 2S 3S 4S 5H 5D 5C 9C 9D 9H 9S") == 0


def test_eleven_cards_gin_but_not_big_gin() -> None:
    b = gin.best_discards("AS 2S 3S 4S 5H 5D 5C 9C 9D 9H KD")
    assert b.gin and not b.big_gin and b.discards == frozenset(rl.parse_cards("KD"))


def test_several_optimal_discards() -> None:
    b = gin.best_discards("AS 2S 3S 7H 7D 7C 9C TC JC KD QH")
    assert b.deadwood == 10 and b.can_knock and not b.gin
    assert {str(c) for c in b.discards} == {"KD", "QH"}
    assert dict((str(c), dw) for c, dw in b.after_discard)["AS"] == 25
    assert gin.deadwood("AS 2S 3S 7H 7D 7C 9C TC JC KD QH") == 10


def test_knock_limit() -> None:
    assert not gin.best_discards("AS 2S 3S 7H 7D 7C 9C TC JC KD QH", knock_limit=9).can_knock


def test_batch_matches_single_calls_and_mixed_sizes() -> None:
    hands = np.concatenate([rl.random_hands(300, 10, 1), rl.random_hands(300, 11, 2)])
    np.random.default_rng(0).shuffle(hands)
    out = gin.deadwood_batch(hands)
    assert out.dtype == np.int32
    assert out.tolist() == [gin.deadwood(rl.from_mask(int(m))) for m in hands]
    assert (gin.deadwood_batch(hands, threads=2) == out).all()
    assert gin.deadwood_batch(hands.astype(np.int64)).tolist() == out.tolist()
    assert gin.deadwood_batch(np.array([], dtype=np.uint64)).size == 0


def test_batch_on_many_hands_with_threads() -> None:
    hands = rl.random_hands(50_000, 11, 9)
    assert (gin.deadwood_batch(hands, threads=2) == gin.deadwood_batch(hands)).all()


@pytest.mark.parametrize(("hand", "match"), [
    ("AS 2S 3S", "wrong hand size: 3 cards"),
    ("AS 2S 3S 4S 5S 6S 7S 8S 9S TS JS QS", "wrong hand size: 12"),
    ("AS 2S 3S 4S 5S 6S 7S 8S 9S AS", "AS: duplicate"),
    ("AS 2S 3S 4S 5S 6S 7S 8S 9S JK", "JK"),
    ("AS 2S 3S 4S 5S 6S 7S 8S 9S 1S", "1S"),
    ("AS 2S 3S 4S 5S 6S 7S 8S 9S XS", "XS"),
    ("AS 2S 3S 4S 5S 6S 7S 8S 9S TZ", "TZ"),
    ("", "wrong hand size: 0"),
])
def test_gin_refuses_bad_hands(hand: str, match: str) -> None:
    for fn in (gin.analyze, gin.deadwood):
        with pytest.raises(ValueError, match=match):
            fn(hand)


def test_best_discards_needs_eleven() -> None:
    with pytest.raises(ValueError, match="wrong hand size: 10 cards.*11 expected"):
        gin.best_discards("AS 2S 3S 7H 7D 7C 9C TC JC KD")


@pytest.mark.parametrize(("masks", "match"), [
    (np.array([1 << 13 | 1023], dtype=np.uint64), "hand 0: .*no card"),
    (np.array([1023, 7], dtype=np.uint64), "hand 1: .* 3 cards; 10 or 11"),
    (np.array([-5], dtype=np.int64), "hand 0: mask -5 is negative"),
    (np.array([1.5]), "unsigned 64-bit"),
    (np.zeros((2, 2), dtype=np.uint64), "1-d"),
    (["AS"], "unsigned 64-bit"),
])
def test_batch_refuses_bad_masks(masks: object, match: str) -> None:
    with pytest.raises(ValueError, match=match):
        gin.deadwood_batch(masks)
