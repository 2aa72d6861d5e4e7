"""The expert gin bot: it sees only its seat's view, its advice picks the known best move and says
why, and bad arguments are refused by name. (The compiled loop plays its games: test_simulation.py.)"""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest
from conftest import soak

from rummylab import play
from rummylab.cards import BIT_CARD, bits_of, parse_cards, to_mask
from rummylab.gin import CLASSIC, DEFAULT, THREE_HANDED, expert
from rummylab.gin import bots as gin_bots
from rummylab.gin import game as gin
from rummylab.gin.analysis import gin_kernel
from rummylab.gin.expert import ExpertBot, knock_value, view, weights
from rummylab.gin.scoring import score_masks


def _states(n_games: int, seed: int) -> list[gin.State]:
    """The decisions of a few strong-vs-greedy games: every state a player acts in."""
    out = []
    players = [gin_bots.make_bot("strong"), gin_bots.make_bot("greedy")]
    for g in range(n_games):
        s = gin.new_game(dataclasses.replace(DEFAULT, target=1), seed + g)
        while s.phase in (gin.Phase.FIRST_UPCARD, gin.Phase.DRAW, gin.Phase.DISCARD):
            out.append(s)
            s = gin.apply(s, players[s.to_play].act(s))
    return out


def test_the_expert_sees_only_its_seat() -> None:
    """Shuffle what the player cannot see (the opponent's unknown cards and the stock) and the
    expert decides the same, its samples included."""
    rng = np.random.default_rng(5)
    states = _states(soak(6), 40)
    assert len(states) > 100
    for s in states:
        them = 1 - s.to_play
        known = s.picked_up[them]
        hidden = [BIT_CARD[b] for b in bits_of(s.hands[them] & ~known)] + list(s.stock)
        rng.shuffle(hidden)  # type: ignore[arg-type]
        n = (s.hands[them] & ~known).bit_count()
        hand = known | to_mask(hidden[:n])
        other = play.evolve(s, hands=(hand, s.hands[1]) if them == 0 else (s.hands[0], hand), stock=tuple(hidden[n:]))
        assert ExpertBot(3).act(other) == ExpertBot(3).act(s)


def _position(hand: str, *, picked: str = "", thrown: str = "", top: str = "KS", stock: int = 20,
              phase: gin.Phase = gin.Phase.DISCARD) -> gin.State:
    """Player 0 to act with ``hand``; the opponent holds what they picked up and other cards."""
    mine = to_mask(parse_cards(hand))
    shown = to_mask(parse_cards(picked)) if picked else 0
    pile = parse_cards(f"{thrown} {top}".strip())
    rest = [c for c in gin.DECK if not c.bit & (mine | shown | to_mask(pile))]
    theirs = shown | to_mask(rest[:10 - shown.bit_count()])
    return gin.State(rules=DEFAULT, seed=0, phase=phase, dealer=1, to_play=0, hands=(mine, theirs),
                     stock=tuple(rest[10 - shown.bit_count():][:stock]), discards=pile,
                     picked_up=(0, shown), thrown=(0, to_mask(parse_cards(thrown)) if thrown else 0))


def test_advice_goes_gin_rather_than_knock() -> None:
    """Throwing K♦ is gin; throwing A♠ would knock with 10."""
    s = _position("AS 2S 3S 4S 4H 5H 6H 9C 9D 9H KD")
    advice = gin_bots.advise(s)
    assert advice.choice == gin.Action("knock", parse_cards("KD")[0])
    assert advice.options[0].reason.startswith("gin: throw K♦") and advice.options[0].unit == "points"


def test_advice_holds_the_card_the_opponent_is_collecting() -> None:
    """The opponent picked up 8♥ and 9♥: T♥ would feed their run. Four cards leave the same
    deadwood; the expert keeps T♥ and says why it is risky."""
    s = _position("2C 3C 4C 5C 6S 6D 6H TH JS QD KS", picked="8H 9H")
    advice = gin_bots.advise(s, top=5)
    assert advice.choice.kind is gin.Kind.DISCARD and advice.choice.card != parse_cards("TH")[0]
    reasons = {str(o.action.card): o.reason for o in advice.options}
    assert reasons["TH"] == "T♥ is risky: the opponent picked up 8♥ 9♥ (deadwood 30, about 16.4 after a good next draw)"
    assert [str(o.action.card) for o in advice.options].index("TH") == 1  # below Q♦: as much deadwood, no risk


def test_the_expert_declines_a_knock_the_opponent_undercuts() -> None:
    """The opponent showed three whole melds: one unknown card left, a knock with 5 is undercut in
    half the sampled hands. Greedy knocks; the expert plays on, and its advice says why."""
    s = _position("AS 2S 3S 4D 5D 6D 7H 8H 9H 5C KC", picked="TC JC QC 7S 7D 7C 2H 3H 4H")
    v = view(s)
    ev, undercuts = knock_value(v, v.hand & ~parse_cards("KC")[0].bit, weights(v), s.rules,
                                np.random.default_rng(0))
    assert undercuts >= 4 and ev < 0
    assert ExpertBot(0).act(s) == gin.Action("discard", parse_cards("KC")[0])
    assert gin_bots.make_bot("greedy").act(s) == gin.Action("knock", parse_cards("KC")[0])
    knock = next(o for o in gin_bots.advise(s).options if o.action.kind is gin.Kind.KNOCK)
    assert knock.estimate < 0 and "undercuts" in knock.reason


def test_the_knock_margin_follows_the_undercut_bonus() -> None:
    """Playing on is worth the undercuts an opponent knocks into: under the default rules (undercut
    25) a knock must win more than 14 points a hand, under the classic rules (undercut 10) anything.
    A knock worth about 8 points a hand is declined under the one and made under the other."""
    assert expert.knock_margin(DEFAULT) == expert.KNOCK_MARGIN == 14
    assert expert.knock_margin(CLASSIC) == expert.knock_margin(THREE_HANDED) == 0
    assert expert.knock_margin(dataclasses.replace(DEFAULT, undercut_bonus=40)) == 28
    s = _position("AS 2S 3S 4D 5D 6D 7H 8H 9H 5C KC", picked="TS JS QS")
    kc = parse_cards("KC")[0]
    for rules in (DEFAULT, CLASSIC):
        v = view(s)
        ev, _ = knock_value(v, v.hand & ~kc.bit, weights(v), rules, np.random.default_rng(0))
        assert 0 < ev < expert.KNOCK_MARGIN
    assert ExpertBot(0).act(s) == gin.Action("discard", kc)
    assert ExpertBot(0).act(dataclasses.replace(s, rules=CLASSIC)) == gin.Action("knock", kc)


def test_advice_reads_as_sentences() -> None:
    for s in _states(2, 7)[:40]:
        advice = gin_bots.advise(s, top=3)
        assert advice.options[0].action == advice.choice == ExpertBot(0).act(s)
        assert 1 <= len(advice.options) <= 3 and all(o.reason and o.unit in ("deadwood", "points")
                                                    for o in advice.options)
        assert str(advice) and "<ol" in advice._repr_html_()


@pytest.mark.parametrize(("args", "message"), [
    ((None,), "advise takes a two-handed gin state"),
    (("AS 2S",), "advise takes a two-handed gin state"),
])
def test_advise_refuses_what_is_not_a_gin_state(args: tuple, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        gin_bots.advise(*args)


def test_advise_refuses_bad_options_and_finished_hands() -> None:
    s = gin.new_game(DEFAULT, 1)
    for top in (0, -1, 2.5, True):
        with pytest.raises(ValueError, match=f"top={top!r}"):
            gin_bots.advise(s, top=top)  # type: ignore[arg-type]
    over = play.evolve(s, phase=gin.Phase.HAND_OVER)
    with pytest.raises(ValueError, match="the hand is over"):
        gin_bots.advise(over)


def test_a_knock_lays_down_the_least_deadwood_and_values_kept_hands() -> None:
    """The knock's card is the first ranked discard among those leaving the least deadwood (the
    look-ahead and the danger end with the hand), and a knock is valued over the sampled hands of
    least deadwood: the opponent kept what melds."""
    ranked = [expert.Discard(1 << 3, 9, 20.0, 0.0, 29.0), expert.Discard(1 << 5, 7, 30.0, 1.0, 38.5),
              expert.Discard(1 << 7, 7, 31.0, 0.0, 38.0)]
    assert expert.knock_card(ranked) is ranked[1]
    s = _position("AS 2S 3S 4D 5D 6D 7H 8H 9H 5C KC", picked="")
    v = view(s)
    w = weights(v)
    drawn = expert.sample_hands(v, w, np.random.default_rng(4), expert.SAMPLES * expert.OVERSAMPLE)
    kept = sorted(drawn, key=gin_kernel().deadwood)[:expert.SAMPLES]
    assert max(map(gin_kernel().deadwood, kept)) <= sorted(map(gin_kernel().deadwood, drawn))[expert.SAMPLES - 1]
    left = v.hand & ~parse_cards("KC")[0].bit
    nets = expert.knock_nets(v, left, w, s.rules, np.random.default_rng(4))
    assert nets == [score_masks(left, o, s.rules).knocker_points - score_masks(left, o, s.rules).defender_points
                    for o in kept]


def test_the_expert_reads_whether_its_opponent_plays_for_gin() -> None:
    """Until the opponent has knocked with deadwood left (after a hand's first turns) more often than
    it passed up a knock (its own gin, or a hand ended while it held 10 or less before layoffs),
    the expert races it to gin (``AGAINST_GIN``: the deadwood after a good draw weighs most);
    against a knocker it weighs the average draw and what it feeds (``AGAINST_KNOCKER``), and says
    which it weighed."""
    s = _position("2C 3C 4C 5C 6S 6D 6H TH JS QD KS", picked="8H 9H")
    me, them = s.to_play, 1 - s.to_play
    knock = gin.HandRecord(kind="knock", winner=them, points=12, knocker=them, turns=9,
                           deadwoods=(20, 8) if them else (8, 20))
    passed = gin.HandRecord(kind="gin", winner=me, points=31, knocker=me, turns=15,
                            deadwoods=(0, 6) if them else (6, 0))
    knocker = dataclasses.replace(s, records=(knock,))
    assert expert.style(s) is expert.AGAINST_GIN and expert.plays_for_gin(s, them)  # nothing seen yet
    assert expert.shown(knocker, them) == (1, 0) and expert.style(knocker) is expert.AGAINST_KNOCKER
    assert expert.style(dataclasses.replace(s, records=(knock, passed))) is expert.AGAINST_GIN
    assert expert.shown(dataclasses.replace(s, records=(knock, passed)), them) == (1, 1)
    early = dataclasses.replace(knock, turns=expert.EARLY_TURNS)  # a knock with a good deal: no knocker shown
    assert expert.shown(dataclasses.replace(s, records=(early,)), them) == (0, 0)
    first = dataclasses.replace(passed, turns=1)  # a gin before the opponent discarded: it passed nothing
    assert expert.shown(dataclasses.replace(s, records=(first,)), them) == (0, 0)
    # its own gin, after a hand's first turns: one who knocks as soon as it may seldom gets there
    theirs = dataclasses.replace(passed, winner=them, knocker=them, deadwoods=(6, 0) if them else (0, 6))
    assert expert.shown(dataclasses.replace(s, records=(theirs,)), them) == (0, 1)
    assert expert.shown(dataclasses.replace(s, records=(dataclasses.replace(theirs, turns=expert.EARLY_TURNS),)),
                        them) == (0, 0)
    # our knock: the hand the opponent held, before its layoffs, within the knock limit is a knock passed up
    knocker_hand = to_mask(parse_cards("3C 4C 5C 7H 8H 9H KS KD KH 2D"))
    for held, after, passes in (("2S 3S 4S 9S 9D 9C 6C AD AH 2H", 4, 1), ("2S 3S 4S 9S 9D 9C 6C 5D AH 2H", 8, 0)):
        res = score_masks(knocker_hand, to_mask(parse_cards(held)), s.rules)
        assert [str(c) for c in res.layoffs] == ["6C"] and res.defender_deadwood == after
        ours = gin.HandRecord(kind=str(res.kind), winner=me, points=res.knocker_points, knocker=me, turns=12,
                              deadwoods=(2, after) if them else (after, 2), score=res)
        assert expert.held_deadwood(ours, them) == after + 6
        assert expert.shown(dataclasses.replace(s, records=(ours,)), them) == (0, passes)
    reasons = {str(o.action.card): o.reason for o in gin_bots.advise(knocker, top=5).options}
    assert reasons["TH"] == "T♥ is risky: the opponent picked up 8♥ 9♥ (deadwood 30, about 25.5 after the next draw)"
    from rummylab.gin.rollout_bot import read_opponent  # the rollout bot reads it the same way
    assert read_opponent(dataclasses.replace(s, records=(passed,)), "greedy") == "greedy@0"
    assert read_opponent(knocker, "greedy") == "greedy"


def test_a_learned_key_is_its_weights_over_the_features() -> None:
    """A learned key with the classic key's weights (deadwood 1, the style's look-ahead, danger)
    ranks every discard with the same keys; the features are what the expert sees (deadwood,
    draws counted by the kernel); a learned key of the wrong length is refused."""
    k = gin_kernel()
    for seed in range(12):
        s = gin.new_game(DEFAULT, seed)
        bots = (ExpertBot(seed), ExpertBot(seed + 1))
        while s.phase is not gin.Phase.DISCARD or s.turns < 2 * (seed % 6):
            s = gin.apply(s, bots[s.to_play].act(s))
        v = view(s)
        hold = expert.holding(v, weights(v))
        for style in (expert.AGAINST_GIN, expert.AGAINST_KNOCKER):
            if style.learned:
                continue
            ahead = 2 if style.good_draws else 1
            same = dataclasses.replace(style, learned=tuple(
                1.0 if i == 0 else style.look_ahead if i == ahead else style.danger if i == 3 else 0.0
                for i in range(len(expert.DISCARD_FEATURES))))
            assert [(d.card, d.key) for d in expert.discards(v, hold, style)] == [
                (d.card, d.key) for d in expert.discards(v, hold, same)]
        features = expert.discard_features(v, hold, 5, s.rules.knock_limit)
        for b, f in features.items():
            draws = sorted(k.discard_deadwood((v.hand & ~b) | u) for u in hold)
            assert f[0] == k.deadwood(v.hand & ~b) and f[2] == sum(draws[:5]) / 5
            assert f[5:] == (draws.count(0), sum(d <= 10 for d in draws), sum(d < f[0] for d in draws))
    with pytest.raises(ValueError, match="a weight for each of 8 features"):
        dataclasses.replace(expert.AGAINST_GIN, learned=(1.0, 2.0))
