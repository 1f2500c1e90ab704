"""Seeded chance: every shuffle or roll of a game draws from `Random(f"{seed}:{n}")`.

`seed` is the match's seed and `n` a counter the game keeps in its state and bumps for each draw of
chance, so the seed plus the action log replays a game exactly, a restart in the middle of a game
changes nothing, and no game ever calls the global `random`. The string seeding is stable across
Python versions and processes (unlike `hash()`).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")


def rng(seed: int, n: int) -> random.Random:
    """The generator for the `n`-th draw of chance of the game seeded `seed`."""
    return random.Random(f"{seed}:{n}")


def shuffled(items: Sequence[T], seed: int, n: int) -> list[T]:
    """A copy of `items` in the order of the `n`-th shuffle."""
    out = list(items)
    rng(seed, n).shuffle(out)
    return out


def roll(seed: int, n: int, sides: int = 6) -> int:
    """The `n`-th die roll: 1..`sides`."""
    return rng(seed, n).randint(1, sides)


def sample(items: Sequence[T], k: int, seed: int, n: int) -> list[T]:
    """`k` distinct items chosen by the `n`-th draw (e.g. where the cities stand)."""
    return rng(seed, n).sample(list(items), k)


__all__ = ["rng", "roll", "sample", "shuffled"]
