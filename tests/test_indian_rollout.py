"""Indian rummy's loop starts anywhere (issue 40, point 1): a deal in play loaded from its state
row and played to its end by the compiled loop makes the engine's moves, for two to six players,
points, pool and deals rummy, deals with leavers, wrong shows and reshuffled stocks."""

from __future__ import annotations

import numpy as np
import pytest

from rummylab.indian import game, rollout
from rummylab.indian.players import GreedyBot, RandomBot
from rummylab.sim import play_loops

pytestmark = pytest.mark.once  # the compiled loop against the engine


def _mid_deal_states(n: int, seed: int) -> list[game.State]:
    """States of ``n`` games some way into a deal: random and greedy players, two to six,
    points, pool and deals rummy, cut at a random action."""
    rng = np.random.default_rng(seed)
    out: list[game.State] = []
    while len(out) < n:
        players = int(rng.integers(2, 7))
        fmt = int(rng.integers(3))
        s = game.new_game(players, seed=int(rng.integers(2**31)), pool=(None, 101, None)[fmt],
                          deals=(None, None, 2)[fmt])
        bots = [(RandomBot if rng.random() < 0.3 else GreedyBot)(int(rng.integers(2**31))) for _ in range(players)]
        for _ in range(int(rng.integers(0, 400))):
            if s.phase is game.Phase.GAME_OVER:
                break
            s = game.apply(s, (bots[0] if s.phase is game.Phase.DEAL_OVER else bots[s.to_play]).act(s))
        if s.phase in (game.Phase.DRAW, game.Phase.DISCARD):
            out.append(s)
    return out


def test_a_rollout_from_any_state_makes_the_engines_moves() -> None:
    assert play_loops() is not None, "the compiled loop is not built"
    states = _mid_deal_states(120, seed=1)
    assert {s.players for s in states} == {2, 3, 4, 5, 6}
    assert any(s.reshuffles for s in states) and any(any(s.left) for s in states)
    assert any(not all(s.in_deal) for s in states)
    for drops in (False, True):
        by_shape: dict[tuple[object, ...], list[int]] = {}
        for i, s in enumerate(states):
            by_shape.setdefault((s.players, s.pool, s.deals, s.rules), []).append(i)
        for members in by_shape.values():
            group = [states[i] for i in members]
            seeds = [7 * i + 3 for i in members]
            compiled = rollout.deal_points(group, seeds, drops=drops)
            engine = rollout.deal_points(group, seeds, drops=drops, engine=True)
            assert compiled.tolist() == engine.tolist()


def test_reshuffled_stocks_are_shuffled_as_the_engine_shuffles_them() -> None:
    """Long deals (a stock rebuilt from the pile) end alike."""
    states = []
    for seed in range(40):
        s = game.new_game(2, seed=seed, pool=None)
        bot = RandomBot(seed, wrong_show=0, drop=0, leave=0, miss=0)
        while s.phase is not game.Phase.GAME_OVER and not s.reshuffles:
            s = game.apply(s, bot.act(s))
        if s.phase is not game.Phase.GAME_OVER:
            states.append(s)
    assert len(states) >= 5
    seeds = list(range(len(states)))
    assert rollout.deal_points(states, seeds).tolist() == rollout.deal_points(states, seeds, engine=True).tolist()


def test_a_row_no_deal_can_have_is_refused() -> None:
    loops = play_loops()
    assert loops is not None
    s = game.new_game(2, seed=3, pool=None)
    row = rollout.state_row(s)
    twice = row.copy()
    twice[rollout.STATE_COLUMNS.index("hand_0_0"):rollout.STATE_COLUMNS.index("hand_0_0") + 3] = 0  # three A♠
    options = rollout.loop_options(s.rules, 2, None, None, greedy_drops=False)
    rngs = [[np.random.default_rng(0), np.random.default_rng(1)]]
    with pytest.raises(ValueError, match="state row 0 is no deal in play"):
        loops.rollout_indian(s.rules.kernel(), s.rules.declaration_kernel(), twice[None, :],
                             np.array([3], dtype=np.uint64), [0, 0], rngs, options)
    short = row.copy()  # every card where it may be, but a hand of twelve: its last card moved to the stock
    col = rollout.STATE_COLUMNS.index
    n_hand, n_stock = int(short[col("n_hand_0")]), int(short[col("n_stock")])
    short[col("stock_0") + n_stock] = short[col("hand_0_0") + n_hand - 1]
    short[col("hand_0_0") + n_hand - 1], short[col("n_hand_0")], short[col("n_stock")] = -1, n_hand - 1, n_stock + 1
    with pytest.raises(ValueError, match="state row 0 is no deal in play .*wrong size"):
        loops.rollout_indian(s.rules.kernel(), s.rules.declaration_kernel(), short[None, :],
                             np.array([3], dtype=np.uint64), [0, 0], rngs, options)
    with pytest.raises(ValueError, match="0 to 4 printed jokers"):
        loops.rollout_indian(s.rules.kernel(), s.rules.declaration_kernel(), row[None, :],
                             np.array([3], dtype=np.uint64), [0, 0], rngs, {**options, "printed_jokers": 5})
    with pytest.raises(ValueError, match="phase game_over: a rollout starts from a deal in play"):
        rollout.state_row(game.apply(s, game.DROP))  # points rummy: a drop ends the game
    with pytest.raises(ValueError, match="one seed per state"):
        rollout.deal_points([s], [])
