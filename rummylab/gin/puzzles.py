"""Puzzles cut from expert games: "which card do you throw?" positions where one discard beats
every other by a clear margin, with the review's reason and a rating.

A position is cut at a discard of an expert-against-expert game, as the player to act sees it
(her eleven cards, the discard pile, the cards her opponent took from it and holds, the stock's
size: ``game.position``), evaluated there (``gin.evaluate``), and kept when no knock is possible
and the best discard beats the second best by at least ``MARGIN`` points and by more than
``CLEAR`` standard errors of that difference. Its first rating says how many of the three bots
find it (``RATINGS``); students' ratings move against it by Glicko-2 (``rummylab.ratings``).

The shipped set (``rummylab/data/gin_puzzles.json``) is made by ``python -m rummylab.gin.puzzles``
from a seed; the games are played in order, so the first puzzles of a seed do not depend on how
many are asked for.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Iterator
from dataclasses import asdict, dataclass
from functools import cache
from pathlib import Path

import numpy as np

from ..cards import SeedLike, cards_str, mask_cards, parse_cards
from ..i18n import SOURCE, using
from ..play import check_seed
from .evaluation import evaluate
from .game import Action, Kind, Phase, State, apply, legal_actions, new_game, position
from .game_review import reason
from .loop import BotSpec, spec_bot
from .rules import DEFAULT

MARGIN = 3.0
"""Points the best discard beats the second by, at least (the review's inaccuracy)."""
CLEAR = 2.0
"""Standard errors of that difference the margin must exceed."""
SAMPLES = 2048
"""Worlds an evaluation of a candidate position may use."""
BOTS = ("greedy", "strong", "expert")
RATINGS = {3: 1100.0, 2: 1350.0, 1: 1600.0, 0: 1850.0}
"""A puzzle's first rating by how many of ``BOTS`` throw its best card."""
PUZZLES = Path(__file__).resolve().parent.parent / "data" / "gin_puzzles.json"


@dataclass(frozen=True, kw_only=True)
class Puzzle:
    """One position to find the best discard in, with what each discard is worth."""

    id: str
    hand: str
    """The eleven cards held."""
    pile: str
    """The discard pile, top card last."""
    picked: str
    """The cards the opponent took from the pile and holds."""
    stock: int
    best: str
    """The card to throw."""
    margin: float
    margin_se: float
    values: tuple[tuple[str, float, float], ...]
    """Each discard, best first: (card, expected net points to the hand's end, its error)."""
    reason: str
    """Why the best throw is better (``game_review.reason``), in the language in use where the
    puzzle was cut: English in the shipped set."""
    rating: float

    def state(self) -> State:
        """The position, for ``evaluate`` (what the hidden cards are does not matter to it)."""
        return position(self.hand, self.pile, picked=self.picked, stock=self.stock)

    def right(self, card: str) -> bool:
        """Whether throwing ``card`` is the answer; ValueError names a card not in the hand."""
        (thrown,) = parse_cards(card, jokers=0)
        if thrown not in parse_cards(self.hand, jokers=0):
            raise ValueError(f"{thrown} is not in the hand {self.hand}")
        return str(thrown) == self.best


def _view(state: State) -> tuple[str, str, str, int]:
    """The player to act's view: her hand, the pile, what her opponent picked up and holds, the stock."""
    me = state.to_play
    return (cards_str(state.hand(me)), cards_str(state.discards), cards_str(mask_cards(state.picked_up[1 - me])),
            len(state.stock))


def _found_by(state: State, best: Action, seed: int) -> int:
    """How many of ``BOTS`` discard ``best`` in ``state``."""
    return sum(spec_bot(BotSpec(name), np.random.default_rng(seed)).act(state) == best for name in BOTS)


def candidate(state: State, seed: int, samples: int = SAMPLES) -> Puzzle | None:
    """The puzzle at the discard ``state`` (the player to act's view of it), or None when it is not one."""
    hand, pile, picked, stock = _view(state)
    try:
        pos = position(hand, pile, picked=picked, stock=stock, rules=state.rules)
    except ValueError:  # a dead stock's last cards: no position to puzzle over
        return None
    if any(a.kind is not Kind.DISCARD for a in legal_actions(pos)):
        return None  # a knock or gin is possible: a different question
    e = evaluate(pos, samples=samples, seed=seed)
    best, second = e.options[0], e.options[1]
    margin, margin_se = -second.diff, second.diff_se
    if margin < MARGIN or margin <= CLEAR * margin_se:
        return None
    assert best.action.card is not None
    values = tuple((str(o.action.card), round(o.value, 2), round(o.se, 2)) for o in e.options)
    why = reason(pos, e, second.action, seed)
    return Puzzle(id="", hand=hand, pile=pile, picked=picked, stock=stock, best=str(best.action.card),
                  margin=round(margin, 2), margin_se=round(margin_se, 2), values=values, reason=why,
                  rating=RATINGS[_found_by(pos, best.action, seed)])


def cut(seed: SeedLike = 0, *, every: int = 3, samples: int = SAMPLES) -> Iterator[Puzzle]:
    """Puzzles from expert-against-expert hands dealt from ``seed`` on, one hand after another:
    every ``every``-th discard is a candidate (neighbouring discards of one hand are alike)."""
    seed = check_seed(seed)
    hand_no = 0
    while True:
        state = new_game(DEFAULT, seed + hand_no)
        bots = [spec_bot(BotSpec("expert"), np.random.default_rng([seed, hand_no, seat])) for seat in (0, 1)]
        discard_no = 0
        while state.phase not in (Phase.HAND_OVER, Phase.GAME_OVER, Phase.MATCH_OVER):
            if state.phase is Phase.DISCARD:
                discard_no += 1
                if discard_no % every == 0:
                    found = candidate(state, seed + hand_no, samples)
                    if found is not None:
                        yield Puzzle(**{**asdict(found), "id": f"g{seed}-{hand_no}-{discard_no}"})
            state = apply(state, bots[state.to_play].act(state))
        hand_no += 1


def build(count: int, seed: SeedLike = 0, *, samples: int = SAMPLES) -> list[Puzzle]:
    """The first ``count`` puzzles ``cut`` finds from ``seed``."""
    if not isinstance(count, int) or count < 1:
        raise ValueError(f"count={count!r}: a number of puzzles, 1 or more")
    found = []
    for puzzle in cut(seed, samples=samples):
        found.append(puzzle)
        if len(found) == count:
            return found
    return found  # pragma: no cover - cut never ends


def to_json(puzzles: list[Puzzle], seed: int) -> str:
    """The puzzles as the shipped file holds them (with how they were made)."""
    return json.dumps({"made_by": f"python -m rummylab.gin.puzzles --count {len(puzzles)} --seed {seed}",
                       "seed": seed, "margin": MARGIN, "clear": CLEAR, "samples": SAMPLES,
                       "puzzles": [asdict(p) for p in puzzles]}, indent=1) + "\n"


@cache
def shipped() -> tuple[Puzzle, ...]:
    """The shipped gin puzzles."""
    data = json.loads(PUZZLES.read_text(encoding="utf-8"))
    return tuple(Puzzle(**{**p, "values": tuple(tuple(v) for v in p["values"])}) for p in data["puzzles"])


def by_id(puzzle_id: str) -> Puzzle:
    """A shipped puzzle by its id; ValueError names an unknown one."""
    for p in shipped():
        if p.id == puzzle_id:
            return p
    raise ValueError(f"no gin puzzle {puzzle_id!r}")


def main(argv: list[str] | None = None) -> None:
    """``python -m rummylab.gin.puzzles --count N --seed S [--out FILE]``: cut and write the set."""
    ap = argparse.ArgumentParser(prog="python -m rummylab.gin.puzzles", description=__doc__.splitlines()[0])
    ap.add_argument("--count", type=int, default=300)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", type=Path, default=PUZZLES)
    args = ap.parse_args(argv)
    found = []
    with using(SOURCE):  # the shipped reasons are in English, whatever the language of this command
        for puzzle in cut(args.seed):
            found.append(puzzle)
            print(f"{len(found)}/{args.count} {puzzle.id}: throw {puzzle.best} (+{puzzle.margin} ± "
                  f"{puzzle.margin_se}), rated {puzzle.rating:.0f}", flush=True)
            if len(found) == args.count:
                break
    args.out.write_text(to_json(found, args.seed), encoding="utf-8")
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
