"""The rollout bot: it chooses what ``evaluation.evaluate`` values best. Every named gin bot
(``BOTS``) and ``make_bot``, the public ``gin.bots.make_bot``."""

from __future__ import annotations

from ..cards import SeedLike, rng_from
from .evaluation import evaluate
from .expert import plays_for_gin
from .game import Action, State, legal_actions
from .players import BOTS as RULE_BOTS
from .players import Bot, _housekeeping

ROLLOUT_SAMPLES = 256
"""Worlds the rollout bot plays an option in at most, a decision."""
ROLLOUT_MODEL = "kept"
"""How the rollout bot pictures the opponent's hand (``worlds``): they kept what melds."""
ROLLOUT_POLICY = "greedy"
"""The bot the rollout bot's rollouts play its own seat with (the fastest: more worlds a decision);
the opponent's seat is played by what the hands so far show of the opponent (``READ``: against
MARJJ v5 it wins 54 % of games where playing both seats greedy won 47 %, and as many against the
EAAI simple player; benchmarks/README.md)."""
READ = "read"
"""The opponent policy that reads the opponent from the hands played so far (``read_opponent``)."""


def read_opponent(state: State, policy: str) -> str:
    """How the opponent of the player to act is played in her rollouts, read from the hands
    already played (``expert.plays_for_gin``): ``policy``'s bot knocking as soon as it may once the
    opponent has knocked more often than it passed up a knock, else knocking at 0 (it plays for gin)."""
    base = policy.partition("@")[0]  # the opponent's bot is her own, knocking as soon as it may or at 0
    return f"{base}@0" if plays_for_gin(state, 1 - state.to_play) else base


class RolloutBot:
    """Chooses the option ``evaluation.evaluate`` values best, over at most ``samples`` worlds an
    option drawn from its own generator (so the same seed plays the same game), each played on by
    ``policy``: one name for both seats, or (its own, the opponent's), where the opponent's may be
    ``READ``: read from the hands played so far (``read_opponent``)."""

    name = "rollout"

    def __init__(self, seed: SeedLike = None, samples: int = ROLLOUT_SAMPLES,
                 policy: str | tuple[str, str] = (ROLLOUT_POLICY, READ), model: str = ROLLOUT_MODEL,
                 horizon: str = "hand") -> None:
        self.rng = rng_from(seed)
        self.samples, self.policy, self.model, self.horizon = samples, policy, model, horizon

    def act(self, state: State) -> Action:
        done = _housekeeping(state)
        if done is not None:
            return done
        actions = legal_actions(state)
        if len(actions) == 1:
            return actions[0]
        policy = self.policy
        if isinstance(policy, tuple) and policy[1] == READ:
            policy = (policy[0], read_opponent(state, policy[0]))
        return evaluate(state, samples=self.samples, seed=self.rng, policy=policy,
                        model=self.model, horizon=self.horizon, exact=False).best.action  # type: ignore[arg-type]


BOTS: dict[str, type] = {**RULE_BOTS, "rollout": RolloutBot}
"""Every gin bot by name."""
ENGINE_ONLY = ("rollout",)
"""Bots the compiled loop does not play (yet): a game with one is played on the engine."""


def make_bot(name: str, seed: SeedLike = None) -> Bot:
    """A named bot, its generator seeded by ``seed``."""
    if name not in BOTS:
        raise ValueError(f"unknown bot {name!r}: choose from {', '.join(BOTS)}")
    bot: Bot = BOTS[name](seed)
    return bot
