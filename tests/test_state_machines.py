"""Hypothesis state machines, one per family: random legal play (and bot play) on the one engine.

After every step every card is accounted for and the scores add up; an illegal action raises
``IllegalAction`` and leaves the state as it was; the history replays to the same state, both
through the family's ``replay`` and through ``play.replay``.
"""

from __future__ import annotations

import json
from collections import Counter
from typing import Any
from unittest import mock

import hypothesis.strategies as st
from hypothesis import HealthCheck, settings
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

import rummylab
from rummylab import chance, play
from rummylab.cards import DECK, FULL_DECK, JOKER
from rummylab.gin import bots as gin_bots
from rummylab.gin import game as gin
from rummylab.gin import three_handed as th
from rummylab.gin.rules import CLASSIC, DEFAULT, TOURNAMENT
from rummylab.indian import bots as indian_bots
from rummylab.indian import game as indian
from rummylab.three_thirteen import bots as tt_bots
from rummylab.three_thirteen import game as tt
from rummylab.three_thirteen.rules import Rules as TTRules

SETTINGS = settings(max_examples=12 if rummylab.BACKEND == "cython" else 4, stateful_step_count=200, deadline=None,
                    derandomize=True,  # the same runs every time: the late-phase check never fails by chance
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
CARD = st.sampled_from(list(DECK) + [JOKER])
PHASES: dict[str, set[str]] = {name: set() for name in play.FAMILIES}
"""The phases each machine's runs ended in."""


class Family(RuleBasedStateMachine):
    """Shared rules: a legal move, a bot's move, an illegal move; replay at the end."""

    module: Any
    game: play.Game[Any]
    state: Any
    bot: Any

    def over(self) -> bool:
        return not self.game.legal_actions(self.state)

    @precondition(lambda self: not self.over())
    @rule(data=st.data())
    def legal_move(self, data: st.DataObject) -> None:
        acts = self.game.legal_actions(self.state)
        self.state = self.game.apply(self.state, data.draw(st.sampled_from(acts)))

    @precondition(lambda self: not self.over())
    @rule()
    def bot_move(self) -> None:
        self.state = self.game.apply(self.state, self.bot.act(self.bot_view()))

    @rule(n=st.integers(5, 60))
    def bot_plays_on(self, n: int) -> None:
        """Fast forward: the bot plays up to n actions, every state checked."""
        for _ in range(n):
            if self.over():
                return
            self.state = self.game.apply(self.state, self.bot.act(self.bot_view()))
            self.cards_and_scores()

    def cards_and_scores(self) -> None:
        raise NotImplementedError

    def bot_view(self) -> Any:
        return self.state

    @rule(kind=st.integers(0, 20), card=st.none() | CARD, player=st.none() | st.integers(-1, 6))
    def illegal_move_changes_nothing(self, kind: int, card: Any, player: int | None) -> None:
        kinds = list(self.game.action.kinds)
        action = self.game.action(kinds[kind % len(kinds)], card, None, player)
        if self.game.verify(self.state, action) is None:
            return  # legal after all
        before = json.dumps(self.game.history(self.state)), self.state.__dict__.copy()
        try:
            self.game.apply(self.state, action)
        except play.IllegalAction as exc:
            assert str(action) in str(exc)
        else:
            raise AssertionError(f"{action} was applied though verify refused it")
        assert (json.dumps(self.game.history(self.state)), self.state.__dict__) == before

    @invariant()
    def legal_actions_all_verify(self) -> None:
        for a in self.game.legal_actions(self.state):
            assert self.game.verify(self.state, a) is None

    def teardown(self) -> None:
        if getattr(self, "state", None) is None:
            return
        PHASES[self.game.name].add(self.game.phase(self.state).name)
        data = json.loads(json.dumps(self.game.history(self.state)))
        assert data["game"] == self.game.name and data["version"] == play.HISTORY_VERSION
        assert self.module.replay(data) == self.state
        with mock.patch.object(chance, "stream", side_effect=AssertionError("a replay drew from a generator")):
            assert play.replay(data) == self.state  # every chance outcome is in the history


class Gin(Family):
    module, game = gin, gin.GAME

    @initialize(seed=st.integers(0, 10**6), rules=st.sampled_from([DEFAULT, CLASSIC, TOURNAMENT]),
                bot=st.sampled_from(["greedy", "strong"]))
    def start(self, seed: int, rules: Any, bot: str) -> None:
        self.state = gin.new_game(rules, seed)
        self.bot = gin_bots.make_bot(bot, seed)

    @invariant()
    def cards_and_scores(self) -> None:
        s = self.state
        held = [s.hands[0], s.hands[1], *(c.bit for c in s.stock), *(c.bit for c in s.discards)]
        assert sum(m.bit_count() for m in held) == 52
        union = 0
        for m in held:
            union |= m
        assert union == FULL_DECK
        for p in (0, 1):
            assert s.scores[p] == sum(r.points for r in s.records if r.winner == p)


class ThreeHanded(Family):
    module, game = th, th.GAME

    @initialize(seed=st.integers(0, 10**6))
    def start(self, seed: int) -> None:
        self.state = th.new_game(("A", "B", "C"), seed=seed)
        self.bot = gin_bots.make_bot("greedy", seed)

    def bot_view(self) -> Any:
        return self.state.hand

    @invariant()
    def cards_and_scores(self) -> None:
        s = self.state
        h = s.hand
        assert (h.hands[0] | h.hands[1]).bit_count() + len(h.stock) + len(h.discards) == 52
        earned = Counter({p: 0 for p in s.players})
        for summary in s.hands:
            if summary.scorer is not None:
                earned[summary.scorer] += summary.points
        bonus = s.rules.game_bonus if s.over else 0
        assert sum(s.scores.values()) == sum(earned.values()) + bonus
        assert all(s.scores[p] - earned[p] in (0, bonus) for p in s.players)


class ThreeThirteen(Family):
    module, game = tt, tt.GAME

    @initialize(seed=st.integers(0, 10**6), players=st.integers(2, 8), ace_high=st.booleans())
    def start(self, seed: int, players: int, ace_high: bool) -> None:
        self.state = tt.new_game(players, TTRules(ace_high=ace_high), seed)
        self.bot = tt_bots.make_bot("greedy", seed)

    @invariant()
    def cards_and_scores(self) -> None:
        s = self.state
        held = Counter(c for h in s.hands for c in h) + Counter(s.stock) + Counter(s.discards)
        assert held == Counter(list(DECK) * s.decks)
        assert s.scores == tuple(sum(r[p] for r in s.round_scores) for p in range(s.players))


class Indian(Family):
    module, game = indian, indian.GAME

    @initialize(seed=st.integers(0, 10**6), players=st.integers(2, 6), pool=st.sampled_from([None, 101, 201]),
                bot=st.sampled_from(["greedy", "random"]))
    def start(self, seed: int, players: int, pool: int | None, bot: str) -> None:
        self.state = indian.new_game(players, seed=seed, pool=pool)
        self.bot = (indian_bots.GreedyBot if bot == "greedy" else indian_bots.RandomBot)(seed)

    @invariant()
    def cards_and_scores(self) -> None:
        s = self.state
        held = Counter(c for h in s.hands for c in h) + Counter(s.stock) + Counter(s.discards)
        assert held == Counter(list(DECK) * 2 + [JOKER] * s.rules.printed_jokers)
        for p in range(s.players):
            if not s.rejoins[p]:  # a re-joining player takes the highest remaining score + 1
                assert s.scores[p] == sum(d[p] for d in s.deal_history)


def _run(machine: type[Family], late: set[str]) -> None:
    """Run a machine; its runs must also end hands or rounds, not only start them."""
    PHASES[machine.game.name].clear()
    case = machine.TestCase
    case.settings = SETTINGS
    case().runTest()
    assert PHASES[machine.game.name] & late, PHASES[machine.game.name]


def test_gin() -> None:
    _run(Gin, {"HAND_OVER", "GAME_OVER", "MATCH_OVER"})


def test_three_handed_gin() -> None:
    _run(ThreeHanded, {"HAND_OVER", "GAME_OVER"})


def test_three_thirteen() -> None:
    _run(ThreeThirteen, {"ROUND_OVER", "GAME_OVER"})


def test_indian() -> None:
    _run(Indian, {"DEAL_OVER", "GAME_OVER"})
