"""Indian rummy deals played on from any state: a state as the compiled loop's row, and the
points each player pays when greedy bots play many states to the deal's end, in the compiled
loop when it is built, else on the Python engine, which makes the same moves
(tests/test_indian_rollout.py)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ..cards import DECK, JOKER, Card
from ..sim import codes, play_loops
from .game import Phase, State, apply
from .players import GreedyBot
from .simulation import BOT_CODES, DEAL_COLUMNS, loop_options

STATE_COLUMNS = codes.INDIAN.columns["state"]
"""A state row's columns (rummylab/sim/codes.py)."""
_COL = {name: i for i, name in enumerate(STATE_COLUMNS)}
_PHASE_CODE = {Phase[name]: i for i, name in enumerate(codes.INDIAN.phases)}
_POINTS = DEAL_COLUMNS.index("points_0")
_FIELDS = {"in_deal": "in_deal", "drawn": "drawn", "missed": "missed", "left": "left", "deal_points": "deal_points",
           "score": "scores", "eliminated": "eliminated", "rejoins": "rejoins", "chips": "chips"}
"""A state row's per-player columns, and the state's field each is read from."""


def card_code(card: Card) -> int:
    """A card as the Indian loop numbers it: rank * 4 + suit, 52 for a printed joker."""
    return 52 if card.is_joker else card.rank * 4 + card.suit


_CODE = {c: card_code(c) for c in (*DECK, JOKER)}
"""Each card's code, looked up (a state row is written for every world of every option)."""


def state_row(state: State) -> np.ndarray:
    """``state`` (a deal in play: a draw or a discard) as one int64 state row."""
    if state.phase not in (Phase.DRAW, Phase.DISCARD):
        raise ValueError(f"phase {state.phase.value}: a rollout starts from a deal in play")
    row = np.full(len(STATE_COLUMNS), -1, dtype=np.int64)
    for name, value in (("deal_no", state.deal_no), ("dealer", state.dealer), ("to_play", state.to_play),
                        ("phase", _PHASE_CODE[state.phase]), ("wild", state.wild_rank),
                        ("reshuffles", state.reshuffles), ("taken", state.taken is not None),
                        ("n_stock", len(state.stock)), ("n_pile", len(state.discards))):
        row[_COL[name]] = value
    for p in range(state.players):
        row[_COL[f"seat_{p}"]] = state.seats[p]
        for column, field in _FIELDS.items():
            values = getattr(state, field)
            row[_COL[f"{column}_{p}"]] = values[p] if values else 0  # chips: deals rummy only
        hand = state.hands[p]
        row[_COL[f"n_hand_{p}"]] = len(hand)
        at = _COL[f"hand_{p}_0"]
        row[at:at + len(hand)] = [_CODE[c] for c in hand]
    at = _COL["stock_0"]
    row[at:at + len(state.stock)] = [_CODE[c] for c in state.stock]
    at = _COL["pile_0"]
    row[at:at + len(state.discards)] = [_CODE[c] for c in state.discards]
    return row


def _rngs(seed: int, players: int) -> list[np.random.Generator]:
    """A rollout's generator for each seat's bot."""
    return [np.random.default_rng([seed, p]) for p in range(players)]


def play_out(state: State, seed: int, *, drops: bool = False) -> tuple[int, ...]:
    """The points each player pays this deal when greedy bots play ``state`` to the deal's end on
    the Python engine (``seed``: the bots' generators)."""
    bots = [GreedyBot(rng, drops=drops) for rng in _rngs(seed, state.players)]
    deal = state.deal_no
    for _ in range(codes.INDIAN.limits["MAX_ACTIONS"]):
        if state.phase in (Phase.DEAL_OVER, Phase.GAME_OVER) or state.deal_no != deal:
            return state.deal_points
        state = apply(state, bots[state.to_play].act(state))
    raise RuntimeError("a rollout did not end its deal")  # pragma: no cover - a deal ends by the stock's rules


def deal_points(states: Sequence[State], seeds: Sequence[int], *, drops: bool = False,
                engine: bool = False) -> np.ndarray:
    """The points each player pays this deal (one row per state, a column per player) when greedy
    bots play each state on from its seed: in the compiled loop when it is built (and not
    ``engine``), else on the Python engine. The states share their rules, players and format."""
    if len(states) != len(seeds):
        raise ValueError(f"{len(states)} states and {len(seeds)} seeds: one seed per state")
    if not states:
        return np.zeros((0, 0), dtype=np.int64)
    first = states[0]
    out = np.array([s.deal_points for s in states], dtype=np.int64)  # a deal over is as it ended
    going = [i for i, s in enumerate(states) if s.phase in (Phase.DRAW, Phase.DISCARD)]
    loops = None if engine else play_loops()
    if loops is None:
        for i in going:
            out[i] = play_out(states[i], int(seeds[i]), drops=drops)
    elif going:
        rules, players = first.rules, first.players
        options = loop_options(rules, players, first.pool, first.deals, greedy_drops=drops)
        deals = loops.rollout_indian(rules.kernel(), rules.declaration_kernel(),
                                     np.stack([state_row(states[i]) for i in going]),
                                     np.array([states[i].seed for i in going], dtype=np.uint64),
                                     [BOT_CODES["greedy"]] * players,
                                     [_rngs(int(seeds[i]), players) for i in going], options)
        out[going] = deals[:, _POINTS:_POINTS + players]
    return out

