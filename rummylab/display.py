"""HTML for cards and results, so a lesson in Voilà's app mode shows card chips and sentences,
not Python reprs, and frames as tables (``table``). Plain strings only: no widget library is imported here."""

from __future__ import annotations

import html
import math
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from .i18n import NP_, _, local_digits, pgettext, typed_forms

MELD_COLOURS = ("#a5d6a7", "#90caf9", "#ffe082", "#ce93d8", "#80cbc4")
"""One colour per meld, in order."""
DEADWOOD_COLOUR = "#ef9a9a"
MELD_WORDS = {"set": NP_("meld kind", "set"), "run": NP_("meld kind", "run"), "pure": NP_("meld kind", "pure"),
              "wild": NP_("meld kind", "wild")}
"""What a meld is (``Meld.kind``, ``WildMeld.kind``), in words."""


def meld_word(kind: str) -> str:
    """A meld's kind in the language in use (a kind with no word is shown as it is)."""
    return pgettext("meld kind", MELD_WORDS[kind]) if kind in MELD_WORDS else kind


def card_chip(card: Any, colour: str = "#eeeeee", *, cls: str = "", style: str = "") -> str:
    """A card as a small coloured chip of HTML (``cls``: classes before its own, ``style``: more CSS)."""
    red = card.suit in (1, 2)
    more = f";{style}" if style else ""
    classes = f"{cls} rl-chip" if cls else "rl-chip"
    return (f"<span class='{classes}' title='{card}' style='display:inline-block;min-width:2.2em;"
            f"margin:1px;padding:1px 4px;border:1px solid #888;border-radius:4px;background:{colour};"
            f"color:{'#b71c1c' if red else '#111'};font-weight:600;text-align:center{more}'>{card.symbol}</span>")


def chips(cards: Iterable[Any], colour: str = "#eeeeee") -> str:
    """Cards as chips; "none" for no cards."""
    none = html.escape(_("none"))
    return "".join(card_chip(c, colour) for c in cards) or f"<i>{none}</i>"


def result_html(title: str, melds: Iterable[Any] = (), left: Iterable[Any] = (), lines: Iterable[str] = (),
                left_label: str | None = None) -> str:
    """A result as a small block: melds in colours, the cards left over (``left_label``: "deadwood"),
    then plain sentences, in the language in use."""
    rows = [f"<div><b>{html.escape(title)}</b></div>"]
    for i, m in enumerate(melds):
        stands = getattr(m, "stands_for", ())
        note = " <i>" + html.escape(_("(wild as {cards})").format(cards=" ".join(stands))) + "</i>" if stands else ""
        kind = html.escape(meld_word(str(getattr(m, "kind", "meld"))))
        rows.append(f"<div>{kind}: {chips(m.cards, MELD_COLOURS[i % len(MELD_COLOURS)])}{note}</div>")
    left = tuple(left)
    label = html.escape(_("deadwood") if left_label is None else left_label)
    rows.append(f"<div>{label}: {chips(left, DEADWOOD_COLOUR)}</div>")
    rows += [f"<div>{html.escape(line)}</div>" for line in lines]
    return "<div class='rl-result-block'>" + "".join(rows) + "</div>"


class Table:
    """A frame as a textbook table: readable headers and numbers, no shape or dtype rows."""

    def __init__(self, df: Any, headers: Mapping[str, str] | None = None,
                 formats: Mapping[str, str | Callable[[Any], str]] | None = None, max_rows: int = 12) -> None:
        self.df, self.max_rows = df, max_rows
        self.headers = {c: (headers or {}).get(c, c.replace("_", " ")) for c in df.columns}
        self.formats = dict(formats or {})

    def cell(self, column: str, value: Any) -> str:
        """One value as the table shows it."""
        fmt = self.formats.get(column)
        if value is None:
            return "—"
        if callable(fmt):
            return fmt(value)
        if fmt is not None:
            return local_digits(fmt.format(value))
        return number(value) if isinstance(value, int | float) else str(value)

    def rows(self) -> list[list[str]]:
        """The shown rows (the first and last when there are too many; ``…`` between)."""
        df, cols = self.df, self.df.columns
        if df.height <= self.max_rows:
            parts = [df.rows()]
        else:
            half = self.max_rows // 2
            parts = [df.head(half).rows(), df.tail(half).rows()]
        shown = [[[self.cell(c, v) for c, v in zip(cols, row, strict=True)] for row in part] for part in parts]
        return shown[0] if len(shown) == 1 else shown[0] + [["…"] * len(cols)] + shown[1]

    def _repr_html_(self) -> str:
        head = "".join(f"<th style='text-align:left'>{html.escape(h)}</th>" for h in self.headers.values())
        body = "".join("<tr>" + "".join(f"<td>{html.escape(v)}</td>" for v in row) + "</tr>" for row in self.rows())
        more = (f"<caption style='caption-side:bottom'>{self.df.height:,} rows</caption>"
                if self.df.height > self.max_rows else "")
        return f"<table class='rl-table'>{more}<thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"

    def __repr__(self) -> str:
        lines = [list(self.headers.values()), *self.rows()]
        widths = [max(len(line[i]) for line in lines) for i in range(len(self.headers))]
        text = "\n".join("  ".join(v.ljust(w) for v, w in zip(line, widths, strict=True)).rstrip() for line in lines)
        return text + (f"\n({self.df.height:,} rows)" if self.df.height > self.max_rows else "")


def table(df: Any, headers: Mapping[str, str] | None = None,
          formats: Mapping[str, str | Callable[[Any], str]] | None = None, max_rows: int = 12) -> Table:
    """A polars frame as a table for app mode: ``headers`` renames columns (default: ``_`` as
    spaces), ``formats`` maps a column to a format string (``"{:.1%}"``) or a function."""
    return Table(df, headers, formats, max_rows)


def number(x: float) -> str:
    """A number as a reader writes it: ``15,820,024,220``, ``56.57``, ``0.338`` (with the separators of
    the language in use: Romanian ``0,338``); yes/no for booleans, in her words."""
    if isinstance(x, bool):
        return typed_forms("typed word", "yes")[0] if x else typed_forms("typed word", "no")[0]
    if isinstance(x, int):
        return local_digits(f"{x:,}")
    if x != x or x in (float("inf"), float("-inf")):
        return str(x)
    if x == int(x) and abs(x) < 1e15:
        return local_digits(f"{int(x):,}")
    digits = min(8, max(0, 3 - math.floor(math.log10(abs(x)))))
    return local_digits(f"{x:,.{digits}f}".rstrip("0").rstrip("."))
