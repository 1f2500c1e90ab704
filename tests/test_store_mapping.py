"""The store's mapping, held together (issue 33, item 7): the records of data/models.py, the SQL of
data/db.py and the migrations agree, on both stores.

Adding a column is then one obvious way (docs/architecture.md, "Adding a column"): a migration, the
model's field, the row reader and, for a field that changes, MUTABLE_FIELDS and the UPDATE; a step
left out fails here by name, on SQLite and on PostgreSQL.
"""

from __future__ import annotations

import ast
import asyncio
import dataclasses
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import data.db as db
from data import Database
from data.models import ActionRecord, Away, Match, PlayerStats, Status, UserPrefs
from tests.test_stores import postgres_schema, sqlite_schema

ROOT = Path(__file__).resolve().parent.parent
# Each record and the table it is a row of; `whole`: every column is a field (else the table keeps
# bookkeeping of its own, such as when a row was last written).
RECORDS = [
    (Match, "matches", True),
    (ActionRecord, "actions", True),
    (PlayerStats, "player_stats", False),
    (UserPrefs, "users", False),
    (Away, "time_away", True),
]
# The readers of whole rows (`SELECT *`), each of one record.
READERS: list[tuple[Callable[[Any], Any], type, str]] = [
    (db.row_to_match, Match, "matches"),
    (db._row_to_stats, PlayerStats, "player_stats"),
]
READERS.append((db._row_to_action, ActionRecord, "actions"))
# How a field's Python type is stored: JSON and enums as text, a bool as an integer 0 or 1.
STORED = {
    "int": "int",
    "float": "float",
    "str": "text",
    "bool": "int",
    "Status": "text",
    "dict": "text",
    "GameClock": "text",
}


def stored_type(annotation: str) -> tuple[str, bool]:
    """A field's annotation ("int | None", "dict[str, Any]") as (its column type, nullable)."""
    parts = [p.strip() for p in annotation.split("|")]
    nullable = "None" in parts
    (base,) = [p for p in parts if p != "None"]
    return STORED[base.split("[")[0]], nullable


async def _migrate(path: Path) -> None:
    async with Database.open(path):
        pass


@pytest.fixture(params=["sqlite", "postgresql"])
def schema(request: pytest.FixtureRequest, tmp_path: Path) -> dict[str, Any]:
    """The tables of a database every migration made: {table: {column: (type, not null)}}."""
    if request.param == "sqlite":
        asyncio.run(_migrate(tmp_path / "s.db"))
        found = sqlite_schema(tmp_path / "s.db")
    else:
        found = asyncio.run(postgres_schema(request.getfixturevalue("pg_url")))
    return {t: {n: (kind, notnull) for n, kind, notnull in v["columns"]} for t, v in found["tables"].items()}


def test_every_field_of_a_record_is_a_column_of_its_table_with_its_type(schema: dict[str, Any]):
    for record, table, whole in RECORDS:
        columns = schema[table]
        fields = {f.name: f.type for f in dataclasses.fields(record)}
        missing = sorted(set(fields) - set(columns))
        assert not missing, f"{record.__name__} has fields that {table} has no column for: {missing}"
        if whole:
            extra = sorted(set(columns) - set(fields))
            assert not extra, f"{table} has columns that {record.__name__} does not read: {extra}"
        for name, annotation in fields.items():
            kind, nullable = stored_type(str(annotation))
            assert columns[name][0] == kind, f"{table}.{name} is {columns[name][0]}, the field {annotation}"
            assert nullable or columns[name][1], f"{table}.{name} may be NULL, the field {annotation} not"


class Row(dict[str, Any]):
    """A row that records which columns its reader took."""

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        self.read: set[str] = set()

    def __getitem__(self, key: str) -> Any:
        self.read.add(key)
        return super().__getitem__(key)


SAMPLE = {"int": 1, "float": 1.5, "text": "{}"}


def test_each_row_reader_reads_every_field_of_its_record_from_its_columns(schema: dict[str, Any]):
    for reader, record, table in READERS:
        row = Row({name: SAMPLE[kind] for name, (kind, _) in schema[table].items()})
        if table == "matches":
            row["status"] = str(Status.ACTIVE)
            row["game_clock"] = '{"total": 60, "left": {}}'  # JSON of a record, not any JSON
        out = reader(row)
        assert isinstance(out, record)
        assert row.read == {f.name for f in dataclasses.fields(record)}, f"{reader.__name__} reads {row.read}"


def statements() -> dict[str, str]:
    """Every SQL statement of data/db.py, by the name of its constant."""
    tree = ast.parse((ROOT / "data" / "db.py").read_text())
    out = {}
    for node in tree.body:
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant):
            text = node.value.value
            if isinstance(text, str) and re.search(r"\b(SELECT|INSERT|UPDATE|DELETE)\b", text):
                out[node.targets[0].id] = text  # type: ignore[attr-defined]
    return out


def test_the_statements_are_found():
    found = statements()
    assert {"_INSERT_MATCH", "_UPDATE_MATCH", "_SELECT_MATCH", "_INSERT_ACTION", "_ADD_RESULT"} <= set(found)


def test_every_statement_names_only_columns_its_tables_have(schema: dict[str, Any]):
    """SQL keywords are written in capitals in data/db.py, so every lower-case word of a statement
    (string literals and parameters aside) is a table, an alias or a column."""
    for name, sql in statements().items():
        text = re.sub(r"'[^']*'", "", sql)
        text = re.sub(r":[a-z_]+", "", text)
        # a WITH clause's names (PostgreSQL's one-statement move) are tables of the statement itself
        ctes = set(re.findall(r"(?:\bWITH|,)\s+([a-z_]+)\s+AS\s*\(", text))
        tables = [t for t in re.findall(r"\b(?:FROM|INTO|UPDATE|JOIN)\s+([a-z_]+)", text) if t not in ctes]
        # a statement reads a table (found by name), or only its parameters (the advisory locks)
        assert tables or not re.search(r"\b(?:INTO|UPDATE)\b|\bFROM\s+[a-z_]", text), name
        assert all(t in schema for t in tables), (name, tables)
        aliases = set(re.findall(r"\bAS\s+([a-z_]+)", text)) | {"excluded"} | ctes
        functions = set(re.findall(r"\b([a-z_]+)\(", text)) - set(schema)
        aliases |= functions
        for listed in re.findall(r"\bAS\s+[a-z_]+\s*\(([a-z_, ]+)\)", text):  # AS a (x, y): a row's names
            aliases |= {word.strip() for word in listed.split(",")}
        columns = {c for t in tables for c in schema[t]}
        words = set(re.findall(r"\b[a-z_][a-z0-9_]*\b", text)) - set(tables) - aliases
        unknown = sorted(words - columns)
        assert not unknown, f"{name} names {unknown}, which no table of {tables} has"


def test_the_match_update_writes_every_changeable_field_and_gets_every_parameter():
    sql = db._UPDATE_MATCH
    written = set(re.findall(r"\b([a-z_]+) = :\1\b", sql.split("WHERE")[0]))
    assert written >= db.MUTABLE_FIELDS, sorted(db.MUTABLE_FIELDS - written)
    fields = {f.name for f in dataclasses.fields(Match)}
    assert written <= fields
    assert written - db.MUTABLE_FIELDS == {"version", "winner_id", "result_reason", "updated_at"}
    blank: dict[str, Any] = {f.name: None for f in dataclasses.fields(Match)}
    match = Match(**blank | {"status": Status.ACTIVE, "sides": {}, "reminded": False, "updated_at": 0.0})
    params = db._match_params(match, 0)
    assert set(re.findall(r":([a-z_]+)", sql)) == set(params)


def test_a_new_match_gets_a_value_for_every_column_without_a_default():
    """The INSERT names every NOT NULL column the migrations give no default (checked on SQLite's
    own words for them)."""
    named = set(re.search(r"\(([^)]*)\)", db._INSERT_MATCH).group(1).replace("\n", " ").split(", "))  # type: ignore[union-attr]
    named = {n.strip() for n in named}
    migrations = "\n".join(p.read_text() for p in sorted((ROOT / "data" / "migrations").glob("*.sql")))
    block = re.search(r"CREATE TABLE matches \((.*?)\n\);", migrations, re.S).group(1)  # type: ignore[union-attr]
    needed = set()
    for line in block.splitlines():
        m = re.match(r"\s+([a-z_]+)\s+\w+(.*)", line)
        if m and "NOT NULL" in m.group(2) and "DEFAULT" not in m.group(2) and "PRIMARY KEY" not in m.group(2):
            needed.add(m.group(1))
    assert needed and needed <= named, sorted(needed - named)
