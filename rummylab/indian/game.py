"""Indian rummy as an immutable state changed only by checked actions (rules.md §4).

A toss seats the players; each deal gives 13 cards, cuts the wild joker and turns an upcard.
A turn is a draw (stock or discard pile) and a discard, or a declaration: a discard plus the
other 13 cards shown in groups. A player may drop on their turn before drawing (first drop
before their first draw of the deal, middle drop after). A valid show wins the deal; the
others lose their loser points; a wrong show costs the declarer ``wrong_show_points`` and
play goes on. Points rummy is one deal; pool rummy deals until one player is left below the
pool (101 or 201), eliminated players may re-join while nobody remaining is above the limit.
"""

from __future__ import annotations

import enum
import random
from dataclasses import asdict, dataclass, field
from typing import Any

from .._play import IllegalAction, apply_checked, evolve, replace_at, restock
from ..cards import DECK, JOKER, Card, without
from .analysis import check_declaration, loser_count, masks
from .pools import POOLS, REJOIN_MAX
from .rules import DEFAULT, HAND_SIZE, Rules

MAX_PLAYERS = 6
RANK_ORDER = "23456789TJQKA"
"""Toss order, lowest first: the ace is high in the toss."""


class Phase(enum.Enum):
    DRAW = "draw"
    DISCARD = "discard"
    DEAL_OVER = "deal_over"
    GAME_OVER = "game_over"



@dataclass(frozen=True, slots=True)
class Action:
    """draw_stock, draw_discard, discard, declare (a discard + groups), drop, miss_turn, leave,
    next_deal, rejoin (player), finish."""

    kind: str
    card: Card | None = None
    groups: tuple[tuple[Card, ...], ...] | None = None
    player: int | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind}
        if self.card is not None:
            out["card"] = str(self.card)
        if self.groups is not None:
            out["groups"] = [" ".join(map(str, g)) for g in self.groups]
        if self.player is not None:
            out["player"] = self.player
        return out

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Action:
        groups = data.get("groups")
        return cls(data["kind"], Card.parse(data["card"]) if "card" in data else None,
                   tuple(tuple(Card.parse(t) for t in g.split()) for g in groups) if groups is not None else None,
                   data.get("player"))

    def __str__(self) -> str:
        parts = [self.kind] + ([str(self.card)] if self.card else [])
        if self.groups is not None:
            parts.append(" | ".join(" ".join(map(str, g)) for g in self.groups))
        if self.player is not None:
            parts.append(f"player {self.player}")
        return " ".join(parts)


DRAW_STOCK, DRAW_DISCARD = Action("draw_stock"), Action("draw_discard")
DROP, MISS_TURN, LEAVE = Action("drop"), Action("miss_turn"), Action("leave")
NEXT_DEAL, FINISH = Action("next_deal"), Action("finish")


@dataclass(frozen=True, kw_only=True)
class State:
    rules: Rules
    seed: int
    players: int
    pool: int | None
    """101 or 201 for pool rummy; None for points rummy (one deal)."""
    seats: tuple[int, ...]
    """Players in playing order, from the toss."""
    toss: tuple[Card, ...]
    """The card each player drew in the toss."""
    deal_no: int
    dealer: int
    to_play: int
    phase: Phase
    hands: tuple[tuple[Card, ...], ...]
    stock: tuple[Card, ...]
    """Top card last; the cut card lies face up at the bottom."""
    discards: tuple[Card, ...]
    cut: Card
    wild_rank: int
    in_deal: tuple[bool, ...]
    """Still playing this deal (not dropped, no wrong show, not eliminated)."""
    drawn: tuple[bool, ...]
    """Has drawn this deal (a drop is then a middle drop)."""
    missed: tuple[int, ...]
    left: tuple[bool, ...]
    deal_points: tuple[int, ...]
    """Points of this deal so far (drops, wrong shows; losers at the end)."""
    scores: tuple[int, ...]
    """Totals over the deals."""
    eliminated: tuple[bool, ...]
    rejoins: tuple[int, ...]
    winner: int | None = None
    """The deal's winner (valid show or last player in)."""
    shown: tuple[tuple[Card, ...], ...] = ()
    """The winning declaration's groups."""
    deal_history: tuple[tuple[int, ...], ...] = ()
    reshuffles: int = 0
    history: tuple[Action, ...] = field(default=(), repr=False)

    @property
    def remaining(self) -> tuple[int, ...]:
        """Players not eliminated from the pool."""
        return tuple(p for p in range(self.players) if not self.eliminated[p])


def _toss(rules: Rules, seed: int, players: int) -> tuple[tuple[int, ...], tuple[Card, ...]]:
    """Seats by a toss: the higher card plays first, ties broken by suit order, identical cards redrawn."""
    rng = random.Random(f"indian:{seed}:toss")
    drawn: list[Card] = [JOKER] * players
    contenders = list(range(players))
    pack = list(DECK) * 2
    rng.shuffle(pack)

    def strength(c: Card) -> tuple[int, int]:
        return RANK_ORDER.index(str(c)[0]), -rules.toss_suit_order.index(str(c)[1])

    while contenders:
        for p in contenders:
            drawn[p] = pack.pop()
        seen: dict[Card, list[int]] = {}
        for p in range(players):
            seen.setdefault(drawn[p], []).append(p)
        contenders = [p for ps in seen.values() if len(ps) > 1 for p in ps]
    seats = tuple(sorted(range(players), key=lambda p: strength(drawn[p]), reverse=True))
    return seats, tuple(drawn)


def _deal(s: State, deal_no: int, dealer: int) -> State:
    rules = s.rules
    cards = list(DECK) * 2 + [JOKER] * rules.printed_jokers
    random.Random(f"indian:{s.seed}:deal{deal_no}").shuffle(cards)
    playing = [p for p in s.seats if not s.eliminated[p]]
    start = s.seats.index(dealer)
    order = [s.seats[(start + 1 + i) % s.players] for i in range(s.players)]
    order = [p for p in order if p in playing]
    hands: list[list[Card]] = [[] for _ in range(s.players)]
    for i in range(HAND_SIZE * len(order)):
        hands[order[i % len(order)]].append(cards.pop())
    cut = cards.pop()
    upcard = cards.pop()
    wild = 0 if cut.is_joker else cut.rank  # a cut printed joker makes the aces wild
    n = s.players
    return evolve(s, deal_no=deal_no, dealer=dealer, to_play=order[0], phase=Phase.DRAW,
                   hands=tuple(tuple(sorted(h)) for h in hands), stock=(cut, *cards), discards=(upcard,),
                   cut=cut, wild_rank=wild, in_deal=tuple(not s.eliminated[p] for p in range(n)),
                   drawn=(False,) * n, missed=(0,) * n, left=tuple(s.left[p] and not s.eliminated[p] for p in range(n)),
                   deal_points=(0,) * n, winner=None, shown=(), reshuffles=0)


def new_game(players: int = 2, rules: Rules = DEFAULT, seed: int = 0, pool: int | None = 101) -> State:
    """A toss for seats, then the first deal. ``pool``: 101 or 201, or None for points rummy."""
    if isinstance(players, bool) or not isinstance(players, int) or not 2 <= players <= MAX_PLAYERS:
        raise ValueError(f"players={players!r}: Indian rummy is played by 2 to {MAX_PLAYERS}")
    if not isinstance(seed, int) or isinstance(seed, bool) or seed < 0:
        raise ValueError(f"seed={seed!r}: a non-negative integer")
    if pool is not None and pool not in POOLS:
        raise ValueError(f"pool={pool!r}: 101, 201 or None (points rummy)")
    seats, toss = _toss(rules, seed, players)
    n = players
    blank = State(rules=rules, seed=seed, players=n, pool=pool, seats=seats, toss=toss, deal_no=0,
                  dealer=seats[-1], to_play=seats[0], phase=Phase.DRAW, hands=(), stock=(), discards=(), cut=JOKER,
                  wild_rank=0, in_deal=(True,) * n, drawn=(False,) * n, missed=(0,) * n, left=(False,) * n,
                  deal_points=(0,) * n, scores=(0,) * n, eliminated=(False,) * n, rejoins=(0,) * n)
    return _deal(blank, 1, seats[-1])


def _next_player(s: State, after: int) -> int:
    i = s.seats.index(after)
    for k in range(1, s.players + 1):
        p = s.seats[(i + k) % s.players]
        if s.in_deal[p]:
            return p
    return after


def can_rejoin(s: State, player: int) -> bool:
    """An eliminated player may re-join (once) while nobody remaining is above the limit."""
    if s.pool is None or not s.eliminated[player] or s.rejoins[player] >= 1:
        return False
    others = [s.scores[p] for p in s.remaining]
    return bool(others) and max(others) <= REJOIN_MAX[s.pool]


def legal_actions(state: State) -> list[Action]:
    s = state
    if s.phase is Phase.DRAW:
        if s.left[s.to_play]:
            return [MISS_TURN]
        acts = [DRAW_STOCK] if s.stock or len(s.discards) > 1 else []
        return acts + ([DRAW_DISCARD] if s.discards else []) + [DROP, MISS_TURN, LEAVE]
    if s.phase is Phase.DISCARD:
        cards = sorted(set(s.hands[s.to_play]))
        return [Action("discard", c) for c in cards]  # and declare, with groups of the player's choosing
    if s.phase is Phase.DEAL_OVER:
        acts = [Action("rejoin", player=p) for p in range(s.players) if can_rejoin(s, p)]
        return acts + ([NEXT_DEAL] if len(s.remaining) >= 2 else [FINISH])
    return []


def _illegal(s: State, a: object, why: str) -> IllegalAction:
    return IllegalAction(f"{a} is illegal (deal {s.deal_no}, {s.phase.value}, player {s.to_play}): {why}")


def apply(state: State, action: Action) -> State:
    """The state after ``action``; raises ``IllegalAction`` (and changes nothing) if not allowed."""
    return apply_checked(state, action, Action, _step, IllegalAction)



def _draw_stock(s: State) -> tuple[State, Card]:
    stock, discards, reshuffles = restock(s.stock, s.discards, s.reshuffles, f"indian:{s.seed}:{s.deal_no}")
    card = stock[-1]
    me = s.to_play
    return evolve(s, stock=stock[:-1], discards=discards, reshuffles=reshuffles, phase=Phase.DISCARD,
                   hands=replace_at(s.hands, me, tuple(sorted(s.hands[me] + (card,)))),
                   drawn=replace_at(s.drawn, me, True)), card


def _step(s: State, a: Action) -> State:
    me = s.to_play
    if s.phase is Phase.DRAW:
        if s.left[me] and a.kind != "miss_turn":
            raise _illegal(s, a, "this player has left: the table plays a missed turn")
        if a.kind == "draw_stock":
            if not s.stock and len(s.discards) < 2:
                raise _illegal(s, a, "the stock and the discard pile are empty")
            return evolve(_draw_stock(s)[0], missed=replace_at(s.missed, me, 0))
        if a.kind == "draw_discard":
            if not s.discards:
                raise _illegal(s, a, "the discard pile is empty")
            hand = tuple(sorted(s.hands[me] + (s.discards[-1],)))
            return evolve(s, phase=Phase.DISCARD, hands=replace_at(s.hands, me, hand), discards=s.discards[:-1],
                           drawn=replace_at(s.drawn, me, True), missed=replace_at(s.missed, me, 0))
        if a.kind == "drop":
            return _drop(s, me)
        if a.kind == "leave":
            return evolve(s, left=replace_at(s.left, me, True))
        if a.kind == "miss_turn":  # the table draws from the stock and throws the card drawn
            missed = s.missed[me] + 1
            if s.rules.missed_turns_drop and missed >= s.rules.missed_turns_drop:
                return _drop(evolve(s, drawn=replace_at(s.drawn, me, True)), me)
            if not s.stock and len(s.discards) < 2:
                return _end_turn(evolve(s, missed=replace_at(s.missed, me, missed)))
            after, card = _draw_stock(s)
            kept = tuple(without(after.hands[me], card))
            return _end_turn(evolve(after, hands=replace_at(after.hands, me, kept),
                                     discards=after.discards + (card,), missed=replace_at(s.missed, me, missed)))
        raise _illegal(s, a, "draw first (stock or discard pile), or drop")
    if s.phase is Phase.DISCARD:
        if a.kind not in ("discard", "declare") or a.card is None:
            raise _illegal(s, a, "discard a card, or declare: a discard and the other 13 cards in groups")
        if a.card not in s.hands[me]:
            raise _illegal(s, a, f"{a.card} is not in the hand")
        rest = tuple(without(s.hands[me], a.card))
        after = evolve(s, hands=replace_at(s.hands, me, rest), discards=s.discards + (a.card,))
        if a.kind == "discard":
            return _end_turn(after)
        if a.groups is None:
            raise _illegal(s, a, "a declaration shows the other 13 cards in groups")
        try:
            verdict = check_declaration(rest, a.groups, _rank(s), s.rules)
        except ValueError as exc:
            raise _illegal(s, a, str(exc)) from None
        if verdict.valid:
            return _score_deal(evolve(after, winner=me, shown=verdict.groups))
        # a wrong show: the declarer pays and is out of the deal; play goes on
        out = evolve(after, deal_points=replace_at(s.deal_points, me, s.rules.wrong_show_points),
                      in_deal=replace_at(s.in_deal, me, False))
        return _after_leaving(out, me)
    if s.phase is Phase.DEAL_OVER:
        if a.kind == "rejoin":
            if a.player is None or not 0 <= a.player < s.players or not can_rejoin(s, a.player):
                raise _illegal(s, a, "only an eliminated player may re-join, once, while nobody remaining "
                               f"is above {REJOIN_MAX.get(s.pool or 0, '-')}")
            p = a.player
            score = max(s.scores[q] for q in s.remaining) + 1  # the highest remaining score + 1
            return evolve(s, eliminated=replace_at(s.eliminated, p, False), scores=replace_at(s.scores, p, score),
                           rejoins=replace_at(s.rejoins, p, s.rejoins[p] + 1), left=replace_at(s.left, p, False))
        if a.kind == "next_deal" and len(s.remaining) >= 2:
            nxt = s.seats[(s.seats.index(s.dealer) + 1) % s.players]
            return _deal(s, s.deal_no + 1, nxt)
        if a.kind == "finish" and len(s.remaining) < 2:
            return evolve(s, phase=Phase.GAME_OVER)
    raise _illegal(s, a, f"the legal actions are {', '.join(map(str, legal_actions(s))) or 'none'}")


def _rank(s: State) -> str:
    return "A23456789TJQK"[s.wild_rank]


def _drop(s: State, me: int) -> State:
    first, middle = s.rules.drops(s.pool)
    points = middle if s.drawn[me] else first
    out = evolve(s, deal_points=replace_at(s.deal_points, me, points), in_deal=replace_at(s.in_deal, me, False),
                  missed=replace_at(s.missed, me, 0))
    return _after_leaving(out, me)


def _after_leaving(s: State, me: int) -> State:
    """After a drop or a wrong show: the last player in wins the deal; else the next plays."""
    playing = [p for p in range(s.players) if s.in_deal[p]]
    if len(playing) == 1:
        return _score_deal(evolve(s, winner=playing[0]))
    return evolve(s, phase=Phase.DRAW, to_play=_next_player(s, me))


def _end_turn(s: State) -> State:
    return evolve(s, phase=Phase.DRAW, to_play=_next_player(s, s.to_play))


def _score_deal(s: State) -> State:
    """Losers still in the deal pay their loser points; totals, elimination, game over."""
    points = list(s.deal_points)
    k = s.rules.kernel()
    for p in range(s.players):
        if s.in_deal[p] and p != s.winner:
            points[p] = loser_count(k, *masks(s.hands[p]), s.wild_rank, s.rules)
    scores = tuple(a + b for a, b in zip(s.scores, points, strict=True))
    eliminated = s.eliminated
    if s.pool is not None:
        eliminated = tuple(e or v >= s.pool for e, v in zip(s.eliminated, scores, strict=True))
    done = s.pool is None
    return evolve(s, phase=Phase.GAME_OVER if done else Phase.DEAL_OVER, deal_points=tuple(points),
                   scores=scores, eliminated=eliminated, deal_history=s.deal_history + (tuple(points),))


def history_json(state: State) -> dict[str, Any]:
    return {"rules": asdict(state.rules), "seed": state.seed, "players": state.players, "pool": state.pool,
            "actions": [a.to_json() for a in state.history]}


def replay(data: dict[str, Any]) -> State:
    state = new_game(data["players"], Rules(**data["rules"]), data["seed"], data["pool"])
    for a in data["actions"]:
        state = apply(state, Action.from_json(a))
    return state
