"""Colours and small HTML pieces shared by the widgets (the same as ``rummylab.display``)."""

from __future__ import annotations

from ..display import DEADWOOD_COLOUR, MELD_COLOURS, card_chip

__all__ = ["MELD_COLOURS", "card_chip", "deadwood_colour"]


def deadwood_colour() -> str:
    return DEADWOOD_COLOUR
