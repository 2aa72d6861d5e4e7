"""Game-equity tables of two-player Indian rummy: the chance of winning a pool game from any pair
of scores (the other is eliminated first) and a deals game from any chip lead with the deals left.

Both are computed from the distribution of one deal's result (the points the loser pays; the
winner pays none), measured by the compiled loop over greedy-against-greedy deals and shipped
(``rummylab/data/indian_deal_results.json``, rebuilt by ``python -m rummylab.indian.equity``).
Deals are taken as independent of the scores and chips (greedy play does not look at them), each
player as likely to win one (the distribution is counted from both sides), and a pool player who
is eliminated as out of the game (a re-join is a new game, bought again).
"""

from __future__ import annotations

import functools
import json
from pathlib import Path

import numpy as np

from ..decisions import distribution
from .rules import Rules

RESULTS = Path(__file__).resolve().parent.parent / "data" / "indian_deal_results.json"
"""The shipped deal-result distributions, one per set of rules."""
MEASURED_DEALS = 200_000
"""Deals the shipped distributions are measured over."""
PRESETS_MEASURED = ("DEFAULT", "BRIEF")
"""The presets whose deal results are shipped."""

Results = dict[int, float]
"""Points the loser pays -> probability."""


def rules_key(rules: Rules) -> str:
    """``rules`` as a key of the shipped distributions."""
    return repr(rules)


@functools.cache
def _shipped() -> dict[str, Results]:
    data = json.loads(RESULTS.read_text(encoding="utf-8"))
    return {entry["rules"]: distribution(entry["paid"]) for entry in data["results"]}


def has_results(rules: Rules) -> bool:
    """Whether deal results are shipped for ``rules`` (and so the tables)."""
    return rules_key(rules) in _shipped()


def deal_results(rules: Rules) -> Results:
    """The shipped distribution of the points a deal's loser pays under ``rules``; ValueError
    names rules with none."""
    if not has_results(rules):
        raise ValueError(f"no deal results are shipped for {rules_key(rules)}: measure them "
                         f"(python -m rummylab.indian.equity) or play with a preset ({', '.join(PRESETS_MEASURED)})")
    return _shipped()[rules_key(rules)]


@functools.lru_cache(maxsize=8)
def pool_table(rules: Rules, pool: int) -> np.ndarray:
    """W[a, b]: the chance that a player on ``a`` points wins a pool game against one on ``b``
    (both still in: below the first score that eliminates, ``rules.eliminated``), read only."""
    dist = deal_results(rules)
    out_at = next(v for v in range(pool + 2) if rules.eliminated(v, pool))
    top = max(dist)
    win = np.zeros((out_at + top, out_at + top))
    win[:out_at, out_at:] = 1.0  # the other is out
    for total in range(2 * out_at - 2, -1, -1):  # scores only rise: from the highest total down
        a = np.arange(max(0, total - out_at + 1), min(out_at, total + 1))
        b = total - a
        value = np.zeros(len(a))
        for x, q in dist.items():  # each player as likely to win the deal; its loser pays x
            if x:
                value += 0.5 * q * (win[a, b + x] + win[a + x, b])
        win[a, b] = value / (1.0 - dist.get(0, 0.0))  # a deal that costs nothing keeps the scores
    table = np.ascontiguousarray(win[:out_at, :out_at])
    table.flags.writeable = False  # cached: shared by every caller
    return table


def pool_win_chance(rules: Rules, pool: int, mine: int | np.ndarray, theirs: int | np.ndarray) -> float | np.ndarray:
    """The chance of winning a pool game on ``mine`` points against ``theirs`` (1 once the other is
    out, 0 once oneself is)."""
    win = pool_table(rules, pool)
    out_at = win.shape[0]
    mine, theirs = np.asarray(mine), np.asarray(theirs)
    inside = win[np.minimum(mine, out_at - 1), np.minimum(theirs, out_at - 1)]
    out = np.where(mine >= out_at, 0.0, np.where(theirs >= out_at, 1.0, inside))
    return float(out) if out.ndim == 0 else out


@functools.lru_cache(maxsize=8)
def deals_table(rules: Rules, deals: int) -> tuple[np.ndarray, int]:
    """(W, offset): W[k, d + offset] is the chance of winning a deals game with ``k`` deals left and
    a lead of ``d`` chips (the most chips wins; a tie counts half), read only."""
    dist = deal_results(rules)
    offset = 2 * max(dist) * deals
    d = np.arange(-offset, offset + 1)
    win = np.zeros((deals + 1, len(d)))
    win[0] = np.where(d > 0, 1.0, np.where(d == 0, 0.5, 0.0))
    idx = np.arange(len(d))
    for k in range(1, deals + 1):
        for x, q in dist.items():  # the winner takes the loser's x chips: the lead moves by 2x
            win[k] += 0.5 * q * (win[k - 1, np.clip(idx + 2 * x, 0, len(d) - 1)]
                                 + win[k - 1, np.clip(idx - 2 * x, 0, len(d) - 1)])
    win.flags.writeable = False
    return win, offset


def deals_win_chance(rules: Rules, deals: int, left: int, lead: int | np.ndarray) -> float | np.ndarray:
    """The chance of winning a game of ``deals`` deals with ``left`` of them still to play and a
    lead of ``lead`` chips."""
    if not 0 <= left <= deals:
        raise ValueError(f"{left} deals left of {deals}")
    win, offset = deals_table(rules, deals)
    out = win[left, np.clip(np.asarray(lead) + offset, 0, win.shape[1] - 1)]
    return float(out) if np.ndim(out) == 0 else out


def measure(rules: Rules, deals: int = MEASURED_DEALS, seed: int = 0) -> Results:
    """The distribution of the points a deal's loser pays, over ``deals`` two-player deals of
    greedy against greedy (points rummy: one deal a game) in the compiled loop."""
    import polars as pl

    from .simulation import simulate

    df = simulate(deals, ("greedy", "greedy"), rules=rules, seed=seed, pool=None)
    paid = df.select(pl.max_horizontal("score_0", "score_1").alias("paid")).group_by("paid").len().sort("paid")
    return {int(x): n / deals for x, n in paid.iter_rows()}


def main() -> None:
    """Rebuild the shipped deal results (a minute or two on one core)."""
    from . import rules as presets

    results = [{"preset": name, "rules": rules_key(getattr(presets, name)),
                "paid": {str(x): round(q, 8) for x, q in measure(getattr(presets, name)).items()}}
               for name in PRESETS_MEASURED]
    RESULTS.write_text(json.dumps({"made_by": "python -m rummylab.indian.equity", "deals": MEASURED_DEALS, "seed": 0,
                                   "results": results}, separators=(",", ":")) + "\n", encoding="utf-8")
    print(f"wrote {RESULTS}")


if __name__ == "__main__":
    main()
