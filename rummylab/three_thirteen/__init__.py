"""Three Thirteen: 11 rounds of 3 to 13 cards; the wild rank follows the hand size."""

from .analysis import (
    DEFAULT,
    ROUNDS,
    Analysis,
    Rules,
    WildMeld,
    analyze,
    going_out_discards,
    hand_size,
    penalty,
    penalty_batch,
    wild_rank,
)
from .rules import ACE_HIGH

__all__ = [
    "ACE_HIGH",
    "DEFAULT",
    "ROUNDS",
    "Analysis",
    "Rules",
    "WildMeld",
    "analyze",
    "going_out_discards",
    "hand_size",
    "penalty",
    "penalty_batch",
    "wild_rank",
]


def __getattr__(name: str) -> object:
    """``evaluate`` (``three_thirteen.evaluation``) loads when first named: it brings the game
    engine, which a lesson that only analyses hands need not hold."""
    if name == "evaluate":
        from .evaluation import evaluate

        return evaluate
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
