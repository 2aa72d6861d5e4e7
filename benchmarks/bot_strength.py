"""rummylab's gin bots against OpenSpiel's simple gin bot, under OpenSpiel's rules (one hand;
gin 25, undercut 25, knock at 10; needs pyspiel: `pip install open-spiel`, never a dependency),
and against rummylab's strong bot in the compiled loop (whole games to 100, seats swapped every
game): points per hand with 95% confidence intervals.

    python benchmarks/bot_strength.py [--hands 20000] [--seed 1] [--bots expert,strong]
    python benchmarks/bot_strength.py --record tests/data/openspiel_expert_hands.json.gz --hands 500 --seed 5

Every hand against OpenSpiel's bot is also played again in rummylab's engine, where the bot
must make the adapter's every decision (``openspiel.follow_in_engine``). ``--record`` keeps the
hands (OpenSpiel's states at the bot's decisions included) for the suite's test of that, which
runs without pyspiel.

Targets (issue: the expert bot): against OpenSpiel's simple bot >= +3.0 points a hand (the interval
above +2.0 at the least); against strong >= +1.5.
"""

from __future__ import annotations

import argparse
import gzip
import json
import time
from importlib import metadata

import numpy as np
import polars as pl

from rummylab.gin import DEFAULT, Rules, bots, openspiel


def _interval(points: np.ndarray) -> str:
    return f"{points.mean():+.2f} ± {1.96 * points.std(ddof=1) / np.sqrt(len(points)):.2f}"


def against_simple(name: str, hands: int, seed: int) -> str:
    """Points a hand against OpenSpiel's simple bot, and the adapter's decisions against the engine's."""
    played, engine_s, compared, differ = [], 0.0, 0, []
    t = time.perf_counter()
    try:
        for log in openspiel.logged_hands(name, hands, seed):
            played.append(log["points"])
            e = time.perf_counter()
            n, wrong = openspiel.follow_in_engine(log, bots.make_bot(name, 0))
            engine_s += time.perf_counter() - e
            compared += n
            differ += [f"hand {log['hand']}: {w}" for w in wrong]
    except ValueError as exc:  # pyspiel is not installed
        return f"against OpenSpiel's simple bot: not measured ({exc})"
    points = np.array(played)
    rate = len(points) / (time.perf_counter() - t - engine_s)
    return (f"against OpenSpiel's simple bot: {_interval(points)} points a hand over {len(points):,} hands, hands "
            f"won {(points > 0).mean():.1%}, lost {(points < 0).mean():.1%} [{rate:,.0f} hands/s through the "
            f"adapter]\n  adapter == engine: {compared:,} decisions in {len(points):,} hands played again in the "
            f"engine, {len(differ)} differ" + "".join(f"\n    {d}" for d in differ[:10]))


def record(path: str, name: str, hands: int, seed: int) -> str:
    """Keep ``hands`` hands against OpenSpiel's simple bot, with OpenSpiel's states at the bot's decisions."""
    logs = list(openspiel.logged_hands(name, hands, seed))
    data = {"open_spiel": metadata.version("open_spiel"), "bot": name, "seed": seed, "hands": logs}
    with gzip.open(path, "wt", encoding="utf-8") as f:
        json.dump(data, f, separators=(",", ":"))
    return f"{path}: {len(logs)} hands, {sum(len(h['steps']) for h in logs):,} decisions of {name}"


def net_points(name: str, opponent: str, hands: int, seed: int, rules: Rules = DEFAULT) -> np.ndarray:
    """``name``'s net points a hand against ``opponent``: whole games in the compiled loop, seats
    swapped every chunk of games, until ``hands`` hands."""
    nets, played, k = [], 0, 0
    while played < hands:
        for seat, pair in ((0, (name, opponent)), (1, (opponent, name))):
            df = bots.simulate(500, pair, rules=rules, seed=seed * 1000 + k)
            nets.append(df.select(pl.when(pl.col("winner") == seat).then(pl.col("points"))
                                  .when(pl.col("winner") == 1 - seat).then(-pl.col("points")).otherwise(0))
                        .to_series().to_numpy())
            played += df.height
            k += 1
    return np.concatenate(nets)


def against_strong(name: str, hands: int, seed: int) -> str:
    t = time.perf_counter()
    points = net_points(name, "strong", hands, seed)
    return (f"against strong: {_interval(points)} points a hand over {len(points):,} hands "
            f"[{len(points) / (time.perf_counter() - t):,.0f} hands/s, both bots]")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--hands", type=int, default=20_000)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--bots", default="expert,strong")
    p.add_argument("--record", metavar="PATH", help="keep the hands of the first bot against OpenSpiel's, and stop")
    args = p.parse_args()
    if args.record:
        print(record(args.record, args.bots.split(",")[0], args.hands, args.seed))
        return
    for name in args.bots.split(","):
        print(f"{name}: {against_simple(name, args.hands, args.seed)}", flush=True)
        if name != "strong":
            print(f"{name}: {against_strong(name, args.hands, args.seed)}", flush=True)


if __name__ == "__main__":
    main()
