"""How often each bot's decisions are marked (issue 40: marks by thresholds measured on data):
games of each bot against the strong bot, reviewed for the bot's seat with ``gin.review_frame``;
with ``--family indian`` or ``thirteen``, deals (rounds) of a greedy and of a random player
against greedy ones, reviewed with ``indian.review`` (``three_thirteen.review``).

    python benchmarks/review_marks.py [--games 20] [--workers 2] [--family gin|indian|thirteen]

Prints, per bot, the decisions reviewed, the points lost a decision, and the share marked
inaccuracy, mistake and blunder (thresholds in rummylab.gin.game_review: 3, 6 and 12 points;
rummylab.indian.review and rummylab.three_thirteen.review state theirs), and for the other
families the share of decisions losing at least t points (and more than twice its error).
"""

from __future__ import annotations

import argparse
import time

import polars as pl

from rummylab import gin


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--family", default="gin", choices=("gin", "indian", "thirteen"))
    ap.add_argument("--samples", type=int, default=128, help="worlds an option (indian, thirteen)")
    args = ap.parse_args()
    if args.family != "gin":
        return other_family(args)
    print("| bot (against strong) | decisions | points lost a decision | inaccuracy | mistake | blunder | s |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for bot in ("random", "greedy", "strong", "expert"):
        t = time.perf_counter()
        df = gin.review_frame(args.games, (bot, "strong"), seat=0, seed=args.seed,
                              scheduler="dask" if args.workers > 1 else None,
                              workers=args.workers if args.workers > 1 else None)
        n = df.height
        share = {m: df.filter(pl.col("mark") == m).height / n for m in ("inaccuracy", "mistake", "blunder")}
        print(f"| {bot} | {n:,} | {df['loss'].mean():.2f} | {share['inaccuracy']:.1%} | {share['mistake']:.1%} | "
              f"{share['blunder']:.1%} | {time.perf_counter() - t:.0f} |", flush=True)


STEPS = (1, 2, 3, 4, 6, 8, 10, 12, 16, 20, 25)


def _games(family: str, bot: str, n: int, seed: int) -> list[object]:
    """``n`` finished one-deal games (Indian points rummy; Three Thirteen: a whole game) of ``bot``
    in seat 0 against greedy players."""
    import numpy as np

    if family == "indian":
        from rummylab.indian import game as g
        from rummylab.indian.players import GreedyBot, RandomBot

        def player(name: str, s: int) -> object:
            return RandomBot(s, leave=0, miss=0) if name == "random" else GreedyBot(s)
        start = [g.new_game(2, seed=seed + i, pool=None) for i in range(n)]
        over = g.Phase.GAME_OVER
    else:
        from rummylab.three_thirteen import game as g  # type: ignore[no-redef]
        from rummylab.three_thirteen.players import GreedyBot  # type: ignore[assignment]

        class RandomPlayer:
            """Any legal move (Three Thirteen has no random bot of its own)."""

            def __init__(self, s: int) -> None:
                self.rng = np.random.default_rng(s)

            def act(self, state: object) -> object:
                acts = g.legal_actions(state)
                return acts[int(self.rng.integers(len(acts)))]

        def player(name: str, s: int) -> object:
            return RandomPlayer(s) if name == "random" else GreedyBot(s)
        start = [g.new_game(2, seed=seed + i) for i in range(n)]
        over = g.Phase.GAME_OVER
    out = []
    for i, s in enumerate(start):
        bots = [player(bot, seed + i), player("greedy", seed + i + 10_000)]
        while s.phase is not over:
            nxt = getattr(g, "NEXT_ROUND", None)
            s = g.apply(s, nxt if nxt is not None and s.phase is g.Phase.ROUND_OVER else bots[s.to_play].act(s))
        out.append(s)
    return out


def other_family(args: argparse.Namespace) -> None:
    if args.family == "indian":
        from rummylab.indian.review import review
    else:
        from rummylab.three_thirteen.review import review  # type: ignore[no-redef]
    print(f"| bot (against greedy) | decisions | points lost a decision | {' | '.join(f'≥ {t}' for t in STEPS)} | s |")
    print("|---|---:|---:|" + "---:|" * len(STEPS) + "---:|")
    for bot in ("random", "greedy"):
        t0 = time.perf_counter()
        losses: list[tuple[float, float]] = []
        for state in _games(args.family, bot, args.games, args.seed):
            r = review(state, 0, samples=args.samples, seed=args.seed)
            losses += [(d.loss, d.loss_se) for d in r.decisions]
        n = len(losses)
        shares = [sum(1 for x, se in losses if x >= t and x > 2 * se) / n for t in STEPS]
        print(f"| {bot} | {n:,} | {sum(x for x, _ in losses) / n:.2f} | "
              + " | ".join(f"{v:.1%}" for v in shares) + f" | {time.perf_counter() - t0:.0f} |", flush=True)


if __name__ == "__main__":
    main()
