"""Three Thirteen options (docs/rules.md): what a meld may hold, what a leftover card costs, decks."""

from __future__ import annotations

from dataclasses import dataclass

from ..kernel import WildOptions, wild_kernel
from ..kernel._wild_py import WildKernel


@dataclass(frozen=True, kw_only=True)
class Rules:
    """Three Thirteen options; every default is the one docs/rules.md names."""

    ace_high: bool = False
    """Q-K-A is a run too (K-A-2 never)."""
    ace_penalty: int = 1
    """A leftover ace costs 1 (or 15 in the brief's variant)."""
    max_wilds_per_meld: int | None = None
    min_non_wild: int = 0
    """1: a meld needs a natural card (no melds of wilds only)."""
    decks: int | None = None
    """1, 2 or 3; None: by the number of players (1 deck for 2 players, 2 for 3 to 7, 3 for 8).
    Analysis of a hand alone takes up to ``decks`` copies of a card (None: 2)."""

    def __post_init__(self) -> None:
        if self.ace_penalty not in range(0, 20):
            raise ValueError(f"ace_penalty={self.ace_penalty}: 0 to 19")
        if self.max_wilds_per_meld is not None and self.max_wilds_per_meld < 0:
            raise ValueError(f"max_wilds_per_meld={self.max_wilds_per_meld}: None or >= 0")
        if not 0 <= self.min_non_wild <= 3:
            raise ValueError(f"min_non_wild={self.min_non_wild}: 0 to 3")
        if self.decks not in (None, 1, 2, 3):
            raise ValueError(f"decks={self.decks}: 1, 2, 3 or None")

    @property
    def points(self) -> tuple[int, ...]:
        return (self.ace_penalty, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10)

    def deck_count(self, players: int) -> int:
        """Decks for this many players: enough for round 11's hands and an upcard."""
        return self.decks or (1 if players <= 2 else 2 if players * 13 + 1 <= 104 else 3)

    def kernel_options(self, *, every_card_one: bool = False) -> WildOptions:
        """What the wild-card search is told. "A meld needs a non-wild card": with it, a card of the
        wild rank is wild even among its own rank."""
        return WildOptions(points=(1,) * 13 if every_card_one else self.points, ace_high=self.ace_high,
                           max_wilds=self.max_wilds_per_meld, min_non_wild=self.min_non_wild,
                           wild_as_self=self.min_non_wild == 0)

    def kernel(self, backend: str | None = None) -> WildKernel:
        """The wild-card search for these rules ("cython", "python", or the selected backend)."""
        return wild_kernel(self, backend)


DEFAULT = Rules()
"""The defaults: what most sources say."""

ACE_HIGH = Rules(ace_high=True, ace_penalty=15)
"""The brief's ace-high variant: Q-K-A is a run, and a leftover ace costs 15."""
