"""Chance outcomes: one stream per chance event, defined once (rummylab.chance); every outcome is
recorded in the history after the move that made it, and a history replays without a generator."""

from __future__ import annotations

import json
from typing import Any
from unittest import mock

import numpy as np
import pytest

from rummylab import chance, play
from rummylab.cards import DECK
from rummylab.gin import bots as gin_bots
from rummylab.gin import game as gin
from rummylab.gin import three_handed as th
from rummylab.indian import bots as indian_bots
from rummylab.indian import game as indian
from rummylab.play import Chance, IllegalAction
from rummylab.three_thirteen import bots as tt_bots
from rummylab.three_thirteen import game as tt


def test_each_event_has_its_own_stream() -> None:
    def draws(*event: Any) -> list[int]:
        return chance.stream(*event).integers(1000, size=8).tolist()

    base = ("gin", 5, "deal", 3, 0)
    assert draws(*base) == draws(*base)
    for other in [("313", 5, "deal", 3, 0), ("gin", 6, "deal", 3, 0), ("gin", 5, "restock", 3, 0),
                  ("gin", 5, "deal", 4, 0), ("gin", 5, "deal", 3, 1)]:
        assert draws(*other) != draws(*base), other
    assert chance.shuffle(list(range(52)), *base) == chance.shuffle(list(range(52)), *base)
    with pytest.raises(ValueError, match="seed=18446744073709551616"):
        chance.stream("gin", 2**64, "deal")
    with pytest.raises(ValueError, match="'reshuffled': a chance stream's name has at most 8 bytes"):
        chance.stream("gin", 1, "reshuffled")


@pytest.mark.parametrize(("start", "kinds"), [
    (lambda: gin.new_game(gin.DEFAULT, 3), ("dealer", "deal")),
    (lambda: th.new_game(("A", "B", "C"), th.THREE_HANDED, 3), ("roles", "deal")),
    (lambda: tt.new_game(3, tt.DEFAULT, 3), ("dealer", "deal")),
    (lambda: indian.new_game(2, indian.DEFAULT, 3), ("toss", "deal")),
], ids=["gin", "three_handed", "three_thirteen", "indian"])
def test_a_new_game_records_its_chance_outcomes(start: Any, kinds: tuple[str, ...]) -> None:
    state = start()
    assert tuple(c.kind for c in state.history) == kinds and all(isinstance(c, Chance) for c in state.history)
    deal = state.history[-1].cards
    assert deal is not None and set(deal) >= set(DECK)


def _played(game: play.Game[Any], state: Any, act: Any, steps: int) -> Any:
    for _ in range(steps):
        if not game.legal_actions(state):
            break
        state = game.apply(state, act(state))
    return state


@pytest.mark.parametrize("family", ["gin", "three_handed", "three_thirteen", "indian"])
def test_a_history_replays_without_a_generator(family: str) -> None:
    """Every chance outcome is in the history: replaying draws nothing (a draw would raise)."""
    if family == "gin":
        bot = gin_bots.make_bot("greedy")
        state = _played(gin.GAME, gin.new_game(gin.DEFAULT, 1), bot.act, 150)
    elif family == "three_handed":
        bot = gin_bots.make_bot("strong")
        state = _played(th.GAME, th.new_game(seed=1), lambda s: bot.act(s.hand), 150)
    elif family == "three_thirteen":
        bot = tt_bots.make_bot("greedy", 0)
        state = _played(tt.GAME, tt.new_game(2, tt.DEFAULT, 1), bot.act, 60)
    else:
        players = [indian_bots.RandomBot(seed=s) for s in range(3)]
        state = _played(indian.GAME, indian.new_game(3, indian.DEFAULT, 1),
                        lambda s: players[0 if s.phase is indian.Phase.DEAL_OVER else s.to_play].act(s), 120)
    deals = [c for c in state.history if isinstance(c, Chance) and c.kind == "deal"]
    assert len(deals) >= (1 if family in ("three_thirteen", "indian") else 2)
    name = "gin_three_handed" if family == "three_handed" else family
    data = json.loads(json.dumps(play.game_of(name).history(state)))
    with mock.patch.object(chance, "stream", side_effect=AssertionError("a replay drew from a generator")):
        assert play.replay(data) == state


def test_a_restock_is_recorded_and_followed() -> None:
    pile = tuple(DECK[:20])
    with play.recording() as rec:
        stock, discards, count = play.restock((), pile, 2, "313", 5, 4)
    assert rec is not None and rec.made == [Chance("restock", stock)]
    assert sorted(stock) == sorted(pile[:-1]) and discards == pile[-1:] and count == 3
    with play.recording([Chance("restock", stock[::-1])]):
        assert play.restock((), pile, 2, "313", 5, 4)[0] == stock[::-1]  # the recorded order, not the stream's
    with pytest.raises(IllegalAction, match="the recorded restock is not an order of the 19 cards"), \
            play.recording([Chance("restock", stock[1:])]):
        play.restock((), pile, 2, "313", 5, 4)


def test_bad_histories_are_refused_by_name() -> None:
    state = _played(gin.GAME, gin.new_game(gin.DEFAULT, 2), gin_bots.make_bot("greedy").act, 4)
    data = gin.history_json(state)
    assert [a.get("chance") for a in data["actions"][:2]] == ["dealer", "deal"]

    def tampered(actions: list[dict[str, Any]], **change: Any) -> dict[str, Any]:
        return {**data, "actions": actions, **change}

    deal = dict(data["actions"][1])
    deal["cards"] = " ".join(deal["cards"].split()[:-1] + [deal["cards"].split()[0]])
    with pytest.raises(IllegalAction, match="the recorded deal is not an order of the 52 cards"):
        gin.replay(tampered([data["actions"][0], deal, *data["actions"][2:]]))
    with pytest.raises(IllegalAction, match="records no deal where the game makes one"):
        gin.replay(tampered(data["actions"][:1]))
    with pytest.raises(IllegalAction, match="records a restock the game did not make"):
        gin.replay(tampered([*data["actions"][:2], {"chance": "restock", "cards": ""}, *data["actions"][2:]]))
    with pytest.raises(ValueError, match="history version 1 does not record its deals"):
        gin.replay(tampered(data["actions"], version=1))
    other = gin.history_json(gin.new_game(gin.DEFAULT, 3))
    replayed = gin.replay(tampered(other["actions"]))  # seed 2's history with seed 3's deal
    assert replayed.hands == gin.new_game(gin.DEFAULT, 3).hands != state.hands  # the recorded deal, not the seed's


def test_game_seeds_are_64_bit() -> None:
    assert np.uint64(2**64 - 1) == 2**64 - 1
    gin.new_game(gin.DEFAULT, 2**64 - 1)
    for start in (lambda s: gin.new_game(gin.DEFAULT, s), lambda s: tt.new_game(2, tt.DEFAULT, s),
                  lambda s: indian.new_game(2, indian.DEFAULT, s), lambda s: th.new_game(seed=s)):
        with pytest.raises(ValueError, match="seed=18446744073709551616: a whole number from 0 to 2"):
            start(2**64)
