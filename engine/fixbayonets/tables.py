"""Where moves and attacks reach from each square, computed once (R6-R9).

A move card's number is exact and measured along one of the eight straight lines; the squares a
move passes through and lands on are kept as a bit mask (bit i = square i), so "does it cross an
enemy?" is one AND. Attacks reach along the same lines at any distance in the card's range, or a
knight's jump, and nothing in between blocks them (R9).
"""

from __future__ import annotations

from engine.fixbayonets.cards import ATTACK, CARD_TYPES, Card
from engine.fixbayonets.model import FORWARD, GRID, SIDES
from engine.grid import KING_STEPS

SQUARES = range(GRID.size)
BIT = tuple(1 << i for i in SQUARES)
MAX_MOVE = 5


def _line(sq: int, df: int, dr: int, n: int) -> tuple[int, int] | None:
    """(destination, mask of the squares passed and landed on) for n steps, or None off the board."""
    mask = 0
    at: int | None = sq
    for _ in range(n):
        assert at is not None
        at = GRID.shift(at, df, dr)
        if at is None:
            return None
        mask |= BIT[at]
    assert at is not None
    return at, mask


# LINE_MOVES[n][sq]: (dst, mask) in each of the eight directions that stays on the board.
LINE_MOVES: tuple[tuple[tuple[tuple[int, int], ...], ...], ...] = tuple(
    tuple(tuple(m for df, dr in KING_STEPS if (m := _line(sq, df, dr, n)) is not None) for sq in SQUARES)
    for n in range(MAX_MOVE + 1)
)
# A knight's jump lands without touching the squares it jumps over (R8).
KNIGHT_MOVES: tuple[tuple[tuple[int, int], ...], ...] = tuple(
    tuple((d, BIT[d]) for d in GRID.knight[sq]) for sq in SQUARES
)
# FORWARD_MOVES[side][n][sq]: the straight-ahead move of n squares, or None.
FORWARD_MOVES: dict[str, tuple[tuple[tuple[int, int] | None, ...], ...]] = {
    side: tuple(tuple(_line(sq, 0, FORWARD[side], n) for sq in SQUARES) for n in range(MAX_MOVE + 1))
    for side in SIDES
}


def move_table(card: Card) -> tuple[tuple[tuple[int, int], ...], ...]:
    return KNIGHT_MOVES if card.knight else LINE_MOVES[card.lo]


def _targets(card: Card, sq: int) -> tuple[int, ...]:
    if card.knight:
        return GRID.knight[sq]
    out = []
    for df, dr in KING_STEPS:
        for n in range(card.lo, card.hi + 1):
            m = _line(sq, df, dr, n)
            if m is not None:
                out.append(m[0])
    return tuple(sorted(out))


# ATTACK_TARGETS[card index][sq]: every square the card can hit from sq.
ATTACK_TARGETS: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(_targets(c, sq) for sq in SQUARES) if c.kind == ATTACK else () for c in CARD_TYPES
)
ATTACK_MASKS: tuple[tuple[int, ...], ...] = tuple(
    tuple(sum(BIT[t] for t in ts) for ts in per_card) for per_card in ATTACK_TARGETS
)
