"""Three-handed gin "in the box", the game (docs/rules.md): the box plays alone against a team
whose captain plays and whose third player sits out; roles rotate after each hand.

Each hand is a two-handed gin hand (``rummylab.gin.game``) with the box in seat 0
(the box deals every hand) and the captain in seat 1; the moves are gin's, played on
that hand, and the end of a hand scores it and rotates the roles.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Literal

from .. import chance, play
from ..cards import DECK, SeedLike, rng_from
from ..i18n import N_
from ..play import check_seed
from . import game as g
from .players import Bot, make_bot
from .rules import THREE_HANDED, Rules

Result = Literal["box_won", "box_lost", "draw"]


@dataclass(frozen=True)
class Roles:
    """Who is in the box, who captains the team, who sits out; the box deals."""

    box: str
    captain: str
    sitting_out: str
    dealer: str = ""

    def __post_init__(self) -> None:
        if len({self.box, self.captain, self.sitting_out}) != 3:
            raise ValueError(f"three different players are needed, not {self.box}, {self.captain}, {self.sitting_out}")
        if self.dealer and self.dealer != self.box:
            raise ValueError(f"the box deals every hand: dealer {self.dealer!r} is not the box {self.box!r}")
        object.__setattr__(self, "dealer", self.box)


def next_roles(roles: Roles, result: Result) -> Roles:
    """Roles for the next hand: a winning box stays and the others swap; a losing box
    sits out, the captain moves into the box and the sitter captains; a draw changes nothing."""
    if result == "box_won":
        return Roles(box=roles.box, captain=roles.sitting_out, sitting_out=roles.captain)
    if result == "box_lost":
        return Roles(box=roles.captain, captain=roles.sitting_out, sitting_out=roles.box)
    if result == "draw":
        return Roles(box=roles.box, captain=roles.captain, sitting_out=roles.sitting_out)
    raise ValueError(f"result {result!r}: 'box_won', 'box_lost' or 'draw'")


def _check_players(players: Sequence[str]) -> None:
    if len(players) != 3 or len(set(players)) != 3:
        raise ValueError(f"three-handed gin needs three different players, not {list(players)!r}")


def draw_for_roles(players: Sequence[str], seed: SeedLike) -> Roles:
    """Each player draws a card: high card in the box, middle captain, low sits out
    (ranks K high to A low; ties draw again)."""
    _check_players(players)
    rng = rng_from(seed)
    while True:
        drawn = rng.choice(52, size=3, replace=False)
        ranks = [DECK[int(i)].rank for i in drawn]
        if len(set(ranks)) == 3:
            order = sorted(range(3), key=lambda i: -ranks[i])
            return Roles(box=players[order[0]], captain=players[order[1]], sitting_out=players[order[2]])


@dataclass(frozen=True, kw_only=True)
class HandSummary:
    roles: Roles
    kind: str
    result: Result
    points: int
    scorer: str | None
    """The box, or the captain for the team; never the player sitting out."""


@dataclass(frozen=True, kw_only=True)
class State:
    """A three-handed game: the current hand, the roles and each player's score."""

    rules: Rules
    seed: int
    players: tuple[str, str, str]
    roles: Roles
    hand: g.State
    scores: dict[str, int]
    hands: tuple[HandSummary, ...] = ()
    over: bool = False
    history: tuple[g.Action, ...] = field(default=(), repr=False)

    @property
    def phase(self) -> g.Phase:
        """The hand's phase; GAME_OVER once a player has reached the target."""
        return g.Phase.GAME_OVER if self.over else self.hand.phase

    @property
    def to_play(self) -> str:
        """The player who acts now: the box or the captain."""
        return self.roles.box if self.hand.to_play == 0 else self.roles.captain

    @property
    def winner(self) -> str | None:
        return max(self.scores, key=self.scores.__getitem__) if self.over else None


def _fresh_hand(rules: Rules, seed: int, deal_no: int) -> g.State:
    return g.deal_hand(hand_rules(rules), seed, deal_no, dealer=0)


def hand_rules(rules: Rules) -> Rules:
    """The rules each hand is dealt under: a two-handed game that never ends (the scores are kept
    per player here, and the rollout bot values each hand by its points)."""
    return replace(rules, target=10**9, match_games=1)


def new_game(players: Sequence[str] = ("P1", "P2", "P3"), rules: Rules = THREE_HANDED, seed: int = 0) -> State:
    """Draw for roles and deal the first hand."""
    if not isinstance(rules, Rules):
        raise ValueError(f"rules={rules!r}: three-handed gin needs rummylab.gin.Rules")
    rules.check_three_handed()
    check_seed(seed)
    _check_players(players)

    def start() -> State:
        box, captain, sitting_out = ROLE_ORDERS[play.chosen(len(ROLE_ORDERS), "roles", lambda: roles_drawn(seed))]
        roles = Roles(box=players[box], captain=players[captain], sitting_out=players[sitting_out])
        return State(rules=rules, seed=seed, players=(players[0], players[1], players[2]), roles=roles,
                     hand=_fresh_hand(rules, seed, 0), scores={p: 0 for p in players})

    return play.begin(start)


PLAYERS = ("P1", "P2", "P3")
"""The players of a simulation."""
ROLE_ORDERS: tuple[tuple[int, int, int], ...] = tuple((a, b, c) for a, b, c in itertools.permutations(range(3)))
"""The ways three players can hold (box, captain, sitting out): a roles draw's outcome is one."""


def roles_drawn(seed: int) -> int:
    """Which of ROLE_ORDERS the game's draw for roles gives (``draw_for_roles`` on its stream)."""
    roles = draw_for_roles(PLAYERS, chance.stream("box", seed, "roles"))
    return ROLE_ORDERS.index((PLAYERS.index(roles.box), PLAYERS.index(roles.captain),
                              PLAYERS.index(roles.sitting_out)))


def legal_actions(state: State) -> list[g.Action]:
    return GAME.legal_actions(state)


def apply(state: State, action: g.Action) -> State:
    """The state after the box or the captain acts; raises ``IllegalAction`` and changes nothing."""
    return GAME.apply(state, action)


def _next_hand(state: State, action: g.Action) -> State:
    return play.evolve(state, hand=_fresh_hand(state.rules, state.seed, state.hand.deal_no + 1))


def _after(state: State, new_hand: g.State) -> State:
    """The three-handed state after a move in the hand: a finished hand is scored, roles rotate."""
    if new_hand.phase is not g.Phase.HAND_OVER:
        return play.evolve(state, hand=new_hand)
    rec = new_hand.records[-1]
    roles = state.roles
    if rec.winner is None:
        result: Result = "draw"
        scorer = None
    else:
        result = "box_won" if rec.winner == 0 else "box_lost"
        scorer = roles.box if rec.winner == 0 else roles.captain
    scores = dict(state.scores)
    if scorer is not None:
        scores[scorer] += rec.points
    summary = HandSummary(roles=roles, kind=rec.kind, result=result, points=rec.points, scorer=scorer)
    over = max(scores.values()) >= state.rules.target
    if over:
        scores = final_scores(state.rules, scores)
    return play.evolve(state, hand=new_hand, roles=next_roles(roles, result), scores=scores,
                       hands=state.hands + (summary,), over=over)


def final_scores(rules: Rules, scores: dict[str, int]) -> dict[str, int]:
    """A finished game's scores: the leader (the first player on a tie) adds ``game_bonus``."""
    top = max(scores, key=scores.__getitem__)
    return {p: v + (rules.game_bonus if p == top else 0) for p, v in scores.items()}


def _on_hand(move: play.Move[g.State]) -> play.Move[State]:
    """A gin move played on the current hand."""
    return play.Move(kind=move.kind, do=lambda s, a: _after(s, move.do(s.hand, a)),
                     verify=lambda s, a: move.verify(s.hand, a),
                     candidates=(lambda s: move.candidates(s.hand)) if move.candidates else None)  # type: ignore[misc]


def sitter_advice(state: State, bot: Bot | None = None) -> g.Action | None:
    """The sitter's suggestion for the captain (a hint to show, never forced), or None
    when the box is to play."""
    if state.over or state.hand.to_play != 1:
        return None
    return (bot or make_bot("strong", 0)).act(state.hand)


def history_json(state: State) -> dict[str, Any]:
    return GAME.history(state)


def replay(data: dict[str, Any]) -> State:
    return GAME.replay(data)


GAME: play.Game[State] = play.Game(
    name="gin_three_handed", action=g.Action, rules_type=Rules,
    start=lambda rules, seed, players: new_game(players, rules, seed),
    params=lambda s: {"players": list(s.players)},
    moves={**{phase: tuple(_on_hand(m) for m in moves) for phase, moves in g.GAME.moves.items()
              if phase not in (g.Phase.HAND_OVER, g.Phase.GAME_OVER)},
           g.Phase.HAND_OVER: (play.Move(kind=g.Kind.NEXT_HAND, do=_next_hand),)},
    hints={**g.GAME.hints, g.Phase.GAME_OVER: N_("the game is over"),
           g.Phase.HAND_OVER: N_("the hand is over, the next action is next_hand")},
    where=lambda s: g.GAME.where(s.hand),
)


def play_game(bots: dict[str, Bot], rules: Rules = THREE_HANDED, seed: int = 0,
              players: Sequence[str] = ("P1", "P2", "P3"), max_actions: int = 200_000) -> State:
    """One game to the target; ``bots`` maps each player to the bot that plays for them."""
    return play.play_out(GAME, new_game(players, rules, seed), lambda s: bots[s.to_play].act(s.hand),
                         lambda s: s.over, max_actions)
