"""Three Thirteen widgets: a hand analyzer with wild cards, and a table to play a game."""

from __future__ import annotations

import html
from typing import Any

import ipywidgets as w

from .. import three_thirteen as tt
from ..three_thirteen import game as g
from ..three_thirteen.players import make_bot
from .base import GameTable
from .style import MELD_COLOURS, card_chip, deadwood_colour


class ThirteenAnalyzer(w.VBox):
    """Type a hand and pick the round: the wild rank, the melds (with what each wild stands for),
    the penalty, and with one card more, the discards that go out."""

    def __init__(self, hand: str = "5H 7S 9S KD 2C", round_no: int = 3, rules: tt.Rules = tt.DEFAULT):
        self.rules = rules
        self.round = w.IntSlider(value=round_no, min=1, max=11, description="Round", continuous_update=False)
        self.round.add_class("rl-round")
        self.text = w.Text(value=hand, description="Hand", layout=w.Layout(width="520px"), continuous_update=False)
        self.text.add_class("rl-313-hand")
        self.output = w.HTML()
        self.output.add_class("rl-313-result")
        for x in (self.round, self.text):
            x.observe(lambda _: self.refresh(), names="value")
        super().__init__([self.round, self.text, self.output])
        self.add_class("rl-313-analyzer")
        self.refresh()

    def refresh(self) -> None:
        r = self.round.value
        head = (f"<div>Round {r}: {tt.hand_size(r)} cards dealt; "
                f"<b>wild rank <span class='rl-wild'>{tt.wild_rank(r)}</span></b></div>")
        try:
            a = tt.analyze(self.text.value, r, self.rules)
        except ValueError as exc:
            self.output.value = head + f"<span style='color:#b71c1c'>{html.escape(str(exc))}</span>"
            return
        rows = []
        for i, m in enumerate(a.melds):
            colour = MELD_COLOURS[i % len(MELD_COLOURS)]
            chips = "".join(card_chip(c, colour) for c in m.cards)
            wild = f" — wild as {' '.join(m.stands_for)}" if m.stands_for else ""
            rows.append(f"<div class='rl-313-meld'>{m.kind}: {chips}{html.escape(wild)}</div>")
        left = "".join(card_chip(c, deadwood_colour()) for c in a.leftover) or "none"
        out = (head + "".join(rows) + f"<div>left over: {left}</div>"
               f"<div><b>Penalty:</b> <span class='rl-penalty'>{a.penalty}</span></div>")
        if len(a.cards) == tt.hand_size(r) + 1:
            go = tt.going_out_discards(a.cards, r, self.rules)
            out += ("<div><b>Go out by discarding:</b> " + (" ".join(map(str, sorted(go))) or "no card yet")
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
        scores = ", ".join(("You" if i == 0 else f"Bot {i}") + f" {v}" for i, v in enumerate(s.scores))
        top = card_chip(s.discards[-1]) if s.discards else "empty"
        self.status.value = (f"<b>Round {s.round_no}</b> (wild {tt.wild_rank(s.round_no)}) · phase "
                             f"<span class='rl-phase'>{s.phase.value}</span> · discard pile {top} · "
                             f"<b>Totals:</b> {scores}"
                             + (" · <b>someone went out: last turns</b>" if s.went_out is not None else ""))
        mine = s.hands[0]
        my_discard = s.phase is g.Phase.DISCARD and s.to_play == 0
        buttons = []
        for c in mine:
            b = w.Button(description=c.symbol, tooltip=str(c), layout=w.Layout(width="46px"), disabled=not my_discard)
            b.add_class("rl-313-card")
            b.on_click(lambda _, c=c: self.play(g.Action(g.Kind.GO_OUT if s.went_out is None and g.can_go_out(s, c)
                                                         else g.Kind.DISCARD, c)))
            buttons.append(b)
        self.replace_children(self.hand_box, buttons)
        acts = []
        if s.phase is g.Phase.DRAW and s.to_play == 0:
            acts = [self.button("Draw from stock", "rl-313-draw-stock", lambda: self.play(g.DRAW_STOCK)),
                    self.button("Take the discard", "rl-313-draw-discard", lambda: self.play(g.DRAW_DISCARD))]
        elif s.phase is g.Phase.ROUND_OVER:
            acts = [self.button("Next round", "rl-313-next", lambda: self.play(g.NEXT_ROUND))]
        self.replace_children(self.actions, acts)
        self.history.value = self.log_html(40)
