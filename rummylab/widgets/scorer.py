"""KnockScorer: score a knock step by step: the knocker's melds, each layoff, the points and the rule."""

from __future__ import annotations

import html

import ipywidgets as w

from .. import gin
from ..cards import DECK, CardsLike, cards_str, rng_from
from ..i18n import NP_, _, pgettext
from .style import MELD_COLOURS, card_chip, deadwood_colour

KINDS = {"knock": NP_("knock result", "knock"), "gin": NP_("knock result", "gin"),
         "big_gin": NP_("knock result", "big gin"), "undercut": NP_("knock result", "undercut"),
         "tie": NP_("knock result", "tie"), None: NP_("knock result", "invalid")}
"""What a knock came to, as the scorer names it."""


def explain(result: gin.KnockResult, rules: gin.Rules) -> list[str]:
    """The scoring of a knock as short sentences, in order, in the language in use."""
    if not result.valid:
        return [_("Not a legal knock: {reason}.").format(reason=result.reason)]
    melds = ", ".join(str(m) for m in result.knocker_melds) or _("no melds")
    steps = [_("The knocker shows {melds} with deadwood {deadwood}.").format(melds=melds,
                                                                            deadwood=result.knocker_deadwood)]
    if result.kind in ("gin", "big_gin"):
        steps.append(_("No layoffs against gin."))
    elif result.layoffs:
        steps += [_("The defender lays off {card}.").format(card=c) for c in result.layoffs]
    else:
        steps.append(_("The defender has nothing to lay off."))
    steps.append(_("The defender's deadwood is {deadwood}.").format(deadwood=result.defender_deadwood))
    k, d = result.knocker_deadwood, result.defender_deadwood
    if result.kind == "big_gin":
        steps.append(_("Big gin: {bonus} + {d} = {points} points to the knocker.").format(
            bonus=rules.big_gin_bonus, d=d, points=result.knocker_points))
    elif result.kind == "gin":
        steps.append(_("Gin: {bonus} + {d} = {points} points to the knocker.").format(
            bonus=rules.gin_bonus, d=d, points=result.knocker_points))
    elif result.kind == "undercut":
        why = _("a tie counts as an undercut") if k == d else _("{d} is less than {k}").format(d=d, k=k)
        steps.append(_("Undercut ({why}): {bonus} + {diff} = {points} points to the defender.").format(
            why=why, bonus=rules.undercut_bonus, diff=k - d, points=result.defender_points))
    elif result.kind == "tie":
        steps.append(_("A tie, and under these rules it is no undercut: nobody wins the hand, 0 points."))
    else:
        steps.append(_("Knock: {d} − {k} = {points} points to the knocker.").format(d=d, k=k,
                                                                                  points=result.knocker_points))
    return steps


class KnockScorer(w.VBox):
    """Type the knocker's and the defender's hands and see the knock scored, layoff by layoff."""

    def __init__(self, knocker: CardsLike = "AS 2S 3S 7H 7D 7C 9C TC JC 4D",
                 defender: CardsLike = "4S 5S 8C KS QH JD 8S 6H 2C 9H", *, rules: gin.Rules = gin.DEFAULT,
                 seed: int = 0):
        self.rules = rules
        self.rng = rng_from(seed)
        self.knocker = w.Text(value=cards_str(_cards(knocker)), description=_("Knocker"),
                              layout=w.Layout(width="520px"), continuous_update=False)
        self.defender = w.Text(value=cards_str(_cards(defender)), description=_("Defender"),
                               layout=w.Layout(width="520px"), continuous_update=False)
        self.knocker.add_class("rl-knocker")
        self.defender.add_class("rl-defender")
        self.example = w.Button(description=_("Deal an example"))
        self.example.add_class("rl-example")
        self.example.on_click(lambda _event: self.deal_example())
        self.output = w.HTML()
        self.output.add_class("rl-score")
        for t in (self.knocker, self.defender):
            t.observe(lambda _event: self.refresh(), names="value")
        super().__init__([self.knocker, self.defender, self.example, self.output])
        self.add_class("rl-knock-scorer")
        self.result: gin.KnockResult | None = None
        self.refresh()

    def deal_example(self) -> None:
        """A seeded random deal in which the knocker can knock."""
        while True:
            order = self.rng.permutation(52)
            k, d = [DECK[i] for i in order[:10]], [DECK[i] for i in order[10:20]]
            if gin.deadwood(k) <= self.rules.knock_limit:
                break
        self.knocker.value, self.defender.value = cards_str(k), cards_str(d)

    def refresh(self) -> None:
        try:
            r = gin.score_knock(self.knocker.value, self.defender.value, self.rules)
        except ValueError as exc:
            self.result = None
            self.output.value = f"<span style='color:#b71c1c'>{html.escape(str(exc))}</span>"
            return
        self.result = r
        melds = " ".join("".join(card_chip(c, MELD_COLOURS[i % len(MELD_COLOURS)]) for c in m.cards) + " "
                         for i, m in enumerate(r.knocker_melds))
        none = html.escape(_("none"))
        lay = "".join(card_chip(c, "#fff59d") for c in r.layoffs) or none
        steps = "".join(f"<li>{html.escape(s)}</li>" for s in explain(r, self.rules))
        kind = html.escape(pgettext("knock result", KINDS.get(r.kind, r.kind or "")))
        knocker, defender = html.escape(_("knocker")), html.escape(_("defender"))
        said = {key: html.escape(text) for key, text in (
            ("melds", _("Knocker’s melds:")), ("layoffs", _("Layoffs:")), ("deadwood", _("Deadwood:")),
            ("rule", _("Rule:")), ("points", _("points")),
            ("chose", _("The knocker’s choice of melds changed the result.")))}
        self.output.value = (
            f"<div><b>{said['melds']}</b> {melds or none}</div>"
            f"<div><b>{said['layoffs']}</b> {lay}</div>"
            f"<div><b>{said['deadwood']}</b> {knocker} <span class='rl-k-dw'>{r.knocker_deadwood}</span>, "
            f"{defender} <span class='rl-d-dw'>{r.defender_deadwood}</span></div>"
            f"<div><b>{said['rule']}</b> <span class='rl-kind' data-kind='{r.kind or 'invalid'}'>{kind}"
            f"</span> — <b>{said['points']}</b>: {knocker} <span class='rl-k-pts'>{r.knocker_points}</span>, "
            f"{defender} <span class='rl-d-pts'>{r.defender_points}</span></div><ol>{steps}</ol>"
            + (f"<div style='color:{deadwood_colour()}'>{said['chose']}</div>"
               if r.arrangement_sensitive else ""))


def _cards(cards: CardsLike) -> tuple:
    from ..cards import parse_cards
    return parse_cards(cards, jokers=0)
