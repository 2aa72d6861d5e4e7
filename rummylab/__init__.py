"""rummylab: teach and analyse rummy games: exact meld search, lessons, odds."""

from ._startup import defer_iri_syntax

defer_iri_syntax()  # before altair or Jupyter import jsonschema: 2.5 s less in every process

import sys  # noqa: E402

from . import kernel  # noqa: E402
from .cards import (  # noqa: E402
    DECK,
    JOKER,
    Card,
    TwoDeckHand,
    dense_hands,
    from_mask,
    parse_cards,
    random_hands,
    to_mask,
)
from .kernel import BACKEND  # noqa: E402
from .kernel.melds import Meld, MeldRules  # noqa: E402

sys.modules[f"{__name__}.backend"] = backend = kernel
"""``rummylab.backend``: the kernel selector's older name (``rummylab.kernel``)."""


def __getattr__(name: str) -> object:
    """``rummylab.three_handed``: three-handed gin, which lives in ``rummylab.gin.three_handed``."""
    if name == "three_handed":
        from .gin import three_handed

        return three_handed
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

__version__ = "0.1.0"

__all__ = [
    "BACKEND",
    "DECK",
    "JOKER",
    "Card",
    "Meld",
    "MeldRules",
    "TwoDeckHand",
    "dense_hands",
    "from_mask",
    "parse_cards",
    "random_hands",
    "to_mask",
]
