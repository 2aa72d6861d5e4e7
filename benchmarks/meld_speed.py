"""Gin meld-search throughput: compiled batch, compiled one call at a time, the
Python twin and (when `pyspiel` is importable) OpenSpiel's min_deadwood, on the
same seeded hands, with ratios measured in this one run.

    python benchmarks/meld_speed.py                 # default sizes
    python benchmarks/meld_speed.py --agree 1000000 # also check kernel == twin == oracle on 1M hands
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path

os.environ.setdefault("OMP_NUM_THREADS", "1")

import numpy as np  # noqa: E402

import rummylab as rl  # noqa: E402
from rummylab import gin  # noqa: E402

try:
    import pyspiel  # type: ignore[import-not-found]
except ImportError:
    pyspiel = None

GENERATORS = {"uniform": rl.random_hands, "dense": rl.dense_hands}
# rummylab suits S H D C -> OpenSpiel suits s c d h (card = suit * 13 + rank)
_OS_SUIT = [0, 3, 2, 1]


def best_rate(n: int, fn: Callable[[], object], repeat: int = 3) -> float:
    """Hands per second of the fastest of `repeat` runs."""
    best = float("inf")
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t)
    return n / best


def to_openspiel(masks: np.ndarray) -> list[list[int]]:
    return [[_OS_SUIT[b // 16] * 13 + b % 16 for b in range(64) if m >> b & 1] for m in masks.tolist()]


def measure(kind: str, size: int, args: argparse.Namespace) -> dict[str, float]:
    gen = GENERATORS[kind]
    discard = size == 11
    batch_hands = rl.random_hands(args.hands, size, args.seed) if kind == "uniform" else gen(
        min(args.hands, args.dense_hands), size, args.seed)
    single = batch_hands[: args.single]
    twin_hands = batch_hands[: args.twin]
    compiled = gin.GIN_MELDS.kernel("cython")
    twin = gin.GIN_MELDS.kernel("python")
    rates: dict[str, float] = {}
    rates["compiled batch"] = best_rate(batch_hands.size, lambda: gin.deadwood_batch(batch_hands))
    rates["compiled batch, 2 threads"] = best_rate(batch_hands.size,
                                                   lambda: gin.deadwood_batch(batch_hands, threads=2))
    ints = single.tolist()
    call = compiled.discard_deadwood if discard else compiled.deadwood
    rates["compiled one call at a time"] = best_rate(len(ints), lambda: [call(m) for m in ints])
    out = np.empty(twin_hands.size, dtype=np.int32)
    rates["Python twin"] = best_rate(twin_hands.size, lambda: twin.deadwood_batch(twin_hands, out, discard), 1)
    if pyspiel is not None:
        utils = pyspiel.gin_rummy.GinRummyUtils(13, 4, 10)
        os_hands = to_openspiel(batch_hands[: args.peer])
        rates["OpenSpiel min_deadwood"] = best_rate(len(os_hands),
                                                    lambda: [utils.min_deadwood(h) for h in os_hands], 1)
        ours = gin.deadwood_batch(batch_hands[: args.peer])
        theirs = np.array([utils.min_deadwood(h) for h in os_hands])
        rates["OpenSpiel disagreements"] = float(np.count_nonzero(ours != theirs))
    return rates


def report(kind: str, size: int, rates: dict[str, float]) -> None:
    label = "best-discard deadwood" if size == 11 else "deadwood"
    print(f"\n{kind} {size}-card hands ({label}):")
    disagree = rates.pop("OpenSpiel disagreements", None)
    for name, r in rates.items():
        print(f"  {name:<30} {r:>14,.0f} hands/s")
    base = rates["compiled batch"]
    print(f"  ratio compiled batch / Python twin:            {base / rates['Python twin']:>9,.0f}x")
    print(f"  ratio compiled one call / Python twin:         "
          f"{rates['compiled one call at a time'] / rates['Python twin']:>9,.0f}x")
    if "OpenSpiel min_deadwood" in rates:
        peer = rates["OpenSpiel min_deadwood"]
        print(f"  ratio compiled batch / OpenSpiel:              {base / peer:>9,.0f}x")
        print(f"  ratio compiled one call / OpenSpiel:           "
              f"{rates['compiled one call at a time'] / peer:>9,.1f}x")
        print(f"  OpenSpiel answers differing from rummylab:     {disagree:>9,.0f}")
    else:
        print("  (OpenSpiel not installed: `pip install open-spiel` in this venv to compare)")


def agree(n: int, seed: int) -> None:
    """kernel == twin == brute-force oracle on n hands of each kind and size."""
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
    from oracle import oracle_deadwood  # type: ignore[import-not-found]

    compiled, twin = gin.GIN_MELDS.kernel("cython"), gin.GIN_MELDS.kernel("python")
    for kind, gen in GENERATORS.items():
        for size in (10, 11):
            hands = gen(n, size, seed)
            a = np.empty(n, dtype=np.int32)
            b = np.empty(n, dtype=np.int32)
            compiled.deadwood_batch(hands, a, size == 11)
            twin.deadwood_batch(hands, b, size == 11)
            t = time.perf_counter()
            bad = [i for i, m in enumerate(hands.tolist())
                   if not a[i] == b[i] == oracle_deadwood(m, discard=size == 11)]
            print(f"agreement {kind} {size}-card: {n:,} hands, {len(bad)} differ "
                  f"({time.perf_counter() - t:.0f} s)")
            if bad:
                raise SystemExit(f"disagreement on {rl.from_mask(int(hands[bad[0]]))}")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--hands", type=int, default=4_000_000, help="hands per batch measurement")
    p.add_argument("--dense-hands", type=int, default=200_000, help="dense hands per batch measurement")
    p.add_argument("--single", type=int, default=300_000, help="hands for one-call-at-a-time")
    p.add_argument("--twin", type=int, default=20_000, help="hands for the Python twin")
    p.add_argument("--peer", type=int, default=20_000, help="hands for OpenSpiel")
    p.add_argument("--seed", type=int, default=2026)
    p.add_argument("--agree", type=int, default=0, metavar="N", help="check kernel == twin == oracle on N hands")
    args = p.parse_args()
    if rl.BACKEND != "cython":
        raise SystemExit("the compiled kernel is not loaded: run `make lab` or `pip install -e .` first")
    print(f"rummylab {rl.__version__}, backend {rl.BACKEND}, numpy {np.__version__}, "
          f"OpenSpiel {'yes' if pyspiel else 'not installed'}; one core unless noted")
    for kind in GENERATORS:
        for size in (10, 11):
            report(kind, size, measure(kind, size, args))
    if args.agree:
        agree(args.agree, args.seed)


if __name__ == "__main__":
    main()
