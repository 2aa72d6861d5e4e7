"""The expert gin bot: it plays from its seat's view only, models the opponent's hand from what
they took, threw and left, reads from the game's hands whether the opponent plays for gin (and
then races it to meld), and samples the opponent's hands to value a knock; ``advise`` says what it
would do and why, in sentences a student can follow.

The constants below are the expert's one definition: the compiled loop (ext/_play_gin_expert.pxi)
is handed them (``constants``) and computes every number in the same order, so both make the
same decisions (tests/test_simulation.py).
"""

from __future__ import annotations

import functools
from collections.abc import Iterator
from dataclasses import astuple, dataclass
from typing import TYPE_CHECKING

import numpy as np

from ..cards import BIT_CARD, FULL_DECK, SeedLike, bits_of, rng_from
from ..hidden import HOLD_WEIGHT, hold_weight
from .analysis import gin_kernel
from .game import BIG_GIN, DRAW_DISCARD, DRAW_STOCK, NEXT_GAME, NEXT_HAND, PASS, TAKE_UPCARD, Action, Kind, Phase, State
from .rules import Rules
from .scoring import score_masks

if TYPE_CHECKING:
    from .game import HandRecord

BASE_WEIGHT = HOLD_WEIGHT
"""An unseen card's weight before the evidence (``hidden.HOLD_WEIGHT``; see ``weights``)."""
SAMPLES = 12
"""Opponent hands sampled to value a knock."""


EVERY_DRAW = 52
"""A style's ``ahead_best`` that averages over every card that may come (as many as a deck holds)."""


DISCARD_FEATURES = ("deadwood", "ahead, every draw", "ahead, the best draws", "danger", "card value",
                    "draws to gin", "draws to a knock", "draws that lower the deadwood")
"""What the expert sees of a discard (``discard_features``): the deadwood it leaves; the deadwood
after the next draw (and the best discard), the mean over every unseen card and over the style's
``ahead_best`` draws that leave the least; how likely the opponent can meld the card (``feeds``);
its value; and how many unseen cards, drawn next, leave gin, a knock, or less deadwood than now."""


@dataclass(frozen=True, kw_only=True)
class Style:
    """How the expert weighs a discard and the top discard, against one kind of opponent: a
    discard's key is (deadwood now + ``look_ahead`` x the deadwood after the next draw) +
    ``danger`` x the chance the opponent can meld the card (``feeds``), the next draw's deadwood
    the mean over the ``ahead_best`` draws that leave the least (EVERY_DRAW: over every card), or,
    ``learned``, weights over DISCARD_FEATURES; the top discard is taken when it leaves less
    deadwood than a stock draw is expected to, by ``take_margin``."""

    look_ahead: float
    ahead_best: int
    danger: float
    take_margin: float
    learned: tuple[float, ...] = ()
    """The key's weights over DISCARD_FEATURES, summed in their order (empty: the key above),
    learned from the rollouts' values (benchmarks/learn_discards.py)."""

    def __post_init__(self) -> None:
        if self.learned and len(self.learned) != len(DISCARD_FEATURES):
            raise ValueError(f"learned={self.learned!r}: a weight for each of {len(DISCARD_FEATURES)} features")

    @property
    def good_draws(self) -> bool:
        """The look-ahead is over the best draws only, not every card (a learned key weighs both:
        it is said as over every card)."""
        return self.ahead_best < EVERY_DRAW and not self.learned


AGAINST_KNOCKER = Style(look_ahead=1.0, ahead_best=5, danger=1.5, take_margin=1.5,
                        learned=(0.928, 1.823, 1.426, 5.575, 1.766, -0.075, -1.729, 0.791))
"""Against an opponent who knocks as soon as it may (the strong bot, the EAAI simple player): the
discard key learned from the rollouts (benchmarks/learn_discards.py: the weights that lose the
fewest points over 3,440 of the expert's discards valued by the rollout bot's rollouts, which
picture such an opponent well): the deadwood after an average draw and after a good one (the five
best), much care for what it feeds, and the draws to a knock a discard leaves. Over 2,000
mirrored pairs it wins 1.6 ± 1.3 points of games more against the EAAI simple player than the
key chosen by play against the strong bot (deadwood + the deadwood after an average draw + 1.5 x
danger), and the same games against MARJJ v5 (read as playing for gin: benchmarks/README.md).
The take margin is that key's."""
AGAINST_GIN = Style(look_ahead=10.0, ahead_best=5, danger=4.0, take_margin=0.0)
"""Against an opponent who plays for gin (MARJJ v5, the EAAI 2021 winner): a race to meld, so the
deadwood after a good draw (the five best, as MARJJ weighs its own discards) weighs ten times,
feeding it less than that, and a discard that helps is taken (chosen by play against MARJJ v5:
benchmarks/README.md)."""
KNOCK_MARGIN = 14.0
"""Under an undercut bonus of 25: a knock is made when the sampled opponent hands give it more
than this many points a hand (what playing on for gin or an undercut is worth; ``knock_margin``)."""


OVERSAMPLE = 6
"""A knock is valued over the SAMPLES sampled opponent hands of least deadwood among SAMPLES x
OVERSAMPLE drawn: the opponent kept the cards that meld."""


def knock_margin(rules: Rules) -> float:
    """What playing on is worth under ``rules``, in points a hand: it comes from the undercuts an
    opponent knocks into, so it follows the undercut bonus: KNOCK_MARGIN at 25, nothing at 10 or
    less (where a knock that wins anything beats waiting), in proportion between and above
    (measured against the strong bot: benchmarks/README.md)."""
    return KNOCK_MARGIN * max(0, rules.undercut_bonus - 10) / 15


EARLY_TURNS = 8
"""A knock within a hand's first EARLY_TURNS turns (both players' discards) does not show a
knocker: one who plays for gin knocks that early too, with a good deal (MARJJ v5 knocks in its
first three turns). Counting them lost a point of games against MARJJ v5 (benchmarks/README.md)."""


GIN_PRIOR = 1
"""The passes the expert's read counts before any is seen (``plays_for_gin``): one, so an opponent
of whom nothing is known yet is read as playing for gin. Against MARJJ v5 the expert wins 51.0 % of
games so and 46–47 % reading it as a knocker (no pass counted); against the EAAI simple player,
which knocks as soon as it may, 73.3 % and 73.6 % (2,000 mirrored pairs each,
benchmarks/README.md)."""


StyleTuple = tuple[float, int, float, float, tuple[float, ...]]


def constants(rules: Rules) -> tuple[int, int, float, int, StyleTuple, StyleTuple, int, int]:
    """(BASE_WEIGHT, SAMPLES, knock_margin(rules), OVERSAMPLE, AGAINST_KNOCKER, AGAINST_GIN,
    EARLY_TURNS, GIN_PRIOR), the styles as tuples (look_ahead, ahead_best, danger, take_margin,
    learned), as the compiled loop takes them."""
    return (BASE_WEIGHT, SAMPLES, knock_margin(rules), OVERSAMPLE, astuple(AGAINST_KNOCKER), astuple(AGAINST_GIN),
            EARLY_TURNS, GIN_PRIOR)


def shown(state: State, seat: int) -> tuple[int, int]:
    """(knocks, passes) of ``seat`` in the hands of this game already played. A knock: one made
    with deadwood left after the hand's first EARLY_TURNS turns. A pass: its own gin after those
    turns (one who knocks as soon as it may seldom gets there: the EAAI simple player ends 3 % of
    the hands it ends by gin, MARJJ v5 most), or a hand ended, once ``seat`` had discarded, with
    the hand it held (before any layoffs) within the knock limit (after its last discard, one who
    knocks at once would have knocked)."""
    passes = knocks = 0
    for r in state.records:
        if r.knocker == seat and r.kind in ("knock", "undercut", "tie"):
            knocks += r.turns > EARLY_TURNS
        elif r.knocker == seat:  # its gin
            passes += r.turns > EARLY_TURNS
        elif r.turns > 1 and (r.kind == "dead" or r.knocker == 1 - seat):
            passes += held_deadwood(r, seat) <= state.rules.knock_limit
    return knocks, passes


def held_deadwood(record: HandRecord, seat: int) -> int:
    """The deadwood of the hand ``seat`` held as ``record``'s hand ended, before any layoffs."""
    res = record.score
    if record.knocker != 1 - seat or res is None or not res.layoffs:
        return record.deadwoods[seat]
    return int(gin_kernel().deadwood(res.defender_kept | sum(c.bit for c in res.layoffs)))


def plays_for_gin(state: State, seat: int, prior: int = GIN_PRIOR) -> bool:
    """Whether ``seat`` is read as playing for gin: it has knocked with deadwood left (after a
    hand's first turns) less often than it passed up a knock this game (``shown``), ``prior`` passes
    counted before any is seen (GIN_PRIOR: one, so until it has knocked more often)."""
    knocks, passes = shown(state, seat)
    return knocks < passes + prior


def style(state: State, prior: int = GIN_PRIOR) -> Style:
    """The expert's style for the player to act: AGAINST_GIN while the opponent plays for gin
    (``plays_for_gin`` with ``prior``), else AGAINST_KNOCKER."""
    return AGAINST_GIN if plays_for_gin(state, 1 - state.to_play, prior) else AGAINST_KNOCKER


def _related(a: int, b: int) -> float:
    ra, rb = (a.bit_length() - 1) & 15, (b.bit_length() - 1) & 15
    if a == b:
        return 0.0
    if ra == rb:
        return 1.0
    if (a.bit_length() - 1) >> 4 != (b.bit_length() - 1) >> 4:
        return 0.0
    gap = abs(ra - rb)
    return 1.0 if gap == 1 else 0.5 if gap == 2 else 0.0


_RELATED: dict[int, dict[int, float]] = {a: {b: r for b in bits_of(FULL_DECK) if (r := _related(a, b))}
                                         for a in bits_of(FULL_DECK)}
"""Per card, the cards it melds with and how much (in ascending bit order)."""


def related(a: int, b: int) -> float:
    """How much card ``a`` helps a meld with card ``b`` (bits): 1 for the same rank or a neighbour
    in the suit, 0.5 two apart in the suit, else 0."""
    return _RELATED.get(a, {}).get(b, 0.0)


@dataclass(frozen=True, kw_only=True)
class View:
    """What the player to act may see: their hand, the pile, and what the opponent showed."""

    hand: int
    pile: int
    """Every card in the discard pile."""
    top: int
    """The top discard (0: none)."""
    picked: int
    """Cards the opponent took from the pile and still holds."""
    thrown: int
    """Cards the opponent discarded this hand."""
    declined: int
    """Upcards the opponent left."""
    taken: int
    """The card this player took from the pile this turn (0: none)."""

    @property
    def unseen(self) -> int:
        return FULL_DECK & ~(self.hand | self.pile | self.picked)

    @property
    def hidden(self) -> int:
        """How many of the opponent's 10 cards are unknown."""
        return 10 - self.picked.bit_count()


def view(state: State) -> View:
    """The view of the player to act."""
    me, them = state.to_play, 1 - state.to_play
    pile = 0
    for c in state.discards:
        pile |= c.bit
    return View(hand=state.hands[me], pile=pile, top=state.discards[-1].bit if state.discards else 0,
                picked=state.picked_up[them], thrown=state.thrown[them], declined=state.declined[them],
                taken=state.taken.bit if state.taken else 0)


def weights(v: View) -> dict[int, int]:
    """Each unseen card's weight of being in the opponent's hand (``hidden.hold_weight``): BASE_WEIGHT,
    doubled for each card they picked up that it melds with, halved for each they threw, cut by a
    quarter for each they left (same rank or a neighbour in the suit, two apart included)."""
    out = {}
    picked, thrown, declined = bits_of(v.picked), bits_of(v.thrown), bits_of(v.declined)
    for u in bits_of(v.unseen):
        near = _RELATED[u]
        a = b = c = 0
        for x in picked:
            a += x in near
        for t in thrown:
            b += t in near
        for y in declined:
            c += y in near
        out[u] = _weight(a, b, c, BASE_WEIGHT) if a or b or c else BASE_WEIGHT
    return out


_weight = functools.lru_cache(maxsize=1024)(hold_weight)
"""``hold_weight``, remembered: the expert asks it for every unseen card at every decision."""


def holding(v: View, w: dict[int, int]) -> dict[int, float]:
    """The chance the opponent holds each unseen card: their unknown cards shared by weight."""
    total = sum(w.values())
    return {u: min(1.0, v.hidden * x / total) for u, x in w.items()} if total else {}


def feeds(card: int, hold: dict[int, float], picked: int) -> float:
    """How likely the opponent can meld ``card``: over the cards it melds with, the chance they
    hold each (the unseen ones by ``hold``, then the ones they picked up: surely held)."""
    total = 0.0  # added one by one in bit order, as the loop adds (sum() of floats compensates from 3.12)
    for u, r in _RELATED[card].items():
        if u in hold:
            total += r * hold[u]
    for x in bits_of(picked):
        total += related(card, x)
    return total


def stock_deadwood(hand: int, hold: dict[int, float]) -> float:
    """The deadwood expected after drawing from the stock and discarding the best card: over the
    unseen cards, each by its chance of being in the stock rather than the opponent's hand."""
    k = gin_kernel()
    num = den = 0.0
    for u, p in hold.items():
        num += (1.0 - p) * k.discard_deadwood(hand | u)
        den += 1.0 - p
    return num / den if den > 0 else float(k.deadwood(hand))


@dataclass(frozen=True)
class Discard:
    """One candidate discard, as the expert values it."""

    card: int
    deadwood: int
    ahead: float
    """The deadwood after the next draw (the style's mean: ``Style``)."""
    danger: float
    """``feeds``: how likely the opponent can use it."""
    key: float
    """The style's key: least first."""


def pickup_cap(hand: int, taken: int) -> int:
    """The deadwood a discard must leave the hand below: a card taken from the pile must pay for
    itself (the hand ends below its deadwood before the take, so two bots can never trade
    discards back and forth for ever), unless no discard could (a card the player did not choose
    to take: a hint, say). No card taken: no cap."""
    k = gin_kernel()
    cap = k.deadwood(hand & ~taken) if taken else 1 << 30
    if not any(k.deadwood(hand & ~b) < cap for b in bits_of(hand & ~taken)):
        return 1 << 30
    return int(cap)


def discards(v: View, hold: dict[int, float], style: Style, knock_limit: int = 10) -> list[Discard]:
    """Every card the player may discard, best first (the style's key, then deadwood, then the
    higher card); ``knock_limit``: the rules' (a learned key counts the draws to a knock)."""
    out = []
    if style.learned:
        for b, f in discard_features(v, hold, style.ahead_best, knock_limit).items():
            key = 0.0
            for w, x in zip(style.learned, f, strict=True):  # in order, as the loop sums
                key += w * x
            out.append(Discard(b, int(f[0]), f[1], f[3], key))
    else:
        for b, dw, ahead in candidates(v.hand, v.taken, list(hold), style.ahead_best):
            danger = feeds(b, hold, v.picked)
            out.append(Discard(b, dw, ahead, danger, (dw + style.look_ahead * ahead) + style.danger * danger))
    return sorted(out, key=lambda d: (d.key, d.deadwood, -_value(d.card)))


def discard_features(v: View, hold: dict[int, float], ahead_best: int,
                     knock_limit: int) -> dict[int, tuple[float, ...]]:
    """DISCARD_FEATURES of each card the player may discard (``pickup_cap``), in bit order."""
    k = gin_kernel()
    out: dict[int, tuple[float, ...]] = {}
    for b, dw, _ in candidates(v.hand, v.taken, [], None):
        left = v.hand & ~b
        draws = [k.discard_deadwood(left | u) for u in hold]
        best = sorted(draws)[:ahead_best]
        out[b] = (float(dw), sum(draws) / max(len(draws), 1), sum(best) / max(len(best), 1),
                  feeds(b, hold, v.picked), float(_value(b)), float(draws.count(0)),
                  float(sum(1 for d in draws if d <= knock_limit)), float(sum(1 for d in draws if d < dw)))
    return out


def candidates(hand: int, taken: int, unseen: list[int], best: int | None = None) -> Iterator[tuple[int, int, float]]:
    """(card, deadwood after it, the deadwood after the next draw: the mean over the ``unseen``
    cards, or over the ``best`` draws that leave the least) for each card the player may discard
    (``pickup_cap``), in bit order."""
    k = gin_kernel()
    cap = pickup_cap(hand, taken)
    for b in bits_of(hand & ~taken):
        left = hand & ~b
        dw = k.deadwood(left)
        if dw < cap:
            after = [k.discard_deadwood(left | u) for u in unseen]
            if best is not None and best < len(after):
                after = sorted(after)[:best]
            yield b, dw, sum(after) / max(len(after), 1)


def _value(bit: int) -> int:
    return min(((bit.bit_length() - 1) & 15) + 1, 10)


def sample_hands(v: View, w: dict[int, int], rng: np.random.Generator, n: int | None = None) -> list[int]:
    """``n`` (SAMPLES) opponent hands: the cards they picked up and unseen cards drawn by weight,
    without replacement. One ``rng.random`` call gives every uniform, hand by hand; a draw takes
    the first card left (in bit order) whose running weight is above uniform x the weight left
    (the last card left if rounding puts it above them all). The hands draw side by side."""
    count = SAMPLES if n is None else n
    draws = min(v.hidden, len(w))
    if not draws:
        return [v.picked] * count
    cards = np.array(list(w), dtype=np.uint64)
    weights_ = np.tile(np.array(list(w.values()), dtype=np.int64), (count, 1))
    uniforms = rng.random(count * draws).reshape(count, draws)
    rows = np.arange(count)
    hands = np.full(count, v.picked, dtype=np.uint64)
    for d in range(draws):
        running = np.cumsum(weights_, axis=1)
        above = running > (uniforms[:, d] * running[:, -1])[:, None]
        i = np.argmax(above, axis=1)
        if not above[rows, i].all():  # rounding put a uniform above every card: the last card left
            last = weights_.shape[1] - 1 - np.argmax(weights_[:, ::-1] > 0, axis=1)
            i = np.where(above[rows, i], i, last)
        hands |= cards[i]
        weights_[rows, i] = 0
    return [int(h) for h in hands]


def kept_hands(v: View, w: dict[int, int], rng: np.random.Generator) -> list[tuple[int, int]]:
    """(hand, deadwood) of the SAMPLES sampled opponent hands of least deadwood (the first drawn
    among equals) of SAMPLES x OVERSAMPLE drawn: the opponent kept what melds."""
    k = gin_kernel()
    drawn = sample_hands(v, w, rng, SAMPLES * OVERSAMPLE)
    deadwood = [k.deadwood(h) for h in drawn]
    return [(drawn[i], deadwood[i]) for i in sorted(range(len(drawn)), key=deadwood.__getitem__)[:SAMPLES]]


def nets_against(left: int, kept: list[tuple[int, int]], rules: Rules) -> list[int]:
    """The knocker's net points with ``left`` against each kept hand, layoffs included (negative:
    an undercut)."""
    nets = []
    for opp, _ in kept:
        r = score_masks(left, opp, rules)
        nets.append(r.knocker_points - r.defender_points)
    return nets


def knock_nets(v: View, left: int, w: dict[int, int], rules: Rules, rng: np.random.Generator) -> list[int]:
    """``nets_against`` the ``kept_hands``."""
    return nets_against(left, kept_hands(v, w, rng), rules)


def knock_value(v: View, left: int, w: dict[int, int], rules: Rules, rng: np.random.Generator) -> tuple[float, int]:
    """(points expected from knocking with ``left``, sampled hands that undercut): the mean over
    ``knock_nets``."""
    nets = knock_nets(v, left, w, rules, rng)
    return sum(nets) / len(nets), sum(1 for n in nets if n < 0)


class ExpertBot:
    """Models the opponent's hand from what they took, threw and left; takes the top discard when
    it beats a stock draw; discards by deadwood now and after a good next draw, and by how likely the
    opponent can use the card; knocks, with the discard leaving the least deadwood, when the
    sampled opponent hands (the least deadwood of many drawn) say it pays more than playing on."""

    name = "expert"

    def __init__(self, seed: SeedLike = None, *, prior: int = GIN_PRIOR) -> None:
        if isinstance(prior, bool) or not isinstance(prior, int) or prior < 0:
            raise ValueError(f"prior={prior!r}: the passes counted before any is seen, 0 or more")
        self.rng, self.prior = rng_from(seed), prior

    def act(self, state: State) -> Action:
        if state.phase is Phase.HAND_OVER:
            return NEXT_HAND
        if state.phase is Phase.GAME_OVER:
            return NEXT_GAME
        v = view(state)
        w = weights(v)
        hold = holding(v, w)
        how = style(state, self.prior)
        if state.phase in (Phase.FIRST_UPCARD, Phase.DRAW):
            if state.phase is Phase.DRAW and state.passes == 2:
                return DRAW_STOCK
            take = takes(v, hold, how)
            if state.phase is Phase.FIRST_UPCARD:
                return TAKE_UPCARD if take else PASS
            return DRAW_DISCARD if take else DRAW_STOCK
        k = gin_kernel()
        if state.rules.big_gin_bonus is not None and k.deadwood(v.hand) == 0:
            return BIG_GIN
        ranked = discards(v, hold, how, state.rules.knock_limit)
        low = knock_card(ranked)
        if low.deadwood <= state.rules.knock_limit and knocks(v, low, w, state.rules, self.rng):
            return Action(Kind.KNOCK, BIT_CARD[low.card])
        return Action(Kind.DISCARD, BIT_CARD[ranked[0].card])


def takes(v: View, hold: dict[int, float], style: Style) -> bool:
    """Take the top discard: keeping it (and the best discard after) leaves less deadwood than a
    stock draw is expected to, by the style's take margin."""
    k = gin_kernel()
    with_top, _ = k.best_removal(v.hand | v.top, v.top)
    return with_top + style.take_margin < stock_deadwood(v.hand, hold) and with_top < k.deadwood(v.hand)


def knock_card(ranked: list[Discard]) -> Discard:
    """The card a knock lays down: the first of the ranked discards among those leaving the least
    deadwood (the hand ends, so the look-ahead and the danger no longer count)."""
    return min(ranked, key=lambda d: d.deadwood)


def knocks(v: View, low: Discard, w: dict[int, int], rules: Rules, rng: np.random.Generator) -> bool:
    """Gin always; otherwise when the kept opponent hands give the knock more than ``knock_margin``
    points a hand. A knock wins at most the opponent's deadwood less its own (layoffs only lower
    it, an undercut loses): when even that sum is not enough, no hand is scored."""
    if low.deadwood == 0:
        return True
    kept = kept_hands(v, w, rng)
    margin = knock_margin(rules)
    if sum(dw for _, dw in kept) - low.deadwood * len(kept) <= margin * SAMPLES:
        return False
    return float(sum(nets_against(v.hand & ~low.card, kept, rules))) > margin * float(SAMPLES)
