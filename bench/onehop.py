"""EXPERIMENT, not product code: what the load bench gains if a write transaction costs one thread hop.

`bench/load.py --experiment onehop` applies this inside the bot process only. It measures the
bottleneck found by the load bench: `data.Database` holds one `asyncio.Lock` across every statement
of a transaction, and each statement is 2-3 round trips to aiosqlite's thread (execute, fetchone,
close), each of which waits for a turn of a busy event loop. A move's commit is ~14 such trips, so
the lock is held for ~14 loop turns and every read and write of every game queues behind it.

Here `_transaction` runs the very same `commit_action` / `update_match` code (unchanged: it is
driven synchronously) in aiosqlite's thread in one go: BEGIN IMMEDIATE, the statements, COMMIT,
one hop. Same SQL, same checks, same durability (synchronous=FULL, one fsync per move). If the
figures justify it, the owner of data/ can adopt the idea properly.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Coroutine
from typing import Any


class _Cursor:
    def __init__(self, cursor: sqlite3.Cursor) -> None:
        self._c = cursor

    async def fetchone(self) -> Any:
        return self._c.fetchone()

    async def fetchall(self) -> list[Any]:
        return self._c.fetchall()

    @property
    def rowcount(self) -> int:
        return self._c.rowcount

    async def close(self) -> None:
        self._c.close()


class _Result:
    """Awaitable and async context manager, like aiosqlite's, but runs at once on this thread."""

    def __init__(self, run: Callable[[], sqlite3.Cursor]) -> None:
        self._run = run
        self._cursor: _Cursor | None = None

    def __await__(self) -> Any:
        return self._now().__await__()

    async def _now(self) -> _Cursor:
        return _Cursor(self._run())

    async def __aenter__(self) -> _Cursor:
        self._cursor = _Cursor(self._run())
        return self._cursor

    async def __aexit__(self, *exc: object) -> None:
        if self._cursor is not None:
            await self._cursor.close()


class _SyncConnection:
    def __init__(self, raw: sqlite3.Connection) -> None:
        self._raw = raw

    def execute(self, sql: str, params: Any = ()) -> _Result:
        return _Result(lambda: self._raw.execute(sql, params))

    async def executemany(self, sql: str, rows: Any) -> _Cursor:
        return _Cursor(self._raw.executemany(sql, rows))


def _drive(coro: Coroutine[Any, Any, Any]) -> Any:
    """Run a coroutine that never really suspends (all its awaits finish at once)."""
    try:
        coro.send(None)
    except StopIteration as done:
        return done.value
    coro.close()
    raise RuntimeError("the transaction body suspended: it awaited something that is not SQL")


def apply() -> None:
    """Patch data.Database so each write transaction is a single trip to the database thread."""
    import data.db as dbmod

    async def commit_action(self: Any, match_id: int, **kw: Any) -> Any:
        return await _one_hop(self, dbmod.Database.__original_commit_action__, match_id, **kw)

    async def update_match(self: Any, match_id: int, **kw: Any) -> Any:
        return await _one_hop(self, dbmod.Database.__original_update_match__, match_id, **kw)

    async def _one_hop(self: Any, method: Any, match_id: int, **kw: Any) -> Any:
        raw = self._conn._conn
        sync = _SyncConnection(raw)

        class _Tx:
            async def __aenter__(self_inner) -> _SyncConnection:
                return sync

            async def __aexit__(self_inner, *exc: object) -> None:
                return None

        def work() -> Any:
            raw.execute(dbmod._BEGIN)
            try:
                shadow = _Shadow(self, _Tx)
                value = _drive(method(shadow, match_id, **kw))
            except BaseException:
                raw.execute("ROLLBACK")
                raise
            raw.execute("COMMIT")
            return value

        async with self._lock:
            return await self._conn._execute(work)

    class _Shadow:
        """The Database seen by the original method: same attributes, a transaction that is sync."""

        def __init__(self, db: Any, tx: type) -> None:
            self._db = db
            self._tx = tx

        def _transaction(self) -> Any:
            return self._tx()

        def __getattr__(self, name: str) -> Any:
            value = getattr(self._db, name)
            if callable(value) and hasattr(value, "__func__"):
                return value.__func__.__get__(self)
            return value

    if not hasattr(dbmod.Database, "__original_commit_action__"):
        dbmod.Database.__original_commit_action__ = dbmod.Database.commit_action  # type: ignore[attr-defined]
        dbmod.Database.__original_update_match__ = dbmod.Database.update_match  # type: ignore[attr-defined]
    dbmod.Database.commit_action = commit_action  # type: ignore[method-assign]
    dbmod.Database.update_match = update_match  # type: ignore[method-assign]
