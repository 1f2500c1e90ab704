"""The PostgreSQL store: an asyncpg pool, for several bot processes on one database.

Chosen by `DATABASE_URL=postgresql://…` (docs/deploy.md). The transactions and queries are those of
data/db.py; this module runs them: each transaction on a pooled connection inside `BEGIN ... COMMIT`
(PostgreSQL runs them side by side and groups its own WAL flushes), each `?`/`:name` parameter
numbered as `$n` once per statement text (asyncpg then prepares and caches the statement per
connection).

Failures. A server that cannot be reached, or that restarts under load, raises `StoreUnavailable`:
the service answers "try again" and the pool opens new connections by itself once the server is
back. A transaction whose connection died before COMMIT was sent is retried once on a fresh one
(nothing of it can have landed); one that died during COMMIT is not, as it may have landed: the
player retries, and the version check or the interaction id refuses what did.

Several processes. A trigger (`wargames_match_changed`, set up here, not a migration: it is this
store's plumbing) notifies every change of a match row on the channel `wargames_matches`; `watch`
listens on a connection of its own, so a process drops its copy of a game another process changed
(play/service.py). If that connection is lost, everything is forgotten, and again once it listens
anew, so no change made while it was deaf is served from memory. A connection can also go quiet
without closing (a network that drops packets): the listener asks it a question every
`HEARTBEAT_S`, and one unanswered within `HEARTBEAT_TIMEOUT_S` counts as lost, so what another
process wrote is served stale for at most their sum.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import os
import re
import time
from collections.abc import AsyncIterator, Callable, Iterable
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import asyncpg

from data.db import ChangeListener, Clock, Conflict, Database, Step, T, Transaction, away_key
from data.errors import DataError, MigrationError, StoreUnavailable
from data.models import Match, MatchChange
from data.schema import MIGRATIONS_DIR, POSTGRESQL, load_migrations, sets_version, statements_for, to_postgres

log = logging.getLogger("data.postgres")
Connection = asyncpg.Connection | asyncpg.pool.PoolConnectionProxy  # a pooled one is a proxy

POOL_SIZE = 32  # connections per process: 8 queued 200 busy games for seconds with fsync on (performance.md)
CONNECT_TIMEOUT = 10.0  # seconds to reach the server before saying it cannot be reached
COMMAND_TIMEOUT = 30.0  # a statement that takes longer than this has met a problem, not a load
RELISTEN_DELAYS = (0.2, 0.5, 1.0, 2.0, 5.0)  # between attempts to listen again, the last repeated
HEARTBEAT_S = 10.0  # how often the listening connection is asked whether it still hears the server
HEARTBEAT_TIMEOUT_S = 5.0  # an answer slower than this: the connection is taken for lost
MIGRATION_LOCK = 0x5741_5247_4D45  # pg_advisory_xact_lock key of "the migrations" ("WARGME")
CHANNEL = "wargames_matches"
# a player's time away or preferences changed ("away:<guild>:<user>", "prefs:<user>"; "all" when a
# table was emptied): the processes answer those from memory while they listen
# (`Database._remembers`), and forget one at its notice
PEOPLE = "wargames_people"
EVERYONE = "all"

_MIGRATION_LOCK = "SELECT pg_advisory_xact_lock($1)"
# A player's time away and their games' clocks are written under a lock of their own, held on a
# connection of its own from before the write until the last clock is moved (`holding_away`).
_AWAY_HOLD = "SELECT pg_advisory_lock($1)"
_AWAY_RELEASE = "SELECT pg_advisory_unlock($1)"
# and their opponents' locks, shared: an `away` of theirs waits, their moves do not
_AWAY_HOLD_SHARED = "SELECT pg_advisory_lock_shared($1)"
_AWAY_RELEASE_SHARED = "SELECT pg_advisory_unlock_shared($1)"
_VERSION_TABLE = "CREATE TABLE IF NOT EXISTS schema_version (version BIGINT NOT NULL)"
_VERSION = "SELECT version FROM schema_version"
_FIRST_VERSION = "INSERT INTO schema_version (version) VALUES (0)"
_SET_VERSION = "UPDATE schema_version SET version = $1"
# The store's own writes are announced after their COMMIT (`_announce`), not by this trigger: a
# transaction that NOTIFYs holds a database-wide lock from its commit's start to its end, WAL flush
# included, so every move waited for every other move's fsync (one fsync at a time: ~80 moves/s
# here, whatever the cores). The trigger still speaks for every other writer (an admin's SQL, an
# older bot during an upgrade): a session of this store says so with `wargames.announces`.
_NOTIFY_FUNCTION = """
CREATE OR REPLACE FUNCTION wargames_match_changed() RETURNS trigger LANGUAGE plpgsql AS $body$
BEGIN
    IF current_setting('wargames.announces', true) = 'on' THEN
        RETURN NULL;
    END IF;
    PERFORM pg_notify('wargames_matches', NEW.channel_id || ':' || NEW.id || ':' || NEW.version);
    RETURN NULL;
END $body$
"""
# What the store sends after its commits (`_after_commits`): the boards delivered and the changes
# stored while the statement before was on its way, in one statement.
_AFTER_COMMITS = """
WITH delivered AS (
    DELETE FROM owed_boards AS o
    USING unnest(CAST(? AS BIGINT[]), CAST(? AS BIGINT[])) AS d (match_id, version)
    WHERE o.match_id = d.match_id AND o.version <= d.version
)
SELECT pg_notify(x.channel, x.change) FROM unnest(CAST(? AS TEXT[]), CAST(? AS TEXT[])) AS x (channel, change)
"""
ANNOUNCES = "wargames.announces"
_NOTIFY_TRIGGER = """
CREATE OR REPLACE TRIGGER wargames_match_changed AFTER INSERT OR UPDATE ON matches
FOR EACH ROW EXECUTE FUNCTION wargames_match_changed()
"""
# Whether the time away a move's clock was computed from still holds (`_MOVE`'s `clocked`): the
# players' locks taken shared without waiting (`Database.holding_away` holds them while an `away`
# writes), then their time away read. A VOLATILE function's every query takes a snapshot of its own
# (READ COMMITTED), so the read comes after the locks, whereas the calling statement's snapshot was
# taken as it began: an `away` that wrote, reclocked and let go of its lock in between is seen here.
# The locks last to the move's COMMIT. With no players (a move that starts no clock): TRUE.
_AWAY_HELD_FUNCTION = """
CREATE OR REPLACE FUNCTION wargames_away_held(
    keys BIGINT[], guild BIGINT, users BIGINT[], since DOUBLE PRECISION, seen_count BIGINT,
    seen_last_end DOUBLE PRECISION
) RETURNS BOOLEAN VOLATILE LANGUAGE plpgsql AS $body$
DECLARE
    locked BOOLEAN;
    held BOOLEAN;
BEGIN
    SELECT COALESCE(bool_and(pg_try_advisory_xact_lock_shared(k)), TRUE) INTO locked FROM unnest(keys) AS k;
    IF NOT locked THEN
        RETURN FALSE;
    END IF;
    IF cardinality(users) = 0 THEN
        RETURN TRUE;
    END IF;
    SELECT COUNT(*) = seen_count AND MAX(end_at) IS NOT DISTINCT FROM seen_last_end INTO held
    FROM time_away WHERE guild_id = guild AND user_id = ANY(users) AND end_at > since;
    RETURN held;
END $body$
"""
# The same for a player's time away and preferences, which the processes keep in memory: the store
# announces its own writes after COMMIT, this speaks for every other writer (old and new rows, so
# a row moved to another player is forgotten for both).
_PERSON_FUNCTION = """
CREATE OR REPLACE FUNCTION wargames_person_changed() RETURNS trigger LANGUAGE plpgsql AS $body$
BEGIN
    IF current_setting('wargames.announces', true) = 'on' THEN
        RETURN NULL;
    END IF;
    IF TG_TABLE_NAME = 'time_away' THEN
        IF TG_OP <> 'DELETE' THEN
            PERFORM pg_notify('wargames_people', 'away:' || NEW.guild_id || ':' || NEW.user_id);
        END IF;
        IF TG_OP <> 'INSERT' THEN
            PERFORM pg_notify('wargames_people', 'away:' || OLD.guild_id || ':' || OLD.user_id);
        END IF;
    ELSE
        IF TG_OP <> 'DELETE' THEN
            PERFORM pg_notify('wargames_people', 'prefs:' || NEW.user_id);
        END IF;
        IF TG_OP <> 'INSERT' THEN
            PERFORM pg_notify('wargames_people', 'prefs:' || OLD.user_id);
        END IF;
    END IF;
    RETURN NULL;
END $body$
"""
_PERSON_TRIGGERS = (
    """
CREATE OR REPLACE TRIGGER wargames_person_changed AFTER INSERT OR UPDATE OR DELETE ON time_away
FOR EACH ROW EXECUTE FUNCTION wargames_person_changed()
""",
    """
CREATE OR REPLACE TRIGGER wargames_person_changed AFTER INSERT OR UPDATE OR DELETE ON users
FOR EACH ROW EXECUTE FUNCTION wargames_person_changed()
""",
)
# TRUNCATE fires no row trigger: a statement trigger of its own says that everyone was forgotten
_PEOPLE_EMPTIED_FUNCTION = """
CREATE OR REPLACE FUNCTION wargames_people_emptied() RETURNS trigger LANGUAGE plpgsql AS $body$
BEGIN
    PERFORM pg_notify('wargames_people', 'all');
    RETURN NULL;
END $body$
"""
_PEOPLE_EMPTIED_TRIGGERS = (
    """
CREATE OR REPLACE TRIGGER wargames_people_emptied AFTER TRUNCATE ON time_away
FOR EACH STATEMENT EXECUTE FUNCTION wargames_people_emptied()
""",
    """
CREATE OR REPLACE TRIGGER wargames_people_emptied AFTER TRUNCATE ON users
FOR EACH STATEMENT EXECUTE FUNCTION wargames_people_emptied()
""",
)
_UNIQUE_COLUMNS = {
    # the UNIQUE indexes the transactions name, as SQLite names them ("table.column")
    "matches_one_open_per_channel": "matches.channel_id",
    "actions_interaction": "actions.interaction_id",
}

# The connection is gone or the server is not taking it: the same moment seen from different sides.
_LOST: tuple[type[BaseException], ...] = (
    asyncpg.PostgresConnectionError,
    asyncpg.exceptions.AdminShutdownError,
    asyncpg.exceptions.CannotConnectNowError,
    asyncpg.exceptions.CrashShutdownError,
    asyncpg.exceptions.TooManyConnectionsError,
    # a connection whose last statement was cut off by the server going away is left mid-protocol
    asyncpg.exceptions.InternalClientError,
    OSError,
    TimeoutError,
)


def _lost(error: BaseException) -> bool:
    if isinstance(error, _LOST):
        return True
    # asyncpg's "cannot perform operation: connection is closed" (a pooled connection that died)
    return isinstance(error, asyncpg.InterfaceError) and "closed" in str(error)


def where(url: str) -> str:
    """What to call the server in a message: host, port and database, never the password."""
    try:
        parts = urlsplit(url)
        host = parts.hostname or "the local socket"
        port = f":{parts.port}" if parts.port else ""
        user = f"{parts.username}@" if parts.username else ""
    except ValueError:
        return "the server in DATABASE_URL"
    database = parts.path.lstrip("/") or "(default database)"
    return f"{user}{host}{port}/{database}"


_NAMED = re.compile(r"(?<![:\w]):([A-Za-z_]\w*)")


def numbered(sql: str) -> tuple[str, tuple[str, ...] | None]:
    """`?` and `:name` parameters as PostgreSQL's `$n` (names in order, None for `?`)."""
    if "?" in sql:
        pieces = sql.split("?")
        out = [piece + "$" + str(n) for n, piece in enumerate(pieces[:-1], 1)]
        return "".join(out) + pieces[-1], None
    names: list[str] = []

    def number(found: Any) -> str:
        name = found.group(1)
        if name not in names:
            names.append(name)
        return "$" + str(names.index(name) + 1)

    return _NAMED.sub(number, sql), tuple(names)


async def _keep_session(conn: Connection) -> None:
    """What a released connection needs undone: nothing. asyncpg's default runs `RESET ALL`,
    `UNLISTEN *`, `CLOSE ALL` and `pg_advisory_unlock_all()` on every release, one more round trip
    per transaction or read (a quarter of all of them under load). This store changes no session
    setting, listens on a connection of its own, takes advisory locks for a transaction, or for a
    session that unlocks before the connection goes back (`holding_away`: else it is closed), and
    opens no cursor; an unfinished transaction is still rolled back by the pool itself."""


class PostgresDatabase(Database):
    """The shared store: any number of bot processes on one PostgreSQL database."""

    store = "postgresql"
    shared = True
    one_statement_moves = True

    def __init__(self, pool: asyncpg.Pool, url: str, clock: Clock) -> None:
        """Use `Database.open`; this only wires an already configured pool."""
        super().__init__(clock)
        self._pool = pool
        self.url = url
        self._statements: dict[str, tuple[str, tuple[str, ...] | None]] = {}
        self._listeners: list[ChangeListener] = []
        self._listening: asyncio.Task[None] | None = None
        self._lost: asyncio.Event | None = None  # set when the listening connection is lost or closed
        self._closed = False
        self.listens = 0  # how often LISTEN was (re-)established, for tests and logs
        self._busy = 0  # transactions asked for and not yet ended: close() lets them finish
        self._idle = asyncio.Event()
        self._idle.set()
        # stored and not yet announced: (channel, notice), "channel:id:version" for a match
        self._changes: list[tuple[str, str]] = []
        self._hearing = False  # listening for the other processes' changes now (`_remembers`)
        # boards delivered and not yet written: (match id, version, the caller's future)
        self._deliveries: list[tuple[int, int, asyncio.Future[None]]] = []
        self._after: asyncio.Task[None] | None = None  # sending them and the changes (`_after_commits`)

    @classmethod
    async def connect(
        cls,
        target: str | os.PathLike[str],
        *,
        clock: Clock = time.time,
        migrations_dir: Path = MIGRATIONS_DIR,
    ) -> PostgresDatabase:
        """Connect a pool (one clear `DataError` if the server cannot be reached or refuses us),
        apply the pending migrations under an advisory lock, set up the change notifications."""
        url = str(target)
        pool = await _connect(
            url,
            lambda: asyncpg.create_pool(
                url,
                # no floor: a pool that must keep a connection open logs a traceback each time it
                # cannot while the server restarts; connections are opened as moves need them
                min_size=0,
                max_size=POOL_SIZE,
                timeout=CONNECT_TIMEOUT,
                command_timeout=COMMAND_TIMEOUT,
                server_settings={"application_name": "wargames", ANNOUNCES: "on"},
                reset=_keep_session,
            ),
        )
        db = cls(pool, url, clock)
        try:
            await db._migrate(migrations_dir)
        except BaseException:
            await pool.close()
            raise
        return db

    async def close(self) -> None:
        """Stop listening and close the pool (waiting for the transactions in flight)."""
        if self._closed:
            await self._idle.wait()
            return
        self._closed = True
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._idle.wait(), 10)
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self.announced(), 5)
        if self._listening is not None:
            if self._lost is not None:
                self._lost.set()  # the listening ends at once, even if the cancel below is lost
            self._listening.cancel()
            # Python 3.11's `wait_for` (asyncpg uses it too) can lose a cancel that meets a result in
            # the same turn of the loop: the listening then ends by `_closed` and `_lost` instead,
            # and a driver call stuck past them is left behind rather than holding the shutdown.
            await asyncio.wait({self._listening}, timeout=CONNECT_TIMEOUT)
        try:
            await asyncio.wait_for(self._pool.close(), 10)
        except Exception:  # it did not finish in time, or the server is gone
            self._pool.terminate()

    async def schema_version(self) -> int:
        found = await self._query(_VERSION)
        return int(found[0]["version"]) if found else 0

    async def _migrate(self, directory: Path) -> None:
        """Every pending migration in ONE transaction, under an advisory lock: two processes that
        start together apply them once, and a failure leaves the database as it was."""
        migrations = load_migrations(directory)
        async with self._pool.acquire() as conn, conn.transaction():
            await conn.execute(_MIGRATION_LOCK, MIGRATION_LOCK)
            await conn.execute(_VERSION_TABLE)
            current = await conn.fetchval(_VERSION)
            if current is None:
                await conn.execute(_FIRST_VERSION)
                current = 0
            if current > len(migrations):
                raise MigrationError(
                    f"the database is at schema version {current}, newer than this code "
                    f"({len(migrations)}): run the newer bot, or restore a backup of this version"
                )
            for number, path in migrations[current:]:
                recorded = None
                for statement, own in statements_for(path.read_text(encoding="utf-8"), POSTGRESQL):
                    recorded = sets_version(statement)
                    if recorded is not None:
                        continue
                    # PostgreSQL's own section is in its words already; the shared ones are translated
                    for translated in [statement.rstrip().rstrip(";")] if own else to_postgres(statement):
                        # sql-check: statements come from the trusted migration files, not from users
                        await conn.execute(translated)
                if recorded != number:
                    raise MigrationError(f"{path.name} must set user_version to {number} (its own number)")
                await conn.execute(_SET_VERSION, number)
            await conn.execute(_NOTIFY_FUNCTION)
            await conn.execute(_NOTIFY_TRIGGER)
            await conn.execute(_PERSON_FUNCTION)
            await conn.execute(_AWAY_HELD_FUNCTION)
            await conn.execute(_PEOPLE_EMPTIED_FUNCTION)
            for trigger in (*_PERSON_TRIGGERS, *_PEOPLE_EMPTIED_TRIGGERS):
                # sql-check: module-level constants
                await conn.execute(trigger)

    # -- running the transactions and queries of data/db.py --

    def _prepared(self, step: Step) -> tuple[str, list[Any] | list[list[Any]]]:
        text = step.postgres or step.sql
        found = self._statements.get(text)
        if found is None:
            found = self._statements[text] = numbered(text)
        sql, names = found
        if step.kind == "many":
            return sql, [_args(p, names) for p in step.params]
        return sql, _args(step.params, names)

    async def _step(self, conn: Connection, step: Step) -> Any:
        # sql-check (each call below): every Step holds a module-level constant of data/db.py or this module
        sql, args = self._prepared(step)
        if step.kind == "one":
            # sql-check: as above
            return await conn.fetchrow(sql, *args)
        if step.kind == "rows":
            # sql-check: as above
            return await conn.fetch(sql, *args)
        if step.kind == "many":
            # sql-check: as above
            await conn.executemany(sql, args)
            return None
        # sql-check: as above
        status = await conn.execute(sql, *args)  # "UPDATE 1", "INSERT 0 1", "DELETE 3"
        return int(status.rsplit(" ", 1)[-1])

    async def _drive(self, conn: Connection, transaction: Transaction[T], step: Step) -> T:
        """Run `transaction` from its first `step` on; a step marked `alone` must be its last."""
        try:
            while True:
                try:
                    result = await self._step(conn, step)
                except asyncpg.UniqueViolationError as exc:
                    on = _UNIQUE_COLUMNS.get(exc.constraint_name or "", exc.constraint_name or "?")
                    following = transaction.throw(Conflict(on))
                else:
                    following = transaction.send(result)
                if step.alone:
                    raise RuntimeError(
                        f"a statement sent alone was followed by another: {following.sql[:60]!r}"
                    )
                step = following
        except StopIteration as stop:
            value: T = stop.value
            return value

    async def _transact(self, work: Callable[[], Transaction[T]]) -> T:
        self._busy += 1
        self._idle.clear()
        try:
            result = await self._transact_once_or_twice(work)
            if isinstance(result, Match):  # a match row written: tell the other processes
                self._announce(result)
            return result
        finally:
            self._busy -= 1
            if self._busy == 0:
                self._idle.set()

    def _announce(self, match: Match) -> None:
        """Tell the listening processes (`watch`) that `match` was stored, soon after its COMMIT.

        Outside the move's transaction (see `_NOTIFY_FUNCTION`): in the store's one statement
        after commits (`_after_commits`), with every change and delivered board of that moment. A
        process killed between the two announces nothing: the others then serve their copy until
        the version check refuses a move made on it, as in the moment before any notice arrives;
        a lost connection makes every listener forget all."""
        self._changes.append((CHANNEL, f"{match.channel_id}:{match.id}:{match.version}"))
        self._after_commits_soon()

    @contextlib.asynccontextmanager
    async def holding_away(
        self, guild_id: int, user_id: int, others: Iterable[int] = ()
    ) -> AsyncIterator[None]:
        """`Database.holding_away`: a session's advisory lock of the player's own (`away_key`), and
        one of each of `others` shared, on a pooled connection held meanwhile, taken in the order of
        their keys (two players' `away`s, each holding its own, never wait on each other in a
        circle). Released at the end; a connection that could not release them is closed, which
        releases them (it never goes back to the pool holding one)."""
        users = {user_id, *others}
        key = away_key(guild_id, user_id)
        keys = sorted({away_key(guild_id, u) for u in users})
        try:
            conn = await self._pool.acquire()
        except Exception as exc:
            if _lost(exc):
                raise StoreUnavailable(f"PostgreSQL ({where(self.url)}) did not answer: {exc}") from exc
            raise
        held: list[int] = []
        try:
            try:
                try:
                    for k in keys:
                        if k == key:
                            await conn.execute(_AWAY_HOLD, k)
                        else:
                            await conn.execute(_AWAY_HOLD_SHARED, k)
                        held.append(k)
                except Exception as exc:
                    if _lost(exc):
                        raise StoreUnavailable(
                            f"PostgreSQL ({where(self.url)}) did not answer: {exc}"
                        ) from exc
                    raise
                for user in users:  # read afresh under the locks
                    self._forget_person("away", (guild_id, user))
                yield
            finally:
                try:
                    for k in reversed(held):
                        if k == key:
                            await conn.execute(_AWAY_RELEASE, k)
                        else:
                            await conn.execute(_AWAY_RELEASE_SHARED, k)
                except BaseException:
                    conn.terminate()
                    raise
        finally:
            await self._pool.release(conn)

    async def _person_changed(self, kind: str, key: tuple[int, ...]) -> None:
        """A player's time away or preferences written here: the others forget their copy (as
        `_announce`, after the COMMIT; a write that failed is announced too, in case it landed).
        Awaited: a process's memory of them has no version check to catch a notice never sent."""
        self._changes.append((PEOPLE, ":".join((kind, *map(str, key)))))
        self._after_commits_soon()
        with contextlib.suppress(Exception):
            await self.announced()

    async def board_delivered(self, match_id: int, version: int) -> None:
        """As `Database.board_delivered`, written in the store's one statement after commits with
        the other boards delivered and the changes stored meanwhile (`_after_commits`): under load
        several come in the time of one round trip, each a statement of its own before. The caller
        hears back after the COMMIT, or the error, as before."""
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._deliveries.append((match_id, version, done))
        self._after_commits_soon()
        await done

    def _after_commits_soon(self) -> None:
        if self._after is None or self._after.done():
            self._after = asyncio.create_task(self._after_commits(), name="wargames-after-commits")

    async def announced(self) -> None:
        """Wait until every match stored and board delivered so far was sent (tests, and `close`)."""
        while self._after is not None and not self._after.done():
            await asyncio.shield(self._after)

    async def _after_commits(self) -> None:
        """Send what waits, one statement at a time, until nothing does: what comes while one is on
        its way goes with the next. One statement both deletes the boards delivered and announces
        the changes: a transaction that NOTIFYs holds a database-wide lock through its commit (WAL
        flush included, when it deleted a board), which here only this one statement at a time
        takes, never a move."""
        await asyncio.sleep(0)  # what this turn of the loop stored or delivered goes together
        while self._changes or self._deliveries:
            changes, self._changes = self._changes, []
            batch, self._deliveries = self._deliveries, []
            newest: dict[int, int] = {}
            for match_id, version, _ in batch:
                newest[match_id] = max(version, newest.get(match_id, version))
            work = functools.partial(
                _after_commit,
                list(newest),
                list(newest.values()),
                [c for c, _ in changes],
                [n for _, n in changes],
            )
            try:
                await self._transact(work)
            except Exception as exc:
                if changes:
                    # the server is away: the listeners lost their connection too, and forget everything
                    log.info("Could not announce %d change(s) to other processes: %s", len(changes), exc)
                for _, _, done in batch:
                    if not done.done():
                        done.set_exception(exc)
            else:
                for _, _, done in batch:
                    if not done.done():
                        done.set_result(None)

    async def _transact_once_or_twice(self, work: Callable[[], Transaction[T]]) -> T:
        """Run a transaction: a statement sent `alone` on its own (PostgreSQL makes it a transaction of
        its own: one round trip), anything else inside BEGIN ... COMMIT."""
        for attempt in (1, 2):
            committing = False
            try:
                async with self._pool.acquire() as conn:
                    transaction = work()
                    try:
                        step = next(transaction)
                    except StopIteration as stop:
                        nothing: T = stop.value
                        return nothing
                    if step.alone:
                        committing = True  # once sent it may have landed, whatever comes back
                        result = await self._drive(conn, transaction, step)
                    else:
                        block = conn.transaction()
                        await block.start()
                        try:
                            result = await self._drive(conn, transaction, step)
                        except BaseException:
                            with contextlib.suppress(Exception):
                                await block.rollback()
                            raise
                        committing = True
                        await block.commit()
                self.commits += 1
                return result
            except Exception as exc:
                if not _lost(exc):
                    raise
                if committing or attempt == 2:
                    raise StoreUnavailable(f"PostgreSQL ({where(self.url)}) did not answer: {exc}") from exc
                log.info("A database connection was lost before a transaction began; trying a fresh one.")
        raise AssertionError("unreachable")

    async def _query(self, sql: str, params: Any = ()) -> list[Any]:
        for attempt in (1, 2):
            try:
                async with self._pool.acquire() as conn:
                    found: list[Any] = await self._step(conn, Step("rows", sql, params))
                    return found
            except Exception as exc:
                if not _lost(exc):
                    raise
                if attempt == 2:
                    raise StoreUnavailable(f"PostgreSQL ({where(self.url)}) did not answer: {exc}") from exc
        raise AssertionError("unreachable")

    # -- other processes' changes --

    def watch(self, listener: ChangeListener) -> None:
        self._listeners.append(listener)
        if self._listening is None and not self._closed:
            self._listening = asyncio.create_task(self._listen(), name="wargames-listen")

    def _tell(self, change: MatchChange | None) -> None:
        for listener in self._listeners:
            try:
                listener(change)
            except Exception:
                log.exception("A change listener failed")

    def _remembers(self) -> bool:
        return self._hearing

    def _deaf(self) -> None:
        """Not listening (yet, or any more): whatever changed meanwhile is read afresh."""
        self._hearing = False
        self._forget_people()
        self._tell(None)

    def _notified_person(self, conn: object, pid: int, channel: str, payload: object) -> None:
        if payload == EVERYONE:
            self._forget_people()
            return
        kind, _, rest = str(payload).partition(":")
        try:
            key = tuple(int(x) for x in rest.split(":"))
        except ValueError:
            key = ()
        if (kind, len(key)) not in (("away", 2), ("prefs", 1)):
            log.warning("An unreadable change notice: %r", payload)
            self._forget_people()
            return
        self._forget_person(kind, key)

    def _notified(self, conn: object, pid: int, channel: str, payload: object) -> None:
        try:
            channel_id, match_id, version = (int(x) for x in str(payload).split(":"))
        except ValueError:
            log.warning("An unreadable change notice: %r", payload)
            return
        self._tell(MatchChange(channel_id, match_id, version))

    async def _listen(self) -> None:
        """Listen for changes for as long as the store is open, listening anew after a loss."""
        failures = 0
        while not self._closed:
            lost = self._lost = asyncio.Event()
            conn: asyncpg.Connection | None = None
            try:
                conn = await asyncpg.connect(self.url, timeout=CONNECT_TIMEOUT)
                conn.add_termination_listener(lambda _, lost=lost: lost.set())
                await conn.add_listener(CHANNEL, self._notified)
                await conn.add_listener(PEOPLE, self._notified_person)
                self.listens += 1
                self._deaf()  # whatever changed while nobody listened is read afresh
                self._hearing = True
                if failures:
                    log.info("Listening for other processes' changes again.")
                failures = 0
                while not lost.is_set() and not self._closed:
                    try:
                        async with asyncio.timeout(HEARTBEAT_S):
                            await lost.wait()
                    except TimeoutError:  # quiet: is the server still there?
                        try:
                            async with asyncio.timeout(HEARTBEAT_TIMEOUT_S):
                                await conn.fetchval("SELECT 1")
                        except TimeoutError:
                            raise ConnectionError(
                                f"the server did not answer within {HEARTBEAT_TIMEOUT_S:g} s"
                            ) from None
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                if failures == 0:
                    log.warning("Not listening for other processes' changes (%s); trying again.", exc)
            finally:
                self._hearing = False
                if conn is not None:
                    with contextlib.suppress(Exception):
                        conn.terminate()
            self._deaf()
            if self._closed:
                break
            await asyncio.sleep(RELISTEN_DELAYS[min(failures, len(RELISTEN_DELAYS) - 1)])
            failures += 1


def _after_commit(
    match_ids: list[int], versions: list[int], channels: list[str], changes: list[str]
) -> Transaction[None]:
    yield Step("count", _AFTER_COMMITS, (match_ids, versions, channels, changes), alone=True)


def _args(params: Any, names: tuple[str, ...] | None) -> list[Any]:
    if names is None:
        return list(params)
    return [params[name] for name in names]


async def _connect(url: str, opening: Callable[[], Any]) -> asyncpg.Pool:
    """Open the pool, or one `DataError` whose message says what to fix (never the password)."""
    place = where(url)
    try:
        pool: asyncpg.Pool = await opening()
        try:
            async with pool.acquire():  # the pool keeps no connection open: make sure one can be
                pass
        except BaseException:
            pool.terminate()
            raise
    except asyncpg.InvalidPasswordError:
        raise DataError(f"PostgreSQL at {place} refused the password: check DATABASE_URL.") from None
    except asyncpg.InvalidAuthorizationSpecificationError as exc:
        raise DataError(f"PostgreSQL at {place} refused the login ({exc}): check DATABASE_URL.") from None
    except asyncpg.InvalidCatalogNameError:
        raise DataError(
            f"PostgreSQL at {place}: that database does not exist. Create it (createdb) or fix DATABASE_URL."
        ) from None
    except (asyncpg.ClientConfigurationError, ValueError) as exc:
        raise DataError(
            f"DATABASE_URL is not a PostgreSQL URL this bot can use ({_scrub(exc, url)})."
        ) from None
    except Exception as exc:
        if _lost(exc):
            raise StoreUnavailable(
                f"PostgreSQL at {place} cannot be reached ({exc.__class__.__name__}: {_scrub(exc, url)}). "
                "Check that the server runs and DATABASE_URL, then start again."
            ) from None
        raise DataError(f"PostgreSQL at {place} refused the connection: {_scrub(exc, url)}") from None
    return pool


def _scrub(error: BaseException, url: str) -> str:
    """An error's words without the URL's password, should they quote it."""
    text = str(error)
    with contextlib.suppress(ValueError):
        password = urlsplit(url).password
        if password:
            text = text.replace(password, "***")
    return text
