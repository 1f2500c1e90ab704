"""Seeded, versioned chance: every shuffle or roll of a game is the `n`-th draw of its seed.

`seed` is the game's seed and `n` a counter the game keeps in its state and bumps for each draw of
chance, so the seed plus the action log replays a game exactly, a restart in the middle of a game
changes nothing, and no game ever calls the global `random`.

Two versions of the generator exist, and the seed says which one a game uses, so no game needs to
know (docs/fairness.md has the whole definition, written to be re-implemented elsewhere):

- **Version 1** (every game stored before 2026-11-28): the `n`-th draw is `random.Random(f"{seed}:{n}")`
  and its `randint`, `choice`, `sample` and `shuffle`. Python does not promise those stay the same
  across releases; it is kept only so that old games replay as they were played.
- **Version 2** (every new game): the seed is `2 * 2**256 + K`, `K` a 32-byte game key (below,
  `game_seed`). Draw `n` is a stream of 64-bit words: word `i` is bytes `8*(i % 4)` to `8*(i % 4) + 8`
  (big-endian) of HMAC-SHA256(key=K, message=ASCII f"{n}:{i // 4}"). An integer below `m` takes the
  next word `w` and accepts it when `w < 2**64 - (2**64 % m)`, giving `w % m`, else it takes the
  next word (rejection, so no value is favoured). A die is 1 + below(sides); a choice is the item at
  below(len); a shuffle is Fisher-Yates from the last place down (place `i` swaps with below(i + 1));
  a sample of `k` is the first `k` places of a Fisher-Yates from the first place up (place `i` swaps
  with `i + below(len - i)`). The definition is the text above, not a library's behaviour, so the
  same seed gives the same game on every Python, for ever; tests/test_chance.py pins its outputs.

Commit and reveal (version 2): the bot draws a 32-byte secret `S` when a game is challenged and shows
its commitment, SHA-256(S) in hex, before anyone but the challenger acts. The players' inputs
(the ids Discord gave to the challenge and to the click that accepted it) come after; the game key is
K = HMAC-SHA256(key=S, message=the inputs joined by a newline, UTF-8). `S` is revealed when the game
ends, and anyone can then check the commitment and replay the game (engine/fairness.py).
"""

from __future__ import annotations

import hashlib
import hmac
import random
from collections.abc import MutableSequence, Sequence
from typing import TypeVar

T = TypeVar("T")

VERSION = 2  # the version new games get
VERSIONS = (1, 2)
_KEY_BITS = 256
_WORD = 1 << 64


def version_of(seed: int) -> int:
    """The generator version a game seed draws with."""
    return 2 if seed >> _KEY_BITS == 2 else 1


class Stream:
    """The draws of chance one draw number `n` gives: dice, choices, samples, shuffles."""

    def randint(self, a: int, b: int) -> int:
        """An integer from `a` to `b`, both included."""
        raise NotImplementedError

    def choice(self, items: Sequence[T]) -> T:
        """One of `items`."""
        raise NotImplementedError

    def sample(self, items: Sequence[T], k: int) -> list[T]:
        """`k` distinct items of `items`, in the order drawn."""
        raise NotImplementedError

    def shuffle(self, items: MutableSequence[T]) -> None:
        """Put `items` in a random order, in place."""
        raise NotImplementedError


class _Version1(Stream):
    """Python's `random.Random` seeded with the text f"{seed}:{n}": how games were drawn before."""

    __slots__ = ("_r",)

    def __init__(self, seed: int, n: int) -> None:
        self._r = random.Random(f"{seed}:{n}")

    def randint(self, a: int, b: int) -> int:
        return self._r.randint(a, b)

    def choice(self, items: Sequence[T]) -> T:
        return self._r.choice(items)

    def sample(self, items: Sequence[T], k: int) -> list[T]:
        return self._r.sample(items, k)

    def shuffle(self, items: MutableSequence[T]) -> None:
        self._r.shuffle(items)


class _Version2(Stream):
    """Counter-mode HMAC-SHA256 over the game key (the module's docstring defines it)."""

    __slots__ = ("_block", "_buffer", "_key", "_n")

    def __init__(self, key: bytes, n: int) -> None:
        self._key = key
        self._n = n
        self._block = 0
        self._buffer: list[int] = []

    def word(self) -> int:
        """The next 64-bit word of this draw."""
        if not self._buffer:
            digest = hmac.new(self._key, f"{self._n}:{self._block}".encode("ascii"), hashlib.sha256).digest()
            self._block += 1
            self._buffer = [int.from_bytes(digest[i : i + 8], "big") for i in (24, 16, 8, 0)]
        return self._buffer.pop()

    def below(self, m: int) -> int:
        """An integer in [0, m), without bias: words at or above the last whole multiple of m are
        drawn again."""
        if not 1 <= m <= _WORD:
            raise ValueError(f"cannot draw below {m}")
        limit = _WORD - _WORD % m
        while True:
            w = self.word()
            if w < limit:
                return w % m

    def randint(self, a: int, b: int) -> int:
        return a + self.below(b - a + 1)

    def choice(self, items: Sequence[T]) -> T:
        if not items:
            raise IndexError("cannot choose from an empty sequence")
        return items[self.below(len(items))]

    def sample(self, items: Sequence[T], k: int) -> list[T]:
        pool = list(items)
        if not 0 <= k <= len(pool):
            raise ValueError("sample larger than population or is negative")
        for i in range(k):
            j = i + self.below(len(pool) - i)
            pool[i], pool[j] = pool[j], pool[i]
        return pool[:k]

    def shuffle(self, items: MutableSequence[T]) -> None:
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]


def rng(seed: int, n: int) -> Stream:
    """The draws of the `n`-th draw of chance of the game seeded `seed`."""
    if version_of(seed) == 2:
        return _Version2(key_of(seed), n)
    return _Version1(seed, n)


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


# --- commit and reveal (version 2) ----------------------------------------------------------------


def commitment(secret: bytes) -> str:
    """What the bot shows when a game is challenged: SHA-256 of the secret, in hex."""
    return hashlib.sha256(secret).hexdigest()


def game_key(secret: bytes, inputs: Sequence[str]) -> bytes:
    """The game key from the bot's secret and the players' inputs (given after the commitment)."""
    return hmac.new(secret, "\n".join(inputs).encode("utf-8"), hashlib.sha256).digest()


def game_seed(secret: bytes, inputs: Sequence[str]) -> int:
    """The seed a version-2 game is played with: the version above the 256 bits of its key."""
    return seed_of_key(game_key(secret, inputs))


def seed_of_key(key: bytes) -> int:
    """The version-2 seed of a 32-byte game key."""
    if len(key) != _KEY_BITS // 8:
        raise ValueError("a game key is 32 bytes")
    return (2 << _KEY_BITS) | int.from_bytes(key, "big")


def key_of(seed: int) -> bytes:
    """The game key inside a version-2 seed."""
    return (seed & ((1 << _KEY_BITS) - 1)).to_bytes(_KEY_BITS // 8, "big")


__all__ = [
    "VERSION",
    "VERSIONS",
    "Stream",
    "commitment",
    "game_key",
    "game_seed",
    "key_of",
    "rng",
    "roll",
    "sample",
    "seed_of_key",
    "shuffled",
    "version_of",
]
