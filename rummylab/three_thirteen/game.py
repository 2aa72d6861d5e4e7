"""Three Thirteen as an immutable state changed only by checked actions (rules.md §3).

Eleven rounds deal 3 … 13 cards; the deal passes left. A turn is a draw (stock or
discard pile) and a discard. A player who can meld all but one card goes out by
discarding it; every other player then gets exactly one more turn, and the round is
scored. The lowest total after 11 rounds wins.
"""

from __future__ import annotations

import enum
import random
from dataclasses import asdict, dataclass, field
from typing import Any

from .._play import IllegalAction, apply_checked, evolve, replace_at, restock
from ..cards import DECK, Card, without
from .analysis import DEFAULT, Rules, penalty_of_cards

MAX_PLAYERS = 8
"""Two decks hold 104 cards: 7 hands of 13 and an upcard in round 11 leave a stock of 12, which
the discard pile refills. 8 players play with three decks (rules.md §3: enough decks for the last
round), so a hand may hold three copies of a card."""


class Phase(enum.Enum):
    DRAW = "draw"
    DISCARD = "discard"
    ROUND_OVER = "round_over"
    GAME_OVER = "game_over"



@dataclass(frozen=True, slots=True)
class Action:
    """draw_stock, draw_discard, discard, go_out (discard the last unmelded card), next_round."""

    kind: str
    card: Card | None = None

    def to_json(self) -> dict[str, str]:
        return {"kind": self.kind, **({"card": str(self.card)} if self.card else {})}

    @classmethod
    def from_json(cls, data: dict[str, str]) -> Action:
        return cls(data["kind"], Card.parse(data["card"]) if "card" in data else None)

    def __str__(self) -> str:
        return f"{self.kind} {self.card}" if self.card else self.kind


DRAW_STOCK, DRAW_DISCARD, NEXT_ROUND = Action("draw_stock"), Action("draw_discard"), Action("next_round")


@dataclass(frozen=True, kw_only=True)
class State:
    rules: Rules
    seed: int
    players: int
    decks: int
    round_no: int
    dealer: int
    to_play: int
    phase: Phase
    hands: tuple[tuple[Card, ...], ...]
    stock: tuple[Card, ...]
    """Top card last."""
    discards: tuple[Card, ...]
    went_out: int | None = None
    final_turns: int = 0
    """Turns still owed to the other players after someone went out."""
    reshuffles: int = 0
    scores: tuple[int, ...] = ()
    round_scores: tuple[tuple[int, ...], ...] = ()
    history: tuple[Action, ...] = field(default=(), repr=False)

    @property
    def wild_rank(self) -> int:
        return self.round_no + 1

    @property
    def winners(self) -> tuple[int, ...]:
        """Players with the lowest total (after the game)."""
        low = min(self.scores)
        return tuple(i for i, s in enumerate(self.scores) if s == low)


def _deal(rules: Rules, seed: int, players: int, decks: int, round_no: int, dealer: int,
          scores: tuple[int, ...], round_scores: tuple[tuple[int, ...], ...]) -> State:
    cards = list(DECK) * decks
    random.Random(f"313:{seed}:{round_no}").shuffle(cards)
    n = round_no + 2
    hands: list[list[Card]] = [[] for _ in range(players)]
    for i in range(n * players):  # one at a time, starting left of the dealer
        hands[(dealer + 1 + i) % players].append(cards[i])
    upcard = cards[n * players]
    return State(rules=rules, seed=seed, players=players, decks=decks, round_no=round_no, dealer=dealer,
                 to_play=(dealer + 1) % players, phase=Phase.DRAW,
                 hands=tuple(tuple(sorted(h)) for h in hands), stock=tuple(cards[n * players + 1:]),
                 discards=(upcard,), scores=scores, round_scores=round_scores)


def new_game(players: int = 2, rules: Rules = DEFAULT, seed: int = 0) -> State:
    """Round 1 dealt; the first dealer is drawn by the seed."""
    if isinstance(players, bool) or not isinstance(players, int) or not 2 <= players <= MAX_PLAYERS:
        raise ValueError(f"players={players!r}: Three Thirteen is played here by 2 to {MAX_PLAYERS}")
    if not isinstance(seed, int) or isinstance(seed, bool) or seed < 0:
        raise ValueError(f"seed={seed!r}: a non-negative integer")
    decks = rules.deck_count(players)
    if players * 13 + 1 > 52 * decks:
        raise ValueError(f"{players} players need more than {decks} deck(s) for round 11")
    dealer = random.Random(f"313:{seed}:dealer").randrange(players)
    return _deal(rules, seed, players, decks, 1, dealer, (0,) * players, ())


def can_go_out(state: State, card: Card) -> bool:
    """Would discarding ``card`` leave every other card melded?"""
    return penalty_of_cards(without(state.hands[state.to_play], card), state.round_no, state.rules) == 0


def legal_actions(state: State) -> list[Action]:
    if state.phase is Phase.DRAW:
        acts = [DRAW_STOCK] if state.stock or len(state.discards) > 1 else []
        return acts + ([DRAW_DISCARD] if state.discards else [])
    if state.phase is Phase.DISCARD:
        cards = sorted(set(state.hands[state.to_play]))
        acts = [Action("discard", c) for c in cards]
        if state.went_out is None:
            acts += [Action("go_out", c) for c in cards if can_go_out(state, c)]
        return acts
    if state.phase is Phase.ROUND_OVER:
        return [NEXT_ROUND]
    return []


def _illegal(s: State, a: object, why: str) -> IllegalAction:
    return IllegalAction(f"{a} is illegal (round {s.round_no}, {s.phase.value}, player {s.to_play}): {why}")


def apply(state: State, action: Action) -> State:
    """The state after ``action``; raises ``IllegalAction`` (and changes nothing) if not allowed."""
    return apply_checked(state, action, Action, _step, IllegalAction)


def _step(s: State, a: Action) -> State:
    me = s.to_play
    if s.phase is Phase.DRAW:
        if a.kind == "draw_stock":
            if not s.stock and len(s.discards) < 2:
                raise _illegal(s, a, "the stock and the discard pile are empty")
            stock, discards, reshuffles = restock(s.stock, s.discards, s.reshuffles, f"313:{s.seed}:{s.round_no}")
            hand = tuple(sorted(s.hands[me] + (stock[-1],)))
            return evolve(s, phase=Phase.DISCARD, hands=replace_at(s.hands, me, hand), stock=stock[:-1],
                           discards=discards, reshuffles=reshuffles)
        if a.kind == "draw_discard":
            if not s.discards:
                raise _illegal(s, a, "the discard pile is empty")
            hand = tuple(sorted(s.hands[me] + (s.discards[-1],)))
            return evolve(s, phase=Phase.DISCARD, hands=replace_at(s.hands, me, hand), discards=s.discards[:-1])
        raise _illegal(s, a, "draw first: from the stock or the discard pile")
    if s.phase is Phase.DISCARD:
        if a.kind not in ("discard", "go_out") or a.card is None:
            raise _illegal(s, a, "discard a card (or go out by discarding the last unmelded card)")
        if a.card not in s.hands[me]:
            raise _illegal(s, a, f"{a.card} is not in the hand")
        if a.kind == "go_out":
            if s.went_out is not None:
                raise _illegal(s, a, f"player {s.went_out} has already gone out: this is a final turn")
            if not can_go_out(s, a.card):
                raise _illegal(s, a, f"the other cards are not all melded after discarding {a.card}")
        rest = tuple(without(s.hands[me], a.card))
        after = evolve(s, hands=replace_at(s.hands, me, rest), discards=s.discards + (a.card,))
        if a.kind == "go_out":
            return evolve(after, went_out=me, final_turns=s.players - 1, phase=Phase.DRAW,
                           to_play=(me + 1) % s.players)
        if s.went_out is not None:
            left = s.final_turns - 1
            if left == 0:
                return _score(evolve(after, final_turns=0))
            return evolve(after, final_turns=left, phase=Phase.DRAW, to_play=(me + 1) % s.players)
        return evolve(after, phase=Phase.DRAW, to_play=(me + 1) % s.players)
    if s.phase is Phase.ROUND_OVER and a.kind == "next_round":
        return _deal(s.rules, s.seed, s.players, s.decks, s.round_no + 1, (s.dealer + 1) % s.players,
                     s.scores, s.round_scores)
    raise _illegal(s, a, f"the legal actions are {', '.join(map(str, legal_actions(s))) or 'none'}")



def _score(s: State) -> State:
    penalties = tuple(0 if p == s.went_out else penalty_of_cards(s.hands[p], s.round_no, s.rules)
                      for p in range(s.players))
    scores = tuple(a + b for a, b in zip(s.scores, penalties, strict=True))
    phase = Phase.GAME_OVER if s.round_no == 11 else Phase.ROUND_OVER
    return evolve(s, phase=phase, scores=scores, round_scores=s.round_scores + (penalties,))


def history_json(state: State) -> dict[str, Any]:
    return {"rules": asdict(state.rules), "seed": state.seed, "players": state.players,
            "actions": [a.to_json() for a in state.history]}


def replay(data: dict[str, Any]) -> State:
    state = new_game(data["players"], Rules(**data["rules"]), data["seed"])
    for a in data["actions"]:
        state = apply(state, Action.from_json(a))
    return state
