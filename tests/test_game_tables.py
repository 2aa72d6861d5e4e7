"""The game tables redraw the hand and action buttons every move, and close the widgets they
replace: a student's game leaves no pile of dead widgets in the kernel or the page."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import ipywidgets as w
import pytest
from ipywidgets.widgets.widget import _instances

from rummylab.widgets.indian import IndianTable
from rummylab.widgets.table import GinTable
from rummylab.widgets.thirteen import ThirteenTable


def _click_something(table: Any) -> bool:
    """Click what a student could: a card in the hand, else an action (draw, next hand, ...)."""
    for box in (table.hand_box, table.actions):
        for b in box.children:
            if isinstance(b, w.Button) and not b.disabled:
                b.click()
                return True
    return False


@pytest.mark.parametrize("make", [lambda: GinTable("greedy", seed=14), lambda: ThirteenTable(2, seed=3),
                                  lambda: IndianTable(2, seed=5)], ids=["gin", "three-thirteen", "indian"])
def test_tables_close_the_buttons_they_replace(make: Callable[[], Any]) -> None:
    table = make()
    moves = 0
    while moves < 150 and _click_something(table):
        assert table.problem.value == ""
        moves += 1
        if moves == 10:
            early = len(_instances)
    assert moves >= 40, "too short a game to show anything"
    assert len(_instances) - early < 40, (moves, early, len(_instances))  # a hand of buttons, not a game's
