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


def test_a_finished_hand_of_gin_can_be_reviewed() -> None:
    """After a hand, "Review this hand" shows your decisions of that hand only: the best move in
    how many, each lost point with the better move and why, the draws' luck; the next hand
    clears it."""
    from rummylab.gin import game as g
    from rummylab.gin.players import GreedyBot

    table, me = GinTable(seed=3), GreedyBot(0)
    for hand in range(2):
        while table.state.phase not in (g.Phase.HAND_OVER, g.Phase.GAME_OVER, g.Phase.MATCH_OVER):
            table.play(me.act(table.state))
        buttons = {b.description: b for b in table.actions.children}
        assert "Review this hand" in buttons
        buttons["Review this hand"].click()
        html = table.review.value
        assert "best move in" in html and "luck" in html and "<script" not in html
        if hand == 0 and "Next hand" in buttons:
            buttons["Next hand"].click()
            assert table.review.value == ""
        else:
            break
