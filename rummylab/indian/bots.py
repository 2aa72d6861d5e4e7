"""Indian rummy's bots under one name (the public ``indian.bots``): the players (``players``:
random and greedy) and their games played by the thousand (``simulation``: ``simulate``,
``trace``, ``play_rows``)."""

from __future__ import annotations

from .players import BOTS as BOTS
from .players import GreedyBot as GreedyBot
from .players import RandomBot as RandomBot
from .players import play as play
from .simulation import FAMILY as FAMILY
from .simulation import play_rows as play_rows
from .simulation import simulate as simulate
from .simulation import trace as trace
