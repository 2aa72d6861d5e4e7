"""The expert's knock margin (what playing on for gin or an undercut is worth) under rule sets
with other undercut bonuses: the expert against the strong bot in the compiled loop, with the
margin ``expert.knock_margin`` picks and others beside it; then three-handed gin (undercut 10),
the expert in each seat in turn against two strong bots.

    python benchmarks/knock_margin.py [--hands 100000] [--games 30000] [--seed 3]
"""

from __future__ import annotations

import argparse
import dataclasses
from unittest import mock

import numpy as np
from bot_strength import _interval, net_points

from rummylab.gin import CLASSIC, DEFAULT, THREE_HANDED, Rules, expert, three_handed

CASES: list[tuple[str, Rules, tuple[float, ...]]] = [
    ("DEFAULT (gin 25, undercut 25)", DEFAULT, (0.0, 14.0, 25.0)),
    ("DEFAULT, undercut 18", dataclasses.replace(DEFAULT, undercut_bonus=18), (0.0, 14.0)),
    ("DEFAULT, undercut 10", dataclasses.replace(DEFAULT, undercut_bonus=10), (0.0, 6.0, 14.0)),
    ("CLASSIC (gin 20, undercut 10)", CLASSIC, (-4.0, 0.0, 6.0, 14.0)),
]


def three_handed_edge(games: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Per game: the expert's final total less the mean of the two strong bots', and whether it won."""
    edge, won = [], []
    for seat in range(3):
        players = ["strong"] * 3
        players[seat] = "expert"
        df = three_handed.simulate(games // 3, tuple(players), THREE_HANDED, seed=seed * 10 + seat)
        totals = df.group_by("game").first().select([f"total_P{i + 1}" for i in range(3)]).to_numpy()
        edge.append(totals[:, seat] - np.delete(totals, seat, axis=1).mean(axis=1))
        won.append(totals[:, seat] >= totals.max(axis=1))
    return np.concatenate(edge), np.concatenate(won)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--hands", type=int, default=100_000)
    p.add_argument("--games", type=int, default=30_000)
    p.add_argument("--seed", type=int, default=3)
    args = p.parse_args()
    print("| rules | knock margin | expert against strong, points a hand |\n|---|---:|---|")
    for label, rules, margins in CASES:
        shipped = expert.knock_margin(rules)
        for margin in sorted({*margins, shipped}):
            with mock.patch.object(expert, "knock_margin", lambda r, m=margin: m):
                points = net_points("expert", "strong", args.hands, args.seed, rules)
            mark = " (shipped)" if margin == shipped else ""
            print(f"| {label} | {margin:.3g}{mark} | {_interval(points)} ({len(points):,} hands) |", flush=True)
    print("\n| three-handed (undercut 10) | knock margin | expert's total less the strong bots' mean | games won |"
          "\n|---|---:|---|---:|")
    for margin in sorted({0.0, 14.0, expert.knock_margin(THREE_HANDED)}):
        with mock.patch.object(expert, "knock_margin", lambda r, m=margin: m):
            edge, won = three_handed_edge(args.games, args.seed)
        mark = " (shipped)" if margin == expert.knock_margin(THREE_HANDED) else ""
        print(f"| THREE_HANDED | {margin:.3g}{mark} | {_interval(edge)} | {won.mean():.1%} of {len(won):,} |",
              flush=True)


if __name__ == "__main__":
    main()
