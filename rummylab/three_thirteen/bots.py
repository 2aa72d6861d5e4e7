"""Three Thirteen's bots under one name (the public ``three_thirteen.bots``): the players
(``players``: greedy and the planner) and their games played by the thousand (``simulation``:
``simulate``, ``trace``)."""

from __future__ import annotations

from .players import BOTS as BOTS
from .players import GreedyBot as GreedyBot
from .players import PlannerBot as PlannerBot
from .players import make_bot as make_bot
from .players import play_game as play_game
from .simulation import FAMILY as FAMILY
from .simulation import simulate as simulate
from .simulation import trace as trace
