"""GameTable: what every game table shares: a game on the one engine, you in seat 0, bots in
the other seats, your moves checked (an illegal one is explained, not made), a move log."""

from __future__ import annotations

import html
from typing import Any

import ipywidgets as w

from ..i18n import _
from ..play import Game, IllegalAction
from .style import text


class GameTable(w.VBox):
    """A table for one game: subclasses say whose turn it is and draw the table (``refresh``)."""

    game: Game[Any]
    state: Any

    def __init__(self, children: list[w.Widget], css_class: str) -> None:
        self.moves: list[str] = []
        self.problem = w.HTML()
        self.problem.add_class("rl-problem")
        super().__init__([*children, self.problem])
        self.add_class(css_class)

    # -- the game behind the table ------------------------------------------

    def player_name(self, state: Any) -> str:
        """Who acts in ``state`` ("You" or a bot), in the language in use."""
        return _("You") if state.to_play == 0 else _("Bot {n}").format(n=state.to_play)

    def bot_to_act(self) -> Any | None:
        """The bot whose turn it is (None: yours, or the game waits)."""
        raise NotImplementedError

    def bot_view(self) -> Any:
        """What the bot to act is shown."""
        return self.state

    def apply(self, action: Any) -> None:
        """Apply a checked action to the table's game and log it."""
        who = self.player_name(self.state)
        self.state = self.game.apply(self.state, action)
        self.moves.append(f"{who}: {action}")

    def bots_play(self, limit: int = 10_000) -> None:
        """Let the bots act until it is your turn or the game waits for you."""
        for _turn in range(limit):
            bot = self.bot_to_act()
            if bot is None:
                return
            self.apply(bot.act(self.bot_view()))

    def play(self, action: Any) -> None:
        """Make your move, then the bots'; an illegal move is explained, not made."""
        try:
            self.apply(action)
        except IllegalAction as exc:
            self.problem.value = f"<span style='color:#b71c1c'>{html.escape(str(exc))}</span>"
            return
        self.problem.value = ""
        self.bots_play()
        self.refresh()

    def refresh(self) -> None:
        raise NotImplementedError

    # -- drawing ------------------------------------------------------------

    @staticmethod
    def replace_children(box: w.Box, children: list[w.Widget]) -> None:
        """Put ``children`` in ``box`` and close the widgets they replace: a table draws new
        buttons every move, and closed ones leave the kernel and the page."""
        old = [c for c in box.children if c not in children]
        box.children = children
        for widget in old:
            close_all(widget)

    @staticmethod
    def button(label: str, css: str, on_click: Any) -> w.Button:
        b = w.Button(description=label)
        b.add_class(css)
        b.on_click(lambda _event: on_click())
        return b

    def log_html(self, last: int = 40) -> str:
        history = text(_("History"))
        return f"<details><summary>{history}</summary><ol>" + "".join(
            f"<li>{html.escape(x)}</li>" for x in self.moves[-last:]) + "</ol></details>"


def close_all(widget: w.Widget) -> None:
    """Close a widget with its own layout and style (and a box's children)."""
    for child in getattr(widget, "children", ()):
        close_all(child)
    for part in ("layout", "style"):
        own = getattr(widget, part, None)
        if isinstance(own, w.Widget):
            own.close()
    widget.close()
