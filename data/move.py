"""Moving house: every row of an SQLite database into an empty PostgreSQL one, in one transaction.

Every table of the schema is copied, whatever it holds (matches, the action log, stats, the outbox,
user preferences, and tables later migrations add), parents before the tables that refer to them,
with the same ids. The copy is then read back and compared row by row. Replaying every copied match
against its snapshot needs the rules, so that check is the caller's (play/movehouse.py).

Table and column names come from the SQLite file's own schema (sqlite_master, PRAGMA table_info),
never from a user; they are quoted where they enter a statement.
"""

from __future__ import annotations

import asyncio
import math
import sqlite3
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from data.db import Database
from data.errors import DataError
from data.postgres import PostgresDatabase

_TABLES = "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name"
# Templates: "{}" (or {table}, {column}) are filled with a quoted name from the schema.
_FOREIGN_KEYS = "PRAGMA foreign_key_list({})"
_COLUMNS = "PRAGMA table_info({})"
_HIGHEST = "SELECT max({column}) FROM {table}"
_IDENTITIES = """
SELECT table_name, column_name FROM information_schema.columns
WHERE table_schema = 'public' AND is_identity = 'YES'
"""
_RESTART_IDENTITY = "SELECT setval(pg_get_serial_sequence($1, $2), $3, true)"
_PG_COUNT = "SELECT count(*) FROM {}"
_PG_ROWS = "SELECT * FROM {} ORDER BY 1, 2"
_SQLITE_ROWS = "SELECT * FROM {} ORDER BY 1, 2"
BOOKKEEPING = frozenset({"schema_version"})  # PostgreSQL's own record of the migration number


@dataclass
class Copied:
    """What moving house did: rows per table, and every difference found reading the copy back."""

    rows: dict[str, int] = field(default_factory=dict)
    differences: list[str] = field(default_factory=list)


def _quoted(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def _tables_in_order(conn: sqlite3.Connection) -> list[str]:
    """Every table, each after the tables its foreign keys name."""
    tables = [name for (name,) in conn.execute(_TABLES)]
    parents = {
        # sql-check: the table name comes from sqlite_master, quoted
        t: {row[2] for row in conn.execute(_FOREIGN_KEYS.replace("{}", _quoted(t)))} - {t}
        for t in tables
    }
    ordered: list[str] = []
    while len(ordered) < len(tables):
        ready = [t for t in tables if t not in ordered and parents[t] <= set(ordered)]
        if not ready:
            raise DataError(f"the tables' foreign keys form a cycle: {sorted(set(tables) - set(ordered))}")
        ordered.extend(ready)
    return ordered


def _read(path: Path) -> dict[str, tuple[list[str], list[tuple[Any, ...]]]]:
    """Every table's columns and rows, in the order to copy them."""
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        out = {}
        for table in _tables_in_order(conn):
            # sql-check: the table name comes from sqlite_master, quoted
            columns = [row[1] for row in conn.execute(_COLUMNS.replace("{}", _quoted(table)))]
            # sql-check: as above
            rows = conn.execute(_SQLITE_ROWS.replace("{}", _quoted(table))).fetchall()
            out[table] = (columns, rows)
        return out
    finally:
        conn.close()


def _same(a: Any, b: Any) -> bool:
    if isinstance(a, float | int) and isinstance(b, float | int) and not isinstance(a, bool):
        return math.isclose(float(a), float(b), rel_tol=0, abs_tol=0)
    return bool(a == b)


async def copy_sqlite_to_postgres(path: Path, url: str) -> Copied:
    """Copy the SQLite database at `path` (migrated first, as the bot would) into the PostgreSQL
    database at `url`, which must hold no rows yet; then read the copy back and compare."""
    if not await asyncio.to_thread(path.exists):
        raise DataError(f"there is no SQLite database at {path}")
    async with Database.open(path):  # the source at this code's schema, like the target
        pass
    async with Database.open(url) as target:
        assert isinstance(target, PostgresDatabase)
        tables = await asyncio.to_thread(_read, path)
        copied = Copied()
        async with target._pool.acquire() as conn, conn.transaction():
            for table in tables:
                # sql-check: the table name comes from the SQLite schema, quoted
                if await conn.fetchval(_PG_COUNT.replace("{}", _quoted(table))):
                    raise DataError(
                        f"the PostgreSQL database already holds rows in {table}: moving house needs an "
                        "empty database (create a new one, or drop this one's tables first)"
                    )
            for table, (columns, rows) in tables.items():
                if table in BOOKKEEPING:
                    continue
                if rows:
                    await conn.copy_records_to_table(table, records=rows, columns=columns)
                copied.rows[table] = len(rows)
            for row in await conn.fetch(_IDENTITIES):
                table, column = row["table_name"], row["column_name"]
                highest_of = _HIGHEST.replace("{column}", _quoted(column)).replace("{table}", _quoted(table))
                # sql-check: names from information_schema, quoted
                highest = await conn.fetchval(highest_of)
                if highest is not None:
                    await conn.execute(_RESTART_IDENTITY, table, column, highest)
        copied.differences = await _compare(target, tables)
        return copied


async def _compare(
    target: PostgresDatabase, tables: dict[str, tuple[list[str], list[tuple[Any, ...]]]]
) -> list[str]:
    """Every row read back from PostgreSQL, against the SQLite row it came from."""
    differences: list[str] = []
    async with target._pool.acquire() as conn:
        for table, (columns, rows) in tables.items():
            if table in BOOKKEEPING:
                continue
            # sql-check: the table name comes from the SQLite schema, quoted
            back = await conn.fetch(_PG_ROWS.replace("{}", _quoted(table)))
            if len(back) != len(rows):
                differences.append(f"{table}: {len(rows)} rows in SQLite, {len(back)} in PostgreSQL")
                continue
            for old, new in zip(rows, back, strict=True):
                if not all(_same(old[i], new[column]) for i, column in enumerate(columns)):
                    differences.append(f"{table}: {old!r} came back as {tuple(new.values())!r}")
                    if len(differences) > 20:
                        return differences
    return differences
