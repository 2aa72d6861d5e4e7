"""Gin players: random, greedy, a stronger one that looks one draw ahead, and the expert
(``rummylab.gin.expert``), which models the opponent's hand; each plays from what its seat may see."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from ..cards import BIT_CARD, DECK, FULL_DECK, SeedLike, bits_of, rng_from
from ..play import play_out
from .analysis import gin_kernel
from .expert import ExpertBot, candidates
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


FIRST_UPCARD = ("greedy", "take", "pass")
"""What a bot does with the first upcard: take it when it lowers the deadwood, always, never."""
TAKES = ("lowers", "melds")
"""Which discard a greedy bot takes: one that lowers its deadwood, or only one that also melds
(it is in a meld of the hand it leaves, as the EAAI players take it)."""


class GreedyBot:
    """Takes a card that lowers its deadwood, discards the highest unmatched card,
    knocks as soon as it may (never, with ``knocks=False``: for studying hands).

    ``knock_at``: knock only at this deadwood or less (None: the knock limit);
    ``first_upcard``: "greedy", "take" (always) or "pass" (never), for studying the upcard;
    ``takes``: "lowers" (a discard that lowers the deadwood) or "melds" (only one it melds)."""

    name = "greedy"

    def __init__(self, seed: SeedLike = None, *, knocks: bool = True, knock_at: int | None = None,
                 first_upcard: str = "greedy", takes: str = "lowers") -> None:
        self.rng = rng_from(seed)
        self.knocks = knocks
        if knock_at is not None and (isinstance(knock_at, bool) or not isinstance(knock_at, int)
                                     or not 0 <= knock_at <= 110):
            raise ValueError(f"knock_at={knock_at!r}: None or a deadwood from 0 to 110")
        if first_upcard not in FIRST_UPCARD:
            raise ValueError(f"first_upcard={first_upcard!r}: one of {', '.join(FIRST_UPCARD)}")
        if takes not in TAKES:
            raise ValueError(f"takes={takes!r}: one of {', '.join(TAKES)}")
        self.knock_at = knock_at
        self.first_upcard = first_upcard
        self.takes = takes

    def limit(self, state: State) -> int:
        """The most deadwood this bot knocks with."""
        limit = state.rules.knock_limit
        return limit if self.knock_at is None else min(limit, self.knock_at)

    def wants(self, state: State) -> bool:
        """Does taking the top discard lower the deadwood? (Discarding it again gives today's.)
        Taking only into melds: and is the card melded in the hand it leaves (the hand without
        it has more deadwood than its value less)?"""
        k = gin_kernel()
        mask, top = state.hands[state.to_play], state.discards[-1].bit
        if not k.discard_deadwood(mask | top) < k.deadwood(mask):
            return False  # below today's only by keeping the card
        if self.takes == "lowers":
            return True
        dw, out = (int(x) for x in k.best_removal(mask | top, top))  # the card taken stays
        left = (mask | top) & ~out
        return int(k.deadwood(left & ~top)) + _VALUE[top] > dw

    def choose_discard(self, state: State) -> tuple[int, int]:
        """(deadwood after, card bit): least deadwood, then the highest card."""
        taken = state.taken.bit if state.taken else 0
        dw, bit = gin_kernel().best_removal(state.hands[state.to_play], taken)
        return int(dw), int(bit)

    def knock_now(self, state: State, deadwood: int) -> bool:
        return self.knocks and deadwood <= self.limit(state)

    def act(self, state: State) -> Action:
        h = _housekeeping(state)
        if h:
            return h
        if state.phase is Phase.FIRST_UPCARD:
            if self.first_upcard != "greedy":
                return TAKE_UPCARD if self.first_upcard == "take" else PASS
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
        me = state.to_play
        mask = state.hands[me]
        taken = state.taken.bit if state.taken else 0
        theirs = bits_of(state.picked_up[1 - me])
        best: tuple[float, ...] | None = None
        choice = (0, 0)
        for b, dw, ahead in candidates(mask, taken, bits_of(self.unseen(state))):
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
        if deadwood > self.limit(state):
            return False
        me = state.to_play
        lead = state.scores[me] - state.scores[1 - me]
        if lead >= 40 and len(state.stock) > 12 and deadwood > 2:
            return False  # ahead: play for gin
        limit = 10 if len(state.stock) > 20 else (7 if len(state.stock) > 12 else 4)
        return deadwood <= limit


BOTS: dict[str, type[RandomBot] | type[GreedyBot] | type[ExpertBot]] = {
    "random": RandomBot, "greedy": GreedyBot, "strong": StrongBot, "expert": ExpertBot}
"""The bots that play from the rules alone (the rollout bot, which rolls these out: rollout_bot)."""
DRAWING = ("random", "expert", "rollout")
"""The bots that draw from their seat's generator (a random bot's moves, the expert's samples,
the rollout bot's worlds)."""


def make_bot(name: str, seed: SeedLike = None) -> Bot:
    if name not in BOTS:
        raise ValueError(f"unknown bot {name!r}: choose from {', '.join(BOTS)}")
    return BOTS[name](seed)


def play_game(bots: Sequence[Bot], rules: Rules = DEFAULT, seed: int = 0, max_actions: int = 100_000) -> State:
    """Play one game (to the target) and return its final state."""
    return play_out(GAME, new_game(rules, seed), lambda s: bots[s.to_play].act(s),
                    lambda s: s.phase in (Phase.GAME_OVER, Phase.MATCH_OVER), max_actions)
