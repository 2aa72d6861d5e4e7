"""Compiled kernel == Python twin == brute-force oracle, on seeded uniform and dense hands."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import AGREEMENT_N, backends
from oracle import MeldSpec, Oracle, is_run, is_set, mask_to_pairs, oracle_deadwood

import rummylab as rl
from rummylab import gin
from rummylab.kernel.melds import MeldRules

GENERATORS = {"uniform": rl.random_hands, "dense": rl.dense_hands}


def kernel_answers(rules: MeldRules, hands: np.ndarray, discard: bool) -> dict[str, list[int]]:
    answers = {}
    for name in backends():
        out = np.empty(hands.size, dtype=np.int32)
        rules.kernel(name).deadwood_batch(hands, out, discard)
        answers[f"{name} batch"] = out.tolist()
    return answers


@pytest.mark.slow
@pytest.mark.parametrize("size", [10, 11])
@pytest.mark.parametrize("kind", ["uniform", "dense"])
def test_kernel_twin_and_oracle_agree(kind: str, size: int) -> None:
    hands = GENERATORS[kind](AGREEMENT_N, size, 1000 + size)
    discard = size == 11
    truth = [oracle_deadwood(int(m), discard=discard) for m in hands]
    for name, got in kernel_answers(MeldRules(), hands, discard).items():
        bad = [i for i in range(hands.size) if got[i] != truth[i]]
        assert not bad, f"{name} differs on {rl.from_mask(int(hands[bad[0]]))}: {got[bad[0]]} != {truth[bad[0]]}"
    # single calls through the public API, on part of the sample
    public = [gin.deadwood(rl.from_mask(int(m))) for m in hands[:2000]]
    assert public == truth[:2000]


@pytest.mark.parametrize("spec", [
    MeldSpec(ace_high=True),
    MeldSpec(min_run=4),
    MeldSpec(set_max=3),
    MeldSpec(points=(15, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10), ace_high=True),
    MeldSpec(points=(10,) * 13, ace_high=True, set_min=3, set_max=4),
])
@pytest.mark.both_backends
@pytest.mark.parametrize("kind", ["uniform", "dense"])
def test_other_meld_rules_agree(spec: MeldSpec, kind: str) -> None:
    rules = MeldRules(points=spec.points, ace_high=spec.ace_high, min_run=spec.min_run,
                      set_min=spec.set_min, set_max=spec.set_max)
    for size in (7, 10, 13):
        hands = GENERATORS[kind](1000, size, size)
        for discard in (False, True):
            truth = [oracle_deadwood(int(m), spec, discard) for m in hands]
            for name, got in kernel_answers(rules, hands, discard).items():
                assert got == truth, (name, size, discard)


def check_arrangement(mask: int, size_discard: bool = False) -> None:
    a = gin.analyze(rl.from_mask(mask))
    spec = MeldSpec()
    seen = 0
    for m in a.melds:
        pairs = [(c.rank, c.suit) for c in m.cards]
        assert (is_set(pairs, spec) if m.kind == "set" else is_run(pairs, spec)), str(m)
        assert m.mask & seen == 0, "melds overlap"
        seen |= m.mask
    loose = mask & ~seen
    assert {c.bit for c in a.deadwood_cards} == {b for b in (1 << i for i in range(64)) if loose & b}
    assert a.deadwood == sum(spec.points[c.rank] for c in a.deadwood_cards)
    assert a.deadwood == Oracle(mask_to_pairs(mask)).deadwood()


@pytest.mark.parametrize("kind", ["uniform", "dense"])
@pytest.mark.parametrize("size", [10, 11])
def test_arrangements_are_valid_and_optimal(kind: str, size: int) -> None:
    for m in GENERATORS[kind](1500, size, 77):
        check_arrangement(int(m))


@pytest.mark.parametrize("kind", ["uniform", "dense"])
def test_every_optimal_discard_is_found(kind: str) -> None:
    for m in GENERATORS[kind](400, 11, 5):
        pairs = mask_to_pairs(int(m))
        o = Oracle(pairs)
        b = gin.best_discards(rl.from_mask(int(m)))
        assert b.deadwood == o.discard_deadwood()
        assert {(c.rank, c.suit) for c in b.discards} == {pairs[i] for i in o.discards()}
        assert b.big_gin == (o.deadwood() == 0)


def test_known_peer_errors_are_right_here() -> None:
    # recipes.md: OpenSpiel's min_deadwood gave 20 and 3 for these 11-card hands
    assert gin.deadwood("8H 6H 8D 6D 9D 8C 9C 9S 9H 7C TC") == 19
    assert gin.deadwood("5C 6D 5H 3H 3S 6C 6H 4H 5S 4C 4S") == 0


def test_the_searchs_memo_answers_as_the_search() -> None:
    """The compiled search remembers the hands play asks of it (a memo of 32,768 slots; the
    batches search): hands asked again, in another order, with and without a discard, many
    sharing a slot, get the answers of the batch and of the twin, which remember nothing."""
    rules = MeldRules(ace_high=True)  # a kernel of its own: its memo starts empty
    hands = np.concatenate([rl.dense_hands(20_000, 11, 5), rl.dense_hands(20_000, 10, 6)])
    asked = np.concatenate([hands, hands[::-1], hands[::3]])
    for discard in (False, True, False):
        answers = kernel_answers(rules, asked, discard)
        for name in backends():
            k = rules.kernel(name)
            call = k.discard_deadwood if discard else k.deadwood
            answers[f"{name} one at a time"] = [call(int(m)) for m in asked]
        first = next(iter(answers.values()))
        n = hands.size
        assert first[:n] == first[n:2 * n][::-1] and first[2 * n:] == first[:n:3]
        assert all(got == first for got in answers.values()), discard
