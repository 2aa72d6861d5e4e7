"""Colours and small HTML pieces shared by the widgets (the same as ``rummylab.display``), and the
words the widgets share, translated where they are shown."""

from __future__ import annotations

import html

from ..display import DEADWOOD_COLOUR, MELD_COLOURS, MELD_WORDS, card_chip, meld_word

__all__ = ["MELD_COLOURS", "MELD_WORDS", "card_chip", "deadwood_colour", "fill", "meld_word", "text"]


def deadwood_colour() -> str:
    return DEADWOOD_COLOUR


def text(message: str) -> str:
    """Translated text as HTML between tags (never in an attribute): ``&`` and ``<`` escaped, quotes
    and ``>`` kept as they are (the English text is the same bytes as before it was translated)."""
    return html.escape(message, quote=False).replace("&gt;", ">")


def fill(template: str, **fields: object) -> str:
    """A translated template as HTML: its words escaped, then its fields put in (HTML already, or numbers)."""
    return text(template).format(**fields)
