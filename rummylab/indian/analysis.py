"""Indian rummy hands: groups, declarations and loser points (docs/rules.md §4)."""

from __future__ import annotations

import html
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np

from ..cards import ACES, Card, CardsLike, cards_str, check_mask, parse_cards, two_deck_masks
from ..display import chips, result_html
from ..i18n import N_, _, ngettext
from ..kernel import IMPOSSIBLE
from ..kernel._wild_py import loser_count as _loser_count
from ..kernel.wild_melds import WildMeld, melds_of
from .rules import DEFAULT, HAND_SIZE, POINTS, Rules, wild_rank_index

GroupKind = Literal["pure", "impure", "set"]
GROUP_WORDS = {"pure": N_("a pure sequence"), "impure": N_("an impure sequence"), "set": N_("a set"),
               None: N_("not a group")}
"""What a group is, in words."""
WildRank = str | Card | None


# -- hands ----------------------------------------------------------------------


def parse_hand(hand: CardsLike, sizes: tuple[int, ...], rules: Rules) -> tuple[Card, ...]:
    """Cards from a two-deck pack with printed jokers, checked (ValueError names the bad token)."""
    return parse_cards(hand, size=sizes, copies=2, jokers=rules.printed_jokers)


masks = two_deck_masks


# -- one group ------------------------------------------------------------------


def _fits(places: list[int], n: int, top: int) -> bool:
    """Distinct places that fit in n consecutive places of the line 0..top."""
    if len(set(places)) != len(places):
        return False
    lo, hi = min(places), max(places)
    return hi - lo + 1 <= n <= top + 1 and max(0, hi - n + 1) <= min(lo, top - n + 1)


def _is_sequence(naturals: list[Card], n: int, ace_high: bool, longest: int | None = None) -> bool:
    """n cards (at most ``longest``), these naturals among them, can be consecutive cards of one suit."""
    if len({c.suit for c in naturals}) != 1 or n > (longest or 13):
        return False
    low = [c.rank for c in naturals]
    return _fits(low, n, 12) or (ace_high and _fits([13 if r == 0 else r for r in low], n, 13))


def _group(cards: tuple[Card, ...], w: int, rules: Rules) -> tuple[GroupKind | None, str]:
    """(the best role of one group, a reason a student can read when it has none)."""
    n = len(cards)
    text = cards_str(cards)
    if n < 3:
        return None, _("{cards}: a group needs at least 3 cards").format(cards=text or _("an empty group"))
    fixed = [c for c in cards if not c.is_joker and c.rank != w]
    wild = [c for c in cards if not c.is_joker and c.rank == w]
    printed = n - len(fixed) - len(wild)
    limit = rules.max_jokers_per_group
    # a pure sequence: every card in its own place, no joker standing in
    longest = rules.sequence_max_size
    if not printed and (rules.wild_natural_in_pure or not wild) and _is_sequence(fixed + wild, n, rules.ace_high,
                                                                                  longest):
        return "pure", _("a pure sequence")
    # wild cards may stand for themselves (fewer jokers standing in) or for any card
    best: GroupKind | None = None
    for k in range(len(wild) + 1):
        naturals = fixed + wild[:k] if k else fixed
        standing_in = n - len(naturals)
        if limit is not None and standing_in > limit:
            continue
        if naturals and _is_sequence(naturals, n, rules.ace_high, longest):
            return "impure", _("an impure sequence")
        if _is_set(naturals, n, rules):
            best = "set"
    if best:
        return best, _("a set")
    return None, _why_not(cards, fixed, w, rules)


def _is_set(naturals: list[Card], n: int, rules: Rules) -> bool:
    if rules.set_max_size is not None and n > rules.set_max_size:
        return False
    if not naturals:
        return rules.jokers_only_group
    if len({c.rank for c in naturals}) != 1:
        return False
    return rules.set_allow_duplicate_suits or len({c.suit for c in naturals}) == len(naturals)


def _why_not(cards: tuple[Card, ...], fixed: list[Card], w: int, rules: Rules) -> str:
    text = cards_str(cards)
    n = len(cards)
    jokers = n - len(fixed)
    limit = rules.max_jokers_per_group
    one_kind = len({c.rank for c in fixed}) <= 1 or len({c.suit for c in fixed}) == 1
    if limit is not None and jokers > limit and one_kind:
        return ngettext("{cards}: more than {limit} joker in one group",
                        "{cards}: more than {limit} jokers in one group", limit).format(cards=text, limit=limit)
    if not fixed:
        return _("{cards}: a group of jokers only is not allowed").format(cards=text)
    if len({c.rank for c in fixed}) == 1:
        if len(set(fixed)) < len(fixed) and not rules.set_allow_duplicate_suits:
            twin = next(c for c in fixed if fixed.count(c) > 1)
            return _("{cards} is not a set: identical cards ({twin} twice)").format(cards=text, twin=twin)
        if rules.set_max_size is not None and n > rules.set_max_size:
            return _("{cards} is not a set: more than {n} cards").format(cards=text, n=rules.set_max_size)
    if len({c.suit for c in fixed}) == 1:
        ranks = {c.rank for c in fixed}
        if len(ranks) < len(fixed):
            twin = next(c for c in fixed if fixed.count(c) > 1)
            return _("{cards} is not a sequence: {twin} twice").format(cards=text, twin=twin)
        if 0 in ranks and 12 in ranks and 1 in ranks:
            return _("{cards} is not a sequence: K-A-2 does not wrap around").format(cards=text)
        if rules.sequence_max_size is not None and n > rules.sequence_max_size:
            return _("{cards} is not a sequence: more than {n} cards").format(cards=text, n=rules.sequence_max_size)
        return _("{cards} is not a sequence: the gaps need more jokers than it holds").format(cards=text)
    return _("{cards} is neither a sequence (one suit) nor a set (one rank)").format(cards=text)


def classify_group(cards: CardsLike, wild_rank: WildRank, rules: Rules = DEFAULT) -> GroupKind | None:
    """"pure", "impure" (a sequence with a joker standing in), "set", or None (not a group)."""
    w = wild_rank_index(wild_rank)
    return _group(parse_cards(cards, copies=2, jokers=rules.printed_jokers), w, rules)[0]


def explain_group(cards: CardsLike, wild_rank: WildRank, rules: Rules = DEFAULT) -> str:
    """What the group is, or why it is not a group, in words for a student."""
    w = wild_rank_index(wild_rank)
    return _group(parse_cards(cards, copies=2, jokers=rules.printed_jokers), w, rules)[1]


# -- declarations ---------------------------------------------------------------


@dataclass(frozen=True)
class Declaration:
    """A checked declaration: is it valid, why (or why not), and what each group is."""

    valid: bool
    reason: str
    types: tuple[GroupKind | None, ...]
    groups: tuple[tuple[Card, ...], ...]

    def _repr_html_(self) -> str:
        rows = "".join(f"<div>{chips(g)} {html.escape(_(GROUP_WORDS[t]))}</div>"
                       for g, t in zip(self.groups, self.types, strict=False))
        colour = "#1b5e20" if self.valid else "#b71c1c"
        reason = html.escape(self.reason)
        return f"<div class='rl-result-block'>{rows}<div style='color:{colour}'><b>{reason}</b></div></div>"


def check_declaration(hand: CardsLike, groups: Iterable[CardsLike], wild_rank: WildRank,
                      rules: Rules = DEFAULT) -> Declaration:
    """Check 13 cards shown in groups: every group valid, two sequences, one of them pure.

    The groups must hold exactly the hand's cards (ValueError names a card left out or extra)."""
    w = wild_rank_index(wild_rank)
    cards = parse_hand(hand, (HAND_SIZE,), rules)
    shown = tuple(tuple(parse_cards(g, copies=2, jokers=rules.printed_jokers)) for g in groups)
    _check_cover(cards, shown)
    found = [_group(g, w, rules) for g in shown]
    types = tuple(kind for kind, _reason in found)
    for kind, reason in found:
        if kind is None:
            return Declaration(False, reason, types, shown)
    n = rules.min_life_length
    lives = [t for t, g in zip(types, shown, strict=True) if len(g) >= n]  # sequences long enough for a life
    if "pure" not in lives:
        why = (_("no pure sequence: the first life must be a sequence without jokers") if n == 3 else
               _("no pure sequence of {n} or more cards: the first life must be a sequence without jokers").format(n=n))
        return Declaration(False, why, types, shown)
    if sum(t in ("pure", "impure") for t in lives) < 2:
        why = (_("only one sequence: a second sequence (pure or impure) is needed") if n == 3 else
               _("only one sequence of {n} or more cards: a second sequence (pure or impure) is needed").format(n=n))
        return Declaration(False, why, types, shown)
    return Declaration(True, _("valid declaration"), types, shown)


def _check_cover(cards: tuple[Card, ...], shown: tuple[tuple[Card, ...], ...]) -> None:
    held, grouped = Counter(cards), Counter(c for g in shown for c in g)
    extra = grouped - held
    if extra:
        c = next(iter(extra))
        raise ValueError(f"{c}: in the groups {'more often than' if c in held else 'but not'} in the hand")
    missing = held - grouped
    if missing:
        raise ValueError(f"the groups leave out {cards_str(sorted(missing.elements()))}: "
                         "every card of the hand must be in a group")


def best_declaration(hand: CardsLike, wild_rank: WildRank,
                     rules: Rules = DEFAULT) -> tuple[tuple[Card, ...], ...] | None:
    """A valid grouping of 13 cards (of 14: after the discard that allows one), or None."""
    w = wild_rank_index(wild_rank)
    cards = parse_hand(hand, (HAND_SIZE, HAND_SIZE + 1), rules)
    k = rules.declaration_kernel()
    for hold in _thirteens(cards):
        once, twice, jokers = masks(hold)
        if k.penalty(once, twice, w, jokers, 1, 1) == 0:
            arrangement = k.arrangement(once, twice, w, jokers, 1, 1)
            melds, leftover = melds_of(hold, arrangement, w, rules.ace_high)
            assert not leftover
            return tuple(m.cards for m in melds)
    return None


def _thirteens(cards: tuple[Card, ...]) -> list[tuple[Card, ...]]:
    """The hand itself (13 cards), or each distinct way to discard one of 14."""
    if len(cards) == HAND_SIZE:
        return [cards]
    out, seen = [], set()
    for i, c in enumerate(cards):
        if c not in seen:
            seen.add(c)
            out.append(cards[:i] + cards[i + 1:])
    return out


# -- loser points ---------------------------------------------------------------


@dataclass(frozen=True)
class LoserPoints:
    """What a losing hand costs, and the grouping that gives it."""

    points: int
    lives: bool
    """The hand holds two sequences, one of them pure (else every card counts)."""
    has_pure_sequence: bool
    groups: tuple[WildMeld, ...]
    """The groups of the least count (none without both lives)."""
    ungrouped: tuple[Card, ...]
    discard: Card | None = None
    """For 14 cards: the discard that gives these points."""

    def _repr_html_(self) -> str:
        title = (_("Loser points {points} (two lives)") if self.lives else
                 _("Loser points {points} (no two lives (a pure sequence and another): every card counts)"))
        lines = [_("Discard {card}").format(card=self.discard)] if self.discard else []
        return result_html(title.format(points=self.points), self.groups, self.ungrouped, lines,
                           left_label=_("ungrouped"))


def loser_count(kernel: Any, once: int, twice: int, jokers: int, w: int, rules: Rules) -> int:
    """Loser points of validated masks (13 cards): valid show, or the least of the count with
    two lives and every card (bar a pure sequence, by option); at most the cap."""
    return _loser_count(kernel, once, twice, jokers, w, rules.no_second_life_rule == "exclude_pure", rules.cap,
                        rules.valid_show_points)


def loser_count_after_discard(kernel: Any, once: int, twice: int, jokers: int, w: int, rules: Rules) -> int:
    """Loser points of validated masks (14 cards) after the best discard of one card or printed
    joker, in one search: the least ``loser_count`` of the hand less each card."""
    return int(kernel.loser_after_discard(once, twice, w, jokers, rules.no_second_life_rule == "exclude_pure",
                                          rules.cap, rules.valid_show_points))


def loser_points_after_discard(hand: CardsLike, wild_rank: WildRank, rules: Rules = DEFAULT) -> int:
    """Loser points of 14 cards after the best discard (the points ``loser_points`` gives them),
    in one search that chooses the card to leave out as it goes; no groups, no card named (see
    ``loser_points`` for those). ValueError names a bad card, a bad wild rank or a hand that is
    not 14 cards."""
    w = wild_rank_index(wild_rank)
    cards = parse_hand(hand, (HAND_SIZE + 1,), rules)
    return loser_count_after_discard(rules.kernel(), *masks(cards), w, rules)


def _wild_mask(w: int) -> int:
    """The four cards of the wild rank (0: none)."""
    return (ACES << w) if w >= 0 else 0


POINTS_BY_BIT = {1 << (16 * s + r): v for s in range(4) for r, v in enumerate(POINTS)}


def loser_points(hand: CardsLike, wild_rank: WildRank, rules: Rules = DEFAULT) -> LoserPoints:
    """Points of a losing hand of 13 cards (of 14: after the best discard).

    With two sequences, one pure, only ungrouped cards count (jokers 0); without, every card
    (or every card but a pure sequence, by ``no_second_life_rule``, when that is less); at most
    ``cap``; a fully valid hand costs ``valid_show_points``."""
    w = wild_rank_index(wild_rank)
    cards = parse_hand(hand, (HAND_SIZE, HAND_SIZE + 1), rules)
    k = rules.kernel()
    best: tuple[int, tuple[Card, ...]] | None = None
    for hold in _thirteens(cards):
        v = loser_count(k, *masks(hold), w, rules)
        if best is None or v < best[0]:
            best = (v, hold)
    assert best is not None
    points, hold = best
    once, twice, jokers = masks(hold)
    arrangement = k.arrangement(once, twice, w, jokers, 0, 0)
    lives = arrangement[0] < IMPOSSIBLE
    pure = int(k.best_pure_run(once, twice, w)) >= 0
    if lives:
        groups, ungrouped = melds_of(hold, arrangement, w, rules.ace_high)
    else:
        groups, ungrouped = (), tuple(sorted(hold))
    discard = None
    if len(cards) > HAND_SIZE:
        discard = (Counter(cards) - Counter(hold)).most_common(1)[0][0]
    return LoserPoints(points=points, lives=lives, has_pure_sequence=pure, groups=groups, ungrouped=ungrouped,
                       discard=discard)


def loser_points_batch(once: Any, twice: Any, jokers: Any, wild_rank: WildRank, rules: Rules = DEFAULT, *,
                       discard: bool = False, backend: str | None = None) -> np.ndarray:
    """Loser points of each hand given as (once, twice) uint64 masks and printed joker counts;
    ``discard``: 14-card hands, after the best discard (one search a hand, as
    ``loser_points_after_discard``). Releases the GIL when compiled."""
    w = wild_rank_index(wild_rank)
    a, b = np.asarray(once, dtype=np.uint64), np.asarray(twice, dtype=np.uint64)
    j = np.asarray(jokers, dtype=np.uint8)
    if a.shape != b.shape or a.shape != j.shape or a.ndim != 1:
        raise ValueError("once, twice and jokers must be 1-d arrays of the same length")
    size = HAND_SIZE + (1 if discard else 0)
    for i, (o, t, n) in enumerate(zip(a.tolist(), b.tolist(), j.tolist(), strict=True)):
        check_mask(o)
        check_mask(t)
        if t & ~o:
            raise ValueError(f"hand {i}: twice mask {t:#x} holds cards missing from once mask {o:#x}")
        if n > rules.printed_jokers:
            raise ValueError(f"hand {i}: {n} printed jokers; the pack has {rules.printed_jokers}")
        if o.bit_count() + t.bit_count() + n != size:
            raise ValueError(f"hand {i}: {o.bit_count() + t.bit_count() + n} cards; {size} expected")
    out = np.empty(a.size, dtype=np.int32)
    k = rules.kernel(backend)
    k.loser_points_batch(np.ascontiguousarray(a), np.ascontiguousarray(b), np.ascontiguousarray(j), w, out,
                         rules.no_second_life_rule == "exclude_pure", rules.cap, rules.valid_show_points, discard)
    return out
