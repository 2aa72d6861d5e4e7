"""The game-equity table of two-player Three Thirteen: the chance of winning the game (the lower
total after round 11; a tie counts half) with a lead of ``x`` points before round ``r``; and, for
three players or more, each player's chance of the lowest total from the totals before a round
(``players_win_chance``: a tie shared by those in it).

It is computed from the distribution of one round's result (how many points one player gains on
the other) in each round, measured by the compiled loop over greedy-against-greedy games and
shipped (``rummylab/data/thirteen_round_results.json``, rebuilt by ``python -m
rummylab.three_thirteen.equity``). Rounds are taken as independent of the scores (greedy play does
not look at them) and of who plays first (the distribution is made symmetric: each round counted
from both players' side).
"""

from __future__ import annotations

import functools
import json
from pathlib import Path

import numpy as np

from ..decisions import distribution, write_shipped
from .game import MAX_PLAYERS
from .rules import Rules

RESULTS = Path(__file__).resolve().parent.parent / "data" / "thirteen_round_results.json"
"""The shipped round-result distributions, one per set of rules."""
ROUNDS = 11
MEASURED_GAMES = 100_000
"""Games the shipped distributions are measured over (each round counted from both sides)."""
PRESETS_MEASURED = ("DEFAULT", "ACE_HIGH")
"""The presets whose round results are shipped."""

Results = dict[int, dict[int, float]]
"""round -> (points one player gains on the other in it -> probability)."""


def rules_key(rules: Rules) -> str:
    """``rules`` as a key of the shipped distributions (every field changes a round's result)."""
    return repr(rules)


@functools.cache
def _shipped() -> dict[str, Results]:
    data = json.loads(RESULTS.read_text(encoding="utf-8"))
    return {entry["rules"]: {int(r): distribution(dist) for r, dist in entry["rounds"].items()}
            for entry in data["results"]}


def has_results(rules: Rules) -> bool:
    """Whether round results are shipped for ``rules`` (and so a table)."""
    return rules_key(rules) in _shipped()


def round_results(rules: Rules) -> Results:
    """The shipped distribution of each round's result under ``rules``; ValueError names rules
    with none."""
    shipped = _shipped()
    if not has_results(rules):
        raise ValueError(f"no round results are shipped for {rules_key(rules)}: measure them "
                         "(python -m rummylab.three_thirteen.equity) or play with a preset "
                         f"({', '.join(PRESETS_MEASURED)})")
    return shipped[rules_key(rules)]


@functools.lru_cache(maxsize=4)
def table(rules: Rules) -> tuple[np.ndarray, int]:
    """(W, offset): W[r, x + offset] is the chance of winning the game with a lead of x points
    (the other's total less one's own) before round r (1 to 11; r = 12: the game is over), read
    only."""
    dist = round_results(rules)
    reach = sum(max(abs(g) for g in dist[r]) for r in range(1, ROUNDS + 1))
    offset = 2 * reach  # a lead already as large as every later round's largest swing
    x = np.arange(-offset, offset + 1)
    win = np.zeros((ROUNDS + 2, len(x)))
    win[ROUNDS + 1] = np.where(x > 0, 1.0, np.where(x == 0, 0.5, 0.0))
    for r in range(ROUNDS, 0, -1):
        after = win[r + 1]
        for gain, q in dist[r].items():
            win[r] += q * np.take(after, np.clip(np.arange(len(x)) + gain, 0, len(x) - 1))
    win.flags.writeable = False  # cached: shared by every caller
    return win, offset


def win_chance(rules: Rules, round_no: int, lead: int | np.ndarray) -> float | np.ndarray:
    """The chance of winning the game with ``lead`` points (the other's total less one's own)
    before round ``round_no`` (12: after the last)."""
    if not 1 <= round_no <= ROUNDS + 1:
        raise ValueError(f"round {round_no}: 1 to {ROUNDS + 1}")
    win, offset = table(rules)
    at = np.clip(np.asarray(lead) + offset, 0, win.shape[1] - 1)
    out = win[round_no, at]
    return float(out) if np.ndim(out) == 0 else out


PENALTIES = Path(__file__).resolve().parent.parent / "data" / "thirteen_penalties.json"
"""The shipped distributions of one player's penalty in each round of games of three players or
more, one per set of rules and number of players."""
PLAYERS_MEASURED = range(3, MAX_PLAYERS + 1)
"""The numbers of players whose penalties are shipped (three to eight: ``game.MAX_PLAYERS``)."""
PLAYER_GAMES = 20_000
"""Games the shipped penalties are measured over, for each number of players (every player counted)."""


@functools.cache
def _shipped_penalties() -> dict[tuple[str, int], Results]:
    data = json.loads(PENALTIES.read_text(encoding="utf-8"))
    return {(entry["rules"], int(k)): {int(r): distribution(dist) for r, dist in rounds.items()}
            for entry in data["results"] for k, rounds in entry["players"].items()}


def has_penalties(rules: Rules, players: int) -> bool:
    """Whether penalties are shipped for ``rules`` and this many players."""
    return (rules_key(rules), players) in _shipped_penalties()


def round_penalties(rules: Rules, players: int) -> Results:
    """The shipped distribution of one player's penalty in each round, in games of ``players``;
    ValueError names rules or a number of players with none."""
    if not has_penalties(rules, players):
        raise ValueError(f"no penalties are shipped for {rules_key(rules)} with {players} players: measure them "
                         f"(python -m rummylab.three_thirteen.equity) or play a preset ({', '.join(PRESETS_MEASURED)}) "
                         f"with {PLAYERS_MEASURED[0]} to {PLAYERS_MEASURED[-1]} players")
    return _shipped_penalties()[(rules_key(rules), players)]


NEGLIGIBLE = 1e-10
"""``players_win_chance`` leaves out what seat pays with less chance than this (the chances it
leaves out add up to under 1e-9)."""


@functools.lru_cache(maxsize=32)
def rest_of_game(rules: Rules, players: int, round_no: int) -> np.ndarray:
    """p[x]: the chance that one player pays x points in rounds ``round_no`` to 11 (the rounds'
    penalties taken as independent), read only; [1.0] once the game is over."""
    dist = round_penalties(rules, players)
    out = np.ones(1)
    for r in range(round_no, ROUNDS + 1):
        one = np.zeros(max(dist[r]) + 1)
        for x, q in dist[r].items():
            one[x] = q
        out = np.convolve(out, one)
    out.flags.writeable = False
    return out


def players_win_chance(rules: Rules, round_no: int, totals: np.ndarray, seat: int) -> np.ndarray:
    """Per row of ``totals`` (worlds x players, three players or more: the totals before round
    ``round_no``, 12 once the game is over), the chance that ``seat`` ends with the lowest total,
    a tie shared by the players in it. Each player's later rounds are drawn on their own from the
    shipped penalties (``rest_of_game``): the model of three players or more, where the two-player
    table follows the lead round by round."""
    totals = np.asarray(totals, dtype=np.int64)
    if totals.ndim != 2 or not 3 <= totals.shape[1] <= MAX_PLAYERS or not 0 <= seat < totals.shape[1]:
        raise ValueError(f"totals of shape {totals.shape}, seat {seat}: worlds x three to eight players, "
                         "a seat of them")
    if not 1 <= round_no <= ROUNDS + 1:
        raise ValueError(f"round {round_no}: 1 to {ROUNDS + 1}")
    p = rest_of_game(rules, totals.shape[1], round_no) if round_no <= ROUNDS else np.ones(1)
    cdf = np.concatenate([[0.0], np.cumsum(p)])  # cdf[x + 1]: the chance of paying x or less
    others = np.delete(totals, seat, axis=1)
    x = np.flatnonzero(p > NEGLIGIBLE)
    # what each other player pays to end level with seat paying x (worlds x others x payments)
    need = totals[:, seat, None, None] + x[None, None, :] - others[:, :, None]
    inside = (need >= 0) & (need < len(p))
    level = np.where(inside, p[np.clip(need, 0, len(p) - 1)], 0.0)
    above = 1.0 - cdf[np.clip(need + 1, 0, len(p))]  # she pays more: ends above
    # a tie shared by m others and seat is 1 / (m + 1) = the integral of t^m over [0, 1]: the
    # chance is the integral of the product of (above + level t) over the others, a polynomial of
    # degree at most MAX_PLAYERS - 1 in t, exact by Gauss-Legendre with half as many nodes (four)
    nodes, weights = np.polynomial.legendre.leggauss((MAX_PLAYERS + 1) // 2)
    t, w = (nodes + 1) / 2, weights / 2
    product = np.prod(above[..., None] + level[..., None] * t, axis=1)  # worlds x payments x nodes
    return (product @ w) @ p[x]


def measure_penalties(rules: Rules, players: int, games: int = PLAYER_GAMES, seed: int = 0) -> Results:
    """Each round's distribution of one player's penalty over ``games`` games of ``players``
    greedy players in the compiled loop (every player counted)."""
    from .simulation import simulate

    df = simulate(games, ("greedy",) * players, rules=rules, seed=seed)
    out: Results = {}
    for r, x, n in df.group_by("round", "penalty").len().sort("round", "penalty").iter_rows():
        out.setdefault(int(r), {})[int(x)] = n / (games * players)
    return out


def measure(rules: Rules, games: int = MEASURED_GAMES, seed: int = 0) -> Results:
    """Each round's distribution of the points one player gains on the other, over ``games``
    two-player games of greedy against greedy in the compiled loop (both sides counted)."""
    import polars as pl

    from .simulation import simulate

    df = simulate(games, ("greedy", "greedy"), rules=rules, seed=seed)
    wide = df.pivot(on="player", index=["game", "round"], values="penalty")
    gain = wide.select("round", (pl.col("1") - pl.col("0")).alias("gain"))
    both = pl.concat([gain, gain.select("round", -pl.col("gain"))])
    out: Results = {}
    for r, g, n in both.group_by("round", "gain").len().sort("round", "gain").iter_rows():
        out.setdefault(int(r), {})[int(g)] = n / (2 * games)
    return out


def main() -> None:
    """Rebuild the shipped round results and penalties (five minutes on one core)."""
    from . import rules as presets

    penalties = []
    for name in PRESETS_MEASURED:
        rules = getattr(presets, name)
        per = {str(k): {str(r): {str(x): round(q, 8) for x, q in dist.items()}
                        for r, dist in measure_penalties(rules, k).items()} for k in PLAYERS_MEASURED}
        penalties.append({"preset": name, "rules": rules_key(rules), "players": per})
    write_shipped(PENALTIES, "python -m rummylab.three_thirteen.equity", penalties, games=PLAYER_GAMES)
    results = []
    for name in PRESETS_MEASURED:
        rules = getattr(presets, name)
        rounds = {str(r): {str(g): round(q, 8) for g, q in dist.items()} for r, dist in measure(rules).items()}
        results.append({"preset": name, "rules": rules_key(rules), "rounds": rounds})
    write_shipped(RESULTS, "python -m rummylab.three_thirteen.equity", results, games=MEASURED_GAMES)


if __name__ == "__main__":
    main()
