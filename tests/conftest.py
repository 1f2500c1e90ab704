"""Shared fixtures: the fake Discord (see tests/fakediscord/README.md) and the bot built as `python
bot.py` builds it (tests/botkit.py) for the bot's tests, and the two stores (an SQLite file, a
database on a throwaway PostgreSQL server) for the data and service tests."""

import asyncio
import gc
import itertools
import os
import threading
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import TypeVar

import aiosqlite
import asyncpg
import pytest

from data import Database
from tests import pgserver
from tests.botkit import botkit  # noqa: F401 (a pytest fixture)
from tests.clock import Clock
from tests.fakediscord.fixtures import fake_discord, start_bot  # noqa: F401 (pytest fixtures)


def pytest_unconfigure(config: pytest.Config) -> None:
    """A test that fails before closing its database keeps the connection alive in the failure's
    traceback, and aiosqlite's worker thread is not a daemon: the run would hang at exit instead
    of ending with its report. Stop whatever such threads are left, also those whose connection
    object is already gone (the thread waits on its queue for ever)."""
    for found in gc.get_objects():
        if isinstance(found, aiosqlite.Connection) and found._thread.is_alive():
            found.stop()
    for thread in threading.enumerate():
        target = getattr(thread, "_target", None)
        if target is aiosqlite.core._connection_worker_thread and thread.is_alive():
            queue = thread._args[0]  # type: ignore[attr-defined]
            queue.put_nowait((None, lambda: aiosqlite.core._STOP_RUNNING_SENTINEL))


T = TypeVar("T")

# --- Scheduling: the long tests first, spread over the workers -----------------------------------

# Files holding tests of several seconds each, with their tests' wall seconds summed (a whole run,
# `-n auto`, 2026-11-29 at a load of 5-6: only the proportions matter), longest first.
SLOW_FIRST: dict[str, float] = {
    "tests/test_every_game.py": 420,
    "tests/ai_puzzles/test_puzzles.py": 335,
    "tests/test_conformance.py": 319,
    "tests/fixbayonets/test_ai.py": 210,
    "tests/test_ai_verify.py": 138,
    "tests/test_cheats_ai.py": 125,
    "tests/test_pg_races.py": 122,
    "tests/battlefronts/test_ai.py": 120,
    "tests/test_engine_properties.py": 91,
    "tests/companycommander/test_render.py": 83,
    "tests/combinedarms/test_correspondence.py": 68,
    "tests/combinedarms/test_cities.py": 68,
    "tests/test_reliability.py": 58,
    "tests/test_review.py": 56,
    "tests/test_blockwars_correspondence.py": 53,
    "tests/test_store_faults.py": 45,
    "tests/test_multiprocess.py": 41,
    "tests/test_board_words.py": 36,
    "tests/test_fuzz_bot.py": 25,
}


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """The files of SLOW_FIRST first, in its order; under xdist, dealt out so that every worker's
    share begins with its part of them (`_dealt`). Each file keeps its tests together and in order."""
    rank = {path: n for n, path in enumerate(SLOW_FIRST)}
    root = config.rootpath

    def path_of(item: pytest.Item) -> str:
        return item.path.relative_to(root).as_posix()

    # stable: the files not named, and every file's tests, keep pytest's order
    items.sort(key=lambda item: rank.get(path_of(item), len(SLOW_FIRST)))
    workers = getattr(config, "workerinput", {}).get("workercount", 1)
    if workers > 1:
        items[:] = _dealt(items, [path_of(item) for item in items], workers)


def _dealt(items: list[T], paths: list[str], workers: int) -> list[T]:
    """The order for `--dist worksteal` (pyproject.toml). It hands each worker a contiguous share of
    the collection (the first len//workers tests to the first, and so on), each runs its share from
    the front, and a worker that runs dry takes the back half of the longest queue left. With every
    long file in the first share (the order above), the others ran theirs dry and stole from its
    back: the long files still queued there ran last, one worker busy while the others had nothing
    left (2026-11-29: the last 40 s of a 22-minute run). So the long files are dealt out, the longest
    first to the share with the least so far, and each share is its long files followed by the
    others in order; what is stolen at the end is short."""
    slow: list[list[T]] = [[] for _ in range(workers)]
    load = [0.0] * workers
    share_of: dict[str, int] = {}
    rest: list[T] = []
    for item, path in zip(items, paths, strict=True):
        if path not in SLOW_FIRST:
            rest.append(item)
            continue
        if path not in share_of:
            share_of[path] = min(range(workers), key=lambda w: load[w])
            load[share_of[path]] += SLOW_FIRST[path]
        slow[share_of[path]].append(item)
    dealt: list[T] = []
    left = len(items)
    for w in range(workers):
        size = left // (workers - w)  # as xdist's worksteal cuts the shares
        mine = slow[w] + rest[: max(0, size - len(slow[w]))]
        rest = rest[len(mine) - len(slow[w]) :]
        dealt += mine
        left -= len(mine)
    return dealt + rest


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """`-n auto` (as `make test` runs): half as many workers again as there are cores, 3 on CI's 2.
    Part of a worker's time is spent waiting, not computing: for bot, painter, thinker and
    PostgreSQL processes, for a server restart on purpose, for the fake Discord's quiet spell where a
    bot works in the background (2026-11-29: about 287 s of the two workers' 854 s; once the fake's
    wait ended on the bot's handler, 3 workers still took 220 s against 2 workers' 234 s, on a quiet
    machine). The third worker's tests compute meanwhile. An explicit `-n N` still means N workers."""
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    return max(1, cores * 3 // 2)


# --- PostgreSQL: a throwaway server per test session (tests/pgserver.py) --------------------------

_BINARIES = pgserver.find_binaries()
NO_POSTGRES = f"no PostgreSQL server binaries in {pgserver.SEARCHED}: the PostgreSQL tests are skipped"
_names = itertools.count()


def pytest_report_header(config: pytest.Config) -> str:
    """One line saying which stores the run covers."""
    if _BINARIES is None:
        return NO_POSTGRES
    return f"postgresql: a throwaway server from {_BINARIES} (SQLite and PostgreSQL tests both run)"


async def _admin(server: pgserver.PgServer, *statements: str) -> None:
    conn = await asyncpg.connect(server.url())
    try:
        for statement in statements:
            await conn.execute(statement)
    finally:
        await conn.close()


async def _make_template(server: pgserver.PgServer) -> None:
    await _admin(server, f"CREATE DATABASE {pgserver.TEMPLATE}")
    async with Database.open(server.url(pgserver.TEMPLATE)):
        pass


@pytest.fixture(scope="session")
def pg_server() -> Iterator[pgserver.PgServer]:
    """The session's server, with the migrated schema as a template (skips without binaries)."""
    if _BINARIES is None:
        pytest.skip(NO_POSTGRES)
    server = pgserver.PgServer(_BINARIES).start()
    try:
        asyncio.run(_make_template(server))
        yield server
    finally:
        server.stop()


# A test's database is dropped when the next one is made, not in its own teardown: the fixtures that
# close a test's stores are often torn down after this one (an autouse fixture is set up first), and a
# pool can then be half-way through opening a connection on the test's stopped loop. A DROP waits for
# that connection's backend, which waits for the client until the server's authentication_timeout:
# a whole minute for nothing (2026-11-28, tests/test_sealed.py). The session's server takes the
# last ones with it.
_made: list[str] = []


def _fresh_database(server: pgserver.PgServer, template: str) -> Iterator[str]:
    name = f"test_{os.getpid()}_{next(_names)}"
    earlier = [f"DROP DATABASE IF EXISTS {made} WITH (FORCE)" for made in _made]
    _made.clear()
    asyncio.run(_admin(server, *earlier, f"CREATE DATABASE {name} TEMPLATE {template}{server.copy_clause}"))
    _made.append(name)
    yield server.url(name)


@pytest.fixture
def pg_url(pg_server: pgserver.PgServer) -> Iterator[str]:
    """A fresh PostgreSQL database with every migration applied, dropped after the test."""
    yield from _fresh_database(pg_server, pgserver.TEMPLATE)


@pytest.fixture
def pg_empty_url(pg_server: pgserver.PgServer) -> Iterator[str]:
    """A fresh, empty PostgreSQL database (no migration applied yet)."""
    yield from _fresh_database(pg_server, "template0")


@pytest.fixture(params=["sqlite", "postgresql"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """Where a test's database lives, once per store: an SQLite file, or a fresh PostgreSQL database."""
    if request.param == "sqlite":
        return str(tmp_path / "nested" / "wargames.db")
    url: str = request.getfixturevalue("pg_url")
    return url


@pytest.fixture
async def store_world(store: str) -> AsyncIterator[tuple[Database, Clock]]:
    """The test's store opened, on a clock the test moves by hand; closed after the test."""
    clock = Clock()
    db = await Database.open(store, clock=clock)
    try:
        yield db, clock
    finally:
        await db.close()
