"""A port of the EAAI Gin Rummy Challenge's reference ``SimpleGinRummyPlayer`` as a rummylab bot.

Source: https://github.com/tneller/gin-rummy-eaai, commit 559c712516e3b0fd6b908864acd141e254d94f39
(2020-08-06), ``ginrummy/SimpleGinRummyPlayer.java`` (GPL-2.0-or-later, Todd W. Neller). Its own
summary: "Draw face up card only if it becomes part of a meld. Draw face down card otherwise.
Discard a highest ranking unmelded card without regard to breaking up pairs, etc. Knock as early
as possible." In detail, method by method:

* ``willDrawFaceUpCard(card)``: take the face-up card iff it is part of *some* meld (any meld from
  ``GinRummyUtil.cardsToAllMelds``, not only a least-deadwood one) of the hand plus that card.
  rummylab asks this twice: on the first turn (``TAKE_UPCARD``/``PASS``) and on every draw
  (``DRAW_DISCARD``/``DRAW_STOCK``). After both players passed the first upcard the Java engine
  does not ask the first player again (it draws face down), and neither does rummylab.
* ``getDiscard()``: among the 11 cards, leave out the card just taken from the discard pile and
  any card whose (card drawn, card discarded) pair this player already played this hand; of the
  rest, the cards whose discard leaves the least deadwood; one of them uniformly at random.
* ``getFinalMelds()`` after its discard: knock iff the 10 cards hold a meld and their least
  deadwood is at most ``GinRummyUtil.MAX_DEADWOOD`` = 10 (so also gin at 0). In rummylab the
  discard and the knock are one action, ``Action(Kind.KNOCK, card)``.

Where randomness enters: the Java player draws from ``java.util.Random`` (unseeded) in two places:
the tie among equally good discards, and which least-deadwood meld set it shows when it knocks or
defends. The port takes ``seed`` (an int or a numpy Generator) for the first; the second does not
exist in rummylab (below). ``options(state)`` lists every action the Java player could take (the
tie), ``act(state)`` picks one uniformly.

Where the port differs, and why:

1. Meld display. Java's ``getFinalMelds`` returns one least-deadwood meld set chosen at random,
   and the Java engine then lays the defender's cards off greedily onto it. rummylab's ``KNOCK``
   names only the discard: its engine shows the knocker's least-deadwood arrangement that is best
   for him and lays the defender off optimally (``rummylab.gin.scoring``). The deadwood counted
   for the knocker is the same; the layoffs (so the defender's count) can differ. This is a rule
   difference of the engine, listed in README.md, not a decision of the port.
2. Big gin. The Java game has none (the player always discards before ``getFinalMelds``); the port
   never plays ``BIG_GIN``, even under rules that allow it.
3. The knock limit is the Java constant 10. Under rummylab rules with a lower ``knock_limit`` the
   port discards instead where Java would knock (the engine would refuse the knock).
4. The repeat rule needs the card the player drew. A stock draw is not in a rummylab state, so
   the port remembers it from its own draw decision (``seat.SeatMemory``). A port first called in
   the middle of a hand does not know its earlier stock draws and applies the rule to the pairs it
   knows. If every card were excluded the Java player would throw (``Random.nextInt(0)``); the
   port then ignores the repeat rule (never seen in play).
5. Deadwood comes from rummylab's kernel (``gin_kernel().deadwood``), which gives the same
   least-deadwood value as ``cardsToBestMeldSets``; melds for the draw rule come from the port of
   ``cardsToAllMelds`` in ``ginrummyutil``.
"""

from __future__ import annotations

from rummylab.cards import Card, SeedLike, mask_cards, rng_from
from rummylab.gin.analysis import gin_kernel
from rummylab.gin.game import (
    DRAW_DISCARD,
    DRAW_STOCK,
    NEXT_GAME,
    NEXT_HAND,
    PASS,
    TAKE_UPCARD,
    Action,
    Kind,
    Phase,
    State,
)

from .ginrummyutil import MAX_DEADWOOD, all_meld_bitstrings, java_id, to_java
from .seat import SeatMemory


def will_draw_face_up(hand: int, card: Card) -> bool:
    """``willDrawFaceUpCard``: is ``card`` part of any meld of the hand (mask) plus the card?"""
    cid = java_id(card)
    return any(meld >> cid & 1 for meld in all_meld_bitstrings(to_java(hand | card.bit)))


def discard_candidates(hand: int, taken: Card | None, drawn: Card | None, played: set[int]) -> list[Card]:
    """``getDiscard``'s candidates: the 11-card hand's cards, but not the card ``taken`` from the
    discard pile this turn nor one whose (``drawn``, card) pair mask is in ``played``, that leave
    the least deadwood. The Java player picks one uniformly at random."""
    kernel = gin_kernel()
    least, out = None, []
    allowed = [c for c in mask_cards(hand) if c != taken
               and (drawn is None or (drawn.bit | c.bit) not in played)]
    if not allowed:  # Java would throw here (Random.nextInt(0)); see the module docstring
        allowed = [c for c in mask_cards(hand) if c != taken]
    for card in allowed:
        dw = int(kernel.deadwood(hand & ~card.bit))
        if least is None or dw < least:
            least, out = dw, [card]
        elif dw == least:
            out.append(card)
    return out


def knocks(hand: int) -> bool:
    """``getFinalMelds`` after the discard: does the 10-card hand knock (a meld, deadwood <= 10)?"""
    return bool(all_meld_bitstrings(to_java(hand))) and int(gin_kernel().deadwood(hand)) <= MAX_DEADWOOD


def _knock_or_discard(state: State, card: Card, knock: bool) -> Action:
    rest = state.hands[state.to_play] & ~card.bit
    if knock and int(gin_kernel().deadwood(rest)) <= state.rules.knock_limit:
        return Action(Kind.KNOCK, card)
    return Action(Kind.DISCARD, card)


class SimpleGinRummyPlayer:
    """The EAAI reference simple player (see the module docstring); ``seed``: the tie-breaks."""

    name = "eaai_simple"

    def __init__(self, seed: SeedLike = None) -> None:
        self.rng = rng_from(seed)
        self.memory = SeatMemory()

    def options(self, state: State) -> list[Action]:
        """Every action the Java player could take here (it takes one uniformly at random)."""
        if state.phase is Phase.HAND_OVER:
            return [NEXT_HAND]
        if state.phase is Phase.GAME_OVER:
            return [NEXT_GAME]
        view = self.memory.observe(state)
        hand = state.hands[state.to_play]
        if state.phase is Phase.FIRST_UPCARD:
            return [TAKE_UPCARD if will_draw_face_up(hand, state.discards[-1]) else PASS]
        if state.phase is Phase.DRAW:
            if state.passes == 2 or not state.discards:  # the Java engine does not offer the card
                return [DRAW_STOCK]
            return [DRAW_DISCARD if will_draw_face_up(hand, state.discards[-1]) else DRAW_STOCK]
        if state.phase is not Phase.DISCARD:
            raise ValueError(f"{self.name} has nothing to do in phase {state.phase}")
        played = {(d.bit | c.bit) for d, c in view.my_draws if d is not None}
        cards = discard_candidates(hand, state.taken, view.drawn, played)
        return [_knock_or_discard(state, c, knocks(hand & ~c.bit)) for c in cards]

    def act(self, state: State) -> Action:
        opts = self.options(state)
        return opts[int(self.rng.integers(len(opts)))] if len(opts) > 1 else opts[0]
