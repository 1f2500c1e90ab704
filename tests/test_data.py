"""The persistence layer against both real stores (an SQLite file, a PostgreSQL database): concurrency,
atomicity, stats, the outbox. What only one store has (SQLite's WAL, group commit and migrations of old
files) is tested on it alone; tests/test_stores.py compares the two."""

from __future__ import annotations

import ast
import asyncio
import itertools
import math
import re
import shutil
import sqlite3
import threading
from collections.abc import Callable
from pathlib import Path

import asyncpg
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from data import (
    ChannelBusy,
    Database,
    DuplicateInteraction,
    Match,
    MatchNotFound,
    MigrationError,
    NewAction,
    Result,
    StaleVersion,
    Status,
    is_postgres_url,
    load_migrations,
)
from data.db import MIGRATIONS_DIR
from data.elo import expected_score
from data.sqlite import SqliteDatabase

DATA_DIR = Path(__file__).resolve().parent.parent / "data"
GUILD = 100
GAME = "blockwars"
ALICE, BOB, CAROL, DAVE = 11, 22, 33, 44
T0 = 1_700_000_000.0


class FakeClock:
    """Tests move time by hand instead of sleeping."""

    def __init__(self, now: float = T0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "nested" / "blockwars.db"


@pytest.fixture
async def db(store: str, clock: FakeClock):
    """The database of a test, once on each store."""
    async with Database.open(store, clock=clock) as database:
        yield database


@pytest.fixture
async def sqlite_db(db_path: Path, clock: FakeClock):
    """For what only SQLite has: its one database thread and the group commit."""
    async with Database.open(db_path, clock=clock) as database:
        assert isinstance(database, SqliteDatabase)
        yield database


async def challenge(db: Database, channel_id: int = 1, a: int = ALICE, b: int = BOB, **kw) -> Match:
    kw.setdefault("challenge_expires_at", T0 + 3600)
    kw.setdefault("game", GAME)
    return await db.create_challenge(
        guild_id=kw.pop("guild_id", GUILD),
        channel_id=channel_id,
        challenger_id=a,
        opponent_id=b,
        seed=kw.pop("seed", 1234),
        turn_seconds=kw.pop("turn_seconds", 86_400),
        **kw,
    )


async def active(db: Database, channel_id: int = 1, a: int = ALICE, b: int = BOB, **kw) -> Match:
    """A challenged-then-accepted match, as the service would leave it (version 1)."""
    m = await challenge(db, channel_id, a, b, **kw)
    return await db.update_match(
        m.id,
        expected_version=m.version,
        status=Status.ACTIVE,
        sides={"germans": a, "canadians": b},
        snapshot={"turn": 1, "board": "start"},
        turn_player_id=a,
        deadline=T0 + 86_400,
        reminder_at=T0 + 72_000,
    )


def raw(path: Path, sql: str, params: tuple = ()) -> list[tuple]:
    """Inspect the file behind the layer's back, with a separate plain sqlite3 connection."""
    conn = sqlite3.connect(path)
    try:
        return conn.execute(sql, params).fetchall()
    finally:
        conn.close()


# --- opening, migrations, WAL --------------------------------------------------------------------


async def test_fresh_file_gets_all_migrations_and_reopen_is_idempotent(db_path: Path, clock: FakeClock):
    assert not db_path.parent.exists()
    latest = len(load_migrations())
    async with Database.open(db_path, clock=clock) as db:
        assert await db.schema_version() == latest
        await challenge(db)
    assert raw(db_path, "PRAGMA user_version") == [(latest,)]
    tables = {name for (name,) in raw(db_path, "SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert {"matches", "actions", "users", "player_stats"} <= tables
    # Reopening applies nothing twice (a second CREATE TABLE would fail) and keeps the data.
    for _ in range(2):
        async with Database.open(db_path, clock=clock) as db:
            assert await db.schema_version() == latest
            assert (await db.get_channel_match(1)) is not None


async def test_wal_mode_is_on_and_persistent(sqlite_db: SqliteDatabase, db_path: Path):
    assert await sqlite_db.journal_mode() == "wal"
    await challenge(sqlite_db)
    assert db_path.with_name(db_path.name + "-wal") in list(db_path.parent.iterdir())
    assert raw(db_path, "PRAGMA journal_mode") == [("wal",)]


async def test_database_newer_than_the_code_is_refused(db_path: Path):
    async with Database.open(db_path):
        pass
    conn = sqlite3.connect(db_path)
    conn.execute("PRAGMA user_version = 99")
    conn.close()
    with pytest.raises(MigrationError):
        await Database.open(db_path)


async def test_a_failing_migration_is_rolled_back_whole(tmp_path: Path):
    migrations = tmp_path / "migrations"
    migrations.mkdir()
    for _, path in load_migrations():
        shutil.copy(path, migrations / path.name)
    n = len(load_migrations()) + 1
    (migrations / f"{n:04d}_broken.sql").write_text(
        "CREATE TABLE half_done (x INTEGER);\n"
        "INSERT INTO no_such_table VALUES (1);\n"
        f"PRAGMA user_version = {n};\n"
    )
    target = tmp_path / "m.db"
    with pytest.raises(sqlite3.OperationalError):
        await Database.open(target, migrations_dir=migrations)
    assert raw(target, "PRAGMA user_version") == [(n - 1,)]
    assert raw(target, "SELECT name FROM sqlite_master WHERE name = 'half_done'") == []


def _with(tmp_path: Path, *extra: str) -> Path:
    """Today's migrations and `extra` after them, numbered on, in a directory of their own."""
    migrations = tmp_path / "migrations"
    migrations.mkdir()
    for _, path in load_migrations():
        shutil.copy(path, migrations / path.name)
    for n, script in enumerate(extra, start=len(load_migrations()) + 1):
        (migrations / f"{n:04d}_extra.sql").write_text(f"{script}\nPRAGMA user_version = {n};\n")
    return migrations


async def test_a_sqlite_migration_rebuilding_a_table_keeps_the_rows_that_refer_to_it(tmp_path: Path):
    """SQLite changes a CHECK by rebuilding the table (new table, copy, drop, rename). The runner
    turns foreign keys off around each migration (they cannot be switched inside its transaction),
    so the drop neither cascades to the rows referring to the table nor is refused by them; they
    are back on after it, and refuse a dangling row as before."""
    migrations = _with(
        tmp_path,
        "CREATE TABLE parent (id INTEGER PRIMARY KEY, kind TEXT NOT NULL CHECK (kind IN ('a')));\n"
        "CREATE TABLE child (parent_id INTEGER NOT NULL REFERENCES parent (id) ON DELETE CASCADE);\n"
        "INSERT INTO parent (id, kind) VALUES (1, 'a');\n"
        "INSERT INTO child (parent_id) VALUES (1);",
        "CREATE TABLE parent_new (id INTEGER PRIMARY KEY, kind TEXT NOT NULL CHECK (kind IN ('a', 'b')));\n"
        "INSERT INTO parent_new (id, kind) SELECT id, kind FROM parent;\n"
        "DROP TABLE parent;\n"
        "ALTER TABLE parent_new RENAME TO parent;",
    )
    target = tmp_path / "m.db"
    async with Database.open(target, migrations_dir=migrations) as db:
        assert isinstance(db, SqliteDatabase)
        assert await db._write(lambda conn: conn.execute("PRAGMA foreign_keys").fetchone()[0]) == 1
        with pytest.raises(sqlite3.IntegrityError, match="FOREIGN KEY"):
            await db._write(lambda conn: conn.execute("INSERT INTO child (parent_id) VALUES (2)"))
    assert raw(target, "SELECT parent_id FROM child") == [(1,)]
    assert raw(target, "PRAGMA foreign_key_check") == []
    assert "'b'" in raw(target, "SELECT sql FROM sqlite_master WHERE name = 'parent'")[0][0]


async def test_a_sqlite_migration_leaving_a_dangling_reference_is_rolled_back(tmp_path: Path):
    """With foreign keys off, a migration could delete a row others refer to: the runner's
    `PRAGMA foreign_key_check` before the commit refuses it, and nothing of it lands."""
    migrations = _with(
        tmp_path,
        "CREATE TABLE parent (id INTEGER PRIMARY KEY);\n"
        "CREATE TABLE child (parent_id INTEGER NOT NULL REFERENCES parent (id));\n"
        "INSERT INTO parent (id) VALUES (1);\n"
        "INSERT INTO child (parent_id) VALUES (1);",
        "CREATE TABLE half_done (x INTEGER);\nDELETE FROM parent;",
    )
    target = tmp_path / "m.db"
    n = len(load_migrations()) + 2
    with pytest.raises(MigrationError, match=f"{n:04d}_extra.sql left 1 row.* in child .* to parent"):
        await Database.open(target, migrations_dir=migrations)
    assert raw(target, "PRAGMA user_version") == [(n - 1,)]
    assert raw(target, "SELECT id FROM parent") == [(1,)]
    assert raw(target, "SELECT name FROM sqlite_master WHERE name = 'half_done'") == []


async def test_stats_written_before_games_were_separate_move_to_the_game_of_their_matches(tmp_path: Path):
    """A database of the one-game bot (migration 1 only) keeps its ratings, now under the game."""
    old = tmp_path / "old"
    old.mkdir()
    shutil.copy(MIGRATIONS_DIR / "0001_init.sql", old / "0001_init.sql")
    target = tmp_path / "m.db"
    async with Database.open(target, migrations_dir=old):
        pass
    # What the one-game bot wrote when that match ended: the match row and both players' stats
    # (in plain SQL: today's code writes today's columns).
    with sqlite3.connect(target) as conn:
        conn.execute(
            "INSERT INTO matches (guild_id, channel_id, game, seed, challenger_id, opponent_id, sides, "
            "status, turn_seconds, version, winner_id, created_at, updated_at) "
            "VALUES (?, 1, ?, 1, ?, ?, ?, 'finished', 86400, 3, ?, 0, 0)",
            (GUILD, GAME, ALICE, BOB, f'{{"germans": {ALICE}, "canadians": {BOB}}}', ALICE),
        )
        conn.executemany(
            "INSERT INTO player_stats (guild_id, user_id, wins, losses, draws, rating, updated_at) "
            "VALUES (?, ?, ?, ?, 0, ?, 0)",
            [(GUILD, ALICE, 1, 0, 1216.0), (GUILD, BOB, 0, 1, 1184.0)],
        )
    before = raw(target, "SELECT guild_id, user_id, wins, losses, rating FROM player_stats ORDER BY user_id")
    async with Database.open(target) as db:
        alice = await db.player_stats(GUILD, GAME, ALICE)
        assert (alice.game, alice.wins, alice.losses) == (GAME, 1, 0) and alice.rating > 1200
        assert (await db.player_stats(GUILD, "othergame", ALICE)).games == 0
        board = await db.leaderboard(GUILD, GAME)
        assert [(s.guild_id, s.user_id, s.wins, s.losses, s.rating) for s in board] == sorted(
            before, key=lambda r: -r[4]
        )
        assert await db.leaderboard(GUILD, "othergame") == []


async def test_ratings_are_kept_per_game(db: Database):
    """A win in one game moves that game's rating only."""
    for game in (GAME, "othergame"):
        m = await active(db, channel_id=hash(game) % 1000, game=game)
        await db.finish_match(
            m.id, expected_version=m.version, result=Result(ALICE if game == GAME else BOB, "won")
        )
    assert (await db.player_stats(GUILD, GAME, ALICE)).wins == 1
    assert (await db.player_stats(GUILD, "othergame", ALICE)).losses == 1
    assert [s.user_id for s in await db.leaderboard(GUILD, "othergame")] == [BOB, ALICE]


async def test_migrations_must_be_numbered_without_gaps(tmp_path: Path):
    (tmp_path / "0002_late.sql").write_text("PRAGMA user_version = 2;")
    with pytest.raises(MigrationError):
        load_migrations(tmp_path)


# --- matches -------------------------------------------------------------------------------------


async def test_create_get_update_and_list(db: Database, clock: FakeClock):
    m = await challenge(db, options={"victoria_cross": True}, challenger_side="germans")
    assert (m.status, m.version, m.sides, m.snapshot) == (Status.CHALLENGED, 0, {}, None)
    assert m.options == {"victoria_cross": True} and m.challenger_side == "germans"
    assert await db.get_match(m.id) == m
    assert await db.get_channel_match(1) == m

    clock.now += 60
    a = await db.update_match(
        m.id,
        expected_version=0,
        status="active",
        sides={"germans": ALICE, "canadians": BOB},
        snapshot={"x": [1]},
    )
    assert (a.status, a.version, a.updated_at, a.created_at) == (Status.ACTIVE, 1, T0 + 60, T0)
    assert a.side_of(BOB) == "canadians" and a.other_player(ALICE) == BOB
    assert await db.get_match(m.id) == a

    other = await challenge(db, channel_id=2, a=CAROL, b=ALICE)
    assert [x.id for x in await db.list_matches(player_id=ALICE)] == [other.id, m.id]
    assert [x.id for x in await db.list_matches(statuses=[Status.ACTIVE])] == [m.id]
    assert await db.list_matches(guild_id=GUILD + 1) == []
    assert len(await db.list_matches(limit=1)) == 1

    with pytest.raises(MatchNotFound):
        await db.get_match(999)
    with pytest.raises(TypeError):
        await db.update_match(m.id, expected_version=1, seed=5)  # fixed at challenge time
    with pytest.raises(ValueError):
        await db.update_match(m.id, expected_version=1, status="finished")  # needs a Result
    with pytest.raises(ValueError):
        await db.update_match(m.id, expected_version=1, status="paused")
    with pytest.raises(StaleVersion):
        await db.update_match(m.id, expected_version=0, status="cancelled")
    assert await db.get_match(m.id) == a


async def test_the_bot_can_be_a_player(db: Database):
    bot = 999_999_999_999_999_999
    m = await challenge(db, b=bot, ai_player_id=bot, ai_level="normal")
    assert (m.opponent_id, m.ai_player_id, m.ai_level) == (bot, bot, "normal")


async def test_one_open_match_per_channel(db: Database):
    first = await challenge(db, channel_id=1)
    with pytest.raises(ChannelBusy) as busy:
        await challenge(db, channel_id=1, a=CAROL, b=DAVE)
    assert busy.value.channel_id == 1
    active_one = await db.update_match(first.id, expected_version=0, status="active")
    with pytest.raises(ChannelBusy):
        await challenge(db, channel_id=1, a=CAROL, b=DAVE)

    # Other threads are other channels.
    await challenge(db, channel_id=2, a=CAROL, b=DAVE)
    await challenge(db, channel_id=3, a=ALICE, b=DAVE)

    # A finished (or declined, cancelled...) match no longer holds the channel.
    await db.finish_match(first.id, expected_version=active_one.version, result=Result(ALICE, "resign"))
    second = await challenge(db, channel_id=1, a=CAROL, b=DAVE)
    declined = await db.update_match(second.id, expected_version=0, status="declined")
    third = await challenge(db, channel_id=1, a=CAROL, b=DAVE)
    holder = await db.get_channel_match(1)
    assert holder is not None and holder.id == third.id

    # Reviving an old match into a busy channel is refused too, and changes nothing.
    with pytest.raises(ChannelBusy):
        await db.update_match(second.id, expected_version=declined.version, status="challenged")
    assert await db.get_match(second.id) == declined


async def test_simultaneous_challenges_in_one_channel_let_exactly_one_in(db: Database):
    results = await asyncio.gather(
        *(challenge(db, channel_id=7, a=ALICE + i, b=BOB + i) for i in range(5)), return_exceptions=True
    )
    assert sum(isinstance(r, Match) for r in results) == 1
    assert sum(isinstance(r, ChannelBusy) for r in results) == 4


# --- moves: optimistic concurrency, idempotency, atomicity --------------------------------------


async def test_two_concurrent_moves_exactly_one_applies(db: Database):
    m = await active(db)
    results = await asyncio.gather(
        db.commit_action(
            m.id, expected_version=m.version, actions=[NewAction("a1-a2", ALICE)], snapshot={"by": "first"}
        ),
        db.commit_action(
            m.id, expected_version=m.version, actions=[NewAction("b1-b2", ALICE)], snapshot={"by": "second"}
        ),
        return_exceptions=True,
    )
    winners = [r for r in results if isinstance(r, Match)]
    losers = [r for r in results if isinstance(r, StaleVersion)]
    assert len(winners) == 1 and len(losers) == 1
    assert losers[0].expected == m.version and losers[0].actual == m.version + 1
    stored = await db.get_match(m.id)
    assert stored == winners[0] and stored.version == m.version + 1
    log = await db.actions(m.id)
    assert len(log) == 1 and stored.snapshot is not None
    assert {"a1-a2": "first", "b1-b2": "second"}[log[0].notation] == stored.snapshot["by"]


async def test_concurrent_moves_through_two_connections(store: str, clock: FakeClock):
    """Even two processes on one database cannot both win: the version check is in the UPDATE."""
    async with Database.open(store, clock=clock) as one, Database.open(store, clock=clock) as two:
        m = await active(one)
        results = await asyncio.gather(
            *(
                conn.commit_action(m.id, expected_version=m.version, actions=[NewAction(f"m{i}", ALICE)])
                for i, conn in enumerate((one, two, one, two))
            ),
            return_exceptions=True,
        )
        assert sum(isinstance(r, Match) for r in results) == 1
        assert sum(isinstance(r, StaleVersion) for r in results) == 3
        assert len(await two.actions(m.id)) == 1


async def test_one_command_many_actions_consecutive_seq(db: Database, clock: FakeClock):
    m = await active(db)
    m = await db.commit_action(
        m.id,
        expected_version=m.version,
        actions=[NewAction("c3-c4", ALICE), NewAction("dogfight", None, at=T0 + 1)],
        interaction_id=5001,
        turn_player_id=BOB,
    )
    clock.now += 10
    m = await db.commit_action(m.id, expected_version=m.version, actions=[NewAction("ai-move", BOB)])
    log = await db.actions(m.id)
    assert [(r.seq, r.notation, r.player_id, r.interaction_id, r.version) for r in log] == [
        (1, "c3-c4", ALICE, 5001, 2),
        (2, "dogfight", None, None, 2),
        (3, "ai-move", BOB, None, 3),
    ]
    assert [r.at for r in log] == [T0, T0 + 1, T0 + 10]
    # counted by the store, as of each version (the console numbers its boards so)
    assert [await db.action_count(m.id, upto=v) for v in (1, 2, 3)] == [0, 2, 3]
    assert await db.action_count(m.id) == 3 and await db.action_count(m.id + 1) == 0
    with pytest.raises(ValueError):
        await db.commit_action(m.id, expected_version=m.version, actions=[])


async def test_an_interaction_is_never_applied_twice(db: Database):
    m = await active(db)
    after = await db.commit_action(
        m.id, expected_version=m.version, actions=[NewAction("a1-a2", ALICE)], interaction_id=42
    )
    for version in (after.version, m.version):  # retried with a fresh or with the old version
        with pytest.raises(DuplicateInteraction) as dup:
            await db.commit_action(
                m.id, expected_version=version, actions=[NewAction("a1-a2", ALICE)], interaction_id=42
            )
        assert dup.value.interaction_id == 42
    assert await db.get_match(m.id) == after
    assert [r.notation for r in await db.actions(m.id)] == ["a1-a2"]


async def test_a_crash_mid_move_leaves_the_previous_state(db: Database, store: str, clock: FakeClock):
    m = await active(db)
    await db.commit_action(m.id, expected_version=m.version, actions=[NewAction("first", ALICE)])
    before, log_before = await db.get_match(m.id), await db.actions(m.id)

    def crash() -> None:
        raise RuntimeError("power cut")

    with pytest.raises(RuntimeError, match="power cut"):
        await db.commit_action(
            m.id,
            expected_version=before.version,
            actions=[NewAction("second", BOB), NewAction("third", None)],
            interaction_id=77,
            snapshot={"half": "written"},
            turn_player_id=ALICE,
            before_commit=crash,
        )
    assert await db.get_match(m.id) == before
    assert await db.actions(m.id) == log_before
    async with Database.open(store, clock=clock) as reopened:  # and on disk
        assert await reopened.get_match(m.id) == before
    # The interaction was not burnt: the retry goes through.
    again = await db.commit_action(
        m.id, expected_version=before.version, actions=[NewAction("second", BOB)], interaction_id=77
    )
    assert again.version == before.version + 1


def holding_the_database() -> tuple[threading.Event, threading.Event, Callable[[], None]]:
    """A before_commit hook that parks the database thread between a move's writes and its COMMIT
    until `release` is set; `inside` is set once it is parked."""
    inside, release = threading.Event(), threading.Event()

    def hold() -> None:
        inside.set()
        release.wait(5)

    return inside, release, hold


async def test_reads_never_wait_for_a_transaction_nor_see_half_of_it(sqlite_db: SqliteDatabase):
    """While a move's transaction runs, reads (on their own connection) answer at once with what was
    committed before it, never half of it; once it is committed they see all of it."""
    db = sqlite_db
    m = await active(db)
    inside, release, hold = holding_the_database()

    move = asyncio.create_task(
        db.commit_action(
            m.id,
            expected_version=m.version,
            actions=[NewAction("x", ALICE)],
            snapshot={"n": 1},
            before_commit=hold,
        )
    )
    await asyncio.to_thread(inside.wait, 5)
    try:
        before = await asyncio.wait_for(db.get_match(m.id), 5)  # not queued behind the writer
        assert before == m and await db.actions(m.id) == []
    finally:
        release.set()
    done = await move
    seen = await db.get_match(m.id)
    assert seen == done and seen.snapshot == {"n": 1}
    assert [a.notation for a in await db.actions(m.id)] == ["x"]


async def test_a_cancelled_caller_leaves_the_move_whole_and_the_database_usable(sqlite_db: SqliteDatabase):
    """Cancelling the awaiting coroutine cannot cut a transaction in half: it lands whole."""
    db = sqlite_db
    m = await active(db)
    inside, release, hold = holding_the_database()
    commits = db.commits

    task = asyncio.create_task(
        db.commit_action(
            m.id,
            expected_version=m.version,
            actions=[NewAction("x", ALICE)],
            interaction_id=9,
            before_commit=hold,
        )
    )
    await asyncio.to_thread(inside.wait, 5)
    task.cancel()
    release.set()
    with pytest.raises(asyncio.CancelledError):
        await task
    for _ in range(500):  # reads do not queue behind the writer: wait for its COMMIT
        if db.commits > commits:
            break
        await asyncio.sleep(0.01)
    landed = await db.get_match(m.id)
    assert landed.version == m.version + 1
    assert [(a.notation, a.interaction_id) for a in await db.actions(m.id)] == [("x", 9)]
    with pytest.raises(DuplicateInteraction):  # a retry of the same click is recognised
        await db.commit_action(
            landed.id, expected_version=landed.version, actions=[NewAction("x", ALICE)], interaction_id=9
        )
    done = await db.commit_action(landed.id, expected_version=landed.version, actions=[NewAction("y", BOB)])
    assert done.version == m.version + 2


async def test_close_and_reopen_keeps_everything(store: str, clock: FakeClock):
    async with Database.open(store, clock=clock) as db:
        m = await active(db)
        m = await db.commit_action(
            m.id,
            expected_version=m.version,
            actions=[NewAction("a1-a2", ALICE)],
            interaction_id=1,
            snapshot={"deep": {"list": [1, 2.5, None, True, "é"]}},
        )
        done = await db.commit_action(
            m.id,
            expected_version=m.version,
            actions=[NewAction("resign", BOB)],
            result=Result(ALICE, "resign"),
        )
        await db.set_dm_on_turn(BOB, True)
        log, stats = await db.actions(m.id), await db.leaderboard(GUILD, GAME)
    async with Database.open(store, clock=clock) as db:
        assert await db.get_match(m.id) == done
        assert await db.actions(m.id) == log
        assert await db.leaderboard(GUILD, GAME) == stats
        assert (await db.get_user_prefs(BOB)).dm_on_turn
        assert not (await db.get_user_prefs(ALICE)).dm_on_turn


async def test_the_log_is_append_only(db: Database, store: str):
    m = await active(db)
    await db.commit_action(m.id, expected_version=m.version, actions=[NewAction("x", ALICE)])
    for sql in ("UPDATE actions SET notation = 'y'", "DELETE FROM actions"):
        if is_postgres_url(store):
            conn = await asyncpg.connect(store)
            try:
                with pytest.raises(asyncpg.IntegrityConstraintViolationError, match="append-only"):
                    await conn.execute(sql)
            finally:
                await conn.close()
        else:
            with pytest.raises(sqlite3.IntegrityError, match="append-only"):
                raw(Path(store), sql)
    assert [a.notation for a in await db.actions(m.id)] == ["x"]


# --- clocks --------------------------------------------------------------------------------------


async def test_due_deadlines_and_reminders(db: Database):
    a = await active(db, channel_id=1)  # deadline T0+86400, reminder T0+72000
    b = await active(db, channel_id=2, a=CAROL, b=DAVE)
    b = await db.update_match(b.id, expected_version=b.version, deadline=T0 + 100, reminder_at=T0 + 50)
    c = await challenge(db, channel_id=3, a=ALICE, b=DAVE)  # not active: no clock

    assert await db.due_deadlines(T0) == []
    assert [m.id for m in await db.due_reminders(T0 + 50)] == [b.id]
    assert [m.id for m in await db.due_deadlines(T0 + 100)] == [b.id]  # "at or before"
    # After downtime everything that fell due comes back, oldest first.
    assert [m.id for m in await db.due_deadlines(T0 + 10**6)] == [b.id, a.id]
    # A reminder whose deadline has also passed is left to the deadline sweep.
    assert [m.id for m in await db.due_reminders(T0 + 80_000)] == [a.id]

    # Marking does not bump the version (the player's buttons stay valid) and is per turn.
    assert await db.mark_reminded(a.id, a.version)
    assert (await db.get_match(a.id)).version == a.version
    assert await db.due_reminders(T0 + 80_000) == []
    moved = await db.commit_action(
        a.id,
        expected_version=a.version,
        actions=[NewAction("m", ALICE)],
        deadline=T0 + 200_000,
        reminder_at=T0 + 190_000,
    )
    assert not moved.reminded
    assert not await db.mark_reminded(a.id, a.version)  # stale turn
    assert [m.id for m in await db.due_reminders(T0 + 190_000)] == [a.id]

    # Finished matches have no clock.
    await db.finish_match(b.id, expected_version=b.version, result=Result(None, "timeout", rated=False))
    assert [m.id for m in await db.due_deadlines(T0 + 10**6)] == [a.id]
    assert c.id not in [m.id for m in await db.due_deadlines(T0 + 10**6)]


async def test_expired_challenges(db: Database):
    soon = await challenge(db, channel_id=1, challenge_expires_at=T0 + 10)
    later = await challenge(db, channel_id=2, challenge_expires_at=T0 + 20)
    await challenge(db, channel_id=3, challenge_expires_at=None)
    assert await db.expired_challenges(T0 + 5) == []
    assert [m.id for m in await db.expired_challenges(T0 + 10)] == [soon.id]
    await db.update_match(soon.id, expected_version=0, status="expired")
    assert [m.id for m in await db.expired_challenges(T0 + 30)] == [later.id]


# --- stats ---------------------------------------------------------------------------------------


async def test_elo_on_win_draw_and_upset(db: Database, clock: FakeClock):
    m = await active(db, channel_id=1)
    done = await db.commit_action(
        m.id,
        expected_version=m.version,
        actions=[NewAction("capture-hq", ALICE)],
        result=Result(ALICE, "headquarters captured"),
    )
    assert (done.status, done.winner_id, done.result_reason) == (
        Status.FINISHED,
        ALICE,
        "headquarters captured",
    )
    assert (done.turn_player_id, done.deadline, done.reminder_at) == (None, None, None)
    alice, bob = await db.player_stats(GUILD, GAME, ALICE), await db.player_stats(GUILD, GAME, BOB)
    assert (alice.wins, alice.losses, alice.rating) == (1, 0, 1216.0)
    assert (bob.wins, bob.losses, bob.rating) == (0, 1, 1184.0)

    # Bob (1184) beats Alice (1216) a month later (sooner, a repeat counts less: RULES.md
    # "Ratings"): a small upset earns a bit more than 16.
    clock.now += 31 * 86_400
    m = await active(db, channel_id=1, a=BOB, b=ALICE)
    await db.finish_match(m.id, expected_version=m.version, result=Result(BOB, "timeout"))
    gain = 32 * (1 - expected_score(1184.0, 1216.0))
    bob = await db.player_stats(GUILD, GAME, BOB)
    assert math.isclose(bob.rating, 1184.0 + gain) and gain > 16
    assert math.isclose((await db.player_stats(GUILD, GAME, ALICE)).rating, 1216.0 - gain)

    # A draw between equals changes no rating but counts.
    m = await active(db, channel_id=1, a=CAROL, b=DAVE)
    await db.finish_match(m.id, expected_version=m.version, result=Result(None, "agreed"))
    carol = await db.player_stats(GUILD, GAME, CAROL)
    assert (carol.draws, carol.games, carol.rating) == (1, 1, 1200.0)

    # Unrated results and other guilds leave the table alone; strangers get the defaults.
    m = await active(db, channel_id=1, a=CAROL, b=DAVE)
    await db.finish_match(m.id, expected_version=m.version, result=Result(CAROL, "practice", rated=False))
    assert (await db.player_stats(GUILD, GAME, CAROL)).games == 1
    stranger = await db.player_stats(GUILD + 1, GAME, ALICE)
    assert (stranger.games, stranger.rating) == (0, 1200.0)


async def test_leaderboard_order_and_limit(db: Database):
    async def play(winner: int, loser: int, channel: int, guild: int = GUILD) -> None:
        m = await active(db, channel_id=channel, a=winner, b=loser, guild_id=guild)
        await db.finish_match(m.id, expected_version=m.version, result=Result(winner, "win"))

    await play(ALICE, BOB, 1)
    await play(ALICE, CAROL, 1)
    await play(DAVE, BOB, 2)
    await play(BOB, ALICE, 3, guild=GUILD + 1)  # another server's table
    board = await db.leaderboard(GUILD, GAME)
    assert [s.user_id for s in board] == [ALICE, DAVE, CAROL, BOB]
    assert all(x.rating >= y.rating for x, y in itertools.pairwise(board))
    assert [s.user_id for s in await db.leaderboard(GUILD, GAME, limit=2)] == [ALICE, DAVE]
    assert [s.user_id for s in await db.leaderboard(GUILD + 1, GAME)] == [BOB, ALICE]
    assert sum(s.rating for s in board) == pytest.approx(4 * 1200.0)  # Elo is zero-sum


async def test_against_the_ai_its_level_rating_is_fixed_and_only_the_player_moves(db: Database):
    """The AI's side counts at its level's rating (given with the result) and keeps no stats row of
    its own; its record per level is read from the finished matches."""
    ai = 99

    async def versus(level: str, winner: int | None, rating: float) -> None:
        m = await active(db, channel_id=7, a=ALICE, b=ai, ai_player_id=ai, ai_level=level)
        await db.finish_match(
            m.id, expected_version=m.version, result=Result(winner, "done", ai_rating=rating)
        )

    await versus("hard", ALICE, 1450.0)  # a 1200 player beats a 1450 level: a big gain
    gain = 32 * (1 - expected_score(1200.0, 1450.0))
    alice = await db.player_stats(GUILD, GAME, ALICE)
    assert math.isclose(alice.rating, 1200.0 + gain) and gain > 16 and alice.wins == 1
    await versus("hard", ai, 1450.0)
    await versus("easy", None, 1200.0)
    after = await db.player_stats(GUILD, GAME, ALICE)
    expected = alice.rating - 32 * expected_score(alice.rating, 1450.0)
    expected += 32 * (0.5 - expected_score(expected, 1200.0))
    assert math.isclose(after.rating, expected) and (after.wins, after.losses, after.draws) == (1, 1, 1)
    assert [s.user_id for s in await db.leaderboard(GUILD, GAME)] == [ALICE]  # no row for the AI
    records = await db.ai_records(GUILD, GAME)
    assert [(r.level, r.wins, r.losses, r.draws) for r in records] == [("easy", 0, 0, 1), ("hard", 1, 1, 0)]
    assert await db.ai_records(GUILD + 1, GAME) == [] and await db.ai_records(GUILD, "othergame") == []
    # Between people nothing changes: a human opponent's rating moves as before.
    m = await active(db, channel_id=8, a=ALICE, b=BOB)
    await db.finish_match(m.id, expected_version=m.version, result=Result(BOB, "done"))
    assert (await db.player_stats(GUILD, GAME, BOB)).rating > 1200.0


async def test_final_move_and_stats_land_together_or_not_at_all(db: Database):
    m = await active(db)

    def crash() -> None:
        raise RuntimeError("crash")

    with pytest.raises(RuntimeError):
        await db.commit_action(
            m.id,
            expected_version=m.version,
            actions=[NewAction("win", ALICE)],
            result=Result(ALICE, "hq"),
            before_commit=crash,
        )
    assert await db.leaderboard(GUILD, GAME) == []
    assert (await db.get_match(m.id)).status is Status.ACTIVE
    with pytest.raises(ValueError):
        await db.finish_match(m.id, expected_version=m.version, result=Result(CAROL, "not a player"))
    assert await db.get_match(m.id) == m and await db.leaderboard(GUILD, GAME) == []


async def test_dm_preference(db: Database):
    assert not (await db.get_user_prefs(ALICE)).dm_on_turn
    assert (await db.set_dm_on_turn(ALICE, True)).dm_on_turn
    assert (await db.get_user_prefs(ALICE)).dm_on_turn
    await db.set_dm_on_turn(ALICE, False)
    assert not (await db.get_user_prefs(ALICE)).dm_on_turn


# --- parameterisation ----------------------------------------------------------------------------

NASTY = st.sampled_from(
    ["'); DROP TABLE matches;--", '" OR 1=1 --', "%s %d {0} {x}", "?", ":now", "\\", "\x00"]
)
TEXT = st.one_of(st.text(), NASTY)
JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats(allow_nan=False, allow_infinity=False)
    | TEXT,
    lambda children: st.lists(children, max_size=4) | st.dictionaries(TEXT, children, max_size=4),
    max_leaves=12,
)


def test_arbitrary_text_round_trips_unchanged(store: str):
    """Quotes, SQL fragments and any unicode come back byte for byte: nothing is spliced into SQL.
    (PostgreSQL's text holds no NUL character; the bot never stores one: notation is the engine's.)"""
    loop = asyncio.new_event_loop()
    db = loop.run_until_complete(Database.open(store))
    postgres = is_postgres_url(store)
    channels = iter(range(1, 10**6))

    async def round_trip(notation: str, options: dict, snapshot: dict, words: str) -> None:
        m = await db.create_challenge(
            guild_id=GUILD,
            channel_id=next(channels),
            challenger_id=ALICE,
            opponent_id=BOB,
            seed=7,
            turn_seconds=60,
            challenge_expires_at=None,
            game=words,
            options=options,
            challenger_side=words,
            ai_level=words,
        )
        m = await db.update_match(m.id, expected_version=0, status="active", snapshot=snapshot)
        m = await db.commit_action(
            m.id, expected_version=m.version, actions=[NewAction(notation, ALICE)], result=Result(None, words)
        )
        stored = await db.get_match(m.id)
        assert stored == m
        assert (stored.options, stored.snapshot) == (options, snapshot)
        assert (stored.game, stored.challenger_side, stored.ai_level, stored.result_reason) == (words,) * 4
        assert [r.notation for r in await db.actions(m.id)] == [notation]

    @settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(TEXT, st.dictionaries(TEXT, JSON, max_size=5), st.dictionaries(TEXT, JSON, max_size=5), TEXT)
    def check(notation: str, options: dict, snapshot: dict, words: str) -> None:
        if postgres:
            notation, words = notation.replace("\x00", ""), words.replace("\x00", "")
        loop.run_until_complete(round_trip(notation, options, snapshot, words))

    try:
        check()
        names = [m.game for m in loop.run_until_complete(db.list_matches(limit=3))]
        assert len(names) == 3  # the tables are all still there
    finally:
        loop.run_until_complete(db.close())
        loop.close()


SQL_WORDS = re.compile(r"\b(SELECT|INSERT|UPDATE|DELETE|PRAGMA|CREATE|DROP|ALTER|WHERE|VALUES|SET)\b")
EXECUTORS = {"execute", "executemany", "execute_fetchall", "execute_insert", "executescript", "_fetchall"}


def _sql_like(node: ast.AST) -> bool:
    return (
        isinstance(node, ast.Constant) and isinstance(node.value, str) and bool(SQL_WORDS.search(node.value))
    )


def test_no_sql_is_built_from_strings():
    """A static check of data/: SQL is only ever a literal or a module-level literal constant."""
    sources = sorted(DATA_DIR.glob("*.py"))
    assert sources
    problems: list[str] = []
    for path in sources:
        text = path.read_text(encoding="utf-8")
        lines = text.splitlines()
        tree = ast.parse(text)
        constants = {
            target.id
            for node in tree.body
            if isinstance(node, ast.Assign)
            and isinstance(node.value, ast.Constant)
            and isinstance(node.value.value, str)
            for target in node.targets
            if isinstance(target, ast.Name)
        }
        for node in ast.walk(tree):
            where = f"{path.name}:{getattr(node, 'lineno', '?')}"
            if isinstance(node, ast.JoinedStr) and any(_sql_like(v) for v in node.values):
                problems.append(f"{where}: f-string with SQL")
            if (
                isinstance(node, ast.BinOp)
                and isinstance(node.op, ast.Mod | ast.Add)
                and (_sql_like(node.left) or _sql_like(node.right))
            ):
                problems.append(f"{where}: SQL built with % or +")
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
                if node.func.attr == "format" and _sql_like(node.func.value):
                    problems.append(f"{where}: SQL built with .format")
                if node.func.attr in EXECUTORS and node.args:
                    sql = node.args[0]
                    literal = isinstance(sql, ast.Constant) and isinstance(sql.value, str)
                    constant = isinstance(sql, ast.Name) and sql.id in constants
                    vouched = any("sql-check:" in lines[i] for i in (node.lineno - 2, node.lineno - 1))
                    if not (literal or constant or vouched):
                        problems.append(
                            f"{where}: {node.func.attr}() with non-constant SQL {ast.unparse(sql)}"
                        )
    assert problems == []
    # And the check itself catches the classic mistake.
    bad = ast.parse('conn.execute(f"SELECT * FROM matches WHERE id = {x}")')
    assert any(isinstance(n, ast.JoinedStr) and any(_sql_like(v) for v in n.values) for n in ast.walk(bad))


def test_data_does_not_import_the_engine():
    for path in DATA_DIR.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import | ast.ImportFrom):
                names = (
                    [node.module or ""] if isinstance(node, ast.ImportFrom) else [a.name for a in node.names]
                )
                assert not any(n == "engine" or n.startswith("engine.") for n in names), path


async def test_transactions_waiting_together_share_one_commit_and_keep_their_own_fate(
    sqlite_db: SqliteDatabase,
):
    """Group commit: moves queued while the database thread is busy are committed together (one
    fsync), yet each lands whole or not at all: a stale one and a crashing one change nothing."""
    db = sqlite_db
    matches = [await active(db, channel_id=c) for c in range(1, 7)]
    inside, release, hold = holding_the_database()

    first = asyncio.create_task(
        db.commit_action(
            matches[0].id,
            expected_version=matches[0].version,
            actions=[NewAction("a", ALICE)],
            before_commit=hold,
        )
    )
    await asyncio.to_thread(inside.wait, 5)
    commits_before = db.commits

    def crash() -> None:
        raise RuntimeError("power cut")

    queued = [
        db.commit_action(
            m.id, expected_version=m.version, actions=[NewAction("b", ALICE)], snapshot={"ok": 1}
        )
        for m in matches[1:4]
    ]
    queued.append(  # stale: that version is long gone
        db.commit_action(
            matches[4].id, expected_version=matches[4].version - 1, actions=[NewAction("c", ALICE)]
        )
    )
    queued.append(
        db.commit_action(
            matches[5].id,
            expected_version=matches[5].version,
            actions=[NewAction("d", ALICE)],
            before_commit=crash,
        )
    )
    waiting = asyncio.gather(*queued, return_exceptions=True)
    await asyncio.sleep(0.05)
    release.set()
    await first
    results = await waiting
    assert [type(r).__name__ for r in results] == ["Match", "Match", "Match", "StaleVersion", "RuntimeError"]
    assert db.commits == commits_before + 2  # the held one, then the five waiting ones together
    for m in matches[1:4]:
        assert (await db.get_match(m.id)).snapshot == {"ok": 1}
        assert [a.notation for a in await db.actions(m.id)] == ["b"]
    for m in matches[4:]:
        assert await db.get_match(m.id) == m and await db.actions(m.id) == []


async def test_closing_waits_for_transactions_already_asked_for(store: str, clock: FakeClock):
    db = await Database.open(store, clock=clock)
    matches = [await active(db, channel_id=c) for c in range(1, 4)]
    pending = [
        asyncio.create_task(
            db.commit_action(m.id, expected_version=m.version, actions=[NewAction("x", ALICE)])
        )
        for m in matches
    ]
    await asyncio.sleep(0)  # asked for, not yet run
    await db.close()
    assert all(t.done() and not t.exception() for t in pending)
    async with Database.open(store, clock=clock) as reopened:
        for m in matches:
            assert [a.notation for a in await reopened.actions(m.id)] == ["x"]


async def test_two_closes_at_once_both_return(store: str, clock: FakeClock):
    """A shutdown and discord.py's own connect task may close the bot, so the database, together."""
    db = await Database.open(store, clock=clock)
    await active(db)
    await asyncio.wait_for(asyncio.gather(db.close(), db.close()), 10)  # a hang guard, not a timing
    await db.close()  # and once more, later


async def test_time_away_is_read_from_memory_on_sqlite_and_every_write_is_seen_at_once(db: Database):
    """A move asks for the waiting players' time away before it commits; on a store only this process
    writes, the answer comes from memory after the first read, and a write is never missed."""
    asked: list[str] = []
    query = db._query

    async def counted(sql: str, params: object = ()) -> list[object]:
        asked.append(sql)
        return await query(sql, params)

    db._query = counted  # type: ignore[method-assign]
    assert await db.time_away(1, ALICE, T0) == []
    assert await db.time_away(1, ALICE, T0 + 10) == []
    await db.set_time_away(1, ALICE, now=T0 + 20, until=T0 + 1000)
    (away,) = await db.time_away(1, ALICE, T0 + 30)
    assert (away.start_at, away.end_at) == (T0 + 20, T0 + 1000)
    assert await db.time_away(1, ALICE, T0 + 500) == [away]
    assert await db.time_away(1, ALICE, T0 + 1000) == []  # over by then
    assert await db.time_away(2, ALICE, T0 + 30) == []  # per server
    await db.set_time_away(1, ALICE, now=T0 + 40, until=None)  # back early
    (ended,) = await db.time_away(1, ALICE, T0 + 35)
    assert ended.end_at == T0 + 40
    assert await db.time_away(1, ALICE, T0 + 50) == []
    reads = sum(1 for sql in asked if "FROM time_away" in sql)
    # SQLite: one read after each write (and one per server); PostgreSQL, shared by processes: every time
    assert reads == (4 if db.store == "sqlite" else 8)
