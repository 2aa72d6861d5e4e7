"""Indian rummy players: a random one (drops, leaves, wrong shows: for tests) and a greedy one."""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any

import numpy as np

from ..bots import stalled_throw
from ..cards import RANKS, Card, SeedLike, rng_from, without
from ..play import check_seed, play_out
from ..sim import check_count, codes, play_loops, run_chunks, stacked, turns_frame
from .analysis import best_declaration, masks
from .game import (
    CHIPS_PER_DEAL,
    DEFAULT_POOL,
    DRAW_DISCARD,
    DRAW_STOCK,
    DROP,
    FINISH,
    GAME,
    LEAVE,
    MAX_PLAYERS,
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
from .pools import REJOIN_MAX, REJOIN_MIN_REMAINING
from .rules import DEFAULT, SUIT_ORDER, Rules


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
    its dealt hand has no pure sequence and no joker (the common advice). In a stalled deal
    (``rummylab.bots.STALLED``) it sometimes throws a random natural card instead."""

    name = "greedy"

    def __init__(self, seed: SeedLike = None, drops: bool = True) -> None:
        self.rng = rng_from(seed)
        self.drops = drops

    def ranked_discards(self, state: State, hand: Sequence[Card],
                        after: dict[Card, int] | None = None) -> list[tuple[int, Card]]:
        """(points after, card) for each distinct discard, best first (dearest card on ties);
        ``after``: each card's points after it, when already known."""
        w = state.wild_rank
        points = state.rules.kernel().points
        naturals = any(not (x.is_joker or x.rank == w) for x in hand)
        # never throw a joker while a natural card can go
        throwable = {c for c in hand if not (naturals and (c.is_joker or c.rank == w))}
        if after is None:
            after = self._points_without(state, hand, throwable)
        options = []
        for c in throwable:
            value = 0 if c.is_joker or c.rank == w else points[c.rank]
            options.append((after[c], -value, c))
        options.sort()
        return [(p, c) for p, _, c in options]

    def _points_without(self, state: State, hand: Sequence[Card], cards: set[Card]) -> dict[Card, int]:
        """For each of ``cards``, the loser points of ``hand`` without one copy of it (one batch)."""
        rules = state.rules
        once, twice, jokers = masks(hand)
        order = sorted(cards)
        rows = [(once, twice, jokers - 1) if c.is_joker else (once, twice ^ c.bit, jokers) if twice & c.bit
                else (once ^ c.bit, twice, jokers) for c in order]
        a, b, j = (np.array(col, dtype=dt) for col, dt in zip(zip(*rows, strict=True),
                                                              (np.uint64, np.uint64, np.uint8), strict=True))
        out = np.empty(len(order), dtype=np.int32)
        rules.kernel().loser_points_batch(a, b, j, state.wild_rank, out, rules.no_second_life_rule == "exclude_pure",
                                          rules.cap, rules.valid_show_points, False)
        return dict(zip(order, out.tolist(), strict=True))

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
        # a valid declaration first (in Card order): only a hand whose every card fits can be one
        after = self._points_without(state, hand, set(hand))
        rules, w = state.rules, state.wild_rank
        fits = min(rules.valid_show_points, rules.cap)
        for c in sorted(after):
            if after[c] == fits:
                rest = without(hand, c)
                once, twice, jokers = masks(rest)
                if rules.declaration_kernel().penalty(once, twice, w, jokers, 1, 1) == 0:
                    groups = best_declaration(rest, RANKS[w], rules)
                    if groups is not None:
                        return Action(Kind.DECLARE, c, groups)
        thrown = stalled_throw(state, hand, self.rng)
        if thrown is not None:
            return Action(Kind.DISCARD, thrown)
        return Action(Kind.DISCARD, self.ranked_discards(state, hand, after)[0][1])


def play(state: State, bots: Sequence[Any], max_actions: int = codes.INDIAN.limits["MAX_ACTIONS"]) -> State:
    """Play until the game is over (each player by its bot; the first bot between deals)."""
    return play_out(GAME, state, lambda s: (bots[0] if s.phase is Phase.DEAL_OVER else bots[s.to_play]).act(s),
                    lambda s: s.phase is Phase.GAME_OVER, max_actions)


BOTS = {"greedy": GreedyBot, "random": RandomBot}
BOT_CODES = {name: i for i, name in enumerate(codes.INDIAN.bots)}
"""The bots as the compiled loop numbers them."""
ACTIONS = tuple(Kind[name] for name in codes.INDIAN.actions)
"""The actions, as the compiled loop numbers them."""
ENDINGS = codes.INDIAN.ends
"""How a deal ends: its last action is a valid or a wrong declaration, a drop, or a turn missed
by a player who left."""
GAME_COLUMNS = codes.INDIAN.columns["game"]
DEAL_COLUMNS = codes.INDIAN.columns["deal"]
TURN_COLUMNS = codes.INDIAN.columns["turn"]
_TURN_ENDS = (Kind.DISCARD, Kind.DECLARE, Kind.DROP, Kind.MISS_TURN)


def game_start(kinds: Sequence[str], players: int, pool: int | None, seed: int, rules: Rules, deals: int | None,
               game: int) -> tuple[list[Any], State]:
    """Game number ``game`` of a simulation: its bots and its first state, seeded by the number."""
    table = [BOTS[k](seed=bot_seed(seed, game, i)) for i, k in enumerate(kinds)]
    first = (new_game(players, rules, game_seed(seed, game), pool=None, deals=deals) if deals
             else new_game(players, rules, game_seed(seed, game), pool=pool))
    return table, first


def game_seed(seed: int, game: int) -> int:
    return seed * 100_003 + game


def bot_seed(seed: int, game: int, seat: int) -> int:
    return seed * 7919 + game * 31 + seat


def hand_points(state: State, player: int) -> int:
    """A hand's loser points; with a drawn card (14 cards) after its best discard; none: 0."""
    hand = state.hands[player]
    if not hand:
        return 0
    if len(hand) != 14:
        return points_of(state, hand)
    return min(points_of(state, without(hand, c)) for c in set(hand))


def _card_index(card: Card | None) -> int:
    return -1 if card is None else 64 if card.is_joker else card.bit.bit_length() - 1


def play_engine(kinds: Sequence[str], players: int, pool: int | None, seed: int, rules: Rules, deals: int | None,
                start: int, stop: int, trace: bool = False) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
    """Games start..stop played by the Python engine: int64 rows of GAME_COLUMNS (one per game),
    DEAL_COLUMNS (one per deal) and, with ``trace``, TURN_COLUMNS (one per player's action)."""
    games: list[tuple[int, ...]] = []
    deal_rows: list[tuple[int, ...]] = []
    turns: list[tuple[int, ...]] = []
    pad = (0,) * (MAX_PLAYERS - players)
    for g in range(start, stop):
        table, state = game_start(kinds, players, pool, seed, rules, deals, g)
        turn = 0
        for _ in range(codes.INDIAN.limits["MAX_ACTIONS"]):
            if state.phase is Phase.GAME_OVER:
                break
            between = state.phase is Phase.DEAL_OVER
            action = (table[0] if between else table[state.to_play]).act(state)
            after = GAME.apply(state, action)
            if action.kind is Kind.NEXT_DEAL:
                turn = 0
            if not between:
                me = state.to_play
                if trace:
                    turns.append((g, state.deal_no, turn, me, ACTIONS.index(action.kind), _card_index(action.card),
                                  hand_points(state, me), hand_points(after, me), len(after.stock)))
                turn += action.kind in _TURN_ENDS
                if after.phase in (Phase.DEAL_OVER, Phase.GAME_OVER):
                    ending = ((0 if after.winner == me else 1) if action.kind is Kind.DECLARE
                              else 2 if action.kind is Kind.DROP else 3)
                    deal_rows.append((g, after.deal_no, -1 if after.winner is None else after.winner, ending,
                                      *after.deal_points, *pad))
            state = after
        else:
            raise RuntimeError(f"Indian rummy game {g} with seed {game_seed(seed, g)} did not finish")
        winner = state.game_winner
        games.append((g, state.deal_no, -1 if winner is None else winner, *state.scores, *pad,
                      *(state.chips if deals else (0,) * players), *pad))
    return (np.array(games, dtype=np.int64).reshape(-1, len(GAME_COLUMNS)),
            np.array(deal_rows, dtype=np.int64).reshape(-1, len(DEAL_COLUMNS)),
            np.array(turns, dtype=np.int64).reshape(-1, len(TURN_COLUMNS)) if trace else None)


_RANDOM = RandomBot(seed=0).p


def loop_options(rules: Rules, players: int, pool: int | None, deals: int | None) -> dict[str, Any]:
    """The rules of one simulation's games, and the bots' options, as the compiled loop takes them."""
    first, middle = rules.drops(pool)
    none = codes.NO_LIMIT
    return {
        "pool": pool or 0, "deals": deals or 0, "start_chips": CHIPS_PER_DEAL * deals if deals else 0,
        "joker_from_discard": rules.joker_from_discard, "dropped_to_stock": rules.dropped_cards_to_stock,
        "autoplay": rules.leaver == "autoplay", "autoplay_turns": rules.autoplay_turns,
        "missed_turns_drop": rules.missed_turns_drop, "exceed": rules.elimination == "exceed",
        "max_rejoins": -1 if rules.max_rejoins is None else rules.max_rejoins,
        "rejoin_max": REJOIN_MAX.get(pool or 0, -1), "rejoin_min_remaining": REJOIN_MIN_REMAINING,
        "printed_jokers": rules.printed_jokers,
        "toss_jokers": rules.toss_jokers, "suit_place": [rules.toss_suit_order.index(s) for s in SUIT_ORDER],
        "wrong_show": rules.wrong_show_points, "first_drop": first, "middle_drop": middle, "cap": rules.cap,
        "valid_show": rules.valid_show_points, "exclude_pure": rules.no_second_life_rule == "exclude_pure",
        "ace_high": rules.ace_high, "wild_natural_pure": rules.wild_natural_in_pure,
        "duplicate_suits": rules.set_allow_duplicate_suits,
        "set_max": none if rules.set_max_size is None else rules.set_max_size,
        "max_jokers": none if rules.max_jokers_per_group is None else rules.max_jokers_per_group,
        "jokers_only": rules.jokers_only_group, "min_life": rules.min_life_length, "points": list(rules.points),
        "run_max": rules.sequence_max_size or 13,
        "p_drop": _RANDOM["drop"], "p_wrong": _RANDOM["wrong_show"], "p_leave": _RANDOM["leave"],
        "p_miss": _RANDOM["miss"], "p_reconnect": _RANDOM["reconnect"], "greedy_drops": True,
    }


def play_chunk(kinds: Sequence[str], players: int, pool: int | None, seed: int, rules: Rules, deals: int | None,
               trace: bool, start: int, stop: int) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
    """Games start..stop of a simulation (the compiled loop when it is built)."""
    loops = play_loops()
    if loops is None or game_seed(seed, stop) >= 2**64:
        return play_engine(kinds, players, pool, seed, rules, deals, start, stop, trace)
    codes = [BOT_CODES[k] for k in kinds]
    rngs = [[np.random.default_rng(bot_seed(seed, g, i)) for i in range(players)] for g in range(start, stop)]
    seeds = np.array([game_seed(seed, g) for g in range(start, stop)], dtype=np.uint64)
    return loops.play_indian(rules.kernel(), rules.declaration_kernel(), seeds, codes,  # type: ignore[no-any-return]
                             rngs, loop_options(rules, players, pool, deals), start, trace)


def play_games(kinds: Sequence[str], players: int, pool: int | None, seed: int, rules: Rules, deals: int | None,
               start: int, stop: int) -> list[dict[str, int]]:
    """Games start..stop of a simulation: one row each (every game is seeded by its number)."""
    games = play_chunk(kinds, players, pool, seed, rules, deals, False, start, stop)[0]
    return _games_frame(games, players, deals).to_dicts()  # type: ignore[no-any-return]


def _games_frame(rows: np.ndarray, players: int, deals: int | None) -> Any:
    """GAME_COLUMNS rows as polars, with the columns of this table's players (chips: deals rummy)."""
    import polars as pl

    columns = [0, 1, 2, *range(3, 3 + players), *(range(3 + MAX_PLAYERS, 3 + MAX_PLAYERS + players) if deals else ())]
    return pl.DataFrame(rows[:, columns], schema=[GAME_COLUMNS[c] for c in columns], orient="row")


def play_all(games: int, players: int = 2, pool: int | None = DEFAULT_POOL, bots: Sequence[str] | None = None,
             seed: int = 0, rules: Rules = DEFAULT, deals: int | None = None, *, scheduler: str | None = None,
             workers: int | None = None, progress: bool = False,
             trace: bool = False) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
    """The rows (games, deals, turns with ``trace``) of the games ``simulate`` plays."""
    check_count("games", games)
    check_seed(seed)
    if not isinstance(rules, Rules):
        raise ValueError(f"rules={rules!r}: Indian rummy needs rummylab.indian.Rules")
    new_game(players, rules, 0, pool=pool, deals=deals)  # checks players, pool, deals and the format's rules
    kinds = list(bots or ["greedy"] * players)
    if len(kinds) != players:
        raise ValueError(f"{len(kinds)} bots for {players} players")
    for k in kinds:
        if k not in BOTS:
            raise ValueError(f"unknown bot {k!r}: one of {', '.join(BOTS)}")
    pool = None if deals else None if pool is None else int(pool)
    task = functools.partial(play_chunk, tuple(kinds), players, pool, seed, rules, deals, trace)
    parts = run_chunks(task, games, scheduler=scheduler, workers=workers, progress=progress, chunk=500)
    return (stacked(parts, 0, len(GAME_COLUMNS)), stacked(parts, 1, len(DEAL_COLUMNS)),
            stacked(parts, 2, len(TURN_COLUMNS)) if trace else None)


def simulate(games: int, players: int = 2, pool: int | None = DEFAULT_POOL, bots: Sequence[str] | None = None,
             seed: int = 0, rules: Rules = DEFAULT, deals: int | None = None, *, scheduler: str | None = None,
             workers: int | None = None, progress: bool = False) -> Any:
    """Play seeded games between bots ("greedy" or "random"); one row per game, as polars.

    ``pool`` 101 (the default) or 201 (pool rummy) or None (points rummy, one deal); ``deals`` 2, 3
    or 6 plays deals rummy instead (then a ``pool`` named too is refused). Chips columns come with deals rummy. Games
    play in the compiled loop when it is built, in chunks, on a Dask cluster with
    ``scheduler="dask"`` (``workers`` processes on 127.0.0.1) or a scheduler's address: the same
    games either way."""
    rows = play_all(games, players, pool, bots, seed, rules, deals, scheduler=scheduler, workers=workers,
                    progress=progress)[0]
    return _games_frame(rows, players, deals)


def trace(games: int, players: int = 2, pool: int | None = DEFAULT_POOL, bots: Sequence[str] | None = None,
          seed: int = 0, rules: Rules = DEFAULT, deals: int | None = None, *, scheduler: str | None = None,
          workers: int | None = None, progress: bool = False) -> Any:
    """The turns of the games ``simulate`` plays with the same arguments: one row per player's
    action (game, deal, turn, player, action, card, loser points before and after, stock left);
    a hand holding its drawn card is counted after its best discard."""
    turns = play_all(games, players, pool, bots, seed, rules, deals, scheduler=scheduler, workers=workers,
                     progress=progress, trace=True)[2]
    assert turns is not None
    return turns_frame(turns, TURN_COLUMNS, ACTIONS)
