"""The hidden cards of a gin hand as the player to act may picture them: the opponent's unknown
cards and the stock's order, drawn from that player's view only (never from the state's hidden
cards), or every such world with its probability when there are few enough.

A world's opponent hand holds the cards the opponent took from the pile and still holds, and
``hidden`` unseen cards. Under the ``"view"`` model a set of hidden cards has a probability in
proportion to the product of its cards' weights (``expert.weights``: up for a card that melds with
one the opponent took, down for one near a card they threw or passed); under ``"uniform"`` every
set is as likely. The stock is the other unseen cards in a uniformly random order. Under
``"kept"`` (sampled only) the opponent is taken to have kept what melds: a world is the one of
least opponent deadwood among one more than the stock cards they drew (``kept_draws``).
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations, permutations
from math import comb, perm
from typing import Literal

import numpy as np

from ..cards import bits_of
from ..hidden import weighted_draw
from ..sim import play_loops
from . import expert
from .analysis import deadwood_batch, gin_kernel
from .game import State
from .rollout import state_row

Model = Literal["view", "uniform", "kept"]
MODELS = ("view", "uniform", "kept")
KEPT_MOST = 8
"""A "kept" world is the best of at most this many drawn."""


@dataclass(frozen=True)
class Worlds:
    """Worlds for the player to act: the opponent's hand (card mask) and the stock (bit positions,
    bottom first) in each, with each world's probability (1/n for n sampled worlds)."""

    hands: np.ndarray
    stocks: np.ndarray
    probability: np.ndarray
    exact: bool

    def __len__(self) -> int:
        return len(self.hands)


@dataclass(frozen=True)
class Unknown:
    """What the player to act does not see: the unseen cards (bit order), their weights, how
    many of them the opponent holds, and the cards the opponent is known to hold."""

    cards: np.ndarray
    weights: np.ndarray
    hidden: int
    known: int
    stock: int


def check_model(model: str) -> None:
    """ValueError unless ``model`` is one of MODELS."""
    if model not in MODELS:
        raise ValueError(f"model {model!r}: one of {', '.join(MODELS)}")


def unknown(state: State, model: Model = "view") -> Unknown:
    """The unknown cards of ``state`` for the player to act, weighted by ``model``."""
    check_model(model)
    v = expert.view(state)
    them = 1 - state.to_play
    hidden = state.hands[them].bit_count() - v.picked.bit_count()
    cards = bits_of(v.unseen)
    w = expert.weights(v) if model == "view" else {}
    weights = np.array([float(w.get(c, 1)) for c in cards])
    if len(cards) != hidden + len(state.stock):
        raise ValueError("the state's cards do not add up to a deck")  # a bug: the engine keeps them whole
    return Unknown(cards=np.array(cards, dtype=np.uint64), weights=weights / weights.max() if len(cards) else weights,
                   hidden=hidden, known=v.picked, stock=len(state.stock))


def sample(state: State, n: int, rng: np.random.Generator, model: Model = "view", *,
           compiled: bool = True) -> Worlds:
    """``n`` worlds drawn for the player to act: the hidden cards by the product of their weights
    (card by card, each taken with its exact conditional chance), the stock shuffled. Under
    ``"kept"`` each world is the one of least opponent deadwood among ``kept_draws(state)`` drawn
    under ``"view"``. Drawn in the compiled loop when it is built and ``compiled`` (``gin_worlds``:
    the same uniforms in the same order, the same worlds; a review's draws took a quarter of its
    time here), else here."""
    loops = play_loops() if compiled else None
    if loops is not None:
        check_model(model)
        loops.set_expert(*expert.constants(state.rules))  # the weights' base
        hands, stocks = loops.gin_worlds(gin_kernel(), state_row(state), n, rng,
                                         kept_draws(state) if model == "kept" else 1, model == "uniform")
        return Worlds(hands=hands, stocks=stocks, probability=np.full(n, 1.0 / n), exact=False)
    if model == "kept":
        r = kept_draws(state)
        many = sample(state, n * r, rng, "view", compiled=False)
        if r == 1:
            return many
        dw = deadwood_batch(many.hands.astype(np.uint64)).reshape(n, r)
        pick = np.arange(n) * r + np.argmin(dw, axis=1)  # the first of the least, in draw order
        return Worlds(hands=many.hands[pick], stocks=many.stocks[pick], probability=np.full(n, 1.0 / n),
                      exact=False)
    u = unknown(state, model)
    m = len(u.cards)
    chosen = weighted_draw(u.weights, u.hidden, rng.random((n, m)))
    hands = np.full(n, u.known, dtype=np.uint64) | np.bitwise_or.reduce(
        np.where(chosen, u.cards[None, :], np.uint64(0)), axis=1) if m else np.full(n, u.known, dtype=np.uint64)
    keys = np.where(chosen, np.inf, rng.random((n, m)))
    order = np.argsort(keys, axis=1, kind="stable")[:, :u.stock]
    positions = np.array([int(c).bit_length() - 1 for c in u.cards], dtype=np.int64)
    stocks = positions[order] if m else np.zeros((n, 0), dtype=np.int64)
    return Worlds(hands=hands.astype(np.int64), stocks=stocks, probability=np.full(n, 1.0 / n), exact=False)


def kept_draws(state: State) -> int:
    """How many hidden hands a "kept" world is the best of: one more than the stock cards the
    opponent drew this hand (their discards less the cards they hold from the pile), at most
    KEPT_MOST: each draw was a chance to keep what melds."""
    them = 1 - state.to_play
    drew = state.thrown[them].bit_count() - state.picked_up[them].bit_count()
    return 1 + min(max(drew, 0), KEPT_MOST - 1)


def count(state: State) -> int:
    """How many worlds ``enumerate_worlds`` lists for ``state``: the hidden hands times the orders
    of the stock's cards that can still be drawn."""
    u = unknown(state, "uniform")
    drawable = max(0, u.stock - state.rules.dead_hand_stock)
    return comb(len(u.cards), u.hidden) * perm(u.stock, drawable)


def enumerate_worlds(state: State, model: Model = "view") -> Worlds:
    """Every world with its probability: each set of hidden cards, and each order of the stock's
    cards that can be drawn before the hand is dead (the cards below them never are: kept in bit
    order). The "kept" model has no such list (it is defined by sampling)."""
    if model == "kept":
        raise ValueError("model 'kept' is sampled only: enumerate under 'view' or 'uniform'")
    u = unknown(state, model)
    positions = [int(c).bit_length() - 1 for c in u.cards]
    drawable = max(0, u.stock - state.rules.dead_hand_stock)
    hands, stocks, probability = [], [], []
    for pick in combinations(range(len(positions)), u.hidden):
        p_hand = float(np.prod(u.weights[list(pick)])) if pick else 1.0
        rest = [positions[i] for i in range(len(positions)) if i not in pick]
        mask = u.known
        for i in pick:
            mask |= 1 << positions[i]
        for top in permutations(rest, drawable):
            bottom = [c for c in rest if c not in top]
            hands.append(mask)
            stocks.append(bottom + list(reversed(top)))  # the first drawn on top (last)
            probability.append(p_hand)
    prob = np.array(probability)
    return Worlds(hands=np.array(hands, dtype=np.int64),
                  stocks=np.array(stocks, dtype=np.int64).reshape(len(hands), -1),
                  probability=prob / prob.sum(), exact=True)
