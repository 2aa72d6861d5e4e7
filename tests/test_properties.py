"""Hypothesis properties on both backends: kernel answers equal the oracle's."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from oracle import MeldSpec, Oracle

from rummylab.cards import DECK, deck_masks
from rummylab.kernel.melds import MeldRules


def hands(lo: int, hi: int) -> st.SearchStrategy[list[int]]:
    return st.lists(st.integers(0, 51), min_size=lo, max_size=hi, unique=True)


def dense(lo: int, hi: int) -> st.SearchStrategy[list[int]]:
    """Cards from two suits and seven neighbouring ranks."""
    return st.tuples(st.integers(0, 6), st.sampled_from([(0, 1), (1, 2), (0, 3), (2, 3)])).flatmap(
        lambda t: st.lists(st.tuples(st.sampled_from(t[1]), st.integers(t[0], t[0] + 6)),
                           min_size=lo, max_size=min(hi, 14), unique=True)
        .map(lambda cs: [s * 13 + r for s, r in cs]))


specs = st.builds(
    MeldSpec,
    points=st.tuples(*[st.integers(0, 19)] * 13),
    ace_high=st.booleans(),
    min_run=st.integers(3, 5),
    set_max=st.integers(3, 4),
)


def mask_of(idx: list[int]) -> int:
    m = 0
    for i in idx:
        m |= DECK[i].bit
    return m


def rules_of(spec: MeldSpec) -> MeldRules:
    return MeldRules(points=spec.points, ace_high=spec.ace_high, min_run=spec.min_run,
                     set_min=spec.set_min, set_max=spec.set_max)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(idx=st.one_of(hands(10, 11), dense(10, 11)))
def test_gin_deadwood_equals_oracle(backend: str, idx: list[int]) -> None:
    mask = mask_of(idx)
    k = MeldRules().kernel(backend)
    o = Oracle([(DECK[i].rank, DECK[i].suit) for i in idx])
    assert k.deadwood(mask) == o.deadwood()
    assert k.discard_deadwood(mask) == o.discard_deadwood()
    assert k.arrangement(mask)[0] == o.deadwood()


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(spec=specs, idx=st.one_of(hands(1, 14), dense(3, 14)))
def test_any_meld_rules_equal_oracle(backend: str, spec: MeldSpec, idx: list[int]) -> None:
    mask = mask_of(idx)
    k = rules_of(spec).kernel(backend)
    o = Oracle([(DECK[i].rank, DECK[i].suit) for i in idx], spec)
    assert k.deadwood(mask) == o.deadwood()
    assert k.discard_deadwood(mask) == o.discard_deadwood()


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(spec=specs, idx=st.one_of(hands(1, 12), dense(2, 12)), kept=st.integers(0, 2**12 - 1))
def test_best_removal_equals_oracle(backend: str, spec: MeldSpec, idx: list[int], kept: int) -> None:
    """The card whose removal leaves the least deadwood, never a kept one; ties go to the card
    worth most, then the highest bit (the compiled kernel tries the cards in that order)."""
    mask = mask_of(idx)
    free = [j for j in range(len(idx)) if not kept >> j & 1]
    keep = mask_of([i for j, i in enumerate(idx) if kept >> j & 1])
    k = rules_of(spec).kernel(backend)
    if not free:
        assert k.best_removal(mask, keep) == (1 << 30, 0)
        return
    o = Oracle([(DECK[i].rank, DECK[i].suit) for i in idx], spec)
    j = min(free, key=lambda j: (o.deadwood(j), -spec.points[DECK[idx[j]].rank], -DECK[idx[j]].bit))
    assert k.best_removal(mask, keep) == (o.deadwood(j), DECK[idx[j]].bit)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(idx=hands(10, 11))
def test_a_card_adds_at_most_its_value(backend: str, idx: list[int]) -> None:
    """Adding a card adds at most its own value to the least deadwood."""
    k = MeldRules().kernel(backend)
    mask = mask_of(idx)
    for i in idx:
        assert k.deadwood(mask) <= k.deadwood(mask & ~DECK[i].bit) + min(DECK[i].rank + 1, 10)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(idx=st.lists(st.integers(0, 51), min_size=4, max_size=10).filter(lambda xs: all(xs.count(x) <= 3 for x in xs)),
       rnd=st.integers(1, 11), opts=st.sampled_from([{}, {"ace_high": True}, {"max_wilds_per_meld": 1},
                                                     {"min_non_wild": 1}, {"ace_penalty": 15}]))
def test_three_thirteen_best_discard_equals_oracle(backend: str, idx: list[int], rnd: int, opts: dict) -> None:
    """Up to three copies of a card: the least penalty after a discard, in one search, equals the
    oracle's least over the hands less each card."""
    import numpy as np
    from oracle_wild import WildOracle, WildSpec

    from rummylab import three_thirteen as tt

    rules = tt.Rules(**opts, decks=3)
    spec = WildSpec(wild_rank=rnd + 1, points=rules.points, ace_high=rules.ace_high,
                    max_wilds_per_meld=rules.max_wilds_per_meld, min_non_wild=rules.min_non_wild,
                    wild_as_self=rules.min_non_wild == 0)
    cards = [(DECK[i].rank, DECK[i].suit) for i in idx]
    want = min(WildOracle(cards[:j] + cards[j + 1:], spec).penalty() for j in range(len(cards)))
    once, twice, thrice = (np.array([m], dtype=np.uint64) for m in deck_masks([DECK[i] for i in idx])[:3])
    out = np.empty(1, dtype=np.int32)
    rules.kernel(backend).penalty_batch(once, twice, rnd + 1, out, thrice=thrice, discard=True)
    assert out[0] == want
