"""Three-handed gin "in the box" (docs/rules.md): the box plays alone against a team
whose captain plays and whose third player sits out; roles rotate after each hand.

Each hand is a two-handed gin hand (``rummylab.gin.game``) with the box in seat 0
(the box deals every hand) and the captain in seat 1; the moves are gin's, played on
that hand, and the end of a hand scores it and rotates the roles.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

import numpy as np

from .. import chance, play
from ..cards import DECK, SeedLike, rng_from
from ..play import check_seed
from ..sim import chance_rows, codes, driver, following, play_loops
from ..sim.driver import Family, Simulation, no_rows
from . import expert
from . import game as g
from .analysis import gin_kernel
from .game import Kind as g_kind
from .game import Phase as game_phase
from .loop import BOT_CODES, ENDS, TURN_COLUMNS, bot_spec, loop_options
from .players import BOTS, Bot, make_bot
from .rules import THREE_HANDED, Rules
from .simulation import (
    _DECK_BITS,
    engine_bots,
    loop_rngs,
    turn_frame,
    turn_row,
)

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
    return g.deal_hand(_hand_rules(rules), seed, deal_no, dealer=0)


def _hand_rules(rules: Rules) -> Rules:
    from dataclasses import replace
    return replace(rules, target=10**9, match_games=1)  # one hand at a time: scores are kept here


def new_game(players: Sequence[str] = ("P1", "P2", "P3"), rules: Rules = THREE_HANDED, seed: int = 0) -> State:
    """Draw for roles and deal the first hand."""
    if not isinstance(rules, Rules):
        raise ValueError(f"rules={rules!r}: three-handed gin needs rummylab.gin.Rules")
    rules.check_three_handed()
    check_seed(seed)
    _check_players(players)

    def start() -> State:
        box, captain, sitting_out = ROLE_ORDERS[play.chosen(len(ROLE_ORDERS), "roles", lambda: _roles_drawn(seed))]
        roles = Roles(box=players[box], captain=players[captain], sitting_out=players[sitting_out])
        return State(rules=rules, seed=seed, players=(players[0], players[1], players[2]), roles=roles,
                     hand=_fresh_hand(rules, seed, 0), scores={p: 0 for p in players})

    return play.begin(start)


ROLE_ORDERS: tuple[tuple[int, int, int], ...] = tuple((a, b, c) for a, b, c in itertools.permutations(range(3)))
"""The ways three players can hold (box, captain, sitting out): a roles draw's outcome is one."""


def _roles_drawn(seed: int) -> int:
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
    hints={**g.GAME.hints, g.Phase.GAME_OVER: "the game is over",
           g.Phase.HAND_OVER: "the hand is over, the next action is next_hand"},
    where=lambda s: g.GAME.where(s.hand),
)


def play_game(bots: dict[str, Bot], rules: Rules = THREE_HANDED, seed: int = 0,
              players: Sequence[str] = ("P1", "P2", "P3"), max_actions: int = 200_000) -> State:
    """One game to the target; ``bots`` maps each player to the bot that plays for them."""
    return play.play_out(GAME, new_game(players, rules, seed), lambda s: bots[s.to_play].act(s.hand),
                         lambda s: s.over, max_actions)


PLAYERS = ("P1", "P2", "P3")
"""The players of a simulation."""
BOX_COLUMNS = codes.GIN.columns["box"]


def play_engine(table: Simulation, start: int, stop: int,
                chances: Mapping[int, play.Outcomes] | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Games start..stop of a table played by the Python engine (P1, P2, P3): int64 rows of
    BOX_COLUMNS (winning seat 0 the box, 1 the captain, -1 a dead hand) and, with
    ``table.trace``, rows of gin's TURN_COLUMNS whose player is 0-2. ``chances``: per game, the
    chance outcomes to make again (``sim.trace_outcomes``)."""
    hands: list[tuple[int, ...]] = []
    turns: list[tuple[int, ...]] = []
    for gno in range(start, stop):
        hand_no, follow = 0, following(chances, gno)
        bots = dict(zip(PLAYERS, engine_bots(table, gno), strict=True))
        state = play.begin(lambda: new_game(PLAYERS, table.rules, int(table.seeds[gno])), follow)  # noqa: B023
        if table.trace:
            turns += chance_rows(gno, 0, 0, state.history, len(TURN_COLUMNS))
        while not state.over:
            action = bots[state.to_play].act(state.hand)
            after = GAME.apply(state, action, follow)
            if action.kind is g_kind.NEXT_HAND:
                hand_no += 1
                if table.trace:
                    turns += chance_rows(gno, hand_no, 0, after.history[len(state.history) + 1:], len(TURN_COLUMNS))
            else:
                if table.trace:
                    turns.append(turn_row(gno, hand_no, PLAYERS.index(state.to_play), state.hand, action, after.hand))
                if after.hand.phase is game_phase.HAND_OVER:
                    rec, roles = after.hand.records[-1], state.roles
                    hands.append((gno, hand_no, PLAYERS.index(roles.box), PLAYERS.index(roles.captain),
                                  PLAYERS.index(roles.sitting_out), ENDS.index(rec.kind),
                                  -1 if rec.winner is None else rec.winner, rec.points, rec.turns))
            state = after
        if follow is not None:
            follow.check_done()
    return (np.array(hands, dtype=np.int64).reshape(-1, len(BOX_COLUMNS)),
            np.array(turns, dtype=np.int64).reshape(-1, len(TURN_COLUMNS)))


def play_chunk(table: Simulation, start: int, stop: int) -> tuple[np.ndarray, np.ndarray]:
    """Games start..stop of a table: in the compiled loop when it is built and every bot is a
    spec, else on the engine."""
    loops = play_loops()
    if loops is None or table.engine_only:
        return play_engine(table, start, stop)
    seeds = table.seeds[start:stop]
    drawn = [_roles_drawn(int(x)) for x in seeds]
    roles = np.array([ROLE_ORDERS[d] for d in drawn], dtype=np.int64).reshape(-1, 3)
    loops.set_expert(*expert.constants(table.rules))
    hands, turns = loops.play_box(
        gin_kernel(), np.ascontiguousarray(seeds, dtype=np.uint64), [BOT_CODES[b[0]] for b in table.bots],
        loop_rngs(table, start, stop), roles, _DECK_BITS, trace=table.trace, first_game=start,
        **loop_options(table.bots, table.rules))
    if turns is None:
        return hands, no_rows(TURN_COLUMNS)
    # the roles are drawn here, not in the loop: each game's trace starts with their chance row
    games = np.arange(start, stop)
    rows = np.array([row for g, d in zip(games, drawn, strict=True)
                     for row in chance_rows(int(g), 0, 0, [play.Chance("roles", value=d)], len(TURN_COLUMNS))],
                    dtype=np.int64).reshape(-1, len(TURN_COLUMNS))
    return hands, np.insert(turns, np.searchsorted(turns[:, 0], games), rows, axis=0)


def box_frame(rows: tuple[np.ndarray, ...], table: Simulation) -> Any:
    """One row per hand: the roles by name, how it ended, its scorer, and each game's winner and
    final scores with its game bonus (total_P1, total_P2, total_P3)."""
    import polars as pl

    name = pl.col  # readability below: player indices to names
    names_of = dict(enumerate(PLAYERS))
    df = pl.DataFrame(rows[0], schema=list(BOX_COLUMNS), orient="row")
    df = df.with_columns(
        scorer_i=pl.when(name("winning_seat") == 0).then(name("box"))
        .when(name("winning_seat") == 1).then(name("captain")))
    # each game's final scores (final_scores: with the game bonus) and its winner, the leader
    points = {game: dict.fromkeys(PLAYERS, 0) for game in sorted(df["game"].unique().to_list())}
    for game, who, v in df.drop_nulls("scorer_i").select("game", "scorer_i", "points").iter_rows():
        points[game][PLAYERS[who]] += v
    finals = {game: final_scores(table.rules, s) for game, s in points.items()}
    games = pl.DataFrame({"game": list(finals), "winner_i": [PLAYERS.index(max(s, key=s.__getitem__))
                                                             for s in points.values()],
                          **{f"total_{p}": [f[p] for f in finals.values()] for p in PLAYERS}},
                         schema={"game": pl.Int64, "winner_i": pl.Int64, **{f"total_{p}": pl.Int64 for p in PLAYERS}})
    return df.join(games, on="game", how="left", maintain_order="left").with_columns(
        *[name(c).replace_strict(names_of, return_dtype=pl.Utf8) for c in ("box", "captain", "sitting_out")],
        kind=name("kind").replace_strict(dict(enumerate(ENDS)), return_dtype=pl.Utf8),
        result=name("winning_seat").replace_strict({0: "box_won", 1: "box_lost", -1: "draw"}, return_dtype=pl.Utf8),
        scorer=name("scorer_i").replace_strict(names_of, default=None, return_dtype=pl.Utf8),
        winner=name("winner_i").replace_strict(names_of, default=None, return_dtype=pl.Utf8),
    ).select("game", "hand", "box", "captain", "sitting_out", "kind", "result", "points", "scorer", "winner",
             "turns", *(f"total_{p}" for p in PLAYERS))


def box_turns(turns: np.ndarray, table: Simulation) -> Any:
    """Gin's trace frame, the player named P1, P2 or P3 (null for a chance outcome)."""
    import polars as pl

    return turn_frame(turns).with_columns(
        player=pl.col("player").replace_strict(dict(enumerate(PLAYERS)), default=None, return_dtype=pl.Utf8))


def _check(rules: Rules, players: int, options: dict[str, Any]) -> dict[str, Any]:
    rules.check_three_handed()
    return options


FAMILY = Family(name="three-handed gin", rules=Rules, bots=BOTS, seats=(3, 3), tables=(BOX_COLUMNS, TURN_COLUMNS),
                play=play_chunk, frame=box_frame, turns=box_turns, spec=bot_spec, check=_check)
"""Three-handed gin, as the simulation driver plays it."""


def simulate(n_games: int, bots: Sequence[str | Bot] = ("greedy", "greedy", "greedy"),
             rules: Rules = THREE_HANDED, seed: SeedLike = 0, *, scheduler: str | None = None,
             workers: int | None = None, progress: bool = False) -> Any:
    """Play ``n_games`` games between P1, P2 and P3; a polars DataFrame with one row per hand, and
    each game's final scores with its game bonus (total_P1, total_P2, total_P3) on its rows.

    Named bots play in the compiled loop when it is built, in chunks, on Dask with ``scheduler``
    (see ``rummylab.gin.bots.simulate``); bot objects play in this process on the engine."""
    return driver.simulate(FAMILY, n_games, bots, rules, seed, scheduler=scheduler, workers=workers,
                           progress=progress)


def trace(n_games: int, bots: Sequence[str | Bot] = ("greedy", "greedy", "greedy"),
          rules: Rules = THREE_HANDED, seed: SeedLike = 0, *, scheduler: str | None = None,
          workers: int | None = None, progress: bool = False) -> Any:
    """The turns of the games ``simulate`` plays with the same arguments (gin's trace columns;
    the player is P1, P2 or P3)."""
    return driver.trace(FAMILY, n_games, bots, rules, seed, scheduler=scheduler, workers=workers,
                        progress=progress)
