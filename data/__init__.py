"""Persistence: the only package that talks SQL (see `data.db.Database`).

It stores opaque engine snapshots (JSON) and action notation strings and never imports the
engine, so the rules and the storage can change independently.
"""

from data.db import MUTABLE_FIELDS, Database, load_migrations
from data.elo import K_FACTOR, START_RATING
from data.errors import (
    ChannelBusy,
    DataError,
    DuplicateInteraction,
    MatchNotFound,
    MigrationError,
    StaleVersion,
)
from data.models import (
    OPEN_STATUSES,
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

__all__ = [
    "K_FACTOR",
    "MUTABLE_FIELDS",
    "OPEN_STATUSES",
    "START_RATING",
    "ActionRecord",
    "AiRecord",
    "Away",
    "ChannelBusy",
    "DataError",
    "Database",
    "DuplicateInteraction",
    "Match",
    "MatchNotFound",
    "MigrationError",
    "NewAction",
    "PlayerStats",
    "Result",
    "StaleVersion",
    "Status",
    "UserPrefs",
    "load_migrations",
]
