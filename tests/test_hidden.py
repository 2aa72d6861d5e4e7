"""The hidden cards drawn from a player's view (rummylab.hidden): one weight rule for every family,
a weighted draw whose every set has exactly the chance its weights give it, and the one-hand draw
the families use drawing as the many-hand one."""

from __future__ import annotations

from itertools import combinations

import numpy as np
import pytest

from rummylab.cards import parse_cards
from rummylab.gin import expert
from rummylab.hidden import HOLD_WEIGHT, Seen, hold_weight, near, suffix_polynomials, weighted_draw


def test_the_weight_rule_is_gins() -> None:
    assert hold_weight(0, 0, 0) == HOLD_WEIGHT == expert.BASE_WEIGHT
    assert hold_weight(1, 0, 0) == 16 and hold_weight(0, 1, 0) == 4 and hold_weight(0, 0, 1) == 6
    assert hold_weight(0, 9, 9) == 1  # never below one
    assert hold_weight(1, 1, 1) == 6  # doubled, halved, cut by a quarter, in that order


@pytest.mark.parametrize("weights", [[1.0, 2.0, 3.0, 4.0, 0.5], [1.0] * 5, [0.25, 1.0, 0.5, 1.0, 1.0]])
def test_each_set_is_drawn_with_the_chance_its_weights_give_it(weights: list[float]) -> None:
    """Exactly: the chance of a set is the product of each card's conditional chance (taken or
    not), which must be the product of its weights over the sum of those products."""
    w = np.array(weights)
    k = 2
    e = suffix_polynomials(w, k)
    for chosen in combinations(range(len(w)), k):
        chance, left = 1.0, k
        for i in range(len(w)):
            p = w[i] * e[i + 1, left - 1] / e[i, left] if left else 0.0
            chance *= p if i in chosen else 1 - p
            left -= i in chosen
        assert chance == pytest.approx(np.prod(w[list(chosen)]) / e[0, k], rel=1e-12)
    draws = np.random.default_rng(1).random((4000, len(w)))
    assert (weighted_draw(w, k, draws).sum(axis=1) == k).all()


def test_one_hand_is_drawn_as_the_many_hand_draw_draws_it() -> None:
    cards = parse_cards("2S 3S 4S 5H 6H 7D 8D 9C TC JC")
    seen = Seen([(), parse_cards("3H")], [(), parse_cards("9D")], [(), parse_cards("KC")],
                lambda a, b: near(a, b))
    w = seen.weights(1, cards)
    assert w[cards.index(parse_cards("3S")[0])] == 2 * HOLD_WEIGHT  # melds with the 3H taken
    for seed in range(20):
        one = seen.draw(1, cards, 4, np.random.default_rng(seed))
        many = weighted_draw(w / w.max(), 4, np.random.default_rng(seed).random((1, len(cards))))[0]
        assert one == many.tolist()


def test_cards_meld_near_by_rank_or_suit() -> None:
    a, b, c, d, joker = parse_cards("5H 5S 7H 8S JK")
    assert near(a, b) and near(a, c) and not near(a, d) and not near(a, joker) and not near(a, a)
    ace, king = parse_cards("AH KH")
    assert near(ace, king, ace_high=True) and not near(ace, king)
