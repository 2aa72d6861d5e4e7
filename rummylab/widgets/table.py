"""GinTable: play gin against a bot, hand by hand to the end of a game; also three-handed."""

from __future__ import annotations

import html
from collections.abc import Callable, Sequence
from typing import Any

import ipywidgets as w

from ..gin import DEFAULT, THREE_HANDED, Rules
from ..gin import game as g
from ..gin import three_handed as th
from ..gin.advice import advise
from ..gin.players import Bot
from ..gin.rollout_bot import make_bot
from .base import GameTable
from .review import show_review
from .scorer import explain
from .style import card_chip

YOU = "You"
PHASE_WORDS = {g.Phase.FIRST_UPCARD: "first turn: take the upcard or pass", g.Phase.DRAW: "draw a card",
               g.Phase.DISCARD: "discard a card (or knock)"}
"""What the player to act does, in words."""
OPPONENT_WORDS = {"random": "random (any legal move)", "greedy": "greedy (knocks as soon as it may)",
                  "strong": "strong (looks one draw ahead)", "expert": "expert (reads your hand)",
                  "rollout": "rollout (plays each option out)"}
REVIEW_SAMPLES = 1024
"""Worlds an option is played in at most when a student reviews a hand (a quarter of a second or
so of the kernel's time; ``gin.review``'s default plays four times as many)."""


class GinTable(GameTable):
    """A gin table: you are seat 0 (or one of three players in the box game), the bot plays
    the other seat(s). Click a card to discard it; switch on "Knock" to knock with it."""

    def __init__(self, opponent: str = "strong", *, rules: Rules | None = None, seed: int = 0,
                 three_handed: bool = False, opponents: Sequence[str] = ()):
        self.three = three_handed
        self.seed = seed
        self.rules = rules or (THREE_HANDED if three_handed else DEFAULT)
        self.bot: Bot = make_bot(opponent, seed)
        self.hint_seed = seed + 1
        """The expert's samples for a hint (``gin.bots.advise``)."""
        self.game = th.GAME if three_handed else g.GAME
        self.state = th.new_game((YOU, "Bot A", "Bot B"), self.rules, seed) if three_handed else g.new_game(
            self.rules, seed)
        self.status = w.HTML()
        self.status.add_class("rl-status")
        self.roles = w.HTML()
        self.roles.add_class("rl-roles")
        self.pile = w.HTML()
        self.pile.add_class("rl-pile")
        self.hand_box = w.HBox()
        self.hand_box.add_class("rl-hand")
        self.knock_mode = w.ToggleButton(description="Knock", tooltip="then click the card to discard face down")
        self.knock_mode.add_class("rl-knock-mode")
        self.hint_toggle = w.Checkbox(description="Show hint", value=False)
        self.hint_toggle.add_class("rl-hint-toggle")
        self.hint_toggle.observe(lambda _: self.refresh(), names="value")
        self.hint = w.HTML()
        self.hint.add_class("rl-hint")
        self.actions = w.HBox()
        self.actions.add_class("rl-actions")
        self.result = w.HTML()
        self.result.add_class("rl-result")
        self.history = w.HTML()
        self.history.add_class("rl-history")
        self.review = w.HTML()
        self.review.add_class("rl-review")
        self.on_review: Callable[[Any], object] | None = None
        """Called with each review the student opens (``lessons.review_log``: kept for the teacher)."""
        top: list[w.Widget] = []
        if opponents:
            if three_handed:
                raise ValueError("opponents=: the three-handed table's bots are fixed (no opponent to choose)")
            for name in opponents:
                make_bot(name, 0)  # an unknown name is refused here
            self.choice = w.Dropdown(options=[(OPPONENT_WORDS.get(n, n), n) for n in opponents], value=opponent
                                     if opponent in opponents else opponents[0], description="Opponent",
                                     layout=w.Layout(width="auto"), style={"description_width": "initial"})
            self.choice.add_class("rl-opponent")
            top = [w.HBox([self.choice, self.button("New game", "rl-new-game", self.new_game)])]
        super().__init__([*top, self.status, self.roles, self.pile, self.hand_box, self.actions,
                          w.HBox([self.knock_mode, self.hint_toggle]), self.hint, self.result, self.review,
                          self.history], "rl-gin-table")
        self.bots_play()
        self.refresh()

    # -- the game behind the table ----------------------------------------

    @property
    def hand_state(self) -> g.State:
        return self.state.hand if self.three else self.state  # type: ignore[no-any-return]

    @property
    def seat(self) -> int | None:
        """Your seat in the current hand (0 or 1), or None while you sit out."""
        if not self.three:
            return 0
        r = self.state.roles
        return 0 if r.box == YOU else 1 if r.captain == YOU else None

    @property
    def over(self) -> bool:
        if self.three:
            return bool(self.state.over)
        return self.state.phase in (g.Phase.GAME_OVER, g.Phase.MATCH_OVER)  # type: ignore[no-any-return]

    def player_name(self, state: Any) -> str:
        return self._name(self.hand_state.to_play)

    def _name(self, seat: int) -> str:
        if not self.three:
            return YOU if seat == 0 else f"Bot ({self.bot.name})"
        r = self.state.roles
        return r.box if seat == 0 else r.captain  # type: ignore[no-any-return]

    def bot_to_act(self) -> Bot | None:
        """The bot, until it is your turn, the hand ends or the game ends (while you sit out,
        the bots wait for "Watch the hand")."""
        s = self.hand_state
        if self.seat is None or self.over or s.phase is g.Phase.HAND_OVER or s.to_play == self.seat:
            return None
        return self.bot

    def bot_view(self) -> g.State:
        return self.hand_state

    # -- your moves ---------------------------------------------------------

    def play(self, action: g.Action) -> None:
        """Make your move, then the bot's; an illegal move is explained, not made."""
        super().play(action)
        self.knock_mode.value = False

    def new_game(self) -> None:
        """A new game against the opponent chosen (the next seed: a new deal)."""
        self.seed += 1
        self.bot = make_bot(self.choice.value, self.seed)
        self.hint_seed = self.seed + 1
        self.state = g.new_game(self.rules, self.seed)
        self.moves.clear()
        self.review.value = self.problem.value = ""
        self.bots_play()
        self.refresh()

    def review_hand(self) -> None:
        """Your decisions of the hand just played, judged from what you knew then."""
        from ..gin.game_review import review

        done = review(self.state, 0, seed=self.hint_seed, samples=REVIEW_SAMPLES, last_hand=True)
        show_review(self, done)

    def next_hand(self) -> None:
        self.review.value = ""
        self.apply(g.NEXT_HAND if self.hand_state.phase is g.Phase.HAND_OVER else g.NEXT_GAME)
        self.bots_play()
        self.refresh()

    def sit_out_hand(self) -> None:
        """While you sit out: the bots play the hand to its end."""
        for _ in range(10_000):
            s = self.hand_state
            if self.over or s.phase is g.Phase.HAND_OVER:
                break
            self.apply(self.bot.act(s))
        self.refresh()

    def _card_click(self, card: Any) -> None:
        self.play(g.Action(g.Kind.KNOCK if self.knock_mode.value else g.Kind.DISCARD, card))

    # -- drawing the table --------------------------------------------------

    def refresh(self) -> None:
        s = self.hand_state
        seat = self.seat
        if self.three:
            r = self.state.roles
            scores = ", ".join(f"{p} {v}" for p, v in self.state.scores.items())
            self.roles.value = (f"<b>Box:</b> {r.box} (deals) · <b>Captain:</b> {r.captain} · "
                                f"<b>Sitting out:</b> {r.sitting_out}")
        else:
            scores = f"You {s.scores[0]}, Bot {s.scores[1]}"
            self.roles.value = ""
        turn = ("game over" if self.over else "hand over" if s.phase is g.Phase.HAND_OVER
                else "your turn" if s.to_play == seat else f"{self._name(s.to_play)} to play")
        step = "" if self.over or s.phase is g.Phase.HAND_OVER else PHASE_WORDS[s.phase]
        self.status.value = (f"<b>{turn}</b>" + (f" · <span class='rl-phase'>{step}</span>" if step else "")
                             + f" · <b>Scores:</b> <span class='rl-scores'>{scores}</span>")
        top = card_chip(s.discards[-1]) if s.discards else "empty"
        self.pile.value = f"<b>Discard pile:</b> {top} · <b>Stock:</b> {len(s.stock)} cards"
        mine = s.hand(seat) if seat is not None else ()
        my_turn = seat is not None and s.to_play == seat and not self.over
        buttons = []
        for c in mine:
            b = w.Button(description=c.symbol, tooltip=str(c), layout=w.Layout(width="46px"),
                         disabled=not (my_turn and s.phase is g.Phase.DISCARD and c != s.taken))
            b.add_class("rl-hand-card")
            b.add_class(f"rl-hand-card-{c}")
            b.on_click(lambda _, c=c: self._card_click(c))
            buttons.append(b)
        self.replace_children(self.hand_box, buttons)
        if mine and len(mine) in (10, 11):
            from .. import gin
            dw = gin.deadwood(mine)
            note = " after your best discard" if len(mine) == 11 else ""
            self.pile.value += f" · <b>Your deadwood:</b> <span class='rl-your-dw'>{dw}</span>{note}"
        acts: list[w.Button] = []
        if my_turn:
            labels = {"take_upcard": "Take upcard", "pass": "Pass", "draw_stock": "Draw from stock",
                      "draw_discard": "Take the discard", "big_gin": "Big gin!"}
            for a in g.legal_actions(s):
                if a.kind in labels:
                    acts.append(self.button(labels[a.kind], f"rl-{a.kind.replace('_', '-')}",
                                             lambda a=a: self.play(a)))
        if s.phase in (g.Phase.HAND_OVER, g.Phase.GAME_OVER) and not self.over:
            acts.append(self.button("Next hand", "rl-next-hand", self.next_hand))
        if not self.three and s.phase in (g.Phase.HAND_OVER, g.Phase.GAME_OVER, g.Phase.MATCH_OVER):
            review = self.button("Review this hand", "rl-review-hand", self.review_hand)
            review.disabled = bool(self.review.value)  # shown already
            acts.append(review)
        if self.three and seat is None and s.phase not in (g.Phase.HAND_OVER,) and not self.over:
            acts.append(self.button("Watch the hand (you sit out)", "rl-sit-out", self.sit_out_hand))
        self.replace_children(self.actions, acts)
        self.hint.value = ""
        if self.hint_toggle.value and my_turn:
            advice = advise(s, top=1, seed=self.hint_seed)
            self.hint.value = (f"Hint: <b class='rl-hint-action'>{html.escape(str(advice.choice))}</b>: "
                               f"<span class='rl-hint-reason'>{html.escape(advice.options[0].reason)}</span>")
        rec = s.last_record if s.phase is g.Phase.HAND_OVER or self.over else None
        if rec is None:
            self.result.value = ""
        elif rec.kind == "dead":
            self.result.value = "<b>Dead hand</b>: two stock cards left without a knock; the same dealer deals again."
        else:
            steps = "".join(f"<li>{html.escape(x)}</li>" for x in explain(rec.score, self.rules)) if rec.score else ""
            winner = self._name(rec.winner) if rec.winner is not None else "nobody"
            self.result.value = (f"<b>{rec.kind}</b>: {winner} scores <span class='rl-points'>{rec.points}</span>"
                                 f"<ol>{steps}</ol>")
        if self.over:
            self.result.value += "<div class='rl-game-over'><b>Game over.</b></div>"
        self.history.value = self.log_html(60)
