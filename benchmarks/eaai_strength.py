"""rummylab's gin bots against the EAAI ports (benchmarks/eaai: the simple player and MARJJ v5,
the 2021 winner) in mirrored pairs: games to 100 under ``gin.EAAI``, each deal played twice with
the seats swapped, the 95 % interval of the share of games won clustered by pair.

    python benchmarks/eaai_strength.py --pairs 200 --bot rollout --opponent marjj_v5
    python benchmarks/eaai_strength.py --pairs 200 --bot rollout:strong:64 --opponent expert

A bot is a rummylab name, a port's name, or ``rollout:POLICY:SAMPLES[:MODEL[:HORIZON[:SURE]]]`` (the
rollout bot with its rollout policy, worlds per option, world model, horizon and the standard errors
by which the rollouts overrule the expert, "none": the rollouts alone; POLICY may be a pair,
"greedy/greedy@0": its own seat's, then the opponent's). On the engine, one core.

Targets (issue 40): the rollout bot at ≤ 10 ms a decision wins ≥ 60 % against MARJJ v5 and ≥ 80 %
against the simple player; the expert ≥ 50 % against MARJJ v5.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).parent))

from eaai.marjj import MarjjV5Player  # noqa: E402
from eaai.simple import SimpleGinRummyPlayer  # noqa: E402

from rummylab.gin import EAAI  # noqa: E402
from rummylab.gin.bots import make_bot, play_game  # noqa: E402
from rummylab.gin.rollout_bot import SURE, RolloutBot  # noqa: E402

PORTS = {"eaai_simple": SimpleGinRummyPlayer, "marjj_v5": MarjjV5Player}


class Timed:
    """A bot whose decisions are timed."""

    def __init__(self, bot: Any) -> None:
        self.bot, self.name, self.seconds, self.decisions = bot, bot.name, 0.0, 0

    def act(self, state: Any) -> Any:
        t = time.perf_counter()
        action = self.bot.act(state)
        self.seconds += time.perf_counter() - t
        self.decisions += 1
        return action


def bot(name: str, seed: int) -> Any:
    if name in PORTS:
        return PORTS[name](seed)
    if name.startswith("rollout:"):
        _, policy, samples, *more = name.split(":")
        pair = tuple(policy.split("/")) if "/" in policy else policy  # "greedy/greedy@0": mine, then theirs
        sure = SURE if len(more) < 3 else None if more[2] == "none" else float(more[2])
        return RolloutBot(seed, samples=int(samples), policy=pair, model=more[0] if more else "kept",  # type: ignore[arg-type]
                          horizon=more[1] if len(more) > 1 else "hand", sure=sure)
    return make_bot(name, seed)


def pairs(name: str, opponent: str, n: int, first: int = 0) -> tuple[np.ndarray, np.ndarray, float]:
    """(per pair: the share of its two games ``name`` won, per pair: its points a game minus the
    opponent's, ms a decision of ``name``)."""
    won, margin = np.zeros(n), np.zeros(n)
    timed_s, decisions = 0.0, 0
    for i in range(n):
        seed = first + i
        for seat in (0, 1):
            me = Timed(bot(name, seed))
            players = [bot(opponent, seed), bot(opponent, seed)]
            players[seat] = me
            end = play_game(players, EAAI, seed=seed)
            won[i] += end.games_won[seat] / 2
            margin[i] += (end.scores[seat] - end.scores[1 - seat]) / 2
            timed_s += me.seconds
            decisions += me.decisions
    return won, margin, 1000 * timed_s / max(decisions, 1)


def mirrored(games: int, first: int, player: Any, ports: tuple[str, ...] = ("marjj_v5", "eaai_simple")) -> None:
    """``games`` mirrored pairs (seeds ``first`` on) of ``player(seed)`` against each port in turn,
    for what the player records of them."""
    for name in ports:
        for seed in range(first, first + games):
            for seat in (0, 1):
                players = [PORTS[name](seed), PORTS[name](seed)]
                players[seat] = player(seed)
                play_game(players, EAAI, seed=seed)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pairs", type=int, default=100)
    ap.add_argument("--bot", default="rollout")
    ap.add_argument("--opponent", default="marjj_v5")
    ap.add_argument("--first", type=int, default=0, help="the first pair's seed")
    args = ap.parse_args()
    t = time.perf_counter()
    won, margin, ms = pairs(args.bot, args.opponent, args.pairs, args.first)
    half = 1.96 * won.std(ddof=1) / np.sqrt(len(won))
    print(f"{args.bot} against {args.opponent}: {won.mean():.1%} of games (95 % {won.mean() - half:.1%}–"
          f"{won.mean() + half:.1%}) over {args.pairs} mirrored pairs; {margin.mean():+.1f} points a game; "
          f"{ms:.1f} ms a decision; {time.perf_counter() - t:.0f} s")


if __name__ == "__main__":
    main()
