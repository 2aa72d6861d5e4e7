"""rummylab: teach and analyse rummy games: exact meld search, lessons, odds."""

from ._startup import defer_iri_syntax

defer_iri_syntax()  # before altair or Jupyter import jsonschema: 2.5 s less in every process

from .backend import BACKEND  # noqa: E402
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
from .melds import Meld, MeldRules  # noqa: E402

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
