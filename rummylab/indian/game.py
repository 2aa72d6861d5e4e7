"""Indian rummy as an immutable state changed only by checked actions (docs/rules.md).

A toss seats the players; each deal gives 13 cards, cuts the wild joker and turns an upcard.
A turn is a draw (stock or discard pile) and a discard, or a declaration: a discard plus the
other 13 cards shown in groups. A player may drop on their turn before drawing (first drop
before their first draw of the deal, middle drop after). A valid show wins the deal; the
others lose their loser points; a wrong show costs the declarer ``wrong_show_points`` and
play goes on. Three formats: points rummy is one deal; pool rummy deals until one player is
left below the pool (101 or 201), and eliminated players may re-join; deals rummy plays a fixed
number of deals for chips, and the most chips wins.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import Any

from .. import play
from ..cards import DECK, JOKER, RANKS, Card, without
from ..i18n import N_, _
from ..play import IllegalAction as IllegalAction
from ..play import check_seed, evolve, noted, picked_up, replace_at, restock, thrown
from ..sim import codes
from .analysis import check_declaration, loser_count, masks
from .pools import POOLS, why_no_rejoin
from .rules import DEFAULT, HAND_SIZE, Rules

MAX_PLAYERS = codes.INDIAN_MAX_PLAYERS
DEALS = (2, 3, 6)
"""Deals rummy is played over this many deals (best of 2, 3 or 6)."""
CHIPS_PER_DEAL = 80
"""Deals rummy: chips each player starts with, per deal (the most a loser pays in one deal)."""
RANK_ORDER = "23456789TJQKA"
"""Toss order, lowest first: the ace is high in the toss."""


class Phase(enum.Enum):
    DRAW = "draw"
    DISCARD = "discard"
    DEAL_OVER = "deal_over"
    GAME_OVER = "game_over"



class Kind(play.Kind):
    DRAW_STOCK = "draw_stock"
    DRAW_DISCARD = "draw_discard"
    DISCARD = "discard"
    DECLARE = "declare"
    """Discard ``card`` and show the other 13 cards in ``groups``."""
    DROP = "drop"
    MISS_TURN = "miss_turn"
    """The player does not play: before their first draw it is a first drop (autoplay rules);
    later the table draws from the stock and throws the card drawn."""
    LEAVE = "leave"
    """The player goes away; the table misses their turns until they reconnect."""
    RECONNECT = "reconnect"
    NEXT_DEAL = "next_deal"
    REJOIN = "rejoin"
    """``player`` re-joins the pool."""
    FINISH = "finish"


class Action(play.Action):
    """An Indian rummy move: the kind, and the card, groups or player it names."""

    __slots__ = ()
    kinds = Kind


DRAW_STOCK, DRAW_DISCARD = Action(Kind.DRAW_STOCK), Action(Kind.DRAW_DISCARD)
DROP, MISS_TURN, LEAVE = Action(Kind.DROP), Action(Kind.MISS_TURN), Action(Kind.LEAVE)
RECONNECT = Action(Kind.RECONNECT)
NEXT_DEAL, FINISH = Action(Kind.NEXT_DEAL), Action(Kind.FINISH)


@dataclass(frozen=True, kw_only=True)
class State:
    rules: Rules
    seed: int
    players: int
    pool: int | None
    """101 or 201 for pool rummy; None for points or deals rummy."""
    deals: int | None
    """Deals rummy: the number of deals (2, 3 or 6); None for points or pool rummy."""
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
    """Re-joins so far; each is a new buy-in."""
    start_chips: int | None = None
    """Deals rummy: the chips each player started with."""
    chips: tuple[int, ...] = ()
    """Deals rummy: each player's chips now."""
    chip_history: tuple[tuple[int, ...], ...] = ()
    """Deals rummy: the chips after each deal."""
    deal_winners: tuple[int, ...] = ()
    taken: Card | None = None
    """The card just taken from the discard pile (this turn)."""
    picked: tuple[tuple[Card, ...], ...] = ()
    """The cards each player took from the discard pile this deal and still holds (everyone saw
    them taken); empty for a state built without them."""
    discarded: tuple[tuple[Card, ...], ...] = ()
    """The cards each player threw this deal (by choice; a turn the table plays for her does not
    count); empty for a state built without them."""
    declined: tuple[tuple[Card, ...], ...] = ()
    """The discards each player left on the pile this deal to draw from the stock."""
    winner: int | None = None
    """The deal's winner (valid show or last player in)."""
    shown: tuple[tuple[Card, ...], ...] = ()
    """The winning declaration's groups."""
    deal_history: tuple[tuple[int, ...], ...] = ()
    reshuffles: int = 0
    history: tuple[Action, ...] = field(default=(), repr=False)

    @property
    def remaining(self) -> tuple[int, ...]:
        """Players not eliminated from the pool (in deals rummy: still playing)."""
        return tuple(p for p in range(self.players) if not self.eliminated[p])

    @property
    def format(self) -> str:
        """"points", "pool" or "deals"."""
        return "deals" if self.deals is not None else "points" if self.pool is None else "pool"

    @property
    def game_winner(self) -> int | None:
        """The player who won the game, once it is over (else None)."""
        if self.phase is not Phase.GAME_OVER:
            return None
        if self.deals is not None:
            return max(range(self.players), key=lambda p: (self.chips[p], p in self.remaining))
        if self.pool is None:
            return self.winner
        return self.remaining[0] if len(self.remaining) == 1 else None

    @property
    def buy_ins(self) -> tuple[int, ...]:
        """Pool rummy: buy-ins each player paid (the first, and one per re-join)."""
        return tuple(1 + r for r in self.rejoins)


def _toss(rules: Rules, seed: int, players: int) -> tuple[tuple[int, ...], tuple[Card, ...]]:
    """Seats by a toss: the higher card plays first (a printed joker highest, when the toss pack
    has them), ties broken by suit order, identical cards redrawn."""
    drawn: list[Card] = [JOKER] * players
    contenders = list(range(players))
    pack = play.shuffled(list(DECK) * 2 + [JOKER] * (rules.printed_jokers if rules.toss_jokers else 0),
                         "indian", seed, "toss")

    def strength(c: Card) -> tuple[int, int]:
        if c.is_joker:
            return len(RANK_ORDER), 0
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
    cards = play.shuffled(list(DECK) * 2 + [JOKER] * rules.printed_jokers, "indian", s.seed, "deal", deal_no)
    playing = [p for p in s.seats if not s.eliminated[p]]
    start = s.seats.index(dealer)
    order = [s.seats[(start + 1 + i) % s.players] for i in range(s.players)]
    order = [p for p in order if p in playing]
    hands: list[list[Card]] = [[] for _player in range(s.players)]
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
                   deal_points=(0,) * n, winner=None, shown=(), reshuffles=0, picked=((),) * n,
                   discarded=((),) * n, declined=((),) * n)


class _Default(int):
    """The pool a game gets when none is named: 101, unless ``deals`` is given."""


DEFAULT_POOL = _Default(101)
"""The default ``pool``: 101 pool rummy, which gives way to ``deals``; a pool named with
``deals`` is refused."""


def new_game(players: int = 2, rules: Rules = DEFAULT, seed: int = 0, pool: int | None = DEFAULT_POOL,
             deals: int | None = None, chips: int | None = None) -> State:
    """A toss for seats, then the first deal.

    ``pool``: 101 or 201 for pool rummy, None for points rummy (one deal); ``deals``: 2, 3 or
    6 for deals rummy, where every player starts with ``chips`` (default 80 per deal)."""
    if isinstance(players, bool) or not isinstance(players, int) or not 2 <= players <= MAX_PLAYERS:
        raise ValueError(f"players={players!r}: Indian rummy is played by 2 to {MAX_PLAYERS}")
    if not isinstance(rules, Rules):
        raise ValueError(f"rules={rules!r}: Indian rummy needs rummylab.indian.Rules")
    check_seed(seed)
    if deals is not None:
        if pool is not DEFAULT_POOL and pool is not None:
            raise ValueError(f"pool={pool!r} with deals={deals}: deals rummy has no pool (pass pool=None)")
        pool = None
        if deals not in DEALS:
            raise ValueError(f"deals={deals!r}: deals rummy is played over {', '.join(map(str, DEALS))} deals")
        chips = CHIPS_PER_DEAL * deals if chips is None else chips
        if isinstance(chips, bool) or not isinstance(chips, int) or chips <= 0:
            raise ValueError(f"chips={chips!r}: a positive whole number")
    elif chips is not None:
        raise ValueError(f"chips={chips!r}: chips are for deals rummy (pass deals=2, 3 or 6)")
    if pool is not None and pool not in POOLS:
        raise ValueError(f"pool={pool!r}: 101, 201 or None (points rummy)")
    pool = None if pool is None else int(pool)
    rules.check_format("deals" if deals is not None else "points" if pool is None else "pool")

    def start() -> State:
        seats, toss = _toss(rules, seed, players)
        n = players
        blank = State(rules=rules, seed=seed, players=n, pool=pool, deals=deals, seats=seats, toss=toss, deal_no=0,
                      dealer=seats[-1], to_play=seats[0], phase=Phase.DRAW, hands=(), stock=(), discards=(), cut=JOKER,
                      wild_rank=0, in_deal=(True,) * n, drawn=(False,) * n, missed=(0,) * n, left=(False,) * n,
                      deal_points=(0,) * n, scores=(0,) * n, eliminated=(False,) * n, rejoins=(0,) * n,
                      start_chips=chips, chips=(chips,) * n if chips else ())
        return _deal(blank, 1, seats[-1])

    return play.begin(start)


def _next_player(s: State, after: int) -> int:
    i = s.seats.index(after)
    for k in range(1, s.players + 1):
        p = s.seats[(i + k) % s.players]
        if s.in_deal[p]:
            return p
    return after


def can_rejoin(s: State, player: int) -> bool:
    """An eliminated pool player may re-join (a new buy-in) now (``pools.why_no_rejoin``)."""
    return _why_no_rejoin(s, player) is None


def _why_no_rejoin(s: State, player: int | None) -> str | None:
    if player is None:
        return _("a re-join names the player who re-joins")
    if not 0 <= player < s.players:
        return _("player {player}: no such player (0 to {last})").format(player=player, last=s.players - 1)
    return why_no_rejoin(s.pool, s.eliminated[player], [s.scores[p] for p in s.remaining], s.rejoins[player],
                         s.rules, _("player {player}").format(player=player))


def is_joker(s: State, card: Card) -> bool:
    """A printed joker or a card of this deal's wild rank."""
    return card.is_joker or card.rank == s.wild_rank


def _first_turn(s: State) -> bool:
    """The first player's first turn of the deal, before anyone has drawn or dropped."""
    return (len(s.discards) == 1 and not s.reshuffles and not any(s.drawn)
            and s.in_deal == tuple(not e for e in s.eliminated) and s.to_play == _first_player(s))


def _first_player(s: State) -> int:
    return _next_player(s, s.dealer)


def legal_actions(state: State) -> list[Action]:
    """Every action the player to act may take (a declaration's groups are the player's to choose)."""
    return GAME.legal_actions(state)


def apply(state: State, action: Action) -> State:
    """The state after ``action``; raises ``IllegalAction`` (and changes nothing) if not allowed."""
    return GAME.apply(state, action)


def _draw_stock(s: State) -> tuple[State, Card]:
    stock, discards, reshuffles = restock(s.stock, s.discards, s.reshuffles, "indian", s.seed, s.deal_no)
    card = stock[-1]
    me = s.to_play
    return evolve(s, stock=stock[:-1], discards=discards, reshuffles=reshuffles, phase=Phase.DISCARD,
                  hands=replace_at(s.hands, me, tuple(sorted(s.hands[me] + (card,)))),
                  drawn=replace_at(s.drawn, me, True)), card


def _why_not_present(s: State, a: Action) -> str | None:
    """In the draw phase, a player who has left only misses turns (or reconnects)."""
    if s.left[s.to_play] and a.kind is not Kind.MISS_TURN:
        return _("this player has left: the table plays a missed turn, or the player reconnects")
    return None


def _why_not_reconnect(s: State, a: Action) -> str | None:
    return None if s.left[s.to_play] else _("only a player who has left reconnects")


def _why_not_draw_stock(s: State, a: Action) -> str | None:
    if s.stock or len(s.discards) > 1:
        return _why_not_present(s, a)
    return _why_not_present(s, a) or _("the stock and the discard pile are empty")


def _why_not_draw_discard(s: State, a: Action) -> str | None:
    if not s.discards:
        return _("the discard pile is empty")
    if not s.rules.joker_from_discard and is_joker(s, s.discards[-1]) and not _first_turn(s):
        return _("{card} is a joker: a joker is never taken from the discard pile, except the first upcard on the "
                 "first player's first turn").format(card=s.discards[-1])
    return _why_not_present(s, a)


def _take_stock(s: State, a: Action) -> State:
    declined = noted(s.declined, s.to_play, s.discards[-1]) if s.discards else s.declined
    return evolve(_draw_stock(s)[0], missed=replace_at(s.missed, s.to_play, 0), declined=declined)


def _take_discard(s: State, a: Action) -> State:
    me = s.to_play
    hand = tuple(sorted(s.hands[me] + (s.discards[-1],)))
    return evolve(s, phase=Phase.DISCARD, hands=replace_at(s.hands, me, hand), discards=s.discards[:-1],
                  drawn=replace_at(s.drawn, me, True), missed=replace_at(s.missed, me, 0), taken=s.discards[-1],
                  picked=picked_up(s.picked, me, s.discards[-1]))


def _miss_turn(s: State, a: Action) -> State:
    """The table plays a turn the player misses (see ``Rules.leaver``)."""
    me = s.to_play
    missed = s.missed[me] + 1
    autoplay = s.rules.leaver == "autoplay"
    if autoplay and not s.drawn[me]:
        return _drop(s, me)  # inactive from the start: a first drop
    if not autoplay and missed >= s.rules.missed_turns_drop:
        return _drop(evolve(s, drawn=replace_at(s.drawn, me, True)), me)
    after = evolve(s, missed=replace_at(s.missed, me, missed))
    if s.stock or len(s.discards) >= 2:  # the table draws and throws the card drawn
        after, card = _draw_stock(after)
        after = evolve(after, hands=replace_at(after.hands, me, tuple(without(after.hands[me], card))),
                       discards=after.discards + (card,))
    if autoplay and missed >= s.rules.autoplay_turns:  # the table has played its turns: the hand is scored
        return _after_leaving(_leave_deal(after, me, points_of(after, after.hands[me])), me)
    return _end_turn(after)


_DISCARD = N_("discard a card, or declare: a discard and the other 13 cards in groups")
_why_not_discard = play.discard_check(_DISCARD)


def _why_not_declare(s: State, a: Action) -> str | None:
    why = _why_not_discard(s, a)
    if why is None and a.groups is None:
        return _("a declaration shows the other 13 cards in groups")
    if why is None and a.card is not None and a.groups is not None:
        try:  # a malformed declaration (a card left out or extra) is refused; a wrong one is a wrong show
            check_declaration(tuple(without(s.hands[s.to_play], a.card)), a.groups, _rank(s), s.rules)
        except ValueError as exc:
            return str(exc)
    return why


def _discard(s: State, a: Action) -> State:
    me, card = s.to_play, a.card
    assert card is not None
    rest = tuple(without(s.hands[me], card))
    after = evolve(s, hands=replace_at(s.hands, me, rest), discards=s.discards + (card,), taken=None,
                   picked=thrown(s.picked, me, card), discarded=noted(s.discarded, me, card))
    if a.kind is Kind.DISCARD:
        return _end_turn(after)
    assert a.groups is not None
    verdict = check_declaration(rest, a.groups, _rank(s), s.rules)
    if verdict.valid:
        return _score_deal(evolve(after, winner=me, shown=verdict.groups))
    # a wrong show: the declarer pays and is out of the deal; play goes on
    out = evolve(after, deal_points=replace_at(s.deal_points, me, s.rules.wrong_show_points),
                 in_deal=replace_at(s.in_deal, me, False))
    return _after_leaving(out, me)


def _why_not_drop_now(s: State, a: Action) -> str:
    return _("a drop comes before the draw: this player has drawn, so discard a card, or declare "
             "(drop on a later turn, before drawing)")


def _why_not_rejoin(s: State, a: Action) -> str | None:
    return _why_no_rejoin(s, a.player)


def _rejoin(s: State, a: Action) -> State:
    p = a.player
    assert p is not None
    score = max(s.scores[q] for q in s.remaining) + 1  # the highest remaining score + 1 (rummylab's choice)
    return evolve(s, eliminated=replace_at(s.eliminated, p, False), scores=replace_at(s.scores, p, score),
                  rejoins=replace_at(s.rejoins, p, s.rejoins[p] + 1), left=replace_at(s.left, p, False))


def _leaders(s: State) -> list[int]:
    """Deals rummy: the players with the most chips."""
    top = max(s.chips)
    return [p for p in range(s.players) if s.chips[p] == top]


def _game_over(s: State) -> bool:
    if s.deals is not None:
        return s.deal_no >= s.deals and len(_leaders(s)) == 1
    return len(s.remaining) < 2


def _why_not_next_deal(s: State, a: Action) -> str | None:
    if not _game_over(s):
        return None
    return (_("the last deal is played: the game is finished") if s.deals else
            _("one player is left: the game is finished"))


def _next_deal(s: State, a: Action) -> State:
    if s.deals is not None and s.deal_no >= s.deals:  # a tie for the most chips: the tied play on
        tied = set(_leaders(s))
        s = evolve(s, eliminated=tuple(p not in tied for p in range(s.players)))
    return _deal(s, s.deal_no + 1, s.seats[(s.seats.index(s.dealer) + 1) % s.players])


def _why_not_finish(s: State, a: Action) -> str | None:
    if _game_over(s):
        return None
    if s.deals is not None:
        return _("deals are left to play (or a tie for the most chips): deal the next hand")
    return _("two or more players remain: deal the next hand")


def _rank(s: State) -> str:
    return RANKS[s.wild_rank]


def points_of(s: State, cards: tuple[Card, ...] | list[Card]) -> int:
    """The loser points of ``cards`` in this deal (its wild rank, the rules' count and cap)."""
    return loser_count(s.rules.kernel(), *masks(cards), s.wild_rank, s.rules)


def _leave_deal(s: State, me: int, points: int) -> State:
    """``me`` is out of this deal, paying ``points``."""
    return evolve(s, deal_points=replace_at(s.deal_points, me, points), in_deal=replace_at(s.in_deal, me, False),
                  missed=replace_at(s.missed, me, 0))


def _drop(s: State, me: int) -> State:
    first, middle = s.rules.drops(s.pool)
    out = _leave_deal(s, me, middle if s.drawn[me] else first)
    if s.rules.dropped_cards_to_stock and s.hands[me]:  # the cards go back into the stock, shuffled in
        above = play.shuffled(s.stock[1:] + s.hands[me], "indian", s.seed, "dropped", s.deal_no, me)
        out = evolve(out, stock=s.stock[:1] + tuple(above), hands=replace_at(s.hands, me, ()))
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
    """Losers still in the deal pay their loser points; totals, chips, elimination, game over."""
    points = list(s.deal_points)
    for p in range(s.players):
        if s.in_deal[p] and p != s.winner:
            points[p] = points_of(s, s.hands[p])
    scores = tuple(a + b for a, b in zip(s.scores, points, strict=True))
    eliminated = s.eliminated
    if s.pool is not None:
        eliminated = tuple(e or s.rules.eliminated(v, s.pool) for e, v in zip(s.eliminated, scores, strict=True))
    chips, chip_history = s.chips, s.chip_history
    if s.deals is not None:  # the winner takes each loser's points in chips (no more than the loser has)
        paid = [min(points[p], s.chips[p]) for p in range(s.players)]
        assert s.winner is not None
        chips = tuple(c - paid[p] + (sum(paid) if p == s.winner else 0) for p, c in enumerate(s.chips))
        chip_history = chip_history + (chips,)
    out = evolve(s, phase=Phase.DEAL_OVER, deal_points=tuple(points), scores=scores, eliminated=eliminated,
                 chips=chips, chip_history=chip_history, deal_history=s.deal_history + (tuple(points),),
                 deal_winners=s.deal_winners + (s.winner if s.winner is not None else -1,))
    if s.format == "points":
        return evolve(out, phase=Phase.GAME_OVER)
    return out


LEGACY_RULES = {"leaver": "drop_after_missed", "joker_from_discard": True, "dropped_cards_to_stock": False,
                "max_rejoins": 1, "toss_jokers": False}
"""How histories written before these options existed were played."""


def history_json(state: State) -> dict[str, Any]:
    return GAME.history(state)


def replay(data: dict[str, Any]) -> State:
    return GAME.replay(data)


def _start(rules: Rules | dict[str, Any], seed: int, players: int, pool: int | None, deals: int | None = None,
           chips: int | None = None) -> State:
    if isinstance(rules, dict):  # from a history: options it does not name are its era's rules
        legacy = {k: v for k, v in LEGACY_RULES.items() if k != "max_rejoins" or pool is not None and not deals}
        rules = Rules(**{**({} if "leaver" in rules else legacy), **rules})
    return new_game(players, rules, seed, pool, deals, chips)


GAME: play.Game[State] = play.Game(
    name="indian", action=Action, rules_type=None, start=_start,
    params=lambda s: {"players": s.players, "pool": s.pool,
                      **({"deals": s.deals, "chips": s.start_chips} if s.deals else {})},
    moves={
        Phase.DRAW: (play.Move(kind=Kind.DRAW_STOCK, do=_take_stock, verify=_why_not_draw_stock),
                     play.Move(kind=Kind.DRAW_DISCARD, do=_take_discard, verify=_why_not_draw_discard),
                     play.Move(kind=Kind.DROP, do=lambda s, a: _drop(s, s.to_play), verify=_why_not_present),
                     play.Move(kind=Kind.MISS_TURN, do=_miss_turn, verify=_why_not_present),
                     play.Move(kind=Kind.LEAVE, do=lambda s, a: evolve(s, left=replace_at(s.left, s.to_play, True)),
                               verify=_why_not_present),
                     play.Move(kind=Kind.RECONNECT, verify=_why_not_reconnect,
                               do=lambda s, a: evolve(s, left=replace_at(s.left, s.to_play, False),
                                                      missed=replace_at(s.missed, s.to_play, 0)))),
        Phase.DISCARD: (play.Move(kind=Kind.DISCARD, do=_discard, verify=_why_not_discard,
                                  candidates=play.each_card(Action, Kind.DISCARD)),
                        play.Move(kind=Kind.DECLARE, do=_discard, verify=_why_not_declare, candidates=lambda s: ()),
                        play.Move(kind=Kind.DROP, do=lambda s, a: s, verify=_why_not_drop_now)),
        Phase.DEAL_OVER: (play.Move(kind=Kind.REJOIN, do=_rejoin, verify=_why_not_rejoin,
                                    candidates=lambda s: [Action(Kind.REJOIN, player=p) for p in range(s.players)]),
                          play.Move(kind=Kind.NEXT_DEAL, do=_next_deal, verify=_why_not_next_deal),
                          play.Move(kind=Kind.FINISH, do=lambda s, a: evolve(s, phase=Phase.GAME_OVER),
                                    verify=_why_not_finish)),
    },
    hints={Phase.DRAW: N_("draw first (stock or discard pile), or drop"), Phase.DISCARD: _DISCARD},
    where=lambda s: _("deal {deal}, {phase}, player {player}").format(deal=s.deal_no, phase=s.phase.value,
                                                                       player=s.to_play),
)


def standings(state: State) -> Any:
    """After each deal played so far, each player's points, running total and (deals rummy)
    chips: a polars DataFrame, one row per deal and player."""
    import polars as pl

    rows = []
    totals = [0] * state.players
    for d, points in enumerate(state.deal_history):
        for p in range(state.players):
            totals[p] += points[p]
            row = {"deal": d + 1, "player": p, "won": state.deal_winners[d] == p, "points": points[p],
                   "total": totals[p]}
            if state.deals is not None:
                row["chips"] = state.chip_history[d][p]
            rows.append(row)
    schema = {"deal": pl.Int64, "player": pl.Int64, "won": pl.Boolean, "points": pl.Int64, "total": pl.Int64}
    if state.deals is not None:
        schema["chips"] = pl.Int64
    return pl.DataFrame(rows, schema=schema)
