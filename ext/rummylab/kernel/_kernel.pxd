# The compiled meld search's declaration, so the compiled play loops (ext/_play.pyx) can call it.
from libc.stdint cimport int8_t, uint8_t, uint32_t, uint64_t

cimport cython


@cython.final
cdef class MeldKernel:
    cdef uint8_t run_deadwood[8192]
    cdef int8_t discard_gain[8192]
    cdef uint8_t set_options[16][16]
    cdef uint8_t n_set_options[16]
    cdef readonly int set_min
    cdef int point_of[13]
    cdef uint32_t by_value[13]
    cdef int n_values
    cdef readonly tuple points
    cdef readonly bint ace_high
    cdef readonly int min_run
    cdef readonly int set_max
    cdef uint64_t *memo

    cdef uint32_t _set_ranks(self, uint32_t a, uint32_t b, uint32_t c, uint32_t d) noexcept nogil
    cdef int _leaf(self, uint32_t a, uint32_t b, uint32_t c, uint32_t d, bint discard) noexcept nogil
    cdef int _search(self, uint32_t a, uint32_t b, uint32_t c, uint32_t d, uint32_t ranks,
                     bint discard, uint64_t *sets) noexcept nogil
    cdef int _searched(self, uint64_t m, bint discard) noexcept nogil
    cdef int _deadwood(self, uint64_t m, bint discard) noexcept nogil
    cdef int _best_removal(self, uint64_t mask, uint64_t keep, uint64_t *bit) noexcept nogil
