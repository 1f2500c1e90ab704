"""The SQLite store: one aiosqlite connection, WAL, group commit. The embedded default.

Concurrency model. One process, one connection, whose statements aiosqlite runs in order on one
thread. Every write is a transaction that travels to that thread inside a single job
(`SqliteDatabase._write`), so a read queued by another coroutine can never land in the middle of a
transaction and no lock is needed. One trip per transaction matters for speed: a trip waits for a
turn of the event loop, and under load a transaction of a dozen trips held the whole database for a
dozen turns. The transactions waiting when the thread gets to them share one
`BEGIN IMMEDIATE ... COMMIT` (group commit), each in a SAVEPOINT of its own, so a busy server pays
one fsync for many moves (docs/reliability.md). The version check in every match UPDATE (data/db.py)
keeps a second connection or process from overwriting a move all the same.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import sqlite3
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import aiosqlite

from data.db import Clock, Conflict, Database, Step, T, Transaction
from data.errors import DataError, MigrationError
from data.schema import MIGRATIONS_DIR, SQLITE, load_migrations, statements_for

_PRAGMA_BUSY_TIMEOUT = "PRAGMA busy_timeout = 5000"
_PRAGMA_WAL = "PRAGMA journal_mode = WAL"
_PRAGMA_JOURNAL_MODE = "PRAGMA journal_mode"
_PRAGMA_FOREIGN_KEYS = "PRAGMA foreign_keys = ON"
_PRAGMA_NO_FOREIGN_KEYS = "PRAGMA foreign_keys = OFF"
_PRAGMA_FOREIGN_KEY_CHECK = "PRAGMA foreign_key_check"
# FULL, not NORMAL: a move the bot has acknowledged must survive a power cut as well.
_PRAGMA_SYNCHRONOUS = "PRAGMA synchronous = FULL"
_PRAGMA_USER_VERSION = "PRAGMA user_version"
_PRAGMA_QUERY_ONLY = "PRAGMA query_only = ON"
_BEGIN = "BEGIN IMMEDIATE"
_COMMIT = "COMMIT"
_SAVEPOINT = "SAVEPOINT one_transaction"
_ROLLBACK_TO_SAVEPOINT = "ROLLBACK TO one_transaction"
_RELEASE_SAVEPOINT = "RELEASE one_transaction"
_UNIQUE_FAILED = "UNIQUE constraint failed: "


def _unique_on(error: sqlite3.IntegrityError) -> str | None:
    """ "matches.channel_id" of "UNIQUE constraint failed: matches.channel_id", else None."""
    text = str(error)
    return text[len(_UNIQUE_FAILED) :].strip() if text.startswith(_UNIQUE_FAILED) else None


def _step(conn: sqlite3.Connection, step: Step) -> Any:
    if step.kind == "many":
        # sql-check: every Step holds a module-level constant of data/db.py
        conn.executemany(step.sql, step.params)
        return None
    # sql-check: as above
    cursor = conn.execute(step.sql, step.params)
    if step.kind == "one":
        found = cursor.fetchall()  # all: a RETURNING statement finishes only when read to its end
        return found[0] if found else None
    if step.kind == "rows":
        return cursor.fetchall()
    return cursor.rowcount


def drive(conn: sqlite3.Connection, transaction: Transaction[T]) -> T:
    """Run a transaction of data/db.py on the database thread, step by step."""
    try:
        step = next(transaction)
        while True:
            try:
                result = _step(conn, step)
            except sqlite3.IntegrityError as exc:
                on = _unique_on(exc)
                if on is None:
                    raise
                step = transaction.throw(Conflict(on))
                continue
            step = transaction.send(result)
    except StopIteration as stop:
        value: T = stop.value
        return value


class SqliteDatabase(Database):
    """The store of one process: an SQLite file in WAL mode."""

    store = "sqlite"

    def __init__(self, conn: aiosqlite.Connection, path: Path, clock: Clock) -> None:
        """Use `Database.open`; this only wires an already configured connection."""
        super().__init__(clock)
        self._conn = conn
        # Reads go to a second connection on a thread of its own (`_query`); until it is open
        # (migrations), to the writer.
        self._reader: aiosqlite.Connection = conn
        self.path = path
        # Group commit (see `_write`): transactions waiting for the database thread.
        self._batch: list[tuple[Callable[[sqlite3.Connection], Any], asyncio.Future[Any]]] = []
        self._batch_lock = threading.Lock()  # the loop adds to the batch, the database thread takes it
        self._flush_queued = False
        self._flushes: set[asyncio.Future[None]] = set()
        self._closing: asyncio.Future[None] | None = None

    @classmethod
    async def connect(
        cls,
        target: str | os.PathLike[str],
        *,
        clock: Clock = time.time,
        migrations_dir: Path = MIGRATIONS_DIR,
    ) -> SqliteDatabase:
        """Open (creating the parent directory), switch to WAL and apply pending migrations."""
        path = Path(target)
        path.parent.mkdir(parents=True, exist_ok=True)
        await asyncio.to_thread(_create_private, path)
        # isolation_level=None: we issue BEGIN IMMEDIATE/COMMIT ourselves; sqlite3's implicit
        # transactions would start late (deferred) and could not be upgraded under contention.
        conn = await aiosqlite.connect(path, isolation_level=None)
        try:
            conn.row_factory = sqlite3.Row
            await conn.execute(_PRAGMA_BUSY_TIMEOUT)
            async with conn.execute(_PRAGMA_WAL) as cursor:
                row = await cursor.fetchone()
            if row is None or str(row[0]).lower() != "wal":
                raise DataError(f"could not switch {path} to WAL (got {row and row[0]!r})")
            await conn.execute(_PRAGMA_FOREIGN_KEYS)
            await conn.execute(_PRAGMA_SYNCHRONOUS)
            db = cls(conn, path, clock)
            await db._migrate(migrations_dir)
            db._reader = await _open_reader(path)
        except BaseException:
            await conn.close()
            raise
        return db

    async def close(self) -> None:
        """Close the connection (after the transactions already waiting); safe to call twice, also
        at once: discord.py's connect task closes the bot while a shutdown is closing it too, and a
        second aiosqlite close queued behind the first waits for ever on a stopped thread."""
        if self._closing is None:
            self._closing = asyncio.ensure_future(self._close())
        await asyncio.shield(self._closing)

    async def _close(self) -> None:
        while self._flushes:
            await asyncio.gather(*self._flushes, return_exceptions=True)
        if self._reader is not self._conn:
            await self._reader.close()
        await self._conn.close()

    async def schema_version(self) -> int:
        """The applied migration number (PRAGMA user_version)."""
        found = await self._query(_PRAGMA_USER_VERSION, ())
        return int(found[0][0]) if found else 0

    async def journal_mode(self) -> str:
        """The journal mode in force ('wal'), exposed for health checks and tests."""
        found = await self._query(_PRAGMA_JOURNAL_MODE, ())
        return str(found[0][0]) if found else ""

    async def _migrate(self, directory: Path) -> None:
        """Each pending migration in its own transaction, with foreign keys off around it (SQLite
        can switch them only outside a transaction): a migration that rebuilds a table (new table,
        copy, drop, rename: SQLite's way to change a CHECK) must not have the drop delete or refuse
        the rows that refer to it. Before its commit, `PRAGMA foreign_key_check` must find no
        reference the migration broke, or it is rolled back whole (docs/architecture.md)."""
        migrations = load_migrations(directory)
        await self._conn.execute(_PRAGMA_NO_FOREIGN_KEYS)
        try:
            for number, path in migrations:
                await self._write(self._applying(number, path, len(migrations)))
        finally:
            await self._conn.execute(_PRAGMA_FOREIGN_KEYS)

    @staticmethod
    def _applying(number: int, path: Path, latest: int) -> Callable[[sqlite3.Connection], None]:
        """The transaction applying migration `number` unless the database already has it."""
        statements = [statement for statement, _ in statements_for(path.read_text(encoding="utf-8"), SQLITE)]

        def apply(conn: sqlite3.Connection) -> None:
            # Read inside the write transaction: two processes starting together apply once.
            row = conn.execute(_PRAGMA_USER_VERSION).fetchone()
            current = int(row[0]) if row else 0
            if current > latest:
                raise MigrationError(
                    f"the database is at schema version {current}, newer than this code "
                    f"({latest}): run the newer bot, or restore a backup of this version"
                )
            if current >= number:
                return
            # a reference broken before (an old file) is not this migration's doing
            broken_before = {tuple(r) for r in conn.execute(_PRAGMA_FOREIGN_KEY_CHECK)}
            for statement in statements:
                # sql-check: statements come from the trusted migration files, not from users
                conn.execute(statement)
            now_broken = [tuple(r) for r in conn.execute(_PRAGMA_FOREIGN_KEY_CHECK)]
            broken = [r for r in now_broken if r not in broken_before]
            if broken:
                table, rowid, parent, _ = broken[0]
                many = f"{len(broken)} rows" if len(broken) > 1 else "1 row"
                raise MigrationError(
                    f"{path.name} left {many} referring to nothing, the first in {table} "
                    f"(rowid {rowid}) to {parent}: it was not applied"
                )
            row = conn.execute(_PRAGMA_USER_VERSION).fetchone()
            if row is None or int(row[0]) != number:
                raise MigrationError(f"{path.name} must set user_version to {number} (its own number)")

        return apply

    async def _transact(self, work: Callable[[], Transaction[T]]) -> T:
        return await self._write(lambda conn: drive(conn, work()))

    async def _write(self, work: Callable[[sqlite3.Connection], T]) -> T:
        """Run `work` as one transaction, committed whole or rolled back whole, in ONE thread trip.

        Group commit: every transaction waiting when the database thread gets to them is run in
        one `BEGIN IMMEDIATE ... COMMIT`, each inside a SAVEPOINT of its own, so each still lands
        whole or not at all, but the batch pays for one fsync. Under load the fsync per move was
        what queued moves behind each other (a second per move at the 99th percentile in
        bench/load.py). A caller hears back only after the COMMIT: an acknowledged move is on disk.

        aiosqlite has no public call for "run this function on the connection's thread", so this is
        the one place that uses its `_execute` (pinned version; every data test goes through it).
        A caller cancelled while the job runs does not stop it: the transaction still ends whole,
        and the version check makes a retry safe either way.
        """
        loop = asyncio.get_running_loop()
        done: asyncio.Future[T] = loop.create_future()
        with self._batch_lock:
            self._batch.append((work, done))
            start = not self._flush_queued
            self._flush_queued = True
        if start:
            flush = asyncio.ensure_future(self._conn._execute(self._flush, loop))
            self._flushes.add(flush)
            flush.add_done_callback(self._flush_ended)
        return await done

    def _take_batch(self) -> list[tuple[Callable[[sqlite3.Connection], Any], asyncio.Future[Any]]]:
        """Everything waiting to be committed; whoever writes next queues a new flush."""
        with self._batch_lock:
            batch, self._batch = self._batch, []
            self._flush_queued = False
        return batch

    def _flush_ended(self, flush: asyncio.Future[None]) -> None:
        """If the job could not even start (the connection was closed), fail whoever waits for it."""
        self._flushes.discard(flush)
        if flush.cancelled() or flush.exception() is None:
            return
        batch = self._take_batch()
        error = flush.exception()
        assert error is not None
        _settle([(done, None, error) for _, done in batch])

    def _flush(self, loop: asyncio.AbstractEventLoop) -> None:
        """On the database thread: commit every waiting transaction together, then tell each caller."""
        batch = self._take_batch()
        conn = self._conn._conn
        outcomes: list[tuple[asyncio.Future[Any], Any, BaseException | None]] = []
        try:
            conn.execute(_BEGIN)
            for work, done in batch:
                conn.execute(_SAVEPOINT)
                try:
                    result = work(conn)
                except BaseException as exc:  # this transaction only: the others go on
                    conn.execute(_ROLLBACK_TO_SAVEPOINT)
                    conn.execute(_RELEASE_SAVEPOINT)
                    outcomes.append((done, None, exc))
                else:
                    conn.execute(_RELEASE_SAVEPOINT)
                    outcomes.append((done, result, None))
            conn.execute(_COMMIT)
            self.commits += 1
        except BaseException as exc:  # BEGIN or COMMIT failed (disk full, I/O error): nobody landed
            if conn.in_transaction:
                conn.rollback()
            outcomes = [(done, None, exc) for _, done in batch]
        loop.call_soon_threadsafe(_settle, outcomes)

    async def _query(self, sql: str, params: Any = ()) -> list[Any]:
        """One statement on the reader connection: it sees every transaction committed so far.

        Reads have a connection and a thread of their own (WAL lets readers run beside the writer)
        because a read queued on the writer's thread waited for the group commit in front of it,
        fsync included: a move reads the players' time away before it commits, so under load every
        move waited for two commits instead of one (answer p99 +30 %, docs/performance.md)."""
        # sql-check: every caller passes a module-level constant (tests/test_data.py checks it)
        return list(await self._reader.execute_fetchall(sql, params))


def _create_private(path: Path) -> None:
    """A new store is its owner's alone, as a backup is (data/backup.py): it holds every game's
    secret seed (the dice and cards to come) and every hand. SQLite gives its -wal and -shm files
    the database's own permissions. An existing file keeps the ones its admin chose."""
    with contextlib.suppress(FileExistsError):
        path.touch(mode=0o600, exist_ok=False)


async def _open_reader(path: Path) -> aiosqlite.Connection:
    """A connection that only reads (WAL: it never waits for the writer, nor the writer for it)."""
    reader = await aiosqlite.connect(path, isolation_level=None)
    try:
        reader.row_factory = sqlite3.Row
        await reader.execute(_PRAGMA_BUSY_TIMEOUT)
        await reader.execute(_PRAGMA_QUERY_ONLY)
    except BaseException:
        await reader.close()
        raise
    return reader


def _settle(outcomes: list[tuple[asyncio.Future[Any], Any, BaseException | None]]) -> None:
    """On the event loop: hand each caller of a group commit its own result or error."""
    for done, result, error in outcomes:
        if done.cancelled():
            continue
        if error is not None:
            done.set_exception(error)
        else:
            done.set_result(result)
