"""HandAnalyzer: click cards (or type them) and see the melds, deadwood and best discards live."""

from __future__ import annotations

import html
from typing import Any

import ipywidgets as w

from .. import gin
from ..cards import DECK, SUIT_SYMBOLS, Card, CardsLike, parse_cards, random_hands, rng_from
from ..i18n import _, pgettext
from .discard_bars import discard_bars
from .style import MELD_COLOURS, card_chip, deadwood_colour, fill, meld_word, text

RED_SUITS = (1, 2)


PICKED = "#cfd8dc"


def card_button(card: Card) -> w.Button:
    b = w.Button(description=card.symbol, tooltip=str(card),
                 layout=w.Layout(width="42px", height="34px", padding="0"))
    b.add_class("rl-card")
    b.add_class(f"rl-card-{card}")
    if card.suit in RED_SUITS:
        b.add_class("rl-red")
    return b


class HandAnalyzer(w.VBox):
    """A 52-card grid: pick 10 or 11 cards and the melds, deadwood, verdict and (for 11
    cards) the best discards with a chart appear, updated on every click."""

    def __init__(self, hand: CardsLike | None = None, *, seed: int = 0, knock_limit: int = gin.KNOCK_LIMIT):
        self.rng = rng_from(seed)
        self.knock_limit = knock_limit
        self.cards: list[Card] = []
        self._undo: list[list[Card]] = []
        self._syncing = False
        self.buttons = {c: card_button(c) for c in DECK}
        for c, b in self.buttons.items():
            b.on_click(lambda _event, c=c: self._clicked(c, c not in self.cards))
        rows = [w.HBox([w.Label(SUIT_SYMBOLS[s], layout=w.Layout(width="18px"))] +
                       [self.buttons[Card(r, s)] for r in range(13)]) for s in range(4)]
        self.text = w.Text(placeholder=_("or type a hand: {cards}").format(cards="AS 2S 3S 7H 7D 7C 9C TC JC KD"),
                           layout=w.Layout(width="460px"), continuous_update=False)
        self.text.add_class("rl-hand-input")
        self.text.observe(self._typed, names="value")
        self.undo_button = self._button(_("Undo"), "rl-undo", lambda _event: self.undo())
        deal = pgettext("deal cards", "Deal {n}")
        self.deal10 = self._button(deal.format(n=10), "rl-deal10", lambda _event: self.deal(10))
        self.deal11 = self._button(deal.format(n=11), "rl-deal11", lambda _event: self.deal(11))
        self.clear_button = self._button(_("Clear"), "rl-clear", lambda _event: self.set_hand([]))
        self.seen = w.Text(placeholder=_("cards seen: discards, the opponent's pick-ups"), description=_("Seen"),
                           layout=w.Layout(width="460px"), continuous_update=False)
        self.seen.add_class("rl-seen")
        self.seen.observe(lambda _event: self._refresh(), names="value")
        # what a click changes goes out in two messages: the report (the grid's colours as one
        # <style>, a message, deadwood, verdict, melds) and the extras (the next draw's odds for
        # 10 cards, the discard chart for 11), not one message per line and per card
        self.report = w.HTML()
        self.report.add_class("rl-report")
        self.extras = w.HTML()
        self.extras.add_class("rl-extras")
        self._parts = {"message": "", "deadwood": "", "verdict": "", "melds": ""}
        self._style = ""
        super().__init__([w.VBox(rows), self.text,
                          w.HBox([self.undo_button, self.deal10, self.deal11, self.clear_button]),
                          self.report, self.seen, self.extras])
        self.add_class("rl-analyzer")
        self._grid = f"rl-grid-{self.model_id[:12]}"  # the style rules reach this analyzer only
        self.add_class(self._grid)
        self.set_hand(parse_cards(hand, size=range(12), jokers=0) if hand is not None else [], record=False)

    @staticmethod
    def _button(label: str, css: str, on_click: Any) -> w.Button:
        b = w.Button(description=label, layout=w.Layout(width="90px"))
        b.add_class(css)
        b.on_click(on_click)
        return b

    # -- changing the hand ---------------------------------------------------

    def set_hand(self, cards: CardsLike, record: bool = True) -> None:
        """Show these cards (0 to 11) and analyse them."""
        new = list(parse_cards(cards, size=range(12), jokers=0))
        if record:
            self._undo.append(list(self.cards))
        self.cards = new
        self._refresh()

    def toggle(self, card: CardsLike) -> None:
        """Add or remove one card, as a click does."""
        (c,) = parse_cards(card, size=1, jokers=0)
        self._clicked(c, c not in self.cards)

    def undo(self) -> None:
        if self._undo:
            self.cards = self._undo.pop()
            self._refresh()

    def deal(self, size: int = 10) -> None:
        """A random hand from the analyzer's seeded generator."""
        mask = int(random_hands(1, size, self.rng)[0])
        self.set_hand([c for c in DECK if mask & c.bit])

    def _clicked(self, card: Card, selected: bool) -> None:
        if selected == (card in self.cards):
            return
        if selected and len(self.cards) >= 11:
            full = text(_("A gin hand has at most 11 cards: remove one first."))
            self._show(message=f"<i>{full}</i>")
            return
        self._undo.append(list(self.cards))
        self.cards = [c for c in self.cards if c != card] if not selected else self.cards + [card]
        self._refresh()

    def _typed(self, change: dict[str, Any]) -> None:
        if self._syncing:
            return
        try:
            self.set_hand(change["new"])
        except ValueError as exc:
            self._show(message=f"<span style='color:#b71c1c'>{html.escape(str(exc))}</span>")

    # -- showing the analysis -------------------------------------------------

    @property
    def analysis(self) -> gin.HandAnalysis | None:
        return gin.analyze(self.cards) if len(self.cards) in (10, 11) else None

    @property
    def discard_chart(self) -> str:
        """The discard chart (SVG) for 11 cards, else ""."""
        value = self.extras.value
        return value[value.index("<svg"):value.rindex("</svg>") + 6] if "<svg" in value else ""

    def _show(self, colours: dict[Card, str] | None = None, **parts: str) -> None:
        """Send the report: the grid's colours (meld colours, deadwood, or plain picked) and the
        given lines (the others as they were)."""
        if colours is not None:
            self._style = "<style>" + "".join(
                f".{self._grid} .rl-card-{c} {{background-color: {colours.get(c, PICKED)} !important}}"
                for c in self.cards) + "</style>"
        self._parts.update(parts)
        self.report.value = self._style + "".join(f"<div class='rl-{k}'>{v}</div>" for k, v in self._parts.items())

    def _echo_hand(self) -> None:
        self._syncing = True
        try:
            self.text.value = " ".join(map(str, self.cards))
        finally:
            self._syncing = False

    def _refresh(self) -> None:
        n = len(self.cards)
        deadwood_label = text(_("Deadwood:"))
        if n not in (10, 11):
            pick = text(_("pick 10 or 11 cards ({n} picked)").format(n=n))
            self._show({}, message="", deadwood=f"<b>{deadwood_label}</b> {pick}", verdict="", melds="")
            self._echo_hand()
            self.extras.value = ""
            return
        a = gin.analyze(self.cards)
        colours: dict[Card, str] = {}
        chips = []
        for i, m in enumerate(a.melds):
            colour = MELD_COLOURS[i % len(MELD_COLOURS)]
            colours.update(dict.fromkeys(m.cards, colour))
            chips.append(f"<span class='rl-meld'>{text(meld_word(m.kind))}: "
                         + "".join(card_chip(c, colour) for c in m.cards) + "</span>")
        colours.update(dict.fromkeys(a.deadwood_cards, deadwood_colour()))
        loose = "".join(card_chip(c, deadwood_colour()) for c in a.deadwood_cards) or text(_("none"))
        loose_line = fill(_("deadwood cards: {cards}"), cards=loose)
        melds = "<div>" + ("<br>".join(chips) or text(_("no melds yet"))) + f"</div><div>{loose_line}</div>"
        if n == 10:
            deadwood = f"<b>{deadwood_label}</b> <span class='rl-dw'>{a.deadwood}</span>"
            if a.deadwood == 0:
                verdict = fill(_("{gin} every card is melded"), gin="<b>" + text(_("Gin!")) + "</b>")
            elif a.deadwood <= self.knock_limit:
                verdict = text(_("can knock (deadwood {deadwood} ≤ {limit})").format(deadwood=a.deadwood,
                                                                                   limit=self.knock_limit))
            else:
                verdict = text(_("cannot knock yet (deadwood {deadwood} > {limit})").format(deadwood=a.deadwood,
                                                                                          limit=self.knock_limit))
        else:
            b = gin.best_discards(self.cards, knock_limit=self.knock_limit)
            best = " ".join(str(c) for c in self.cards if c in b.discards)
            deadwood = f"<b>{deadwood_label}</b> " + fill(_("{deadwood} after discarding {cards}"),
                                                           deadwood=f"<span class='rl-dw'>{b.deadwood}</span>",
                                                           cards=best)
            if b.big_gin:
                verdict = fill(_("{big_gin} all 11 cards melded"), big_gin="<b>" + text(_("Big gin!")) + "</b>")
            elif b.gin:
                verdict = fill(_("{gin} after the discard"), gin="<b>" + text(_("Gin")) + "</b>")
            elif b.can_knock:
                verdict = text(_("can knock after the discard"))
            else:
                verdict = text(_("cannot knock yet (best deadwood {deadwood} > {limit})").format(
                    deadwood=b.deadwood, limit=self.knock_limit))
        # what the student reads goes out first, then the typed hand, then the extras (the draw
        # odds are worked out only then)
        self._show(colours, message="", deadwood=deadwood, verdict=verdict, melds=melds)
        self._echo_hand()
        self.extras.value = (f"<div class='rl-draws'>{self._draw_odds()}</div>" if n == 10 else
                             f"<div class='rl-chart'>{discard_bars((c, dw) for c, dw in b.after_discard)}</div>")

    def _draw_odds(self) -> str:
        from ..odds import draw_odds

        try:
            d = draw_odds(self.cards, self.seen.value, knock_limit=self.knock_limit)
        except ValueError as exc:
            return f"<span style='color:#b71c1c'>{html.escape(str(exc))}</span>"
        gin_outs = " ".join(str(c) for c in sorted(d.gin_cards)) or _("none")
        next_card = text(_("Next stock card"))
        return fill(
            _("{next_card} ({unseen} unseen): improves {improve} · lets you knock {knock} · makes gin {gin} "
              "(gin outs: {outs})"),
            next_card=f"<b>{next_card}</b>", unseen=d.unseen,
            improve=f"<span class='rl-p-improve'>{d.p_improve:.0%}</span>",
            knock=f"<span class='rl-p-knock'>{d.p_knock:.0%}</span>",
            gin=f"<span class='rl-p-gin'>{d.p_gin:.1%}</span>", outs=text(gin_outs))
