"""The Python ports of the EAAI Java players (benchmarks/eaai): legal play on rummylab's engine,
known decisions on hand-built states, and agreement with the Java players' recorded decisions
(tests/data/eaai, written by benchmarks/eaai/record_java.py with the real Java code)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent.parent / "benchmarks"))

from eaai import ginrummyutil as gu  # noqa: E402
from eaai import marjj, simple  # noqa: E402
from eaai.marjj import Knowledge, MarjjV5Player  # noqa: E402
from eaai.simple import SimpleGinRummyPlayer  # noqa: E402

from rummylab.cards import DECK, Card, random_hands, to_mask  # noqa: E402
from rummylab.gin import game as g  # noqa: E402
from rummylab.gin.analysis import gin_kernel  # noqa: E402
from rummylab.gin.players import GreedyBot  # noqa: E402
from rummylab.gin.rules import Rules  # noqa: E402

DATA = Path(__file__).parent / "data" / "eaai"
EAAI = Rules(gin_bonus=25, undercut_bonus=25, big_gin_bonus=None, undercut_on_tie=True, knock_limit=10,
             target=100, game_bonus=0, box_bonus=0, shutout="none", dead_hand_stock=2)
"""The EAAI challenge's rules as rummylab options (benchmarks/eaai/README.md)."""
PORTS = [SimpleGinRummyPlayer, MarjjV5Player]


def C(text: str) -> Card:
    return Card.parse(text)


def state(mine: str, *, to_play: int = 0, phase: g.Phase = g.Phase.DISCARD, discards: str = "",
          theirs: str | None = None, taken: str | None = None, rules: Rules = EAAI, **fields: object) -> g.State:
    """A hand-built state: seat ``to_play`` holds ``mine``; the opponent holds ``theirs`` (default:
    ten cards nobody else has); the rest is the stock."""
    me = to_mask(mine)
    pile = tuple(C(t) for t in discards.split())
    used = me | to_mask(" ".join(map(str, pile)))
    if theirs is None:
        theirs_mask = 0
        for c in DECK:
            if theirs_mask.bit_count() == 10:
                break
            if not used & c.bit:
                theirs_mask |= c.bit
    else:
        theirs_mask = to_mask(theirs)
    stock = tuple(c for c in DECK if not (used | theirs_mask) & c.bit)
    hands = (me, theirs_mask) if to_play == 0 else (theirs_mask, me)
    return g.State(rules=rules, seed=0, phase=phase, dealer=1, to_play=to_play, hands=hands, stock=stock,
                   discards=pile, taken=C(taken) if taken else None, **fields)  # type: ignore[arg-type]


def test_rummylab_eaai_preset_is_these_rules() -> None:
    from rummylab.gin import rules

    preset = getattr(rules, "EAAI", None)
    if preset is None:
        pytest.skip("rummylab.gin.rules has no EAAI preset")
    assert preset == EAAI


# -- the framework's melding ------------------------------------------------------------------


def test_java_card_numbering_and_meld_list() -> None:
    assert gu.java_id(C("AC")) == 0 and gu.java_id(C("KD")) == 51 and gu.java_id(C("2H")) == 14
    assert gu.from_java(gu.to_java(to_mask("AS TD KC 5H"))) == to_mask("AS TD KC 5H")
    assert len(gu.ALL_MELDS) == 4 * sum(range(1, 12)) + 13 * 5  # 264 runs and 65 sets
    hand = gu.parse("AD AS AH AC 2C 3C 4C 4H 4D 4S")  # GinRummyUtil.main's example
    best = gu.best_meld_sets(hand)
    assert {gu.meld_set_deadwood(m, hand) for m in best} == {0}


def test_java_meld_search_gives_the_kernels_deadwood() -> None:
    kernel = gin_kernel()
    for size in (10, 11):
        for mask in random_hands(300, size, 7).tolist():
            assert gu.best_deadwood(gu.to_java(mask)) == kernel.deadwood(mask), mask


# -- whole hands on the engine ----------------------------------------------------------------


@pytest.mark.parametrize("port", PORTS, ids=lambda p: p.name)
@pytest.mark.parametrize("rules", [EAAI, Rules()], ids=["eaai", "default"])
def test_port_plays_whole_hands_against_greedy_without_an_illegal_action(port: type, rules: Rules) -> None:
    hands = 0
    for seat in (0, 1):
        bots = [GreedyBot(seat), GreedyBot(seat)]
        bots[seat] = port(seat)
        s = g.new_game(rules, seed=11 + seat)
        while hands < 6 * (seat + 1) and s.phase not in (g.Phase.GAME_OVER, g.Phase.MATCH_OVER):
            action = bots[s.to_play].act(s)
            assert action in g.legal_actions(s), (bots[s.to_play].name, action)
            if s.phase is not g.Phase.HAND_OVER and s.to_play == seat:
                assert action.kind is not g.Kind.BIG_GIN
            s = g.apply(s, action)
            hands += s.phase is g.Phase.HAND_OVER
    assert hands >= 6


@pytest.mark.parametrize("port", PORTS, ids=lambda p: p.name)
def test_same_seed_same_game(port: type) -> None:
    def play(seed: int) -> tuple:
        bots = [port(seed), GreedyBot(seed)]
        s = g.new_game(EAAI, seed=3)
        while len(s.records) < 2 and s.phase not in (g.Phase.GAME_OVER, g.Phase.MATCH_OVER):
            s = g.apply(s, bots[s.to_play].act(s))
        return s.history

    assert play(1) == play(1)


# -- the simple player's known decisions ------------------------------------------------------


def test_simple_takes_the_face_up_card_only_when_it_makes_a_meld() -> None:
    bot = SimpleGinRummyPlayer(0)
    hand = "2S 3S 7H 7D KC QD 9C 5H JS AC"
    assert bot.act(state(hand, phase=g.Phase.FIRST_UPCARD, discards="4S")) == g.TAKE_UPCARD  # 2-3-4S
    assert bot.act(state(hand, phase=g.Phase.FIRST_UPCARD, discards="7C")) == g.TAKE_UPCARD  # 7s
    assert bot.act(state(hand, phase=g.Phase.FIRST_UPCARD, discards="AH")) == g.PASS  # lowers deadwood, no meld
    assert bot.act(state(hand, phase=g.Phase.DRAW, discards="8C 4S")) == g.DRAW_DISCARD
    assert bot.act(state(hand, phase=g.Phase.DRAW, discards="4S AH")) == g.DRAW_STOCK
    # any meld counts, even one that a least-deadwood arrangement would not use
    assert simple.will_draw_face_up(to_mask("5S 6S 7S 8S 9S KD KH 2C 4C 6C"), C("7H")) is False
    assert simple.will_draw_face_up(to_mask("5S 6S 7S 7D 9S KD KH 2C 4C 6C"), C("7H")) is True
    # after both passed the first upcard the Java engine draws face down for the first player
    s = state(hand, phase=g.Phase.DRAW, discards="4S", passes=2)
    assert bot.act(s) == g.DRAW_STOCK


def test_simple_discards_the_highest_unmatched_card_and_knocks_as_soon_as_it_can() -> None:
    bot = SimpleGinRummyPlayer(0)
    s = state("2S 3S 4S 7H 7D 7C KC 9D 5H AC 2C")  # deadwood KC 9D 5H AC 2C
    assert bot.options(s) == [g.Action(g.Kind.DISCARD, C("KC"))]
    s = state("2S 3S 4S 7H 7D 7C KC 4D 3H AC 2C")  # without KC: 4+3+1+2 = 10, knock
    assert bot.options(s) == [g.Action(g.Kind.KNOCK, C("KC"))]
    s = state("2S 3S 4S 7H 7D 7C 8C 9C TC JC QC")  # gin by throwing QC or 8C (no big gin in EAAI)
    assert set(bot.options(s)) == {g.Action(g.Kind.KNOCK, C("QC")), g.Action(g.Kind.KNOCK, C("8C"))}
    # ties: every card leaving the least deadwood, picked uniformly
    s = state("2S 3S 4S 7H 7D 7C KC QD 5H AC 2C")
    assert set(bot.options(s)) == {g.Action(g.Kind.DISCARD, C("KC")), g.Action(g.Kind.DISCARD, C("QD"))}
    picks = {SimpleGinRummyPlayer(seed).act(s) for seed in range(12)}
    assert len(picks) == 2


def test_simple_never_discards_the_card_it_took_nor_repeats_a_draw_discard_pair() -> None:
    s = state("2S 3S 4S 7H 7D 7C KC QD 5H AC KS", taken="KS")
    assert set(simple.discard_candidates(s.hands[0], C("KS"), C("KS"), set())) == {C("KC"), C("QD")}
    played = {to_mask("KS KC")}  # this hand it drew KS and threw KC before
    assert simple.discard_candidates(s.hands[0], C("KS"), C("KS"), played) == [C("QD")]


def test_simple_remembers_its_stock_draws_for_the_repeat_rule() -> None:
    bot = SimpleGinRummyPlayer(0)
    s = g.new_game(EAAI, seed=4)
    greedy = GreedyBot(0)
    seen_pairs = 0
    while s.phase not in (g.Phase.HAND_OVER, g.Phase.GAME_OVER, g.Phase.MATCH_OVER):
        if s.to_play == 0:
            action = bot.act(s)
            if s.phase is g.Phase.DISCARD:
                view = bot.memory.observe(s)
                assert view.drawn is not None and s.hands[0] & view.drawn.bit
                seen_pairs = len(view.my_draws)
                assert all(d is not None for d, _ in view.my_draws)
        else:
            action = greedy.act(s)
        s = g.apply(s, action)
    assert seen_pairs >= 2


# -- MARJJ's known decisions ------------------------------------------------------------------


def test_marjj_knocks_early_only_in_its_first_three_turns_then_only_for_gin() -> None:
    hand = to_mask("2S 3S 4S 7H 7D 7C 4D 3H AC 2C")  # deadwood 10
    assert [marjj.knocks(hand, t) for t in (1, 2, 3, 4, 9)] == [True, True, True, False, False]
    gin = to_mask("2S 3S 4S 7H 7D 7C 8C 9C TC JC")
    assert marjj.knocks(gin, 9)
    bot = MarjjV5Player(0)
    s = state("2S 3S 4S 7H 7D 7C 4D 3H AC 2C KD")
    assert bot.options(s) == [g.Action(g.Kind.KNOCK, C("KD"))]  # its first discard
    late = state("2S 3S 4S 7H 7D 7C 4D 3H AC 2C KD", thrown=(to_mask("QC JD TH 9S"), 0))
    assert all(a.kind is g.Kind.DISCARD for a in bot.options(late))  # fifth discard: no knock


def test_marjj_plays_a_gin_discard_at_once_and_never_the_card_it_took() -> None:
    s = state("2S 3S 4S 7H 7D 7C 8C 9C TC JC KD")
    assert MarjjV5Player(0).options(s) == [g.Action(g.Kind.KNOCK, C("KD"))]
    s = state("2S 3S 4S 7H 7D 7C 4D 3H AC 2C KD", taken="KD")
    assert all(a.card != C("KD") for a in MarjjV5Player(0).options(s))


def test_marjj_takes_a_card_only_into_a_meld_that_lowers_its_deadwood() -> None:
    bot = MarjjV5Player(0)
    hand = "2S 3S 7H 7D KC QD 9C 5H JS AC"
    assert bot.act(state(hand, phase=g.Phase.DRAW, discards="8C 4S")) == g.DRAW_DISCARD
    assert bot.act(state(hand, phase=g.Phase.DRAW, discards="8C AH")) == g.DRAW_STOCK  # lowers, no meld
    know = Knowledge(seen=gu.to_java(to_mask(hand + " 4S")), opponent_cards=0)
    assert marjj.will_draw_face_up(to_mask(hand), C("4S"), know)


def test_marjj_opponent_ev_keeps_the_java_quirks() -> None:
    # the card itself counts as an unavailable card of its rank: alone it earns RANK_PENALTY
    know = Knowledge(seen=0, opponent_cards=0)
    mine = gu.to_java(to_mask("5H"))
    assert marjj.opponent_ev(C("5H"), mine, know) == marjj.RANK_PENALTY
    # a king: no higher cards, so a sequence bonus once the queen is unavailable
    mine = gu.to_java(to_mask("KH QH"))
    assert marjj.opponent_ev(C("KH"), mine, know) == marjj.SEQUENCE_BONUS + marjj.RANK_PENALTY
    # a card next to one the opponent took
    know = Knowledge(seen=0, opponent_cards=gu.to_java(to_mask("6H")))
    assert marjj.opponent_ev(C("5H"), gu.to_java(to_mask("5H")), know) == marjj.ADJ_PENALTY + marjj.RANK_PENALTY


def test_marjj_knowledge_from_the_state() -> None:
    """seen: its cards ever, every opponent discard, every card it was offered; opponent cards:
    every card the opponent took, held or thrown again."""
    bot = MarjjV5Player(0)
    s = g.new_game(EAAI, seed=9)
    greedy = GreedyBot(1, first_upcard="take")
    me = 1 - s.dealer  # the port decides on the first upcard first
    upcard = s.upcard
    while s.phase not in (g.Phase.HAND_OVER, g.Phase.GAME_OVER) and s.turns < 8:
        if s.to_play == me:
            know = bot.knowledge(s)
            assert know.seen & gu.to_java(s.hands[me] | s.thrown[1 - me]) == gu.to_java(s.hands[me] | s.thrown[1 - me])
            if s.phase is not g.Phase.FIRST_UPCARD:  # offered: seen from then on
                assert know.seen >> gu.java_id(upcard) & 1
            assert know.opponent_cards & gu.to_java(s.picked_up[1 - me]) == gu.to_java(s.picked_up[1 - me])
            s = g.apply(s, bot.act(s))
        else:
            s = g.apply(s, greedy.act(s))
    # the opponent took the first upcard before this seat was offered it: not seen, but known taken
    bot = MarjjV5Player(0)
    s = g.new_game(EAAI, seed=9)
    s = g.apply(s, g.TAKE_UPCARD)
    took = s.taken
    s = g.apply(s, next(a for a in g.legal_actions(s) if a.kind is g.Kind.DISCARD))
    know = bot.knowledge(s)
    assert not know.seen >> gu.java_id(took) & 1 and know.opponent_cards >> gu.java_id(took) & 1


# -- agreement with the recorded Java players -------------------------------------------------


def _load(name: str) -> dict:
    path = DATA / name
    if not path.exists():
        pytest.skip(f"{path} not recorded (benchmarks/eaai/record_java.py)")
    return json.loads(path.read_text())


def _mask(text: str) -> int:
    return to_mask(text) if text.strip() else 0


def test_ports_decide_as_the_recorded_java_players() -> None:
    data = _load("decisions.json")
    checked = {}
    for p in data["positions"]:
        hand = _mask(p["hand"])
        kind = (p["player"], p["decision"])
        if p["player"] == "marjj" and p["decision"] != "knock":
            know = Knowledge(seen=gu.to_java(_mask(p["seen"])), opponent_cards=gu.to_java(_mask(p["opponent_cards"])))
        if kind == ("simple", "draw"):
            got, want = simple.will_draw_face_up(hand, C(p["card"])), p["take"]
        elif kind == ("simple", "discard"):
            taken = C(p["face_up"]) if p["face_up"] == p["drawn"] else None
            played = {_mask(pair) for pair in p["played"]}
            got = {str(c) for c in simple.discard_candidates(hand, taken, C(p["drawn"]), played)}
            want = set(p["ties"].split())
        elif kind == ("simple", "knock"):
            got, want = simple.knocks(hand), p["knock"]
        elif kind == ("marjj", "draw"):
            got, want = marjj.will_draw_face_up(hand, C(p["card"]), know), p["take"]
        elif kind == ("marjj", "discard"):
            face_up = C(p["face_up"]) if p["face_up"] != "null" else None
            order = [C(t) for t in p["hand"].split()]  # the Java hand list decides between gin discards
            got = {str(c) for c in marjj.discard_choices(hand, face_up, know, p["turns"] + 1, order)}
            want = set(p["ties"].split())
        else:
            got, want = marjj.knocks(hand, p["turns"]), p["knock"]
        assert got == want, p
        if p["decision"] == "discard":
            assert p["discard"] in want
        checked[kind] = checked.get(kind, 0) + 1
    assert len(checked) == 6 and min(checked.values()) >= 100, checked


def _java_hand_state(h: dict) -> g.State:
    hands = [_mask(t) for t in h["dealt"]]
    upcard = C(h["upcard"])
    stock_draws = [C(e[2]) for e in h["events"] if e[0] == "draw" and e[3] == "stock"]
    used = hands[0] | hands[1] | upcard.bit
    for c in stock_draws:
        used |= c.bit
    rest = [c for c in DECK if not used & c.bit]
    stock = tuple(rest) + tuple(reversed(stock_draws))
    assert len(stock) == 31
    start = h["starting"]
    return g.State(rules=EAAI, seed=0, phase=g.Phase.FIRST_UPCARD, dealer=1 - start, to_play=start,
                   hands=(hands[0], hands[1]), stock=stock, discards=(upcard,))


def _java_actions(h: dict) -> list[tuple[int, g.Action]]:
    """The recorded hand as rummylab actions: (seat, action)."""
    out: list[tuple[int, g.Action]] = []
    events = h["events"]
    first_turn = True
    for i, e in enumerate(events):
        if e[0] == "offer":
            seat, took = e[1], e[3]
            if first_turn and e[2] == h["upcard"] and not any(x[0] == "discard" for x in events[:i]):
                out.append((seat, g.TAKE_UPCARD if took else g.PASS))
            else:
                out.append((seat, g.DRAW_DISCARD if took else g.DRAW_STOCK))
        elif e[0] == "draw":
            declined = i > 0 and events[i - 1][0] == "offer" and not events[i - 1][3] and events[i - 1][1] == e[1]
            auto = e[3] == "stock" and not declined
            if auto:  # both passed the first upcard: the first player draws face down
                out.append((e[1], g.DRAW_STOCK))
        elif e[0] == "discard":
            first_turn = False
            knock = i + 1 < len(events) and events[i + 1][0] == "knock"
            out.append((e[1], g.Action(g.Kind.KNOCK if knock else g.Kind.DISCARD, C(e[2]))))
    return out


def test_ports_follow_recorded_java_hands_on_the_engine() -> None:
    """Each recorded hand replayed on rummylab's engine: every Java action is legal there, and is
    one of the port's options at that seat (the port rebuilding its view from the state)."""
    data = _load("hands.json")
    ports = {"simple": SimpleGinRummyPlayer, "marjj": MarjjV5Player}
    decisions = 0
    for h in data["hands"]:
        s = _java_hand_state(h)
        bots = [ports[name](0) for name in h["players"]]
        for seat, action in _java_actions(h):
            assert s.to_play == seat, (h["match"], h["game"], h["hand_no"], action)
            assert action in g.legal_actions(s)
            assert action in bots[seat].options(s), (h["match"], h["game"], h["hand_no"], seat, action)
            s = g.apply(s, action)
            decisions += 1
        assert s.phase in (g.Phase.HAND_OVER, g.Phase.GAME_OVER)
        assert (s.records[-1].kind != "dead") == h["knocked"]
    assert decisions > 1000


def test_recorded_hands_cover_the_first_turn_cases() -> None:
    data = _load("hands.json")
    firsts = set()
    for h in data["hands"]:
        acts = [a for _, a in _java_actions(h)[:3]]
        firsts.add(tuple(a.kind.value for a in acts[:2]))
    assert ("take_upcard", "discard") in firsts and ("pass", "pass") in firsts and ("pass", "take_upcard") in firsts
