"""Chance version 2 is fixed by its text: known answers, an independent re-reading of the
definition (docs/fairness.md), and version 1 left exactly as old games were drawn."""

from __future__ import annotations

import hashlib
import hmac
import random
from collections import Counter

import pytest

from engine import chance

KEY = bytes(range(32))
SEED = chance.seed_of_key(KEY)
ZERO = b"\x00" * 32


def words(key: bytes, n: int):
    """The definition read afresh: HMAC-SHA256(K, "n:j"), four big-endian 64-bit words a block."""
    j = 0
    while True:
        block = hmac.new(key, f"{n}:{j}".encode(), hashlib.sha256).digest()
        for i in range(4):
            yield int.from_bytes(block[8 * i : 8 * i + 8], "big")
        j += 1


def below(stream, m: int) -> int:
    while True:
        w = next(stream)
        if w < 2**64 - 2**64 % m:
            return w % m


def test_known_answers_of_version_2():
    # Pinned outputs: a change to the generator's definition fails here (and old games would not
    # replay), so it must come as a version 3.
    assert [chance.roll(SEED, n) for n in range(12)] == [5, 4, 5, 4, 2, 4, 5, 4, 1, 3, 4, 5]
    assert chance.shuffled(list(range(10)), SEED, 0) == [9, 3, 7, 8, 2, 5, 1, 0, 6, 4]
    assert chance.sample(list("abcdefghij"), 3, SEED, 5) == ["j", "b", "a"]
    r = chance.rng(SEED, 7)
    assert [r.randint(1, 6) for _ in range(10)] == [4, 2, 6, 1, 4, 2, 3, 6, 3, 5]
    assert r.choice("xyz") == "x"
    assert chance.commitment(ZERO) == "66687aadf862bd776c8fc18b8e9f8e20089714856ee233b3902a591d0d5f2925"
    key = chance.game_key(ZERO, ["challenge:1", "accept:2"])
    assert key.hex() == "04fd73bdcba0b016f4c91a80c5d972e49aa2fed9789d6f1222fe726a21320f8c"
    assert chance.game_seed(ZERO, ["challenge:1", "accept:2"]) == (2 << 256) + int(key.hex(), 16)


def test_version_2_is_what_the_documentation_says():
    for n in (0, 1, 17, 4000):
        stream = words(KEY, n)
        assert chance.roll(SEED, n) == 1 + below(stream, 6)
        items = list(range(30))
        expected = list(items)
        stream = words(KEY, n)
        for i in range(len(expected) - 1, 0, -1):
            j = below(stream, i + 1)
            expected[i], expected[j] = expected[j], expected[i]
        assert chance.shuffled(items, SEED, n) == expected
        pool = list(items)
        stream = words(KEY, n)
        for i in range(5):
            j = i + below(stream, len(pool) - i)
            pool[i], pool[j] = pool[j], pool[i]
        assert chance.sample(items, 5, SEED, n) == pool[:5]


def test_rejection_draws_again_rather_than_favour_a_value():
    # Below 2**63 + 1 about half the words are refused; the answer is the first word accepted.
    m = 2**63 + 1
    limit = 2**64 - 2**64 % m
    n = next(n for n in range(100) if next(words(KEY, n)) >= limit)  # a draw whose first word is refused
    got = chance.rng(SEED, n).below(m)  # type: ignore[attr-defined]
    assert got == below(words(KEY, n), m)
    assert got != next(words(KEY, n)) % m


def test_dice_are_even():
    counts = Counter(chance.roll(SEED, n) for n in range(60_000))
    assert set(counts) == {1, 2, 3, 4, 5, 6}
    for face in range(1, 7):
        assert abs(counts[face] - 10_000) < 400  # about 4 standard deviations


def test_the_seed_carries_its_version():
    assert chance.version_of(SEED) == 2 and chance.key_of(SEED) == KEY
    for old in (0, 1, 2**62 - 1, -5, 2**256 - 1):
        assert chance.version_of(old) == 1
    with pytest.raises(ValueError):
        chance.seed_of_key(b"short")


def test_version_1_is_random_random_as_before():
    # Old games replay only if version 1 draws exactly what `Random(f"{seed}:{n}")` drew.
    for seed, n in ((0, 0), (123456789, 5), (2**61 + 7, 40)):
        items = list(range(52))
        expected = list(items)
        random.Random(f"{seed}:{n}").shuffle(expected)
        assert chance.shuffled(items, seed, n) == expected
        assert chance.roll(seed, n, 6) == random.Random(f"{seed}:{n}").randint(1, 6)
        assert chance.sample(items, 4, seed, n) == random.Random(f"{seed}:{n}").sample(items, 4)


def test_the_key_depends_on_every_input():
    base = chance.game_seed(ZERO, ["challenge:1", "accept:2"])
    assert chance.game_seed(ZERO, ["challenge:1", "accept:3"]) != base
    assert chance.game_seed(b"\x01" + ZERO[1:], ["challenge:1", "accept:2"]) != base
    assert chance.game_seed(ZERO, ["challenge:1accept:2"]) != base
