"""Persistence: the only package that talks SQL (see `data.db.Database`, the seam of both stores).

It stores opaque engine snapshots (JSON) and action notation strings and never imports the
engine, so the rules and the storage can change independently. SQLite (`data/sqlite.py`) is the
embedded default; PostgreSQL (`data/postgres.py`) serves several bot processes at once.
"""

# Both stores are imported here: each makes itself known to `Database.open` (data/db.py names neither).
from data.db import MUTABLE_FIELDS, Database, is_postgres_url, load_migrations
from data.elo import K_FACTOR, START_RATING
from data.errors import (
    AwayChanged,
    ChannelBusy,
    DataError,
    DuplicateInteraction,
    MatchNotFound,
    MigrationError,
    StaleVersion,
    StoreUnavailable,
)
from data.models import (
    OPEN_STATUSES,
    ActionRecord,
    AiRecord,
    Away,
    AwaySeen,
    GameClock,
    Match,
    MatchChange,
    NewAction,
    PlayerStats,
    RatedResult,
    Result,
    Seal,
    Status,
    UserPrefs,
)
from data.postgres import PostgresDatabase
from data.sqlite import SqliteDatabase

__all__ = [
    "K_FACTOR",
    "MUTABLE_FIELDS",
    "OPEN_STATUSES",
    "START_RATING",
    "ActionRecord",
    "AiRecord",
    "Away",
    "AwayChanged",
    "AwaySeen",
    "ChannelBusy",
    "DataError",
    "Database",
    "DuplicateInteraction",
    "GameClock",
    "Match",
    "MatchChange",
    "MatchNotFound",
    "MigrationError",
    "NewAction",
    "PlayerStats",
    "PostgresDatabase",
    "RatedResult",
    "Result",
    "Seal",
    "SqliteDatabase",
    "StaleVersion",
    "Status",
    "StoreUnavailable",
    "UserPrefs",
    "is_postgres_url",
    "load_migrations",
]
