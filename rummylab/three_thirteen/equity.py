"""The game-equity table of two-player Three Thirteen: the chance of winning the game (the lower
total after round 11; a tie counts half) with a lead of ``x`` points before round ``r``.

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

from ..decisions import distribution
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
    """Rebuild the shipped round results (two minutes on one core)."""
    from . import rules as presets

    results = []
    for name in PRESETS_MEASURED:
        rules = getattr(presets, name)
        rounds = {str(r): {str(g): round(q, 8) for g, q in dist.items()} for r, dist in measure(rules).items()}
        results.append({"preset": name, "rules": rules_key(rules), "rounds": rounds})
    RESULTS.write_text(json.dumps({"made_by": "python -m rummylab.three_thirteen.equity", "games": MEASURED_GAMES,
                                   "seed": 0, "results": results}, separators=(",", ":")) + "\n", encoding="utf-8")
    print(f"wrote {RESULTS}")


if __name__ == "__main__":
    main()
