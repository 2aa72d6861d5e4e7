"""A port of MARJJ v5, the EAAI 2021 Gin Rummy Challenge winner, as a rummylab bot.

Source: https://github.com/aqib-a99/MARJJ, commit 5d1f00c1dff5380021785c8146d039a11efcabc3
(2020-09-21, "Add files via upload"), file ``MARJJ_v5-1.java`` (class ``MARJJ_v5``; the
repository holds no other file and states no licence). It plays in the framework of
tneller/gin-rummy-eaai (``GinRummyPlayer``, ``GinRummyUtil``; see ``ginrummyutil``).

What the Java player knows (``GameState``, rebuilt here by ``seat.SeatMemory``):

* ``seen``: its dealt and drawn cards, every face-up card it was offered, every opponent discard.
  In rummylab terms: its hand, both players' ``thrown``, its own ``declined``, and the card it is
  being offered. (The first upcard, when the opponent took it before this player was offered it,
  is *not* seen.)
* ``opponentCards``: every card the opponent took from the discard pile this hand, including
  those it discarded again later (the Java never removes them).
* ``turns``: how many times its ``getDiscard`` ran this hand.

Its decisions, method by method:

* ``willDrawFaceUpCard(card)``: with the card added (and counted as seen), take it iff the 11 cards
  have a meld, the card is in a meld of the meld set ``getBestMeld`` picks, and the least deadwood
  after the best discard of the 11 is below the 10 cards' least deadwood.
* ``getBestMeld(sets)``: of several least-deadwood meld sets, the first (in GinRummyUtil's order)
  with the fewest "layoff points": for a run, the points of each end card whose outside neighbour
  the opponent took or this player has not seen; for a set, the points of each card whose
  same-rank card of the next suit (C->H->S->D->C) the opponent took or it has not seen.
* ``getDiscard()`` (``turns`` first goes up by one):
  1. ``getUnmeldedCards``: the cards outside the melds of at least one least-deadwood meld set
     (all cards when there is no meld), never the card just taken face up, within 5 points of the
     most expensive such card; a discard that leaves gin is played at once; the others must leave
     at most 5 more deadwood than the best discard.
  2. ``myEV`` = deadwood after the discard + 18 x (mean of the 7 least "deadwood after the best
     discard" over every unseen card drawn next) x 0.9^(turns - 1).
  3. ``oppEV``: bonuses (negative) for a card whose suited neighbours / same-rank cards are
     unavailable, penalties for those the opponent took (constants below, bugs kept, see
     ``opponent_ev``).
  4. Discard a card of least ``myEV + oppEV``, uniformly among ties (``java.util.Random``).
* ``getFinalMelds()`` after the discard: knock iff the least deadwood is at most 10 while
  ``turns < 4`` (its first three discards of the hand), afterwards only with gin (deadwood 0).

Dead code in the file that the port leaves out (never called): ``hasPossibleStraight``,
``hasPair``, ``Helper.numCardsToMakeGin``, ``opponentCanMakeMeld``, ``cardsCannotMeld1/2``,
``getDifferenceInDeadwood``, ``avgDeadwood``, the fields ``numCardsInPile``, ``opponentDraws``,
``discardedCards``, ``drawDiscardBitstrings`` (declared, cleared, never read), and ``main``.

Where randomness enters: only the tie among equally scored discards (``getDiscard``). The port
takes ``seed`` (int or numpy Generator); ``options(state)`` lists the tie, ``act`` picks one.

Where the port differs, and why:

1. Meld display. Java shows ``getBestMeld``'s meld set when it knocks or defends, and the Java
   engine lays off greedily on it. rummylab's ``KNOCK`` names only the discard; its engine picks
   the knocker's arrangement (the one best for the knocker) and lays off optimally. So the port's
   ``getBestMeld`` only matters where MARJJ's *draw* decision uses it. (Engine difference: see
   README.md.)
2. Several discards leaving gin: Java plays the first in its hand list (the order the cards were
   dealt, then drawn); rummylab keeps a hand as a mask, so ``options`` lists every gin discard and
   ``act`` picks one at random (given the Java list order, ``unmelded_cards(order=...)`` picks as
   Java does). Either way the hand ends in gin with the same score.
3. The first upcard taken by the opponent *and discarded again* before this player's first
   decision can't happen in play; a port first called later in a hand may not know which card
   that was (``seat``) and then leaves it out of ``opponentCards``.
4. No big gin (the Java game has none); the knock limit is the Java constant 10 (under rummylab
   rules with a lower limit the port discards where Java would knock).
5. Least-deadwood values come from rummylab's kernel (same values as GinRummyUtil); the meld sets
   (for ``getBestMeld`` and ``getUnmeldedCards``) from the port of GinRummyUtil's search, which
   lists them in Java's order.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

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

from .ginrummyutil import (
    NUM_CARDS,
    RL_BIT,
    best_meld_sets,
    ids_of,
    java_id,
    points,
    rank_of,
    suit_of,
    to_java,
)
from .seat import SeatMemory

# MARJJ_v5's public constants (bonuses are negative: a lower score is a better discard)
SEQUENCE_BONUS = -10.0
ADJ_BONUS = -5.0
ADJ2_BONUS = -3.0
SEQUENCE_PENALTY = 20.0
ADJ_PENALTY = 5.0
ADJ2_PENALTY = 3.0
SET_BONUS = -10.0
RANK_BONUS = -4.0
SET_PENALTY = 20.0
RANK_PENALTY = 4.0
# getDiscard / Helper
MAX_DEADWOOD_DIFFERENCE = 5
INIT_WEIGHT = 18.0
DECAY = 0.9
MAX_CARDS_TO_CONSIDER = 7
EARLY_KNOCK_TURNS = 4
"""``getFinalMelds``: knock with deadwood <= 10 while ``turns < 4``, afterwards only gin."""


@dataclass
class Knowledge:
    """MARJJ's ``GameState`` as Java bitstrings (card id ``suit * 13 + rank``, suits C H S D)."""

    seen: int
    opponent_cards: int

    def opponent_has(self, card_id: int) -> bool:
        return bool(self.opponent_cards >> card_id & 1)

    def has_been_seen(self, card_id: int) -> bool:
        return bool(self.seen >> card_id & 1)


@dataclass
class DiscardStat:
    card: Card
    deadwood_after: int = 0
    my_ev: float = 0.0
    opp_ev: float = 0.0
    gin: bool = False
    """The discard leaves gin: played at once, unscored."""

    @property
    def score(self) -> float:
        return self.my_ev + self.opp_ev


def _deadwood(mask: int) -> int:
    return int(gin_kernel().deadwood(mask))


def _discard_deadwood(mask: int) -> int:
    """``Helper.getBestDeadwoodAfterDiscard`` of an 11-card mask."""
    return int(gin_kernel().discard_deadwood(mask))


# -- getBestMeld ------------------------------------------------------------------------------


def layoff_points(melds: tuple[int, ...], know: Knowledge) -> int:
    """``getBestMeld``'s count for one meld set (Java bitstrings)."""
    total = 0
    for meld in melds:
        ids = ids_of(meld)  # bitstringToCards: increasing id, so a run's lowest card first
        if suit_of(ids[0]) == suit_of(ids[1]):  # a run
            low, high = ids[0], ids[-1]
            if rank_of(low) > 0 and (know.opponent_has(low - 1) or not know.has_been_seen(low - 1)):
                total += min(rank_of(low) + 1, 10)
            if rank_of(high) < 12 and (know.opponent_has(high + 1) or not know.has_been_seen(high + 1)):
                total += min(rank_of(high) + 1, 10)
        else:
            for cid in ids:
                nxt = (cid + 13) % NUM_CARDS
                if know.opponent_has(nxt) or not know.has_been_seen(nxt):
                    total += points(cid)
    return total


def get_best_meld(best_sets: tuple[tuple[int, ...], ...], know: Knowledge) -> tuple[int, ...]:
    """``getBestMeld``: the first least-deadwood meld set with the fewest layoff points."""
    if len(best_sets) == 1:
        return best_sets[0]
    beat, chosen = None, 0
    for i, melds in enumerate(best_sets):
        pts = layoff_points(melds, know)
        if beat is None or pts < beat:
            beat, chosen = pts, i
    return best_sets[chosen]


# -- willDrawFaceUpCard -----------------------------------------------------------------------


def will_draw_face_up(hand: int, card: Card, know: Knowledge) -> bool:
    """``willDrawFaceUpCard``: ``hand`` the 10-card mask; ``know.seen`` must include ``card``."""
    new = hand | card.bit
    best = best_meld_sets(to_java(new))
    if not best:
        return False
    cid = java_id(card)
    in_meld = any(meld >> cid & 1 for meld in get_best_meld(best, know))
    return in_meld and _discard_deadwood(new) < _deadwood(hand)


# -- getDiscard -------------------------------------------------------------------------------


def unmelded_cards(hand: int, face_up: Card | None, max_difference: int = MAX_DEADWOOD_DIFFERENCE,
                   order: Sequence[Card] | None = None) -> list[DiscardStat]:
    """``Helper.getUnmeldedCards`` of the 11-card mask (``face_up``: the card taken face up this
    turn, never discarded). One entry left means: play it (the Java returns it at once).

    ``order``: the Java player's hand list (deal order, then draws), which decides which of
    several gin discards it plays (the first). Without it (a rummylab hand is a mask) every gin
    discard is returned, marked ``gin``: any of them could be the Java player's."""
    cards = tuple(order) if order is not None else mask_cards(hand)
    best = best_meld_sets(to_java(hand))
    include: set[Card] = set()
    if not best:
        include = {c for c in cards if c != face_up}
    else:
        for melds in best:
            melded = 0
            for m in melds:
                melded |= m
            include |= {c for c in cards if not melded >> java_id(c) & 1 and c != face_up}
    biggest = max((points(java_id(c)) for c in include), default=0)
    include = {c for c in include if points(java_id(c)) >= biggest - max_difference}
    stats = [DiscardStat(c) for c in cards if c in include]
    if len(stats) == 1:
        return stats
    if not stats:
        stats = [DiscardStat(c) for c in cards if c != face_up]
    for st in stats:
        st.deadwood_after = _deadwood(hand & ~st.card.bit)
        if st.deadwood_after == 0 and order is not None:  # gin: Java plays the first such card
            st.gin = True
            return [st]
    gin = [st for st in stats if st.deadwood_after == 0]
    if gin:
        for st in gin:
            st.gin = True
        return gin
    least = min(st.deadwood_after for st in stats)
    return [st for st in stats if st.deadwood_after <= least + max_difference]


def future_deadwood(hand: int, seen: int, stats: list[DiscardStat], turns: int) -> None:
    """``Helper.getFutureDeadwoodImprovement``: sets each ``my_ev``."""
    unseen = [RL_BIT[c] for c in range(NUM_CARDS) if not seen >> c & 1]
    kernel = gin_kernel()
    for st in stats:
        rest = hand & ~st.card.bit
        masks = np.array([rest | b for b in unseen], dtype=np.uint64)
        out = np.empty(len(unseen), dtype=np.int32)
        if len(unseen):
            kernel.deadwood_batch(masks, out, True)
        lowest = sorted(int(x) for x in out)[:MAX_CARDS_TO_CONSIDER]
        ave = 0.0
        for dw in lowest:
            ave += dw
        if lowest:
            ave /= len(lowest)
        st.my_ev = st.deadwood_after + INIT_WEIGHT * ave * DECAY ** (turns - 1)


def _status(other: int, opp: int, mine: int, seen: int) -> tuple[bool, bool]:
    """(the opponent took it, else: I hold it or have seen it) for a Java card id."""
    bit = 1 << other
    if bit & opp:
        return True, False
    return False, bool(bit & mine or bit & seen)


def opponent_ev(card: Card, mine: int, know: Knowledge) -> float:
    """``Helper.getOpponentDeadwoodImprovement`` for one card (``mine``: the 11 cards, Java
    bitstring). Kept as written: the card itself counts in ``unavailSameRankCount`` (it is in the
    hand), a queen or king sets the *adjacent* higher flag where the second-higher one was meant,
    and ``RANK_PENALTY`` applies when no other card of the rank is unavailable."""
    cid, rank = java_id(card), card.rank
    opp, seen = know.opponent_cards, know.seen
    opp_hi = un_hi = opp_lo = un_lo = opp_hi2 = un_hi2 = opp_lo2 = un_lo2 = False
    if rank < 12:
        opp_hi, un_hi = _status(cid + 1, opp, mine, seen)
    else:
        un_hi = True
    if rank > 0:
        opp_lo, un_lo = _status(cid - 1, opp, mine, seen)
    else:
        un_lo = True
    if rank < 11:
        opp_hi2, un_hi2 = _status(cid + 2, opp, mine, seen)
    else:
        un_hi = True  # sic (Java sets unavailHigherAdjSuited here)
    if rank > 1:
        opp_lo2, un_lo2 = _status(cid - 2, opp, mine, seen)
    else:
        un_lo2 = True
    opp_same = un_same = 0
    for suit in range(4):
        o, u = _status(rank + suit * 13, opp, mine, seen)
        opp_same += o
        un_same += u

    ev = 0.0
    if (un_hi and (un_lo or un_lo2)) or (un_lo and (un_hi or un_hi2)):
        ev += SEQUENCE_BONUS
    else:
        if un_lo:
            ev += ADJ_BONUS
        if un_hi:
            ev += ADJ_BONUS
        if un_lo2:
            ev += ADJ2_BONUS
        if un_hi2:
            ev += ADJ2_BONUS
    if (opp_hi and (opp_lo or opp_lo2)) or (opp_lo and (opp_hi or opp_hi2)):
        ev += SEQUENCE_PENALTY
    else:
        if opp_lo:
            ev += ADJ_PENALTY
        if opp_hi:
            ev += ADJ_PENALTY
        if opp_lo2:
            ev += ADJ2_PENALTY
        if opp_hi2:
            ev += ADJ2_PENALTY
    if un_same >= 3:
        ev += SET_BONUS
    elif un_same == 2:
        ev += RANK_BONUS
    if opp_same >= 2:
        ev += SET_PENALTY
    elif un_same == 1:
        ev += RANK_PENALTY
    return ev


def discard_stats(hand: int, face_up: Card | None, know: Knowledge, turns: int,
                  order: Sequence[Card] | None = None) -> list[DiscardStat]:
    """``getDiscard``'s scored candidates (``turns``: the value after its increment; ``order``:
    see ``unmelded_cards``)."""
    stats = unmelded_cards(hand, face_up, order=order)
    if len(stats) == 1 or stats[0].gin:
        return stats
    future_deadwood(hand, know.seen, stats, turns)
    mine = to_java(hand)
    for st in stats:
        st.opp_ev += opponent_ev(st.card, mine, know)
    return stats


def discard_choices(hand: int, face_up: Card | None, know: Knowledge, turns: int,
                    order: Sequence[Card] | None = None) -> list[Card]:
    """``getDiscard``: the cards of least ``myEV + oppEV`` (it picks one uniformly at random), or
    the gin discard(s) (see ``unmelded_cards``)."""
    stats = discard_stats(hand, face_up, know, turns, order)
    if len(stats) == 1 or stats[0].gin:
        return [st.card for st in stats]
    best = min(st.score for st in stats)
    return [st.card for st in stats if st.score == best]


def knocks(hand: int, turns: int) -> bool:
    """``getFinalMelds`` after the discard (10-card mask, ``turns`` after this turn's increment)."""
    dw = _deadwood(hand)
    return (dw < 11 and turns < EARLY_KNOCK_TURNS) or dw == 0


# -- the rummylab bot -------------------------------------------------------------------------


class MarjjV5Player:
    """MARJJ v5 (see the module docstring); ``seed``: the discard tie-breaks."""

    name = "marjj_v5"

    def __init__(self, seed: SeedLike = None) -> None:
        self.rng = rng_from(seed)
        self.memory = SeatMemory()

    def knowledge(self, state: State, offered: Card | None = None) -> Knowledge:
        """The seat's ``GameState`` now (``offered``: the face-up card being offered)."""
        view = self.memory.observe(state)
        me, opp = state.to_play, 1 - state.to_play
        seen = state.hands[me] | state.thrown[me] | state.thrown[opp] | state.declined[me]
        if offered is not None:
            seen |= offered.bit
        return Knowledge(seen=to_java(seen), opponent_cards=to_java(view.opp_taken))

    def options(self, state: State) -> list[Action]:
        """Every action the Java player could take here (it takes one uniformly at random)."""
        if state.phase is Phase.HAND_OVER:
            return [NEXT_HAND]
        if state.phase is Phase.GAME_OVER:
            return [NEXT_GAME]
        hand = state.hands[state.to_play]
        if state.phase is Phase.FIRST_UPCARD:
            top = state.discards[-1]
            return [TAKE_UPCARD if will_draw_face_up(hand, top, self.knowledge(state, top)) else PASS]
        if state.phase is Phase.DRAW:
            if state.passes == 2 or not state.discards:  # the Java engine does not offer the card
                self.memory.observe(state)
                return [DRAW_STOCK]
            top = state.discards[-1]
            return [DRAW_DISCARD if will_draw_face_up(hand, top, self.knowledge(state, top)) else DRAW_STOCK]
        if state.phase is not Phase.DISCARD:
            raise ValueError(f"{self.name} has nothing to do in phase {state.phase}")
        know = self.knowledge(state)
        turns = self.memory.observe(state).my_turn + 1
        out = []
        for card in discard_choices(hand, state.taken, know, turns):
            rest = hand & ~card.bit
            knock = knocks(rest, turns) and _deadwood(rest) <= state.rules.knock_limit
            out.append(Action(Kind.KNOCK if knock else Kind.DISCARD, card))
        return out

    def act(self, state: State) -> Action:
        opts = self.options(state)
        return opts[int(self.rng.integers(len(opts)))] if len(opts) > 1 else opts[0]
