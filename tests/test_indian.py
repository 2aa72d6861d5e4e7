"""Indian rummy analysis: every rule of docs/rules.md §4 and its Indian rows, both ways."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest
from conftest import AGREEMENT_N, PARTS, backends
from oracle_indian import JOKER, IndianOracle, IndianSpec

from rummylab import indian
from rummylab.cards import DECK, Card, parse_cards
from rummylab.indian.analysis import loser_count, masks

R = indian.Rules


# -- §4.1 the pack and the cut joker ----------------------------------------------


def test_cut_card_names_the_wild_rank() -> None:
    assert indian.wild_rank_for_cut("7H") == "7"
    assert indian.wild_rank_for_cut("10d") == "T"
    assert indian.wild_rank_for_cut("JK") == "A"  # a cut printed joker makes the aces wild


@pytest.mark.parametrize("group, wild, kind", [
    # §4.2 sequences: ace low or high, never K-A-2 (row 18)
    ("AS 2S 3S", "9", "pure"),
    ("QS KS AS", "9", "pure"),
    ("KS AS 2S", "9", None),
    ("TH JH QH KH", "5", "pure"),
    ("4H 5H 7H", "5", None),
    ("4H 5S 6H", "9", None),
    # impure: a printed or a wild joker standing in
    ("4H JK 6H", "9", "impure"),
    ("4H 9C 6H", "9", "impure"),
    ("KS JK 2S", "9", None),
    ("JK 2S 3S", "9", "impure"),
    # row 15: a wild card in its own place keeps the sequence pure
    ("4H 5H 6H", "5", "pure"),
    # sets: 3-4 cards of distinct suits (rows 16, 17), jokers may fill
    ("7S 7H 7D", "9", "set"),
    ("7S 7H 7D 7C", "9", "set"),
    ("7S 7S 7H", "9", None),
    ("7S 7H JK", "9", "set"),
    ("7S 7H 7D 7C JK", "9", None),
    ("7S 7H 9C 9D", "9", "set"),
    # two printed jokers and a wild card: the wild card stands for itself in a sequence
    ("JK JK 9C", "9", "impure"),
    ("AS 2S", "9", None),
])
def test_groups(group: str, wild: str, kind: str | None) -> None:
    assert indian.classify_group(group, wild) == kind


@pytest.mark.parametrize("option, group, wild, default_kind, other_kind", [
    ({"wild_natural_in_pure": False}, "4H 5H 6H", "5", "pure", "impure"),  # row 15
    ({"set_allow_duplicate_suits": True}, "7S 7S 7H", "9", None, "set"),  # row 16
    ({"set_max_size": None}, "7S 7H 7D 7C JK", "9", None, "set"),  # row 17
    ({"max_jokers_per_group": 1}, "4H JK JK", "9", "impure", None),  # row 19
    ({"printed_jokers": 3, "jokers_only_group": False}, "JK JK JK", "9", "set", None),
    ({"ace_high": False}, "QS KS AS", "9", "pure", None),
    ({"sequence_max_size": 4}, "4H 5H 6H 7H 8H", "9", "pure", None),  # the brief: sequences of 3 or 4
    ({"sequence_max_size": 4}, "4H 5H JK 7H 8H", "9", "impure", None),
])
def test_group_options_both_ways(option: dict, group: str, wild: str, default_kind: str | None,
                                 other_kind: str | None) -> None:
    default = R(printed_jokers=option.get("printed_jokers", 2))
    assert indian.classify_group(group, wild, default) == default_kind
    assert indian.classify_group(group, wild, R(**option)) == other_kind


@pytest.mark.parametrize("group, reason", [
    ("7S 7S 7H", "7S 7S 7H is not a set: identical cards (7S twice)"),
    ("KS AS 2S", "KS AS 2S is not a sequence: K-A-2 does not wrap around"),
    ("AS 2S", "AS 2S: a group needs at least 3 cards"),
    ("4H 6S 9C", "4H 6S 9C is neither a sequence (one suit) nor a set (one rank)"),
    ("4H 5H 6H", "a pure sequence"),
    ("4H 5H 6H 7H 8H", "a pure sequence"),
])
def test_reasons_a_student_can_read(group: str, reason: str) -> None:
    assert indian.explain_group(group, "9") == reason


def test_the_brief_plays_sequences_of_three_or_four() -> None:
    """indian.BRIEF: a sequence is 3 or 4 cards (brief 003); a longer run is no group, and the
    search splits it (4H-8H: a sequence of four and the cheaper end, 4H, left over)."""
    assert indian.BRIEF.sequence_max_size == 4 and indian.DEFAULT.sequence_max_size is None
    assert indian.explain_group("4H 5H 6H 7H 8H", "9", indian.BRIEF) == ("4H 5H 6H 7H 8H is not a sequence: "
                                                                         "more than 4 cards")
    hand = "4H 5H 6H 7H 8H 2S 3S 4S 5S KD KC KS KH"
    assert indian.loser_points(hand, "Q").points == 2  # every card fits: a valid hand
    assert indian.loser_points(hand, "Q", indian.BRIEF).points == 4  # 4H is left over
    six = "3H 4H 5H 6H 7H 8H 2S 3S 4S KD KC KS JK"  # valid under the brief as 3H-5H, 6H-8H (JK joins a group)
    once, twice, jokers = masks(parse_cards(six))
    for backend in backends():
        assert indian.BRIEF.declaration_kernel(backend).penalty(once, twice, 11, jokers, 1, 1) == 0
    groups = indian.best_declaration(six, "Q", indian.BRIEF)
    assert groups is not None and max(map(len, groups)) <= 4
    assert indian.check_declaration(six, [list(g) for g in groups], "Q", indian.BRIEF).valid
    with pytest.raises(ValueError, match="sequence_max_size=3 is below min_life_length=4"):
        R(sequence_max_size=3, min_life_length=4)


# -- declarations -------------------------------------------------------------------

VALID = ("AS 2S 3S", "5H 6H JK", "9D 9C 9S", "KD QD 7C 7H")


def test_valid_declaration() -> None:
    hand = " ".join(VALID)
    d = indian.check_declaration(hand, VALID, "7")
    assert d.valid and d.reason == "valid declaration"
    assert d.types == ("pure", "impure", "set", "impure")


@pytest.mark.parametrize("groups, reason", [
    (("AS 2S JK", "5H 6H JK", "9D 9C 9S", "KD KS KC KH"), "no pure sequence"),
    (("AS 2S 3S", "5H 5S 5C", "9D 9C 9S", "KD QD 7C 7H"), None),
    (("AS 2S 3S", "5H 5S 5C", "9D 9C 9S", "KD KC KH 7H"), "only one sequence"),
    (("AS 2S 3S", "7S 7S 7H", "9D 9C 9S", "KD KC KH 4S"), "7S 7S 7H is not a set: identical cards"),
])
def test_invalid_declarations_say_why(groups: tuple[str, ...], reason: str | None) -> None:
    hand = " ".join(groups)
    d = indian.check_declaration(hand, groups, "4" if "7S 7S 7H" in groups else "7")
    if reason is None:  # KD QD 7C 7H: the two wild sevens complete KD QD into a sequence
        assert d.valid
    else:
        assert not d.valid and d.reason.startswith(reason)


def test_two_lives_rule_needs_two_sequences_one_pure() -> None:
    groups = ("AS 2S 3S", "4H 5H 6H", "9D 9C 9S", "KD KC KH KS")
    assert indian.check_declaration(" ".join(groups), groups, "7").valid  # two pure sequences
    groups = ("AS JK 3S", "4H 5H JK", "9D 9C 9S", "KD KC KH KS")
    assert indian.check_declaration(" ".join(groups), groups, "7").reason.startswith("no pure sequence")


def test_a_life_of_four_cards_row_20() -> None:
    """docs/rules.md row 20 (rummyon): with min_life_length=4 a sequence counts as a life only
    with four or more cards; a shorter one is still a valid group."""
    four = R(min_life_length=4)
    hand = "AS 2S 3S 5H 6H JK 8H 9H TD JD QD KD 7C"
    short = ("AS 2S 3S", "5H 6H JK 8H 9H", "TD JD QD KD 7C")  # the pure sequence has 3 cards
    assert indian.check_declaration(hand, short, "7").valid
    d = indian.check_declaration(hand, short, "7", four)
    assert not d.valid and d.reason.startswith("no pure sequence of 4 or more cards")
    assert d.types == ("pure", "impure", "impure")  # each still a valid group
    long = ("AS 2S 3S", "TD JD QD KD", "5H 6H 7C 8H 9H JK")  # pure 4 and impure 6: both lives
    assert indian.check_declaration(hand, long, "7", four).valid
    groups = indian.best_declaration(hand, "7", four)
    assert groups is not None and indian.check_declaration(hand, [list(g) for g in groups], "7", four).valid
    # a pure sequence of 3 and an impure one: lives by default, not with four
    hand = "AS 2S 3S 5H 6H JK 9D 9C 9S KD KC 4C 8D"
    assert indian.loser_points(hand, "7").lives
    lp = indian.loser_points(hand, "7", four)
    assert not lp.lives and not lp.has_pure_sequence
    assert lp.points == 80  # every card: 85, capped


def test_a_short_run_padded_to_a_life() -> None:
    # default: 5H-8H pure, 2C 3C JK, 9S 9D JK, KS KD KC: a valid hand (2 points for a loser);
    # with four, both jokers lengthen 2C 3C to a second life and 9S 9D are left over
    hand = "5H 6H 7H 8H 2C 3C JK JK KS KD KC 9S 9D"
    assert indian.loser_points(hand, "4").points == 2
    assert indian.loser_points(hand, "4", R(min_life_length=4)).points == 9 + 9
    hand = "5H 6H 7H 8H 2C 3C JK QS KS KD KC 9S 9D"  # one joker only: no second life of four
    assert indian.loser_points(hand, "4").points == 10 + 9 + 9
    lp = indian.loser_points(hand, "4", R(min_life_length=4))
    assert not lp.lives and lp.points == 80


def test_best_declaration_is_valid_or_none() -> None:
    hand = "KD 9S 2S 6H 7C AS JK 3S 9D QD 5H 7H 9C"
    groups = indian.best_declaration(hand, "7")
    assert groups is not None
    assert indian.check_declaration(hand, [list(g) for g in groups], "7").valid
    assert indian.best_declaration("AS 2S 4S 5H 6H 8H 9D 9C TS KD QD 2C 3H", "7") is None
    # 14 cards: the discard is the card left out
    groups = indian.best_declaration(hand + " 8D", "7")
    assert groups is not None and sum(len(g) for g in groups) == 13


# -- §4.3 loser points ---------------------------------------------------------------


def test_card_values_and_only_ungrouped_cards_count() -> None:
    # two lives (AS 2S 3S pure, 5H 6H JK impure): KD KC 4C 8C 8D ungrouped = 10 + 10 + 4 + 8 + 8
    lp = indian.loser_points("AS 2S 3S 5H 6H JK 9D 9C 9S KD KC 4C 8D", "7")
    assert lp.lives and lp.has_pure_sequence
    assert lp.points == 10 + 10 + 4 + 8
    assert sorted(map(str, lp.ungrouped)) == ["4C", "8D", "KC", "KD"]


def test_without_two_lives_every_card_counts() -> None:
    # a pure sequence, no second sequence: all 13 count (jokers and wild cards 0)
    hand = "AS 2S 3S 5H 9H 8C 9D 9C 9S 2D 4C 6H KD"
    lp = indian.loser_points(hand, "7")
    assert not lp.lives and lp.has_pure_sequence
    assert lp.points == 80  # 86, capped
    assert indian.loser_points(hand, "7", R(cap=100)).points == 10 + 2 + 3 + 5 + 9 + 8 + 9 + 9 + 9 + 2 + 4 + 6 + 10
    # row 21, the brief's way: every card but the pure sequence
    lp = indian.loser_points(hand, "7", R(no_second_life_rule="exclude_pure"))
    assert lp.points == 5 + 9 + 8 + 9 + 9 + 9 + 2 + 4 + 6 + 10


def test_the_cap_is_80() -> None:
    hand = "KS QH JD TC 9S 8H KD QC JS TH 9D 8C 6S"
    assert indian.loser_points(hand, "2").points == 80
    assert indian.loser_points(hand, "2", R(cap=200)).points == 10 * 7 + 9 * 2 + 8 * 2 + 10 + 6


def test_a_valid_hand_costs_valid_show_points() -> None:
    hand = " ".join(VALID)
    assert indian.loser_points(hand, "7").points == 2  # row 22
    assert indian.loser_points(hand, "7", R(valid_show_points=0)).points == 0


def test_fourteen_cards_count_after_the_best_discard() -> None:
    lp = indian.loser_points("AS 2S 3S 5H 6H JK 9D 9C 9S KD KC 4C 8D QH", "7")
    assert lp.discard is not None and str(lp.discard) in ("KD", "KC", "QH")
    assert lp.points == 10 + 4 + 8 + 10  # KD KC 4C 8D QH ungrouped, a ten-point card discarded


# -- §4.4 drops and pools -----------------------------------------------------------------


def test_drops() -> None:
    assert R().drops(101) == (20, 40) and R().drops(None) == (20, 40)
    assert R().drops(201) == (25, 50)
    assert R(first_drop=10, middle_drop=30).drops(None) == (10, 30)  # rummyon's points rummy


@pytest.mark.parametrize("scores, pool, eliminated, rejoin", [
    ({"A": 101, "B": 40, "C": 79}, 101, True, True),  # reaching 101 is out (row 24)
    ({"A": 100, "B": 40}, 101, False, False),
    ({"A": 120, "B": 80, "C": 10}, 101, True, False),  # a remaining player above 79 (row 25)
    ({"A": 201, "B": 174, "C": 3}, 201, True, True),
    ({"A": 201, "B": 174}, 201, True, False),  # two at the table: no re-join (row 31)
    ({"A": 230, "B": 175, "C": 3}, 201, True, False),
])
def test_pool_status(scores: dict, pool: int, eliminated: bool, rejoin: bool) -> None:
    s = indian.pool_status(scores, pool=pool, player="A")
    assert (s.eliminated, s.can_rejoin) == (eliminated, rejoin)
    if rejoin:
        assert s.rejoin_score == max(v for k, v in scores.items() if k != "A") + 1


# -- bad input ------------------------------------------------------------------------------


@pytest.mark.parametrize("call, match", [
    (lambda: indian.loser_points("7S 7S 7S 2H 3H 4H 5H 6H 8H 9H TH JH QH", "4"), "7S: duplicate card"),
    (lambda: indian.loser_points("JK JK JK 2H 3H 4H 5H 6H 8H 9H TH JH QH", "4"), "JK: more than 2"),
    (lambda: indian.loser_points("2H 3H 4H 5H 6H 8H 9H TH JH QH KH AH", "4"), "12 cards"),
    (lambda: indian.loser_points("2H 3H 4H 5H 6H 8H 9H TH JH QH KH AH 2S 3S 4S", "4"), "15 cards"),
    (lambda: indian.loser_points("2H 3H 4H 5H 6H 8H 9H TH JH QH KH AH 1S", "4"), "'1S'"),
    (lambda: indian.loser_points("2H 3H 4H 5H 6H 8H 9H TH JH QH KH AH 2S", "11"), "wild rank '11'"),
    (lambda: indian.check_declaration(" ".join(VALID), VALID[:3], "7"), "leave out 7H 7C QD KD"),
    (lambda: indian.check_declaration(" ".join(VALID), (*VALID[:3], "KD QD 7C 8C"), "7"), "8C: in the groups but"),
    (lambda: indian.classify_group("7S 7X 7H", "4"), "unknown suit"),
    (lambda: indian.pool_status({"A": 10}, pool=150), "pool=150"),
    (lambda: indian.Rules(no_second_life_rule="half"), "no_second_life_rule"),
    (lambda: indian.Rules(min_life_length=2), "min_life_length=2"),
])
def test_bad_input_names_it(call, match: str) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(ValueError, match=match):
        call()


# -- the search against the brute-force oracle ------------------------------------------------

PACK = [(c.rank, c.suit) for c in DECK] * 2 + [JOKER, JOKER]
OPTIONS = [{}, {"no_second_life_rule": "exclude_pure"}, {"wild_natural_in_pure": False}, {"max_jokers_per_group": 1},
           {"set_allow_duplicate_suits": True}, {"set_max_size": None}, {"jokers_only_group": False},
           {"ace_high": False}, {"valid_show_points": 0, "cap": 60}, {"min_life_length": 4},
           {"min_life_length": 4, "no_second_life_rule": "exclude_pure"}, {"sequence_max_size": 4},
           {"sequence_max_size": 4, "no_second_life_rule": "exclude_pure"},
           {"sequence_max_size": 4, "min_life_length": 4, "max_jokers_per_group": 1}]


def deal(rng: np.random.Generator, size: int, dense: bool) -> tuple[list[tuple[int, int]], int, dict]:
    """A seeded hand: from the whole pack, or dense (two suits, near ranks, both printed jokers,
    the wild cards) so that two lives are common."""
    w = int(rng.integers(0, 13))
    if dense:
        suits = rng.choice(4, size=int(rng.integers(1, 3)), replace=False)
        lo = int(rng.integers(0, 7))
        pool = [(r, int(s)) for s in suits for r in range(lo, min(13, lo + 7))] * 2 + [JOKER, JOKER]
        pool += [(w, s) for s in range(4)] + [(int(r), s) for r in rng.choice(13, 2) for s in range(4)]
        counts = Counter(pool)
        pool = [c for c in counts for _ in range(min(counts[c], 2))]
    else:
        pool = PACK
    hand = [pool[int(j)] for j in rng.choice(len(pool), size, replace=False)]
    return hand, w, OPTIONS[int(rng.integers(len(OPTIONS)))]


def cards_of(hand: list[tuple[int, int]]) -> list[Card]:
    return [Card(13, 4) if c == JOKER else Card(*c) for c in hand]


def spec_of(w: int, opts: dict) -> IndianSpec:
    return IndianSpec(wild_rank=w, **{k: v for k, v in opts.items() if k in IndianSpec.__dataclass_fields__})


@pytest.mark.slow
@pytest.mark.parametrize("part", range(PARTS))
@pytest.mark.parametrize("size", [13, 14])
def test_search_equals_oracle(size: int, part: int) -> None:
    """Compiled batch == twin batch == oracle on seeded 13- and 14-card hands, random cut ranks,
    both printed jokers in play, every option (one of PARTS seeded parts)."""
    rng = np.random.default_rng([101 + size, part])
    n = (AGREEMENT_N * 3 // 4 if size == 13 else AGREEMENT_N // 4) // PARTS  # 14 cards: 14 oracle searches
    groups: dict[tuple, list[tuple[int, list[tuple[int, int]], int]]] = {}
    lives = 0
    for i in range(n):
        hand, w, opts = deal(rng, size, dense=i % 4 == 0)
        oracle = IndianOracle(hand, spec_of(w, opts))
        want = oracle.loser_points() if size == 13 else oracle.loser_points_after_discard()
        lives += oracle.count() is not None if size == 13 else 0
        groups.setdefault((tuple(sorted(opts.items())), w), []).append((i, hand, want))
    for (opts_key, w), items in groups.items():
        rules = R(**dict(opts_key))
        for backend in backends():
            # the twin is slow: every 10th hand of 13 cards, every 50th of 14
            mine = items if backend == "cython" else [t for t in items if t[0] % (10 if size == 13 else 50) == 0]
            if not mine:
                continue
            once, twice, jokers = (np.array(col, dtype=dt) for col, dt in zip(
                zip(*(masks(cards_of(hand)) for _, hand, _ in mine), strict=True),
                (np.uint64, np.uint64, np.uint8), strict=True))
            out = np.empty(len(mine), dtype=np.int32)
            rules.kernel(backend).loser_points_batch(once, twice, jokers, w, out,
                                                     rules.no_second_life_rule == "exclude_pure", rules.cap,
                                                     rules.valid_show_points, size == 14)
            for (_, hand, want), got in zip(mine, out.tolist(), strict=True):
                assert got == want, (backend, " ".join(map(str, cards_of(hand))), w, dict(opts_key))
    assert len({key for key, _ in groups}) == len(OPTIONS)
    assert size == 14 or lives > n // 10  # the dense hands make two lives common


@pytest.mark.both_backends
def test_one_hand_count_equals_the_batch() -> None:
    """loser_count (one hand, either kernel) == the batch, with and without a discard."""
    rng = np.random.default_rng(7)
    for i in range(60):
        hand, w, opts = deal(rng, 13 + i % 2, dense=i % 3 == 0)
        rules = R(**opts)
        for backend in backends():
            k = rules.kernel(backend)
            out = np.empty(1, dtype=np.int32)
            o, t, j = masks(cards_of(hand))
            k.loser_points_batch(np.array([o], dtype=np.uint64), np.array([t], dtype=np.uint64),
                                 np.array([j], dtype=np.uint8), w, out, rules.no_second_life_rule == "exclude_pure",
                                 rules.cap, rules.valid_show_points, len(hand) == 14)
            assert _twin_points(k, hand, w, rules) == int(out[0])


def _twin_points(k, hand: list[tuple[int, int]], w: int, rules: indian.Rules) -> int:  # type: ignore[no-untyped-def]
    cards = cards_of(hand)
    if len(cards) == 13:
        return loser_count(k, *masks(cards), w, rules)
    return min(loser_count(k, *masks(cards[:j] + cards[j + 1:]), w, rules) for j in range(len(cards)))


def test_declarations_agree_with_the_oracle() -> None:
    rng = np.random.default_rng(31)
    found = 0
    for _ in range(120):
        hand, w, opts = deal(rng, 13, dense=True)
        rules = R(**opts)
        oracle = IndianOracle(hand, spec_of(w, opts), values=(1,) * 13, joker_value=1)
        exists = oracle.count() == 0
        groups = indian.best_declaration(cards_of(hand), "A23456789TJQK"[w], rules)
        assert (groups is not None) == exists, (" ".join(map(str, cards_of(hand))), w, opts)
        if groups is not None:
            found += 1
            assert indian.check_declaration(cards_of(hand), [list(g) for g in groups], "A23456789TJQK"[w], rules).valid
    assert found > 5


def test_batch_equals_single_calls() -> None:
    rng = np.random.default_rng(7)
    for size in (13, 14):
        hands = [cards_of(deal(rng, size, dense=bool(i % 2))[0]) for i in range(24)]
        once, twice, jokers = zip(*[masks(h) for h in hands], strict=True)
        out = indian.loser_points_batch(once, twice, jokers, "7", discard=size == 14)
        assert out.tolist() == [indian.loser_points(h, "7").points for h in hands]


@pytest.mark.both_backends
def test_loser_points_agree_on_both_backends() -> None:
    rng = np.random.default_rng(3)
    for _ in range(40):
        hand, w, opts = deal(rng, 13, dense=True)
        rules = R(**opts)
        values = {loser_count(rules.kernel(b), *masks(cards_of(hand)), w, rules) for b in backends()}
        assert len(values) == 1


def test_parse_accepts_jokers_and_two_decks() -> None:
    cards = parse_cards("JK JK 7S 7S", copies=2, jokers=2)
    assert len(cards) == 4
