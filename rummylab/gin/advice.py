"""``advise``: what the expert bot would do now, its top alternatives, and why, in a sentence a
student can follow. The estimates are the expert's own (rummylab.gin.expert)."""

from __future__ import annotations

import html
from dataclasses import dataclass

from ..cards import BIT_CARD, SeedLike, bits_of, rng_from
from .analysis import gin_kernel
from .expert import (
    SAMPLES,
    Discard,
    ExpertBot,
    View,
    discards,
    holding,
    knock_card,
    knock_margin,
    knock_value,
    related,
    stock_deadwood,
    view,
    weights,
)
from .game import BIG_GIN, DRAW_DISCARD, DRAW_STOCK, PASS, TAKE_UPCARD, Action, Kind, Phase, State


@dataclass(frozen=True)
class Option:
    """One move and what the expert expects of it."""

    action: Action
    estimate: float
    unit: str
    """"deadwood" (expected; less is better) or "points" (expected from a knock; more is better)."""
    reason: str


@dataclass(frozen=True)
class Advice:
    """The expert's choice first, then its best alternatives."""

    choice: Action
    options: tuple[Option, ...]

    def __str__(self) -> str:
        return "\n".join(f"{'→' if o.action == self.choice else ' '} {o.action}: {o.reason}" for o in self.options)

    def _repr_html_(self) -> str:
        rows = []
        for o in self.options:
            mark = " class='rl-advice-choice'" if o.action == self.choice else ""
            rows.append(f"<li{mark}><b>{html.escape(str(o.action))}</b>: {html.escape(o.reason)}</li>")
        return f"<ol class='rl-advice'>{''.join(rows)}</ol>"


def _name(bit: int) -> str:
    return BIT_CARD[bit].symbol


def _names(mask: int) -> str:
    return " ".join(_name(b) for b in bits_of(mask))


def advise(state: State, top: int = 3, seed: SeedLike = 0) -> Advice:
    """The expert's move for the player to act in ``state`` and up to ``top`` options in all (the
    choice first), each with the expert's estimate and a reason. ``seed``: the generator of the
    expert's sampled opponent hands (a knock's value). ValueError when there is no move to advise."""
    if not isinstance(state, State):
        raise ValueError(f"state={state!r}: advise takes a two-handed gin state (rummylab.gin.game.State)")
    if isinstance(top, bool) or not isinstance(top, int) or top < 1:
        raise ValueError(f"top={top!r}: how many options to show, 1 or more")
    if state.phase in (Phase.HAND_OVER, Phase.GAME_OVER, Phase.MATCH_OVER):
        raise ValueError(f"the hand is over ({state.phase.value}): there is no move to advise")
    choice = ExpertBot(seed).act(state)
    v = view(state)
    w = weights(v)
    hold = holding(v, w)
    if state.phase is Phase.DISCARD:
        options = _discard_options(state, v, w, hold, seed)
    else:
        options = _draw_options(state, v, hold)
    first = [o for o in options if o.action == choice]
    rest = [o for o in options if o.action != choice]
    return Advice(choice, tuple((first or [Option(choice, float("nan"), "deadwood", "the expert's choice")])
                                + rest)[:top])


def _draw_options(state: State, v: View, hold: dict[int, float]) -> list[Option]:
    k = gin_kernel()
    if state.phase is Phase.DRAW and state.passes == 2:
        return [Option(DRAW_STOCK, stock_deadwood(v.hand, hold), "deadwood",
                       "after both players pass the upcard, the non-dealer draws from the stock")]
    now = k.deadwood(v.hand)
    with_top, thrown = k.best_removal(v.hand | v.top, v.top)
    stock = stock_deadwood(v.hand, hold)
    top = _name(v.top)
    partners = v.hand & sum(b for b in bits_of(v.hand) if related(b, v.top) == 1.0)
    if with_top < now:
        why = (f"takes {top}: with {_names(partners)} it lowers the deadwood from {now} to {with_top} "
               f"(throwing {_name(thrown)}), where a stock draw leaves about {stock:.1f}" if partners else
               f"takes {top}: it lowers the deadwood from {now} to {with_top}, where a stock draw leaves about "
               f"{stock:.1f}")
    else:
        why = f"takes {top}: but it does not lower the deadwood ({now})"
    take = TAKE_UPCARD if state.phase is Phase.FIRST_UPCARD else DRAW_DISCARD
    leave = PASS if state.phase is Phase.FIRST_UPCARD else DRAW_STOCK
    unseen = v.unseen.bit_count()
    leave_why = (f"{'passes' if leave is PASS else 'draws from the stock'}: one of {unseen} unseen cards is expected "
                 f"to leave deadwood {stock:.1f}" + (f", against {with_top} with {top}" if with_top < now else
                                                    f"; {top} does not help"))
    return [Option(take, float(with_top), "deadwood", why), Option(leave, stock, "deadwood", leave_why)]


def _discard_options(state: State, v: View, w: dict[int, int], hold: dict[int, float], seed: SeedLike) -> list[Option]:
    k = gin_kernel()
    out = []
    if state.rules.big_gin_bonus is not None and k.deadwood(v.hand) == 0:
        out.append(Option(BIG_GIN, float(state.rules.big_gin_bonus), "points",
                          f"big gin: all eleven cards meld ({state.rules.big_gin_bonus} bonus)"))
    ranked = discards(v, hold)
    best = knock_card(ranked) if ranked else None
    if best is not None and best.deadwood <= state.rules.knock_limit:
        if best.deadwood == 0:
            out.append(Option(Action(Kind.KNOCK, BIT_CARD[best.card]), float(state.rules.gin_bonus), "points",
                              f"gin: throw {_name(best.card)} and all ten cards meld ({state.rules.gin_bonus} bonus)"))
        else:
            ev, undercuts = knock_value(v, v.hand & ~best.card, w, state.rules, rng_from(seed))
            margin = knock_margin(state.rules)
            out.append(Option(Action(Kind.KNOCK, BIT_CARD[best.card]), ev, "points",
                              f"knocks with deadwood {best.deadwood}: over {SAMPLES} opponent hands drawn from "
                              f"what they showed it wins {ev:+.1f} points on average ({undercuts} undercut"
                              f"{'' if undercuts == 1 else 's'})"
                              + ("" if ev > margin else f"; playing on for gin or an undercut is worth more "
                                 f"than a knock that wins {margin:g} or less")))
    out += [Option(Action(Kind.DISCARD, BIT_CARD[d.card]), d.key, "deadwood", _discard_reason(v, d, i == 0))
            for i, d in enumerate(ranked)]
    return out


def _discard_reason(v: View, d: Discard, chosen: bool) -> str:
    card = _name(d.card)
    after = f"deadwood {d.deadwood}, about {d.ahead:.1f} after the next draw"
    feeders = [b for b in bits_of(v.picked) if related(b, d.card)]
    near = [b for b in bits_of(v.thrown | v.declined) if related(b, d.card) == 1.0]
    partners = [b for b in bits_of(v.hand & ~d.card) if related(b, d.card) == 1.0]
    if feeders:
        picked = " ".join(_name(b) for b in feeders)
        why = (f"{card} leaves the least deadwood, though the opponent picked up {picked}" if chosen
               else f"{card} is risky: the opponent picked up {picked}")
    elif near and d.danger < 0.5:
        threw = " ".join(_name(b) for b in near if b & v.thrown)
        passed = " ".join(_name(b) for b in near if not b & v.thrown)
        said = " and ".join(x for x in (f"threw {threw}" if threw else "", f"passed {passed}" if passed else "") if x)
        why = f"{card} is safe: the opponent {said}"
    elif partners:
        why = f"{card} breaks up {card} {' '.join(_name(b) for b in partners)}"
    elif d.danger >= 0.5:
        why = f"{card} is unmatched, though the opponent may meld it (about {min(d.danger, 1.0):.0%})"
    else:
        why = f"{card} is unmatched"
    kept = _open_run(v, v.hand & ~d.card) if chosen else ""
    return f"{why}{kept} ({after})"


def _open_run(v: View, left: int) -> str:
    """"; it keeps 7♥ 8♥ open: ..." for the first two-card run of ``left`` outside its melds."""
    for lo in bits_of(left):
        rank, hi = (lo.bit_length() - 1) & 15, lo << 1
        if rank < 12 and left & hi and not _in_meld(left, lo) and not _in_meld(left, hi):
            outs = ([lo >> 1] if rank > 0 else []) + ([hi << 1] if rank + 1 < 12 else [])
            unseen = sum(1 for b in outs if b & v.unseen)
            return (f"; it keeps {_name(lo)} {_name(hi)} open: {unseen} of the {len(outs)} cards that finish the run "
                    f"{'is' if unseen == 1 else 'are'} unseen")
    return ""


def _in_meld(hand: int, bit: int) -> bool:
    """Does ``bit`` help the hand's melds (without it, the deadwood falls by less than its value)?"""
    k = gin_kernel()
    return bool(k.deadwood(hand & ~bit) > k.deadwood(hand) - min(((bit.bit_length() - 1) & 15) + 1, 10))
