"""Declaration puzzles cut from real Indian rummy deals: "which card do you throw to declare?"

A position is cut where a player of a greedy-bots deal holds fourteen cards after drawing and
exactly one of her cards (either copy of it) can go so that the other thirteen make a valid
declaration (``best_declaration``: two sequences, one pure, every group valid). The wrong answers
that tempt are the other cards; the greedy bot, which declares whenever it can, finds them all, so
every puzzle starts at one rating, ``RATING``.

The shipped set (``rummylab/data/indian_puzzles.json``) is made by ``python -m
rummylab.indian.puzzles`` from a seed; deals are played in order, so the first puzzles of a seed do
not depend on how many are asked for.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Iterator
from dataclasses import asdict, dataclass
from functools import cache
from pathlib import Path

import numpy as np

from ..cards import cards_str, parse_cards
from ..play import check_seed
from .analysis import best_declaration
from .game import Phase, State, apply, new_game
from .players import GreedyBot
from .rules import DEFAULT

RATING = 1400.0
PUZZLES = Path(__file__).resolve().parent.parent / "data" / "indian_puzzles.json"
RANKS = "A23456789TJQK"


@dataclass(frozen=True, kw_only=True)
class DeclarePuzzle:
    """Fourteen cards and the wild rank: the one card to throw, and the declaration it leaves."""

    id: str
    hand: str
    wild: str
    """The wild (cut joker) rank, as "7"."""
    best: str
    groups: tuple[str, ...]
    """The thirteen cards left, in valid groups."""
    rating: float = RATING

    def right(self, card: str) -> bool:
        """Whether throwing ``card`` lets her declare; ValueError names a card not in the hand."""
        (thrown,) = parse_cards(card, copies=2, jokers=2)
        if thrown not in parse_cards(self.hand, copies=2, jokers=2):
            raise ValueError(f"{thrown} is not in the hand {self.hand}")
        return str(thrown) == self.best


def declaring_discards(hand: tuple, wild_rank: int) -> dict[str, tuple[str, ...]]:
    """Each distinct card of ``hand`` (14 cards) whose discard leaves a valid declaration, with it."""
    found = {}
    for card in sorted(set(hand)):
        rest = list(hand)
        rest.remove(card)
        groups = best_declaration(rest, RANKS[wild_rank], DEFAULT)
        if groups is not None:
            found[str(card)] = tuple(cards_str(g) for g in groups)
    return found


def _candidate(state: State, puzzle_id: str) -> DeclarePuzzle | None:
    hand = state.hands[state.to_play]
    found = declaring_discards(hand, state.wild_rank)
    if len(found) != 1:
        return None
    (best, groups), = found.items()
    return DeclarePuzzle(id=puzzle_id, hand=cards_str(hand), wild=RANKS[state.wild_rank], best=best, groups=groups)


def cut(seed: int = 0) -> Iterator[DeclarePuzzle]:
    """Declaration puzzles from two-player points-rummy deals of greedy bots, dealt from ``seed`` on."""
    seed = check_seed(seed)
    deal_no = 0
    while True:
        state = new_game(2, DEFAULT, seed + deal_no, pool=None)
        bots = [GreedyBot(np.random.default_rng([seed, deal_no, p]), drops=False) for p in range(2)]
        turn = 0
        while state.phase not in (Phase.DEAL_OVER, Phase.GAME_OVER):
            if state.phase is Phase.DISCARD:
                turn += 1
                found = _candidate(state, f"i{seed}-{deal_no}-{turn}")
                if found is not None:
                    yield found
            state = apply(state, bots[state.to_play].act(state))
        deal_no += 1


def build(count: int, seed: int = 0) -> list[DeclarePuzzle]:
    """The first ``count`` puzzles ``cut`` finds from ``seed``."""
    if not isinstance(count, int) or count < 1:
        raise ValueError(f"count={count!r}: a number of puzzles, 1 or more")
    found = []
    for puzzle in cut(seed):
        found.append(puzzle)
        if len(found) == count:
            break
    return found


@cache
def shipped() -> tuple[DeclarePuzzle, ...]:
    """The shipped declaration puzzles."""
    data = json.loads(PUZZLES.read_text(encoding="utf-8"))
    return tuple(DeclarePuzzle(**{**p, "groups": tuple(p["groups"])}) for p in data["puzzles"])


def main(argv: list[str] | None = None) -> None:
    """``python -m rummylab.indian.puzzles --count N --seed S [--out FILE]``."""
    ap = argparse.ArgumentParser(prog="python -m rummylab.indian.puzzles", description=__doc__.splitlines()[0])
    ap.add_argument("--count", type=int, default=40)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", type=Path, default=PUZZLES)
    args = ap.parse_args(argv)
    found = build(args.count, args.seed)
    args.out.write_text(json.dumps({"made_by": f"python -m rummylab.indian.puzzles --count {args.count} --seed "
                                               f"{args.seed}", "seed": args.seed,
                                    "puzzles": [asdict(p) for p in found]}, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {len(found)} puzzles to {args.out}")


if __name__ == "__main__":
    main()
