"""The OpenSpiel adapter: cards map both ways, and without pyspiel the error names the fix. pyspiel
is never a dependency, so no test here needs it (a test that cannot run under CI would fail): the
games against OpenSpiel's simple bot are benchmarks/bot_strength.py's, run and recorded."""

from __future__ import annotations

import sys
from unittest import mock

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


def test_an_unknown_bot_is_named() -> None:
    with pytest.raises(ValueError, match="unknown bot"):
        openspiel.bot_strength("genius", 1)
