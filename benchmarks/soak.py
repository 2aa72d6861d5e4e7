"""The suite's long checks at a multiple of their ``make test`` sizes (``RUMMYLAB_SOAK``):
kernel == twin == oracle on more seeded hands, more engine games under the rules' invariants,
more compiled-loop games replayed by the engine, more games of every bot pairing to the end.

    python benchmarks/soak.py [--times 5] [--workers 2] [--only indian]

``make test`` runs each with ``RUMMYLAB_SOAK=1``, enough to catch a regression within its ten
minutes; this runs the same tests, unchanged, on larger samples (10,000 games a bot pairing at
``--times 5``, as benchmarks/bots_finish.py plays them on Dask) and prints what passed, and how long
it took. Record the figures in benchmarks/README.md.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SOAKED = (
    "tests/test_agreement.py::test_kernel_twin_and_oracle_agree",
    "tests/test_indian.py::test_search_equals_oracle",
    "tests/test_three_thirteen.py::test_search_equals_oracle",
    "tests/test_gin_game.py::test_random_games_keep_every_invariant",
    "tests/test_three_handed.py::test_games_keep_every_invariant",
    "tests/test_three_thirteen_game.py::test_full_games_keep_every_invariant",
    "tests/test_indian_game.py::test_thousands_of_games_keep_the_rules",
    "tests/test_simulation.py",
    "tests/test_bots_finish.py",
)
"""The tests whose sample sizes ``RUMMYLAB_SOAK`` multiplies (tests/conftest.py: ``soak``)."""


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--times", type=int, default=5, help="the multiple of make test's sample sizes")
    p.add_argument("--workers", type=int, default=2, help="pytest-xdist processes")
    p.add_argument("--only", default=None, help="only the tests whose path holds this")
    args = p.parse_args()
    if args.times < 1 or args.workers < 1:
        p.error("--times and --workers: 1 or more")
    chosen = [t for t in SOAKED if not args.only or args.only in t]
    if not chosen:
        p.error(f"--only {args.only}: no soaked test matches")
    env = {**os.environ, "RUMMYLAB_SOAK": str(args.times), "OPENBLAS_NUM_THREADS": "1"}
    cmd = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-n", str(args.workers),
           "--dist", "loadgroup", "--durations=10", *chosen]
    start = time.perf_counter()
    code = subprocess.call(cmd, cwd=ROOT, env=env)
    print(f"soak x{args.times}: {len(chosen)} test files or tests, exit {code}, "
          f"{time.perf_counter() - start:.0f} s on {args.workers} processes")
    return code


if __name__ == "__main__":
    sys.exit(main())
