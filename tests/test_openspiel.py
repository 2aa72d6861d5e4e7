"""The OpenSpiel adapter: cards map both ways, it decides as the engine does, and without pyspiel
the error names the fix. pyspiel is never a dependency, so no test here needs it (a test that
cannot run under CI would fail): the hands against OpenSpiel's simple bot are kept in tests/data
(``benchmarks/bot_strength.py --record``), and the games are bot_strength.py's, run and recorded."""

from __future__ import annotations

import gzip
import json
import sys
from pathlib import Path
from typing import Any
from unittest import mock

import pytest

from rummylab.cards import Card
from rummylab.gin import openspiel
from rummylab.gin.bots import make_bot

HANDS = Path(__file__).parent / "data" / "openspiel_expert_hands.json.gz"
"""500 hands of the expert (through the adapter) against OpenSpiel's simple bot, seats swapped,
with OpenSpiel's state at each of the expert's decisions."""


def _kept_hands() -> list[dict[str, Any]]:
    with gzip.open(HANDS, "rt", encoding="utf-8") as f:
        data = json.load(f)
    assert data["bot"] == "expert"
    return list(data["hands"])


@pytest.mark.once  # the adapter and the expert are Python over the kernel, and the kernels agree (test_agreement)
def test_the_adapter_decides_as_the_engine_on_kept_openspiel_hands() -> None:
    """Each kept hand is played again in the engine, move for move: at every decision the adapter
    makes from OpenSpiel's kept state, the engine's expert makes the same move from its own."""
    hands = _kept_hands()
    assert len(hands) >= 500
    compared, differ = 0, []
    for log in hands:
        adapter = openspiel.OpenSpielPlayer(make_bot("expert", 0), log["seat"])
        n, wrong = openspiel.follow_in_engine(log, make_bot("expert", 0), adapter=adapter)
        compared += n
        differ += [f"hand {log['hand']}: {w}" for w in wrong]
    assert not differ, differ[:5]
    assert compared >= 10 * len(hands)
    assert {log["seat"] for log in hands} == {0, 1}


@pytest.mark.once
def test_the_engine_catches_an_adapter_that_misreads_the_table() -> None:
    """The check has teeth: an adapter that forgets what the opponent picked up decides otherwise."""
    class Forgetful(openspiel.OpenSpielPlayer):
        def _view(self, state: Any, seen: dict[str, Any], phase: Any, passes: int = 0) -> Any:
            return super()._view(state, seen | {"picked": [0, 0]}, phase, passes)

    differ = 0
    for log in _kept_hands()[:60]:
        _, wrong = openspiel.follow_in_engine(log, make_bot("expert", 0),
                                              adapter=Forgetful(make_bot("expert", 0), log["seat"]))
        differ += bool(wrong)
    assert differ >= 3


def test_a_kept_state_hides_the_other_hand() -> None:
    for log in _kept_hands()[:2]:
        seat, step = log["seat"], log["steps"][0]
        state = openspiel.RecordedState(step, seat)
        assert state.hands()[1 - seat] is None and state.hands()[seat] == step["hand"]


@pytest.mark.once  # no kernel of its own: the compiled run has it
def test_cards_map_both_ways() -> None:
    assert [str(openspiel.card_of(i)) for i in (0, 12, 13, 26, 39, 51)] == ["AS", "KS", "AC", "AD", "AH", "KH"]
    assert all(openspiel.number_of(openspiel.card_of(i)) == i for i in range(52))
    assert openspiel.number_of(Card.parse("TD")) == 2 * 13 + 9


@pytest.mark.once
def test_without_pyspiel_the_error_names_the_fix() -> None:
    with mock.patch.dict(sys.modules, {"pyspiel": None}), pytest.raises(ValueError, match="pip install open-spiel"):
        openspiel.bot_strength("strong", 1)


@pytest.mark.once
def test_an_unknown_bot_is_named() -> None:
    with pytest.raises(ValueError, match="unknown bot"):
        openspiel.bot_strength("genius", 1)
