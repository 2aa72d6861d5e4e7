"""The HandAnalyzer's discard chart: the deadwood after each possible discard, as SVG bars.

Every click redraws it, so it is drawn here in a millisecond: through Vega it cost about 120 ms
of the kernel's CPU a click (vl-convert), or 1.5 MB of JavaScript in every student's browser.
``charts.discard_chart`` draws the same figure with Altair, for notebooks and reports.
"""

from __future__ import annotations

import html
from collections.abc import Iterable

from ..cards import Card
from ..i18n import N_, _, pgettext
from .style import fill, text

BEST, OTHER = "#2e7d32", "#9e9e9e"
TITLE = N_("Deadwood after each discard")
"""The chart's title (translated where it is drawn)."""


def discard_bars(after_discard: Iterable[tuple[Card, int]], *, width: int = 380, height: int = 200) -> str:
    """An SVG bar chart of (discard, deadwood after it); the best discards in green."""
    pairs = list(after_discard)
    if not pairs:
        return ""
    best = min(dw for _card, dw in pairs)
    scale = max(max(dw for _card, dw in pairs), 1)
    left, right, top, bottom = 34, 8, 40, 34
    plot_w, plot_h = width - left - right, height - top - bottom
    step = plot_w / len(pairs)
    bar = step * 0.7
    base = top + plot_h
    title = _(TITLE)
    label, heading = html.escape(title), text(title)
    said = {key: text(words) for key, words in (("best", _("best discard")),
                                                 ("deadwood", pgettext("chart axis", "deadwood")),
                                                 ("discard", pgettext("chart axis", "discard")))}
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" class="rl-discard-bars" width="{width}" '
           f'height="{height}" viewBox="0 0 {width} {height}" role="img" aria-label="{label}" '
           'font-family="sans-serif" font-size="11">',
           f'<text x="{width / 2}" y="14" text-anchor="middle" font-size="13" font-weight="bold">{heading}</text>',
           f'<rect x="{left}" y="20" width="10" height="10" fill="{BEST}"/>'
           f'<text x="{left + 14}" y="29">{said["best"]}</text>',
           f'<line x1="{left}" y1="{base}" x2="{width - right}" y2="{base}" stroke="#555"/>',
           f'<text x="10" y="{top + plot_h / 2}" transform="rotate(-90 10 {top + plot_h / 2})" '
           f'text-anchor="middle">{said["deadwood"]}</text>',
           f'<text x="{left + plot_w / 2}" y="{height - 4}" text-anchor="middle">{said["discard"]}</text>']
    for i, (card, deadwood) in enumerate(pairs):
        x = left + i * step + (step - bar) / 2
        h = max(plot_h * deadwood / scale, 2.0)  # a discard to gin still shows its (green) bar
        name = html.escape(str(card))
        tip = fill(_("discard {card}: deadwood {deadwood}"), card=name, deadwood=deadwood)
        out.append(f'<rect x="{x:.1f}" y="{base - h:.1f}" width="{bar:.1f}" height="{h:.1f}" '
                   f'fill="{BEST if deadwood == best else OTHER}"><title>{tip}</title></rect>'
                   f'<text x="{x + bar / 2:.1f}" y="{base - h - 3:.1f}" text-anchor="middle">{deadwood}</text>'
                   f'<text x="{x + bar / 2:.1f}" y="{base + 13}" text-anchor="middle">{name}</text>')
    out.append("</svg>")
    return "".join(out)
