"""Indian rummy widgets: a grouping board that checks a declaration, and a table to play a pool."""

from __future__ import annotations

import html
from collections.abc import Callable, Sequence
from typing import Any

import ipywidgets as w

from .. import indian
from ..cards import RANKS, Card, cards_str, parse_cards
from ..i18n import NP_, _, ngettext, pgettext
from ..indian import game as g
from ..indian.analysis import parse_hand
from ..indian.players import GreedyBot
from .base import GameTable
from .review import show_review
from .style import MELD_COLOURS, card_chip, deadwood_colour, fill, text

GROUPS = 6
"""At most six groups, as on the common apps (the brief's group button)."""
LESSON_HAND = "AS 2S 3S 5H 6H JK 9D 9C 9S KD QD 7C 7H"
KIND_WORDS = {"pure": NP_("meld kind", "pure sequence"), "impure": NP_("meld kind", "impure sequence"),
              "set": NP_("meld kind", "set"), None: NP_("meld kind", "not a group")}
"""What a group is, in words (translated where it is shown)."""
REVIEW_SAMPLES = 64
"""Worlds each option is played out in when a student reviews a deal at the table (a second or
two of the kernel's time for a deal; ``indian.review``'s default plays four times as many)."""


class GroupingBoard(w.VBox):
    """Pick a group, click cards into it; each group is classified and the declaration checked.
    "Group for me" finds a valid declaration (or the grouping that loses least)."""

    def __init__(self, hand: str = LESSON_HAND, wild_rank: str = "7", rules: indian.Rules = indian.DEFAULT):
        self.rules = rules
        self.cards: list[Card] = list(parse_hand(hand, (13,), rules))
        self.groups_of = [0] * len(self.cards)  # 0: not in a group yet
        self.wild = w.Dropdown(options=list(RANKS), value=RANKS[indian.rules.wild_rank_index(wild_rank)],
                               description=_("Wild joker"), layout=w.Layout(width="180px"))
        self.wild.add_class("rl-wild-rank")
        self.target = w.ToggleButtons(options=[(_("Group {n}").format(n=i), i) for i in range(1, GROUPS + 1)]
                                      + [(_("Ungroup"), 0)], value=1, style={"button_width": "72px"})
        self.target.add_class("rl-group-target")
        self.buttons = []
        for i, c in enumerate(self.cards):
            b = w.Button(description=c.symbol, layout=w.Layout(width="46px"), tooltip=str(c))
            b.add_class("rl-card")
            b.add_class(f"rl-card-{i}")
            b.on_click(lambda _event, i=i: self._put(i))
            self.buttons.append(b)
        self.auto = w.Button(description=_("Group for me"))
        self.auto.add_class("rl-auto-group")
        self.auto.on_click(lambda _event: self.group_for_me())
        self.clear = w.Button(description=_("Clear"))
        self.clear.on_click(lambda _event: self.set_groups([]))
        self.output = w.HTML()
        self.output.add_class("rl-declaration")
        self.wild.observe(lambda _event: self.refresh(), names="value")
        super().__init__([self.wild, self.target, w.HBox(self.buttons, layout=w.Layout(flex_flow="row wrap")),
                          w.HBox([self.auto, self.clear]), self.output])
        self.add_class("rl-grouping-board")
        self.refresh()

    def _put(self, i: int) -> None:
        self.groups_of[i] = self.target.value
        self.refresh()

    def groups(self) -> list[list[Card]]:
        """The groups made so far (empty ones left out)."""
        out = [[c for c, k in zip(self.cards, self.groups_of, strict=True) if k == i] for i in range(1, GROUPS + 1)]
        return [grp for grp in out if grp]

    def set_groups(self, groups: Sequence[str | Sequence[Card]]) -> None:
        """Put cards into groups 1, 2, … (the cards must be in the hand)."""
        self.groups_of = [0] * len(self.cards)
        for k, grp in enumerate(groups[:GROUPS], start=1):
            for c in parse_cards(grp, copies=2, jokers=self.rules.printed_jokers):
                free = [i for i, (x, gk) in enumerate(zip(self.cards, self.groups_of, strict=True))
                        if x == c and gk == 0]
                if not free:
                    raise ValueError(f"{c}: not in the hand (or already in a group)")
                self.groups_of[free[0]] = k
        self.refresh()

    def group_for_me(self) -> None:
        found = indian.best_declaration(self.cards, self.wild.value, self.rules)
        if found is None:
            lp = indian.loser_points(self.cards, self.wild.value, self.rules)
            self.set_groups([m.cards for m in lp.groups])
        else:
            self.set_groups(list(found))

    def refresh(self) -> None:
        wild = self.wild.value
        for b, k in zip(self.buttons, self.groups_of, strict=True):
            b.style.button_color = MELD_COLOURS[(k - 1) % len(MELD_COLOURS)] if k else None
        rows = []
        for k, grp in enumerate(self.groups(), start=1):
            kind = indian.classify_group(grp, wild, self.rules)
            why = indian.explain_group(grp, wild, self.rules)
            colour = MELD_COLOURS[(k - 1) % len(MELD_COLOURS)] if kind else deadwood_colour()
            chips = "".join(card_chip(c, colour) for c in grp)
            note = "" if kind else f" — {html.escape(why)}"
            said = text(pgettext("meld kind", KIND_WORDS[kind]))
            rows.append(f"<div class='rl-group'>{chips} <b>{said}</b>{note}</div>")
        loose = [c for c, k in zip(self.cards, self.groups_of, strict=True) if k == 0]
        if loose:
            verdict = fill(ngettext("{n} card not in a group yet: {cards}", "{n} cards not in a group yet: {cards}",
                                    len(loose)), n=len(loose),
                           cards="".join(card_chip(c, deadwood_colour()) for c in loose))
        else:
            d = indian.check_declaration(self.cards, self.groups(), wild, self.rules)
            colour = "#1b5e20" if d.valid else "#b71c1c"
            verdict = f"<span class='rl-verdict' style='color:{colour};font-weight:700'>{html.escape(d.reason)}</span>"
        lp = indian.loser_points(self.cards, wild, self.rules)
        lose = (_("If someone else declared now, this hand would lose {points} points.") if lp.lives else
                _("If someone else declared now, this hand would lose {points} points (no two lives: every card "
                  "counts)."))
        hint = "<div>" + fill(lose, points=f"<b class='rl-loser-points'>{lp.points}</b>") + "</div>"
        every = fill(_("Wild joker: every {rank}, and the printed jokers."), rank=f"<b>{wild}</b>")
        self.output.value = f"<div>{every}</div>" + "".join(rows) + f"<div>{verdict}</div>" + hint


class IndianTable(GameTable):
    """Play pool, points or deals rummy against greedy bots: you are player 0. After each deal,
    *Review this deal* judges your decisions (``on_review``: a callback given each review, as
    ``lessons.review_log()`` makes one)."""

    def __init__(self, players: int = 2, pool: int | None = 101, *, seed: int = 0,
                 rules: indian.Rules = indian.DEFAULT, deals: int | None = None):
        self.game = g.GAME
        self.state = (g.new_game(players, rules, seed, None, deals) if deals
                      else g.new_game(players, rules, seed, pool))
        self.bots = [GreedyBot(seed + i) for i in range(players)]
        self.status = w.HTML()
        self.status.add_class("rl-indian-status")
        self.hand_box = w.HBox(layout=w.Layout(flex_flow="row wrap"))
        self.actions = w.HBox()
        self.log_box = w.HTML()
        self.review = w.HTML()
        self.review.add_class("rl-review")
        self.on_review: Callable[[Any], object] | None = None
        self.seed = seed
        super().__init__([self.status, self.hand_box, self.actions, self.review, self.log_box], "rl-indian-table")
        self.bots_play()
        self.refresh()

    def player_name(self, state: Any) -> str:
        if state.to_play == 0 or state.phase is g.Phase.DEAL_OVER:
            return _("You")
        return _("Bot {n}").format(n=state.to_play)

    def bot_to_act(self) -> Any | None:
        s = self.state
        return self.bots[s.to_play] if s.phase in (g.Phase.DRAW, g.Phase.DISCARD) and s.to_play != 0 else None

    def show(self) -> None:
        """Declare: the table groups your 14 cards into a valid declaration if one exists."""
        groups = indian.best_declaration(self.state.hands[0], RANKS[self.state.wild_rank], self.state.rules)
        if groups is None:
            self.moves.append(_("No valid declaration yet: a wrong show would cost {points}.").format(
                points=self.state.rules.wrong_show_points))
            self.refresh()
            return
        held = list(self.state.hands[0])
        for grp in groups:
            for c in grp:
                held.remove(c)
        self.play(g.Action(g.Kind.DECLARE, held[0], groups))

    def review_deal(self) -> None:
        """Your decisions of the deal just played, judged from what you knew then."""
        from ..indian.review import review

        done = review(self.state, 0, seed=self.seed + 1, samples=REVIEW_SAMPLES, last_deal=True)
        show_review(self, done)

    def play(self, action: Any) -> None:
        if action.kind is g.Kind.NEXT_DEAL:
            self.review.value = ""
        super().play(action)

    def refresh(self) -> None:
        s = self.state
        wild = RANKS[s.wild_rank]
        top = s.discards[-1] if s.discards else None
        who = [(_("you") if p == 0 else _("bot {n}").format(n=p)) for p in range(s.players)]
        joker = fill(_("wild joker {rank} (cut {cut})"), rank=f"<b>{wild}</b>", cut=s.cut)
        if s.deals:
            chips = ", ".join(f"{who[p]} {v}" for p, v in enumerate(s.chips))
            parts = [text(_("Deal {n} of {deals}").format(n=s.deal_no, deals=s.deals)), joker,
                     text(_("chips {players}").format(players=chips)), text(_("deals rummy"))]
        else:
            scores = ", ".join(f"{who[p]} {v}" for p, v in enumerate(s.scores))
            parts = [text(_("Deal {n}").format(n=s.deal_no)), joker, text(_("scores {players}").format(players=scores)),
                     text(_("pool {pool}").format(pool=s.pool) if s.pool else _("points rummy"))]
        head = " · ".join(parts)
        buttons: list[w.Widget] = []
        if s.phase is g.Phase.DISCARD and s.to_play == 0:
            cards = []
            for c in s.hands[0]:
                b = w.Button(description=c.symbol, layout=w.Layout(width="46px"),
                             tooltip=_("discard {card}").format(card=c))
                b.add_class("rl-card")
                b.on_click(lambda _event, c=c: self.play(g.Action(g.Kind.DISCARD, c)))
                cards.append(b)
            self.replace_children(self.hand_box, cards)
            show = w.Button(description=_("Show (declare)"))
            show.on_click(lambda _event: self.show())
            buttons.append(show)
            note = _("Click a card to discard it, or show.")
        else:
            self.replace_children(self.hand_box, [w.HTML("".join(card_chip(c) for c in s.hands[0]))])
            note = ""
            if s.phase is g.Phase.DRAW and s.to_play == 0 and s.in_deal[0]:
                for label, act in ((_("Draw from stock"), g.DRAW_STOCK), (_("Take {card}").format(card=top),
                                                                          g.DRAW_DISCARD), (_("Drop"), g.DROP)):
                    if act in g.legal_actions(s):
                        b = w.Button(description=label)
                        b.on_click(lambda _event, a=act: self.play(a))
                        buttons.append(b)
                if top is not None and g.is_joker(s, top) and g.DRAW_DISCARD not in g.legal_actions(s):
                    note = _("Draw a card, or drop. ({card} is a joker: a joker is never taken from the discard "
                             "pile.)").format(card=top)
                else:
                    note = _("Draw a card, or drop.")
            elif s.phase is g.Phase.DEAL_OVER:
                shown = " | ".join(cards_str(grp) for grp in s.shown)
                note = self._deal_over(s.winner, shown).format(n=s.winner, shown=shown, points=s.deal_points)
                for act in g.legal_actions(s):
                    said = {"next_deal": _("Next deal"), "finish": _("Finish")}
                    b = w.Button(description=said.get(act.kind.value, str(act)))
                    b.on_click(lambda _event, a=act: self.play(a))
                    buttons.append(b)
            elif s.phase is g.Phase.GAME_OVER:
                champion = s.game_winner
                note = (_("Game over: you win.") if champion == 0 else _("Game over: no winner.") if champion is None
                        else _("Game over: bot {n} wins.").format(n=champion))
            if s.phase in (g.Phase.DEAL_OVER, g.Phase.GAME_OVER) and s.deal_history:
                review = w.Button(description=_("Review this deal"), disabled=bool(self.review.value))
                review.add_class("rl-review-deal")
                review.on_click(lambda _event: self.review_deal())
                buttons.append(review)
        self.replace_children(self.actions, buttons)
        pile = text(_("Top of the discard pile: {card}").format(card=top or "-"))
        self.status.value = (f"<div>{head}</div><div>{pile}</div>"
                             f"<div class='rl-indian-note'>{html.escape(note)}</div>")
        self.log_box.value = "<br>".join(html.escape(m) for m in self.moves[-8:])

    @staticmethod
    def _deal_over(winner: int | None, shown: str) -> str:
        """What is said when a deal is over: who won it, the groups shown and the points (a template)."""
        if winner == 0:
            return _("Deal over: you won the deal ({shown}). Points: {points}.") if shown else _(
                "Deal over: you won the deal. Points: {points}.")
        return _("Deal over: bot {n} won the deal ({shown}). Points: {points}.") if shown else _(
            "Deal over: bot {n} won the deal. Points: {points}.")
