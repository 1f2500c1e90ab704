"""The suite's own order under xdist (tests/conftest.py): every worker's share begins with its part
of the long files, so what is left to steal at the end is short."""

from __future__ import annotations

from tests.conftest import SLOW_FIRST, _dealt


def _shares(order: list[str], workers: int) -> list[list[str]]:
    """The contiguous shares xdist's worksteal hands out at the start."""
    shares, left, start = [], len(order), 0
    for w in range(workers):
        size = left // (workers - w)
        shares.append(order[start : start + size])
        start, left = start + size, left - size
    return shares


def test_each_share_begins_with_long_files_and_keeps_every_test_once() -> None:
    slow = list(SLOW_FIRST)
    paths = [p for p in slow for _ in range(3)] + [f"tests/test_short_{n}.py" for n in range(300)]
    items = [f"{p}::t{n}" for n, p in enumerate(paths)]
    for workers in (2, 3):
        order = _dealt(items, paths, workers)
        assert sorted(order) == sorted(items)
        shares = _shares(order, workers)
        for share in shares:
            files = [item.split("::")[0] for item in share]
            long = [f for f in files if f in SLOW_FIRST]
            assert long and files[: len(long)] == long  # the long ones first, then the short
            assert [i for i in share if i.split("::")[0] in SLOW_FIRST] == [
                i for i in items if i in share and i.split("::")[0] in SLOW_FIRST
            ]  # each file's tests together and in their order
        weights = [sum(SLOW_FIRST.get(f, 0) for f in {i.split("::")[0] for i in s}) for s in shares]
        assert max(weights) - min(weights) <= max(SLOW_FIRST.values()), weights
