"""One game engine for every family: typed actions, phases, checked moves, tagged histories.

A family declares a :class:`Game`: for each phase, the moves a player may make there. A
:class:`Move` offers its candidate actions, says why an action is not allowed now
(``verify``), and makes it (``do``). ``legal_actions`` lists the candidates that verify;
``apply`` verifies, then does, and adds the action to the state's history, so every
state replays from its history (``replay``, for any family).
"""

from __future__ import annotations

import enum
import importlib
from collections import Counter, deque
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import asdict, dataclass, field
from typing import Any, ClassVar, Generic, TypeVar

from . import chance
from .cards import Card, without
from .i18n import _

S = TypeVar("S")

HISTORY_VERSION = 2
"""The version of the history format written by ``history`` (2: chance outcomes recorded)."""

FAMILIES = {
    "gin": "rummylab.gin.game",
    "gin_three_handed": "rummylab.gin.box_game",
    "three_thirteen": "rummylab.three_thirteen.game",
    "indian": "rummylab.indian.game",
}
"""Each family's name in a history, and the module that declares its ``GAME``."""


class IllegalAction(ValueError):
    """An action the rules do not allow now; the message names the rule."""


class Kind(str, enum.Enum):
    """An action kind; a family's kinds subclass this (their values are the JSON names)."""

    def __str__(self) -> str:
        return str(self.value)


@dataclass(frozen=True, slots=True, repr=False)
class Action:
    """One move: its kind, and the card, groups or player it names (when it names one).

    A family subclasses this with its ``kinds``; a kind may be given by its name
    (``Action("discard", card)``), and an unknown name is a ``ValueError``.
    """

    kinds: ClassVar[type[Kind]] = Kind
    kind: Kind
    card: Card | None = None
    groups: tuple[tuple[Card, ...], ...] | None = None
    player: int | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.kind, self.kinds):
            try:
                object.__setattr__(self, "kind", self.kinds(self.kind))
            except ValueError:
                known = ", ".join(k.value for k in self.kinds)
                raise ValueError(f"unknown action {self.kind!r}: one of {known}") from None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind.value}
        if self.card is not None:
            out["card"] = str(self.card)
        if self.groups is not None:
            out["groups"] = [" ".join(map(str, g)) for g in self.groups]
        if self.player is not None:
            out["player"] = self.player
        return out

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Action:
        groups = data.get("groups")
        return cls(data["kind"], Card.parse(data["card"]) if "card" in data else None,
                   tuple(tuple(Card.parse(t) for t in g.split()) for g in groups) if groups is not None else None,
                   data.get("player"))

    def __repr__(self) -> str:
        return f"{type(self).__name__}({str(self)!r})"

    def __str__(self) -> str:
        parts = [self.kind.value] + ([str(self.card)] if self.card else [])
        if self.groups is not None:
            parts.append(" | ".join(" ".join(map(str, g)) for g in self.groups))
        if self.player is not None:
            parts.append(f"player {self.player}")
        return " ".join(parts)


@dataclass(frozen=True, slots=True, repr=False)
class Chance:
    """A chance outcome, recorded in the history after the move that made it (or first, for the
    start's): the order a shuffle put ``cards`` in, or a drawn ``value`` (e.g. the first dealer).
    ``kind`` names the event: deal, restock, dropped (a dropped hand shuffled into the stock), toss,
    dealer, roles."""

    kind: str
    cards: tuple[Card, ...] | None = None
    value: int | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"chance": self.kind}
        if self.cards is not None:
            out["cards"] = " ".join(map(str, self.cards))
        if self.value is not None:
            out["value"] = self.value
        return out

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Chance:
        cards = data.get("cards")
        return cls(str(data["chance"]), tuple(Card.parse(t) for t in cards.split()) if cards is not None else None,
                   data.get("value"))

    def __repr__(self) -> str:
        return f"Chance({str(self)!r})"

    def __str__(self) -> str:
        shown = " ".join(map(str, self.cards)) if self.cards is not None else str(self.value)
        return f"{self.kind}: {shown}"


class Outcomes:
    """Chance outcomes to make again, in order (a replayed history's, a trace's): each chance
    event takes the next, which must be of its kind."""

    def __init__(self, outcomes: Iterable[Chance]) -> None:
        self.queue = deque(outcomes)

    def take(self, kind: str) -> Chance:
        if not self.queue:
            raise IllegalAction(f"the history records no {kind} where the game makes one")
        made = self.queue.popleft()
        if made.kind != kind:
            raise IllegalAction(f"the history records a {made.kind} where the game makes a {kind}")
        return made

    def check_done(self) -> None:
        """Raises IllegalAction when an outcome is left that the game did not make."""
        if self.queue:
            raise IllegalAction(f"the history records a {self.queue[0].kind} the game did not make there")


class _Recorder:
    """The chance outcomes of one move: drawn from their streams, or taken from ``given``."""

    def __init__(self, given: Outcomes | None) -> None:
        self.given = given
        self.made: list[Chance] = []

    def outcome(self, kind: str, draw: Callable[[], Chance]) -> Chance:
        made = draw() if self.given is None else self.given.take(kind)
        self.made.append(made)
        return made


_RECORDER: ContextVar[_Recorder | None] = ContextVar("rummylab_chance", default=None)


@contextmanager
def recording(given: Sequence[Chance] | Outcomes | None = None) -> Iterator[_Recorder | None]:
    """Record the chance outcomes made inside (None inside another recording without ``given``:
    the outer one records them). ``given``: the outcomes to make again instead of drawing; a
    sequence must be used up here, an ``Outcomes`` is shared with later moves."""
    if given is None and _RECORDER.get() is not None:
        yield None
        return
    rec = _Recorder(given if isinstance(given, Outcomes) or given is None else Outcomes(given))
    token = _RECORDER.set(rec)
    try:
        yield rec
    finally:
        _RECORDER.reset(token)
    if rec.given is not None and not isinstance(given, Outcomes):
        rec.given.check_done()


def shuffled(cards: Iterable[Card], family: str, seed: int, kind: str, deal: int = 0, number: int = 0) -> list[Card]:
    """``cards`` in the order this chance event puts them (``chance.shuffle``; a replay's
    recorded order, checked to be an order of these cards), recorded in the move's history."""
    cards = list(cards)
    rec = _RECORDER.get()
    if rec is None:
        return list(chance.shuffle(cards, family, seed, kind, deal, number))
    made = rec.outcome(kind, lambda: Chance(kind, tuple(chance.shuffle(list(cards), family, seed, kind, deal,
                                                                       number))))
    if made.cards is None or Counter(made.cards) != Counter(cards):
        raise IllegalAction(f"the recorded {kind} is not an order of the {len(cards)} cards it shuffles")
    return list(made.cards)


def drawn(n: int, family: str, seed: int, kind: str, deal: int = 0, number: int = 0) -> int:
    """A number from 0 to n - 1 by this chance event (``chance.below``; a replay's recorded
    value, checked), recorded in the move's history."""
    return chosen(n, kind, lambda: chance.below(n, family, seed, kind, deal, number))


def chosen(n: int, kind: str, draw: Callable[[], int]) -> int:
    """A chance outcome from 0 to n - 1 made by ``draw()`` (a replay's recorded value, checked),
    recorded in the move's history."""
    rec = _RECORDER.get()
    if rec is None:
        return draw()
    made = rec.outcome(kind, lambda: Chance(kind, value=draw()))
    if not isinstance(made.value, int) or isinstance(made.value, bool) or not 0 <= made.value < n:
        raise IllegalAction(f"the recorded {kind} {made.value!r} is not a number from 0 to {n - 1}")
    return made.value


def begin(make: Callable[[], S], outcomes: Sequence[Chance] | Outcomes | None = None) -> S:
    """The first state of a game, ``make()``, with the chance outcomes it made (the toss, the
    first deal) as its history; ``outcomes``: those of a replay."""
    with recording(outcomes) as rec:
        state = make()
    if rec is not None:
        state.__dict__["history"] = tuple(rec.made)  # new: nobody has it yet
    return state


def _no_reason(state: Any, action: Any) -> str | None:
    return None


def _where(state: Any) -> str:
    """Where a game is (its phase and the player to act), in words for the player."""
    return _("{phase}, player {player}").format(phase=state.phase.value, player=state.to_play)


@dataclass(frozen=True, kw_only=True)
class Move(Generic[S]):
    """One kind of action in one phase: what to offer, why not now, and what it does."""

    kind: Kind
    do: Callable[[S, Any], S]
    verify: Callable[[S, Any], str | None] = _no_reason
    """The rule an action breaks now, or None when it is allowed."""
    candidates: Callable[[S], Iterable[Any]] | None = None
    """The actions of this kind worth offering (verified before they are listed); None: the
    kind alone, with no card."""


@dataclass(frozen=True, kw_only=True)
class Game(Generic[S]):
    """A family's game: its actions, its moves per phase, how to start and replay one."""

    name: str
    action: type[Action]
    moves: Mapping[Any, tuple[Move[S], ...]]
    """Per phase, its moves in the order ``legal_actions`` lists them."""
    start: Callable[..., S]
    """start(rules, seed, **params) -> the first state."""
    params: Callable[[S], dict[str, Any]] = field(default=lambda s: {})
    """What besides rules and seed a history needs to start the game again."""
    rules_type: type | None = None
    hints: Mapping[Any, str] = field(default_factory=dict)
    """Per phase, what to do there, for an action of a kind the phase does not take (English,
    marked with ``N_``: said in the language in use)."""
    where: Callable[[S], str] = field(default=lambda s: _where(s))
    """Where in the game a state is, in words (for an illegal action's message)."""
    phase: Callable[[S], Any] = field(default=lambda s: s.phase)  # type: ignore[attr-defined]

    def _move(self, state: S, action: Any) -> tuple[Move[S] | None, str | None]:
        if not isinstance(action, self.action):
            return None, f"{action!r} is not an Action of {self.name}"
        phase = self.phase(state)
        for m in self.moves.get(phase, ()):
            if m.kind is action.kind:
                return m, m.verify(state, action)
        hint = self.hints.get(phase)
        if hint:
            return None, _(hint)
        legal = ", ".join(map(str, self.legal_actions(state)))
        return None, (_("the legal actions are {actions}").format(actions=legal) if legal
                      else _("there is no legal action"))

    def verify(self, state: S, action: Any) -> str | None:
        """The rule ``action`` breaks in ``state``, or None when it is legal."""
        return self._move(state, action)[1]

    def legal_actions(self, state: S) -> list[Any]:
        """Every action the player to act may take (of each kind, the offered ones)."""
        out: list[Any] = []
        for m in self.moves.get(self.phase(state), ()):
            offered = m.candidates(state) if m.candidates else (self.action(m.kind),)
            out.extend(a for a in offered if m.verify(state, a) is None)
        return out

    def apply(self, state: S, action: Any, outcomes: Sequence[Chance] | Outcomes | None = None) -> S:
        """The state after ``action``; raises ``IllegalAction`` (and changes nothing) if not allowed.
        The chance outcomes the action makes (a deal, a restock) are drawn, or are ``outcomes``
        (a replay's); they follow the action in the history."""
        move, why = self._move(state, action)
        if move is None or why is not None:
            raise IllegalAction(_("{action} is illegal ({where}): {why}").format(action=action,
                                                                                  where=self.where(state), why=why))
        with recording(outcomes) as rec:
            new = move.do(state, action)
        made = tuple(rec.made) if rec is not None else ()
        new.__dict__["history"] = state.history + (action, *made)  # type: ignore[attr-defined]  # new: nobody has it yet
        return new

    def history(self, state: S) -> dict[str, Any]:
        """The game as plain JSON: family, format version, rules, seed, what else starts it, actions."""
        return {"game": self.name, "version": HISTORY_VERSION, "rules": asdict(state.rules),  # type: ignore[attr-defined]
                "seed": state.seed, **self.params(state),  # type: ignore[attr-defined]
                "actions": [a.to_json() for a in state.history]}  # type: ignore[attr-defined]

    def replay(self, data: Mapping[str, Any]) -> S:
        """The state a ``history`` describes (older histories without the tag too)."""
        *_steps, (last, _none) = self.steps(data)
        return last

    def steps(self, data: Mapping[str, Any]) -> Iterator[tuple[S, Any]]:
        """Each state a ``history`` passes through with the action taken from it (None after the
        last): the replay, step by step."""
        if data.get("game", self.name) != self.name:
            raise ValueError(f"a history of {data['game']!r}, not of {self.name!r}")
        version = data.get("version", 1)
        if version > HISTORY_VERSION:
            raise ValueError(f"history version {version} is newer than this rummylab reads")
        if version < 2:
            raise ValueError(f"history version {version} does not record its deals (rummylab before 0.2 wrote "
                             "it): it cannot be replayed")
        rules = self.rules_type(**data["rules"]) if self.rules_type else data["rules"]
        params = {k: v for k, v in data.items() if k not in ("game", "version", "rules", "seed", "actions")}
        moves: list[tuple[Any, list[Chance]]] = [(None, [])]  # each action with the outcomes it made
        for a in data["actions"]:
            if "chance" in a:
                moves[-1][1].append(Chance.from_json(a))
            else:
                moves.append((self.action.from_json(a), []))
        state = begin(lambda: self.start(rules, data["seed"], **params), moves[0][1])
        for action, outcomes in moves[1:]:
            yield state, action
            state = self.apply(state, action, outcomes)
        yield state, None


def play_out(game: Game[S], state: S, act: Callable[[S], Any], done: Callable[[S], bool],
             max_actions: int = 200_000) -> S:
    """Apply ``act(state)`` (a bot's choice) until ``done(state)``. Bots never cycle, so a game
    that does not end within ``max_actions`` is a bug: RuntimeError names the game and its seed."""
    for _i in range(max_actions):
        if done(state):
            return state
        state = game.apply(state, act(state))
    raise RuntimeError(f"{game.name} game with seed {state.seed} did not finish in "  # type: ignore[attr-defined]
                       f"{max_actions} actions")


def game_of(name: str) -> Game[Any]:
    """The declared game of a family name ("gin", "gin_three_handed", "three_thirteen", "indian")."""
    if name not in FAMILIES:
        raise ValueError(f"unknown game {name!r}: one of {', '.join(FAMILIES)}")
    game: Game[Any] = importlib.import_module(FAMILIES[name]).GAME
    return game


def replay(data: Mapping[str, Any]) -> Any:
    """Any family's tagged history (``history_json`` of a game) -> the same state."""
    if "game" not in data:
        raise ValueError("this history names no game: replay it with its family's replay")
    return game_of(str(data["game"])).replay(data)


# -- small pieces the families share ------------------------------------------------


def evolve(state: S, **changes: Any) -> S:
    """A copy of a frozen state with some fields changed (no re-validation: the caller checked)."""
    new = object.__new__(type(state))
    new.__dict__.update(state.__dict__)
    new.__dict__.update(changes)
    return new


def replace_at(items: tuple, i: int, value: Any) -> tuple:
    """The tuple with item i replaced."""
    return items[:i] + (value,) + items[i + 1:]


def picked_up(picked: tuple, player: int, card: Any) -> tuple:
    """The cards each player was seen to take from the pile and holds, ``player`` having taken
    ``card`` (a state built without them stays without)."""
    return replace_at(picked, player, picked[player] + (card,)) if picked else picked


def noted(seen: tuple, player: int, card: Any) -> tuple:
    """What each player was seen to do with cards (``discarded``, ``declined``), ``player`` having
    done it with ``card`` (a state built without them stays without)."""
    return replace_at(seen, player, seen[player] + (card,)) if seen else seen


def thrown(picked: tuple, player: int, card: Any) -> tuple:
    """... ``player`` having thrown ``card``: one copy of it is no longer known to be held."""
    if not picked or card not in picked[player]:
        return picked
    return replace_at(picked, player, tuple(without(picked[player], card)))


def restock(stock: tuple, discards: tuple, reshuffles: int, family: str, seed: int,
            deal: int) -> tuple[tuple, tuple, int]:
    """(stock, discards, reshuffles): an empty stock is refilled by the discard pile, all but
    its top card, shuffled (the deal's restock number ``reshuffles``, a chance outcome)."""
    if stock:
        return stock, discards, reshuffles
    pile = shuffled(discards[:-1], family, seed, "restock", deal, reshuffles)
    return tuple(pile), discards[-1:], reshuffles + 1


def each_card(action: type[Action], kind: Kind) -> Callable[[Any], list[Action]]:
    """Candidates: one action of ``kind`` for each distinct card in the hand of the player to act."""
    return lambda s: [action(kind, c) for c in sorted(set(s.hands[s.to_play]))]


def discard_check(missing: str) -> Callable[[Any, Action], str | None]:
    """A verify for a discard from the hand of the player to act (a tuple of cards); ``missing``
    says what to do when the action names no card (English, marked with ``N_``: said in the
    language in use)."""
    def why_not(s: Any, a: Action) -> str | None:
        if a.card is None:
            return _(missing)
        if a.card not in s.hands[s.to_play]:
            return _("{card} is not in the hand").format(card=a.card)
        return None
    return why_not


def check_seed(seed: object) -> int:
    """A game seed: a whole number from 0 to 2**64 - 1."""
    if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < chance.WORD:
        raise ValueError(f"seed={seed!r}: a whole number from 0 to 2**64 - 1")
    return seed
