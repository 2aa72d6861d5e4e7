"""HTML for cards and results, so a lesson in Voilà's app mode shows card chips and sentences,
not Python reprs. Plain strings only: no widget library is imported here."""

from __future__ import annotations

import html
from collections.abc import Iterable
from typing import Any

MELD_COLOURS = ("#a5d6a7", "#90caf9", "#ffe082", "#ce93d8", "#80cbc4")
"""One colour per meld, in order."""
DEADWOOD_COLOUR = "#ef9a9a"


def card_chip(card: Any, colour: str = "#eeeeee") -> str:
    """A card as a small coloured chip of HTML."""
    red = card.suit in (1, 2)
    return (f"<span class='rl-chip' title='{card}' style='display:inline-block;min-width:2.2em;"
            f"margin:1px;padding:1px 4px;border:1px solid #888;border-radius:4px;background:{colour};"
            f"color:{'#b71c1c' if red else '#111'};font-weight:600;text-align:center'>{card.symbol}</span>")


def chips(cards: Iterable[Any], colour: str = "#eeeeee") -> str:
    """Cards as chips; "none" for no cards."""
    return "".join(card_chip(c, colour) for c in cards) or "<i>none</i>"


def result_html(title: str, melds: Iterable[Any] = (), left: Iterable[Any] = (), lines: Iterable[str] = (),
                left_label: str = "deadwood") -> str:
    """A result as a small block: melds in colours, the cards left over, then plain sentences."""
    rows = [f"<div><b>{html.escape(title)}</b></div>"]
    for i, m in enumerate(melds):
        note = f" <i>(wild as {html.escape(' '.join(m.stands_for))})</i>" if getattr(m, "stands_for", ()) else ""
        rows.append(f"<div>{html.escape(str(getattr(m, 'kind', 'meld')))}: "
                    f"{chips(m.cards, MELD_COLOURS[i % len(MELD_COLOURS)])}{note}</div>")
    left = tuple(left)
    rows.append(f"<div>{html.escape(left_label)}: {chips(left, DEADWOOD_COLOUR)}</div>")
    rows += [f"<div>{html.escape(line)}</div>" for line in lines]
    return "<div class='rl-result-block'>" + "".join(rows) + "</div>"
