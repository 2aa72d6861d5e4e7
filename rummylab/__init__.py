"""rummylab: teach and analyse rummy games: exact meld search, lessons, odds."""

from .backend import BACKEND
from .cards import (
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
from .melds import Meld, MeldRules

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
