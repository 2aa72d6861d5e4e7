"""Measure gin's hand results (the compiled loop, the expert against itself) and write the file
the game-equity table is computed from (``equity``): ``python -m rummylab.gin.hand_results``."""

from __future__ import annotations

import csv
from collections.abc import Mapping
from pathlib import Path

from .equity import RESULTS, Results, hand_key
from .rules import Rules

MEASURED_HANDS = 200_000
"""Hands the shipped distributions are measured over."""


def measure(rules: Rules, hands: int = MEASURED_HANDS, seed: int = 0) -> tuple[Results, int]:
    """(the distribution of one hand's result, hands played) over whole games of the expert
    against itself in the compiled loop."""
    import polars as pl

    from .simulation import simulate

    counts: dict[tuple[str, int], int] = {}
    played, chunk = 0, 0
    while played < hands:
        df = simulate(2_000, ("expert", "expert"), rules=rules, seed=seed * 10_000 + chunk)
        who = pl.when(pl.col("winner").is_null()).then(pl.lit("none")).when(
            pl.col("winner") == pl.col("dealer")).then(pl.lit("dealer")).otherwise(pl.lit("other"))
        grouped = df.select(who.alias("who"), pl.when(pl.col("winner").is_null()).then(0).otherwise(pl.col("points"))
                            .alias("points")).group_by("who", "points").len()
        for who_, points, n in grouped.iter_rows():
            counts[(who_, int(points))] = counts.get((who_, int(points)), 0) + int(n)
        played += df.height
        chunk += 1
    return {k: v / played for k, v in sorted(counts.items())}, played


def write_results(rules_list: Mapping[str, Rules], path: Path = RESULTS, hands: int = MEASURED_HANDS) -> None:
    """Measure each rules' hand results and write them (the shipped file)."""
    rows = []
    for name, rules in rules_list.items():
        dist, played = measure(rules, hands)
        rows += [{"preset": name, "hand_rules": hand_key(rules), "who": w, "points": p, "probability": f"{q:.8f}",
                  "hands": played} for (w, p), q in dist.items()]
    with path.open("w", newline="", encoding="utf-8") as f:
        writer = csv.DictWriter(f, fieldnames=["preset", "hand_rules", "who", "points", "probability", "hands"])
        writer.writeheader()
        writer.writerows(rows)


PRESETS_MEASURED = ("DEFAULT", "CLASSIC", "EAAI")
"""The presets whose hand results are shipped (TOURNAMENT plays DEFAULT's hands)."""


def main() -> None:
    """Rebuild the shipped hand results (a few minutes on one core)."""
    from . import rules as presets

    write_results({name: getattr(presets, name) for name in PRESETS_MEASURED})
    print(f"wrote {RESULTS}")


if __name__ == "__main__":
    main()
