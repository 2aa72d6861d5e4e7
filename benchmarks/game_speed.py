"""Gin game simulation on one core: full hands per second of the compiled play loop, the
Python engine playing the same games, and OpenSpiel's gin_rummy with random legal play (when
pyspiel is installed), measured in one run; Three Thirteen games and Indian rummy deals per
second; then each gin bot pairing's results, seats alternated.

    python benchmarks/game_speed.py [--hands 200000] [--seed 1]
"""

from __future__ import annotations

import argparse
import time
from unittest import mock

import numpy as np
import polars as pl

from rummylab.gin import bots, box_simulation, simulation, three_handed
from rummylab.sim import play_loops

PAIRS = [("greedy", "random"), ("strong", "greedy"), ("strong", "random"), ("expert", "strong")]


def hands_per_second(pair: tuple[str, str], n_hands: int, seed: int) -> tuple[float, int]:
    """(hands/s, hands) for whole games until n_hands hands, on the selected loop."""
    t = time.perf_counter()
    rows, k = 0, 0
    while rows < n_hands:
        rows += bots.simulate(max(50, n_hands // 40), pair, seed=seed + k).height
        k += 1
    return rows / (time.perf_counter() - t), rows


def engine_hands_per_second(pair: tuple[str, str], n_hands: int, seed: int) -> float:
    with mock.patch.object(simulation, "play_loops", lambda: None):
        return hands_per_second(pair, n_hands, seed)[0]


def openspiel_hands_per_second(n_hands: int, seed: int) -> float | None:
    """OpenSpiel's gin_rummy, random legal actions chosen in Python (None without pyspiel)."""
    try:
        import pyspiel  # type: ignore[import-not-found]
    except ImportError:
        return None
    game = pyspiel.load_game("gin_rummy")
    rng = np.random.default_rng(seed)
    t = time.perf_counter()
    for _ in range(n_hands):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[int(rng.integers(len(outcomes)))][0])
            else:
                legal = state.legal_actions()
                state.apply_action(legal[int(rng.integers(len(legal)))])
    return n_hands / (time.perf_counter() - t)


def pairing(first: str, second: str, n_games: int, seed: int) -> str:
    """Seats alternated: first's share of games and hands, and net points per hand with a 95% CI."""
    a = bots.simulate(n_games, (first, second), seed=seed).with_columns(first_seat=pl.lit(0))
    b = bots.simulate(n_games, (second, first), seed=seed + 1).with_columns(
        first_seat=pl.lit(1), game=pl.col("game") + n_games)
    df = pl.concat([a, b]).with_columns(
        net=pl.when(pl.col("winner") == pl.col("first_seat")).then(pl.col("points"))
        .when(pl.col("winner") == 1 - pl.col("first_seat")).then(-pl.col("points")).otherwise(0))
    games = df.group_by("game").agg(pl.col("net").sum())
    net = df["net"].to_numpy()
    half = 1.96 * net.std(ddof=1) / np.sqrt(len(net))
    won = float((df["winner"] == df["first_seat"]).mean())  # type: ignore[arg-type]
    return (f"{first} vs {second}: {df.height:,} hands, {games.height:,} games; {first} won "
            f"{float((games['net'] > 0).mean()):.1%} of games, {won:.1%} of hands, "  # type: ignore[arg-type]
            f"net {net.mean():+.2f} ± {half:.2f} points/hand (95% CI)")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--hands", type=int, default=200_000)
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args()
    loop = "compiled loop" if play_loops() is not None else "Python engine (the compiled loop is not built)"
    bots.simulate(20, ("greedy", "greedy"), seed=0)  # warm up (kernel tables)
    print(f"one core, {loop}; targets: greedy >= 80,000 hands/s (>= 40x OpenSpiel), strong >= 5,000, "
          "expert >= 2,000")
    spiel = openspiel_hands_per_second(max(200, args.hands // 400), args.seed)
    for pair, share in ((("greedy", "greedy"), 1), (("strong", "strong"), 4), (("expert", "expert"), 20)):
        speed, rows = hands_per_second(pair, args.hands // share, args.seed)
        engine = engine_hands_per_second(pair, max(2_000, args.hands // (50 * share)), args.seed)
        vs_spiel = f", {speed / spiel:.0f}x OpenSpiel random play ({spiel:,.0f} hands/s)" if spiel else (
            ", OpenSpiel not installed")
        print(f"{pair[0]} vs {pair[1]}: {speed:,.0f} full hands/s over {rows:,} hands; the Python engine "
              f"{engine:,.0f} hands/s ({speed / engine:.0f}x){vs_spiel}")

    t = time.perf_counter()
    df3 = three_handed.simulate(max(1, args.hands // 10), seed=args.seed)
    dt3 = time.perf_counter() - t
    with mock.patch.object(box_simulation, "play_loops", lambda: None):
        t = time.perf_counter()
        e3 = three_handed.simulate(max(1, args.hands // 500), seed=args.seed).height / (time.perf_counter() - t)
    print(f"three-handed, greedy x3: {df3.height / dt3:,.0f} hands/s; the Python engine {e3:,.0f} hands/s "
          f"({df3.height / dt3 / e3:.0f}x)")

    # the other families' targets (their own scripts measure more: three_thirteen_bots.py, indian_games.py)
    from rummylab.indian import bots as indian_bots
    from rummylab.three_thirteen import bots as tt_bots

    games = max(10, args.hands // 100)
    t = time.perf_counter()
    tt_bots.simulate(games, ("greedy", "greedy"), seed=args.seed)
    print(f"Three Thirteen, greedy vs greedy: {games / (time.perf_counter() - t):,.0f} full 11-round games/s "
          "(target >= 500)")
    t = time.perf_counter()
    deal_rows = indian_bots.play_rows(games, ("greedy", "greedy"), seed=args.seed, pool=101)[1]
    print(f"Indian rummy, greedy vs greedy (pool 101): {len(deal_rows) / (time.perf_counter() - t):,.0f} deals/s "
          "(target >= 5,000)")

    for first, second in PAIRS:
        print(pairing(first, second, max(100, args.hands // 20), args.seed))


if __name__ == "__main__":
    main()
