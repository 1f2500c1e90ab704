"""Where terrain and cities lie: dealt from the match seed at the start, mirrored between the halves.

Every layout is point-symmetric (square i of one half matches square size-1-i of the other), so
neither side is favoured by the draw; both sides see it before designing their armies.

Codes per square: "" open ground, "B" bunker (+2 defence), "T" trench (+1), "N" No Man's Land (-1),
"D" difficult terrain (+1; tanks and mechanized infantry stop on entering). Cities are a separate
set of squares; with Difficult Terrain on they count as difficult too.
"""

from __future__ import annotations

from engine import chance
from engine.combinedarms.board import Geometry

DEFENCE_BONUS = {"": 0, "B": 2, "T": 1, "N": -1, "D": 1}
NAMES = {"B": "bunker", "T": "trench", "N": "No Man's Land", "D": "difficult terrain"}


def _half_squares(g: Geometry, lo: int, hi: int) -> list[int]:
    """Squares of the lower half on ranks lo..hi (zero-based, inclusive)."""
    return [r * g.width + f for r in range(lo, hi + 1) for f in range(g.width)]


def _mirror(g: Geometry, sq: int) -> int:
    return g.size - 1 - sq


def ww1_terrain(g: Geometry, seed: int, draw: int) -> list[str]:
    """Bunkers and trenches in each side's deployment area, No Man's Land towards the centre."""
    rng = chance.rng(seed, draw)
    half = g.height // 2
    out = [""] * g.size
    taken: set[int] = set()
    plan = (
        ("B", g.width // 4, 0, 2),
        ("T", g.width // 2, 1, max(1, half - 2)),
        ("N", (g.width * 3) // 8, 3, half - 1),
    )
    for code, count, lo, hi in plan:
        pool = [s for s in _half_squares(g, lo, hi) if s not in taken]
        for sq in rng.sample(pool, min(count, len(pool))):
            taken.add(sq)
            out[sq] = code
            out[_mirror(g, sq)] = code
    return out


def cities(g: Geometry, seed: int, draw: int) -> list[int]:
    """The text's four cities, on the two middle ranks, two on each, mirrored between them (on the
    Campaign's board too: W6, W13)."""
    rng = chance.rng(seed, draw)
    half = g.height // 2
    per_rank = 2
    files = rng.sample(range(g.width), per_rank)
    low = [(half - 1) * g.width + f for f in files]
    return sorted(low + [_mirror(g, s) for s in low])


def difficult(g: Geometry, seed: int, draw: int, avoid: list[int]) -> list[str]:
    """Difficult squares (mountains, bocage) in each half away from its back row, mirrored."""
    rng = chance.rng(seed, draw)
    half = g.height // 2
    count = 3 if g.width <= 8 else 5
    out = [""] * g.size
    pool = [s for s in _half_squares(g, 1, half - 1) if s not in avoid and _mirror(g, s) not in avoid]
    for sq in rng.sample(pool, count):
        out[sq] = "D"
        out[_mirror(g, sq)] = "D"
    return out


__all__ = ["DEFENCE_BONUS", "NAMES", "cities", "difficult", "ww1_terrain"]
