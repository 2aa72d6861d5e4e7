"""What each option of a gin decision is worth: ``evaluate(state)`` plays every legal action of
the player to act on from the same worlds (``worlds``: drawn from that player's view only), each
seat then played by a named bot to the hand's end, and gives each option its expected net points
with a standard error, and its difference to the best with the error of that difference (the
worlds are common to every option, so differences are much surer than values).

Where the worlds are few (a late hand, cards known), every one is played with its probability and
the values are exact for the rollout bots. Else a screen of ``SCREEN`` worlds is played for every
option, and more worlds only for the options still in reach of the best (as GNU Backgammon's move
filters keep only the candidates within reach), until their differences are within ``TARGET_SE``
or the budget (worlds or milliseconds) is spent.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Literal

import numpy as np

from ..cards import SeedLike, rng_from
from ..i18n import N_, NP_, _, ngettext, pgettext
from ..play import check_seed
from ..screening import REACH, Effort, best_played, deadline, mean, paired, screened, standard_error
from . import box_game, equity
from .analysis import gin_kernel
from .game import Action, Kind, Phase, State, legal_actions
from .loop import ENDS
from .rollout import policy_spec, rollout, screened_in_loop, state_row, with_hidden
from .worlds import Model, Worlds, check_model, count, enumerate_worlds, sample

POLICY = "greedy"
"""The bot both seats are played on with by default: the fastest (20 times the strong bot's
rollouts a second), so that a decision's differences are sure to half a point in 100 ms."""
SCREEN = 64
"""Worlds every option is played in first."""
MAX_WORLDS = 4096
"""Worlds an option is played in at most, unless ``samples`` says otherwise."""
EXACT_WORLDS = 4096
"""Every world is played when there are at most this many."""
TARGET_SE = 0.25
"""An option's difference to the best is sure enough at this standard error (points; valued as
the chance of winning the game, points at the game's start: ``equity.game_units``) ..."""
TARGET_SE_MATCH = 0.005
"""... or, valued as the chance of winning the match, at this one."""
OPTION_SE = 0.5
"""Every other option's difference to the best is played to this standard error (points, as
TARGET_SE) ..."""
OPTION_SE_MATCH = 0.01
"""... or this one (the chance of winning the match), as far as the budget goes."""
HORIZONS = ("hand", "game", "match")


@dataclass(frozen=True, kw_only=True)
class OptionValue:
    """One option of a decision: its expected net points for the player to act (to the hand's
    end), the standard error, and its difference to the best option with that difference's error."""

    action: Action
    label: str
    value: float
    se: float
    diff: float
    diff_se: float
    worlds: int


@dataclass(frozen=True, kw_only=True)
class Evaluation:
    """Every option of the decision, best first."""

    seat: int
    phase: Phase
    options: tuple[OptionValue, ...]
    exact: bool
    policy: tuple[str, str]
    model: str
    horizon: str = "hand"

    @property
    def best(self) -> OptionValue:
        return self.options[0]

    def of(self, action: Action) -> OptionValue:
        """The value of ``action`` (one of the options)."""
        for o in self.options:
            if o.action == action:
                return o
        raise ValueError(f"{action} is not an option of this decision")

    def __str__(self) -> str:
        what = _(_HORIZON_WORDS[self.horizon])
        head = (_("player {seat} to act ({phase}); {what}, exact") if self.exact else
                _("player {seat} to act ({phase}); {what}, ± one standard error"))
        lines = [head.format(seat=self.seat, phase=self.phase.value, what=what)]
        show = (lambda x: f"{x:+7.2f}") if self.horizon == "hand" else (lambda x: f"{x:7.1%}")
        best = _("best")
        for o in self.options:
            err = "" if self.exact else f" ± {show(o.se).strip()}"
            diff = best if o is self.best else show(o.diff).strip() + ("" if self.exact else
                                                                       f" ± {show(o.diff_se).strip()}")
            worlds = ngettext("({n} world)", "({n} worlds)", o.worlds).format(n=o.worlds)
            lines.append(f"  {o.label:<24} {show(o.value)}{err}   {diff}   {worlds}")
        return "\n".join(lines)


_HORIZON_WORDS = {"hand": N_("net points to the end of the hand"), "game": N_("the chance of winning the game"),
                  "match": N_("the chance of winning the match")}
"""What an evaluation's values are, by its horizon."""


def label(state: State, action: Action) -> str:
    """An option in words, in the language in use: "gin, discarding 5H", "knock, discarding 5H",
    "discard KS", ..."""
    if action.kind is Kind.KNOCK and action.card is not None:
        left = state.hands[state.to_play] & ~action.card.bit
        if gin_kernel().deadwood(left) == 0:
            return _("gin, discarding {card}").format(card=action.card)
        return _("knock, discarding {card}").format(card=action.card)
    if action.kind is Kind.DISCARD:
        return _("discard {card}").format(card=action.card)
    word = _WORDS.get(action.kind)
    return pgettext("option", word) if word else str(action)


_WORDS: dict[object, str] = {Kind.TAKE_UPCARD: NP_("option", "take the upcard"),
                             Kind.PASS: NP_("option", "pass"),
                             Kind.DRAW_STOCK: NP_("option", "draw from the stock"),
                             Kind.DRAW_DISCARD: NP_("option", "take the discard"),
                             Kind.BIG_GIN: NP_("option", "big gin")}


def _check(state: State, horizon: str, policy: tuple[str, str], model: str, samples: int | None,
           budget_ms: float | None) -> None:
    if not isinstance(state, State):
        raise ValueError(f"{type(state).__name__}: evaluate takes a gin game.State")
    if state.phase not in (Phase.FIRST_UPCARD, Phase.DRAW, Phase.DISCARD):
        raise ValueError(f"phase {state.phase.value}: no decision to evaluate (the hand is over)")
    if horizon not in HORIZONS:
        raise ValueError(f"horizon {horizon!r}: one of {', '.join(HORIZONS)}")
    for p in policy:
        policy_spec(p)  # names a bad one
    check_model(model)
    if samples is not None and samples < 2:
        raise ValueError(f"samples={samples}: 2 or more")
    if budget_ms is not None and budget_ms <= 0:
        raise ValueError(f"budget_ms={budget_ms}: more than 0")


def _values(state: State, row: np.ndarray, action: Action, worlds: Worlds, start: int, stop: int,
            policy: tuple[str, str], rngs: tuple[np.random.Generator | None, ...], horizon: str) -> np.ndarray:
    """The player to act's result in worlds start..stop after ``action`` (``row``: ``state_row(state)``):
    net points of the hand, or the chance of winning the game (``horizon="game"``) or the match
    (``"match"``) once the hand is over."""
    seat = state.to_play
    rows = with_hidden(row, 1 - seat, worlds.hands[start:stop], worlds.stocks[start:stop])
    out = rollout(rows, action, policy, state, rngs)
    net = out.net(seat)
    if horizon == "hand":
        return net.astype(np.int64)
    mine = state.scores[seat] + np.where(net > 0, net, 0)
    theirs = state.scores[1 - seat] + np.where(net < 0, -net, 0)
    dead = out.kind == ENDS.index("dead")
    deals_next = np.where(dead, state.dealer == seat, state.dealer != seat).astype(int)
    target = state.rules.target
    over = (mine >= target) | (theirs >= target)
    at = (np.minimum(mine, target - 1), np.minimum(theirs, target - 1), deals_next)
    if horizon == "game":  # in whole units, summed exactly (as the compiled rollout bot sums them)
        units, won = equity.game_units(state.rules)
        return np.where(over, np.where(mine > theirs, won, 0), units[at]).astype(np.int64)
    game = np.where(over, (mine > theirs).astype(float), equity.table(state.rules)[at])
    return np.asarray(equity.match_win_chance(state.rules, state.games_won[seat], state.games_won[1 - seat], game))


def evaluate(state: State | box_game.State, *, samples: int | None = None, budget_ms: float | None = None,
             horizon: Literal["hand", "game", "match"] = "hand", seed: SeedLike = 0,
             policy: str | tuple[str, str] = POLICY, model: Model = "view", exact: bool | None = None,
             keep: Sequence[Action] = (), every_diff: bool = True) -> Evaluation:
    """Every legal option of the player to act in ``state``, valued by rollouts to the hand's
    end, best first: net points for that player, or with ``horizon="game"`` the chance of winning
    the game (the game-equity table, ``equity``, from the scores the hand leaves), or with
    ``horizon="match"`` the chance of winning the match (best of ``rules.match_games``).

    samples: the most worlds an option is played in (MAX_WORLDS); budget_ms: stop adding worlds
    after this long; policy: the bot both seats play on with (or a pair, the player to act's
    first); model: how the hidden cards are drawn (``worlds``); exact: play every world (None:
    when there are at most EXACT_WORLDS); keep: options played as long as the best ones, however
    far behind (a review keeps the move that was played, the rollout bot the expert's);
    every_diff: play the options out of reach until their differences to the best are within
    OPTION_SE too (False: only the candidates' are made sure, all a bot choosing a move needs).

    A three-handed game's state is valued by its hand in play (the box in seat 0, the captain in
    1), by the hand's points: its game is one of three players, which no table values."""
    if isinstance(state, box_game.State):
        if horizon != "hand":
            raise ValueError(f"horizon {horizon!r}: a three-handed game's options are valued by the hand's points "
                             "(horizon='hand')")
        state = state.hand
    pair = (policy, policy) if isinstance(policy, str) else tuple(policy)
    if len(pair) != 2:
        raise ValueError(f"policy {policy!r}: a bot name or a pair of them")
    _check(state, horizon, pair, model, samples, budget_ms)
    if exact and (keep or not every_diff):
        raise ValueError("exact=True plays every option in every world: keep and every_diff=False would change nothing")
    if isinstance(seed, int):
        check_seed(seed)
    seat = state.to_play
    seats = (pair[0], pair[1]) if seat == 0 else (pair[1], pair[0])
    rng = rng_from(seed)
    rngs = tuple(np.random.default_rng(rng.integers(2**63)) if b in ("random", "expert") else None for b in seats)
    actions = legal_actions(state)
    enumerated = bool(exact or (exact is None and model != "kept" and count(state) <= EXACT_WORLDS))
    if enumerated:
        options = _enumerated(state, actions, enumerate_worlds(state, model), seats, rngs, horizon)
    else:
        worlds = sample(state, MAX_WORLDS if samples is None else samples, rng, model)
        options = _sampled(state, actions, worlds, seats, rngs, horizon, deadline(budget_ms), keep, every_diff)
    if horizon == "game":
        options = _as_chances(options, equity.game_units(state.rules)[1])
    return _evaluation(state, options, enumerated, seats, model, horizon)


def _enumerated(state: State, actions: list[Action], worlds: Worlds, seats: tuple[str, str],
                rngs: tuple[np.random.Generator | None, ...], horizon: str) -> list[OptionValue]:
    """Every option played in every world, each world by its probability: exact values."""
    row = state_row(state)
    values = [float(worlds.probability @ _values(state, row, a, worlds, 0, len(worlds), seats, rngs, horizon))
              for a in actions]
    best = max(values)
    return [OptionValue(action=a, label=label(state, a), value=v, se=0.0, diff=v - best, diff_se=0.0,
                        worlds=len(worlds)) for a, v in zip(actions, values, strict=True)]


def _sampled(state: State, actions: list[Action], worlds: Worlds, seats: tuple[str, str],
             rngs: tuple[np.random.Generator | None, ...], horizon: str, deadline: float | None,
             keep: Sequence[Action], every_diff: bool, compiled: bool = True) -> list[OptionValue]:
    """The options played in the sampled worlds, effort where it matters (``screening.screened``):
    in the compiled loop when it is built and ``compiled`` (the match's chances are not whole
    units: screened here), else here over ``rollout``'s results (the same figures)."""
    target_se, option_se = sureness(horizon)
    effort = Effort(screen=SCREEN, cap=len(worlds), reach=REACH, target_se=target_se, option_se=option_se,
                    every_diff=every_diff, deadline=deadline)
    kept = {i for i, a in enumerate(actions) if a in keep}
    played = None
    if compiled and horizon != "match":
        played = screened_in_loop(state, actions, worlds.hands, worlds.stocks, seats, rngs, effort, kept,
                                  equity.game_units(state.rules) if horizon == "game" else None)
    if played is None:
        row = state_row(state)
        played = screened(len(actions), effort, lambda i, start, stop: _values(
            state, row, actions[i], worlds, start, stop, seats, rngs, horizon), kept=kept,
            dtype=float if horizon == "match" else np.int64)
    return _options(state, actions, played)


def sureness(horizon: str) -> tuple[float, float]:
    """(TARGET_SE, OPTION_SE) in the units a horizon's rollouts are summed in: points, the game's
    chance in hundredths of a point at its start (``equity.game_units``), or the match's chance."""
    if horizon == "match":
        return TARGET_SE_MATCH, OPTION_SE_MATCH
    scale = equity.UNITS_A_POINT if horizon == "game" else 1
    return TARGET_SE * scale, OPTION_SE * scale


def _as_chances(options: list[OptionValue], won: int) -> list[OptionValue]:
    """Options valued in the game's units (``equity.game_units``) as chances: units over a won game's."""
    return [replace(o, value=o.value / won, se=o.se / won, diff=o.diff / won, diff_se=o.diff_se / won)
            for o in options]


def _options(state: State, actions: list[Action], played: list[np.ndarray]) -> list[OptionValue]:
    best = best_played(played)
    out = []
    for i, a in enumerate(actions):
        x = played[i]
        diff, diff_se = (0.0, 0.0) if i == best else paired(x, played[best])
        out.append(OptionValue(action=a, label=label(state, a), value=mean(x), se=standard_error(x), diff=diff,
                               diff_se=diff_se, worlds=len(x)))
    return out


def _evaluation(state: State, options: list[OptionValue], exact: bool, seats: tuple[str, str],
                model: str, horizon: str) -> Evaluation:
    best = max(options, key=lambda o: (o.diff == 0.0, o.worlds, o.value))
    ranked = sorted(options, key=lambda o: (o is not best, -o.diff, -o.value))
    return Evaluation(seat=state.to_play, phase=state.phase, options=tuple(ranked), exact=exact,
                      policy=(seats[state.to_play], seats[1 - state.to_play]), model=model, horizon=horizon)

ENDINGS = (N_("you go gin"), N_("you knock and win"), N_("your knock is undercut"), N_("the opponent goes gin"),
           N_("the opponent knocks and wins"), N_("you undercut the opponent"), N_("the hand is dead"), N_("a tie"))
"""How a hand can end, as the player to act sees it (``endings``: the keys stay English; ``_`` says
one in the language in use)."""
ENDING_WORLDS = 256
"""Worlds ``endings`` plays an option in."""


def endings(state: State, action: Action, *, samples: int = ENDING_WORLDS, seed: SeedLike = 0,
            policy: str = POLICY, model: Model = "view") -> dict[str, float]:
    """How the hand ends after ``action`` (a legal option of the player to act), over ``samples``
    worlds drawn from that player's view and played on by ``policy``: the share of each of
    ``ENDINGS``."""
    _check(state, "hand", (policy, policy), model, samples, None)
    if action not in legal_actions(state):
        raise ValueError(f"{action} is not an option of this decision")
    seat = state.to_play
    rng = rng_from(seed)
    worlds = sample(state, samples, rng, model)
    rngs = tuple(np.random.default_rng(rng.integers(2**63)) if policy in ("random", "expert") else None
                 for _seat in range(2))
    rows = with_hidden(state_row(state), 1 - seat, worlds.hands, worlds.stocks)
    out = rollout(rows, action, (policy, policy), state, rngs)
    kind = [ENDS[k] for k in out.kind]
    mine = out.winner == seat
    knocked = out.knocker == seat
    counts = dict.fromkeys(ENDINGS, 0)
    for k, won, knock in zip(kind, mine, knocked, strict=True):
        if k in ("gin", "big_gin"):
            counts["you go gin" if won else "the opponent goes gin"] += 1
        elif k == "knock":
            counts["you knock and win" if won else "the opponent knocks and wins"] += 1
        elif k == "undercut":
            counts["your knock is undercut" if knock else "you undercut the opponent"] += 1
        else:
            counts["the hand is dead" if k == "dead" else "a tie"] += 1
    return {name: n / samples for name, n in counts.items()}

