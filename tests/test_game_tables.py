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
    """Click what a student could: a card in the hand, else an action (draw, next hand, ...); not
    a review (the review has its own test: on the twin it plays every rollout on the engine)."""
    for box in (table.hand_box, table.actions):
        for b in box.children:
            if (isinstance(b, w.Button) and not b.disabled  # a move, not a review
                    and not {"rl-review-hand", "rl-review-deal"} & set(b._dom_classes)):
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


@pytest.mark.once  # on the twin every rollout is an engine game: minutes
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


def test_the_student_chooses_her_opponent_and_starts_a_new_game() -> None:
    table = GinTable(opponent="strong", seed=1, opponents=("greedy", "strong", "expert"))
    assert table.bot.name == "strong" and ("first turn" in table.status.value or "draw" in table.status.value)
    assert "phase " not in table.status.value and "first_upcard" not in table.status.value
    table.choice.value = "greedy"
    new = next(b for b in table.children[0].children if getattr(b, "description", "") == "New game")
    new.click()
    assert table.bot.name == "greedy" and all(m.startswith(("You", "Bot (greedy)")) for m in table.moves)
    with pytest.raises(ValueError, match="unknown bot 'wizard'"):
        GinTable(opponents=("greedy", "wizard"))
    with pytest.raises(ValueError, match="three-handed"):
        GinTable(three_handed=True, opponents=("greedy",))
