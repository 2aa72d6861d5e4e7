"""Colours and small HTML pieces shared by the widgets."""

from __future__ import annotations

from ..cards import Card

MELD_COLOURS = ("#a5d6a7", "#90caf9", "#ffe082", "#ce93d8", "#80cbc4")
"""One colour per meld, in order."""


def deadwood_colour() -> str:
    return "#ef9a9a"


def card_chip(card: Card, colour: str = "#eeeeee") -> str:
    """A card as a small coloured chip of HTML."""
    red = card.suit in (1, 2)
    return (f"<span class='rl-chip' title='{card}' style='display:inline-block;min-width:2.2em;"
            f"margin:1px;padding:1px 4px;border:1px solid #888;border-radius:4px;background:{colour};"
            f"color:{'#b71c1c' if red else '#111'};font-weight:600;text-align:center'>{card.symbol}</span>")
