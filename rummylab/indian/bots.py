"""Indian rummy players: a random one (drops, leaves, wrong shows: for tests) and a greedy one."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..cards import RANKS, Card, SeedLike, rng_from, without
from ..play import play_out
from .analysis import best_declaration, loser_count, masks
from .game import (
    DRAW_DISCARD,
    DRAW_STOCK,
    DROP,
    FINISH,
    GAME,
    LEAVE,
    MISS_TURN,
    NEXT_DEAL,
    RECONNECT,
    Action,
    Kind,
    Phase,
    State,
    legal_actions,
    new_game,
    points_of,
)
from .rules import DEFAULT, Rules


class RandomBot:
    """Random legal moves; sometimes drops, leaves (and later reconnects), misses a turn or
    shows a wrong declaration."""

    name = "random"

    def __init__(self, seed: SeedLike = None, drop: float = 0.03, wrong_show: float = 0.03, leave: float = 0.005,
                 miss: float = 0.02, reconnect: float = 0.1) -> None:
        self.rng = rng_from(seed)
        self.p = {"drop": drop, "wrong_show": wrong_show, "leave": leave, "miss": miss, "reconnect": reconnect}

    def act(self, state: State) -> Action:
        if state.phase is not Phase.DRAW and state.phase is not Phase.DISCARD:
            acts = legal_actions(state)
            return acts[int(self.rng.integers(len(acts)))]
        if state.phase is Phase.DRAW:
            if state.left[state.to_play]:
                return RECONNECT if self.rng.random() < self.p["reconnect"] else MISS_TURN
            u = self.rng.random()
            for act, key in ((DROP, "drop"), (LEAVE, "leave"), (MISS_TURN, "miss")):
                if u < self.p[key]:
                    return act
                u -= self.p[key]
            draws = [a for a in (DRAW_STOCK, DRAW_DISCARD) if GAME.verify(state, a) is None]
            return draws[int(self.rng.integers(len(draws)))]
        hand = state.hands[state.to_play]
        card = hand[int(self.rng.integers(len(hand)))]
        if self.rng.random() < self.p["wrong_show"]:
            rest = without(hand, card)
            self.rng.shuffle(rest)  # type: ignore[arg-type]
            groups = tuple(tuple(rest[i:i + 3]) for i in range(0, 12, 3))
            return Action(Kind.DECLARE, card, groups[:-1] + (groups[-1] + (rest[12],),))
        return Action(Kind.DISCARD, card)


class GreedyBot:
    """Shows whenever a valid declaration exists, takes the discard when it lowers its loser
    points, throws the card that leaves the fewest points; with ``drops``, drops first when
    its dealt hand has no pure sequence and no joker (the common advice)."""

    name = "greedy"

    def __init__(self, seed: SeedLike = None, drops: bool = True) -> None:
        self.rng = rng_from(seed)
        self.drops = drops

    def ranked_discards(self, state: State, hand: Sequence[Card]) -> list[tuple[int, Card]]:
        """(points after, card) for each distinct discard, best first (dearest card on ties)."""
        w = state.wild_rank
        points = state.rules.kernel().points
        naturals = any(not (x.is_joker or x.rank == w) for x in hand)
        # never throw a joker while a natural card can go
        throwable = {c for c in hand if not (naturals and (c.is_joker or c.rank == w))}
        options = []
        for c, after in self._points_without(state, hand, throwable).items():
            value = 0 if c.is_joker or c.rank == w else points[c.rank]
            options.append((after, -value, c))
        options.sort()
        return [(p, c) for p, _, c in options]

    def _points_without(self, state: State, hand: Sequence[Card], cards: set[Card]) -> dict[Card, int]:
        """For each of ``cards``, the loser points of ``hand`` without one copy of it."""
        kernel, rules, w = state.rules.kernel(), state.rules, state.wild_rank
        once, twice, jokers = masks(hand)
        out = {}
        for c in sorted(cards):
            if c.is_joker:
                out[c] = loser_count(kernel, once, twice, jokers - 1, w, rules)
            elif twice & c.bit:
                out[c] = loser_count(kernel, once, twice ^ c.bit, jokers, w, rules)
            else:
                out[c] = loser_count(kernel, once ^ c.bit, twice, jokers, w, rules)
        return out

    def _hopeless(self, state: State, hand: Sequence[Card]) -> bool:
        once, twice, _ = masks(hand)
        jokers = sum(c.is_joker or c.rank == state.wild_rank for c in hand)
        return jokers == 0 and state.rules.kernel().best_pure_run(once, twice, state.wild_rank) < 0

    def act(self, state: State) -> Action:
        if state.phase is Phase.DEAL_OVER:
            acts = legal_actions(state)
            rejoin = [a for a in acts if a.kind == "rejoin"]
            return rejoin[0] if rejoin else (NEXT_DEAL if NEXT_DEAL in acts else FINISH)
        me = state.to_play
        hand = state.hands[me]
        if state.phase is Phase.DRAW:
            if state.left[me]:
                return MISS_TURN
            now = points_of(state, hand)
            if self.drops and not state.drawn[me] and self._hopeless(state, hand):
                return DROP
            if state.discards and GAME.verify(state, DRAW_DISCARD) is None:  # never a forbidden joker
                top = state.discards[-1]
                with_top = list(hand) + [top]
                if top.is_joker or top.rank == state.wild_rank or min(
                        self._points_without(state, with_top, set(hand)).values()) < now:
                    return DRAW_DISCARD
            return DRAW_STOCK if state.stock or len(state.discards) > 1 else DRAW_DISCARD
        dk = state.rules.declaration_kernel()
        rank = RANKS[state.wild_rank]
        for c in sorted(set(hand)):
            rest = without(hand, c)
            if dk.penalty(*masks(rest)[:2], state.wild_rank, masks(rest)[2], 1, 1) == 0:
                groups = best_declaration(rest, rank, state.rules)
                if groups is not None:
                    return Action(Kind.DECLARE, c, groups)
        return Action(Kind.DISCARD, self.ranked_discards(state, hand)[0][1])


def play(state: State, bots: Sequence[Any], max_actions: int = 20_000) -> State:
    """Play until the game is over (each player by its bot; the first bot between deals)."""
    return play_out(GAME, state, lambda s: (bots[0] if s.phase is Phase.DEAL_OVER else bots[s.to_play]).act(s),
                    lambda s: s.phase is Phase.GAME_OVER, max_actions)


BOTS = {"greedy": GreedyBot, "random": RandomBot}


def game_start(kinds: Sequence[str], players: int, pool: int | None, seed: int, rules: Rules, deals: int | None,
               game: int) -> tuple[list[Any], State]:
    """Game number ``game`` of a simulation: its bots and its first state, seeded by the number."""
    table = [BOTS[k](seed=seed * 7919 + game * 31 + i) for i, k in enumerate(kinds)]
    first = (new_game(players, rules, seed * 100_003 + game, pool=None, deals=deals) if deals
             else new_game(players, rules, seed * 100_003 + game, pool=pool))
    return table, first


def play_games(kinds: Sequence[str], players: int, pool: int | None, seed: int, rules: Rules, deals: int | None,
               start: int, stop: int) -> list[dict[str, int]]:
    """Games start..stop of a simulation: one row each (every game is seeded by its number)."""
    rows = []
    for g in range(start, stop):
        table, first = game_start(kinds, players, pool, seed, rules, deals, g)
        final = play(first, table)
        winner = final.game_winner
        rows.append({"game": g, "deals": final.deal_no, "winner": -1 if winner is None else winner,
                     **{f"score_{p}": final.scores[p] for p in range(players)},
                     **({f"chips_{p}": final.chips[p] for p in range(players)} if deals else {})})
    return rows


def simulate(games: int, players: int = 2, pool: int | None = 101, bots: Sequence[str] | None = None,
             seed: int = 0, rules: Rules = DEFAULT, deals: int | None = None, *, scheduler: str | None = None,
             workers: int | None = None, progress: bool = False) -> Any:
    """Play seeded games between bots ("greedy" or "random"); one row per game, as polars.

    ``pool`` 101 or 201 (pool rummy) or None (points rummy, one deal); ``deals`` 2, 3 or 6 plays
    deals rummy instead (then ``pool`` is not used). Chips columns come with deals rummy. Games
    play in chunks, on a Dask cluster with ``scheduler="dask"`` (``workers`` processes on
    127.0.0.1) or a scheduler's address: the same games either way."""
    import functools

    import polars as pl

    from ..simulation import run_chunks

    if isinstance(games, bool) or not isinstance(games, int) or games < 0:
        raise ValueError(f"games={games!r}: a whole number >= 0")
    kinds = list(bots or ["greedy"] * players)
    if len(kinds) != players:
        raise ValueError(f"{len(kinds)} bots for {players} players")
    for k in kinds:
        if k not in BOTS:
            raise ValueError(f"unknown bot {k!r}: one of {', '.join(BOTS)}")
    task = functools.partial(play_games, tuple(kinds), players, pool, seed, rules, deals)
    parts = run_chunks(task, games, scheduler=scheduler, workers=workers, progress=progress, chunk=20)
    return pl.DataFrame([row for part in parts for row in part])
