"""Board geometry as bit masks: bit i is square i (a1 = 0, along the first rank, then up).

Movement, range and contact are all "king step" questions, so they are answered with whole-board
integer operations: one `spread` grows a set of squares by a king step in a dozen operations, which
keeps legal-move generation fast enough for the search's playouts. One `Geometry` per board size
is built once and shared (`geometry(width, height)`).
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache

from engine.grid import Grid


class Geometry:
    """Masks and tables for a `width` x `height` board."""

    def __init__(self, width: int, height: int) -> None:
        self.grid = Grid(width, height)
        self.width = width
        self.height = height
        self.size = width * height
        self.names = self.grid.names
        self.index = {n: i for i, n in enumerate(self.names)}
        self.full = (1 << self.size) - 1
        first_file = sum(1 << (r * width) for r in range(height))
        self.not_first = self.full & ~first_file
        self.not_last = self.full & ~(first_file << (width - 1))
        self.near: tuple[int, ...] = tuple(self.spread(1 << i) & ~(1 << i) for i in range(self.size))
        # within[r][i]: the squares at king distance 1..r of i (r up to 6).
        rings: list[tuple[int, ...]] = [tuple(0 for _ in range(self.size))]
        for r in range(1, 7):
            rings.append(tuple(self._within(i, r) for i in range(self.size)))
        self.within: tuple[tuple[int, ...], ...] = tuple(rings)
        self.rank_masks: tuple[int, ...] = tuple(((1 << width) - 1) << (r * width) for r in range(height))

    def _within(self, index: int, reach: int) -> int:
        out = 0
        for s in self.grid.within(index, reach):
            out |= 1 << s
        return out

    def spread(self, mask: int) -> int:
        """`mask` grown by one king step in every direction (the squares themselves included)."""
        row = mask | ((mask & self.not_last) << 1) | ((mask & self.not_first) >> 1)
        return (row | (row << self.width) | (row >> self.width)) & self.full

    def distance(self, a: int, b: int) -> int:
        w = self.width
        return max(abs(a % w - b % w), abs(a // w - b // w))

    def file_of(self, index: int) -> int:
        return index % self.width

    def rank_of(self, index: int) -> int:
        return index // self.width

    def at(self, file: int, rank: int) -> int | None:
        if 0 <= file < self.width and 0 <= rank < self.height:
            return rank * self.width + file
        return None


def bits(mask: int) -> Iterator[int]:
    """The squares of `mask`, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


@cache
def geometry(width: int, height: int) -> Geometry:
    return Geometry(width, height)


__all__ = ["Geometry", "bits", "geometry"]
