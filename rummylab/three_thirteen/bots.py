"""Three Thirteen players: greedy, and a planner that keeps wild cards and looks one draw ahead."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

import numpy as np

from .._wild_py import _add, _dead, _remove
from ..cards import DECK, Card, SeedLike, bits_of, deck_masks, rng_from, without
from ..play import play_out
from .analysis import DEFAULT, Rules, penalty_of_cards, penalty_of_masks
from .game import DRAW_DISCARD, DRAW_STOCK, GAME, NEXT_ROUND, Action, Kind, Phase, State, new_game


class GreedyBot:
    """Takes the discard when it lowers its penalty, goes out when it can, else discards the
    card whose loss costs least (the highest such card)."""

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
        with_top = _add(masks, top.bit)
        return min(penalty_of_masks(k, _remove(with_top, c.bit), w) for c in set(hand)) < now

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
        unseen = Counter(list(DECK) * state.decks) - Counter(hand) - Counter(state.discards)
        k = state.rules.kernel()
        w = state.wild_rank

        def after_draw(card: Card) -> float:
            left = without(hand, card)
            now = self._pen(state, left)
            masks = deck_masks(left)[:3]
            total = weight = 0.0
            for u, n in unseen.items():
                weight += n
                drawn = _add(masks, u.bit)
                if u.rank != w and _dead(drawn, 1, True) & u.bit:
                    total += n * now  # a card that meets nothing is thrown straight back
                    continue
                # the best discard after the draw
                total += n * min([now] + [penalty_of_masks(k, _remove(drawn, bit), w) for bit in bits_of(drawn[0])])
            return total / weight if weight else now

        return min(close, key=lambda c: (after_draw(c), -state.rules.points[c.rank]))


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


def simulate(n_games: int, bots: Sequence[str | GreedyBot] = ("greedy", "greedy"), rules: Rules = DEFAULT,
             seed: int = 0) -> Any:
    """Play ``n_games`` full games; a polars DataFrame with one row per player per round."""
    import polars as pl

    rng = np.random.default_rng(seed)
    players = [make_bot(b, int(rng.integers(2**32))) if isinstance(b, str) else b for b in bots]
    rows = []
    for g in range(n_games):
        final = play_game(players, rules, int(rng.integers(2**31)))
        totals = [0] * len(players)
        for r, penalties in enumerate(final.round_scores, start=1):
            for p, pen in enumerate(penalties):
                totals[p] += pen
                rows.append({"game": g, "round": r, "player": p, "bot": players[p].name, "penalty": pen,
                             "total": totals[p], "winner": p in final.winners and r == 11})
    return pl.DataFrame(rows)
