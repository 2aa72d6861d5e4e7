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
from ..i18n import N_, _, ngettext, pgettext
from .base import GameTable
from .review import show_review
from .scorer import KINDS, explain
from .style import card_chip, fill, text

YOU = "You"
"""Your name in the three-handed game's state (shown as ``NAMES`` says)."""
NAMES = {YOU: N_("You"), "Bot A": N_("Bot A"), "Bot B": N_("Bot B")}
"""The three-handed game's players, as the table names them."""
PHASE_WORDS = {g.Phase.FIRST_UPCARD: N_("first turn: take the upcard or pass"), g.Phase.DRAW: N_("draw a card"),
               g.Phase.DISCARD: N_("discard a card (or knock)")}
"""What the player to act does, in words."""
OPPONENT_WORDS = {"random": N_("random (any legal move)"), "greedy": N_("greedy (knocks as soon as it may)"),
                  "strong": N_("strong (looks one draw ahead)"), "expert": N_("expert (reads your hand)"),
                  "rollout": N_("rollout (the expert, checked by playing each option out)")}
"""The opponents to choose from, in words."""
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
        self.knock_mode = w.ToggleButton(description=_("Knock"), tooltip=_("then click the card to discard face down"))
        self.knock_mode.add_class("rl-knock-mode")
        self.hint_toggle = w.Checkbox(description=_("Show hint"), value=False)
        self.hint_toggle.add_class("rl-hint-toggle")
        self.hint_toggle.observe(lambda _event: self.refresh(), names="value")
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
            self.choice = w.Dropdown(options=[(_(OPPONENT_WORDS[n]) if n in OPPONENT_WORDS else n, n)
                                              for n in opponents], value=opponent
                                     if opponent in opponents else opponents[0], description=_("Opponent"),
                                     layout=w.Layout(width="auto"), style={"description_width": "initial"})
            self.choice.add_class("rl-opponent")
            top = [w.HBox([self.choice, self.button(_("New game"), "rl-new-game", self.new_game)])]
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
        """Who sits in ``seat`` of the hand, in the language in use."""
        if not self.three:
            return _("You") if seat == 0 else _("Bot ({name})").format(name=self.bot.name)
        r = self.state.roles
        return _shown(r.box if seat == 0 else r.captain)

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
        for _turn in range(10_000):
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
        said = {key: text(words) for key, words in (
            ("box", _("Box:")), ("captain", _("Captain:")), ("out", _("Sitting out:")), ("scores", _("Scores:")),
            ("pile", _("Discard pile:")), ("stock", _("Stock:")), ("yours", _("Your deadwood:")))}
        if self.three:
            r = self.state.roles
            scores = ", ".join(f"{text(_shown(p))} {v}" for p, v in self.state.scores.items())
            box = text(_("{name} (deals)").format(name=_shown(r.box)))
            self.roles.value = (f"<b>{said['box']}</b> {box} · <b>{said['captain']}</b> {text(_shown(r.captain))} · "
                                f"<b>{said['out']}</b> {text(_shown(r.sitting_out))}")
        else:
            scores = text(_("You {you}, Bot {bot}").format(you=s.scores[0], bot=s.scores[1]))
            self.roles.value = ""
        if self.over:
            turn = _("game over")
        elif s.phase is g.Phase.HAND_OVER:
            turn = _("hand over")
        elif s.to_play == seat:
            turn = _("your turn")
        else:
            turn = _("{name} to play").format(name=self._name(s.to_play))
        step = "" if self.over or s.phase is g.Phase.HAND_OVER else text(_(PHASE_WORDS[s.phase]))
        self.status.value = (f"<b>{text(turn)}</b>" + (f" · <span class='rl-phase'>{step}</span>" if step else "")
                             + f" · <b>{said['scores']}</b> <span class='rl-scores'>{scores}</span>")
        top = card_chip(s.discards[-1]) if s.discards else text(_("empty"))
        stock = text(ngettext("{n} card", "{n} cards", len(s.stock)).format(n=len(s.stock)))
        self.pile.value = f"<b>{said['pile']}</b> {top} · <b>{said['stock']}</b> {stock}"
        mine = s.hand(seat) if seat is not None else ()
        my_turn = seat is not None and s.to_play == seat and not self.over
        buttons = []
        for c in mine:
            b = w.Button(description=c.symbol, tooltip=str(c), layout=w.Layout(width="46px"),
                         disabled=not (my_turn and s.phase is g.Phase.DISCARD and c != s.taken))
            b.add_class("rl-hand-card")
            b.add_class(f"rl-hand-card-{c}")
            b.on_click(lambda _event, c=c: self._card_click(c))
            buttons.append(b)
        self.replace_children(self.hand_box, buttons)
        if mine and len(mine) in (10, 11):
            from .. import gin
            dw = gin.deadwood(mine)
            yours = f"<span class='rl-your-dw'>{dw}</span>"
            if len(mine) == 11:
                yours = fill(_("{deadwood} after your best discard"), deadwood=yours)
            self.pile.value += f" · <b>{said['yours']}</b> {yours}"
        acts: list[w.Button] = []
        if my_turn:
            labels = {"take_upcard": _("Take upcard"), "pass": _("Pass"), "draw_stock": _("Draw from stock"),
                      "draw_discard": _("Take the discard"), "big_gin": _("Big gin!")}
            for a in g.legal_actions(s):
                if a.kind in labels:
                    acts.append(self.button(labels[a.kind], f"rl-{a.kind.replace('_', '-')}",
                                             lambda a=a: self.play(a)))
        if s.phase in (g.Phase.HAND_OVER, g.Phase.GAME_OVER) and not self.over:
            acts.append(self.button(_("Next hand"), "rl-next-hand", self.next_hand))
        if not self.three and s.phase in (g.Phase.HAND_OVER, g.Phase.GAME_OVER, g.Phase.MATCH_OVER):
            review = self.button(_("Review this hand"), "rl-review-hand", self.review_hand)
            review.disabled = bool(self.review.value)  # shown already
            acts.append(review)
        if self.three and seat is None and s.phase not in (g.Phase.HAND_OVER,) and not self.over:
            acts.append(self.button(_("Watch the hand (you sit out)"), "rl-sit-out", self.sit_out_hand))
        self.replace_children(self.actions, acts)
        self.hint.value = ""
        if self.hint_toggle.value and my_turn:
            advice = advise(s, top=1, seed=self.hint_seed)
            action, reason = html.escape(advice.options[0].shown), html.escape(advice.options[0].reason)
            self.hint.value = fill(_("Hint: {action}: {reason}"), action=f"<b class='rl-hint-action'>{action}</b>",
                                   reason=f"<span class='rl-hint-reason'>{reason}</span>")
        rec = s.last_record if s.phase is g.Phase.HAND_OVER or self.over else None
        if rec is None:
            self.result.value = ""
        elif rec.kind == "dead":
            dead = text(_("Dead hand"))
            self.result.value = fill(
                _("{dead_hand}: two stock cards left without a knock; the same dealer deals again."),
                dead_hand=f"<b>{dead}</b>")
        else:
            steps = "".join(f"<li>{html.escape(x)}</li>" for x in explain(rec.score, self.rules)) if rec.score else ""
            winner = self._name(rec.winner) if rec.winner is not None else _("nobody")
            kind = text(pgettext("knock result", KINDS[rec.kind]) if rec.kind in KINDS else rec.kind)
            said_score = fill(_("{kind}: {winner} scores {points}"), kind=f"<b>{kind}</b>", winner=text(winner),
                              points=f"<span class='rl-points'>{rec.points}</span>")
            self.result.value = f"{said_score}<ol>{steps}</ol>"
        if self.over:
            game_over = text(_("Game over."))
            self.result.value += f"<div class='rl-game-over'><b>{game_over}</b></div>"
        self.history.value = self.log_html(60)


def _shown(name: str) -> str:
    """A three-handed player's name (``YOU``, ``"Bot A"``…) in the language in use."""
    return _(NAMES[name]) if name in NAMES else name
