"""What a Java EAAI player would have been told, rebuilt from a rummylab state.

The Java framework (``GinRummyPlayer``) reports every event to both players: the face-up card
offered, each draw (the card itself when it came from the discard pile or was the player's own),
each discard, the knock. A rummylab bot instead sees a ``State`` at each of its decisions. This
module rebuilds the Java player's view from what the seat may see:

* its own hand, the discard pile, the opponent's ``picked_up``, both players' ``thrown`` and its
  own ``declined`` cards (all public in rummylab);
* the actions of the current hand in ``state.history`` (who did what is worked out from the
  dealer and the turn order; chance entries, i.e. the shuffle, are skipped and never read);
* a small per-hand memory (``SeatMemory``) for the two things neither shows later: the first
  upcard once somebody took it, and the card a stock draw brought (``state.taken`` is only set for
  a card from the discard pile). A bot called at each of its decisions always fills both in.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from rummylab.cards import BIT_CARD, Card
from rummylab.gin.game import Action, Kind, Phase, State

_DRAWS = (Kind.TAKE_UPCARD, Kind.DRAW_DISCARD, Kind.DRAW_STOCK)


@dataclass
class Turn:
    """One turn of the hand: who, how they drew, what they took from the pile, what they discarded."""

    player: int
    draw: Kind
    taken: Card | None
    """The card taken from the discard pile (None for the stock; for the first upcard until known)."""
    discard: Card | None = None
    """None while the turn is in progress."""


def hand_actions(state: State) -> tuple[Action, ...]:
    """The actions of the current hand, in order (the history's chance outcomes left out)."""
    acts: list[Action] = []
    for a in state.history:
        if not isinstance(a, Action):
            continue
        if a.kind in (Kind.NEXT_HAND, Kind.NEXT_GAME):
            acts = []
            continue
        acts.append(a)
    return tuple(acts)


def hand_turns(state: State, acts: tuple[Action, ...]) -> list[Turn] | None:
    """The hand's turns from its actions; None when they do not lead to ``state`` (a state built by
    hand, without its history)."""
    to_play = 1 - state.dealer  # the non-dealer decides on the first upcard first
    turns: list[Turn] = []
    current: Turn | None = None
    last_discard: Card | None = None
    for a in acts:
        if a.kind is Kind.PASS:
            to_play = 1 - to_play
        elif a.kind in _DRAWS:
            current = Turn(to_play, a.kind, last_discard if a.kind is Kind.DRAW_DISCARD else None)
        elif a.kind in (Kind.DISCARD, Kind.KNOCK):
            if current is None:
                return None
            current.discard = a.card
            turns.append(current)
            current, last_discard = None, a.card
            to_play = 1 - to_play
        else:  # big gin ends the hand
            break
    if current is not None:
        turns.append(current)
    if state.phase in (Phase.FIRST_UPCARD, Phase.DRAW, Phase.DISCARD) and to_play != state.to_play:
        return None
    for seat in (0, 1):
        thrown = 0
        for t in turns:
            if t.player == seat and t.discard is not None:
                thrown |= t.discard.bit
        if state.phase in (Phase.DRAW, Phase.DISCARD, Phase.FIRST_UPCARD) and thrown != state.thrown[seat]:
            return None
    return turns


@dataclass
class _HandMemo:
    key: tuple[int, int, int]
    acts: tuple[Action, ...] = ()
    upcard: Card | None = None
    before_draw: dict[int, int] = field(default_factory=dict)
    """My hand mask at my draw decision, by my turn number in the hand."""
    drawn: dict[int, Card] = field(default_factory=dict)
    """The card I drew, by my turn number in the hand."""


@dataclass
class SeatView:
    """One seat's Java-side knowledge at a decision."""

    me: int
    turns: list[Turn] | None
    """The hand's turns (None: the state has no usable history)."""
    upcard: Card | None
    """The hand's first upcard, when known."""
    my_turn: int
    """How many of my turns this hand are complete (Java: discards I made)."""
    drawn: Card | None
    """The card I drew this turn (at a discard decision), when known."""
    my_draws: list[tuple[Card | None, Card]]
    """(card drawn, card discarded) of each of my complete turns (drawn None when not known)."""
    opp_taken: int
    """Mask of every card the opponent took from the discard pile this hand, held or not."""


class SeatMemory:
    """A per-seat, per-hand memory a port keeps between its decisions (see the module docstring)."""

    def __init__(self) -> None:
        self._memo: dict[int, _HandMemo] = {}

    def observe(self, state: State) -> SeatView:
        me, opp = state.to_play, 1 - state.to_play
        acts = hand_actions(state)
        key = (state.seed, state.deal_no, state.dealer)
        memo = self._memo.get(me)
        if memo is None or memo.key != key or acts[:len(memo.acts)] != memo.acts:
            memo = self._memo[me] = _HandMemo(key)
        memo.acts = acts
        turns = hand_turns(state, acts)
        done = [t for t in (turns or []) if t.player == me and t.discard is not None]
        my_turn = len(done) if turns is not None else state.thrown[me].bit_count()

        # the first upcard
        if state.phase is Phase.FIRST_UPCARD and state.discards:
            memo.upcard = state.discards[-1]
        elif turns is not None and memo.upcard is None:
            first = turns[0] if turns else None
            if first is None or first.draw is not Kind.TAKE_UPCARD:
                memo.upcard = state.discards[0] if state.discards else None
            elif first.player == me and first.discard is None and state.taken is not None:
                memo.upcard = state.taken
            elif first.player == opp:
                known = 0
                for t in turns[1:]:
                    if t.player == opp and t.taken is not None:
                        known |= t.taken.bit
                left = state.picked_up[opp] & ~known
                if left and left & (left - 1) == 0:
                    memo.upcard = BIT_CARD[left]
        if turns:
            first = turns[0]
            if first.draw is Kind.TAKE_UPCARD:
                first.taken = memo.upcard

        # the card drawn this turn
        drawn: Card | None = None
        if state.phase is Phase.DRAW:
            memo.before_draw[my_turn] = state.hands[me]
        elif state.phase is Phase.DISCARD:
            if state.taken is not None:
                drawn = state.taken
            elif my_turn in memo.before_draw:
                new = state.hands[me] & ~memo.before_draw[my_turn]
                if new and new & (new - 1) == 0:
                    drawn = BIT_CARD[new]
            if drawn is not None:
                memo.drawn[my_turn] = drawn
        my_draws = []
        for k, t in enumerate(done):
            assert t.discard is not None
            my_draws.append((t.taken if t.taken is not None else memo.drawn.get(k), t.discard))

        opp_taken = state.picked_up[opp]
        for t in turns or []:
            if t.player == opp and t.taken is not None:
                opp_taken |= t.taken.bit
        return SeatView(me=me, turns=turns, upcard=memo.upcard, my_turn=my_turn, drawn=drawn,
                        my_draws=my_draws, opp_taken=opp_taken)
