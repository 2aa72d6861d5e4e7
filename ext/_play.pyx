# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Compiled play loops: many whole games at once, the bots' policies over the meld search.

The Python engine (rummylab.play and each family's game and bots) is the reference: for the
same seeds these loops play the same games, card for card. Every chance event draws from its
own stream (rummylab.chance), through numpy's C API, and a trace records each outcome, so the
engine replays a traced game without a generator. Only validated input may reach them: each
family's simulate checks it.
"""

from cpython.pycapsule cimport PyCapsule_GetPointer
from libc.stdint cimport int64_t, uint32_t, uint64_t
from libc.math cimport INFINITY, sqrt
from libc.stdlib cimport free, malloc, realloc
from libc.string cimport memcpy, memmove, memset

import numpy as np

from rummylab.chance import bit_state

from rummylab.kernel._kernel cimport MeldKernel
from rummylab.kernel._wild cimport Table, WildKernel, _add, _dead, _remove, _table_init

cdef extern from *:
    int __builtin_ctzll(unsigned long long) nogil
    int __builtin_popcountll(unsigned long long) nogil

cdef extern from "numpy/random/bitgen.h":
    ctypedef struct bitgen_t:
        void *state
        uint64_t (*next_uint64)(void *st) nogil
        uint32_t (*next_uint32)(void *st) nogil
        double (*next_double)(void *st) nogil
        uint64_t (*next_raw)(void *st) nogil


# -- chance: each event's stream (rummylab.chance), drawn as numpy draws it ----------------

cdef extern from "numpy/random/distributions.h":
    uint64_t random_interval(bitgen_t *bitgen_state, uint64_t max) nogil
    void random_bounded_uint64_fill(bitgen_t *bitgen_state, uint64_t off, uint64_t rng, Py_ssize_t cnt,
                                    bint use_masked, uint64_t *out) nogil


# A loop's chance streams: one numpy Philox, set to each chance event's start
# (rummylab.chance.bit_state) as the event comes.
cdef struct Chance:
    void *bits              # the Philox (the caller holds it for the whole call)
    bitgen_t *gen


cdef object _chance_bits(Chance *c):
    """A new Philox for ``c``: keep the returned object alive while ``c`` is used."""
    bits = np.random.Philox(0)
    c.bits = <void *>bits
    c.gen = <bitgen_t *>PyCapsule_GetPointer(bits.capsule, "BitGenerator")
    return bits


cdef void _restart(Chance *c, str family, uint64_t seed, str kind, int64_t deal, int64_t number) noexcept nogil:
    """Point ``c`` at the start of one chance event's stream (takes the GIL for it; a seed the
    loops get is checked, so this cannot fail but for memory)."""
    with gil:
        (<object>c.bits).state = bit_state(family, seed, kind, deal, number)


ctypedef fused card_t:
    int
    uint64_t


cdef void _shuffle(card_t *cards, int n, bitgen_t *bg) noexcept nogil:
    """n cards shuffled as ``Generator.shuffle`` shuffles a list: from the last place down,
    each swapped with a place drawn by numpy's ``random_interval``."""
    cdef int i, j
    cdef card_t swap
    for i in range(n - 1, 0, -1):
        j = <int>random_interval(bg, i)
        swap = cards[i]
        cards[i] = cards[j]
        cards[j] = swap


cdef inline uint64_t _below(bitgen_t *bg, uint64_t n) noexcept nogil:
    """``Generator.integers(n)``: numpy's own bounded draw (n == 1 draws nothing)."""
    cdef uint64_t out
    random_bounded_uint64_fill(bg, 0, n - 1, 1, False, &out)
    return out


cdef list _shuffled_by(bitgen_t *bg, items):
    """``items`` in the order ``_shuffle`` puts them, drawing from ``bg``."""
    items = list(items)
    cdef int n = len(items), i
    cdef int *order = <int *>malloc(max(n, 1) * sizeof(int))
    if order == NULL:
        raise MemoryError()
    try:
        for i in range(n):
            order[i] = i
        _shuffle(order, n, bg)
        return [items[order[i]] for i in range(n)]
    finally:
        free(order)


def shuffled(family: str, seed: int, kind: str, cards, int64_t deal=0, int64_t number=0) -> list:
    """``cards`` shuffled by one chance event's stream as the loops shuffle them (for tests)."""
    cdef Chance c
    bits = _chance_bits(&c)
    _restart(&c, family, seed, kind, deal, number)
    return _shuffled_by(c.gen, cards)


def generator_below(rng, uint64_t n, int count):
    """``count`` draws of ``rng.integers(n)`` made as the loops make them (for tests)."""
    cdef bitgen_t *bg = <bitgen_t *>PyCapsule_GetPointer(rng.bit_generator.capsule, "BitGenerator")
    return [_below(bg, n) for _ in range(count)]


def generator_shuffled(rng, items) -> list:
    """``rng.shuffle(list(items))`` as the loops shuffle (for tests)."""
    return _shuffled_by(<bitgen_t *>PyCapsule_GetPointer(rng.bit_generator.capsule, "BitGenerator"), items)


# -- rows out -------------------------------------------------------------------------

cdef struct Rows:
    int64_t *data
    Py_ssize_t n
    Py_ssize_t cap
    int width


cdef int _rows_init(Rows *r, int width, Py_ssize_t cap) noexcept nogil:
    r.width, r.n, r.cap = width, 0, cap if cap > 16 else 16
    r.data = <int64_t *>malloc(r.cap * width * sizeof(int64_t))
    return 0 if r.data != NULL else -1


cdef int64_t *_rows_add(Rows *r) noexcept nogil:
    """A new row to fill, or NULL when memory ran out."""
    cdef int64_t *grown
    if r.n == r.cap:
        grown = <int64_t *>realloc(r.data, 2 * r.cap * r.width * sizeof(int64_t))
        if grown == NULL:
            return NULL
        r.data, r.cap = grown, 2 * r.cap
    r.n += 1
    return r.data + (r.n - 1) * r.width


cdef int _chance_row(Rows *turns, int64_t game, int64_t deal, int64_t turn, int kind, int64_t value) noexcept nogil:
    """A trace's row of one chance outcome (a card of a shuffle in its order, or a drawn number):
    player CHANCE_PLAYER, action the chance kind; the family's own columns -1. 0, or -1 when
    memory ran out."""
    cdef int64_t *row = _rows_add(turns)
    cdef int i
    if row == NULL:
        return -1
    row[TURN_GAME], row[TURN_HAND], row[TURN_TURN], row[TURN_PLAYER] = game, deal, turn, CHANCE_PLAYER
    row[TURN_ACTION], row[TURN_CARD] = kind, value
    for i in range(TURN_CARD + 1, turns.width):
        row[i] = -1
    return 0


cdef int _chance_bits_rows(Rows *turns, int64_t game, int64_t deal, int64_t turn, int kind, const uint64_t *cards,
                           int n) noexcept nogil:
    """A trace's rows of one shuffle's outcome, cards as bits (gin, Three Thirteen), in order;
    0, or -1 when memory ran out."""
    cdef int i
    for i in range(n):
        if _chance_row(turns, game, deal, turn, kind, __builtin_ctzll(cards[i])):
            return -1
    return 0


cdef object _rows_array(Rows *r):
    out = np.empty((r.n, r.width), dtype=np.int64)
    cdef int64_t[:, ::1] view = out
    if r.n:
        memcpy(&view[0, 0], r.data, r.n * r.width * sizeof(int64_t))
    return out


include "_codes.pxi"
include "_play_gin.pxi"
include "_play_gin_score.pxi"
include "_play_gin_expert.pxi"
include "_play_gin_rollout.pxi"
include "_play_gin_screening.pxi"
include "_play_gin_rollout_bot.pxi"
include "_play_box.pxi"
include "_play_thirteen.pxi"
include "_play_thirteen_rollout.pxi"
include "_play_indian.pxi"
include "_play_indian_rules.pxi"
include "_play_indian_bots.pxi"
include "_play_indian_rollout.pxi"
