"""Three Thirteen's loop starts anywhere (issue 40, point 1): a round in play loaded from its
state row and played to its scoring by the compiled loop makes the engine's moves, for two to
eight players, every round, rounds whose stock was rebuilt from the pile."""

from __future__ import annotations

import numpy as np
import pytest

from rummylab.sim import play_loops
from rummylab.three_thirteen import game, rollout
from rummylab.three_thirteen.players import GreedyBot, PlannerBot

pytestmark = pytest.mark.once  # the compiled loop against the engine


def _mid_round_states(n: int, seed: int) -> list[game.State]:
    """States of ``n`` games some way into a round, cut at a random action."""
    rng = np.random.default_rng(seed)
    out: list[game.State] = []
    while len(out) < n:
        players = int(rng.integers(2, 9))
        s = game.new_game(players, seed=int(rng.integers(2**31)))
        bots = [(PlannerBot if rng.random() < 0.5 else GreedyBot)(int(rng.integers(2**31))) for _ in range(players)]
        for _ in range(int(rng.integers(0, 600))):
            if s.phase is game.Phase.GAME_OVER:
                break
            s = game.apply(s, game.NEXT_ROUND if s.phase is game.Phase.ROUND_OVER else bots[s.to_play].act(s))
        if s.phase in (game.Phase.DRAW, game.Phase.DISCARD):
            out.append(s)
    return out


def test_a_rollout_from_any_state_makes_the_engines_moves() -> None:
    assert play_loops() is not None, "the compiled loop is not built"
    states = _mid_round_states(80, seed=2)
    assert len({s.players for s in states}) >= 5 and len({s.round_no for s in states}) >= 5
    assert any(s.went_out is not None for s in states)
    by_players: dict[int, list[int]] = {}
    for i, s in enumerate(states):
        by_players.setdefault(s.players, []).append(i)
    for members in by_players.values():
        group = [states[i] for i in members]
        seeds = [5 * i + 1 for i in members]
        assert rollout.penalties(group, seeds).tolist() == rollout.penalties(group, seeds, engine=True).tolist()


def test_a_stock_rebuilt_from_the_pile_is_shuffled_as_the_engine_shuffles_it() -> None:
    """Rounds whose stock is nearly gone (its cards moved under the pile) end alike."""
    from dataclasses import replace

    states = [replace(s, stock=s.stock[-2:], discards=s.stock[:-2] + s.discards) for s in _mid_round_states(30, seed=3)]
    seeds = list(range(len(states)))
    by_players: dict[int, list[int]] = {}
    for i, s in enumerate(states):
        by_players.setdefault(s.players, []).append(i)
    for members in by_players.values():
        group, some = [states[i] for i in members], [seeds[i] for i in members]
        assert rollout.penalties(group, some).tolist() == rollout.penalties(group, some, engine=True).tolist()


def test_a_row_no_round_can_have_is_refused() -> None:
    loops = play_loops()
    assert loops is not None
    s = game.new_game(2, seed=3)
    row = rollout.state_row(s)
    row[rollout.STATE_COLUMNS.index("stock_0")] = row[rollout.STATE_COLUMNS.index("stock_1")]  # a card twice
    options = {"decks": s.decks, "points": list(s.rules.points)}
    with pytest.raises(ValueError, match="state row 0 is no round in play"):
        loops.rollout_thirteen(s.rules.kernel(), row[None, :], np.array([3], dtype=np.uint64), [0, 0],
                               [[np.random.default_rng(0), np.random.default_rng(1)]], options)
    short = rollout.state_row(s)  # every card once, but a hand one short: a card moved to the stock
    col = rollout.STATE_COLUMNS.index
    once, n_stock = int(short[col("once_0")]), int(short[col("n_stock")])
    card = once & -once
    pile = short[col("pile_0"):col("pile_0") + int(short[col("n_pile")])].copy()
    short[col("once_0")] = once & ~card
    short[col("stock_0") + n_stock] = card.bit_length() - 1
    short[col("n_stock")] = n_stock + 1
    short[col("pile_0"):col("pile_0") + len(pile)] = pile
    with pytest.raises(ValueError, match="state row 0 is no round in play .*wrong size"):
        loops.rollout_thirteen(s.rules.kernel(), short[None, :], np.array([3], dtype=np.uint64), [0, 0],
                               [[np.random.default_rng(0), np.random.default_rng(1)]], options)
    with pytest.raises(ValueError, match="one seed per state"):
        rollout.penalties([s], [1, 2])
