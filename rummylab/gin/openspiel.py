"""rummylab's gin bots at OpenSpiel's table: an adapter that lets a bot play OpenSpiel's
``gin_rummy`` (one hand; gin 25, undercut 25, knock at 10), against OpenSpiel's own simple bot.

pyspiel is used only when it is installed (``pip install open-spiel``); it is never a
dependency. The bot sees what its seat may see: its hand, the discard pile and upcard, the
stock's size, and the cards the other player took from the pile and still holds.
"""

from __future__ import annotations

import dataclasses
import functools
from typing import Any

import numpy as np

from ..cards import Card, SeedLike, mask_cards, rng_from
from ..kernel.melds import Meld, melds_of
from .analysis import GIN_MELDS, gin_kernel
from .bots import Bot, make_bot
from .game import Kind, Phase, State
from .rules import Rules
from .scoring import layoff_options

OPENSPIEL_RULES = Rules(gin_bonus=25, undercut_bonus=25, big_gin_bonus=None, knock_limit=10)
"""OpenSpiel's gin_rummy as rummylab rules: gin 25, undercut 25, no big gin, knock at 10."""

_SUITS = (0, 3, 2, 1)
"""OpenSpiel numbers suits s, c, d, h; rummylab S, H, D, C."""
DRAW_UPCARD, DRAW_STOCK, PASS, KNOCK, MELD_BASE = 52, 53, 54, 55, 56


def pyspiel_module() -> Any:
    """pyspiel, or a clear error naming the fix."""
    try:
        import pyspiel  # type: ignore[import-not-found]
    except ImportError:
        raise ValueError("OpenSpiel is not installed: pip install open-spiel (it is never a rummylab "
                         "dependency)") from None
    return pyspiel


@functools.cache
def _utils() -> Any:
    """OpenSpiel's gin utilities (its meld numbering): built once, not per hand."""
    return pyspiel_module().gin_rummy.GinRummyUtils(13, 4, 10)


def card_of(i: int) -> Card:
    """OpenSpiel's card number (suit * 13 + rank, suits s c d h) as a rummylab card."""
    return Card(i % 13, _SUITS[i // 13])


def number_of(card: Card) -> int:
    return _SUITS.index(card.suit) * 13 + card.rank


def mask_of(cards: Any) -> int:
    m = 0
    for i in cards:
        m |= card_of(int(i)).bit
    return m


def _meld_ids(utils: Any, melds: list[Meld]) -> list[int]:
    """OpenSpiel meld actions for rummylab melds (its runs hold 3 to 5 cards: longer runs are split)."""
    out: list[int] = []
    for m in melds:
        cards = sorted(number_of(c) for c in m.cards)
        if m.kind == "run":
            chunks, rest = [], cards
            while len(rest) > 5:
                cut = 3 if len(rest) - 3 >= 3 else len(rest) - 3
                chunks.append(rest[:cut])
                rest = rest[cut:]
            chunks.append(rest)
        else:
            chunks = [cards]
        out.extend(MELD_BASE + utils.meld_to_int(chunk) for chunk in chunks)
    return out


class OpenSpielPlayer:
    """A rummylab gin bot in one seat of an OpenSpiel ``gin_rummy`` hand: ``step(state, seen)``
    returns its action, where ``seen`` is what the table has shown (see ``play_hand``)."""

    def __init__(self, bot: Bot, player: int, rules: Rules = OPENSPIEL_RULES) -> None:
        self.bot, self.player, self.rules = bot, player, rules
        self.pyspiel = pyspiel_module()
        self.utils = _utils()
        self.knock_discard: int | None = None
        self.queue: list[int] | None = None
        self.laid_off = False

    def _view(self, state: Any, seen: dict[str, Any], phase: Phase, passes: int = 0) -> State:
        me = self.player
        pile = tuple(card_of(i) for i in state.discard_pile())
        if state.upcard() is not None and state.upcard() >= 0:
            pile += (card_of(state.upcard()),)
        hands = [0, 0]
        hands[me] = mask_of(state.hands()[me])
        shown = {}
        for key in ("picked", "thrown", "declined"):  # what the opponent showed; this player's own: not needed
            pair = [0, 0]
            pair[1 - me] = seen[key][1 - me]
            shown[key] = (pair[0], pair[1])
        taken = seen["taken"] if seen["taken_by"] == me else None
        return State(rules=self.rules, seed=0, phase=phase, dealer=1, to_play=me, hands=(hands[0], hands[1]),
                     stock=(Card(0, 0),) * state.stock_size(), discards=pile,
                     taken=card_of(taken) if taken is not None else None, passes=passes,
                     picked_up=shown["picked"], thrown=shown["thrown"], declined=shown["declined"])

    def step(self, state: Any, seen: dict[str, Any]) -> int:
        phases = self.pyspiel.gin_rummy.Phase
        phase, legal = state.current_phase(), state.legal_actions()
        hand = mask_of(state.hands()[self.player])
        k = gin_kernel()
        if phase == phases.FIRST_UPCARD:
            if PASS not in legal:  # both passed: the first player draws from the stock
                return DRAW_STOCK if DRAW_STOCK in legal else legal[0]
            act = self.bot.act(self._view(state, seen, Phase.FIRST_UPCARD, sum(state.pass_on_first_upcard())))
            return DRAW_UPCARD if act.kind is Kind.TAKE_UPCARD and DRAW_UPCARD in legal else PASS
        if phase == phases.DRAW:
            act = self.bot.act(self._view(state, seen, Phase.DRAW, 0 if DRAW_UPCARD in legal else 2))
            return DRAW_UPCARD if act.kind is Kind.DRAW_DISCARD and DRAW_UPCARD in legal else DRAW_STOCK
        if phase == phases.WALL:  # the stock is down to two cards: take the upcard only to knock
            up = state.upcard()
            if DRAW_UPCARD in legal and k.discard_deadwood(hand | card_of(up).bit) <= self.rules.knock_limit:
                return DRAW_UPCARD
            return PASS
        if phase == phases.DISCARD:
            act = self.bot.act(self._view(state, seen, Phase.DISCARD))
            assert act.card is not None
            card = number_of(act.card)
            if act.kind is Kind.KNOCK and KNOCK in legal:
                self.knock_discard = card
                return KNOCK
            return card if card in legal else self._best_discard(hand, legal)
        if phase == phases.KNOCK:
            cards = [a for a in legal if a < 52]
            if cards:  # the knocker's discard, face down
                if self.knock_discard is not None and self.knock_discard in cards:
                    return self.knock_discard
                return self._best_discard(hand, cards)
            return self._next_meld(hand, legal)
        if phase == phases.LAYOFF:
            if not self.laid_off:
                return self._next_layoff(state, hand, legal)
            return self._next_meld(hand, legal)
        raise ValueError(f"no move for OpenSpiel phase {phase}")

    def _best_discard(self, hand: int, legal: list[int]) -> int:
        k = gin_kernel()
        return min((a for a in legal if a < 52), key=lambda a: (k.deadwood(hand & ~card_of(a).bit), -a))

    def _next_meld(self, hand: int, legal: list[int]) -> int:
        if self.queue is None:
            _, sets = gin_kernel().arrangement(hand)
            self.queue = _meld_ids(self.utils, list(melds_of(hand, sets, GIN_MELDS)))
        while self.queue:
            action = self.queue.pop(0)
            if action in legal:
                return action
        return PASS

    def _next_layoff(self, state: Any, hand: int, legal: list[int]) -> int:
        if self.queue is None:  # the layoffs leaving least deadwood, onto the knocker's melds as laid
            melds = []
            for meld_id in state.layed_melds()[1 - self.player]:
                cards = tuple(card_of(i) for i in self.utils.int_to_meld[meld_id])
                melds.append(Meld("set" if len({c.rank for c in cards}) == 1 else "run",
                                  tuple(sorted(cards, key=lambda c: c.rank))))
            k = gin_kernel()
            best = min(layoff_options(melds, hand), key=lambda lay: (k.deadwood(hand & ~lay), lay.bit_count()))
            self.queue = [number_of(c) for c in mask_cards(best)]
        for action in list(self.queue):  # lay off what fits now (a run grows one card at a time)
            if action in legal:
                self.queue.remove(action)
                return action
        self.queue, self.laid_off = None, True
        return PASS


def play_hand(game: Any, players: list[Any], rng: np.random.Generator) -> list[float]:
    """One OpenSpiel hand: each player an ``OpenSpielPlayer`` or a pyspiel bot; the chance
    nodes drawn from ``rng``. The returns of both players."""
    state = game.new_initial_state()
    seen: dict[str, Any] = {"picked": [0, 0], "thrown": [0, 0], "declined": [0, 0], "taken": None, "taken_by": None}
    phases = type(state.current_phase())
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[int(rng.integers(len(outcomes)))][0])
            continue
        p = state.current_player()
        bot = players[p]
        action = bot.step(state, seen) if isinstance(bot, OpenSpielPlayer) else bot.step(state)
        phase = state.current_phase()
        up = state.upcard()
        if action == DRAW_UPCARD:
            seen["picked"][p] |= card_of(up).bit
            seen["taken"], seen["taken_by"] = up, p
        elif action in (PASS, DRAW_STOCK) and up is not None and up >= 0 and phase in (phases.FIRST_UPCARD,
                                                                                       phases.DRAW):
            seen["declined"][p] |= card_of(up).bit  # an upcard left (game.State.declined)
        elif action < 52 and phase in (phases.DISCARD, phases.KNOCK):
            seen["picked"][p] &= ~card_of(action).bit
            seen["taken"] = seen["taken_by"] = None
            if phase == phases.DISCARD:  # a knock's card is face down (game.State.thrown)
                seen["thrown"][p] |= card_of(action).bit
        state.apply_action(action)
    return list(state.returns())


def bot_strength(bot: str, n_hands: int = 10_000, seed: SeedLike = 0, rules: Rules = OPENSPIEL_RULES) -> Any:
    """A rummylab bot against OpenSpiel's simple gin bot, one hand each, seats swapped every
    hand: a polars frame with one row per hand (seat, points to the rummylab bot)."""
    import polars as pl

    make_bot(bot, 0)  # an unknown name is refused before pyspiel is looked for
    if n_hands < 0:
        raise ValueError(f"n_hands={n_hands}: a non-negative number")
    pyspiel = pyspiel_module()
    rules = dataclasses.replace(rules, big_gin_bonus=None)
    game = pyspiel.load_game("gin_rummy", {"gin_bonus": rules.gin_bonus, "undercut_bonus": rules.undercut_bonus,
                                           "knock_card": rules.knock_limit})
    rng = rng_from(seed)
    rows = []
    for h in range(n_hands):
        seat = h % 2
        players: list[Any] = [None, None]
        players[seat] = OpenSpielPlayer(make_bot(bot, 0), seat, rules)
        players[1 - seat] = pyspiel.make_simple_gin_rummy_bot(game.get_parameters(), 1 - seat)
        returns = play_hand(game, players, rng)
        rows.append({"hand": h, "seat": seat, "points": returns[seat]})
    return pl.DataFrame(rows, schema={"hand": pl.Int64, "seat": pl.Int8, "points": pl.Float64})
