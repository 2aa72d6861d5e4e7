"""Play the EAAI ports against rummylab's bots on rummylab's engine under the EAAI rules.

    .venv/bin/python benchmarks/eaai/versus.py --games 200 --bots greedy strong --ports eaai_simple marjj_v5
    .venv/bin/python benchmarks/eaai/versus.py --games 1000 --ports marjj_v5 --bots eaai_simple  # vs java/VersusEaai

Each pairing plays ``--games`` games to 100 points, seats swapped every other game, game ``i``
seeded ``i`` (so every pairing sees the same deals). Prints games won by the port, with a 95%
interval, and mean points per game.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent.parent))

from eaai.marjj import MarjjV5Player  # noqa: E402
from eaai.simple import SimpleGinRummyPlayer  # noqa: E402
from rummylab.gin.players import BOTS, play_game  # noqa: E402
from rummylab.gin.rules import Rules  # noqa: E402

EAAI_RULES = Rules(gin_bonus=25, undercut_bonus=25, big_gin_bonus=None, undercut_on_tie=True, knock_limit=10,
                   target=100, game_bonus=0, box_bonus=0, shutout="none", dead_hand_stock=2)
"""The EAAI challenge's rules (README.md) as rummylab options."""
PORTS = {"eaai_simple": SimpleGinRummyPlayer, "marjj_v5": MarjjV5Player}
MAKERS = {**BOTS, **PORTS}


def versus(port: str, bot: str, games: int) -> tuple[int, float, float]:
    """(games the port won, its mean score minus the bot's, seconds)."""
    won, margin, start = 0, 0.0, time.perf_counter()
    for i in range(games):
        seat = i % 2
        players = [MAKERS[bot](i), MAKERS[bot](i)]
        players[seat] = PORTS[port](i)
        end = play_game(players, EAAI_RULES, seed=i)
        won += end.games_won[seat]
        margin += end.scores[seat] - end.scores[1 - seat]
    return won, margin / games, time.perf_counter() - start


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--bots", nargs="+", default=["greedy", "strong"], choices=sorted(MAKERS))
    ap.add_argument("--ports", nargs="+", default=list(PORTS), choices=sorted(PORTS))
    args = ap.parse_args(argv)
    print("| port | opponent | games | port won | 95% interval | mean margin | s |")
    print("|---|---|---:|---:|---|---:|---:|")
    for port in args.ports:
        for bot in args.bots:
            won, margin, secs = versus(port, bot, args.games)
            p = won / args.games
            half = 1.96 * math.sqrt(p * (1 - p) / args.games)
            print(f"| {port} | {bot} | {args.games} | {won} ({p:.0%}) | {max(0, p - half):.0%}-{min(1, p + half):.0%} "
                  f"| {margin:+.1f} | {secs:.1f} |")


if __name__ == "__main__":
    main()
