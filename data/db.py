"""The only module that talks SQL: one aiosqlite connection, WAL, numbered migrations.

Concurrency model. The bot runs one process with one connection, whose statements aiosqlite
runs in order on one thread. Every write is a transaction that travels to that thread inside a
single job (`Database._write`), so a read queued by another coroutine can never land in the middle
of a transaction and no lock is needed. One trip per transaction matters for speed: a trip waits
for a turn of the event loop, and under load a transaction of a dozen trips held the whole
database for a dozen turns. The transactions waiting when the thread gets to them share one
`BEGIN IMMEDIATE ... COMMIT` (group commit), each in a SAVEPOINT of its own, so a busy server pays
one fsync for many moves (docs/reliability.md). Correctness of moves
does not rest on the ordering, though: every change to a match is `UPDATE ... WHERE id = ? AND
version = ?`, so a second writer (another coroutine, connection or process) that loaded the same
version loses with `StaleVersion` instead of overwriting the winner.

Every query is a string literal with `?`/`:name` parameters; tests/test_data.py checks the
source so that no SQL is ever built with f-strings, `%` or `.format`.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import os
import re
import sqlite3
import threading
import time
from collections.abc import Awaitable, Callable, Generator, Iterable, Sequence
from pathlib import Path
from types import TracebackType
from typing import Any, TypeVar

import aiosqlite

from data import elo
from data.errors import (
    ChannelBusy,
    DataError,
    DuplicateInteraction,
    MatchNotFound,
    MigrationError,
    StaleVersion,
)
from data.models import (
    ActionRecord,
    AiRecord,
    Away,
    Match,
    NewAction,
    PlayerStats,
    Result,
    Status,
    UserPrefs,
)

MIGRATIONS_DIR = Path(__file__).with_name("migrations")
_MIGRATION_NAME = re.compile(r"^(\d{4})_[A-Za-z0-9_]+\.sql$")
_SQLITE_INT_MIN, _SQLITE_INT_MAX = -(2**63), 2**63 - 1

Clock = Callable[[], float]
BeforeCommit = Callable[[], None]
T = TypeVar("T")

# Fields a caller may change on an existing match. The rest are fixed at challenge time
# (guild, game, options, seed, players) or owned by this module (version, timestamps), and
# winner/result only change through a `Result`, so stats can never disagree with a match.
MUTABLE_FIELDS: frozenset[str] = frozenset(
    {
        "channel_id",
        "challenger_side",
        "sides",
        "status",
        "turn_player_id",
        "deadline",
        "reminder_at",
        "reminded",
        "turn_seconds",
        "snapshot",
        "challenge_expires_at",
        "quiet_from",
        "ai_player_id",
        "ai_level",
    }
)

# --- SQL ------------------------------------------------------------------------------------

_PRAGMA_BUSY_TIMEOUT = "PRAGMA busy_timeout = 5000"
_PRAGMA_WAL = "PRAGMA journal_mode = WAL"
_PRAGMA_JOURNAL_MODE = "PRAGMA journal_mode"
_PRAGMA_FOREIGN_KEYS = "PRAGMA foreign_keys = ON"
# FULL, not NORMAL: a move the bot has acknowledged must survive a power cut as well.
_PRAGMA_SYNCHRONOUS = "PRAGMA synchronous = FULL"
_PRAGMA_USER_VERSION = "PRAGMA user_version"
_BEGIN = "BEGIN IMMEDIATE"
_COMMIT = "COMMIT"
_SAVEPOINT = "SAVEPOINT one_transaction"
_ROLLBACK_TO_SAVEPOINT = "ROLLBACK TO one_transaction"
_RELEASE_SAVEPOINT = "RELEASE one_transaction"

_INSERT_MATCH = """
INSERT INTO matches (
    guild_id, channel_id, game, options, seed, challenger_id, opponent_id, challenger_side,
    sides, status, turn_seconds, version, challenge_expires_at, ai_player_id, ai_level,
    created_at, updated_at
) VALUES (
    :guild_id, :channel_id, :game, :options, :seed, :challenger_id, :opponent_id, :challenger_side,
    '{}', 'challenged', :turn_seconds, 0, :challenge_expires_at, :ai_player_id, :ai_level,
    :now, :now
)
"""

_SELECT_MATCH = "SELECT * FROM matches WHERE id = ?"

_SELECT_CHANNEL_MATCH = "SELECT * FROM matches WHERE channel_id = ? AND status IN ('challenged', 'active')"

_LIST_MATCHES = """
SELECT * FROM matches
WHERE (:guild_id IS NULL OR guild_id = :guild_id)
  AND (:channel_id IS NULL OR channel_id = :channel_id)
  AND (:player_id IS NULL OR challenger_id = :player_id OR opponent_id = :player_id)
  AND (:statuses IS NULL OR status IN (SELECT value FROM json_each(:statuses)))
ORDER BY id DESC
LIMIT :limit
"""

# The whole mutable row is written back with one static statement: no SQL is assembled from
# the names of the changed fields.
_UPDATE_MATCH = """
UPDATE matches SET
    channel_id = :channel_id,
    challenger_side = :challenger_side,
    sides = :sides,
    status = :status,
    turn_player_id = :turn_player_id,
    deadline = :deadline,
    reminder_at = :reminder_at,
    reminded = :reminded,
    turn_seconds = :turn_seconds,
    version = :version,
    snapshot = :snapshot,
    winner_id = :winner_id,
    result_reason = :result_reason,
    challenge_expires_at = :challenge_expires_at,
    ai_player_id = :ai_player_id,
    ai_level = :ai_level,
    quiet_from = :quiet_from,
    updated_at = :updated_at
WHERE id = :id AND version = :expected_version
"""

_INTERACTION_SEEN = "SELECT 1 FROM actions WHERE interaction_id = ?"
_NEXT_SEQ = "SELECT COALESCE(MAX(seq), 0) + 1 FROM actions WHERE match_id = ?"
_INSERT_ACTION = """
INSERT INTO actions (match_id, seq, player_id, notation, interaction_id, at, version)
VALUES (?, ?, ?, ?, ?, ?, ?)
"""
_SELECT_ACTIONS = "SELECT * FROM actions WHERE match_id = ? ORDER BY seq"

_DUE_DEADLINES = """
SELECT * FROM matches
WHERE status = 'active' AND deadline IS NOT NULL AND deadline <= ?
ORDER BY deadline, id
"""
# A reminder whose deadline has also passed is skipped: the deadline sweep acts on that match.
_DUE_REMINDERS = """
SELECT * FROM matches
WHERE status = 'active' AND reminded = 0 AND reminder_at IS NOT NULL AND reminder_at <= :now
  AND (deadline IS NULL OR deadline > :now)
ORDER BY reminder_at, id
"""
_MARK_REMINDED = "UPDATE matches SET reminded = 1 WHERE id = ? AND version = ?"
_EXPIRED_CHALLENGES = """
SELECT * FROM matches
WHERE status = 'challenged' AND challenge_expires_at IS NOT NULL AND challenge_expires_at <= ?
ORDER BY challenge_expires_at, id
"""

_OWE_BOARD = (
    "INSERT OR IGNORE INTO owed_boards (match_id, version, channel_id, created_at) VALUES (?, ?, ?, ?)"
)
_BOARD_DELIVERED = "DELETE FROM owed_boards WHERE match_id = ? AND version <= ?"
_OWED_BOARDS = """
SELECT match_id, MAX(version) AS version, channel_id FROM owed_boards
WHERE created_at <= ?
GROUP BY match_id, channel_id
ORDER BY MIN(created_at), match_id
"""

# Moving a clock does not bump the version, as a reminder does not: the board's buttons stay current.
_SHIFT_CLOCK = """
UPDATE matches SET deadline = ?, reminder_at = ?, reminded = 0
WHERE id = ? AND version = ? AND status = 'active'
"""
_TIME_AWAY = """
SELECT guild_id, user_id, start_at, end_at FROM time_away
WHERE guild_id = ? AND user_id = ? AND end_at > ?
ORDER BY start_at
"""
_END_TIME_AWAY = "UPDATE time_away SET end_at = ? WHERE guild_id = ? AND user_id = ? AND end_at > ?"
_START_TIME_AWAY = "INSERT INTO time_away (guild_id, user_id, start_at, end_at) VALUES (?, ?, ?, ?)"

_SELECT_STATS = "SELECT * FROM player_stats WHERE guild_id = ? AND game = ? AND user_id = ?"
_UPSERT_STATS = """
INSERT INTO player_stats (guild_id, game, user_id, wins, losses, draws, rating, updated_at)
VALUES (?, ?, ?, ?, ?, ?, ?, ?)
ON CONFLICT (guild_id, game, user_id) DO UPDATE SET
    wins = wins + excluded.wins,
    losses = losses + excluded.losses,
    draws = draws + excluded.draws,
    rating = excluded.rating,
    updated_at = excluded.updated_at
"""
_LEADERBOARD = """
SELECT * FROM player_stats WHERE guild_id = ? AND game = ?
ORDER BY rating DESC, wins DESC, user_id ASC
LIMIT ?
"""

# The AI's record per level: its games against people, read from the finished matches (the AI has
# no stats row of its own that counts: its rating is its level's, fixed).
_AI_RECORDS = """
SELECT ai_level,
    SUM(CASE WHEN winner_id = ai_player_id THEN 1 ELSE 0 END) AS wins,
    SUM(CASE WHEN winner_id IS NOT NULL AND winner_id <> ai_player_id THEN 1 ELSE 0 END) AS losses,
    SUM(CASE WHEN winner_id IS NULL THEN 1 ELSE 0 END) AS draws
FROM matches
WHERE guild_id = ? AND game = ? AND status = 'finished' AND ai_player_id IS NOT NULL
    AND ai_level IS NOT NULL AND challenger_id <> opponent_id
GROUP BY ai_level
ORDER BY ai_level
"""

_SELECT_USER = "SELECT * FROM users WHERE user_id = ?"
_UPSERT_DM_ON_TURN = """
INSERT INTO users (user_id, dm_on_turn, created_at, updated_at) VALUES (?, ?, ?, ?)
ON CONFLICT (user_id) DO UPDATE SET dm_on_turn = excluded.dm_on_turn, updated_at = excluded.updated_at
"""


# --- helpers ----------------------------------------------------------------------------------


def _dumps(value: Any) -> str:
    # allow_nan=False: NaN is not JSON, and the json_valid() CHECK would refuse it anyway.
    return json.dumps(value, allow_nan=False, separators=(",", ":"))


def _loads_opt(text: str | None) -> Any:
    return None if text is None else json.loads(text)


def _check_int64(name: str, value: int) -> None:
    # SQLite integers are signed 64-bit; fail with a clear message instead of OverflowError.
    if not _SQLITE_INT_MIN <= value <= _SQLITE_INT_MAX:
        raise ValueError(f"{name}={value} does not fit a signed 64-bit integer")


def _row_to_match(row: sqlite3.Row) -> Match:
    return Match(
        id=row["id"],
        guild_id=row["guild_id"],
        channel_id=row["channel_id"],
        game=row["game"],
        options=json.loads(row["options"]),
        seed=row["seed"],
        challenger_id=row["challenger_id"],
        opponent_id=row["opponent_id"],
        challenger_side=row["challenger_side"],
        sides={str(k): int(v) for k, v in json.loads(row["sides"]).items()},
        status=Status(row["status"]),
        turn_player_id=row["turn_player_id"],
        deadline=row["deadline"],
        reminder_at=row["reminder_at"],
        reminded=bool(row["reminded"]),
        turn_seconds=row["turn_seconds"],
        version=row["version"],
        snapshot=_loads_opt(row["snapshot"]),
        winner_id=row["winner_id"],
        result_reason=row["result_reason"],
        challenge_expires_at=row["challenge_expires_at"],
        ai_player_id=row["ai_player_id"],
        ai_level=row["ai_level"],
        created_at=row["created_at"],
        updated_at=row["updated_at"],
        quiet_from=row["quiet_from"],
    )


def _match_params(match: Match, expected_version: int) -> dict[str, Any]:
    return {
        "id": match.id,
        "expected_version": expected_version,
        "channel_id": match.channel_id,
        "challenger_side": match.challenger_side,
        "sides": _dumps(match.sides),
        "status": str(match.status),
        "turn_player_id": match.turn_player_id,
        "deadline": match.deadline,
        "reminder_at": match.reminder_at,
        "reminded": int(match.reminded),
        "turn_seconds": match.turn_seconds,
        "version": match.version,
        "snapshot": None if match.snapshot is None else _dumps(match.snapshot),
        "winner_id": match.winner_id,
        "result_reason": match.result_reason,
        "challenge_expires_at": match.challenge_expires_at,
        "ai_player_id": match.ai_player_id,
        "ai_level": match.ai_level,
        "quiet_from": match.quiet_from,
        "updated_at": match.updated_at,
    }


def _row_to_stats(row: sqlite3.Row) -> PlayerStats:
    return PlayerStats(
        guild_id=row["guild_id"],
        game=row["game"],
        user_id=row["user_id"],
        wins=row["wins"],
        losses=row["losses"],
        draws=row["draws"],
        rating=row["rating"],
    )


def _row_to_action(row: sqlite3.Row) -> ActionRecord:
    return ActionRecord(
        match_id=row["match_id"],
        seq=row["seq"],
        player_id=row["player_id"],
        notation=row["notation"],
        interaction_id=row["interaction_id"],
        at=row["at"],
        version=row["version"],
    )


def _normalise_changes(changes: dict[str, Any]) -> dict[str, Any]:
    """Validate caller changes early, so a typo fails loudly instead of being silently dropped."""
    unknown = set(changes) - MUTABLE_FIELDS
    if unknown:
        raise TypeError(f"cannot change {sorted(unknown)}; changeable: {sorted(MUTABLE_FIELDS)}")
    out = dict(changes)
    if "status" in out:
        out["status"] = Status(out["status"])
        if out["status"] is Status.FINISHED:
            raise ValueError("finish a match with result=Result(...) so its stats are recorded with it")
    if "sides" in out:
        out["sides"] = {str(k): int(v) for k, v in dict(out["sides"]).items()}
    # A new clock means a new reminder is owed, unless the caller says otherwise.
    if ("deadline" in out or "reminder_at" in out) and "reminded" not in out:
        out["reminded"] = False
    if "reminded" in out:
        out["reminded"] = bool(out["reminded"])
    for key in ("channel_id", "turn_player_id", "ai_player_id"):
        if out.get(key) is not None:
            _check_int64(key, out[key])
    if "turn_seconds" in out and int(out["turn_seconds"]) <= 0:
        raise ValueError("turn_seconds must be positive")
    return out


def _split_statements(script: str) -> list[str]:
    """Cut a migration into statements; sqlite3.complete_statement knows about triggers and quotes."""
    statements: list[str] = []
    buffer = ""
    for char in script:
        buffer += char
        if char == ";" and sqlite3.complete_statement(buffer):
            statements.append(buffer.strip())
            buffer = ""
    rest = "\n".join(line for line in buffer.splitlines() if not line.strip().startswith("--"))
    if rest.strip():
        raise MigrationError(f"migration ends with an incomplete statement: {rest.strip()[:60]!r}")
    return statements


def load_migrations(directory: Path = MIGRATIONS_DIR) -> list[tuple[int, Path]]:
    """Numbered migration files 0001_*.sql, 0002_*.sql... which must have no gaps."""
    found: list[tuple[int, Path]] = []
    for path in directory.iterdir():
        match = _MIGRATION_NAME.match(path.name)
        if match:
            found.append((int(match.group(1)), path))
        elif path.suffix == ".sql":
            raise MigrationError(f"migration file {path.name} is not named NNNN_name.sql")
    found.sort()
    numbers = [number for number, _ in found]
    if numbers != list(range(1, len(found) + 1)):
        raise MigrationError(f"migrations must be numbered 1..n without gaps, found {numbers}")
    return found


# --- the database -------------------------------------------------------------------------------


class _Opening:
    """Lets `Database.open` be awaited or used directly as `async with Database.open(p) as db`."""

    def __init__(self, coro_factory: Callable[[], Awaitable[Database]]) -> None:
        self._factory = coro_factory
        self._db: Database | None = None

    def __await__(self) -> Generator[Any, None, Database]:
        return self._factory().__await__()

    async def __aenter__(self) -> Database:
        self._db = await self._factory()
        return self._db

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        if self._db is not None:
            await self._db.close()


class Database:
    """Storage for matches, the action log, player stats and preferences.

    Open with `db = await Database.open(path)` (or `async with Database.open(path) as db`).
    Methods that stamp times take `now` (unix seconds); it defaults to the injected clock,
    so tests never sleep.
    """

    def __init__(self, conn: aiosqlite.Connection, path: Path, clock: Clock) -> None:
        """Use `Database.open`; this only wires an already configured connection."""
        self._conn = conn
        self.path = path
        self.clock = clock
        # Group commit (see `_write`): transactions waiting for the database thread.
        self._batch: list[tuple[Callable[[sqlite3.Connection], Any], asyncio.Future[Any]]] = []
        self._batch_lock = threading.Lock()  # the loop adds to the batch, the database thread takes it
        self._flush_queued = False
        self._flushes: set[asyncio.Future[None]] = set()
        self._closing: asyncio.Future[None] | None = None
        self.commits = 0  # COMMITs (fsyncs) so far: fewer than transactions when they were grouped

    # -- life cycle --

    @classmethod
    def open(
        cls,
        path: str | os.PathLike[str],
        *,
        clock: Clock = time.time,
        migrations_dir: Path = MIGRATIONS_DIR,
    ) -> _Opening:
        """Open (creating the parent directory), switch to WAL and apply pending migrations."""

        async def factory() -> Database:
            return await cls._open(Path(path), clock, migrations_dir)

        return _Opening(factory)

    @classmethod
    async def _open(cls, path: Path, clock: Clock, migrations_dir: Path) -> Database:
        path.parent.mkdir(parents=True, exist_ok=True)
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
        await self._conn.close()

    async def __aenter__(self) -> Database:
        """`async with await Database.open(p) as db` also works."""
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        """Close on the way out of an `async with`."""
        await self.close()

    async def schema_version(self) -> int:
        """The applied migration number (PRAGMA user_version)."""
        rows = await self._fetchall(_PRAGMA_USER_VERSION, ())
        return int(rows[0][0]) if rows else 0

    async def journal_mode(self) -> str:
        """The journal mode in force ('wal'), exposed for health checks and tests."""
        rows = await self._fetchall(_PRAGMA_JOURNAL_MODE, ())
        return str(rows[0][0]) if rows else ""

    async def _migrate(self, directory: Path) -> None:
        migrations = load_migrations(directory)
        for number, path in migrations:
            statements = _split_statements(path.read_text(encoding="utf-8"))

            def apply(
                conn: sqlite3.Connection,
                number: int = number,
                path: Path = path,
                statements: list[str] = statements,
            ) -> None:
                # Read inside the write transaction: two processes starting together apply once.
                row = conn.execute(_PRAGMA_USER_VERSION).fetchone()
                current = int(row[0]) if row else 0
                if current > len(migrations):
                    raise MigrationError(
                        f"database is at version {current}, newer than these migrations ({len(migrations)})"
                    )
                if current >= number:
                    return
                for statement in statements:
                    # sql-check: statements come from the trusted migration files, not from users
                    conn.execute(statement)
                row = conn.execute(_PRAGMA_USER_VERSION).fetchone()
                if row is None or int(row[0]) != number:
                    raise MigrationError(f"{path.name} must set user_version to {number} (its own number)")

            await self._write(apply)

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

    async def _fetchall(self, sql: str, params: Sequence[Any] | dict[str, Any]) -> list[sqlite3.Row]:
        """One statement, one thread trip; it runs between transactions, never inside one."""
        # sql-check: every caller passes a module-level constant (tests/test_data.py checks it)
        return list(await self._conn.execute_fetchall(sql, params))

    def _now(self, now: float | None) -> float:
        return self.clock() if now is None else float(now)

    # -- matches --

    async def create_challenge(
        self,
        *,
        guild_id: int,
        channel_id: int,
        challenger_id: int,
        opponent_id: int,
        seed: int,
        turn_seconds: int,
        challenge_expires_at: float | None,
        game: str,
        options: dict[str, Any] | None = None,
        challenger_side: str = "random",
        ai_player_id: int | None = None,
        ai_level: str | None = None,
        now: float | None = None,
    ) -> Match:
        """Store a new match in status 'challenged' at version 0.

        Raises `ChannelBusy` if the channel already has a challenged or active match: the unique
        partial index decides, so two simultaneous challenges cannot both get in.
        """
        for name, value in (
            ("guild_id", guild_id),
            ("channel_id", channel_id),
            ("challenger_id", challenger_id),
            ("opponent_id", opponent_id),
            ("seed", seed),
        ):
            _check_int64(name, value)
        if turn_seconds <= 0:
            raise ValueError("turn_seconds must be positive")
        params = {
            "guild_id": guild_id,
            "channel_id": channel_id,
            "game": game,
            "options": _dumps(options or {}),
            "seed": seed,
            "challenger_id": challenger_id,
            "opponent_id": opponent_id,
            "challenger_side": challenger_side,
            "turn_seconds": turn_seconds,
            "challenge_expires_at": challenge_expires_at,
            "ai_player_id": ai_player_id,
            "ai_level": ai_level,
            "now": self._now(now),
        }

        def insert(conn: sqlite3.Connection) -> sqlite3.Row | None:
            match_id = conn.execute(_INSERT_MATCH, params).lastrowid
            row: sqlite3.Row | None = conn.execute(_SELECT_MATCH, (match_id,)).fetchone()
            return row

        try:
            row = await self._write(insert)
        except sqlite3.IntegrityError as exc:
            if "matches.channel_id" in str(exc):
                raise ChannelBusy(channel_id) from exc
            raise
        assert row is not None
        return _row_to_match(row)

    async def get_match(self, match_id: int) -> Match:
        """The match with this id; raises `MatchNotFound`."""
        rows = await self._fetchall(_SELECT_MATCH, (match_id,))
        if not rows:
            raise MatchNotFound(match_id)
        return _row_to_match(rows[0])

    async def get_channel_match(self, channel_id: int) -> Match | None:
        """The open (challenged or active) match of a channel, if any."""
        rows = await self._fetchall(_SELECT_CHANNEL_MATCH, (channel_id,))
        return _row_to_match(rows[0]) if rows else None

    async def list_matches(
        self,
        *,
        guild_id: int | None = None,
        channel_id: int | None = None,
        player_id: int | None = None,
        statuses: Iterable[Status | str] | None = None,
        limit: int | None = None,
    ) -> list[Match]:
        """Matches matching every given filter, newest first (e.g. all active ones at start-up)."""
        params = {
            "guild_id": guild_id,
            "channel_id": channel_id,
            "player_id": player_id,
            "statuses": None if statuses is None else _dumps([str(Status(s)) for s in statuses]),
            "limit": -1 if limit is None else limit,
        }
        return [_row_to_match(row) for row in await self._fetchall(_LIST_MATCHES, params)]

    async def update_match(
        self,
        match_id: int,
        *,
        expected_version: int,
        now: float | None = None,
        **changes: Any,
    ) -> Match:
        """Change fields of a match (accept, decline, cancel, expire...) and bump its version.

        `changes` are keyword names from `MUTABLE_FIELDS`. Setting `deadline`/`reminder_at`
        resets `reminded` unless given. Raises `StaleVersion`, `MatchNotFound`, `ChannelBusy`
        (reopening or moving into a busy channel), `TypeError` for unknown fields and
        `ValueError` for status 'finished' (use `finish_match`, which records stats).
        """
        normalised = _normalise_changes(changes)
        stamp = self._now(now)
        return await self._write(
            lambda conn: _apply(conn, match_id, expected_version, normalised, stamp, None)
        )

    async def finish_match(
        self,
        match_id: int,
        *,
        expected_version: int,
        result: Result,
        now: float | None = None,
        **changes: Any,
    ) -> Match:
        """End a match without a logged action (e.g. a timeout forfeit) and record stats atomically.

        Same errors as `update_match`, plus `ValueError` if the winner is not a player.
        """
        normalised = _normalise_changes(changes)
        stamp = self._now(now)
        return await self._write(
            lambda conn: _apply(conn, match_id, expected_version, normalised, stamp, result)
        )

    async def commit_action(
        self,
        match_id: int,
        *,
        expected_version: int,
        actions: Sequence[NewAction],
        interaction_id: int | None = None,
        result: Result | None = None,
        now: float | None = None,
        before_commit: BeforeCommit | None = None,
        owe_board: bool = False,
        **changes: Any,
    ) -> Match:
        """Append one command's actions to the log and update the match, in ONE transaction.

        `actions` (at least one) get consecutive `seq` numbers; `interaction_id`, if given, is
        stored on the first row and may never be applied again. `changes` are as for
        `update_match` (typically snapshot, turn_player_id, deadline, reminder_at). With
        `result`, the match is finished and both players' stats and ratings are updated in the
        same transaction. Raises `DuplicateInteraction` (checked first, so a retried click is
        reported as such even though the version has moved on), `StaleVersion`,
        `MatchNotFound`. Nothing is written if anything fails.

        With `owe_board`, the board of the new version is owed to the match's channel until
        `board_delivered` (the outbox): a crash after the commit cannot lose it.

        `before_commit` is a test hook, called on the database thread after every write and before
        COMMIT; if it raises, the transaction is rolled back (simulates a crash in mid-move).
        """
        if not actions:
            raise ValueError("commit_action needs at least one action")
        if interaction_id is not None:
            _check_int64("interaction_id", interaction_id)
        normalised = _normalise_changes(changes)
        stamp = self._now(now)

        def commit(conn: sqlite3.Connection) -> Match:
            if interaction_id is not None and conn.execute(_INTERACTION_SEEN, (interaction_id,)).fetchone():
                raise DuplicateInteraction(interaction_id)
            updated = _apply(conn, match_id, expected_version, normalised, stamp, result)
            row = conn.execute(_NEXT_SEQ, (match_id,)).fetchone()
            seq = int(row[0]) if row else 1
            rows = [
                (
                    match_id,
                    seq + i,
                    action.player_id,
                    action.notation,
                    interaction_id if i == 0 else None,
                    stamp if action.at is None else action.at,
                    updated.version,
                )
                for i, action in enumerate(actions)
            ]
            try:
                conn.executemany(_INSERT_ACTION, rows)
            except sqlite3.IntegrityError as exc:
                if interaction_id is not None and "actions.interaction_id" in str(exc):
                    raise DuplicateInteraction(interaction_id) from exc
                raise
            if owe_board:
                conn.execute(_OWE_BOARD, (match_id, updated.version, updated.channel_id, stamp))
            if before_commit is not None:
                before_commit()
            return updated

        return await self._write(commit)

    # -- the action log --

    async def actions(self, match_id: int) -> list[ActionRecord]:
        """The log of a match in seq order: with the seed, it replays to the snapshot."""
        return [_row_to_action(row) for row in await self._fetchall(_SELECT_ACTIONS, (match_id,))]

    # -- clocks --

    async def due_deadlines(self, now: float) -> list[Match]:
        """Active matches whose deadline is at or before `now`, oldest first (also after downtime)."""
        return [_row_to_match(row) for row in await self._fetchall(_DUE_DEADLINES, (now,))]

    async def due_reminders(self, now: float) -> list[Match]:
        """Active matches owed a reminder at `now` whose deadline has not passed yet."""
        return [_row_to_match(row) for row in await self._fetchall(_DUE_REMINDERS, {"now": now})]

    async def mark_reminded(self, match_id: int, version: int) -> bool:
        """Record that the reminder for this turn was sent; False if the match moved on meanwhile.

        Does not bump the version: a reminder must not make the player's buttons stale.
        """
        return await self._write(lambda conn: conn.execute(_MARK_REMINDED, (match_id, version)).rowcount == 1)

    async def expired_challenges(self, now: float) -> list[Match]:
        """Challenges nobody answered by their expiry time."""
        return [_row_to_match(row) for row in await self._fetchall(_EXPIRED_CHALLENGES, (now,))]

    async def shift_clock(self, match_id: int, version: int, deadline: float, reminder_at: float) -> bool:
        """Move the running clock of an active match (a player's time away stops it), owing its
        reminder again; False if the match moved on meanwhile. The version stays, as for a
        reminder: the players' buttons stay current."""
        params = (float(deadline), float(reminder_at), match_id, version)
        return await self._write(lambda conn: conn.execute(_SHIFT_CLOCK, params).rowcount == 1)

    # -- time away --

    async def time_away(self, guild_id: int, user_id: int, since: float) -> list[Away]:
        """A player's times away in a server that end (or ended) after `since`, oldest first."""
        rows = await self._fetchall(_TIME_AWAY, (guild_id, user_id, float(since)))
        return [Away(r["guild_id"], r["user_id"], r["start_at"], r["end_at"]) for r in rows]

    async def set_time_away(self, guild_id: int, user_id: int, *, now: float, until: float | None) -> None:
        """End a player's time away in a server at `now` (if they are away), and with `until`, start a
        new one from `now` to then: one transaction."""

        def write(conn: sqlite3.Connection) -> None:
            conn.execute(_END_TIME_AWAY, (float(now), guild_id, user_id, float(now)))
            if until is not None:
                conn.execute(_START_TIME_AWAY, (guild_id, user_id, float(now), float(until)))

        await self._write(write)

    # -- the outbox --

    async def board_delivered(self, match_id: int, version: int) -> None:
        """The channel has the board of `version`: it and every older one are no longer owed."""
        await self._write(lambda conn: conn.execute(_BOARD_DELIVERED, (match_id, version)))

    async def owed_boards(self, before: float) -> list[tuple[int, int, int]]:
        """(match id, newest owed version, channel id) of boards owed since `before` or earlier."""
        rows = await self._fetchall(_OWED_BOARDS, (before,))
        return [(int(r["match_id"]), int(r["version"]), int(r["channel_id"])) for r in rows]

    # -- stats and preferences --

    async def player_stats(self, guild_id: int, game: str, user_id: int) -> PlayerStats:
        """A player's record in one game in a guild; zeros and the start rating if they never finished
        a game of it."""
        rows = await self._fetchall(_SELECT_STATS, (guild_id, game, user_id))
        return _row_to_stats(rows[0]) if rows else PlayerStats(guild_id=guild_id, game=game, user_id=user_id)

    async def leaderboard(self, guild_id: int, game: str, limit: int = 10) -> list[PlayerStats]:
        """One game's best rating first; ties by more wins, then by user id so the order is stable."""
        rows = await self._fetchall(_LEADERBOARD, (guild_id, game, limit))
        return [_row_to_stats(row) for row in rows]

    async def ai_records(self, guild_id: int, game: str) -> list[AiRecord]:
        """The AI's wins, losses and draws per level in one game in a guild (levels it played)."""
        rows = await self._fetchall(_AI_RECORDS, (guild_id, game))
        return [AiRecord(str(r["ai_level"]), int(r["wins"]), int(r["losses"]), int(r["draws"])) for r in rows]

    async def get_user_prefs(self, user_id: int) -> UserPrefs:
        """A user's preferences; defaults (no DMs) for a user never seen."""
        rows = await self._fetchall(_SELECT_USER, (user_id,))
        if not rows:
            return UserPrefs(user_id=user_id)
        return UserPrefs(user_id=user_id, dm_on_turn=bool(rows[0]["dm_on_turn"]))

    async def set_dm_on_turn(self, user_id: int, enabled: bool, *, now: float | None = None) -> UserPrefs:
        """Opt in or out of "DM me when it's my turn"."""
        stamp = self._now(now)
        await self._write(
            lambda conn: conn.execute(_UPSERT_DM_ON_TURN, (user_id, int(enabled), stamp, stamp))
        )
        return UserPrefs(user_id=user_id, dm_on_turn=enabled)


def _settle(outcomes: list[tuple[asyncio.Future[Any], Any, BaseException | None]]) -> None:
    """On the event loop: hand each caller of a group commit its own result or error."""
    for done, result, error in outcomes:
        if done.cancelled():
            continue
        if error is not None:
            done.set_exception(error)
        else:
            done.set_result(result)


# --- transactions (run on the database thread by Database._write) ---------------------------


def _apply(
    conn: sqlite3.Connection,
    match_id: int,
    expected_version: int,
    changes: dict[str, Any],
    now: float,
    result: Result | None,
) -> Match:
    """Read-check-write of one match inside the caller's transaction."""
    row = conn.execute(_SELECT_MATCH, (match_id,)).fetchone()
    if row is None:
        raise MatchNotFound(match_id)
    current = _row_to_match(row)
    if current.version != expected_version:
        raise StaleVersion(match_id, expected_version, current.version)
    new = dataclasses.replace(current, **changes, version=current.version + 1, updated_at=now)
    if result is not None:
        if result.winner_id is not None and result.winner_id not in current.players:
            raise ValueError(f"winner {result.winner_id} does not play in match {match_id}")
        new = dataclasses.replace(
            new,
            status=Status.FINISHED,
            winner_id=result.winner_id,
            result_reason=result.reason,
            turn_player_id=None,
            deadline=None,
            reminder_at=None,
            reminded=False,
            challenge_expires_at=None,
        )
    try:
        if conn.execute(_UPDATE_MATCH, _match_params(new, expected_version)).rowcount != 1:
            # another connection got in between: it won
            raise StaleVersion(match_id, expected_version, expected_version + 1)
    except sqlite3.IntegrityError as exc:
        if "matches.channel_id" in str(exc):  # reopened, or moved into a busy channel
            raise ChannelBusy(new.channel_id) from exc
        raise
    if result is not None and result.rated and current.challenger_id != current.opponent_id:
        _record_result(conn, current, result, now)
    return new


def _record_result(conn: sqlite3.Connection, match: Match, result: Result, now: float) -> None:
    a, b = match.players
    # Against the AI its side is rated at its level's fixed rating, and only the player's row moves.
    ai = match.ai_player_id if result.ai_rating is not None else None
    ratings = []
    for user in (a, b):
        if user == ai:
            assert result.ai_rating is not None
            ratings.append(result.ai_rating)
            continue
        row = conn.execute(_SELECT_STATS, (match.guild_id, match.game, user)).fetchone()
        ratings.append(float(row["rating"]) if row else elo.START_RATING)
    if result.winner_id is None:
        score_a, outcome = 0.5, ((0, 0, 1), (0, 0, 1))
    elif result.winner_id == a:
        score_a, outcome = 1.0, ((1, 0, 0), (0, 1, 0))
    else:
        score_a, outcome = 0.0, ((0, 1, 0), (1, 0, 0))
    new_a, new_b = elo.updated(ratings[0], ratings[1], score_a)
    for user, rating, (wins, losses, draws) in zip((a, b), (new_a, new_b), outcome, strict=True):
        if user != ai:
            conn.execute(_UPSERT_STATS, (match.guild_id, match.game, user, wins, losses, draws, rating, now))
