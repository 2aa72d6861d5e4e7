# The wild-card search's memo: an open-addressing table of states stamped with a generation
# number (textually included by _wild.pyx).


cdef inline uint64_t _hash(uint64_t a, uint64_t b, uint32_t c) noexcept nogil:
    cdef uint64_t h = a * 0x9E3779B97F4A7C15ULL ^ (b + 0x632BE59BD9B4E019ULL) * 0xC2B2AE3D27D4EB4FULL ^ c
    h ^= h >> 29
    h *= 0xBF58476D1CE4E5B9ULL
    return h ^ (h >> 32)


cdef int _table_init(Table *t, uint32_t size) noexcept nogil:
    t.slots = <Entry *> calloc(size, sizeof(Entry))
    if t.slots == NULL:
        return -1
    t.mask = size - 1
    t.used = 0
    t.gen = 1
    return 0


cdef int _table_grow(Table *t) noexcept nogil:
    cdef uint32_t old_size = t.mask + 1, i, j
    cdef Entry *old = t.slots
    cdef Entry *fresh = <Entry *> calloc(old_size * 2, sizeof(Entry))
    if fresh == NULL:
        return -1
    t.slots = fresh
    t.mask = old_size * 2 - 1
    for i in range(old_size):
        if old[i].gen == t.gen:
            j = <uint32_t>(_hash(old[i].once, old[i].twice, old[i].small) & t.mask)
            while t.slots[j].gen == t.gen:
                j = (j + 1) & t.mask
            t.slots[j] = old[i]
    free(old)
    return 0


cdef inline int _lookup(Table *t, uint64_t once, uint64_t twice, uint32_t small, int32_t *value,
                        int32_t *exact, uint32_t *slot) noexcept nogil:
    """1 and the state's value if known; ``slot`` is where it is (or would go)."""
    cdef uint32_t j = <uint32_t>(_hash(once, twice, small) & t.mask)
    while t.slots[j].gen == t.gen:
        if t.slots[j].once == once and t.slots[j].twice == twice and t.slots[j].small == small:
            value[0] = t.slots[j].value
            exact[0] = t.slots[j].exact
            slot[0] = j
            return 1
        j = (j + 1) & t.mask
    slot[0] = j
    return 0


cdef inline void _write(Table *t, uint32_t j, uint64_t once, uint64_t twice, uint32_t small, int32_t value,
                        int32_t exact) noexcept nogil:
    """Put a state's value in slot j: a free slot of this generation, or the state's own."""
    if t.slots[j].gen != t.gen:
        t.slots[j].once = once
        t.slots[j].twice = twice
        t.slots[j].small = small
        t.slots[j].gen = t.gen
        t.used += 1
    t.slots[j].value = value
    t.slots[j].exact = exact


cdef inline void _store_at(Table *t, uint32_t j, uint32_t size, uint64_t once, uint64_t twice, uint32_t small,
                           int32_t value, int32_t exact) noexcept nogil:
    """Store at the slot found by _lookup when it is still free (or still this state's) in a
    table of the same size; else look again."""
    if t.mask + 1 == size and (t.used + 1) * 10 <= (t.mask + 1) * 7 and (
            t.slots[j].gen != t.gen
            or (t.slots[j].once == once and t.slots[j].twice == twice and t.slots[j].small == small)):
        _write(t, j, once, twice, small, value, exact)
    else:
        _store(t, once, twice, small, value, exact)


cdef inline void _store(Table *t, uint64_t once, uint64_t twice, uint32_t small, int32_t value,
                        int32_t exact) noexcept nogil:
    """Record a state's value (exact, or a lower bound), replacing what was known of it."""
    cdef uint32_t j
    if (t.used + 1) * 10 > (t.mask + 1) * 7:
        if _table_grow(t) != 0:
            return  # out of memory: keep searching without memoising this state
    j = <uint32_t>(_hash(once, twice, small) & t.mask)
    while t.slots[j].gen == t.gen and not (
            t.slots[j].once == once and t.slots[j].twice == twice and t.slots[j].small == small):
        j = (j + 1) & t.mask
    _write(t, j, once, twice, small, value, exact)


cdef inline void _fresh(Table *t) noexcept nogil:
    """A new generation: every stored state is forgotten at once."""
    cdef uint32_t i
    t.gen += 1
    t.used = 0
    if t.gen == 0:  # wrapped: clear the stamps once
        for i in range(t.mask + 1):
            t.slots[i].gen = 0
        t.gen = 1
