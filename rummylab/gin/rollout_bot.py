"""The rollout bot: the expert's move, unless ``evaluation.evaluate`` finds a better one for
sure. Every named gin bot (``BOTS``) and ``make_bot``, the public ``gin.bots.make_bot``."""

from __future__ import annotations

import numpy as np

from ..cards import BIT_CARD, SeedLike, rng_from
from ..sim import play_loops
from . import equity, expert
from .analysis import gin_kernel
from .evaluation import REACH, SCREEN, Evaluation, evaluate, sureness
from .expert import plays_for_gin
from .game import Action, State, legal_actions
from .loop import ACTIONS, loop_options
from .players import BOTS as RULE_BOTS
from .players import Bot, _housekeeping
from .rollout import state_row
from .rules import Rules
from .worlds import KEPT_MOST

ROLLOUT_SAMPLES = 1024
"""Worlds the rollout bot plays an option in at most, a decision (over 2,000 mirrored pairs 1,024
won 0.6 ± 1.8 points of games more than 512 against MARJJ v5 and 1.0 ± 1.4 more against the EAAI
simple player, at 6–7 ms a decision where 512 took 4; 7–8 ms valued by the game: benchmarks/README.md)."""
ROLLOUT_MODEL = "kept"
"""How the rollout bot pictures the opponent's hand (``worlds``): they kept what melds."""
ROLLOUT_POLICY = "greedy+melds"
"""The bot the rollout bot's rollouts play its own seat with: greedy (the fastest: more worlds a
decision), taking a discard only into a meld, as the EAAI players do (over 2,000 mirrored pairs
that won 3.9 ± 1.8 points of games more against MARJJ v5 than greedy, which takes any discard that
lowers its deadwood, and 1.2 ± 1.5 more against the EAAI simple player; benchmarks/README.md);
the opponent's seat is played by what the hands so far show of the
opponent (``READ``: against MARJJ v5 it wins 54 % of games where playing both seats greedy won
47 %, and as many against the EAAI simple player)."""
SURE = 1.5
"""The rollouts overrule the expert's move when another option beats it by more than SURE standard
errors of their difference (same worlds): against MARJJ v5 and the EAAI simple player this wins
more than the expert alone (SURE infinite) or the rollouts alone (0; benchmarks/README.md)."""
GIN_PRIOR = 0
"""The passes the rollout bot's read counts before any is seen (``expert.plays_for_gin``): none, so
an opponent of whom nothing is known yet is pictured knocking as soon as it may, in its rollouts and
in the expert's move it asks alike (one picture of the opponent). Over 2,000 mirrored pairs that won
79.8 % of games against the EAAI simple player where one pass (the expert's ``GIN_PRIOR``) won
77.2 %, and 59.1 % against MARJJ v5 where one pass won 59.6 % (512 worlds, within the errors;
benchmarks/README.md)."""
ROLLOUT_HORIZON = "game"
"""What the rollout bot's rollouts are valued by: the chance of winning the game from the scores
each leaves (``evaluate``'s ``horizon="game"``, counted in points at the game's start), under rules
that have a game-equity table (``equity.has_table``), else the hand's net points. Over 2,000
mirrored pairs that won 61.4 % of games against MARJJ v5 where the hand's points won 59.7 %
(+1.7 ± 1.4 points of games, paired by deal), and 81.4 % against the EAAI simple player where
they won 80.7 % (+0.7 ± 1.1; benchmarks/README.md)."""
READ = "read"
"""The opponent policy that reads the opponent from the hands played so far (``read_opponent``)."""


def read_opponent(state: State, policy: str) -> str:
    """How the opponent of the player to act is played in her rollouts, read from the hands
    already played (``expert.plays_for_gin`` with GIN_PRIOR): ``policy``'s bot knocking at 0 (it
    plays for gin) once the opponent has passed up a knock more often than it knocked, else knocking
    as soon as it may."""
    base = policy.partition("@")[0]  # the opponent's bot is her own (+melds kept), knocking as soon as it may or at 0
    return f"{base}@0" if plays_for_gin(state, 1 - state.to_play, GIN_PRIOR) else base


class RolloutBot:
    """Plays the expert's move unless the option ``evaluation.evaluate`` values best beats it by
    more than ``sure`` standard errors (None: always the best by ``evaluate``), over at most
    ``samples`` worlds an option drawn from its own generator (so the same seed plays the same
    game), each played on by ``policy``: one name for both seats, or (its own, the opponent's),
    where the opponent's may be ``READ``: read from the hands played so far (``read_opponent``),
    and valued by ``horizon`` (``valued_by``: the game's chance only where the rules' table is shipped)."""

    name = "rollout"
    use_loop = True
    """Decide in the compiled loop (``rollout_decision``: the same worlds, rollouts and screening,
    about twice as fast: benchmarks/evaluation.py) when it is built and this is the bot it plays
    (the default settings)."""

    def __init__(self, seed: SeedLike = None, samples: int = ROLLOUT_SAMPLES,
                 policy: str | tuple[str, str] = (ROLLOUT_POLICY, READ), model: str = ROLLOUT_MODEL,
                 horizon: str = ROLLOUT_HORIZON, sure: float | None = SURE) -> None:
        if sure is not None and not sure >= 0:
            raise ValueError(f"sure={sure!r}: 0 or more standard errors, or None")
        self.rng = rng_from(seed)
        self.samples, self.policy, self.model, self.horizon = samples, policy, model, horizon
        self.sure = sure

    def looped(self) -> bool:
        """Whether the compiled loop plays this bot's decisions (its settings are the loop's)."""
        return (self.use_loop and self.samples == ROLLOUT_SAMPLES and self.policy == (ROLLOUT_POLICY, READ)
                and self.model == ROLLOUT_MODEL and self.horizon == ROLLOUT_HORIZON and self.sure == SURE
                and play_loops() is not None)

    def act(self, state: State) -> Action:
        done = _housekeeping(state)
        if done is not None:
            return done
        if self.looped():
            return _loop_decision(state, self.rng)
        actions = legal_actions(state)
        if len(actions) == 1:
            return actions[0]
        policy = self.policy
        if isinstance(policy, tuple) and policy[1] == READ:
            policy = (policy[0], read_opponent(state, policy[0]))
        keep: tuple[Action, ...] = () if self.sure is None else (
            expert.ExpertBot(self.rng, prior=GIN_PRIOR).act(state),)
        found = evaluate(state, samples=self.samples, seed=self.rng, policy=policy,
                         model=self.model, horizon=valued_by(self.horizon, state.rules),  # type: ignore[arg-type]
                         exact=False, keep=keep, every_diff=False)
        return found.best.action if self.sure is None else overruled(found, keep[0], self.sure)


def valued_by(horizon: str, rules: Rules) -> str:
    """The horizon the rollout bot values by under ``rules``: the game's only where they have a
    table (``equity.has_table``), else the hand's (a three-handed game's hands among them)."""
    return "hand" if horizon == "game" and not equity.has_table(rules) else horizon


def overruled(found: Evaluation, mine: Action, sure: float) -> Action:
    """``found``'s best option if it beats ``mine`` by more than ``sure`` standard errors of their
    difference, else ``mine``."""
    best, o = found.best, found.of(mine)
    return best.action if best.action != mine and -o.diff > sure * o.diff_se else mine


def _loop_decision(state: State, rng: np.random.Generator) -> Action:
    """The compiled loop's rollout bot's action in ``state`` (its worlds drawn from ``rng``)."""
    loops = play_loops()
    assert loops is not None  # RolloutBot.looped
    loops.set_expert(*expert.constants(state.rules))
    loops.set_rollout(*constants(state.rules))
    code, card = loops.rollout_decision(gin_kernel(), state_row(state), rng,
                                        rules=loop_options([], state.rules)["rules"])
    return Action(ACTIONS[code], BIT_CARD[1 << card] if card >= 0 else None)


def constants(rules: Rules) -> tuple[int, int, float, float, int, float, int, np.ndarray, int]:
    """(ROLLOUT_SAMPLES, evaluation's SCREEN, REACH and target standard error, worlds.KEPT_MOST,
    SURE, GIN_PRIOR, the game's units and a won game's: ``equity.game_units``, or an empty table
    and 0 valued by the hand's points), as the compiled loop takes them under ``rules``
    (``set_rollout``): the loop plays the rollout bot named "rollout" (the expert's move overruled
    by these samples, greedy+melds rollouts, the opponent read, the "kept" worlds, ROLLOUT_HORIZON)
    decision for decision as ``RolloutBot`` does (tests/test_evaluation.py)."""
    horizon = valued_by(ROLLOUT_HORIZON, rules)
    units, won = equity.game_units(rules) if horizon == "game" else (_NO_UNITS, 0)
    return ROLLOUT_SAMPLES, SCREEN, REACH, sureness(horizon)[0], KEPT_MOST, SURE, GIN_PRIOR, units, won


_NO_UNITS = np.zeros((0, 0, 2), dtype=np.int32)


BOTS: dict[str, type] = {**RULE_BOTS, "rollout": RolloutBot}
"""Every gin bot by name."""


def make_bot(name: str, seed: SeedLike = None) -> Bot:
    """A named bot, its generator seeded by ``seed``."""
    if name not in BOTS:
        raise ValueError(f"unknown bot {name!r}: choose from {', '.join(BOTS)}")
    bot: Bot = BOTS[name](seed)
    return bot
