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


@pytest.mark.once  # rollouts: the compiled run has them
def test_review_this_deal_judges_your_decisions_and_goes_with_the_next_deal() -> None:
    t = IndianTable(2, pool=101, seed=3)
    seen: list[object] = []
    t.on_review = lambda r: seen.append(r) or "kept for your teacher"
    me = GreedyBot(9, drops=False)
    while t.state.phase in (g.Phase.DRAW, g.Phase.DISCARD):
        t.play(me.act(t.state))
    review = next(b for b in t.actions.children if b.description == "Review this deal")
    review.click()
    assert "rl-review-best" in t.review.value and "kept for your teacher" in t.review.value
    assert len(seen) == 1 and seen[0].part == "deal" and seen[0].decisions  # type: ignore[attr-defined]
    assert next(b for b in t.actions.children if b.description == "Review this deal").disabled  # shown already
    next(b for b in t.actions.children if b.description == "Next deal").click()
    assert t.review.value == "" and t.state.deal_no == 2
