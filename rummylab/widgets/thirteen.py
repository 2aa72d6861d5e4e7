"""Three Thirteen widgets: a hand analyzer with wild cards, and a table to play a game."""

from __future__ import annotations

import html
from typing import Any

import ipywidgets as w

from .. import three_thirteen as tt
from ..i18n import NP_, _, ngettext, pgettext
from ..three_thirteen import game as g
from ..three_thirteen.players import make_bot
from .base import GameTable
from .style import MELD_COLOURS, card_chip, deadwood_colour, fill, meld_word, text

PHASE_WORDS = {g.Phase.DRAW: NP_("game phase", "draw"), g.Phase.DISCARD: NP_("game phase", "discard"),
               g.Phase.ROUND_OVER: NP_("game phase", "round over"), g.Phase.GAME_OVER: NP_("game phase", "game over")}
"""A Three Thirteen game's phase, in words."""


class ThirteenAnalyzer(w.VBox):
    """Type a hand and pick the round: the wild rank, the melds (with what each wild stands for),
    the penalty, and with one card more, the discards that go out."""

    def __init__(self, hand: str = "5H 7S 9S KD 2C", round_no: int = 3, rules: tt.Rules = tt.DEFAULT):
        self.rules = rules
        self.round = w.IntSlider(value=round_no, min=1, max=11, description=_("Round"), continuous_update=False)
        self.round.add_class("rl-round")
        self.text = w.Text(value=hand, description=_("Hand"), layout=w.Layout(width="520px"), continuous_update=False)
        self.text.add_class("rl-313-hand")
        self.output = w.HTML()
        self.output.add_class("rl-313-result")
        for x in (self.round, self.text):
            x.observe(lambda _event: self.refresh(), names="value")
        super().__init__([self.round, self.text, self.output])
        self.add_class("rl-313-analyzer")
        self.refresh()

    def refresh(self) -> None:
        r = self.round.value
        size = tt.hand_size(r)
        wild_rank = "<b>" + fill(_("wild rank {rank}"), rank=f"<span class='rl-wild'>{tt.wild_rank(r)}</span>") + "</b>"
        dealt = fill(ngettext("Round {round}: {n} card dealt; {wild_rank}",
                              "Round {round}: {n} cards dealt; {wild_rank}", size),
                     round=r, n=size, wild_rank=wild_rank)
        head = f"<div>{dealt}</div>"
        try:
            a = tt.analyze(self.text.value, r, self.rules)
        except ValueError as exc:
            self.output.value = head + f"<span style='color:#b71c1c'>{html.escape(str(exc))}</span>"
            return
        rows = []
        for i, m in enumerate(a.melds):
            colour = MELD_COLOURS[i % len(MELD_COLOURS)]
            chips = "".join(card_chip(c, colour) for c in m.cards)
            wild = " — " + _("wild as {cards}").format(cards=" ".join(m.stands_for)) if m.stands_for else ""
            rows.append(f"<div class='rl-313-meld'>{text(meld_word(m.kind))}: {chips}{html.escape(wild)}</div>")
        left = "".join(card_chip(c, deadwood_colour()) for c in a.leftover) or text(_("none"))
        said = {key: text(words) for key, words in (("penalty", _("Penalty:")), ("go", _("Go out by discarding:")))}
        left_over = fill(_("left over: {cards}"), cards=left)
        out = (head + "".join(rows) + f"<div>{left_over}</div>"
               f"<div><b>{said['penalty']}</b> <span class='rl-penalty'>{a.penalty}</span></div>")
        if len(a.cards) == tt.hand_size(r) + 1:
            go = tt.going_out_discards(a.cards, r, self.rules)
            out += (f"<div><b>{said['go']}</b> " + (" ".join(map(str, sorted(go))) or text(_("no card yet")))
                    + "</div>")
        self.output.value = out


class ThirteenTable(GameTable):
    """Play Three Thirteen against bots: you are player 0."""

    def __init__(self, players: int = 2, opponent: str = "greedy", *, seed: int = 0, rules: tt.Rules = tt.DEFAULT):
        self.game = g.GAME
        self.state = g.new_game(players, rules, seed)
        self.bots = [make_bot(opponent, seed + i) for i in range(players)]
        self.status = w.HTML()
        self.status.add_class("rl-313-status")
        self.hand_box = w.HBox()
        self.actions = w.HBox()
        self.history = w.HTML()
        super().__init__([self.status, self.hand_box, self.actions, self.history], "rl-313-table")
        self.bots_play()
        self.refresh()

    def bot_to_act(self) -> Any | None:
        s = self.state
        return self.bots[s.to_play] if s.phase in (g.Phase.DRAW, g.Phase.DISCARD) and s.to_play != 0 else None

    def refresh(self) -> None:
        s = self.state
        names = [text(_("You")) if i == 0 else text(_("Bot {n}").format(n=i)) for i in range(len(s.scores))]
        scores = ", ".join(f"{name} {v}" for name, v in zip(names, s.scores, strict=True))
        top = card_chip(s.discards[-1]) if s.discards else text(_("empty"))
        phase = text(pgettext("game phase", PHASE_WORDS[s.phase]) if s.phase in PHASE_WORDS else s.phase.value)
        said = {key: text(words) for key, words in (("totals", _("Totals:")),
                                                     ("out", _("someone went out: last turns")))}
        round_no = "<b>" + fill(_("Round {round}"), round=s.round_no) + "</b>"
        status = fill(_("{round} (wild {rank}) · phase {phase} · discard pile {top}"), round=round_no,
                      rank=tt.wild_rank(s.round_no), phase=f"<span class='rl-phase'>{phase}</span>", top=top)
        self.status.value = (f"{status} · <b>{said['totals']}</b> {scores}"
                             + (f" · <b>{said['out']}</b>" if s.went_out is not None else ""))
        mine = s.hands[0]
        my_discard = s.phase is g.Phase.DISCARD and s.to_play == 0
        buttons = []
        for c in mine:
            b = w.Button(description=c.symbol, tooltip=str(c), layout=w.Layout(width="46px"), disabled=not my_discard)
            b.add_class("rl-313-card")
            b.on_click(lambda _event, c=c: self.play(g.Action(g.Kind.GO_OUT if s.went_out is None and g.can_go_out(s, c)
                                                         else g.Kind.DISCARD, c)))
            buttons.append(b)
        self.replace_children(self.hand_box, buttons)
        acts = []
        if s.phase is g.Phase.DRAW and s.to_play == 0:
            acts = [self.button(_("Draw from stock"), "rl-313-draw-stock", lambda: self.play(g.DRAW_STOCK)),
                    self.button(_("Take the discard"), "rl-313-draw-discard", lambda: self.play(g.DRAW_DISCARD))]
        elif s.phase is g.Phase.ROUND_OVER:
            acts = [self.button(_("Next round"), "rl-313-next", lambda: self.play(g.NEXT_ROUND))]
        self.replace_children(self.actions, acts)
        self.history.value = self.log_html(40)
