"""rummylab's gin bots at OpenSpiel's table: an adapter that lets a bot play OpenSpiel's
``gin_rummy`` (one hand; gin 25, undercut 25, knock at 10), against OpenSpiel's own simple bot.

pyspiel is used only when it is installed (``pip install open-spiel``); it is never a
dependency. The bot sees what its seat may see: its hand, the discard pile and upcard, the
stock's size, and the cards the other player took from the pile and still holds.
"""

from __future__ import annotations

import dataclasses
import functools
import types
from collections.abc import Iterator
from typing import Any

import numpy as np

from ..cards import FULL_DECK, Card, SeedLike, mask_cards, rng_from
from ..kernel.melds import Meld, melds_of
from .analysis import GIN_MELDS, gin_kernel
from .game import DRAW_DISCARD, TAKE_UPCARD, Action, IllegalAction, Kind, Phase, State, apply, replace
from .game import DRAW_STOCK as DRAW_STOCK_ACTION
from .game import PASS as PASS_ACTION
from .players import Bot, make_bot
from .rules import Rules
from .scoring import layoff_options

OPENSPIEL_RULES = Rules(gin_bonus=25, undercut_bonus=25, big_gin_bonus=None, knock_limit=10)
"""OpenSpiel's gin_rummy as rummylab rules: gin 25, undercut 25, no big gin, knock at 10."""

_SUITS = (0, 3, 2, 1)
"""OpenSpiel numbers suits s, c, d, h; rummylab S, H, D, C."""
DRAW_UPCARD, DRAW_STOCK, PASS, KNOCK, MELD_BASE = 52, 53, 54, 55, 56
DECISIONS = ("FIRST_UPCARD", "DRAW", "DISCARD")
"""The OpenSpiel phases where the bot decides (the others follow the adapter's own rules)."""


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

    def __init__(self, bot: Bot, player: int, rules: Rules = OPENSPIEL_RULES,
                 steps: list[dict[str, Any]] | None = None) -> None:
        self.bot, self.player, self.rules = bot, player, rules
        self.steps = steps
        """When a list: every draw or discard decision is appended to it (``snapshot``)."""
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
        action = self._step(state, seen)
        if self.steps is not None and state.current_phase().name in DECISIONS:
            self.steps.append(snapshot(state, seen, self.player) | {"action": action})
        return action

    def _step(self, state: Any, seen: dict[str, Any]) -> int:
        phase, legal = state.current_phase().name, list(state.legal_actions())
        hand = mask_of(state.hands()[self.player])
        k = gin_kernel()
        if phase == "FIRST_UPCARD":
            if PASS not in legal:  # both passed: the first player draws from the stock
                return DRAW_STOCK if DRAW_STOCK in legal else legal[0]
            act = self.bot.act(self._view(state, seen, Phase.FIRST_UPCARD, sum(state.pass_on_first_upcard())))
            return DRAW_UPCARD if act.kind is Kind.TAKE_UPCARD and DRAW_UPCARD in legal else PASS
        if phase == "DRAW":
            act = self.bot.act(self._view(state, seen, Phase.DRAW, 0 if DRAW_UPCARD in legal else 2))
            return DRAW_UPCARD if act.kind is Kind.DRAW_DISCARD and DRAW_UPCARD in legal else DRAW_STOCK
        if phase == "WALL":  # the stock is down to two cards: take the upcard only to knock
            up = state.upcard()
            if DRAW_UPCARD in legal and k.discard_deadwood(hand | card_of(up).bit) <= self.rules.knock_limit:
                return DRAW_UPCARD
            return PASS
        if phase == "DISCARD":
            act = self.bot.act(self._view(state, seen, Phase.DISCARD))
            assert act.card is not None
            card = number_of(act.card)
            if act.kind is Kind.KNOCK and KNOCK in legal:
                self.knock_discard = card
                return KNOCK
            return card if card in legal else self._best_discard(hand, legal)
        if phase == "KNOCK":
            cards = [a for a in legal if a < 52]
            if cards:  # the knocker's discard, face down
                if self.knock_discard is not None and self.knock_discard in cards:
                    return self.knock_discard
                return self._best_discard(hand, cards)
            return self._next_meld(hand, legal)
        if phase == "LAYOFF":
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
            self.queue = _meld_ids(_utils(), list(melds_of(hand, sets, GIN_MELDS)))
        while self.queue:
            action = self.queue.pop(0)
            if action in legal:
                return action
        return PASS

    def _next_layoff(self, state: Any, hand: int, legal: list[int]) -> int:
        if self.queue is None:  # the layoffs leaving least deadwood, onto the knocker's melds as laid
            melds = []
            for meld_id in state.layed_melds()[1 - self.player]:
                cards = tuple(card_of(i) for i in _utils().int_to_meld[meld_id])
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


def snapshot(state: Any, seen: dict[str, Any], player: int) -> dict[str, Any]:
    """What ``OpenSpielPlayer.step`` reads of an OpenSpiel state, as plain JSON: a decision kept
    to be replayed without pyspiel (``RecordedState``)."""
    up = state.upcard()
    return {"phase": state.current_phase().name, "legal": list(state.legal_actions()),
            "hand": sorted(state.hands()[player]), "pile": list(state.discard_pile()),
            "upcard": None if up is None or up < 0 else up, "stock": state.stock_size(),
            "passes": [bool(p) for p in state.pass_on_first_upcard()],
            "seen": {k: list(v) if isinstance(v, list) else v for k, v in seen.items()}}


class RecordedState:
    """A kept ``snapshot`` answering the OpenSpiel state calls ``OpenSpielPlayer`` makes in a draw or
    discard decision. The other seat's hand is not kept: reading it is an error."""

    def __init__(self, step: dict[str, Any], player: int) -> None:
        self.step, self.player = step, player

    def current_phase(self) -> Any:
        return types.SimpleNamespace(name=self.step["phase"])

    def legal_actions(self) -> list[int]:
        return list(self.step["legal"])

    def hands(self) -> list[list[int] | None]:
        out: list[list[int] | None] = [None, None]
        out[self.player] = list(self.step["hand"])
        return out

    def discard_pile(self) -> list[int]:
        return list(self.step["pile"])

    def upcard(self) -> int | None:
        return self.step["upcard"]

    def stock_size(self) -> int:
        return int(self.step["stock"])

    def pass_on_first_upcard(self) -> list[bool]:
        return list(self.step["passes"])


def play_hand(game: Any, players: list[Any], rng: np.random.Generator,
              log: dict[str, Any] | None = None) -> list[float]:
    """One OpenSpiel hand: each player an ``OpenSpielPlayer`` or a pyspiel bot; the chance
    nodes drawn from ``rng``. The returns of both players. With ``log`` (a dict), the deal
    (``hands``, ``upcard``) and every move after it (``[player, phase, action]``, player -1 for
    a card drawn from the stock) are kept in it, for ``follow_in_engine``."""
    state = game.new_initial_state()
    seen: dict[str, Any] = {"picked": [0, 0], "thrown": [0, 0], "declined": [0, 0], "taken": None, "taken_by": None}
    moves: list[list[Any]] = []
    while not state.is_terminal():
        phase = state.current_phase().name
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            action = outcomes[int(rng.integers(len(outcomes)))][0]
            if log is not None and "hands" in log:
                moves.append([-1, phase, action])
            state.apply_action(action)
            continue
        if log is not None and "hands" not in log:
            log.update(hands=[sorted(h) for h in state.hands()], upcard=state.upcard(), moves=moves)
        p = state.current_player()
        bot = players[p]
        action = bot.step(state, seen) if isinstance(bot, OpenSpielPlayer) else bot.step(state)
        up = state.upcard()
        moves.append([p, phase, action])
        if action == DRAW_UPCARD:
            seen["picked"][p] |= card_of(up).bit
            seen["taken"], seen["taken_by"] = up, p
        elif action in (PASS, DRAW_STOCK) and up is not None and up >= 0 and phase in ("FIRST_UPCARD", "DRAW"):
            seen["declined"][p] |= card_of(up).bit  # an upcard left (game.State.declined)
        elif action < 52 and phase in ("DISCARD", "KNOCK"):
            seen["picked"][p] &= ~card_of(action).bit
            seen["taken"] = seen["taken_by"] = None
            if phase == "DISCARD":  # a knock's card is face down (game.State.thrown)
                seen["thrown"][p] |= card_of(action).bit
        state.apply_action(action)
    return list(state.returns())


_ENGINE_PHASE = dict(zip((Phase.FIRST_UPCARD, Phase.DRAW, Phase.DISCARD), DECISIONS, strict=True))
"""The engine's phase where the bot decides, as OpenSpiel's."""


def _as_engine(state: State, action: int, knock_card: int | None) -> Action:
    """An OpenSpiel draw or discard action as the engine's move (a knock lays ``knock_card`` face down)."""
    if action == DRAW_STOCK:
        return DRAW_STOCK_ACTION
    if action == DRAW_UPCARD:
        return TAKE_UPCARD if state.phase is Phase.FIRST_UPCARD else DRAW_DISCARD
    if action == PASS:
        return PASS_ACTION
    if action == KNOCK:
        assert knock_card is not None
        return Action(Kind.KNOCK, card_of(knock_card))
    return Action(Kind.DISCARD, card_of(action))


def follow_in_engine(log: dict[str, Any], bot: Bot, rules: Rules = OPENSPIEL_RULES,
                     adapter: OpenSpielPlayer | None = None) -> tuple[int, list[str]]:
    """Play a logged OpenSpiel hand (``logged_hands``) again in rummylab's engine, move for move,
    asking ``bot`` at each turn of the log's ``seat``: the number of decisions compared, and each
    one where the engine's move is not the adapter's (or where the engine cannot follow). The
    adapter's move is the one logged, or with ``adapter``, the one it makes now from the logged
    OpenSpiel state (``RecordedState``); the hand goes on as logged. It stops where the engine's
    hand ends: a knock, or a dead hand with two stock cards left (OpenSpiel's wall, where the
    adapter's own rule takes the upcard only to knock)."""
    seat, hands = log["seat"], [mask_of(h) for h in log["hands"]]
    up = card_of(log["upcard"])
    stock = mask_cards(FULL_DECK & ~(hands[0] | hands[1] | up.bit))
    state = State(rules=rules, seed=0, phase=Phase.FIRST_UPCARD, dealer=1, to_play=0, hands=(hands[0], hands[1]),
                  stock=stock, discards=(up,))
    moves, steps, compared = log["moves"], iter(log["steps"]), 0
    wrong: list[str] = []
    i = 0
    while i < len(moves) and state.phase in _ENGINE_PHASE:
        player, phase, a = moves[i]
        expected = "FIRST_UPCARD" if state.phase is Phase.DRAW and state.passes == 2 else _ENGINE_PHASE[state.phase]
        if player != state.to_play or phase != expected:
            return compared, wrong + [f"move {i}: OpenSpiel has player {player} in {phase}, the engine player "
                                      f"{state.to_play} in {expected}"]
        if a == DRAW_STOCK:  # the card the next chance node drew is the stock's top
            drawn = card_of(moves[i + 1][2])
            state = replace(state, stock=tuple(c for c in state.stock if c != drawn) + (drawn,))
        knock_card = moves[i + 1][2] if a == KNOCK else None  # the knocker's next move: the card laid face down
        played = _as_engine(state, a, knock_card)
        if player == seat:
            step = next(steps)
            if adapter is not None:
                chosen = adapter.step(RecordedState(step, seat), step["seen"])
                theirs = _as_engine(state, chosen, adapter.knock_discard)
            else:
                theirs = played
            compared += 1
            mine = bot.act(state)
            if mine != theirs:
                wrong.append(f"move {i}: the engine's {bot.name} plays {mine}, the adapter {theirs}")
        elif state.taken is not None:  # OpenSpiel lets a player throw (or knock with) the card just taken
            state = replace(state, taken=None)
        try:
            state = apply(state, played)
        except IllegalAction as exc:
            return compared, wrong + [f"move {i}: the engine refuses {played}: {exc}"]
        i += 2 if a in (DRAW_STOCK, KNOCK) else 1
    return compared, wrong


def logged_hands(bot: str, n_hands: int, seed: SeedLike = 0,
                 rules: Rules = OPENSPIEL_RULES) -> Iterator[dict[str, Any]]:
    """Hands of a rummylab bot against OpenSpiel's simple gin bot, seats swapped every hand, each a
    dict: ``hand``, ``seat``, ``points`` to the rummylab bot, and the ``play_hand`` log with the
    bot's decisions as ``snapshot``s in ``steps`` (the bot plays from ``make_bot(bot, 0)``)."""
    make_bot(bot, 0)  # an unknown name is refused before pyspiel is looked for
    if n_hands < 0:
        raise ValueError(f"n_hands={n_hands}: a non-negative number")
    pyspiel = pyspiel_module()
    rules = dataclasses.replace(rules, big_gin_bonus=None)
    game = pyspiel.load_game("gin_rummy", {"gin_bonus": rules.gin_bonus, "undercut_bonus": rules.undercut_bonus,
                                           "knock_card": rules.knock_limit})
    rng = rng_from(seed)
    for h in range(n_hands):
        seat = h % 2
        steps: list[dict[str, Any]] = []
        log: dict[str, Any] = {"hand": h, "seat": seat, "steps": steps}
        players: list[Any] = [None, None]
        players[seat] = OpenSpielPlayer(make_bot(bot, 0), seat, rules, steps)
        players[1 - seat] = pyspiel.make_simple_gin_rummy_bot(game.get_parameters(), 1 - seat)
        log["points"] = play_hand(game, players, rng, log)[seat]
        yield log


def bot_strength(bot: str, n_hands: int = 10_000, seed: SeedLike = 0, rules: Rules = OPENSPIEL_RULES) -> Any:
    """A rummylab bot against OpenSpiel's simple gin bot, one hand each, seats swapped every
    hand: a polars frame with one row per hand (seat, points to the rummylab bot)."""
    import polars as pl

    rows = [{k: h[k] for k in ("hand", "seat", "points")} for h in logged_hands(bot, n_hands, seed, rules)]
    return pl.DataFrame(rows, schema={"hand": pl.Int64, "seat": pl.Int8, "points": pl.Float64})
