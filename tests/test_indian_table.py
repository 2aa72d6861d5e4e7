"""The Indian rummy table widget plays every format to the end, you in seat 0."""

from __future__ import annotations

import pytest

from rummylab.indian import game as g
from rummylab.indian.bots import GreedyBot
from rummylab.widgets.indian import IndianTable


@pytest.mark.parametrize("fmt", [{"pool": None}, {"pool": 101}, {"deals": 2}])
def test_table_plays_to_the_end(fmt: dict) -> None:
    table = IndianTable(3, seed=4, **fmt)
    me = GreedyBot(9)
    if "deals" in fmt:
        assert "chips" in table.status.value and "deal 1 of 2" in table.status.value.lower()
    for _ in range(5000):
        if table.state.phase is g.Phase.GAME_OVER:
            break
        table.play(me.act(table.state))
        assert table.problem.value == ""
    assert table.state.phase is g.Phase.GAME_OVER
    assert "Game over" in table.status.value and "no winner" not in table.status.value
