"""Three Thirteen players: greedy, and a planner that keeps wild cards and looks one draw ahead."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from ..bots import stalled_throw
from ..cards import DECK, Card, SeedLike, deck_masks, rng_from, without
from ..kernel._wild_py import _add, _dead, _remove
from ..play import Outcomes, begin, play_out
from ..sim import card_code, chance_rows, codes, driver, following, play_loops, turns_frame
from ..sim.driver import Family, Table, no_rows
from .analysis import DEFAULT, Rules, penalty_after_discard, penalty_of_cards, penalty_of_masks
from .game import DRAW_DISCARD, DRAW_STOCK, GAME, MAX_PLAYERS, NEXT_ROUND, Action, Kind, Phase, State, new_game

_DECK_BITS = np.array([c.bit for c in DECK], dtype=np.uint64)


class GreedyBot:
    """Takes the discard when it lowers its penalty, goes out when it can, else discards the
    card whose loss costs least (the highest such card); in a stalled round (``rummylab.bots.STALLED``) it
    sometimes throws a random natural card instead."""

    name = "greedy"
    keeps_wilds = False

    def __init__(self, seed: SeedLike = None) -> None:
        self.rng = rng_from(seed)

    def _pen(self, state: State, cards: Sequence[Card]) -> int:
        return penalty_of_cards(cards, state.round_no, state.rules)

    def best_discards(self, state: State, hand: Sequence[Card]) -> list[tuple[int, Card]]:
        """(penalty after, card) for each distinct discard, best first."""
        w = state.wild_rank
        k = state.rules.kernel()
        masks = deck_masks(hand)[:3]
        options = []
        for c in sorted(set(hand)):
            if self.keeps_wilds and c.rank == w and any(x.rank != w for x in hand):
                continue
            options.append((penalty_of_masks(k, _remove(masks, c.bit), w), -state.rules.points[c.rank], c))
        options.sort()
        return [(p, c) for p, _, c in options]

    def wants_discard(self, state: State) -> bool:
        hand = state.hands[state.to_play]
        top = state.discards[-1]
        if self.keeps_wilds and top.rank == state.wild_rank:
            return True
        k, w = state.rules.kernel(), state.wild_rank
        masks = deck_masks(hand)[:3]
        now = penalty_of_masks(k, masks, w)
        return penalty_after_discard(k, _add(masks, top.bit), w) < now  # the top itself gives now

    def choose(self, state: State, ranked: list[tuple[int, Card]]) -> Card:
        return ranked[0][1]

    def act(self, state: State) -> Action:
        if state.phase is Phase.ROUND_OVER:
            return NEXT_ROUND
        if state.phase is Phase.DRAW:
            if state.discards and (not state.stock and len(state.discards) < 2 or self.wants_discard(state)):
                return DRAW_DISCARD
            return DRAW_STOCK
        hand = state.hands[state.to_play]
        ranked = self.best_discards(state, hand)
        if state.went_out is None and ranked[0][0] == 0:
            return Action(Kind.GO_OUT, ranked[0][1])
        thrown = stalled_throw(state, hand, self.rng)
        if thrown is not None:
            return Action(Kind.DISCARD, thrown)
        return Action(Kind.DISCARD, self.choose(state, self.paying(state, hand, ranked)))

    def paying(self, state: State, hand: Sequence[Card], ranked: list[tuple[int, Card]]) -> list[tuple[int, Card]]:
        """After taking the top discard, the discards that leave less penalty than before the take
        (or, for a wild card kept, no more): so bots never trade discards in a cycle."""
        if state.taken is None:
            return ranked
        before = self._pen(state, without(hand, state.taken))
        return ([pc for pc in ranked if pc[0] < before] or [pc for pc in ranked if pc[0] <= before]
                or ranked)


class PlannerBot(GreedyBot):
    """Never throws a wild card away, and among near-best discards keeps the hand whose
    expected penalty after the next stock draw is least (every unseen card, weighted by its
    unseen copies; the bot then discards its best card)."""

    name = "planner"
    keeps_wilds = True

    def choose(self, state: State, ranked: list[tuple[int, Card]]) -> Card:
        best = ranked[0][0]
        close = [c for p, c in ranked[:4] if p <= best + 5]
        if len(close) == 1:
            return close[0]
        hand = state.hands[state.to_play]
        seen = Counter(hand)
        seen.update(state.discards)
        unseen = [(c, n) for c in DECK if (n := state.decks - seen[c]) > 0]  # DECK order
        value = dict(zip(close, self._after_draws(state, [without(hand, c) for c in close], unseen), strict=True))
        return min(close, key=lambda c: (value[c], -state.rules.points[c.rank]))

    def _after_draws(self, state: State, hands: list[list[Card]], unseen: list[tuple[Card, int]]) -> list[float]:
        """For each hand, the expected penalty after the next stock draw and the best discard
        (every unseen card, weighted by its copies; a card that meets nothing is thrown
        straight back). Every hand after every draw is searched, with its best discard, in one batch."""
        w = state.wild_rank
        nows = [self._pen(state, h) for h in hands]
        held = np.array([deck_masks(h)[:3] for h in hands], dtype=np.uint64)  # (hands, 3)
        drawn_bits = np.array([u.bit for u, _ in unseen], dtype=np.uint64)
        o, t, h = (held[:, i, None] for i in range(3))
        # the hands after drawing each unseen card (_add), shape (hands, unseen)
        in_o, in_t = (o & drawn_bits) != 0, (t & drawn_bits) != 0
        drawn = (np.where(in_o, o, o | drawn_bits), np.where(in_o & ~in_t, t | drawn_bits, t),
                 np.where(in_t, h | drawn_bits, h))
        wild_rank = np.array([u.rank == w for u, _ in unseen], dtype=bool)
        dead = ((_dead(drawn, 1, True) & drawn_bits) != 0) & ~wild_rank  # type: ignore[arg-type]  # numpy too
        # each live draw's hand after its best discard, in one search each (the drawn card's own
        # discard gives the hand back: its penalty is ``now``)
        best = np.full(dead.shape, 1 << 30, dtype=np.int32)
        live = ~dead
        if live.any():
            found = np.empty(int(live.sum()), dtype=np.int32)
            state.rules.kernel().penalty_batch(drawn[0][live], drawn[1][live], w, found, thrice=drawn[2][live],
                                               related=True, discard=True)
            best[live] = found
        copies = np.array([n for _, n in unseen], dtype=np.int64)
        weight = float(copies.sum())
        out = []
        for i, now in enumerate(nows):
            # whole numbers: the sum is exact in any order, as in the compiled loop
            total = float(copies @ np.where(dead[i], now, np.minimum(best[i], now)).astype(np.int64))
            out.append(total / weight if weight else now)
        return out


BOTS: dict[str, type[GreedyBot]] = {"greedy": GreedyBot, "planner": PlannerBot}


def make_bot(name: str, seed: SeedLike = None) -> GreedyBot:
    if name not in BOTS:
        raise ValueError(f"unknown bot {name!r}: choose from {', '.join(BOTS)}")
    return BOTS[name](seed)


def play_game(bots: Sequence[GreedyBot], rules: Rules = DEFAULT, seed: int = 0,
              max_actions: int = 200_000) -> State:
    """Play one game of 11 rounds and return its final state."""
    return play_out(GAME, new_game(len(bots), rules, seed), lambda s: bots[s.to_play].act(s),
                    lambda s: s.phase is Phase.GAME_OVER, max_actions)


BOT_CODES = {name: i for i, name in enumerate(codes.THIRTEEN.bots)}
"""The bots as the compiled loop numbers them."""
ROUND_COLUMNS = codes.THIRTEEN.columns["round"]
TURN_COLUMNS = codes.THIRTEEN.columns["turn"]
ACTIONS = tuple(Kind[name] for name in codes.THIRTEEN.actions)
"""The actions of a turn, as the compiled loop numbers them."""


def hand_penalty(state: State, player: int) -> int:
    """A hand's penalty; with a drawn card (round + 3 cards) after its best discard."""
    hand, k, w = state.hands[player], state.rules.kernel(), state.wild_rank
    masks = deck_masks(hand)[:3]
    if len(hand) != state.round_no + 3:
        return penalty_of_masks(k, masks, w)
    return penalty_after_discard(k, masks, w)


def play_engine(table: Table, start: int, stop: int,
                chances: Mapping[int, Outcomes] | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Games start..stop of a table played by the Python engine: int64 rows of ROUND_COLUMNS, one
    per player per round, and with ``table.trace`` rows of TURN_COLUMNS. ``chances``: per game,
    the chance outcomes to make again (``sim.trace_outcomes``)."""
    rows: list[tuple[int, ...]] = []
    turns: list[tuple[int, ...]] = []
    for g in range(start, stop):
        bots, follow = engine_bots(table, g), following(chances, g)
        state = begin(lambda: new_game(len(bots), table.rules, int(table.seeds[g])), follow)  # noqa: B023
        if table.trace:
            turns += chance_rows(g, 1, 0, state.history, len(TURN_COLUMNS))
        turn = 0
        for _ in range(codes.THIRTEEN.limits["MAX_ACTIONS"] * 11):
            if state.phase is Phase.GAME_OVER:
                break
            action = bots[state.to_play].act(state)
            after = GAME.apply(state, action, follow)
            if action.kind is Kind.NEXT_ROUND:
                turn = 0
            else:
                me = state.to_play
                if table.trace:
                    turns.append((g, state.round_no, turn, me, ACTIONS.index(action.kind), card_code(action.card),
                                  hand_penalty(state, me), hand_penalty(after, me), len(after.stock)))
            if table.trace:
                turns += chance_rows(g, after.round_no, turn, after.history[len(state.history) + 1:], len(TURN_COLUMNS))
            turn += action.kind in (Kind.DISCARD, Kind.GO_OUT)
            if after.phase in (Phase.ROUND_OVER, Phase.GAME_OVER) and state.phase is Phase.DISCARD:
                rows.extend((g, after.round_no, p, pen, int(p == after.went_out))
                            for p, pen in enumerate(after.round_scores[-1]))
            state = after
        else:
            raise RuntimeError(f"Three Thirteen game {g} with seed {table.seeds[g]} did not finish")
        if follow is not None:
            follow.check_done()
    return (np.array(rows, dtype=np.int64).reshape(-1, len(ROUND_COLUMNS)),
            np.array(turns, dtype=np.int64).reshape(-1, len(TURN_COLUMNS)))


def engine_bots(table: Table, game: int) -> list[GreedyBot]:
    """One game's engine bots: a named bot on its seat's generator for the game (a stalled
    round's random discards); a bot object as it is."""
    rngs = table.rngs(game)
    return [make_bot(b, rngs[i]) if isinstance(b, str) else b for i, b in enumerate(table.bots)]


def play_chunk(table: Table, start: int, stop: int) -> tuple[np.ndarray, np.ndarray]:
    """Games start..stop of a table: in the compiled loop when it is built and every bot is named,
    else on the engine."""
    loops = play_loops()
    if loops is None or table.engine_only:
        return play_engine(table, start, stop)
    rules = table.rules
    rows, turns = loops.play_thirteen(
        rules.kernel(), np.ascontiguousarray(table.seeds[start:stop], dtype=np.uint64),
        [BOT_CODES[b] for b in table.bots], [table.rngs(g) for g in range(start, stop)], rules.points,
        rules.deck_count(table.players), _DECK_BITS, start, table.trace)
    return rows, turns if turns is not None else no_rows(TURN_COLUMNS)


def rounds_frame(rows: tuple[np.ndarray, ...], table: Table) -> Any:
    """One row per player per round: the bot's name, the round's penalty, the running total, and
    whether the player won the game (the lowest total after round 11) or went out."""
    import polars as pl

    df = pl.DataFrame(rows[0], schema=list(ROUND_COLUMNS), orient="row")
    df = df.with_columns(total=pl.col("penalty").cum_sum().over("game", "player", order_by="round"))
    low = df.filter(pl.col("round") == 11).group_by("game").agg(low=pl.col("total").min())
    return df.join(low, on="game", how="left").select(
        "game", "round", "player",
        bot=pl.col("player").replace_strict(dict(enumerate(table.names)), return_dtype=pl.Utf8),
        penalty="penalty", total="total", winner=(pl.col("round") == 11) & (pl.col("total") == pl.col("low")),
        went_out=pl.col("went_out").cast(pl.Boolean))


def _check(rules: Rules, players: int, options: dict[str, Any]) -> dict[str, Any]:
    decks = rules.deck_count(players)
    if players * 13 + 1 > 52 * decks:
        raise ValueError(f"{players} players need more than {decks} deck(s) for round 11")
    return options


FAMILY = Family(name="Three Thirteen", rules=Rules, bots=BOTS, seats=(2, MAX_PLAYERS),
                tables=(ROUND_COLUMNS, TURN_COLUMNS), play=play_chunk, frame=rounds_frame,
                turns=lambda turns, table: turns_frame(turns, TURN_COLUMNS, ACTIONS), check=_check, chunk_games=200)
"""Three Thirteen, as the simulation driver plays it."""


def simulate(n_games: int, bots: Sequence[str | GreedyBot] = ("greedy", "greedy"), rules: Rules = DEFAULT,
             seed: SeedLike = 0, *, scheduler: str | None = None, workers: int | None = None,
             progress: bool = False) -> Any:
    """Play ``n_games`` full games; a polars DataFrame with one row per player per round.

    Named bots play in the compiled loop when it is built, in chunks, on Dask with ``scheduler``
    (see ``rummylab.gin.bots.simulate``); bot objects play in this process on the engine."""
    return driver.simulate(FAMILY, n_games, bots, rules, seed, scheduler=scheduler, workers=workers,
                           progress=progress)


def trace(n_games: int, bots: Sequence[str | GreedyBot] = ("greedy", "greedy"), rules: Rules = DEFAULT,
          seed: SeedLike = 0, *, scheduler: str | None = None, workers: int | None = None,
          progress: bool = False) -> Any:
    """The turns of the games ``simulate`` plays with the same arguments: one row per action
    (game, round, turn, player, action, card, penalty before and after, stock left); a hand
    holding its drawn card is counted after its best discard."""
    return driver.trace(FAMILY, n_games, bots, rules, seed, scheduler=scheduler, workers=workers,
                        progress=progress)
