"""Indian rummy players: a random one (drops, leaves, wrong shows: for tests) and a greedy one."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ..bots import stalled_throw
from ..cards import RANKS, Card, SeedLike, rng_from, without
from ..play import play_out
from ..sim import codes
from .analysis import best_declaration, loser_count_after_discard, masks
from .game import (
    DRAW_DISCARD,
    DRAW_STOCK,
    DROP,
    FINISH,
    GAME,
    LEAVE,
    MISS_TURN,
    NEXT_DEAL,
    RECONNECT,
    Action,
    Kind,
    Phase,
    State,
    legal_actions,
    points_of,
)


class RandomBot:
    """Random legal moves; sometimes drops, leaves (and later reconnects), misses a turn or
    shows a wrong declaration."""

    name = "random"

    def __init__(self, seed: SeedLike = None, drop: float = 0.03, wrong_show: float = 0.03, leave: float = 0.005,
                 miss: float = 0.02, reconnect: float = 0.1) -> None:
        self.rng = rng_from(seed)
        self.p = {"drop": drop, "wrong_show": wrong_show, "leave": leave, "miss": miss, "reconnect": reconnect}

    def act(self, state: State) -> Action:
        if state.phase is not Phase.DRAW and state.phase is not Phase.DISCARD:
            acts = legal_actions(state)
            return acts[int(self.rng.integers(len(acts)))]
        if state.phase is Phase.DRAW:
            if state.left[state.to_play]:
                return RECONNECT if self.rng.random() < self.p["reconnect"] else MISS_TURN
            u = self.rng.random()
            for act, key in ((DROP, "drop"), (LEAVE, "leave"), (MISS_TURN, "miss")):
                if u < self.p[key]:
                    return act
                u -= self.p[key]
            draws = [a for a in (DRAW_STOCK, DRAW_DISCARD) if GAME.verify(state, a) is None]
            return draws[int(self.rng.integers(len(draws)))]
        hand = state.hands[state.to_play]
        card = hand[int(self.rng.integers(len(hand)))]
        if self.rng.random() < self.p["wrong_show"]:
            rest = without(hand, card)
            self.rng.shuffle(rest)  # type: ignore[arg-type]
            groups = tuple(tuple(rest[i:i + 3]) for i in range(0, 12, 3))
            return Action(Kind.DECLARE, card, groups[:-1] + (groups[-1] + (rest[12],),))
        return Action(Kind.DISCARD, card)


class GreedyBot:
    """Shows whenever a valid declaration exists, takes the discard when it lowers its loser
    points, throws the card that leaves the fewest points; with ``drops``, drops first when
    its dealt hand has no pure sequence and no joker (the common advice). In a stalled deal
    (``rummylab.bots.STALLED``) it sometimes throws a random natural card instead."""

    name = "greedy"

    def __init__(self, seed: SeedLike = None, drops: bool = True) -> None:
        self.rng = rng_from(seed)
        self.drops = drops

    def ranked_discards(self, state: State, hand: Sequence[Card],
                        after: dict[Card, int] | None = None) -> list[tuple[int, Card]]:
        """(points after, card) for each distinct discard, best first (dearest card on ties);
        ``after``: each card's points after it, when already known."""
        w = state.wild_rank
        points = state.rules.kernel().points
        naturals = any(not (x.is_joker or x.rank == w) for x in hand)
        # never throw a joker while a natural card can go
        throwable = {c for c in hand if not (naturals and (c.is_joker or c.rank == w))}
        if after is None:
            after = self._points_without(state, hand, throwable)
        options = []
        for c in throwable:
            value = 0 if c.is_joker or c.rank == w else points[c.rank]
            options.append((after[c], -value, c))
        options.sort()
        return [(p, c) for p, _, c in options]

    def _points_without(self, state: State, hand: Sequence[Card], cards: set[Card]) -> dict[Card, int]:
        """For each of ``cards``, the loser points of ``hand`` without one copy of it (one batch)."""
        rules = state.rules
        once, twice, jokers = masks(hand)
        order = sorted(cards)
        rows = [(once, twice, jokers - 1) if c.is_joker else (once, twice ^ c.bit, jokers) if twice & c.bit
                else (once ^ c.bit, twice, jokers) for c in order]
        a, b, j = (np.array(col, dtype=dt) for col, dt in zip(zip(*rows, strict=True),
                                                              (np.uint64, np.uint64, np.uint8), strict=True))
        out = np.empty(len(order), dtype=np.int32)
        rules.kernel().loser_points_batch(a, b, j, state.wild_rank, out, rules.no_second_life_rule == "exclude_pure",
                                          rules.cap, rules.valid_show_points, False)
        return dict(zip(order, out.tolist(), strict=True))

    def _hopeless(self, state: State, hand: Sequence[Card]) -> bool:
        once, twice, _ = masks(hand)
        jokers = sum(c.is_joker or c.rank == state.wild_rank for c in hand)
        return jokers == 0 and state.rules.kernel().best_pure_run(once, twice, state.wild_rank) < 0

    def act(self, state: State) -> Action:
        if state.phase is Phase.DEAL_OVER:
            acts = legal_actions(state)
            rejoin = [a for a in acts if a.kind == "rejoin"]
            return rejoin[0] if rejoin else (NEXT_DEAL if NEXT_DEAL in acts else FINISH)
        me = state.to_play
        hand = state.hands[me]
        if state.phase is Phase.DRAW:
            if state.left[me]:
                return MISS_TURN
            now = points_of(state, hand)
            if self.drops and not state.drawn[me] and self._hopeless(state, hand):
                return DROP
            if state.discards and GAME.verify(state, DRAW_DISCARD) is None:  # never a forbidden joker
                top = state.discards[-1]
                # taken when the hand with it, after its best discard, counts less than now
                # (throwing the top back counts now: the best discard is then a card of the hand)
                if top.is_joker or top.rank == state.wild_rank or loser_count_after_discard(
                        state.rules.kernel(), *masks([*hand, top]), state.wild_rank, state.rules) < now:
                    return DRAW_DISCARD
            return DRAW_STOCK if state.stock or len(state.discards) > 1 else DRAW_DISCARD
        # a valid declaration first (in Card order): only a hand whose every card fits can be one
        after = self._points_without(state, hand, set(hand))
        rules, w = state.rules, state.wild_rank
        fits = min(rules.valid_show_points, rules.cap)
        for c in sorted(after):
            if after[c] == fits:
                rest = without(hand, c)
                once, twice, jokers = masks(rest)
                if rules.declaration_kernel().penalty(once, twice, w, jokers, 1, 1) == 0:
                    groups = best_declaration(rest, RANKS[w], rules)
                    if groups is not None:
                        return Action(Kind.DECLARE, c, groups)
        thrown = stalled_throw(state, hand, self.rng)
        if thrown is not None:
            return Action(Kind.DISCARD, thrown)
        return Action(Kind.DISCARD, self.ranked_discards(state, hand, after)[0][1])


def play(state: State, bots: Sequence[Any], max_actions: int = codes.INDIAN.limits["MAX_ACTIONS"]) -> State:
    """Play until the game is over (each player by its bot; the first bot between deals)."""
    return play_out(GAME, state, lambda s: (bots[0] if s.phase is Phase.DEAL_OVER else bots[s.to_play]).act(s),
                    lambda s: s.phase is Phase.GAME_OVER, max_actions)


BOTS = {"greedy": GreedyBot, "random": RandomBot}
