"""Scoring a knock: the knocker's arrangement, the defender's melds and layoffs, the points."""

from __future__ import annotations

import functools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import product
from typing import Literal

from ..cards import DECK, RANK_MASK, Card, CardsLike, mask_cards, parse_cards
from ..display import result_html
from ..i18n import NP_, _, pgettext
from ..kernel.melds import Meld, melds_of
from .analysis import GIN_MELDS, gin_kernel
from .rules import DEFAULT, Rules

Kind = Literal["knock", "undercut", "tie", "gin", "big_gin"]
KIND_WORDS = {"knock": NP_("knock result", "knock"), "gin": NP_("knock result", "gin"),
              "big_gin": NP_("knock result", "big gin"), "undercut": NP_("knock result", "undercut"),
              "tie": NP_("knock result", "tie")}
"""What a knock came to, in words (``pgettext("knock result", …)`` says one in the language in use)."""


@dataclass(frozen=True)
class KnockResult:
    """The outcome of a knock. ``valid=False`` (with a reason) means it was not scored."""

    valid: bool
    reason: str
    kind: Kind | None
    knocker_deadwood: int
    defender_deadwood: int
    """After layoffs."""
    knocker_points: int
    defender_points: int
    layoffs: tuple[Card, ...]
    knocker_melds: tuple[Meld, ...]
    arrangement_sensitive: bool
    """The knocker's choice among his least-deadwood arrangements changed the result."""
    defender_kept: int = 0
    """Mask of the defender's cards left after layoffs."""

    @functools.cached_property
    def defender_melds(self) -> tuple[Meld, ...]:
        """The defender's own melds (after his layoffs)."""
        _dw, sets = gin_kernel().arrangement(self.defender_kept)
        return tuple(melds_of(self.defender_kept, sets, GIN_MELDS))

    @property
    def net(self) -> int:
        """Points to the knocker minus points to the defender."""
        return self.knocker_points - self.defender_points

    def _repr_html_(self) -> str:
        if not self.valid:
            return result_html(_("Not a valid knock"), lines=[self.reason], left_label=_("layoffs"))
        scores = (_("The defender scores {points}").format(points=self.defender_points) if self.defender_points
                  else _("The knocker scores {points}").format(points=self.knocker_points))
        lines = [_("Knocker's deadwood {knocker}, defender's {defender} after layoffs").format(
            knocker=self.knocker_deadwood, defender=self.defender_deadwood), scores]
        kind = pgettext("knock result", KIND_WORDS[self.kind]) if self.kind in KIND_WORDS else str(self.kind)
        return result_html(kind, self.knocker_melds, self.layoffs, lines, left_label=_("laid off"))


def _mask(cards: Iterable[Card]) -> int:
    m = 0
    for c in cards:
        m |= c.bit
    return m


def least_deadwood_arrangements(mask: int) -> list[tuple[Meld, ...]]:
    """Every arrangement of least deadwood, one per choice of sets (runs taken whole)."""
    kernel = gin_kernel()
    best = kernel.deadwood(mask)
    suits = [mask >> (16 * s) & RANK_MASK for s in range(4)]
    options: list[list[int]] = []
    for r in range(13):
        present = [s for s in range(4) if suits[s] >> r & 1]
        if len(present) >= 3:
            full = sum(1 << (16 * s + r) for s in present)
            options.append([0, full] + ([full & ~(1 << (16 * s + r)) for s in present] if len(present) == 4 else []))
    out = []
    for choice in product(*options):
        sets = sum(choice)
        rest = mask & ~sets
        if sum(kernel.suit_deadwood(rest >> (16 * s) & RANK_MASK) for s in range(4)) == best:
            out.append(tuple(melds_of(mask, sets, GIN_MELDS)))
    return out


def layoff_options(melds: Sequence[Meld], defender: int) -> list[int]:
    """Every set of defender cards that can be laid off together onto these melds,
    runs extended at either end one card after another, a fourth card on a set."""
    per_meld: list[list[int]] = []
    for m in melds:
        if m.kind == "set":
            rank = m.cards[0].rank
            missing = [c for c in DECK if c.rank == rank and not m.mask & c.bit and defender & c.bit]
            per_meld.append([0] + [c.bit for c in missing])
            continue
        suit = m.cards[0].suit
        ranks = sorted(c.rank for c in m.cards)
        below, above = [0], [0]
        acc = 0
        for r in range(ranks[0] - 1, -1, -1):
            bit = 1 << (16 * suit + r)
            if not defender & bit:
                break
            acc |= bit
            below.append(acc)
        acc = 0
        for r in range(ranks[-1] + 1, 13):
            bit = 1 << (16 * suit + r)
            if not defender & bit:
                break
            acc |= bit
            above.append(acc)
        per_meld.append([lo | hi for lo in below for hi in above])
    found = {0}
    for choice in product(*per_meld):
        used = 0
        for part in choice:
            if used & part:
                break
            used |= part
        else:
            found.add(used)
    return sorted(found)


def _score(rules: Rules, kind: Kind, k: int, d: int) -> tuple[Kind, int, int]:
    if kind == "big_gin":
        return kind, (rules.big_gin_bonus or 0) + d, 0
    if kind == "gin":
        return kind, rules.gin_bonus + d, 0
    if d > k:
        return "knock", d - k, 0
    if d == k and not rules.undercut_on_tie:
        return "tie", 0, 0  # nobody wins the hand
    return "undercut", 0, rules.undercut_bonus + (k - d)


def _invalid(reason: str, k: int, melds: tuple[Meld, ...]) -> KnockResult:
    return KnockResult(valid=False, reason=reason, kind=None, knocker_deadwood=k, defender_deadwood=0,
                       knocker_points=0, defender_points=0, layoffs=(), knocker_melds=melds,
                       arrangement_sensitive=False)


def _against(melds: tuple[Meld, ...], k_mask: int, d_mask: int, n_cards: int, rules: Rules) -> KnockResult:
    melded = _mask(c for m in melds for c in m.cards)
    k = sum(GIN_MELDS.points[c.rank] for c in mask_cards(k_mask & ~melded))
    kernel = gin_kernel()
    kind: Kind = "big_gin" if n_cards == 11 else ("gin" if k == 0 else "knock")
    best_lay, best_d = 0, kernel.deadwood(d_mask)
    if kind == "knock":
        for lay in layoff_options(melds, d_mask):
            d = kernel.deadwood(d_mask & ~lay)
            if d < best_d or (d == best_d and lay.bit_count() < best_lay.bit_count()):
                best_lay, best_d = lay, d
    kind, kp, dp = _score(rules, kind, k, best_d)
    return KnockResult(valid=True, reason="", kind=kind, knocker_deadwood=k, defender_deadwood=best_d,
                       knocker_points=kp, defender_points=dp, layoffs=mask_cards(best_lay), knocker_melds=melds,
                       arrangement_sensitive=False, defender_kept=d_mask & ~best_lay)


def _check_melds(given: Iterable[CardsLike], k_mask: int) -> tuple[Meld, ...]:
    out: list[Meld] = []
    used = 0
    for group in given:
        cards = parse_cards(group, jokers=0)
        m = _mask(cards)
        text = " ".join(map(str, cards))
        if m & ~k_mask:
            missing = " ".join(str(c) for c in cards if c.bit & ~k_mask)
            raise ValueError(f"knocker_melds: {missing} not in the knocker's hand")
        if m & used:
            raise ValueError(f"knocker_melds: {text} shares a card with another meld")
        used |= m
        ranks = sorted(c.rank for c in cards)
        if len({c.rank for c in cards}) == 1 and 3 <= len(cards) <= 4:
            out.append(Meld("set", tuple(cards)))
        elif (len({c.suit for c in cards}) == 1 and len(cards) >= 3
              and ranks == list(range(ranks[0], ranks[0] + len(ranks)))):
            out.append(Meld("run", tuple(sorted(cards, key=lambda c: c.rank))))
        else:
            raise ValueError(f"knocker_melds: {text} is not a set or a run")
    return tuple(out)


def score_knock(knocker: CardsLike, defender: CardsLike, rules: Rules = DEFAULT,
                knocker_melds: Iterable[CardsLike] | None = None) -> KnockResult:
    """Score a knock: knocker's 10 cards after his discard (11 for big gin), defender's 10.

    Without ``knocker_melds`` the knocker shows the least-deadwood arrangement best
    for him; the defender lays off and melds to minimise his own deadwood.
    """
    k_cards = parse_cards(knocker, size=(10, 11), jokers=0)
    d_cards = parse_cards(defender, size=10, jokers=0)
    k_mask, d_mask = _mask(k_cards), _mask(d_cards)
    if k_mask & d_mask:
        both = " ".join(str(c) for c in k_cards if c.bit & d_mask)
        raise ValueError(f"{both}: in both the knocker's and the defender's hand")
    shown = None if knocker_melds is None else _check_melds(knocker_melds, k_mask)
    return score_masks(k_mask, d_mask, rules, shown)


def score_masks(k_mask: int, d_mask: int, rules: Rules = DEFAULT,
                knocker_melds: tuple[Meld, ...] | None = None) -> KnockResult:
    """``score_knock`` on validated, disjoint masks (10 or 11 knocker cards, 10 defender cards)."""
    n = k_mask.bit_count()
    k_cards = mask_cards(k_mask)
    arrangements = [knocker_melds] if knocker_melds is not None else least_deadwood_arrangements(k_mask)
    results = []
    for melds in arrangements:
        melded = _mask(c for m in melds for c in m.cards)
        k = sum(GIN_MELDS.points[c.rank] for c in k_cards if c.bit & ~melded)
        if n == 11 and (k or rules.big_gin_bonus is None):
            reason = (_("big gin is not played under these rules") if rules.big_gin_bonus is None and not k
                      else _("11 cards must all be melded for big gin (deadwood {deadwood}); discard first").format(
                          deadwood=k))
            results.append(_invalid(reason, k, melds))
        elif k > rules.knock_limit:
            results.append(_invalid(_("deadwood {deadwood} is over the knock limit of {limit}").format(
                deadwood=k, limit=rules.knock_limit), k, melds))
        else:
            results.append(_against(melds, k_mask, d_mask, n, rules))
    best = max(results, key=lambda r: (r.valid, r.net))
    sensitive = len({(r.valid, r.knocker_points, r.defender_points, r.defender_deadwood) for r in results}) > 1
    fields = {k: v for k, v in best.__dict__.items() if k != "defender_melds"}
    return KnockResult(**{**fields, "arrangement_sensitive": sensitive})
