# The compiled wild-card search's declarations, so the compiled play loops (ext/_play.pyx) can
# call it; the small card-count helpers are defined here, for both.
from libc.stdint cimport int32_t, uint32_t, uint64_t


cdef struct Entry:  # a hand is keyed as (once ^ thrice, twice): two bits of count per card
    uint64_t once
    uint64_t twice
    uint32_t small
    uint32_t gen
    int32_t value
    int32_t exact  # 0: value is only a lower bound (the search was cut off there)


cdef struct Table:
    Entry *slots
    uint32_t mask
    uint32_t used
    uint32_t gen


cdef struct Rules:
    int points[13]
    int top
    int ace_high
    int max_wilds
    int min_non_wild
    int identical
    int set_max
    int wild_value
    int joker_value
    int min_runs
    int min_pure
    int min_life  # the fewest cards of a run that counts as a life
    int run_max  # the most cards of a run
    int wild_natural_pure
    int wild_as_self  # a card of the wild rank may stand for itself (else it is always wild)
    int room_counts  # a leftover wild or joker costs something, so room in melds matters
    int top_points  # the most a card left over can cost (a natural card, a wild card, a joker)
    uint64_t wild_mask


cdef int _table_init(Table *t, uint32_t size) noexcept nogil


cdef inline int _copies(uint64_t once, uint64_t twice, uint64_t thrice, uint64_t bit) noexcept nogil:
    return (1 if once & bit else 0) + (1 if twice & bit else 0) + (1 if thrice & bit else 0)


cdef inline void _remove(uint64_t *once, uint64_t *twice, uint64_t *thrice, uint64_t bit) noexcept nogil:
    """Take one copy of a card out of the hand."""
    if twice[0] & bit:  # held twice or more: take the top copy
        if thrice[0] & bit:
            thrice[0] &= ~bit
        else:
            twice[0] &= ~bit
    else:
        once[0] &= ~bit


cdef inline void _add(uint64_t *once, uint64_t *twice, uint64_t *thrice, uint64_t bit) noexcept nogil:
    """Put one more copy of a card into the hand."""
    if twice[0] & bit:
        thrice[0] |= bit
    elif once[0] & bit:
        twice[0] |= bit
    else:
        once[0] |= bit


cdef extern from *:
    """
    #define SUIT_LOW 0x0001000100010001ULL  /* the ace of every suit */
    #define SUIT_ALL 0x1FFF1FFF1FFF1FFFULL  /* every card */
    """
    const uint64_t SUIT_LOW
    const uint64_t SUIT_ALL


cdef inline uint64_t _dead(uint64_t once, uint64_t twice, uint64_t thrice, int total, bint ace_high) noexcept nogil:
    """The cards (``total`` <= 1 wild cards left) that no meld can hold: with no wild card, not in
    three of a rank or three in a row; with one, no other card of the rank and no card of the
    suit within two places."""
    cdef uint64_t h = once, near, starts, b1, b2, b3, many
    if ace_high:
        h |= (h & SUIT_LOW) << 13  # the ace again above the king
    if total == 0:
        starts = h & (h >> 1) & (h >> 2)
        near = starts | (starts << 1) | (starts << 2)
    else:
        near = (h >> 1) | (h << 1) | (h >> 2) | (h << 2)
    if ace_high:
        near |= (near >> 13) & SUIT_LOW
    # copies of each rank, counted to three: fold the four suits' (>= 1, >= 2, >= 3) masks in pairs
    b1, b2, b3 = once >> 32, twice >> 32, thrice >> 32
    thrice |= b3 | (twice & b1) | (once & b2)
    twice |= b2 | (once & b1)
    once |= b1
    b1, b2, b3 = once >> 16, twice >> 16, thrice >> 16
    if total == 0:  # ranks held three times or more
        many = thrice | b3 | (twice & b1) | (once & b2)
    else:  # ranks held twice or more
        many = twice | b2 | (once & b1)
    near |= (many & 0x1FFF) * SUIT_LOW
    return h & ~near & SUIT_ALL


cdef class WildKernel:
    cdef Rules rules
    cdef Table table
    cdef readonly tuple points
    cdef readonly bint ace_high, identical_in_set
    cdef readonly int max_wilds, min_non_wild, set_max, min_runs, min_pure_runs, min_life_length, run_max
    cdef readonly bint wild_natural_in_pure, wild_as_self

    cdef int _penalty(self, Table *t, uint64_t once, uint64_t twice, uint64_t thrice, int wild_rank, int jokers,
                      int joker_value, int wild_value, int bound=*, bint fresh=*,
                      bint discard=*) noexcept nogil
    cdef int _every_card(self, uint64_t once, uint64_t twice, int wild_rank, bint but_dearest,
                         int cap) noexcept nogil
    cdef int _best_pure(self, uint64_t once, int wild_rank) noexcept nogil
    cdef int _loser(self, Table *t, uint64_t once, uint64_t twice, int jokers, int wild_rank, bint exclude_pure,
                    int cap, int valid_show, bint fresh=*) noexcept nogil
    cdef int _every_but_pure_after_discard(self, uint64_t once, uint64_t twice, int jokers,
                                           int wild_rank) noexcept nogil
    cdef int _loser_discard(self, Table *t, uint64_t once, uint64_t twice, int jokers, int wild_rank,
                            bint exclude_pure, int cap, int valid_show, bint fresh=*) noexcept nogil
