"""Three Thirteen as an immutable state changed only by checked actions (docs/rules.md §3).

Eleven rounds deal 3 … 13 cards; the deal passes left. A turn is a draw (stock or
discard pile) and a discard. A player who can meld all but one card goes out by
discarding it; every other player then gets exactly one more turn, and the round is
scored. The lowest total after 11 rounds wins.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import Any

from .. import play
from ..cards import DECK, Card, without
from ..i18n import N_, _
from ..play import IllegalAction as IllegalAction
from ..play import check_seed, evolve, noted, picked_up, replace_at, restock, thrown
from ..sim import codes
from .analysis import DEFAULT, Rules, penalty_of_cards

MAX_PLAYERS = codes.THIRTEEN.limits["MAX_PLAYERS"]
"""Two decks hold 104 cards: 7 hands of 13 and an upcard in round 11 leave a stock of 12, which
the discard pile refills. 8 players play with three decks (enough decks for the last
round), so a hand may hold three copies of a card."""


class Phase(enum.Enum):
    DRAW = "draw"
    DISCARD = "discard"
    ROUND_OVER = "round_over"
    GAME_OVER = "game_over"



class Kind(play.Kind):
    DRAW_STOCK = "draw_stock"
    DRAW_DISCARD = "draw_discard"
    DISCARD = "discard"
    GO_OUT = "go_out"
    """Discard ``card``, the last card not melded."""
    NEXT_ROUND = "next_round"


class Action(play.Action):
    """A Three Thirteen move; ``card`` is the card discarded."""

    __slots__ = ()
    kinds = Kind


DRAW_STOCK, DRAW_DISCARD, NEXT_ROUND = Action(Kind.DRAW_STOCK), Action(Kind.DRAW_DISCARD), Action(Kind.NEXT_ROUND)


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
    taken: Card | None = None
    """The card just taken from the discard pile (this turn)."""
    picked: tuple[tuple[Card, ...], ...] = ()
    """The cards each player took from the discard pile this round and still holds (everyone saw
    them taken); empty for a state built without them."""
    discarded: tuple[tuple[Card, ...], ...] = ()
    """The cards each player threw this round (by choice; a turn the table plays for her does not
    count); empty for a state built without them."""
    declined: tuple[tuple[Card, ...], ...] = ()
    """The discards each player left on the pile this round to draw from the stock."""
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
    cards = play.shuffled(list(DECK) * decks, "313", seed, "deal", round_no)
    n = round_no + 2
    hands: list[list[Card]] = [[] for _player in range(players)]
    for i in range(n * players):  # one at a time, starting left of the dealer
        hands[(dealer + 1 + i) % players].append(cards[i])
    upcard = cards[n * players]
    return State(rules=rules, seed=seed, players=players, decks=decks, round_no=round_no, dealer=dealer,
                 to_play=(dealer + 1) % players, phase=Phase.DRAW,
                 hands=tuple(tuple(sorted(h)) for h in hands), stock=tuple(cards[n * players + 1:]),
                 discards=(upcard,), picked=((),) * players, discarded=((),) * players,
                 declined=((),) * players, scores=scores, round_scores=round_scores)


def new_game(players: int = 2, rules: Rules = DEFAULT, seed: int = 0) -> State:
    """Round 1 dealt; the first dealer is drawn by the seed."""
    if isinstance(players, bool) or not isinstance(players, int) or not 2 <= players <= MAX_PLAYERS:
        raise ValueError(f"players={players!r}: Three Thirteen is played here by 2 to {MAX_PLAYERS}")
    check_seed(seed)
    decks = rules.deck_count(players)
    if players * 13 + 1 > 52 * decks:
        raise ValueError(f"{players} players need more than {decks} deck(s) for round 11")
    return play.begin(lambda: _deal(rules, seed, players, decks, 1, play.drawn(players, "313", seed, "dealer"),
                                    (0,) * players, ()))


def can_go_out(state: State, card: Card) -> bool:
    """Would discarding ``card`` leave every other card melded?"""
    return penalty_of_cards(without(state.hands[state.to_play], card), state.round_no, state.rules) == 0


def legal_actions(state: State) -> list[Action]:
    return GAME.legal_actions(state)


def apply(state: State, action: Action) -> State:
    """The state after ``action``; raises ``IllegalAction`` (and changes nothing) if not allowed."""
    return GAME.apply(state, action)


def _why_not_draw_stock(s: State, a: Action) -> str | None:
    return None if s.stock or len(s.discards) > 1 else _("the stock and the discard pile are empty")


def _draw_stock(s: State, a: Action) -> State:
    me = s.to_play
    stock, discards, reshuffles = restock(s.stock, s.discards, s.reshuffles, "313", s.seed, s.round_no)
    hand = tuple(sorted(s.hands[me] + (stock[-1],)))
    declined = noted(s.declined, me, s.discards[-1]) if s.discards else s.declined
    return evolve(s, phase=Phase.DISCARD, hands=replace_at(s.hands, me, hand), stock=stock[:-1],
                  discards=discards, reshuffles=reshuffles, declined=declined)


def _why_not_draw_discard(s: State, a: Action) -> str | None:
    return None if s.discards else _("the discard pile is empty")


def _draw_discard(s: State, a: Action) -> State:
    me = s.to_play
    hand = tuple(sorted(s.hands[me] + (s.discards[-1],)))
    return evolve(s, phase=Phase.DISCARD, hands=replace_at(s.hands, me, hand), discards=s.discards[:-1],
                  taken=s.discards[-1], picked=picked_up(s.picked, me, s.discards[-1]))


_DISCARD = N_("discard a card (or go out by discarding the last unmelded card)")
_why_not_discard = play.discard_check(_DISCARD)


def _why_not_go_out(s: State, a: Action) -> str | None:
    why = _why_not_discard(s, a)
    if why is None and s.went_out is not None:
        return _("player {player} has already gone out: this is a final turn").format(player=s.went_out)
    if why is None and a.card is not None and not can_go_out(s, a.card):
        return _("the other cards are not all melded after discarding {card}").format(card=a.card)
    return why


def _discard(s: State, a: Action) -> State:
    me, card = s.to_play, a.card
    assert card is not None
    after = evolve(s, hands=replace_at(s.hands, me, tuple(without(s.hands[me], card))),
                   discards=s.discards + (card,), taken=None, picked=thrown(s.picked, me, card),
                   discarded=noted(s.discarded, me, card))
    nxt = (me + 1) % s.players
    if a.kind is Kind.GO_OUT:
        return evolve(after, went_out=me, final_turns=s.players - 1, phase=Phase.DRAW, to_play=nxt)
    if s.went_out is not None:
        left = s.final_turns - 1
        if left == 0:
            return _score(evolve(after, final_turns=0))
        return evolve(after, final_turns=left, phase=Phase.DRAW, to_play=nxt)
    return evolve(after, phase=Phase.DRAW, to_play=nxt)


def _next_round(s: State, a: Action) -> State:
    return _deal(s.rules, s.seed, s.players, s.decks, s.round_no + 1, (s.dealer + 1) % s.players,
                 s.scores, s.round_scores)


def _score(s: State) -> State:
    penalties = tuple(0 if p == s.went_out else penalty_of_cards(s.hands[p], s.round_no, s.rules)
                      for p in range(s.players))
    scores = tuple(a + b for a, b in zip(s.scores, penalties, strict=True))
    phase = Phase.GAME_OVER if s.round_no == 11 else Phase.ROUND_OVER
    return evolve(s, phase=phase, scores=scores, round_scores=s.round_scores + (penalties,))


def history_json(state: State) -> dict[str, Any]:
    return GAME.history(state)


def replay(data: dict[str, Any]) -> State:
    return GAME.replay(data)


GAME: play.Game[State] = play.Game(
    name="three_thirteen", action=Action, rules_type=Rules,
    start=lambda rules, seed, players: new_game(players, rules, seed),
    params=lambda s: {"players": s.players},
    moves={
        Phase.DRAW: (play.Move(kind=Kind.DRAW_STOCK, do=_draw_stock, verify=_why_not_draw_stock),
                     play.Move(kind=Kind.DRAW_DISCARD, do=_draw_discard, verify=_why_not_draw_discard)),
        Phase.DISCARD: (play.Move(kind=Kind.DISCARD, do=_discard, verify=_why_not_discard,
                                  candidates=play.each_card(Action, Kind.DISCARD)),
                        play.Move(kind=Kind.GO_OUT, do=_discard, verify=_why_not_go_out,
                                  candidates=play.each_card(Action, Kind.GO_OUT))),
        Phase.ROUND_OVER: (play.Move(kind=Kind.NEXT_ROUND, do=_next_round),),
    },
    hints={Phase.DRAW: N_("draw first: from the stock or the discard pile"), Phase.DISCARD: _DISCARD},
    where=lambda s: _("round {round}, {phase}, player {player}").format(round=s.round_no, phase=s.phase.value,
                                                                         player=s.to_play),
)
