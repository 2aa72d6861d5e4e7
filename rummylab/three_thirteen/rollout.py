"""Three Thirteen rounds played on from any state: a state as the compiled loop's row, and the
penalty each player pays when greedy bots play many states to the round's scoring, in the
compiled loop when it is built, else on the Python engine, which makes the same moves
(tests/test_three_thirteen_rollout.py)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ..cards import deck_masks
from ..sim import codes, play_loops
from .game import Phase, State, apply
from .players import GreedyBot
from .simulation import BOT_CODES, ROUND_COLUMNS

STATE_COLUMNS = codes.THIRTEEN.columns["state"]
"""A state row's columns (rummylab/sim/codes.py)."""
_COL = {name: i for i, name in enumerate(STATE_COLUMNS)}
_PHASE_CODE = {Phase[name]: i for i, name in enumerate(codes.THIRTEEN.phases)}
_PENALTY = ROUND_COLUMNS.index("penalty")


def state_row(state: State) -> np.ndarray:
    """``state`` (a round in play: a draw or a discard) as one int64 state row."""
    if state.phase not in (Phase.DRAW, Phase.DISCARD):
        raise ValueError(f"phase {state.phase.value}: a rollout starts from a round in play")
    row = np.full(len(STATE_COLUMNS), -1, dtype=np.int64)
    for name, value in (("round_no", state.round_no), ("dealer", state.dealer), ("to_play", state.to_play),
                        ("phase", _PHASE_CODE[state.phase]),
                        ("taken", -1 if state.taken is None else state.taken.bit.bit_length() - 1),
                        ("went_out", -1 if state.went_out is None else state.went_out),
                        ("final_turns", state.final_turns), ("reshuffles", state.reshuffles),
                        ("n_stock", len(state.stock)), ("n_pile", len(state.discards))):
        row[_COL[name]] = value
    for p, hand in enumerate(state.hands):
        once, twice, thrice, _ = deck_masks(hand)
        for name, mask in (("once", once), ("twice", twice), ("thrice", thrice)):
            row[_COL[f"{name}_{p}"]] = np.int64(mask)
    at = _COL["stock_0"]
    row[at:at + len(state.stock)] = [c.bit.bit_length() - 1 for c in state.stock]
    at = _COL["pile_0"]
    row[at:at + len(state.discards)] = [c.bit.bit_length() - 1 for c in state.discards]
    return row


def _rngs(seed: int, players: int) -> list[np.random.Generator]:
    """A rollout's generator for each seat's bot."""
    return [np.random.default_rng([seed, p]) for p in range(players)]


def play_out(state: State, seed: int) -> tuple[int, ...]:
    """The penalty each player pays this round when greedy bots play ``state`` to the round's
    scoring on the Python engine (``seed``: the bots' generators)."""
    round_no = state.round_no
    bots = [GreedyBot(rng) for rng in _rngs(seed, state.players)]
    for _ in range(codes.THIRTEEN.limits["MAX_ACTIONS"]):
        if state.phase in (Phase.ROUND_OVER, Phase.GAME_OVER) or state.round_no != round_no:
            return state.round_scores[-1]
        state = apply(state, bots[state.to_play].act(state))
    raise RuntimeError("a rollout did not end its round")  # pragma: no cover - the stalled throw ends it


def penalties(states: Sequence[State], seeds: Sequence[int], *, engine: bool = False) -> np.ndarray:
    """The penalty each player pays this round (one row per state, a column per player) when
    greedy bots play each state on from its seed: in the compiled loop when it is built (and not
    ``engine``), else on the Python engine. The states share their rules and players."""
    if len(states) != len(seeds):
        raise ValueError(f"{len(states)} states and {len(seeds)} seeds: one seed per state")
    if not states:
        return np.zeros((0, 0), dtype=np.int64)
    first = states[0]
    players = first.players
    out = np.zeros((len(states), players), dtype=np.int64)
    going = []
    for i, s in enumerate(states):
        if s.phase in (Phase.DRAW, Phase.DISCARD):
            going.append(i)
        else:  # a round over is as it was scored
            out[i] = s.round_scores[-1]
    loops = None if engine else play_loops()
    if loops is None:
        for i in going:
            out[i] = play_out(states[i], int(seeds[i]))
    elif going:
        rules = first.rules
        rows = loops.rollout_thirteen(
            rules.kernel(), np.stack([state_row(states[i]) for i in going]),
            np.array([states[i].seed for i in going], dtype=np.uint64), [BOT_CODES["greedy"]] * players,
            [_rngs(int(seeds[i]), players) for i in going],
            codes.options_dict(codes.THIRTEEN, {"decks": first.decks, "points": list(rules.points)}))
        out[going] = rows[:, _PENALTY].reshape(len(going), players)
    return out
