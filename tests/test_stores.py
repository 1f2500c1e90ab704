"""The two stores side by side: the same migrations make the same schema; PostgreSQL migrates once under
its lock, whole or not at all; a bad DATABASE_URL or a database newer than the code ends the bot with
one clear line."""

from __future__ import annotations

import asyncio
import os
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

import asyncpg
import pytest

from data import Database, MigrationError, PostgresDatabase, StaleVersion, load_migrations
from data.db import Transaction, rows
from data.schema import POSTGRESQL, SQLITE, statements_for, to_postgres
from tests import pgserver

NOW = 1_790_000_000.0  # any fixed time: the store keeps what it is given

ROOT = Path(__file__).resolve().parent.parent
STORE_PLUMBING = {"schema_version"}  # PostgreSQL's record of the migration number (SQLite: user_version)
# PostgreSQL telling other processes of a change
PLUMBING_TRIGGERS = {"wargames_match_changed", "wargames_person_changed"}
TYPES = {"integer": "int", "bigint": "int", "real": "float", "double precision": "float", "text": "text"}


def sqlite_schema(path: Path) -> dict[str, Any]:
    conn = sqlite3.connect(path)
    try:
        tables = [
            name
            for (name,) in conn.execute(
                "SELECT name FROM sqlite_master "
                "WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name"
            )
        ]
        out: dict[str, Any] = {"tables": {}, "indexes": {}, "triggers": set()}
        for table in tables:
            info = conn.execute(f"PRAGMA table_info({table})").fetchall()
            out["tables"][table] = {
                "columns": [
                    (name, TYPES[kind.lower()], bool(notnull or pk)) for _, name, kind, notnull, _, pk in info
                ],
                "key": [name for *_, name, _, _, _, pk in sorted(info, key=lambda r: r[5]) if pk],
            }
            for _, index, unique, origin, _ in conn.execute(f"PRAGMA index_list({table})"):
                if origin == "pk":
                    continue
                columns = [name for _, _, name in conn.execute(f"PRAGMA index_info({index})")]
                out["indexes"][index] = (table, bool(unique), columns)
        out["triggers"] = {
            name for (name,) in conn.execute("SELECT name FROM sqlite_master WHERE type = 'trigger'")
        }
        return out
    finally:
        conn.close()


async def postgres_schema(url: str) -> dict[str, Any]:
    conn = await asyncpg.connect(url)
    try:
        out: dict[str, Any] = {"tables": {}, "indexes": {}, "triggers": set()}
        columns = await conn.fetch(
            "SELECT table_name, column_name, data_type, is_nullable FROM information_schema.columns "
            "WHERE table_schema = 'public' ORDER BY table_name, ordinal_position"
        )
        keys = await conn.fetch(
            "SELECT t.relname AS table_name, a.attname AS column_name, "
            "array_position(i.indkey, a.attnum) AS n "
            "FROM pg_index i JOIN pg_class t ON t.oid = i.indrelid "
            "JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = ANY(i.indkey) "
            "JOIN pg_namespace s ON s.oid = t.relnamespace "
            "WHERE i.indisprimary AND s.nspname = 'public' ORDER BY t.relname, n"
        )
        for row in columns:
            if row["table_name"] in STORE_PLUMBING:
                continue
            table = out["tables"].setdefault(row["table_name"], {"columns": [], "key": []})
            table["columns"].append((row["column_name"], TYPES[row["data_type"]], row["is_nullable"] == "NO"))
        for row in keys:
            if row["table_name"] in out["tables"]:
                out["tables"][row["table_name"]]["key"].append(row["column_name"])
        indexes = await conn.fetch(
            "SELECT c.relname AS index_name, t.relname AS table_name, i.indisunique, "
            "ARRAY(SELECT a.attname FROM unnest(i.indkey) WITH ORDINALITY AS k(attnum, n) "
            "      JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = k.attnum "
            "      ORDER BY k.n) AS columns "
            "FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid JOIN pg_class t ON t.oid = i.indrelid "
            "JOIN pg_namespace s ON s.oid = t.relnamespace "
            "WHERE s.nspname = 'public' AND NOT i.indisprimary"
        )
        for row in indexes:
            out["indexes"][row["index_name"]] = (row["table_name"], row["indisunique"], list(row["columns"]))
        triggers = await conn.fetch("SELECT DISTINCT trigger_name FROM information_schema.triggers")
        out["triggers"] = {row["trigger_name"] for row in triggers} - PLUMBING_TRIGGERS
        return out
    finally:
        await conn.close()


async def test_the_same_migrations_make_the_same_schema_on_both_stores(tmp_path: Path, pg_empty_url: str):
    """Tables, columns (name, type, NOT NULL, order), primary keys, indexes (unique or not, columns)
    and the append-only triggers: the same on SQLite and on PostgreSQL, from the same files."""
    async with Database.open(tmp_path / "s.db") as lite, Database.open(pg_empty_url) as pg:
        assert await lite.schema_version() == await pg.schema_version() == len(load_migrations())
    on_sqlite, on_postgres = sqlite_schema(tmp_path / "s.db"), await postgres_schema(pg_empty_url)
    assert on_sqlite["tables"] == on_postgres["tables"]
    assert on_sqlite["indexes"] == on_postgres["indexes"]
    assert on_sqlite["triggers"] == on_postgres["triggers"] == {"actions_no_update", "actions_no_delete"}
    assert {"matches", "actions", "player_stats", "users", "owed_boards"} <= set(on_postgres["tables"])


async def test_processes_starting_together_migrate_once(pg_empty_url: str):
    """Four processes opening an empty database at once: the advisory lock lets one migrate, the
    others find it done (a second CREATE TABLE would fail)."""
    opened = await asyncio.gather(*(Database.open(pg_empty_url) for _ in range(4)))
    try:
        assert [await db.schema_version() for db in opened] == [len(load_migrations())] * 4
    finally:
        for db in opened:
            await db.close()


async def test_postgresql_hands_connections_back_without_a_reset_and_never_mid_transaction(pg_url: str):
    """asyncpg's default release runs a reset query (`RESET ALL`, `UNLISTEN *`, ...) on every
    connection handed back: one more round trip per read or transaction, a quarter of them under
    load. The store changes no session state, so it skips that; a transaction that failed is still
    rolled back before its connection is reused. The server shows each pooled connection's state
    and last statement."""
    async with Database.open(pg_url) as db:
        await db.get_user_prefs(7)
        await db.set_time_away(1, 7, now=NOW, until=NOW + 3600)
        match = await db.create_challenge(
            guild_id=1,
            channel_id=2,
            challenger_id=7,
            opponent_id=8,
            seed=1,
            turn_seconds=3600,
            game="blockwars",
            challenge_expires_at=NOW + 60,
        )
        with pytest.raises(StaleVersion):
            await db.update_match(match.id, expected_version=match.version + 1, status="cancelled")
        assert isinstance(db, PostgresDatabase)
        await db.announced()  # the challenge's announcement to other processes runs after its commit
        watcher = await asyncpg.connect(pg_url)
        try:
            pooled = await watcher.fetch(
                "SELECT state, query FROM pg_stat_activity WHERE application_name = 'wargames'"
            )
        finally:
            await watcher.close()
        assert await db.get_match(match.id) == match  # the failed update changed nothing
    assert pooled, "the store's pool holds no connection"
    assert {row["state"] for row in pooled} == {"idle"}, pooled  # never "idle in transaction"
    assert not [row["query"] for row in pooled if "RESET ALL" in row["query"]], pooled


async def test_postgresql_refuses_a_database_newer_than_the_code(pg_url: str):
    conn = await asyncpg.connect(pg_url)
    await conn.execute("UPDATE schema_version SET version = 99")
    await conn.close()
    with pytest.raises(MigrationError, match="newer than this code"):
        await Database.open(pg_url)


async def test_a_failing_migration_leaves_postgresql_as_it_was(tmp_path: Path, pg_empty_url: str):
    """All pending migrations run in one transaction: one failing statement undoes every one."""
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
    with pytest.raises(asyncpg.UndefinedTableError):
        await Database.open(pg_empty_url, migrations_dir=migrations)
    conn = await asyncpg.connect(pg_empty_url)
    try:
        tables = {
            r["tablename"]
            for r in await conn.fetch("SELECT tablename FROM pg_tables WHERE schemaname = 'public'")
        }
    finally:
        await conn.close()
    assert tables == set()  # not even the first migrations: never half-migrated


def test_a_sqlite_only_word_in_a_new_migration_is_refused_by_name():
    with pytest.raises(MigrationError, match="json_each"):
        to_postgres("CREATE INDEX x ON matches (id) WHERE id IN (SELECT value FROM json_each(sides))")
    assert to_postgres("ALTER TABLE matches ADD COLUMN away_until REAL") == [
        "ALTER TABLE matches ADD COLUMN away_until DOUBLE PRECISION"
    ]


SECTIONED = """-- a change each store says in its own words
CREATE TABLE sectioned (x INTEGER);
-- [sqlite]
ALTER TABLE sectioned ADD COLUMN store TEXT NOT NULL DEFAULT 'sqlite';
-- [postgresql]
ALTER TABLE sectioned ADD COLUMN store TEXT NOT NULL DEFAULT 'postgresql';
-- [both]
INSERT INTO sectioned (x) VALUES (1);
"""


def test_the_sections_of_a_migration_give_each_store_its_own_statements():
    """`-- [sqlite]` and `-- [postgresql]` hold what one store runs, `-- [both]` goes back to the
    shared words; a store's own statements are marked to run as written (not translated)."""
    assert [(s.split()[-1], own) for s, own in statements_for(SECTIONED, SQLITE)] == [
        ("INTEGER);", False),
        ("'sqlite';", True),
        ("(1);", False),
    ]
    assert [own for _, own in statements_for(SECTIONED, POSTGRESQL)] == [False, True, False]
    assert "'postgresql'" in statements_for(SECTIONED, POSTGRESQL)[1][0]
    with pytest.raises(MigrationError, match=r"unknown section '-- \[mysql\]'"):
        statements_for("-- [mysql]\nSELECT 1;\n", SQLITE)
    with pytest.raises(MigrationError, match="may not run across a section line"):
        statements_for("CREATE TABLE t (\n-- [sqlite]\nx INTEGER);\n", SQLITE)


async def test_each_store_runs_its_own_section_of_a_migration(store: str, tmp_path: Path):
    migrations = tmp_path / "migrations"
    migrations.mkdir()
    for _, path in load_migrations():
        shutil.copy(path, migrations / path.name)
    n = len(load_migrations()) + 1
    (migrations / f"{n:04d}_sectioned.sql").write_text(f"{SECTIONED}PRAGMA user_version = {n};\n")

    def stored() -> Transaction[list[tuple[int, str]]]:
        found = yield rows("SELECT x, store FROM sectioned")
        return [(int(r["x"]), r["store"]) for r in found]

    async with Database.open(store, migrations_dir=migrations) as db:
        assert await db.schema_version() == n
        assert await db._transact(stored) == [(1, POSTGRESQL if isinstance(db, PostgresDatabase) else SQLITE)]


# --- the bot with a bad DATABASE_URL --------------------------------------------------------------


def run_bot(tmp_path: Path, url: str) -> subprocess.CompletedProcess[str]:
    """`python bot.py` (its `main`) with this DATABASE_URL and a token, as `make run` would start it."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "DATABASE_", "SHARD_"))}
    env |= {"PYTHONPATH": str(ROOT), "DISCORD_TOKEN": "t.o.k", "DATABASE_URL": url, "DATA_DIR": str(tmp_path)}
    return subprocess.run(
        [sys.executable, "-c", "import sys, bot; sys.exit(bot.main([]))"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )


def one_clear_line(proc: subprocess.CompletedProcess[str]) -> str:
    assert proc.returncode == 1, proc.stderr
    assert "Traceback" not in proc.stderr, proc.stderr
    errors = [line for line in proc.stderr.splitlines() if "ERROR" in line]
    assert len(errors) == 1, proc.stderr
    assert pgserver.PASSWORD not in proc.stderr + proc.stdout
    return errors[0]


def test_an_unreachable_database_ends_the_bot_in_one_line(tmp_path: Path):
    line = one_clear_line(
        run_bot(tmp_path, f"postgresql://u:{pgserver.PASSWORD}@/wargames?host={tmp_path}/none")
    )
    assert "cannot be reached" in line and "DATABASE_URL" in line


def test_a_wrong_password_ends_the_bot_in_one_line(tmp_path: Path, pg_server: pgserver.PgServer):
    line = one_clear_line(run_bot(tmp_path, pg_server.url(password="not-" + pgserver.PASSWORD)))
    assert "refused the password" in line


def test_a_database_newer_than_the_code_ends_the_bot_in_one_line(tmp_path: Path, pg_url: str):
    async def newer() -> None:
        conn = await asyncpg.connect(pg_url)
        await conn.execute("UPDATE schema_version SET version = 99")
        await conn.close()

    asyncio.run(newer())
    line = one_clear_line(run_bot(tmp_path, pg_url))
    assert "newer than this code" in line


def test_a_missing_database_and_a_wrong_scheme_say_what_to_fix(tmp_path: Path, pg_server: pgserver.PgServer):
    line = one_clear_line(run_bot(tmp_path, pg_server.url("no_such_database")))
    assert "does not exist" in line
    proc = run_bot(tmp_path, "mysql://x@y/z")
    assert proc.returncode == 1 and "Traceback" not in proc.stderr and "postgresql://" in proc.stderr
