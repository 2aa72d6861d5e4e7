"""Gin players: random, greedy and a stronger one that looks one draw ahead."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

import numpy as np

from ..cards import BIT_CARD, DECK, FULL_DECK, SeedLike, bits_of, rng_from
from ..play import play_out
from .analysis import gin_kernel
from .game import (
    BIG_GIN,
    DRAW_DISCARD,
    DRAW_STOCK,
    GAME,
    NEXT_GAME,
    NEXT_HAND,
    PASS,
    TAKE_UPCARD,
    Action,
    Kind,
    Phase,
    State,
    legal_actions,
    new_game,
)
from .rules import DEFAULT, Rules

_VALUE = {c.bit: min(c.rank + 1, 10) for c in DECK}
_RANK = {c.bit: c.rank for c in DECK}
_SUIT = {c.bit: c.suit for c in DECK}


class Bot(Protocol):
    """A player: picks a legal action from what its seat may see."""

    name: str

    def act(self, state: State) -> Action: ...


def _housekeeping(state: State) -> Action | None:
    if state.phase is Phase.HAND_OVER:
        return NEXT_HAND
    if state.phase is Phase.GAME_OVER:
        return NEXT_GAME
    return None


class RandomBot:
    """Any legal action, uniformly."""

    name = "random"

    def __init__(self, seed: SeedLike = None) -> None:
        self.rng = rng_from(seed)

    def act(self, state: State) -> Action:
        acts = legal_actions(state)
        return acts[int(self.rng.integers(len(acts)))]


class GreedyBot:
    """Takes a card that lowers its deadwood, discards the highest unmatched card,
    knocks as soon as it may (never, with ``knocks=False``: for studying hands)."""

    name = "greedy"

    def __init__(self, seed: SeedLike = None, *, knocks: bool = True) -> None:
        self.rng = rng_from(seed)
        self.knocks = knocks

    def wants(self, state: State) -> bool:
        """Does taking the top discard lower the deadwood? (Discarding it again gives today's.)"""
        k = gin_kernel()
        mask = state.hands[state.to_play]
        return bool(k.discard_deadwood(mask | state.discards[-1].bit) < k.deadwood(mask))

    def choose_discard(self, state: State) -> tuple[int, int]:
        """(deadwood after, card bit): least deadwood, then the highest card."""
        taken = state.taken.bit if state.taken else 0
        dw, bit = gin_kernel().best_removal(state.hands[state.to_play], taken)
        return int(dw), int(bit)

    def knock_now(self, state: State, deadwood: int) -> bool:
        return self.knocks and deadwood <= state.rules.knock_limit

    def act(self, state: State) -> Action:
        h = _housekeeping(state)
        if h:
            return h
        if state.phase is Phase.FIRST_UPCARD:
            return TAKE_UPCARD if self.wants(state) else PASS
        if state.phase is Phase.DRAW:
            return DRAW_DISCARD if state.passes != 2 and self.wants(state) else DRAW_STOCK
        mask = state.hands[state.to_play]
        if state.rules.big_gin_bonus is not None and gin_kernel().deadwood(mask) == 0:
            return BIG_GIN
        dw, bit = self.choose_discard(state)
        return Action(Kind.KNOCK if self.knock_now(state, dw) else Kind.DISCARD, BIT_CARD[bit])


class StrongBot(GreedyBot):
    """Looks one draw ahead over the cards it has not seen, avoids feeding the
    opponent's pick-ups, knocks early only with enough stock left, plays for gin when ahead."""

    name = "strong"

    def unseen(self, state: State) -> int:
        me = state.to_play
        seen = state.hands[me] | state.picked_up[1 - me]
        for c in state.discards:
            seen |= c.bit
        return FULL_DECK & ~seen

    def choose_discard(self, state: State) -> tuple[int, int]:
        k = gin_kernel()
        me = state.to_play
        mask = state.hands[me]
        taken = state.taken.bit if state.taken else 0
        # a card taken from the pile must pay for itself: the hand ends below its deadwood before
        # the take, so two bots can never trade discards back and forth for ever
        cap = k.deadwood(mask & ~taken) if taken else 1 << 30
        if not any(k.deadwood(mask & ~b) < cap for b in bits_of(mask & ~taken)):
            cap = 1 << 30  # a card it did not choose to take (a hint for a player, say): no cap
        unseen = bits_of(self.unseen(state))
        theirs = bits_of(state.picked_up[1 - me])
        best: tuple[float, ...] | None = None
        choice = (0, 0)
        for b in bits_of(mask & ~taken):
            left = mask & ~b
            dw = k.deadwood(left)
            if dw >= cap:
                continue
            ahead = sum(k.discard_deadwood(left | u) for u in unseen) / max(len(unseen), 1)
            danger = sum(1 for t in theirs if _RANK[t] == _RANK[b]
                         or (_SUIT[t] == _SUIT[b] and abs(_RANK[t] - _RANK[b]) <= 2))
            key = (dw + 0.6 * ahead + 4 * danger, dw, -_VALUE[b])
            if best is None or key < best:
                best, choice = key, (dw, b)
        return choice

    def knock_now(self, state: State, deadwood: int) -> bool:
        if not self.knocks:
            return False
        if deadwood == 0:
            return True
        if deadwood > state.rules.knock_limit:
            return False
        me = state.to_play
        lead = state.scores[me] - state.scores[1 - me]
        if lead >= 40 and len(state.stock) > 12 and deadwood > 2:
            return False  # ahead: play for gin
        limit = 10 if len(state.stock) > 20 else (7 if len(state.stock) > 12 else 4)
        return deadwood <= limit


BOTS: dict[str, type[RandomBot] | type[GreedyBot]] = {"random": RandomBot, "greedy": GreedyBot, "strong": StrongBot}


def make_bot(name: str, seed: SeedLike = None) -> Bot:
    if name not in BOTS:
        raise ValueError(f"unknown bot {name!r}: choose from {', '.join(BOTS)}")
    return BOTS[name](seed)


def play_game(bots: Sequence[Bot], rules: Rules = DEFAULT, seed: int = 0, max_actions: int = 100_000) -> State:
    """Play one game (to the target) and return its final state."""
    return play_out(GAME, new_game(rules, seed), lambda s: bots[s.to_play].act(s),
                    lambda s: s.phase in (Phase.GAME_OVER, Phase.MATCH_OVER), max_actions)


def simulate(n_games: int, bots: Sequence[str | Bot] = ("greedy", "greedy"), rules: Rules = DEFAULT,
             seed: int = 0) -> Any:
    """Play ``n_games`` games; a polars DataFrame with one row per hand."""
    import polars as pl

    rng = np.random.default_rng(seed)
    players = [make_bot(b, int(rng.integers(2**32))) if isinstance(b, str) else b for b in bots]
    rows: list[dict[str, Any]] = []
    for g in range(n_games):
        final = play_game(players, single_game_rules(rules), int(rng.integers(2**31)))
        for h, r in enumerate(final.records):
            rows.append({"game": g, "hand": h, "winner": r.winner, "kind": r.kind, "points": r.points,
                         "knocker": r.knocker, "turns": r.turns, "deadwood_0": r.deadwoods[0],
                         "deadwood_1": r.deadwoods[1], "bot_0": players[0].name, "bot_1": players[1].name})
    return pl.DataFrame(rows, schema={"game": pl.Int64, "hand": pl.Int64, "winner": pl.Int8, "kind": pl.Utf8,
                                      "points": pl.Int64, "knocker": pl.Int8, "turns": pl.Int64,
                                      "deadwood_0": pl.Int64, "deadwood_1": pl.Int64, "bot_0": pl.Utf8,
                                      "bot_1": pl.Utf8})


def single_game_rules(rules: Rules) -> Rules:
    """Simulations play single games: rules of a match (``match_games`` > 1) are refused, not
    ignored."""
    if not isinstance(rules, Rules):
        raise ValueError(f"rules={rules!r}: gin needs rummylab.gin.Rules")
    if rules.match_games != 1:
        raise ValueError(f"match_games={rules.match_games}: simulate plays single games; "
                         "pass dataclasses.replace(rules, match_games=1)")
    return rules
