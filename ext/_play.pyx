# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Compiled play loops: many whole games at once, the bots' policies over the meld search.

The Python engine (rummylab.play and each family's game and bots) is the reference: for the
same seeds these loops play the same games, card for card. They shuffle with the engine's
generator (CPython's Mersenne Twister, seeded from the same text) and a random bot draws
from its own numpy Generator exactly as ``Generator.integers`` does. Only validated input
may reach them: each family's simulate checks it.
"""

from cpython.pycapsule cimport PyCapsule_GetPointer
from libc.stdint cimport int64_t, uint32_t, uint64_t
from libc.math cimport INFINITY
from libc.stdlib cimport free, malloc, realloc
from libc.string cimport memcpy, memset

import hashlib

import numpy as np

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


# -- CPython's random.Random, for the deals -----------------------------------------

cdef enum:
    MT_N = 624
    MT_M = 397

cdef struct Twister:
    uint32_t mt[MT_N]
    int index


cdef void _init_genrand(Twister *r, uint32_t s) noexcept nogil:
    cdef int i
    r.mt[0] = s
    for i in range(1, MT_N):
        r.mt[i] = <uint32_t>(<uint32_t>1812433253 * (r.mt[i - 1] ^ (r.mt[i - 1] >> 30)) + <uint32_t>i)
    r.index = MT_N


cdef void _init_by_array(Twister *r, const uint32_t *key, int n) noexcept nogil:
    cdef int i = 1, j = 0, k
    _init_genrand(r, 19650218U)
    k = MT_N if MT_N > n else n
    while k:
        r.mt[i] = <uint32_t>((r.mt[i] ^ ((r.mt[i - 1] ^ (r.mt[i - 1] >> 30)) * <uint32_t>1664525))
                             + key[j] + <uint32_t>j)
        i += 1
        j += 1
        if i >= MT_N:
            r.mt[0] = r.mt[MT_N - 1]
            i = 1
        if j >= n:
            j = 0
        k -= 1
    k = MT_N - 1
    while k:
        r.mt[i] = <uint32_t>((r.mt[i] ^ ((r.mt[i - 1] ^ (r.mt[i - 1] >> 30)) * <uint32_t>1566083941))
                             - <uint32_t>i)
        i += 1
        if i >= MT_N:
            r.mt[0] = r.mt[MT_N - 1]
            i = 1
        k -= 1
    r.mt[0] = 0x80000000U


cdef uint32_t _genrand(Twister *r) noexcept nogil:
    cdef uint32_t y
    cdef int kk
    if r.index >= MT_N:
        for kk in range(MT_N - MT_M):
            y = (r.mt[kk] & 0x80000000U) | (r.mt[kk + 1] & 0x7fffffffU)
            r.mt[kk] = r.mt[kk + MT_M] ^ (y >> 1) ^ (0x9908b0dfU if y & 1 else 0)
        for kk in range(MT_N - MT_M, MT_N - 1):
            y = (r.mt[kk] & 0x80000000U) | (r.mt[kk + 1] & 0x7fffffffU)
            r.mt[kk] = r.mt[kk + MT_M - MT_N] ^ (y >> 1) ^ (0x9908b0dfU if y & 1 else 0)
        y = (r.mt[MT_N - 1] & 0x80000000U) | (r.mt[0] & 0x7fffffffU)
        r.mt[MT_N - 1] = r.mt[MT_M - 1] ^ (y >> 1) ^ (0x9908b0dfU if y & 1 else 0)
        r.index = 0
    y = r.mt[r.index]
    r.index += 1
    y ^= y >> 11
    y ^= (y << 7) & 0x9d2c5680U
    y ^= (y << 15) & 0xefc60000U
    y ^= y >> 18
    return y


cdef int _randbelow(Twister *r, uint32_t n) noexcept nogil:
    """random.Random._randbelow(n) for 1 <= n < 2**31."""
    cdef int k = 0
    cdef uint32_t v = n
    while v:
        k += 1
        v >>= 1
    v = _genrand(r) >> (32 - k)
    while v >= n:
        v = _genrand(r) >> (32 - k)
    return v


def twister_key(text: str) -> bytes:
    """random.Random(text)'s seed as little-endian 32-bit words (version 2 seeding)."""
    raw = text.encode()
    n = int.from_bytes(raw + hashlib.sha512(raw).digest(), "big")
    return n.to_bytes(max(1, (n.bit_length() + 31) // 32) * 4, "little")


cdef int _seed_text(Twister *r, str text) except -1:
    cdef bytes key = twister_key(text)
    cdef int n = len(key) // 4
    cdef uint32_t *words = <uint32_t *>malloc(n * sizeof(uint32_t))
    if words == NULL:
        raise MemoryError()
    memcpy(words, <const char *>key, n * 4)
    _init_by_array(r, words, n)
    free(words)
    return 0


ctypedef fused card_t:
    int
    uint64_t


cdef int _shuffle(card_t *cards, int n, str key) except -1:
    """random.Random(key).shuffle of n cards, as the engine shuffles a pack or a pile."""
    cdef Twister r
    cdef int i, j
    cdef card_t swap
    _seed_text(&r, key)
    for i in range(n - 1, 0, -1):
        j = _randbelow(&r, i + 1)
        swap = cards[i]
        cards[i] = cards[j]
        cards[j] = swap
    return 0


def shuffled(text: str, cards) -> list:
    """random.Random(text).shuffle(cards) as this module does it (for tests)."""
    items = list(cards)
    cdef int n = len(items), i
    cdef int *order = <int *>malloc(max(n, 1) * sizeof(int))
    if order == NULL:
        raise MemoryError()
    try:
        for i in range(n):
            order[i] = i
        _shuffle(order, n, text)
        return [items[order[i]] for i in range(n)]
    finally:
        free(order)


# -- numpy's Generator.integers(n), for the random bot ------------------------------

cdef uint32_t _below(bitgen_t *bg, uint32_t n) noexcept nogil:
    """Generator.integers(n): Lemire's method on 32-bit draws; n == 1 draws nothing."""
    cdef uint32_t rng = n - 1, rng_excl = n, leftover, threshold
    cdef uint64_t m
    if rng == 0:
        return 0
    m = <uint64_t>bg.next_uint32(bg.state) * rng_excl
    leftover = <uint32_t>m
    if leftover < rng_excl:
        threshold = (<uint32_t>0xFFFFFFFFU - rng) % rng_excl
        while leftover < threshold:
            m = <uint64_t>bg.next_uint32(bg.state) * rng_excl
            leftover = <uint32_t>m
    return <uint32_t>(m >> 32)


def generator_below(rng, uint32_t n, int count):
    """``count`` draws of ``rng.integers(n)`` made as the loops make them (for tests)."""
    cdef bitgen_t *bg = <bitgen_t *>PyCapsule_GetPointer(rng.bit_generator.capsule, "BitGenerator")
    return [_below(bg, n) for _ in range(count)]


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


cdef object _rows_array(Rows *r):
    out = np.empty((r.n, r.width), dtype=np.int64)
    cdef int64_t[:, ::1] view = out
    if r.n:
        memcpy(&view[0, 0], r.data, r.n * r.width * sizeof(int64_t))
    return out


include "_codes.pxi"
include "_play_gin.pxi"
include "_play_gin_score.pxi"
include "_play_box.pxi"
include "_play_thirteen.pxi"
include "_play_indian.pxi"
include "_play_indian_rules.pxi"
include "_play_indian_bots.pxi"
