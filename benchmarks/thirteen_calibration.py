"""How well Three Thirteen's chance of winning the game (``three_thirteen.equity``) foretells games:
greedy games of ``--players`` played in the compiled loop (seeds other than the shipped
measurement's), and before each round every player's chance from the totals so far against
whether she won (a tie shared). Prints the mean chance and the share won by tenths of chance, and
the Brier score of the model against that of a fair 1/players.

    python benchmarks/thirteen_calibration.py --players 3 --games 4000
"""

from __future__ import annotations

import argparse

import numpy as np

from rummylab.three_thirteen import equity, rules, simulation


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--players", type=int, default=3)
    ap.add_argument("--games", type=int, default=4000)
    ap.add_argument("--seed", type=int, default=99)
    args = ap.parse_args()
    k = args.players
    df = simulation.simulate(args.games, ("greedy",) * k, rules=rules.DEFAULT, seed=args.seed)
    paid = df.sort("game", "round", "player")["penalty"].to_numpy().reshape(args.games, equity.ROUNDS, k)
    before = np.cumsum(paid, axis=1) - paid  # the totals before each round
    final = paid.sum(axis=1)
    won = (final == final.min(axis=1, keepdims=True)) / (final == final.min(axis=1, keepdims=True)).sum(
        axis=1, keepdims=True)
    chance, outcome = [], []
    for r in range(1, equity.ROUNDS + 1):
        for seat in range(k):
            chance.append(equity.players_win_chance(rules.DEFAULT, r, before[:, r - 1, :], seat))
            outcome.append(won[:, seat])
    c, o = np.concatenate(chance), np.concatenate(outcome)
    print(f"{k} players, {args.games} games, {len(c):,} (player, round) chances")
    print("| chance | cases | mean chance | share won |\n|---|---:|---:|---:|")
    for lo in np.arange(0, 1, 0.1):
        m = (c >= lo) & (c < lo + 0.1 if lo < 0.9 else c <= 1.0)
        if m.any():
            print(f"| {lo:.1f}–{lo + 0.1:.1f} | {m.sum():,} | {c[m].mean():.3f} | {o[m].mean():.3f} |")
    print(f"Brier score {np.mean((c - o) ** 2):.4f}; a fair 1/{k} scores {np.mean((1 / k - o) ** 2):.4f}")


if __name__ == "__main__":
    main()
