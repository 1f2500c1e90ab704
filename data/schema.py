"""The numbered migrations, read once for both stores.

`data/migrations/NNNN_name.sql` are written in the SQLite dialect the first ones were written in, and
new ones in the portable subset (docs/architecture.md). PostgreSQL runs the very same files through
`to_postgres`, which rewrites the few SQLite words they use: 64-bit integer and float types (an
INTEGER in PostgreSQL is 32 bits, a REAL 4 bytes: a snowflake or a unix time would not fit), the
identity column, `json_valid` checks, WITHOUT ROWID, and the two append-only triggers. A statement it
cannot translate is refused by name rather than guessed at, so a new SQLite-only word fails the
PostgreSQL tests the day it is written. tests/test_stores.py compares the schemas the two produce.

A change the portable subset cannot say (widening a CHECK: SQLite rebuilds the table, PostgreSQL
swaps the constraint) is written once per store in the same file, under a line `-- [sqlite]` or
`-- [postgresql]`; `-- [both]` returns to the shared words, which every file starts in
(`statements_for`). A store's own section is run as written: PostgreSQL's is not translated.
"""

from __future__ import annotations

import re
import sqlite3
from pathlib import Path

from data.errors import MigrationError

MIGRATIONS_DIR = Path(__file__).with_name("migrations")
_MIGRATION_NAME = re.compile(r"^(\d{4})_[A-Za-z0-9_]+\.sql$")
_USER_VERSION = re.compile(r"^PRAGMA\s+user_version\s*=\s*(\d+)\s*;?$", re.IGNORECASE)


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


def split_statements(script: str) -> list[str]:
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


SQLITE, POSTGRESQL = "sqlite", "postgresql"
_BOTH = "both"
_SECTION = re.compile(r"^--\s*\[(\w+)\]\s*$")


def statements_for(script: str, store: str) -> list[tuple[str, bool]]:
    """The statements of a migration that `store` runs, in order, each with whether it comes from
    the store's own section (its own words) rather than the shared ones. A statement may not run
    across a section line, and an unknown section is refused by name rather than skipped."""
    chunks: list[tuple[str, list[str]]] = [(_BOTH, [])]
    for line in script.splitlines():
        marker = _SECTION.match(line.strip())
        if marker is None:
            chunks[-1][1].append(line)
            continue
        section = marker.group(1).lower()
        if section not in (_BOTH, SQLITE, POSTGRESQL):
            raise MigrationError(
                f"unknown section {line.strip()!r} in a migration: -- [both], -- [sqlite] or -- [postgresql]"
            )
        chunks.append((section, []))
    found: list[tuple[str, bool]] = []
    for n, (section, lines) in enumerate(chunks, start=1):
        if section not in (_BOTH, store):
            continue
        try:
            statements = split_statements("\n".join(lines))
        except MigrationError as exc:
            if n == len(chunks):
                raise
            raise MigrationError(f"{exc}: a statement may not run across a section line") from None
        found.extend((statement, section == store) for statement in statements)
    return found


def sets_version(statement: str) -> int | None:
    """The number a `PRAGMA user_version = N` statement records (each migration ends with its own)."""
    found = _USER_VERSION.match(_without_comments(statement).strip())
    return int(found.group(1)) if found else None


def _without_comments(statement: str) -> str:
    return "\n".join(line for line in statement.splitlines() if not line.strip().startswith("--"))


# --- SQLite words -> PostgreSQL ------------------------------------------------------------------

_TRIGGER = re.compile(
    r"^CREATE\s+TRIGGER\s+(\w+)\s+BEFORE\s+(UPDATE|DELETE)\s+ON\s+(\w+)\s+BEGIN\s+"
    r"SELECT\s+RAISE\s*\(\s*ABORT\s*,\s*'([^']*)'\s*\)\s*;\s*END\s*;?$",
    re.IGNORECASE | re.DOTALL,
)
_TRIGGER_FUNCTION = (
    r"CREATE FUNCTION \1_refuse() RETURNS trigger LANGUAGE plpgsql AS $body$ BEGIN "
    r"RAISE EXCEPTION '\4' USING ERRCODE = 'integrity_constraint_violation'; END $body$"
)
_TRIGGER_ITSELF = r"CREATE TRIGGER \1 BEFORE \2 ON \3 FOR EACH ROW EXECUTE FUNCTION \1_refuse()"
_WORDS = (
    (
        re.compile(r"\bINTEGER\s+PRIMARY\s+KEY\s+AUTOINCREMENT\b", re.I),
        "BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY",
    ),
    (re.compile(r"\bjson_valid\s*\(\s*(\w+)\s*\)", re.I), r"(\1::json IS NOT NULL)"),
    (re.compile(r"\)\s*WITHOUT\s+ROWID\s*;?\s*$", re.I), ")"),
    (re.compile(r"\bINTEGER\b", re.I), "BIGINT"),
    (re.compile(r"\bREAL\b", re.I), "DOUBLE PRECISION"),
)
_SQLITE_ONLY = re.compile(
    r"\b(PRAGMA|AUTOINCREMENT|WITHOUT\s+ROWID|json_each|json_extract|GLOB|IFNULL)\b", re.I
)


def to_postgres(statement: str) -> list[str]:
    """One migration statement in PostgreSQL's words (a trigger becomes its function and itself)."""
    text = _without_comments(statement).strip()
    if _TRIGGER.match(text):
        # Two statements from constant templates: the message comes from our own migration file.
        return [_TRIGGER.sub(_TRIGGER_FUNCTION, text), _TRIGGER.sub(_TRIGGER_ITSELF, text)]
    for pattern, replacement in _WORDS:
        text = pattern.sub(replacement, text)
    text = text.rstrip().rstrip(";")
    leftover = _SQLITE_ONLY.search(text)
    if leftover:
        raise MigrationError(
            f"this migration statement uses SQLite's {leftover.group(1)!r}, which PostgreSQL does not know: "
            f"{text[:80]!r} (see docs/architecture.md, 'Migrations')"
        )
    return [text]
