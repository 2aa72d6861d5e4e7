"""Two-handed gin as an immutable state changed only by checked actions.

``new_game(rules, seed)`` deals; ``legal_actions(state)`` lists what the player to
act may do; ``apply(state, action)`` returns the next state or raises
``IllegalAction`` naming the rule, leaving the state as it was. Every state keeps
its history, and ``replay(history_json(state))`` rebuilds it exactly.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import Any

from .. import play
from ..cards import DECK, Card, mask_cards, parse_cards, to_mask
from ..i18n import N_, _
from ..play import IllegalAction as IllegalAction
from ..play import check_seed
from .analysis import gin_kernel
from .rules import DEFAULT, Rules
from .scoring import KnockResult, score_masks


class Phase(enum.Enum):
    FIRST_UPCARD = "first_upcard"
    """The first turn: the non-dealer, then the dealer, may take the upcard or pass."""
    DRAW = "draw"
    DISCARD = "discard"
    HAND_OVER = "hand_over"
    GAME_OVER = "game_over"
    MATCH_OVER = "match_over"


class Kind(play.Kind):
    TAKE_UPCARD = "take_upcard"
    PASS = "pass"
    DRAW_STOCK = "draw_stock"
    DRAW_DISCARD = "draw_discard"
    DISCARD = "discard"
    KNOCK = "knock"
    """Discard ``card`` face down and lay the hand down."""
    BIG_GIN = "big_gin"
    NEXT_HAND = "next_hand"
    NEXT_GAME = "next_game"


class Action(play.Action):
    """A gin move; ``card`` is the card discarded (or discarded face down to knock)."""

    __slots__ = ()
    kinds = Kind


TAKE_UPCARD, PASS = Action(Kind.TAKE_UPCARD), Action(Kind.PASS)
DRAW_STOCK, DRAW_DISCARD = Action(Kind.DRAW_STOCK), Action(Kind.DRAW_DISCARD)
BIG_GIN, NEXT_HAND, NEXT_GAME = Action(Kind.BIG_GIN), Action(Kind.NEXT_HAND), Action(Kind.NEXT_GAME)


@dataclass(frozen=True, slots=True)
class HandRecord:
    """How a hand ended: the winner (None for a dead hand) and the points."""

    kind: str
    """knock, undercut, gin, big_gin or dead."""
    winner: int | None
    points: int
    knocker: int | None
    deadwoods: tuple[int, int]
    turns: int
    score: KnockResult | None = None


@dataclass(frozen=True, kw_only=True)
class State:
    """A two-handed gin match in progress. Players are 0 and 1."""

    rules: Rules
    seed: int
    phase: Phase
    dealer: int
    to_play: int
    hands: tuple[int, int]
    """Card masks."""
    stock: tuple[Card, ...]
    """Top card last."""
    discards: tuple[Card, ...]
    """Top card last."""
    taken: Card | None = None
    """The card just taken from the discard pile: it cannot be discarded this turn."""
    passes: int = 0
    picked_up: tuple[int, int] = (0, 0)
    """Cards each player took from the discard pile and still holds (public)."""
    thrown: tuple[int, int] = (0, 0)
    """Cards each player discarded this hand (public)."""
    declined: tuple[int, int] = (0, 0)
    """Upcards each player could have taken this hand and left (public: a pass, or a draw from
    the stock over the top discard)."""
    turns: int = 0
    deal_no: int = 0
    scores: tuple[int, int] = (0, 0)
    hands_won: tuple[int, int] = (0, 0)
    games_won: tuple[int, int] = (0, 0)
    records: tuple[HandRecord, ...] = ()
    """Every finished hand of the current game."""
    game_totals: tuple[tuple[int, int], ...] = ()
    """Final totals (with bonuses) of every finished game."""
    history: tuple[Action, ...] = field(default=(), repr=False)

    def hand(self, player: int) -> tuple[Card, ...]:
        return mask_cards(self.hands[player])

    @property
    def upcard(self) -> Card | None:
        return self.discards[-1] if self.discards else None

    @property
    def last_record(self) -> HandRecord | None:
        return self.records[-1] if self.records else None


replace = play.evolve
"""A copy of a state with some fields changed (without re-running __init__: the caller checked)."""


def deal_hand(rules: Rules, seed: int, deal_no: int, dealer: int, **totals: Any) -> State:
    """A freshly dealt hand: 10 cards each, the upcard, the stock; seeded by (seed, deal_no)."""
    return _deal(rules, seed, deal_no, dealer, **totals)


def _deal(rules: Rules, seed: int, deal_no: int, dealer: int, **totals: Any) -> State:
    cards = play.shuffled(DECK, "gin", seed, "deal", deal_no)
    hands = [0, 0]
    for i in range(20):  # one at a time, starting with the non-dealer
        hands[(1 - dealer + i) % 2] |= cards[i].bit
    return State(rules=rules, seed=seed, phase=Phase.FIRST_UPCARD, dealer=dealer, to_play=1 - dealer,
                 hands=(hands[0], hands[1]), stock=tuple(cards[21:]), discards=(cards[20],),
                 deal_no=deal_no, **totals)


def new_game(rules: Rules = DEFAULT, seed: int = 0) -> State:
    """A new match: the first dealer is drawn by the seed."""
    check_seed(seed)
    return play.begin(lambda: _deal(rules, seed, 0, play.drawn(2, "gin", seed, "dealer")))


def position(hand: str, pile: str, *, picked: str = "", stock: int | None = None, phase: Phase = Phase.DISCARD,
             scores: tuple[int, int] = (0, 0), rules: Rules = DEFAULT, seed: int = 0) -> State:
    """A hand in play as a player describes it, for ``evaluate`` and ``review.judge``: player 0
    to act holding ``hand`` (11 cards to discard, 10 to draw), the discard pile ``pile`` (top card
    last), the cards the opponent took from the pile and holds (``picked``). What player 0 cannot
    see is dealt from the other cards by ``seed``: the opponent's other cards and the stock; with
    ``stock``, the stock has that many cards and the pile takes the rest under the named cards
    (an evaluation reads only what player 0 sees). ValueError names a bad card or count."""
    check_seed(seed)
    if phase not in (Phase.DRAW, Phase.DISCARD):
        raise ValueError(f"phase {phase.value}: a position to draw or to discard from")
    size = 11 if phase is Phase.DISCARD else 10
    mine = parse_cards(hand, size=size, jokers=0)
    top, known = parse_cards(pile, jokers=0), parse_cards(picked, jokers=0)
    if not top:
        raise ValueError("pile: at least the top card")
    seen = [c for c in (*mine, *top, *known)]
    twice = sorted({str(c) for c in seen if seen.count(c) > 1})
    if twice:
        raise ValueError(f"{twice[0]} is named twice (hand, pile and picked share no card)")
    if len(known) > 10:
        raise ValueError(f"picked: {len(known)} cards; the opponent holds 10")
    rest = play.shuffled([c for c in DECK if c not in seen], "gin", seed, "deal")
    opponent = (*known, *rest[:10 - len(known)])
    rest = rest[10 - len(known):]
    n_stock = len(rest) if stock is None else stock
    if not 0 <= n_stock <= len(rest) or n_stock <= rules.dead_hand_stock:
        raise ValueError(f"stock={stock}: {rules.dead_hand_stock + 1} to {len(rest)} cards (the hand is dead at "
                         f"{rules.dead_hand_stock})")
    under = tuple(rest[n_stock:])
    return State(rules=rules, seed=seed, phase=phase, dealer=1, to_play=0, hands=(to_mask(mine), to_mask(opponent)),
                 stock=tuple(rest[:n_stock]), discards=under + top, picked_up=(0, to_mask(known)), scores=scores,
                 turns=len(under) + len(top) - 1)


def _kernel_dw(mask: int) -> int:
    return int(gin_kernel().deadwood(mask))


def legal_actions(state: State) -> list[Action]:
    """Every action the player to act may take."""
    return GAME.legal_actions(state)


def apply(state: State, action: Action) -> State:
    """The state after ``action``; raises ``IllegalAction`` (and changes nothing) if not allowed."""
    return GAME.apply(state, action)


def _with(pair: tuple[int, int], i: int, value: int) -> tuple[int, int]:
    return (value, pair[1]) if i == 0 else (pair[0], value)


# -- the moves: why not (verify) and what they do ------------------------------------


def _take_upcard(s: State, a: Action) -> State:
    me, card = s.to_play, s.discards[-1]
    return replace(s, phase=Phase.DISCARD, hands=_with(s.hands, me, s.hands[me] | card.bit),
                   discards=s.discards[:-1], taken=card, picked_up=_with(s.picked_up, me, s.picked_up[me] | card.bit))


def _pass(s: State, a: Action) -> State:
    me = s.to_play
    declined = _with(s.declined, me, s.declined[me] | s.discards[-1].bit)
    if s.passes == 0:
        return replace(s, to_play=1 - me, passes=1, declined=declined)
    return replace(s, to_play=1 - me, passes=2, phase=Phase.DRAW, declined=declined)


def _draw_stock(s: State, a: Action) -> State:
    me = s.to_play
    declined = s.declined
    if s.discards and s.passes != 2:  # the top discard was there to take (after two passes it was not)
        declined = _with(declined, me, declined[me] | s.discards[-1].bit)
    return replace(s, phase=Phase.DISCARD, hands=_with(s.hands, me, s.hands[me] | s.stock[-1].bit),
                   stock=s.stock[:-1], taken=None, declined=declined)


def _why_not_draw_discard(s: State, a: Action) -> str | None:
    if s.passes == 2:
        return _("both players passed the upcard, so the non-dealer draws from the stock")
    return None


_AFTER_DRAWING = N_("after drawing, discard a card (or knock, or go big gin)")


def _why_not_discard(s: State, a: Action) -> str | None:
    if a.card is None:
        return _(_AFTER_DRAWING)
    if a.card.is_joker:
        return _("gin is played without jokers")
    if not s.hands[s.to_play] & a.card.bit:
        return _("{card} is not in the hand").format(card=a.card)
    if a.card == s.taken:
        return _("{card} was taken from the discard pile this turn and cannot be discarded").format(card=a.card)
    return None


def _why_not_knock(s: State, a: Action) -> str | None:
    why = _why_not_discard(s, a)
    if why is None and a.card is not None:
        dw = _kernel_dw(s.hands[s.to_play] & ~a.card.bit)
        if dw > s.rules.knock_limit:
            return _("deadwood {deadwood} after discarding {card} is over the knock limit {limit}").format(
                deadwood=dw, card=a.card, limit=s.rules.knock_limit)
    return why


def _why_not_big_gin(s: State, a: Action) -> str | None:
    if s.rules.big_gin_bonus is None:
        return _("big gin is not played under these rules")
    if _kernel_dw(s.hands[s.to_play]) != 0:
        return _("big gin needs all 11 cards melded")
    return None


def _big_gin(s: State, a: Action) -> State:
    return _end_hand(s, s.to_play, s.hands[s.to_play], s.hands[1 - s.to_play])


def _knock(s: State, a: Action) -> State:
    me, card = s.to_play, a.card
    assert card is not None
    return _end_hand(replace(s, discards=s.discards + (card,)), me, s.hands[me] & ~card.bit, s.hands[1 - me])


def _discard(s: State, a: Action) -> State:
    me, card = s.to_play, a.card
    assert card is not None
    after = replace(s, hands=_with(s.hands, me, s.hands[me] & ~card.bit), discards=s.discards + (card,), taken=None,
                    picked_up=_with(s.picked_up, me, s.picked_up[me] & ~card.bit), turns=s.turns + 1,
                    thrown=_with(s.thrown, me, s.thrown[me] | card.bit))
    if len(after.stock) <= s.rules.dead_hand_stock:
        record = HandRecord(kind="dead", winner=None, points=0, knocker=None,
                            deadwoods=(_kernel_dw(after.hands[0]), _kernel_dw(after.hands[1])), turns=after.turns)
        return replace(after, phase=Phase.HAND_OVER, records=s.records + (record,))
    # after the first turn's upcard decision, every turn is a normal one
    return replace(after, phase=Phase.DRAW, to_play=1 - me, passes=0)


def _cards_as(kind: Kind) -> Any:
    return lambda s: [Action(kind, c) for c in mask_cards(s.hands[s.to_play])]


def _next_game(s: State, a: Action) -> State:
    return _deal(s.rules, s.seed, s.deal_no + 1, 1 - s.dealer, games_won=s.games_won, game_totals=s.game_totals)


def _end_hand(s: State, knocker: int, k_mask: int, d_mask: int) -> State:
    rules = s.rules
    res = score_masks(k_mask, d_mask, rules)
    if not res.valid:  # legal_actions never offers this; kept as a guard
        raise IllegalAction(f"invalid knock: {res.reason}")
    winner = None if res.kind == "tie" else 1 - knocker if res.kind == "undercut" else knocker
    points = res.knocker_points + res.defender_points
    dws = (res.knocker_deadwood, res.defender_deadwood) if knocker == 0 else (res.defender_deadwood,
                                                                               res.knocker_deadwood)
    record = HandRecord(kind=str(res.kind), winner=winner, points=points, knocker=knocker, deadwoods=dws,
                        turns=s.turns + 1, score=res)
    scores, won = s.scores, s.hands_won
    if winner is not None:  # a tie (undercut_on_tie=False) is no hand won
        scores = _with(s.scores, winner, s.scores[winner] + points)
        won = _with(s.hands_won, winner, s.hands_won[winner] + 1)
    hands = _with(s.hands, knocker, k_mask)
    out = replace(s, phase=Phase.HAND_OVER, hands=hands, scores=scores, hands_won=won,
                  records=s.records + (record,), turns=s.turns + 1, taken=None)
    if max(scores) >= rules.target:
        return _end_game(out)
    return out


def game_totals(s: State) -> tuple[int, int]:
    """Final game scores with game, box and shutout bonuses (for a finished game)."""
    return final_totals(s.rules, s.scores, s.hands_won)


def final_totals(rules: Rules, scores: tuple[int, int], hands_won: tuple[int, int]) -> tuple[int, int]:
    """A finished game's scores with game, box and shutout bonuses, from its hand points and
    hands won (the higher score wins; player 0 on a tie)."""
    w = 0 if scores[0] >= scores[1] else 1
    totals = [scores[i] + rules.box_bonus * hands_won[i] for i in (0, 1)]
    totals[w] += rules.game_bonus
    if hands_won[1 - w] == 0:
        if rules.shutout == "double":
            totals[w] *= 2
        elif rules.shutout == "flat":
            totals[w] += rules.shutout_bonus
    return totals[0], totals[1]


def _end_game(s: State) -> State:
    totals = game_totals(s)
    w = 0 if s.scores[0] >= s.scores[1] else 1
    games = _with(s.games_won, w, s.games_won[w] + 1)
    over = games[w] > s.rules.match_games // 2
    return replace(s, phase=Phase.MATCH_OVER if over else Phase.GAME_OVER, games_won=games,
                   game_totals=s.game_totals + (totals,))


def _next_hand(s: State) -> State:
    last = s.records[-1]
    # a dead hand is redealt by the same dealer; otherwise the deal alternates
    dealer = s.dealer if last.kind == "dead" else 1 - s.dealer
    return _deal(s.rules, s.seed, s.deal_no + 1, dealer, scores=s.scores, hands_won=s.hands_won,
                 games_won=s.games_won, records=s.records, game_totals=s.game_totals)


def history_json(state: State) -> dict[str, Any]:
    """The match as plain JSON: the game, rules, seed and every action."""
    return GAME.history(state)


def replay(data: dict[str, Any]) -> State:
    """Rebuild a state from ``history_json`` output."""
    return GAME.replay(data)


GAME: play.Game[State] = play.Game(
    name="gin", action=Action, rules_type=Rules,
    start=lambda rules, seed: new_game(rules, seed),
    moves={
        Phase.FIRST_UPCARD: (play.Move(kind=Kind.TAKE_UPCARD, do=_take_upcard), play.Move(kind=Kind.PASS, do=_pass)),
        Phase.DRAW: (play.Move(kind=Kind.DRAW_STOCK, do=_draw_stock),
                     play.Move(kind=Kind.DRAW_DISCARD, do=_take_upcard, verify=_why_not_draw_discard)),
        Phase.DISCARD: (play.Move(kind=Kind.DISCARD, do=_discard, verify=_why_not_discard,
                                  candidates=_cards_as(Kind.DISCARD)),
                        play.Move(kind=Kind.KNOCK, do=_knock, verify=_why_not_knock, candidates=_cards_as(Kind.KNOCK)),
                        play.Move(kind=Kind.BIG_GIN, do=_big_gin, verify=_why_not_big_gin)),
        Phase.HAND_OVER: (play.Move(kind=Kind.NEXT_HAND, do=lambda s, a: _next_hand(s)),),
        Phase.GAME_OVER: (play.Move(kind=Kind.NEXT_GAME, do=_next_game),),
    },
    hints={Phase.FIRST_UPCARD: N_("on the first turn a player may only take the upcard or pass"),
           Phase.DRAW: N_("draw first: from the stock or the discard pile"),
           Phase.DISCARD: _AFTER_DRAWING},
)
