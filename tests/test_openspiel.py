"""The OpenSpiel adapter: cards map both ways, rummylab's bots play legal OpenSpiel hands to the
end against OpenSpiel's simple bot, and without pyspiel the error names the fix. pyspiel is
never a dependency: the games need it installed (pip install open-spiel), the rest does not."""

from __future__ import annotations

import sys
from unittest import mock

import numpy as np
import pytest

from rummylab.cards import Card
from rummylab.gin import openspiel

pytestmark = pytest.mark.once  # no kernel of its own: the compiled run has it


def test_cards_map_both_ways() -> None:
    assert [str(openspiel.card_of(i)) for i in (0, 12, 13, 26, 39, 51)] == ["AS", "KS", "AC", "AD", "AH", "KH"]
    assert all(openspiel.number_of(openspiel.card_of(i)) == i for i in range(52))
    assert openspiel.number_of(Card.parse("TD")) == 2 * 13 + 9


def test_without_pyspiel_the_error_names_the_fix() -> None:
    with mock.patch.dict(sys.modules, {"pyspiel": None}), pytest.raises(ValueError, match="pip install open-spiel"):
        openspiel.bot_strength("strong", 1)


def test_bots_play_legal_hands_against_openspiels_simple_bot() -> None:
    pytest.importorskip("pyspiel")
    for name, low, high in (("greedy", -15, 15), ("strong", -15, 15), ("expert", -15, 20), ("random", -70, -35)):
        df = openspiel.bot_strength(name, 200, seed=3)
        assert df.height == 200 and df["seat"].to_list()[:2] == [0, 1]
        mean = float(np.mean(df["points"].to_numpy()))
        assert low < mean < high, (name, mean)  # bands many SE wide: a smoke check, not a strength test
    with pytest.raises(ValueError, match="unknown bot"):
        openspiel.bot_strength("genius", 1)
