"""Gin hands played on from any state: a state as the compiled loop's row, the rollout of many
rows (one first action each, then a named bot per seat to the hand's end), and its twin on the
Python engine, which makes the same moves (tests/test_evaluation.py)."""

from __future__ import annotations

import time
from collections.abc import Collection, Sequence
from dataclasses import dataclass

import numpy as np

from ..cards import BIT_CARD
from ..screening import Effort
from ..sim import codes, play_loops
from . import expert
from .analysis import gin_kernel
from .game import Action, Phase, State, apply, replace
from .loop import ACTIONS, BOT_CODES, ENDS, HAND_COLUMNS, BotSpec, loop_options, spec_bot
from .players import DRAWING, Bot

STATE_COLUMNS = codes.GIN.columns["state"]
"""A state row's columns (rummylab/sim/codes.py)."""
_COL = {name: i for i, name in enumerate(STATE_COLUMNS)}
_STOCK, _PILE = _COL["stock_0"], _COL["pile_0"]
_PHASE_CODE = {Phase[name]: i for i, name in enumerate(codes.GIN.phases)}
_ACTION_CODE: dict[object, int] = {kind: i for i, kind in enumerate(ACTIONS)}
POLICIES = tuple(b for b in codes.GIN.bots if b != "rollout")
"""The bots a rollout may play each seat with (every bot of the loop but the rollout bot: no
rollouts within rollouts); a greedy or strong one may be named with "+melds" (it takes a discard
only into a meld: ``GreedyBot.takes``) and with the deadwood it knocks at, "greedy@0" (only gin:
an opponent who plays for gin), ``policy_spec``."""
MELDS = "+melds"
"""A rollout policy's mark for a greedy or strong bot that takes a discard only into a meld."""


def policy_spec(policy: str) -> BotSpec:
    """A rollout policy's bot: "NAME", "NAME@K" (a greedy or strong bot that knocks at deadwood
    K or less: 0 plays for gin), "NAME+melds" or "NAME+melds@K" (taking a discard only into a
    meld). ValueError names a bad one."""
    name, at, knock = policy.partition("@") if isinstance(policy, str) else (policy, "", "")
    name, melds = (name[:-len(MELDS)], True) if isinstance(name, str) and name.endswith(MELDS) else (name, False)
    if name not in POLICIES or ((at or melds) and name not in ("greedy", "strong")) or (
            at and (not knock.isdigit() or not 0 <= int(knock) <= 10)):
        raise ValueError(f"policy {policy!r}: one of {', '.join(POLICIES)}, or greedy@K / strong@K "
                         "(knocks at deadwood K or less, 0 to 10), greedy+melds / strong+melds "
                         "(takes a discard only into a meld), or both (greedy+melds@K)")
    return BotSpec(name, int(knock) if at else None, "greedy", "melds" if melds else "lowers")


def state_row(state: State) -> np.ndarray:
    """``state`` (a hand in play: first upcard, draw or discard) as one int64 state row."""
    if state.phase not in (Phase.FIRST_UPCARD, Phase.DRAW, Phase.DISCARD):
        raise ValueError(f"phase {state.phase.value}: a rollout starts from a hand in play")
    row = np.full(len(STATE_COLUMNS), -1, dtype=np.int64)
    for i in (0, 1):
        row[_COL[f"hand_{i}"]] = state.hands[i]
        row[_COL[f"picked_{i}"]] = state.picked_up[i]
        row[_COL[f"thrown_{i}"]] = state.thrown[i]
        row[_COL[f"declined_{i}"]] = state.declined[i]
        row[_COL[f"score_{i}"]] = state.scores[i]
        row[_COL[f"knocked_{i}"]], row[_COL[f"passed_up_{i}"]] = expert.shown(state, i)
    row[_COL["taken"]] = state.taken.bit if state.taken else 0
    for name, value in (("phase", _PHASE_CODE[state.phase]), ("dealer", state.dealer), ("to_play", state.to_play),
                        ("passes", state.passes), ("turns", state.turns), ("deal_no", state.deal_no),
                        ("n_stock", len(state.stock)), ("n_pile", len(state.discards))):
        row[_COL[name]] = value
    row[_STOCK:_STOCK + len(state.stock)] = [c.bit.bit_length() - 1 for c in state.stock]
    row[_PILE:_PILE + len(state.discards)] = [c.bit.bit_length() - 1 for c in state.discards]
    return row


def with_hidden(row: np.ndarray, seat: int, hands: np.ndarray, stocks: np.ndarray) -> np.ndarray:
    """Rows of ``row`` (a state row) with ``seat``'s hand and the stock replaced, one per world:
    ``hands`` the seat's card masks, ``stocks`` the stock's cards by bit position, bottom first."""
    out = np.repeat(row[None, :], len(hands), axis=0)
    out[:, _COL[f"hand_{seat}"]] = hands
    out[:, _STOCK:_STOCK + stocks.shape[1]] = stocks
    return out


@dataclass(frozen=True)
class Outcome:
    """How each rolled-out hand ended, one entry per row: the winner (-1: none), the points,
    the ending's code (``ENDS``), the knocker (-1: none), the hand's turns and each player's
    deadwood at the end."""

    winner: np.ndarray
    points: np.ndarray
    kind: np.ndarray
    knocker: np.ndarray
    turns: np.ndarray
    deadwood_0: np.ndarray
    deadwood_1: np.ndarray

    def net(self, seat: int) -> np.ndarray:
        """Points ``seat`` won (negative: lost) in each hand."""
        sign = np.where(self.winner == seat, 1, np.where(self.winner == 1 - seat, -1, 0))
        return sign * self.points


def _outcome(hands: np.ndarray) -> Outcome:
    col = {name: i for i, name in enumerate(HAND_COLUMNS)}
    return Outcome(*(hands[:, col[name]] for name in ("winner", "points", "kind", "knocker", "turns", "deadwood_0",
                                                        "deadwood_1")))


def first_action_codes(actions: Sequence[Action | None]) -> tuple[np.ndarray, np.ndarray]:
    """(action code, card bit position or -1) per row: -1 for no first action."""
    code = np.array([-1 if a is None else _ACTION_CODE[a.kind] for a in actions], dtype=np.int64)
    card = np.array([-1 if a is None or a.card is None else a.card.bit.bit_length() - 1 for a in actions],
                    dtype=np.int64)
    return code, card


def rollout(rows: np.ndarray, first: Sequence[Action | None] | Action, bots: Sequence[str], state: State,
            rngs: Sequence[np.random.Generator | None] = (None, None)) -> Outcome:
    """Each state row's hand, its first action made (one a row, or one for every row; legal in the
    row's state: the caller checked) and then played by ``bots`` (one policy name a seat) to its end.
    ``state`` gives the rules. In the compiled loop when it is built, else on the engine (``play_out``)."""
    specs = [policy_spec(b) for b in bots]
    loops = play_loops()
    if loops is None:
        if isinstance(first, Action):
            first = [first] * len(rows)
        return _outcome(np.array([_record_row(play_out(_row_state(r, state), a, bots, rngs)) for r, a in
                                  zip(rows, first, strict=True)], dtype=np.int64).reshape(-1, len(HAND_COLUMNS)))
    loops.set_expert(*expert.constants(state.rules))
    code, card = first_action_codes([first] if isinstance(first, Action) else first)
    if isinstance(first, Action):  # one for every row
        code, card = np.repeat(code, len(rows)), np.repeat(card, len(rows))
    hands, _ = loops.rollout_gin(gin_kernel(), np.ascontiguousarray(rows, dtype=np.int64), code, card,
                                 [BOT_CODES[s[0]] for s in specs], list(rngs), **loop_options(specs, state.rules))
    return _outcome(hands)


def screened_in_loop(state: State, actions: Sequence[Action], hands: np.ndarray, stocks: np.ndarray,
                     bots: Sequence[str], rngs: Sequence[np.random.Generator | None], effort: Effort,
                     kept: Collection[int], units: tuple[np.ndarray, int] | None) -> list[np.ndarray] | None:
    """``screening.screened`` of ``actions`` in the worlds (``hands``, ``stocks``), each played on
    by ``bots`` as ``rollout`` plays it, in the compiled loop (``evaluate_gin``): each option's
    results, points or (``units``: ``equity.game_units``) the game's whole units, the same as
    the Python's screening of ``rollout``'s results. None when the loop is not built."""
    loops = play_loops()
    if loops is None:
        return None
    specs = [policy_spec(b) for b in bots]
    loops.set_expert(*expert.constants(state.rules))
    code, card = first_action_codes(actions)
    table, won = units if units is not None else (None, 0)
    budget = -1.0 if effort.deadline is None else max(0.0, effort.deadline - time.perf_counter())
    values, played = loops.evaluate_gin(
        gin_kernel(), state_row(state), np.ascontiguousarray(hands, dtype=np.int64),
        np.ascontiguousarray(stocks, dtype=np.int64), code, card,
        [BOT_CODES[s[0]] for s in specs], list(rngs), **loop_options(specs, state.rules), game_units=table,
        game_won=won, screen=effort.screen, reach=effort.reach, target_se=effort.target_se,
        option_se=effort.option_se, kept=np.array([i in kept for i in range(len(actions))], dtype=np.uint8),
        every_diff=effort.every_diff, budget_s=budget)
    return [values[i, :played[i]].astype(np.int64) for i in range(len(actions))]


def play_out(state: State, first: Action | None, bots: Sequence[str],
             rngs: Sequence[np.random.Generator | None] = (None, None)) -> State:
    """The engine's twin of one rollout: ``first`` (if any), then each seat's bot, to the hand's end."""
    specs = [policy_spec(b) for b in bots]
    players: list[Bot] = [spec_bot(spec, rngs[i] if spec[0] in DRAWING else None) for i, spec in enumerate(specs)]
    if first is not None:
        state = apply(state, first)
    while state.phase in (Phase.FIRST_UPCARD, Phase.DRAW, Phase.DISCARD):
        state = apply(state, players[state.to_play].act(state))
    return state


def _record_row(end: State) -> list[int]:
    r = end.records[-1]
    values = {"winner": -1 if r.winner is None else r.winner, "points": r.points, "kind": ENDS.index(r.kind),
              "knocker": -1 if r.knocker is None else r.knocker, "turns": r.turns, "deadwood_0": r.deadwoods[0],
              "deadwood_1": r.deadwoods[1], "dealer": end.dealer, "game": 0, "hand": 0}
    return [values[c] for c in HAND_COLUMNS]


def _row_state(row: np.ndarray, like: State) -> State:
    """The engine's state of a state row (rules, seed and history from ``like``)."""
    def cards(start: int, n: int) -> tuple:
        return tuple(BIT_CARD[1 << int(c)] for c in row[start:start + n])

    pair = lambda name: (int(row[_COL[f"{name}_0"]]), int(row[_COL[f"{name}_1"]]))  # noqa: E731
    taken = int(row[_COL["taken"]])
    return replace(like, phase=Phase[codes.GIN.phases[int(row[_COL["phase"]])]], dealer=int(row[_COL["dealer"]]),
                   to_play=int(row[_COL["to_play"]]), hands=pair("hand"), picked_up=pair("picked"),
                   thrown=pair("thrown"), declined=pair("declined"), scores=pair("score"),
                   taken=BIT_CARD[taken] if taken else None, passes=int(row[_COL["passes"]]),
                   turns=int(row[_COL["turns"]]), deal_no=int(row[_COL["deal_no"]]),
                   stock=cards(_STOCK, int(row[_COL["n_stock"]])), discards=cards(_PILE, int(row[_COL["n_pile"]])))


