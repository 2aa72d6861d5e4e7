"""Gin's bots under one name (the public ``gin.bots``): the players (``players``: random,
greedy, strong, the expert, and ``advise``) and their games played by the thousand
(``simulation``: ``simulate``, ``trace``)."""

from __future__ import annotations

from .advice import Advice as Advice
from .advice import Option as Option
from .advice import advise as advise
from .expert import ExpertBot as ExpertBot
from .players import DRAWING as DRAWING
from .players import FIRST_UPCARD as FIRST_UPCARD
from .players import Bot as Bot
from .players import GreedyBot as GreedyBot
from .players import RandomBot as RandomBot
from .players import StrongBot as StrongBot
from .players import play_game as play_game
from .rollout_bot import BOTS as BOTS
from .rollout_bot import RolloutBot as RolloutBot
from .rollout_bot import make_bot as make_bot
from .rules import DEFAULT as DEFAULT
from .rules import Rules as Rules
from .simulation import FAMILY as FAMILY
from .simulation import simulate as simulate
from .simulation import trace as trace
