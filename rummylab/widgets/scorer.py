"""KnockScorer: score a knock step by step: the knocker's melds, each layoff, the points and the rule."""

from __future__ import annotations

import html

import ipywidgets as w

from .. import gin
from ..cards import DECK, CardsLike, cards_str, rng_from
from .style import MELD_COLOURS, card_chip, deadwood_colour


def explain(result: gin.KnockResult, rules: gin.Rules) -> list[str]:
    """The scoring of a knock as short sentences, in order."""
    if not result.valid:
        return [f"Not a legal knock: {result.reason}."]
    steps = ["The knocker shows " + (", ".join(str(m) for m in result.knocker_melds) or "no melds")
             + f" with deadwood {result.knocker_deadwood}."]
    if result.kind in ("gin", "big_gin"):
        steps.append("No layoffs against gin.")
    elif result.layoffs:
        steps += [f"The defender lays off {c}." for c in result.layoffs]
    else:
        steps.append("The defender has nothing to lay off.")
    steps.append(f"The defender's deadwood is {result.defender_deadwood}.")
    k, d = result.knocker_deadwood, result.defender_deadwood
    if result.kind == "big_gin":
        steps.append(f"Big gin: {rules.big_gin_bonus} + {d} = {result.knocker_points} points to the knocker.")
    elif result.kind == "gin":
        steps.append(f"Gin: {rules.gin_bonus} + {d} = {result.knocker_points} points to the knocker.")
    elif result.kind == "undercut":
        why = "a tie counts as an undercut" if k == d else f"{d} is less than {k}"
        steps.append(f"Undercut ({why}): {rules.undercut_bonus} + {k - d} = {result.defender_points} "
                     "points to the defender.")
    elif result.kind == "tie":
        steps.append("A tie, and under these rules it is no undercut: nobody wins the hand, 0 points.")
    else:
        steps.append(f"Knock: {d} − {k} = {result.knocker_points} points to the knocker.")
    return steps


class KnockScorer(w.VBox):
    """Type the knocker's and the defender's hands and see the knock scored, layoff by layoff."""

    def __init__(self, knocker: CardsLike = "AS 2S 3S 7H 7D 7C 9C TC JC 4D",
                 defender: CardsLike = "4S 5S 8C KS QH JD 8S 6H 2C 9H", *, rules: gin.Rules = gin.DEFAULT,
                 seed: int = 0):
        self.rules = rules
        self.rng = rng_from(seed)
        self.knocker = w.Text(value=cards_str(_cards(knocker)), description="Knocker",
                              layout=w.Layout(width="520px"), continuous_update=False)
        self.defender = w.Text(value=cards_str(_cards(defender)), description="Defender",
                               layout=w.Layout(width="520px"), continuous_update=False)
        self.knocker.add_class("rl-knocker")
        self.defender.add_class("rl-defender")
        self.example = w.Button(description="Deal an example")
        self.example.add_class("rl-example")
        self.example.on_click(lambda _: self.deal_example())
        self.output = w.HTML()
        self.output.add_class("rl-score")
        for t in (self.knocker, self.defender):
            t.observe(lambda _: self.refresh(), names="value")
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
        lay = "".join(card_chip(c, "#fff59d") for c in r.layoffs) or "none"
        steps = "".join(f"<li>{html.escape(s)}</li>" for s in explain(r, self.rules))
        kind = r.kind or "invalid"
        self.output.value = (
            f"<div><b>Knocker's melds:</b> {melds or 'none'}</div>"
            f"<div><b>Layoffs:</b> {lay}</div>"
            f"<div><b>Deadwood:</b> knocker <span class='rl-k-dw'>{r.knocker_deadwood}</span>, defender "
            f"<span class='rl-d-dw'>{r.defender_deadwood}</span></div>"
            f"<div><b>Rule:</b> <span class='rl-kind'>{kind}</span> — <b>points</b>: knocker "
            f"<span class='rl-k-pts'>{r.knocker_points}</span>, defender "
            f"<span class='rl-d-pts'>{r.defender_points}</span></div><ol>{steps}</ol>"
            + (f"<div style='color:{deadwood_colour()}'>The knocker's choice of melds changed the result."
               "</div>" if r.arrangement_sensitive else ""))


def _cards(cards: CardsLike) -> tuple:
    from ..cards import parse_cards
    return parse_cards(cards, jokers=0)
