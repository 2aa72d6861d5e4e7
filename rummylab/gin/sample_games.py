"""Games of two greedy bots, shipped for lessons that ask about a simulation's tables: each game's
hands as ``gin.bots.simulate`` lists them, and its first hand's first and last moves by a player
as ``gin.bots.trace`` lists them, read without polars (a lesson's kernel need not load it to ask).

Game ``s`` is ``gin.bots.simulate(1, ("greedy", "greedy"), seed=s)``; the file is made by
``python -m rummylab.gin.sample_games`` and the tests play some of its games again and find the
same rows.
"""

from __future__ import annotations

import argparse
import json
from functools import cache
from pathlib import Path
from typing import Any

BOTS = ("greedy", "greedy")
GAMES = Path(__file__).resolve().parent.parent / "data" / "greedy_games.json"
HANDS = ("hand", "winner", "kind", "points", "turns")
"""The columns of ``simulate`` kept for each hand."""
MOVES = ("turn", "player", "action", "card")
"""The columns of ``trace`` kept for the first hand's first and last moves."""


def game_of(seed: int) -> dict[str, Any]:
    """Game ``seed`` as the file keeps it, played now: {"hands": [...], "first": move, "last": move}."""
    import polars as pl

    from .simulation import simulate, trace

    hands = simulate(1, BOTS, seed=seed).select(HANDS).rows(named=True)
    moves = (trace(1, BOTS, seed=seed).filter((pl.col("hand") == 0) & (pl.col("player") >= 0))
             .select(MOVES).rows(named=True))
    return {"hands": hands, "first": moves[0], "last": moves[-1]}


@cache
def shipped() -> tuple[dict[str, Any], ...]:
    """The shipped games, game ``s`` at index ``s``."""
    data = json.loads(GAMES.read_text(encoding="utf-8"))
    return tuple(data["games"])


def game(seed: int) -> dict[str, Any]:
    """Shipped game ``seed``; ValueError names a seed the file does not hold."""
    games = shipped()
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < len(games):
        raise ValueError(f"seed={seed!r}: the shipped games are seeds 0 to {len(games) - 1}")
    return games[seed]


def main(argv: list[str] | None = None) -> None:
    """``python -m rummylab.gin.sample_games [--count N] [--out FILE]``: play and write the games."""
    ap = argparse.ArgumentParser(prog="python -m rummylab.gin.sample_games", description=__doc__.splitlines()[0])
    ap.add_argument("--count", type=int, default=400)
    ap.add_argument("--out", type=Path, default=GAMES)
    args = ap.parse_args(argv)
    games = [game_of(seed) for seed in range(args.count)]
    args.out.write_text(json.dumps({"made_by": f"python -m rummylab.gin.sample_games --count {args.count}",
                                    "bots": list(BOTS), "games": games}, separators=(",", ":")) + "\n",
                        encoding="utf-8")
    print(f"wrote {len(games)} games to {args.out}")


if __name__ == "__main__":
    main()
