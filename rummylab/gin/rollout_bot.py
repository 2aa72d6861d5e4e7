"""The rollout bot: it chooses what ``evaluation.evaluate`` values best. Every named gin bot
(``BOTS``) and ``make_bot``, the public ``gin.bots.make_bot``."""

from __future__ import annotations

from ..cards import SeedLike, rng_from
from .evaluation import evaluate
from .game import Action, State, legal_actions
from .players import BOTS as RULE_BOTS
from .players import Bot, _housekeeping

ROLLOUT_SAMPLES = 256
"""Worlds the rollout bot plays an option in at most, a decision."""
ROLLOUT_MODEL = "kept"
"""How the rollout bot pictures the opponent's hand (``worlds``): they kept what melds."""
ROLLOUT_POLICY = "greedy"
"""The bot the rollout bot's rollouts play both seats with (the fastest: more worlds a decision)."""


class RolloutBot:
    """Chooses the option ``evaluation.evaluate`` values best, over at most ``samples`` worlds an
    option drawn from its own generator (so the same seed plays the same game), each played on by
    ``policy``."""

    name = "rollout"

    def __init__(self, seed: SeedLike = None, samples: int = ROLLOUT_SAMPLES, policy: str = ROLLOUT_POLICY,
                 model: str = ROLLOUT_MODEL, horizon: str = "hand") -> None:
        self.rng = rng_from(seed)
        self.samples, self.policy, self.model, self.horizon = samples, policy, model, horizon

    def act(self, state: State) -> Action:
        done = _housekeeping(state)
        if done is not None:
            return done
        actions = legal_actions(state)
        if len(actions) == 1:
            return actions[0]
        return evaluate(state, samples=self.samples, seed=self.rng, policy=self.policy,
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
