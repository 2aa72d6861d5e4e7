"""Pure-Python twin of the compiled kernel (ext/_kernel.pyx): same classes, same answers."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

NMASKS = 8192
NO_CARD = 127


def _line_deadwood(line: int, nbits: int, value: Sequence[int], min_run: int) -> int:
    total = 0
    i = 0
    while i < nbits:
        if (line >> i) & 1:
            j = i
            while j < nbits and (line >> j) & 1:
                j += 1
            if j - i < min_run:
                total += sum(value[i:j])
            i = j
        else:
            i += 1
    return total


class MeldKernel:
    """Minimum-deadwood search for one-deck hands with no wild cards."""

    def __init__(self, points: Sequence[int], ace_high: bool = False, min_run: int = 3,
                 set_min: int = 3, set_max: int = 4) -> None:
        if len(points) != 13 or not all(0 <= int(v) <= 19 for v in points):
            raise ValueError(f"points must be 13 values from 0 to 19, ace to king, not {points!r}")
        if not 2 <= min_run <= 13 or not 2 <= set_min <= set_max <= 4:
            raise ValueError("need 2 <= min_run <= 13 and 2 <= set_min <= set_max <= 4")
        self.points = tuple(int(v) for v in points)
        self.ace_high, self.min_run, self.set_min, self.set_max = bool(ace_high), min_run, set_min, set_max
        value = list(self.points) + [self.points[0]]
        run = [0] * NMASKS
        for m in range(NMASKS):
            dw = _line_deadwood(m, 13, value, min_run)
            if ace_high and m & 1:
                dw = min(dw, _line_deadwood(m >> 1 | 1 << 12, 13, value[1:], min_run))
            run[m] = dw
        self._run_deadwood = run
        self._discard_gain = [
            min((run[m & ~(1 << r)] - run[m] for r in range(13) if m >> r & 1), default=NO_CARD)
            for m in range(NMASKS)
        ]
        self._set_options = [
            [q for q in range(1, 16) if not q & ~p and set_min <= q.bit_count() <= set_max]
            for p in range(16)
        ]

    def __reduce__(self) -> tuple[type, tuple[object, ...]]:
        return (MeldKernel, (self.points, self.ace_high, self.min_run, self.set_min, self.set_max))

    def _set_ranks(self, a: int, b: int, c: int, d: int) -> int:
        if self.set_min == 3:
            return (a & b & (c | d)) | (c & d & (a | b))
        if self.set_min == 4:
            return a & b & c & d
        return (a & b) | (a & c) | (a & d) | (b & c) | (b & d) | (c & d)

    def _leaf(self, a: int, b: int, c: int, d: int, discard: bool) -> int:
        run = self._run_deadwood
        total = run[a] + run[b] + run[c] + run[d]
        if discard:
            gain = self._discard_gain
            total += min(gain[a], gain[b], gain[c], gain[d])
        return total

    def _search(self, a: int, b: int, c: int, d: int, ranks: int, discard: bool) -> tuple[int, int]:
        """(minimum deadwood, chosen set cards) over every choice of sets among ranks."""
        if ranks == 0:
            return self._leaf(a, b, c, d, discard), 0
        r = (ranks & -ranks).bit_length() - 1
        bit = 1 << r
        rest = ranks & (ranks - 1)
        best, best_sets = self._search(a, b, c, d, rest, discard)
        p = (a >> r & 1) | (b >> r & 1) << 1 | (c >> r & 1) << 2 | (d >> r & 1) << 3
        for q in self._set_options[p]:
            if best <= 0 and not discard:
                break
            v, sub_sets = self._search(a & ~(bit if q & 1 else 0), b & ~(bit if q & 2 else 0),
                                       c & ~(bit if q & 4 else 0), d & ~(bit if q & 8 else 0),
                                       rest, discard)
            if v < best:
                best = v
                best_sets = sub_sets
                for k in range(4):
                    if q >> k & 1:
                        best_sets |= bit << (16 * k)
        return best, best_sets

    def _deadwood(self, m: int, discard: bool) -> int:
        a, b, c, d = m & 0x1FFF, m >> 16 & 0x1FFF, m >> 32 & 0x1FFF, m >> 48 & 0x1FFF
        ranks = self._set_ranks(a, b, c, d)
        if ranks == 0:
            return self._leaf(a, b, c, d, discard)
        return self._search(a, b, c, d, ranks, discard)[0]

    def deadwood(self, mask: int) -> int:
        """Minimum deadwood of exactly these cards."""
        return self._deadwood(int(mask), False)

    def discard_deadwood(self, mask: int) -> int:
        """Minimum deadwood after the best single discard (mask must be non-empty)."""
        return self._deadwood(int(mask), True)

    def each_removal(self, mask: int) -> list[tuple[int, int]]:
        """[(deadwood without card, card bit)] for each card of mask, lowest bit first."""
        out, rest = [], int(mask)
        while rest:
            low = rest & -rest
            out.append((self._deadwood(int(mask) & ~low, False), low))
            rest ^= low
        return out

    def best_removal(self, mask: int, keep: int = 0) -> tuple[int, int]:
        """(deadwood, card bit): the card of mask, not in keep, whose removal leaves the
        least deadwood; ties go to the card worth most, then the highest bit."""
        mask = int(mask)
        rest = mask & ~int(keep)
        best, best_value, best_bit = 1 << 30, -1, 0
        while rest:
            low = rest & -rest
            rest ^= low
            dw = self._deadwood(mask & ~low, False)
            value = self.points[(low.bit_length() - 1) & 15]
            if dw < best or (dw == best and value >= best_value):
                best, best_value, best_bit = dw, value, low
        return best, best_bit

    def arrangement(self, mask: int) -> tuple[int, int]:
        """(minimum deadwood, mask of the cards in the chosen sets)."""
        m = int(mask)
        a, b, c, d = m & 0x1FFF, m >> 16 & 0x1FFF, m >> 32 & 0x1FFF, m >> 48 & 0x1FFF
        return self._search(a, b, c, d, self._set_ranks(a, b, c, d), False)

    def suit_deadwood(self, suit_mask: int) -> int:
        """Run-only deadwood of one suit's 13-bit mask."""
        return self._run_deadwood[suit_mask & 0x1FFF]

    def deadwood_batch(self, masks: np.ndarray, out: np.ndarray, discard: bool = False) -> None:
        """out[i] = deadwood of masks[i] (after the best discard if discard)."""
        if out.shape[0] != masks.shape[0]:
            raise ValueError("out must have one slot per mask")
        for i, m in enumerate(masks.tolist()):
            out[i] = self._deadwood(m, discard)

    def canonical_histogram(self, order: np.ndarray, pop_start: np.ndarray, n_cards: int, n_suits: int,
                            discard: bool, a_lo: int, a_hi: int, out: np.ndarray) -> None:
        """Add to out[deadwood] every hand whose largest suit mask is order[a_lo:a_hi], one per
        suit permutation class, weighted by the class size (see the compiled kernel)."""
        from itertools import combinations_with_replacement
        from math import factorial

        masks = [int(m) for m in order]
        for ia in range(a_lo, a_hi):
            for rest in combinations_with_replacement(range(ia + 1), n_suits - 1):
                idx = (ia, *sorted(rest, reverse=True))
                if sum(masks[i].bit_count() for i in idx) != n_cards:
                    continue
                mult = factorial(n_suits)
                for i in set(idx):
                    mult //= factorial(idx.count(i))
                hand = 0
                for s, i in enumerate(idx):
                    hand |= masks[i] << (16 * s)
                out[self._deadwood(hand, discard)] += mult
