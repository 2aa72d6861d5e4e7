"""``advise``: what the expert bot would do now, its top alternatives, and why, in a sentence a
student can follow. The estimates are the expert's own (rummylab.gin.expert)."""

from __future__ import annotations

import html
from dataclasses import dataclass, replace

from ..cards import BIT_CARD, SeedLike, bits_of, rng_from
from ..i18n import _, ngettext
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
    style,
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
    """"deadwood" (a draw: the deadwood expected; a discard: the expert's key, its deadwood now and to
    come weighed by the expert's style, ``expert.Style``; less is better) or "points" (expected
    from a knock; more is better)."""
    reason: str
    label: str = ""
    """The move in words, in the language in use ("discard KS"; ``evaluation.label``)."""

    @property
    def shown(self) -> str:
        """The move as a person reads it: its label, else the action."""
        return self.label or str(self.action)


@dataclass(frozen=True)
class Advice:
    """The expert's choice first, then its best alternatives."""

    choice: Action
    options: tuple[Option, ...]

    def __str__(self) -> str:
        return "\n".join(f"{'→' if o.action == self.choice else ' '} {o.shown}: {o.reason}" for o in self.options)

    def _repr_html_(self) -> str:
        rows = []
        for o in self.options:
            mark = " class='rl-advice-choice'" if o.action == self.choice else ""
            rows.append(f"<li{mark}><b>{html.escape(o.shown)}</b>: {html.escape(o.reason)}</li>")
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
    from .evaluation import label  # the evaluation's words for a move (it reads the expert: imported here)

    first = [o for o in options if o.action == choice]
    rest = [o for o in options if o.action != choice]
    shown = ((first or [Option(choice, float("nan"), "deadwood", _("the expert's choice"))]) + rest)[:top]
    return Advice(choice, tuple(replace(o, label=label(state, o.action)) for o in shown))


def _draw_options(state: State, v: View, hold: dict[int, float]) -> list[Option]:
    k = gin_kernel()
    if state.phase is Phase.DRAW and state.passes == 2:
        return [Option(DRAW_STOCK, stock_deadwood(v.hand, hold), "deadwood",
                       _("after both players pass the upcard, the non-dealer draws from the stock"))]
    now = k.deadwood(v.hand)
    with_top, thrown = k.best_removal(v.hand | v.top, v.top)
    stock = stock_deadwood(v.hand, hold)
    top = _name(v.top)
    partners = v.hand & sum(b for b in bits_of(v.hand) if related(b, v.top) == 1.0)
    about = f"{stock:.1f}"
    if with_top < now and partners:
        why = _("takes {top}: with {partners} it lowers the deadwood from {now} to {after} (throwing {thrown}), "
                "where a stock draw leaves about {stock}").format(top=top, partners=_names(partners), now=now,
                                                                  after=with_top, thrown=_name(thrown), stock=about)
    elif with_top < now:
        why = _("takes {top}: it lowers the deadwood from {now} to {after}, where a stock draw leaves about "
                "{stock}").format(top=top, now=now, after=with_top, stock=about)
    else:
        why = _("takes {top}: but it does not lower the deadwood ({now})").format(top=top, now=now)
    take = TAKE_UPCARD if state.phase is Phase.FIRST_UPCARD else DRAW_DISCARD
    leave = PASS if state.phase is Phase.FIRST_UPCARD else DRAW_STOCK
    unseen = v.unseen.bit_count()
    if leave is PASS and with_top < now:
        said = ngettext("passes: one of {unseen} unseen card is expected to leave deadwood {stock}, against {after} "
                        "with {top}", "passes: one of {unseen} unseen cards is expected to leave deadwood {stock}, "
                        "against {after} with {top}", unseen)
    elif leave is PASS:
        said = ngettext("passes: one of {unseen} unseen card is expected to leave deadwood {stock}; {top} does not "
                        "help", "passes: one of {unseen} unseen cards is expected to leave deadwood {stock}; {top} "
                        "does not help", unseen)
    elif with_top < now:
        said = ngettext("draws from the stock: one of {unseen} unseen card is expected to leave deadwood {stock}, "
                        "against {after} with {top}", "draws from the stock: one of {unseen} unseen cards is "
                        "expected to leave deadwood {stock}, against {after} with {top}", unseen)
    else:
        said = ngettext("draws from the stock: one of {unseen} unseen card is expected to leave deadwood {stock}; "
                        "{top} does not help", "draws from the stock: one of {unseen} unseen cards is expected to "
                        "leave deadwood {stock}; {top} does not help", unseen)
    leave_why = said.format(unseen=unseen, stock=about, after=with_top, top=top)
    return [Option(take, float(with_top), "deadwood", why), Option(leave, stock, "deadwood", leave_why)]


def _discard_options(state: State, v: View, w: dict[int, int], hold: dict[int, float], seed: SeedLike) -> list[Option]:
    k = gin_kernel()
    out = []
    if state.rules.big_gin_bonus is not None and k.deadwood(v.hand) == 0:
        out.append(Option(BIG_GIN, float(state.rules.big_gin_bonus), "points",
                          _("big gin: all eleven cards meld ({bonus} bonus)").format(
                              bonus=state.rules.big_gin_bonus)))
    how = style(state)
    ranked = discards(v, hold, how, state.rules.knock_limit)
    best = knock_card(ranked) if ranked else None
    if best is not None and best.deadwood <= state.rules.knock_limit:
        if best.deadwood == 0:
            out.append(Option(Action(Kind.KNOCK, BIT_CARD[best.card]), float(state.rules.gin_bonus), "points",
                              _("gin: throw {card} and all ten cards meld ({bonus} bonus)").format(
                                  card=_name(best.card), bonus=state.rules.gin_bonus)))
        else:
            ev, undercuts = knock_value(v, v.hand & ~best.card, w, state.rules, rng_from(seed))
            margin = knock_margin(state.rules)
            if ev > margin:
                said = ngettext("knocks with deadwood {deadwood}: over {samples} opponent hands drawn from what they "
                                "showed it wins {ev} points on average ({undercuts} undercut)",
                                "knocks with deadwood {deadwood}: over {samples} opponent hands drawn from what they "
                                "showed it wins {ev} points on average ({undercuts} undercuts)", undercuts)
            else:
                said = ngettext("knocks with deadwood {deadwood}: over {samples} opponent hands drawn from what they "
                                "showed it wins {ev} points on average ({undercuts} undercut); playing on for gin or "
                                "an undercut is worth more than a knock that wins {margin} or less",
                                "knocks with deadwood {deadwood}: over {samples} opponent hands drawn from what they "
                                "showed it wins {ev} points on average ({undercuts} undercuts); playing on for gin or "
                                "an undercut is worth more than a knock that wins {margin} or less", undercuts)
            out.append(Option(Action(Kind.KNOCK, BIT_CARD[best.card]), ev, "points",
                              said.format(deadwood=best.deadwood, samples=SAMPLES, ev=f"{ev:+.1f}",
                                          undercuts=undercuts, margin=f"{margin:g}")))
    out += [Option(Action(Kind.DISCARD, BIT_CARD[d.card]), d.key, "deadwood",
                   _discard_reason(v, d, i == 0, how.good_draws))
            for i, d in enumerate(ranked)]
    return out


def _discard_reason(v: View, d: Discard, chosen: bool, good_draws: bool) -> str:
    card = _name(d.card)
    after = (_("deadwood {deadwood}, about {ahead} after a good next draw") if good_draws  # the best few draws
             else _("deadwood {deadwood}, about {ahead} after the next draw")).format(deadwood=d.deadwood,
                                                                                     ahead=f"{d.ahead:.1f}")
    feeders = [b for b in bits_of(v.picked) if related(b, d.card)]
    near = [b for b in bits_of(v.thrown | v.declined) if related(b, d.card) == 1.0]
    partners = [b for b in bits_of(v.hand & ~d.card) if related(b, d.card) == 1.0]
    if feeders:
        picked = " ".join(_name(b) for b in feeders)
        why = (_("{card} leaves the least deadwood, though the opponent picked up {picked}") if chosen
               else _("{card} is risky: the opponent picked up {picked}")).format(card=card, picked=picked)
    elif near and d.danger < 0.5:
        threw = " ".join(_name(b) for b in near if b & v.thrown)
        passed = " ".join(_name(b) for b in near if not b & v.thrown)
        safe = (_("{card} is safe: the opponent threw {threw} and passed {passed}") if threw and passed else
                _("{card} is safe: the opponent threw {threw}") if threw else
                _("{card} is safe: the opponent passed {passed}"))
        why = safe.format(card=card, threw=threw, passed=passed)
    elif partners:
        why = _("{card} breaks up {meld}").format(card=card, meld=" ".join([card, *(_name(b) for b in partners)]))
    elif d.danger >= 0.5:
        why = _("{card} is unmatched, though the opponent may meld it (about {chance})").format(
            card=card, chance=f"{min(d.danger, 1.0):.0%}")
    else:
        why = _("{card} is unmatched").format(card=card)
    kept = _open_run(v, v.hand & ~d.card) if chosen else ""
    if kept:
        return _("{why}; {kept} ({after})").format(why=why, kept=kept, after=after)
    return _("{why} ({after})").format(why=why, after=after)


def _open_run(v: View, left: int) -> str:
    """"it keeps 7♥ 8♥ open: ..." for the first two-card run of ``left`` outside its melds ("": none)."""
    for lo in bits_of(left):
        rank, hi = (lo.bit_length() - 1) & 15, lo << 1
        if rank < 12 and left & hi and not _in_meld(left, lo) and not _in_meld(left, hi):
            outs = ([lo >> 1] if rank > 0 else []) + ([hi << 1] if rank + 1 < 12 else [])
            unseen = sum(1 for b in outs if b & v.unseen)
            return ngettext("it keeps {cards} open: {unseen} of the {outs} cards that finish the run is unseen",
                            "it keeps {cards} open: {unseen} of the {outs} cards that finish the run are unseen",
                            unseen).format(cards=f"{_name(lo)} {_name(hi)}", unseen=unseen, outs=len(outs))
    return ""


def _in_meld(hand: int, bit: int) -> bool:
    """Does ``bit`` help the hand's melds (without it, the deadwood falls by less than its value)?"""
    k = gin_kernel()
    return bool(k.deadwood(hand & ~bit) > k.deadwood(hand) - min(((bit.bit_length() - 1) & 15) + 1, 10))
