"""Three Thirteen players: greedy, and a planner that keeps wild cards and looks one draw ahead."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

import numpy as np

from ..bots import stalled_throw
from ..cards import DECK, Card, SeedLike, deck_masks, rng_from, without
from ..kernel._wild_py import _add, _dead, _remove
from ..play import play_out
from .analysis import DEFAULT, Rules, penalty_after_discard, penalty_of_cards, penalty_of_masks
from .game import DRAW_DISCARD, DRAW_STOCK, GAME, NEXT_ROUND, Action, Kind, Phase, State, new_game


class GreedyBot:
    """Takes the discard when it lowers its penalty, goes out when it can, else discards the
    card whose loss costs least (the highest such card); in a stalled round (``rummylab.bots.STALLED``) it
    sometimes throws a random natural card instead."""

    name = "greedy"
    keeps_wilds = False

    def __init__(self, seed: SeedLike = None) -> None:
        self.rng = rng_from(seed)

    def _pen(self, state: State, cards: Sequence[Card]) -> int:
        return penalty_of_cards(cards, state.round_no, state.rules)

    def best_discards(self, state: State, hand: Sequence[Card]) -> list[tuple[int, Card]]:
        """(penalty after, card) for each distinct discard, best first."""
        w = state.wild_rank
        k = state.rules.kernel()
        masks = deck_masks(hand)[:3]
        options = []
        for c in sorted(set(hand)):
            if self.keeps_wilds and c.rank == w and any(x.rank != w for x in hand):
                continue
            options.append((penalty_of_masks(k, _remove(masks, c.bit), w), -state.rules.points[c.rank], c))
        options.sort()
        return [(p, c) for p, _, c in options]

    def wants_discard(self, state: State) -> bool:
        hand = state.hands[state.to_play]
        top = state.discards[-1]
        if self.keeps_wilds and top.rank == state.wild_rank:
            return True
        k, w = state.rules.kernel(), state.wild_rank
        masks = deck_masks(hand)[:3]
        now = penalty_of_masks(k, masks, w)
        return penalty_after_discard(k, _add(masks, top.bit), w) < now  # the top itself gives now

    def choose(self, state: State, ranked: list[tuple[int, Card]]) -> Card:
        return ranked[0][1]

    def act(self, state: State) -> Action:
        if state.phase is Phase.ROUND_OVER:
            return NEXT_ROUND
        if state.phase is Phase.DRAW:
            if state.discards and (not state.stock and len(state.discards) < 2 or self.wants_discard(state)):
                return DRAW_DISCARD
            return DRAW_STOCK
        hand = state.hands[state.to_play]
        ranked = self.best_discards(state, hand)
        if state.went_out is None and ranked[0][0] == 0:
            return Action(Kind.GO_OUT, ranked[0][1])
        thrown = stalled_throw(state, hand, self.rng)
        if thrown is not None:
            return Action(Kind.DISCARD, thrown)
        return Action(Kind.DISCARD, self.choose(state, self.paying(state, hand, ranked)))

    def paying(self, state: State, hand: Sequence[Card], ranked: list[tuple[int, Card]]) -> list[tuple[int, Card]]:
        """After taking the top discard, the discards that leave less penalty than before the take
        (or, for a wild card kept, no more): so bots never trade discards in a cycle."""
        if state.taken is None:
            return ranked
        before = self._pen(state, without(hand, state.taken))
        return ([pc for pc in ranked if pc[0] < before] or [pc for pc in ranked if pc[0] <= before]
                or ranked)


class PlannerBot(GreedyBot):
    """Never throws a wild card away, and among near-best discards keeps the hand whose
    expected penalty after the next stock draw is least (every unseen card, weighted by its
    unseen copies; the bot then discards its best card)."""

    name = "planner"
    keeps_wilds = True

    def choose(self, state: State, ranked: list[tuple[int, Card]]) -> Card:
        best = ranked[0][0]
        close = [c for p, c in ranked[:4] if p <= best + 5]
        if len(close) == 1:
            return close[0]
        hand = state.hands[state.to_play]
        seen = Counter(hand)
        seen.update(state.discards)
        unseen = [(c, n) for c in DECK if (n := state.decks - seen[c]) > 0]  # DECK order
        value = dict(zip(close, self._after_draws(state, [without(hand, c) for c in close], unseen), strict=True))
        return min(close, key=lambda c: (value[c], -state.rules.points[c.rank]))

    def _after_draws(self, state: State, hands: list[list[Card]], unseen: list[tuple[Card, int]]) -> list[float]:
        """For each hand, the expected penalty after the next stock draw and the best discard
        (every unseen card, weighted by its copies; a card that meets nothing is thrown
        straight back). Every hand after every draw is searched, with its best discard, in one batch."""
        w = state.wild_rank
        nows = [self._pen(state, h) for h in hands]
        held = np.array([deck_masks(h)[:3] for h in hands], dtype=np.uint64)  # (hands, 3)
        drawn_bits = np.array([u.bit for u, _ in unseen], dtype=np.uint64)
        o, t, h = (held[:, i, None] for i in range(3))
        # the hands after drawing each unseen card (_add), shape (hands, unseen)
        in_o, in_t = (o & drawn_bits) != 0, (t & drawn_bits) != 0
        drawn = (np.where(in_o, o, o | drawn_bits), np.where(in_o & ~in_t, t | drawn_bits, t),
                 np.where(in_t, h | drawn_bits, h))
        wild_rank = np.array([u.rank == w for u, _ in unseen], dtype=bool)
        dead = ((_dead(drawn, 1, True) & drawn_bits) != 0) & ~wild_rank  # type: ignore[arg-type]  # numpy too
        # each live draw's hand after its best discard, in one search each (the drawn card's own
        # discard gives the hand back: its penalty is ``now``)
        best = np.full(dead.shape, 1 << 30, dtype=np.int32)
        live = ~dead
        if live.any():
            found = np.empty(int(live.sum()), dtype=np.int32)
            state.rules.kernel().penalty_batch(drawn[0][live], drawn[1][live], w, found, thrice=drawn[2][live],
                                               related=True, discard=True)
            best[live] = found
        copies = np.array([n for _, n in unseen], dtype=np.int64)
        weight = float(copies.sum())
        out = []
        for i, now in enumerate(nows):
            # whole numbers: the sum is exact in any order, as in the compiled loop
            total = float(copies @ np.where(dead[i], now, np.minimum(best[i], now)).astype(np.int64))
            out.append(total / weight if weight else now)
        return out


BOTS: dict[str, type[GreedyBot]] = {"greedy": GreedyBot, "planner": PlannerBot}


def make_bot(name: str, seed: SeedLike = None) -> GreedyBot:
    if name not in BOTS:
        raise ValueError(f"unknown bot {name!r}: choose from {', '.join(BOTS)}")
    return BOTS[name](seed)


def play_game(bots: Sequence[GreedyBot], rules: Rules = DEFAULT, seed: int = 0,
              max_actions: int = 200_000) -> State:
    """Play one game of 11 rounds and return its final state."""
    return play_out(GAME, new_game(len(bots), rules, seed), lambda s: bots[s.to_play].act(s),
                    lambda s: s.phase is Phase.GAME_OVER, max_actions)
