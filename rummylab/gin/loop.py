"""What gin's compiled loops and the Python side share: the codes of endings, actions and bots
(rummylab/sim/codes.py), the rows' columns, a bot as the loop takes it (a spec) and the engine's
bot for a spec, and the loop's rule and bot arguments."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

import numpy as np

from ..sim import codes
from .expert import ExpertBot
from .game import Kind
from .players import BOTS, FIRST_UPCARD, TAKES, Bot, GreedyBot, RandomBot, StrongBot
from .rules import Rules

ENDS = codes.GIN.ends
"""How a hand ends, as the compiled loop numbers them (HandRecord.kind)."""
ACTIONS = tuple(Kind[name] for name in codes.GIN.actions)
"""The actions of a turn, as the compiled loop numbers them."""
_ACTION_CODE: dict[Any, int] = {k: i for i, k in enumerate(ACTIONS)}
BOT_CODES = {name: i for i, name in enumerate(codes.GIN.bots)}
HAND_COLUMNS = codes.GIN.columns["hand"]
TURN_COLUMNS = codes.GIN.columns["turn"]


class BotSpec(NamedTuple):
    """A bot the compiled loop can play: its name and ``GreedyBot``'s options."""

    name: str
    knock_at: int | None = None
    first_upcard: str = "greedy"
    takes: str = "lowers"


def bot_spec(bot: str | Bot) -> BotSpec | None:
    """A named bot, or a greedy or strong bot object that knocks, as the compiled loop takes it;
    None for any other bot (it plays on the engine)."""
    if isinstance(bot, str):
        return BotSpec(bot)
    if type(bot) is ExpertBot:
        return BotSpec("expert")
    if type(bot) in (GreedyBot, StrongBot) and bot.knocks:  # type: ignore[attr-defined]
        return BotSpec(bot.name, bot.knock_at, bot.first_upcard, bot.takes)  # type: ignore[attr-defined]
    return None


def spec_bot(spec: BotSpec, rng: np.random.Generator | None = None) -> Bot:
    """The engine's bot for a spec (a random bot or the expert plays from ``rng``)."""
    name, knock_at, first_upcard, takes = spec
    if name == "random":
        return RandomBot(rng)
    if name == "expert":
        return ExpertBot(rng)
    return BOTS[name](0, knock_at=knock_at, first_upcard=first_upcard, takes=takes)  # type: ignore[call-arg]


def loop_options(specs: Sequence[BotSpec], rules: Rules) -> dict[str, Any]:
    """The compiled loop's arguments for these rules (the fields codes.GIN declares) and each seat's
    bot options."""
    looped = codes.options_dict(codes.GIN, {
        "gin_bonus": rules.gin_bonus, "undercut_bonus": rules.undercut_bonus,
        "big_gin_bonus": -1 if rules.big_gin_bonus is None else rules.big_gin_bonus,
        "undercut_on_tie": rules.undercut_on_tie, "knock_limit": rules.knock_limit, "target": rules.target,
        "dead_hand_stock": rules.dead_hand_stock})
    return {"rules": looped, "knock_at": [s.knock_at for s in specs],
            "first_upcard": [FIRST_UPCARD.index(s.first_upcard) for s in specs],
            "takes": [TAKES.index(s.takes) for s in specs]}
