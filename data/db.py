"""The store seam: every query and transaction of the bot, written once, run by either store.

`Database` is what play/ and the bot hold. `Database.open(target)` opens SQLite for a path (the
embedded default: `make run` with nothing configured) and PostgreSQL for a `postgresql://` URL
(several bot processes on one database, docs/deploy.md). Each store is a subclass that only knows
how to run things: `data/sqlite.py` (one aiosqlite connection, group commit) and
`data/postgres.py` (an asyncpg pool).

A transaction is written here once, as a generator that yields its statements (`Step`s) and gets
each one's result back: `_apply` reads the match, checks its version, writes it back. The SQLite
store drives it on its database thread inside the group commit, the PostgreSQL store on a pooled
connection inside `BEGIN ... COMMIT`; a UNIQUE index refusing a row comes back into the generator
as `Conflict`, so the same code maps it to `ChannelBusy` or `DuplicateInteraction` on both. A new
method is one transaction (or one query) here, and runs on both stores.

Concurrency. Every change to a match is `UPDATE ... WHERE id = ? AND version = ?`: a second writer
(another coroutine, connection or process) that loaded the same version loses with `StaleVersion`
instead of overwriting the winner. SQLite serialises writers (`BEGIN IMMEDIATE`); PostgreSQL runs
them side by side, so the one read-modify-write that is not a match row, the players' ratings, locks
its rows first (`FOR UPDATE`, in user id order).

SQL is written in the words both dialects share (`?` or `:name` parameters, `ON CONFLICT`,
`RETURNING`); a step may carry PostgreSQL's own words where they differ. Every query is a
module-level string literal: tests/test_data.py checks that no SQL is built from strings.
"""

from __future__ import annotations

import contextlib
import dataclasses
import hashlib
import json
import os
import time
from collections.abc import Awaitable, Callable, Generator, Iterable, Sequence
from pathlib import Path
from types import TracebackType
from typing import Any, ClassVar, Generic, TypeVar

from data import elo
from data.errors import (
    AwayChanged,
    ChannelBusy,
    DuplicateInteraction,
    MatchNotFound,
    StaleVersion,
)
from data.models import (
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
from data.schema import MIGRATIONS_DIR, load_migrations

__all__ = ["MIGRATIONS_DIR", "MUTABLE_FIELDS", "Conflict", "Database", "Step", "load_migrations"]

_INT_MIN, _INT_MAX = -(2**63), 2**63 - 1
_PEOPLE_KEPT = 50_000  # players whose time away (or preferences) are kept before all are forgotten
NO_LIMIT = 2**62  # LIMIT for "all": both dialects take a number (PostgreSQL refuses SQLite's -1)
POSTGRES_SCHEMES = ("postgresql://", "postgres://")

Clock = Callable[[], float]
BeforeCommit = Callable[[], None]
ChangeListener = Callable[[MatchChange | None], None]
T = TypeVar("T")
K = TypeVar("K")
V = TypeVar("V")

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
        "game_clock",
    }
)


# --- the steps of a transaction -----------------------------------------------------------------


@dataclasses.dataclass(frozen=True, slots=True)
class Step:
    """One statement of a transaction. `kind` says what the transaction gets back: "one" (a row or
    None), "rows" (a list), "count" (rows changed) or "many" (one statement per parameter set).
    `postgres` holds PostgreSQL's own words where the dialects differ (a row lock)."""

    kind: str
    sql: str
    params: Any
    postgres: str | None = None
    # The transaction's only statement: a store may send it without BEGIN/COMMIT (PostgreSQL then
    # runs it in a transaction of its own, one round trip instead of three). The generator must
    # end after it.
    alone: bool = False


def one(sql: str, params: Any = (), *, postgres: str | None = None, alone: bool = False) -> Step:
    return Step("one", sql, params, postgres, alone)


def rows(sql: str, params: Any = (), *, postgres: str | None = None) -> Step:
    return Step("rows", sql, params, postgres)


def count(sql: str, params: Any = (), *, alone: bool = False) -> Step:
    return Step("count", sql, params, alone=alone)


def many(sql: str, params: Sequence[Any]) -> Step:
    return Step("many", sql, params)


Transaction = Generator[Step, Any, T]


class Conflict(Exception):
    """A UNIQUE index refused a row; `on` names it as "table.column" on both stores. Raised into
    the transaction at the step that hit it."""

    def __init__(self, on: str) -> None:
        super().__init__(f"unique constraint failed: {on}")
        self.on = on


# --- SQL ------------------------------------------------------------------------------------

_INSERT_MATCH = """
INSERT INTO matches (
    guild_id, channel_id, game, options, seed, challenger_id, opponent_id, challenger_side,
    sides, status, turn_seconds, version, challenge_expires_at, ai_player_id, ai_level,
    created_at, updated_at, chance_version, seed_secret, seed_commitment, seed_inputs, game_clock,
    sealed_at, seal_channel_id, seal_message_id
) VALUES (
    :guild_id, :channel_id, :game, :options, :seed, :challenger_id, :opponent_id, :challenger_side,
    '{}', 'challenged', :turn_seconds, 0, :challenge_expires_at, :ai_player_id, :ai_level,
    :now, :now, :chance_version, :seed_secret, :seed_commitment, :seed_inputs, :game_clock,
    :sealed_at, :seal_channel_id, :seal_message_id
)
RETURNING *
"""

# A channel's seal (migration 0010): drawn once and kept until a challenge takes it; shown once (the
# first message that showed it is the one a player can check); taken, only once shown, by the
# transaction that stores the challenge, so two challenges can never share one.
_ADD_SEAL = """
INSERT INTO channel_seals (channel_id, secret, commitment, created_at) VALUES (?, ?, ?, ?)
ON CONFLICT (channel_id) DO NOTHING
"""
_SELECT_SEAL = "SELECT * FROM channel_seals WHERE channel_id = ?"
_SEAL_SHOWN = """
UPDATE channel_seals SET shown_at = ?, message_id = ?
WHERE channel_id = ? AND commitment = ? AND shown_at IS NULL
"""
_TAKE_SEAL = "DELETE FROM channel_seals WHERE channel_id = ? AND shown_at IS NOT NULL RETURNING *"

# The largest id a row can have (SQLite's INTEGER, PostgreSQL's BIGINT): a number past it, typed
# at the console, names no row, and is answered so rather than sent to a store that cannot take it.
MAX_ID = 2**63 - 1

_SELECT_MATCH = "SELECT * FROM matches WHERE id = ?"
# PostgreSQL: a read-modify-write of a match holds its row from the read on. A clock shift or a
# reminder's mark does not bump the version (the buttons stay current), so without the lock one
# committed between the read and the write was overwritten with the value read: the mark lost (a
# second reminder), or the shift (a player away could lose on time). SQLite writes one at a time.
_SELECT_MATCH_LOCKED = "SELECT * FROM matches WHERE id = ? FOR UPDATE"

_SELECT_CHANNEL_MATCH = "SELECT * FROM matches WHERE channel_id = ? AND status IN ('challenged', 'active')"

# `statuses` is ",active,challenged," (or NULL): LIKE and || read the same in both dialects; the CASTs
# tell PostgreSQL the type of a parameter that may be NULL.
_LIST_MATCHES = """
SELECT * FROM matches
WHERE (CAST(:guild_id AS BIGINT) IS NULL OR guild_id = :guild_id)
  AND (CAST(:channel_id AS BIGINT) IS NULL OR channel_id = :channel_id)
  AND (CAST(:player_id AS BIGINT) IS NULL OR challenger_id = :player_id OR opponent_id = :player_id)
  AND (CAST(:statuses AS TEXT) IS NULL OR :statuses LIKE '%,' || status || ',%')
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
    game_clock = :game_clock,
    updated_at = :updated_at
WHERE id = :id AND version = :expected_version
"""

_INTERACTION_SEEN = "SELECT 1 FROM actions WHERE interaction_id = ?"
_NEXT_SEQ = "SELECT COALESCE(MAX(seq), 0) + 1 AS seq FROM actions WHERE match_id = ?"
_INSERT_ACTION = """
INSERT INTO actions (match_id, seq, player_id, notation, interaction_id, at, version)
VALUES (?, ?, ?, ?, ?, ?, ?)
"""
_SELECT_ACTIONS = "SELECT * FROM actions WHERE match_id = ? ORDER BY seq"
_COUNT_ACTIONS = "SELECT COUNT(*) AS n FROM actions WHERE match_id = ?"
_COUNT_ACTIONS_UPTO = "SELECT COUNT(*) AS n FROM actions WHERE match_id = ? AND version <= ?"

# A whole move as ONE statement, for a store that runs statements over a network (PostgreSQL): the
# interaction check, the version-checked update of the changed fields (each `set_*` says whether
# its field changes: no SQL is assembled from names), the log rows numbered after the last one,
# and the owed board, in one round trip and one implicit transaction. Every part sees the same
# snapshot (but the time away that `clocked` checks: below); a concurrent move of the same match
# waits for its row lock, then finds the version moved on and changes nothing. The last SELECT
# says what happened: the interaction was seen, the match is missing or at another version, or
# the new row (`moved.*`).
_MOVE = """
WITH seen AS (
    SELECT EXISTS (
        SELECT 1 FROM actions WHERE interaction_id = CAST(:interaction_id AS BIGINT)
    ) AS seen
), clocked AS (
    SELECT wargames_away_held(
        CAST(:away_keys AS BIGINT[]), CAST(:away_guild AS BIGINT), CAST(:away_users AS BIGINT[]), :now,
        CAST(:away_count AS BIGINT), CAST(:away_last_end AS DOUBLE PRECISION)
    ) AS as_seen
), found AS (
    SELECT version FROM matches WHERE id = :id
), moved AS (
    UPDATE matches SET
        channel_id = CASE WHEN :set_channel_id THEN CAST(:channel_id AS BIGINT) ELSE channel_id END,
        challenger_side = CASE WHEN :set_challenger_side THEN CAST(:challenger_side AS TEXT)
            ELSE challenger_side END,
        sides = CASE WHEN :set_sides THEN CAST(:sides AS TEXT) ELSE sides END,
        status = CASE WHEN :set_status THEN CAST(:status AS TEXT) ELSE status END,
        turn_player_id = CASE WHEN :set_turn_player_id THEN CAST(:turn_player_id AS BIGINT)
            ELSE turn_player_id END,
        deadline = CASE WHEN :set_deadline THEN CAST(:deadline AS DOUBLE PRECISION) ELSE deadline END,
        reminder_at = CASE WHEN :set_reminder_at THEN CAST(:reminder_at AS DOUBLE PRECISION)
            ELSE reminder_at END,
        reminded = CASE WHEN :set_reminded THEN CAST(:reminded AS BIGINT) ELSE reminded END,
        turn_seconds = CASE WHEN :set_turn_seconds THEN CAST(:turn_seconds AS BIGINT) ELSE turn_seconds END,
        snapshot = CASE WHEN :set_snapshot THEN CAST(:snapshot AS TEXT) ELSE snapshot END,
        challenge_expires_at = CASE WHEN :set_challenge_expires_at
            THEN CAST(:challenge_expires_at AS DOUBLE PRECISION) ELSE challenge_expires_at END,
        ai_player_id = CASE WHEN :set_ai_player_id THEN CAST(:ai_player_id AS BIGINT) ELSE ai_player_id END,
        ai_level = CASE WHEN :set_ai_level THEN CAST(:ai_level AS TEXT) ELSE ai_level END,
        quiet_from = CASE WHEN :set_quiet_from THEN CAST(:quiet_from AS BIGINT) ELSE quiet_from END,
        game_clock = CASE WHEN :set_game_clock THEN CAST(:game_clock AS TEXT) ELSE game_clock END,
        version = version + 1,
        updated_at = :now
    WHERE id = :id AND version = :expected_version AND NOT (SELECT seen FROM seen)
        AND (SELECT as_seen FROM clocked)
    RETURNING *
), logged AS (
    INSERT INTO actions (match_id, seq, player_id, notation, interaction_id, at, version)
    SELECT moved.id,
        (SELECT COALESCE(MAX(seq), 0) FROM actions WHERE match_id = :id) + a.n,
        a.player_id,
        a.notation,
        CASE WHEN a.n = 1 THEN CAST(:interaction_id AS BIGINT) END,
        a.at,
        moved.version
    FROM moved, unnest(
        CAST(:players AS BIGINT[]), CAST(:notations AS TEXT[]), CAST(:ats AS DOUBLE PRECISION[])
    ) WITH ORDINALITY AS a (player_id, notation, at, n)
), owed AS (
    INSERT INTO owed_boards (match_id, version, channel_id, created_at)
    SELECT moved.id, moved.version, moved.channel_id, :now FROM moved WHERE :owe_board
    ON CONFLICT DO NOTHING
)
SELECT (SELECT seen FROM seen) AS seen_interaction, (SELECT version FROM found) AS found_version,
    (SELECT as_seen FROM clocked) AS away_as_seen, moved.*
FROM (SELECT 1) AS here LEFT JOIN moved ON TRUE
"""
# A move that starts a waiting player's clock computed it from their time away as read before
# (`AwaySeen`). Another process's `away` or `back` writes that time away and then moves the clocks of
# the player's games it reads; without a guard the two passed each other (the turn ran while the
# player was away, or waited for one absence twice). `Database.holding_away` holds the player's
# advisory lock from before the write until their clocks are moved. A move that starts a clock
# takes that lock shared without waiting and checks the time away is as it saw it, in that order:
# `_MOVE`'s `clocked` calls `wargames_away_held` (data/postgres.py), a VOLATILE function, whose read
# of the time away takes a snapshot of its own after the lock is held (the statement's snapshot
# was taken as it began, before the lock: an `away` that wrote, reclocked and let go of its lock in
# between was missed by both; tests/test_pg_races.py stalls a move there). A game's start
# (`start_match` with `AwaySeen`), and a move sent as several statements, do the same in two
# statements of their transaction: `_AWAY_GATE`, then `_AWAY_AS_SEEN`, whose snapshot is taken
# after it. So a move lands before the lock is taken (and the reclock, reading the games afresh
# under it, moves its clock), or finds it taken, or comes after and sees the rows written: those
# two change nothing but raise `AwayChanged`, and the clock is computed again. Held until COMMIT,
# the lock keeps the next `away` waiting until the move or the game is there for it to read.
_AWAY_GATE = """
SELECT COALESCE(bool_and(pg_try_advisory_xact_lock_shared(k)), TRUE) AS open
FROM (SELECT unnest(CAST(:away_keys AS BIGINT[])) AS k) AS keys
"""
_AWAY_AS_SEEN = """
SELECT COUNT(*) = CAST(:away_count AS BIGINT)
    AND MAX(end_at) IS NOT DISTINCT FROM CAST(:away_last_end AS DOUBLE PRECISION) AS as_seen
FROM time_away
WHERE guild_id = CAST(:away_guild AS BIGINT) AND user_id = ANY(CAST(:away_users AS BIGINT[]))
    AND end_at > :now
"""
# The fields `_MOVE` may change, each with its `set_*` flag (tests/test_data.py checks it names all).
_MOVE_FIELDS = tuple(sorted(MUTABLE_FIELDS))

# A tournament game whose round ended before its deadline is left to the tournament's sweep, which
# stops it as a draw (RULES.md "The end of a round"): the deadline came too late, whichever sweep
# runs first after a restart. The running rounds' games are read once per query, by the
# tournament's key (tournaments are few), not once per due match.
_DUE_DEADLINES = """
SELECT m.* FROM matches AS m
LEFT JOIN (
    SELECT g.match_id, t.round_ends_at FROM tournaments AS t
    JOIN tournament_games AS g ON g.tournament_id = t.id AND g.round = t.round
    WHERE t.status = 'running' AND g.match_id IS NOT NULL
) AS held ON held.match_id = m.id
WHERE m.status = 'active' AND m.deadline IS NOT NULL AND m.deadline <= ?
AND (held.round_ends_at IS NULL OR held.round_ends_at >= m.deadline)
ORDER BY m.deadline, m.id
"""
# A reminder whose deadline has also passed is skipped: the deadline sweep acts on that match.
_DUE_REMINDERS = """
SELECT * FROM matches
WHERE status = 'active' AND reminded = 0 AND reminder_at IS NOT NULL AND reminder_at <= :now
  AND (deadline IS NULL OR deadline > :now)
ORDER BY reminder_at, id
"""
# `reminded = 0`: of two sweeps that both found the reminder due, one sends it. And only the reminder
# the sweep read: a clock shift (time away) keeps the version but moves the deadline and owes the
# reminder again, later; marked on the row as read, that moved reminder was lost and the one read was
# sent, naming the old deadline (tests/test_pg_races5.py).
# The players' inputs to a version-2 seed, written as the game starts (with the start, in one
# transaction): only while the match is still the challenge that was accepted.
_SET_SEED_INPUTS = "UPDATE matches SET seed_inputs = ? WHERE id = ? AND version = ? AND status = 'challenged'"

_MARK_REMINDED = """
UPDATE matches SET reminded = 1
WHERE id = :id AND version = :version AND reminded = 0
    AND (CAST(:reminder_at AS DOUBLE PRECISION) IS NULL OR reminder_at = :reminder_at)
    AND (CAST(:deadline AS DOUBLE PRECISION) IS NULL OR deadline = :deadline)
"""
_EXPIRED_CHALLENGES = """
SELECT * FROM matches
WHERE status = 'challenged' AND challenge_expires_at IS NOT NULL AND challenge_expires_at <= ?
ORDER BY challenge_expires_at, id
"""

_OWE_BOARD = """
INSERT INTO owed_boards (match_id, version, channel_id, created_at) VALUES (?, ?, ?, ?)
ON CONFLICT DO NOTHING
"""
_BOARD_DELIVERED = "DELETE FROM owed_boards WHERE match_id = ? AND version <= ?"
_OWED_BOARDS = """
SELECT o.match_id, MAX(o.version) AS version, o.channel_id, m.guild_id
FROM owed_boards AS o JOIN matches AS m ON m.id = o.match_id
WHERE o.created_at <= ?
GROUP BY o.match_id, o.channel_id, m.guild_id
ORDER BY MIN(o.created_at), o.match_id
"""

# Moving a clock does not bump the version, as a reminder does not: the board's buttons stay current.
# A game clock that runs moves with it (NULL: the stored one stays).
_SHIFT_CLOCK = """
UPDATE matches SET deadline = ?, reminder_at = ?, reminded = 0,
    game_clock = COALESCE(CAST(? AS TEXT), game_clock)
WHERE id = ? AND version = ? AND status = 'active'
"""
# A tournament round's extension gives each player of a game time on their game clock; the turn's
# deadline moves with it only where that clock set it, and only then is its reminder owed again (a
# reminder already sent for a deadline that stays is not sent twice).
_GIVE_TIME = """
UPDATE matches SET reminded = CASE WHEN deadline = CAST(? AS DOUBLE PRECISION) THEN reminded ELSE 0 END,
    deadline = ?, reminder_at = ?, game_clock = CAST(? AS TEXT)
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
# A result reads both ratings and writes both back: the rows exist first, then they are read (and,
# on PostgreSQL, locked in user id order) so two results of one player never both start from the
# same rating.
_ENSURE_STATS = """
INSERT INTO player_stats (guild_id, game, user_id, wins, losses, draws, rating, updated_at)
VALUES (?, ?, ?, 0, 0, 0, ?, ?)
ON CONFLICT (guild_id, game, user_id) DO NOTHING
"""
_RATINGS = """
SELECT user_id, rating FROM player_stats WHERE guild_id = ? AND game = ? AND user_id IN (?, ?)
ORDER BY user_id
"""
_RATINGS_LOCKED = """
SELECT user_id, rating FROM player_stats WHERE guild_id = ? AND game = ? AND user_id IN (?, ?)
ORDER BY user_id FOR UPDATE
"""
_ADD_RESULT = """
UPDATE player_stats
SET wins = wins + ?, losses = losses + ?, draws = draws + ?, rating = ?, updated_at = ?
WHERE guild_id = ? AND game = ? AND user_id = ?
"""
# Each person's rating before and after a rated result, and when, written with it (migrations
# 0008 and 0021).
_RECORD_CHANGE = """
INSERT INTO rating_changes (match_id, user_id, rating_before, rating_after, rated_at) VALUES (?, ?, ?, ?, ?)
"""
# How many rated games a player finished against another since a moment (`elo.repeat_weight`): their
# rating changes since then in matches the other played too (a match has two players).
_MET_SINCE = """
SELECT COUNT(*) AS n FROM rating_changes AS c JOIN matches AS m ON m.id = c.match_id
WHERE c.user_id = ? AND c.rated_at > ? AND m.guild_id = ? AND m.game = ?
  AND (m.challenger_id = ? OR m.opponent_id = ?)
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

# The channels a guild's finished, rated games of one game were played in (of one player's, if
# given): what a listing asks the adapter about, whether the member asking can see them.
_RESULT_CHANNELS = """
SELECT DISTINCT channel_id FROM matches
WHERE guild_id = :guild_id AND game = :game AND status = 'finished' AND challenger_id <> opponent_id
  AND (CAST(:player_id AS BIGINT) IS NULL OR challenger_id = :player_id OR opponent_id = :player_id)
"""
# Those games in some channels (`:channels` as ",id,id,"), each with its rating changes.
_RESULTS_IN = """
SELECT m.id, m.channel_id, m.challenger_id, m.opponent_id, m.winner_id, m.ai_player_id, m.ai_level,
    c.user_id AS changed_id, c.rating_before, c.rating_after
FROM matches AS m LEFT JOIN rating_changes AS c ON c.match_id = m.id
WHERE m.guild_id = :guild_id AND m.game = :game AND m.status = 'finished'
  AND m.challenger_id <> m.opponent_id
  AND :channels LIKE '%,' || CAST(m.channel_id AS TEXT) || ',%'
ORDER BY m.id
"""

_SELECT_USER = "SELECT * FROM users WHERE user_id = ?"
_UPSERT_DM_ON_TURN = """
INSERT INTO users (user_id, dm_on_turn, created_at, updated_at) VALUES (?, ?, ?, ?)
ON CONFLICT (user_id) DO UPDATE SET dm_on_turn = excluded.dm_on_turn, updated_at = excluded.updated_at
"""


# --- helpers ----------------------------------------------------------------------------------


def is_postgres_url(target: object) -> bool:
    """Whether `target` names a PostgreSQL database rather than an SQLite file."""
    return isinstance(target, str) and target.startswith(POSTGRES_SCHEMES)


def away_key(guild_id: int, user_id: int) -> int:
    """The advisory lock of one player's time away in one server, on a store several processes
    share: 64 bits of a hash of both (the migrations' lock is one fixed key; an unlikely clash only
    makes two players' writes wait in turn)."""
    digest = hashlib.blake2b(f"time away {guild_id} {user_id}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big", signed=True)


def _dumps(value: Any) -> str:
    # allow_nan=False: NaN is not JSON, and the JSON check on the columns would refuse it anyway.
    return json.dumps(value, allow_nan=False, separators=(",", ":"))


def _loads_opt(text: str | None) -> Any:
    return None if text is None else json.loads(text)


def _check_int64(name: str, value: int) -> None:
    # Ids are signed 64-bit in both stores; fail with a clear message instead of OverflowError.
    if not _INT_MIN <= value <= _INT_MAX:
        raise ValueError(f"{name}={value} does not fit a signed 64-bit integer")


_UNREAD: Any = object()


def _float_opt(value: Any) -> float | None:
    return None if value is None else float(value)


def row_to_match(row: Any, snapshot: Any = _UNREAD) -> Match:
    """A `matches` row (sqlite3.Row or asyncpg.Record) as a `Match`; with `snapshot`, that one rather
    than the row's parsed afresh (a move knows the snapshot it wrote)."""
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
        deadline=_float_opt(row["deadline"]),
        reminder_at=_float_opt(row["reminder_at"]),
        reminded=bool(row["reminded"]),
        turn_seconds=row["turn_seconds"],
        version=row["version"],
        snapshot=_loads_opt(row["snapshot"]) if snapshot is _UNREAD else snapshot,
        winner_id=row["winner_id"],
        result_reason=row["result_reason"],
        challenge_expires_at=_float_opt(row["challenge_expires_at"]),
        ai_player_id=row["ai_player_id"],
        ai_level=row["ai_level"],
        created_at=float(row["created_at"]),
        updated_at=float(row["updated_at"]),
        quiet_from=row["quiet_from"],
        chance_version=row["chance_version"],
        seed_secret=row["seed_secret"],
        seed_commitment=row["seed_commitment"],
        seed_inputs=row["seed_inputs"],
        game_clock=_clock_opt(row["game_clock"]),
        sealed_at=_float_opt(row["sealed_at"]),
        seal_channel_id=row["seal_channel_id"],
        seal_message_id=row["seal_message_id"],
    )


def _row_to_seal(row: Any) -> Seal:
    return Seal(
        channel_id=row["channel_id"],
        commitment=row["commitment"],
        created_at=float(row["created_at"]),
        shown_at=_float_opt(row["shown_at"]),
        message_id=row["message_id"],
        secret=row["secret"],
    )


def _clock_opt(text: str | None) -> GameClock | None:
    return None if text is None else GameClock.from_json(json.loads(text))


def _clock_text(clock: GameClock | None) -> str | None:
    return None if clock is None else _dumps(clock.to_json())


def _match_params(match: Match, expected_version: int) -> dict[str, Any]:
    return {
        "id": match.id,
        "expected_version": expected_version,
        "channel_id": match.channel_id,
        "challenger_side": match.challenger_side,
        "sides": _dumps(match.sides),
        "status": str(match.status),
        "turn_player_id": match.turn_player_id,
        "deadline": _float_opt(match.deadline),
        "reminder_at": _float_opt(match.reminder_at),
        "reminded": int(match.reminded),
        "turn_seconds": match.turn_seconds,
        "version": match.version,
        "snapshot": None if match.snapshot is None else _dumps(match.snapshot),
        "winner_id": match.winner_id,
        "result_reason": match.result_reason,
        "challenge_expires_at": _float_opt(match.challenge_expires_at),
        "ai_player_id": match.ai_player_id,
        "ai_level": match.ai_level,
        "quiet_from": match.quiet_from,
        "game_clock": _clock_text(match.game_clock),
        "updated_at": float(match.updated_at),
    }


def _row_to_stats(row: Any) -> PlayerStats:
    return PlayerStats(
        guild_id=row["guild_id"],
        game=row["game"],
        user_id=row["user_id"],
        wins=row["wins"],
        losses=row["losses"],
        draws=row["draws"],
        rating=float(row["rating"]),
    )


def _row_to_action(row: Any) -> ActionRecord:
    return ActionRecord(
        match_id=row["match_id"],
        seq=row["seq"],
        player_id=row["player_id"],
        notation=row["notation"],
        interaction_id=row["interaction_id"],
        at=float(row["at"]),
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


# --- the database -------------------------------------------------------------------------------


_STORES: dict[str, type[Database]] = {}


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


class _Memory(Generic[K, V]):
    """What this process read before of players (time away, preferences), and a generation bumped by
    every forgetting, so that a read a write overtook (begun here, or heard from elsewhere) is not
    kept. All of it is dropped rather than grown past `_PEOPLE_KEPT`."""

    def __init__(self) -> None:
        self._known: dict[K, V] = {}
        self.generation = 0

    def get(self, key: K) -> V | None:
        return self._known.get(key)

    def keep(self, key: K, value: V, generation: int) -> None:
        """Remember a value read at `generation`, unless something was forgotten since."""
        if generation != self.generation:
            return
        if len(self._known) >= _PEOPLE_KEPT:
            self._known.clear()
        self._known[key] = value

    def forget(self, key: K) -> None:
        self.generation += 1
        self._known.pop(key, None)

    def forget_all(self) -> None:
        self.generation += 1
        self._known.clear()


class Database:
    """Storage for matches, the action log, player stats and preferences, on either store.

    Open with `db = await Database.open(path_or_url)` (or `async with Database.open(...) as db`).
    Methods that stamp times take `now` (unix seconds); it defaults to the injected clock,
    so tests never sleep.
    """

    store: ClassVar[str] = "?"  # "sqlite" or "postgresql"
    # Whether a move is sent as one statement (`_MOVE`): where every statement is a round trip.
    one_statement_moves: ClassVar[bool] = False
    # Whether several processes may share this database (their sweeps then split the work by guild).
    shared: ClassVar[bool] = False

    def __init__(self, clock: Clock) -> None:
        self.clock = clock
        self.commits = 0  # COMMITs so far (SQLite: fewer than transactions when they were grouped)
        # `time_away` read before, per (guild, user): (since, the rows ending after it)
        self._aways: _Memory[tuple[int, int], tuple[float, tuple[Away, ...]]] = _Memory()
        self._prefs: _Memory[tuple[int], UserPrefs] = _Memory()  # `get_user_prefs` read before

    # -- life cycle --

    @classmethod
    def open(
        cls,
        target: str | os.PathLike[str],
        *,
        clock: Clock = time.time,
        migrations_dir: Path = MIGRATIONS_DIR,
    ) -> _Opening:
        """Open the store `target` names and apply pending migrations: a `postgresql://` URL opens
        PostgreSQL, anything else is an SQLite file (created with its folder if missing)."""

        async def factory() -> Database:
            store = _STORES["postgresql" if is_postgres_url(target) else "sqlite"]
            return await store.connect(target, clock=clock, migrations_dir=migrations_dir)

        return _Opening(factory)

    @classmethod
    async def connect(
        cls,
        target: str | os.PathLike[str],
        *,
        clock: Clock = time.time,
        migrations_dir: Path = MIGRATIONS_DIR,
    ) -> Database:
        """Open this store (each store defines it); `Database.open` picks the store."""
        raise NotImplementedError

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """A store is known to `open` by its name as soon as its module is imported (data/__init__.py
        imports both), so this module names neither."""
        super().__init_subclass__(**kwargs)
        _STORES[cls.store] = cls

    async def close(self) -> None:
        """Close the store (after the transactions already asked for); safe to call twice."""
        raise NotImplementedError

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
        """The number of the last migration applied."""
        raise NotImplementedError

    def watch(self, listener: ChangeListener) -> None:
        """Call `listener` when another process changed a match (None: changes may have been missed,
        forget everything). A store only one process uses never calls it."""

    # -- what this process read before: players' time away and preferences --

    def _remembers(self) -> bool:
        """Whether a player's time away and preferences read before may be answered from memory: a
        store only this process writes, yes; a shared one while it hears the others' writes."""
        return not self.shared

    async def _person_changed(self, kind: str, key: tuple[int, ...]) -> None:
        """This process wrote a player's time away ("away", (guild, user)) or preferences ("prefs",
        (user,)): a shared store tells the other processes, which forget their copy, before the
        write returns (a process that dies between the two has answered nobody: the player tries
        again, and that write is announced)."""

    def holding_away(
        self, guild_id: int, user_id: int, others: Iterable[int] = ()
    ) -> contextlib.AbstractAsyncContextManager[None]:
        """Hold a lock of one player's time away in one server while it is written and their games'
        clocks are moved with it (`MatchService.away`, `back`), where other processes share the store:
        a second `away` waits for the first (else each ended nothing the other had begun, both
        were inserted, and the days were taken from the year twice), and a move starting the
        player's clock meanwhile is refused and computed again (`_MOVE`, `AwayChanged`). `others`
        (their opponents) are held shared: an `away` of theirs, which moves the same clocks by as
        much as their own return moves them, waits too, so each reads the clocks and the time away
        the other left (their moves go on). Nothing on SQLite: one process, whose per-match locks
        already hold these apart."""
        return contextlib.nullcontext()

    def _forget_person(self, kind: str, key: tuple[int, ...]) -> None:
        """Drop what memory holds of one player's time away or preferences (a write, here or elsewhere)."""
        if kind == "away":
            self._aways.forget((key[0], key[1]))
        else:
            self._prefs.forget((key[0],))

    def _forget_people(self) -> None:
        """Drop every player's time away and preferences from memory (changes may have been missed)."""
        self._aways.forget_all()
        self._prefs.forget_all()

    # -- what a store runs --

    async def _transact(self, work: Callable[[], Transaction[T]]) -> T:
        """Run the transaction `work()` whole or not at all; the caller hears back after COMMIT."""
        raise NotImplementedError

    async def _transact_clocked(self, work: Callable[[], Transaction[T]], away_seen: AwaySeen | None) -> T:
        """`_transact` for a write whose clock was computed from the time away `away_seen`: if the
        store finds it changed (`AwayChanged`), what memory holds of it is dropped, so that the
        clock is computed again from the store's rows."""
        try:
            return await self._transact(work)
        except AwayChanged:
            assert away_seen is not None
            for user in away_seen.user_ids:
                self._forget_person("away", (away_seen.guild_id, user))
            raise

    async def _query(self, sql: str, params: Any = ()) -> list[Any]:
        """One statement outside any transaction: its rows."""
        raise NotImplementedError

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
        chance_version: int = 1,
        seed_secret: str | None = None,
        seed_commitment: str | None = None,
        seed_inputs: str | None = None,
        game_clock: GameClock | None = None,
        sealed: bool = False,
    ) -> Match:
        """Store a new match in status 'challenged' at version 0.

        `chance_version` and the `seed_*` fields are the chance it will draw (migration 0006); the
        inputs may be completed when it starts (`start_match`). With `sealed`, the channel's seal,
        if one was shown, replaces `seed_secret` and `seed_commitment`: it is taken in this
        transaction, so it serves this challenge alone (migration 0010).

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
            "challenge_expires_at": _float_opt(challenge_expires_at),
            "ai_player_id": ai_player_id,
            "ai_level": ai_level,
            "now": self._now(now),
            "chance_version": chance_version,
            "seed_secret": seed_secret,
            "seed_commitment": seed_commitment,
            "seed_inputs": seed_inputs,
            "game_clock": _clock_text(game_clock),
            "sealed_at": None,
            "seal_channel_id": None,
            "seal_message_id": None,
        }

        def insert() -> Transaction[Match]:
            values = params
            if sealed:
                seal = yield one(_TAKE_SEAL, (channel_id,))
                if seal is not None:
                    values = {
                        **params,
                        "seed_secret": seal["secret"],
                        "seed_commitment": seal["commitment"],
                        "sealed_at": float(seal["shown_at"]),
                        "seal_channel_id": channel_id,
                        "seal_message_id": seal["message_id"],
                    }
            try:
                row = yield one(_INSERT_MATCH, values, alone=not sealed)
            except Conflict as exc:
                if exc.on == "matches.channel_id":
                    raise ChannelBusy(channel_id) from None
                raise
            return row_to_match(row)

        return await self._transact(insert)

    async def channel_seal(
        self, channel_id: int, *, secret: str, commitment: str, now: float | None = None
    ) -> Seal:
        """The channel's seal: the one it holds (shown or not), else a new one of `secret`."""
        _check_int64("channel_id", channel_id)
        stamp = self._now(now)

        def draw() -> Transaction[Seal]:
            yield count(_ADD_SEAL, (channel_id, secret, commitment, stamp))
            row = yield one(_SELECT_SEAL, (channel_id,))
            return _row_to_seal(row)

        return await self._transact(draw)

    async def seal_shown(
        self, channel_id: int, commitment: str, *, message_id: int | None = None, now: float | None = None
    ) -> bool:
        """Record that a message showed the channel's seal; the first showing counts (False: it was
        shown before, or was taken meanwhile)."""
        if message_id is not None:
            _check_int64("message_id", message_id)
        stamp = self._now(now)

        def mark() -> Transaction[bool]:
            changed = yield count(_SEAL_SHOWN, (stamp, message_id, channel_id, commitment), alone=True)
            return bool(changed)

        return await self._transact(mark)

    async def get_match(self, match_id: int) -> Match:
        """The match with this id; raises `MatchNotFound`."""
        if not 0 < match_id <= MAX_ID:
            raise MatchNotFound(match_id)
        found = await self._query(_SELECT_MATCH, (match_id,))
        if not found:
            raise MatchNotFound(match_id)
        return row_to_match(found[0])

    async def get_channel_match(self, channel_id: int) -> Match | None:
        """The open (challenged or active) match of a channel, if any."""
        found = await self._query(_SELECT_CHANNEL_MATCH, (channel_id,))
        return row_to_match(found[0]) if found else None

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
            "statuses": None if statuses is None else "," + ",".join(str(Status(s)) for s in statuses) + ",",
            "limit": NO_LIMIT if limit is None else limit,
        }
        return [row_to_match(row) for row in await self._query(_LIST_MATCHES, params)]

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
        return await self._transact(lambda: _closing(match_id, expected_version, normalised, stamp, None))

    async def start_match(
        self,
        match_id: int,
        *,
        expected_version: int,
        seed_inputs: str | None,
        now: float | None = None,
        away_seen: AwaySeen | None = None,
        owe_board: bool = False,
        **changes: Any,
    ) -> Match:
        """`update_match` for the start of a challenged match, storing the players' inputs to its
        seed in the same transaction (a game never runs on inputs other than those stored).

        With `owe_board`, its first board is owed to its channel until `board_delivered`, as a
        move's (`commit_action`): a crash between the start and its first message cannot lose it.

        `away_seen`: the time away its first clock was computed from. A store several processes
        share starts the game only while it still is so and no `away` is being written for those
        players (`_AWAY_GATE`, `_AWAY_AS_SEEN`), else raises `AwayChanged` having forgotten their
        time away here. Not checked on SQLite (one process)."""
        normalised = _normalise_changes(changes)
        stamp = self._now(now)
        gated = away_seen is not None and self.shared
        params = _away_params(away_seen, stamp) if gated else {}

        def start() -> Transaction[Match]:
            if gated:
                yield from _away_held(match_id, expected_version, params)
            changed = yield count(_SET_SEED_INPUTS, (seed_inputs, match_id, expected_version))
            if changed != 1:
                current = yield one(_SELECT_MATCH, (match_id,))
                if current is None:
                    raise MatchNotFound(match_id)
                raise StaleVersion(match_id, expected_version, current["version"])
            started = yield from _apply(match_id, expected_version, normalised, stamp, None)
            if owe_board:
                yield count(_OWE_BOARD, (match_id, started.version, started.channel_id, stamp))
            return started

        return await self._transact_clocked(start, away_seen)

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
        return await self._transact(lambda: _closing(match_id, expected_version, normalised, stamp, result))

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
        away_seen: AwaySeen | None = None,
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

        `before_commit` is a test hook, called after every write and before COMMIT (on SQLite's
        database thread); if it raises, the transaction is rolled back (a crash in mid-move).

        `away_seen`: the time away the new clock in `changes` was computed from. A store several
        processes share stores the move only while it still is so (`_MOVE`), else raises
        `AwayChanged` having forgotten those players' time away here; on SQLite this process's
        locks already keep a time away from being written meanwhile.
        """
        if not actions:
            raise ValueError("commit_action needs at least one action")
        if interaction_id is not None:
            _check_int64("interaction_id", interaction_id)
        normalised = _normalise_changes(changes)
        stamp = self._now(now)

        # One statement for an ordinary move; a game's end (ratings), a move that opens or moves a
        # game (a channel's one open game is at stake: `ChannelBusy` names the channel) and the
        # test hook keep the statements of `commit` below.
        if (
            self.one_statement_moves
            and result is None
            and before_commit is None
            and not {"status", "channel_id"} & normalised.keys()
        ):
            params = _move_params(
                match_id, expected_version, normalised, actions, interaction_id, stamp, owe_board, away_seen
            )
            written = normalised.get("snapshot", _UNREAD)
            return await self._transact_clocked(
                lambda: _move(match_id, expected_version, interaction_id, params, written), away_seen
            )

        gated = away_seen is not None and self.shared
        gate = _away_params(away_seen, stamp) if gated else {}

        def commit() -> Transaction[Match]:
            if interaction_id is not None and (yield one(_INTERACTION_SEEN, (interaction_id,))):
                raise DuplicateInteraction(interaction_id)
            if gated:  # as `start_match`
                yield from _away_held(match_id, expected_version, gate)
            updated = yield from _apply(match_id, expected_version, normalised, stamp, result)
            row = yield one(_NEXT_SEQ, (match_id,))
            seq = int(row["seq"]) if row else 1
            log = [
                (
                    match_id,
                    seq + i,
                    action.player_id,
                    action.notation,
                    interaction_id if i == 0 else None,
                    stamp if action.at is None else float(action.at),
                    updated.version,
                )
                for i, action in enumerate(actions)
            ]
            try:
                yield many(_INSERT_ACTION, log)
            except Conflict as exc:
                if interaction_id is not None and exc.on == "actions.interaction_id":
                    raise DuplicateInteraction(interaction_id) from None
                raise
            if owe_board:
                yield count(_OWE_BOARD, (match_id, updated.version, updated.channel_id, stamp))
            if not updated.status.is_open:  # after its last action is in the log
                yield count(_DROP_ORPHAN_DECISIONS, (match_id,))
            if before_commit is not None:
                before_commit()
            return updated

        return await self._transact_clocked(commit, away_seen)

    # -- the action log --

    async def actions(self, match_id: int) -> list[ActionRecord]:
        """The log of a match in seq order: with the seed, it replays to the snapshot."""
        return [_row_to_action(row) for row in await self._query(_SELECT_ACTIONS, (match_id,))]

    async def action_count(self, match_id: int, upto: int | None = None) -> int:
        """How many rows the match's log holds (with `upto`, those written by that version or
        before), counted by the store: the console numbers each board by it."""
        if upto is None:
            found = await self._query(_COUNT_ACTIONS, (match_id,))
        else:
            found = await self._query(_COUNT_ACTIONS_UPTO, (match_id, upto))
        return int(found[0]["n"])

    # -- clocks --

    async def due_deadlines(self, now: float) -> list[Match]:
        """Active matches whose deadline is at or before `now`, oldest first (also after downtime)."""
        return [row_to_match(row) for row in await self._query(_DUE_DEADLINES, (float(now),))]

    async def due_reminders(self, now: float) -> list[Match]:
        """Active matches owed a reminder at `now` whose deadline has not passed yet."""
        return [row_to_match(row) for row in await self._query(_DUE_REMINDERS, {"now": float(now)})]

    async def mark_reminded(
        self, match_id: int, version: int, *, reminder_at: float | None = None, deadline: float | None = None
    ) -> bool:
        """Record that the reminder for this turn was sent; False if the match moved on meanwhile or
        someone (another process's sweep) marked it first: only the one who marks it sends it. With
        `reminder_at` and `deadline` (the row as the sweep read it), False too if a clock shift moved
        them since: that reminder is owed later, and the one read is not due.

        Does not bump the version: a reminder must not make the player's buttons stale.
        """
        params = {
            "id": match_id,
            "version": version,
            "reminder_at": _float_opt(reminder_at),
            "deadline": _float_opt(deadline),
        }

        def mark() -> Transaction[bool]:
            changed = yield count(_MARK_REMINDED, params, alone=True)
            return bool(changed == 1)

        return await self._transact(mark)

    async def expired_challenges(self, now: float) -> list[Match]:
        """Challenges nobody answered by their expiry time."""
        return [row_to_match(row) for row in await self._query(_EXPIRED_CHALLENGES, (float(now),))]

    async def shift_clock(
        self,
        match_id: int,
        version: int,
        deadline: float,
        reminder_at: float,
        game_clock: GameClock | None = None,
    ) -> bool:
        """Move the running clock of an active match (a player's time away stops it), owing its
        reminder again, and its game clock with it if given; False if the match moved on meanwhile.
        The version stays, as for a reminder: the players' buttons stay current."""
        params = (float(deadline), float(reminder_at), _clock_text(game_clock), match_id, version)

        def shift() -> Transaction[bool]:
            changed = yield count(_SHIFT_CLOCK, params, alone=True)
            return bool(changed == 1)

        return await self._transact(shift)

    async def give_game_time(
        self, match_id: int, version: int, deadline: float, reminder_at: float, game_clock: GameClock
    ) -> bool:
        """Store an active match's game clock with time given to its players (a tournament round
        extended), and its turn's deadline (moved where that clock set it); False if the match moved
        on meanwhile. The version stays, as for a clock moved by time away."""
        at = float(deadline)
        params = (at, at, float(reminder_at), _clock_text(game_clock), match_id, version)

        def give() -> Transaction[bool]:
            changed = yield count(_GIVE_TIME, params, alone=True)
            return bool(changed == 1)

        return await self._transact(give)

    # -- time away --

    async def time_away(self, guild_id: int, user_id: int, since: float) -> list[Away]:
        """A player's times away in a server that end (or ended) after `since`, oldest first.

        Answered from memory what was read before, where this process knows every write of it (a
        store only it writes; a shared store while it hears the others' writes, `_remembers`): a
        move asks this for the players it starts a clock for, before it commits, and a read there
        cost every such move a wait for the database thread on SQLite and a round trip on
        PostgreSQL (docs/performance.md). The rows only change through `set_time_away`, which
        forgets them here and tells the other processes; the rows ending after an earlier `since`
        hold every row ending after a later one."""
        key = (guild_id, user_id)
        remembers = self._remembers()
        known = self._aways.get(key) if remembers else None
        if known is not None and since >= known[0]:
            return [a for a in known[1] if a.end_at > since]
        generation = self._aways.generation
        found = await self._query(_TIME_AWAY, (guild_id, user_id, float(since)))
        aways = [Away(r["guild_id"], r["user_id"], float(r["start_at"]), float(r["end_at"])) for r in found]
        if remembers:
            self._aways.keep(key, (float(since), tuple(aways)), generation)
        return aways

    async def set_time_away(self, guild_id: int, user_id: int, *, now: float, until: float | None) -> None:
        """End a player's time away in a server at `now` (if they are away), and with `until`, start a
        new one from `now` to then: one transaction."""

        def write() -> Transaction[None]:
            yield count(_END_TIME_AWAY, (float(now), guild_id, user_id, float(now)))
            if until is not None:
                yield count(_START_TIME_AWAY, (guild_id, user_id, float(now), float(until)))

        self._forget_person("away", (guild_id, user_id))
        try:
            await self._transact(write)
        finally:
            self._forget_person("away", (guild_id, user_id))
            await self._person_changed("away", (guild_id, user_id))

    # -- the outbox --

    async def board_delivered(self, match_id: int, version: int) -> None:
        """The channel has the board of `version`: it and every older one are no longer owed."""

        def delivered() -> Transaction[None]:
            yield count(_BOARD_DELIVERED, (match_id, version), alone=True)

        await self._transact(delivered)

    async def owed_boards(
        self, before: float, *, guilds: Callable[[int], bool] | None = None
    ) -> list[tuple[int, int, int]]:
        """(match id, newest owed version, channel id) of boards owed since `before` or earlier;
        with `guilds`, only those of the guilds it accepts (a process's own shards)."""
        found = await self._query(_OWED_BOARDS, (float(before),))
        return [
            (int(r["match_id"]), int(r["version"]), int(r["channel_id"]))
            for r in found
            if guilds is None or guilds(int(r["guild_id"]))
        ]

    # -- stats and preferences --

    async def player_stats(self, guild_id: int, game: str, user_id: int) -> PlayerStats:
        """A player's record in one game in a guild; zeros and the start rating if they never finished
        a game of it."""
        found = await self._query(_SELECT_STATS, (guild_id, game, user_id))
        return (
            _row_to_stats(found[0]) if found else PlayerStats(guild_id=guild_id, game=game, user_id=user_id)
        )

    async def leaderboard(self, guild_id: int, game: str, limit: int = 10) -> list[PlayerStats]:
        """One game's best rating first; ties by more wins, then by user id so the order is stable."""
        return [_row_to_stats(row) for row in await self._query(_LEADERBOARD, (guild_id, game, limit))]

    async def result_channels(self, guild_id: int, game: str, player_id: int | None = None) -> set[int]:
        """The channels where this guild's finished, rated games of `game` were played (those of
        `player_id` only, if given)."""
        params = {"guild_id": guild_id, "game": game, "player_id": player_id}
        return {int(r["channel_id"]) for r in await self._query(_RESULT_CHANNELS, params)}

    async def results_in(self, guild_id: int, game: str, channel_ids: Iterable[int]) -> list[RatedResult]:
        """The finished, rated games of `game` played in these channels of a guild, oldest first,
        each with what it did to each person's rating."""
        wanted = sorted(set(channel_ids))
        if not wanted:
            return []
        params = {"guild_id": guild_id, "game": game, "channels": "," + ",".join(map(str, wanted)) + ","}
        found: dict[int, RatedResult] = {}
        for r in await self._query(_RESULTS_IN, params):
            match_id = int(r["id"])
            result = found.get(match_id)
            if result is None:
                result = found[match_id] = RatedResult(
                    match_id,
                    int(r["channel_id"]),
                    (int(r["challenger_id"]), int(r["opponent_id"])),
                    None if r["winner_id"] is None else int(r["winner_id"]),
                    None if r["ai_player_id"] is None else int(r["ai_player_id"]),
                    None if r["ai_level"] is None else str(r["ai_level"]),
                )
            if r["changed_id"] is not None:
                result.changes[int(r["changed_id"])] = (float(r["rating_before"]), float(r["rating_after"]))
        return list(found.values())

    async def ai_records(self, guild_id: int, game: str) -> list[AiRecord]:
        """The AI's wins, losses and draws per level in one game in a guild (levels it played)."""
        found = await self._query(_AI_RECORDS, (guild_id, game))
        return [
            AiRecord(str(r["ai_level"]), int(r["wins"]), int(r["losses"]), int(r["draws"])) for r in found
        ]

    async def get_user_prefs(self, user_id: int) -> UserPrefs:
        """A user's preferences; defaults (no DMs) for a user never seen.

        Asked after most moves (is the next player owed a turn DM?), so answered from memory as
        `time_away` is: `set_dm_on_turn` forgets it here and tells the other processes."""
        remembers = self._remembers()
        known = self._prefs.get((user_id,)) if remembers else None
        if known is not None:
            return known
        generation = self._prefs.generation
        found = await self._query(_SELECT_USER, (user_id,))
        prefs = UserPrefs(user_id=user_id, dm_on_turn=bool(found[0]["dm_on_turn"]) if found else False)
        if remembers:
            self._prefs.keep((user_id,), prefs, generation)
        return prefs

    async def set_dm_on_turn(self, user_id: int, enabled: bool, *, now: float | None = None) -> UserPrefs:
        """Opt in or out of "DM me when it's my turn"."""
        stamp = self._now(now)

        def upsert() -> Transaction[None]:
            yield count(_UPSERT_DM_ON_TURN, (user_id, int(enabled), stamp, stamp), alone=True)

        self._forget_person("prefs", (user_id,))
        try:
            await self._transact(upsert)
        finally:
            self._forget_person("prefs", (user_id,))
            await self._person_changed("prefs", (user_id,))
        return UserPrefs(user_id=user_id, dm_on_turn=enabled)


# --- transactions -------------------------------------------------------------------------------


def _away_params(away_seen: AwaySeen | None, now: float | None = None) -> dict[str, Any]:
    """The parameters naming what a clock assumed of time away (`AwaySeen`), for the statements
    that check it (`_MOVE`'s `wargames_away_held`, `_AWAY_GATE`, `_AWAY_AS_SEEN`); with `now`, the
    moment it was read at."""
    users = list(away_seen.user_ids) if away_seen is not None else []
    params: dict[str, Any] = {
        "away_guild": away_seen.guild_id if away_seen is not None else None,
        "away_users": users,
        "away_keys": [away_key(away_seen.guild_id, u) for u in users] if away_seen is not None else [],
        "away_count": away_seen.count if away_seen is not None else None,
        "away_last_end": away_seen.last_end if away_seen is not None else None,
    }
    if now is not None:
        params["now"] = now
    return params


def _move_params(
    match_id: int,
    expected_version: int,
    changes: dict[str, Any],
    actions: Sequence[NewAction],
    interaction_id: int | None,
    now: float,
    owe_board: bool,
    away_seen: AwaySeen | None = None,
) -> dict[str, Any]:
    """The parameters of `_MOVE`: each changed field with its flag set, the others None."""
    params: dict[str, Any] = {
        "id": match_id,
        "expected_version": expected_version,
        "interaction_id": interaction_id,
        "now": now,
        "owe_board": owe_board,
        "players": [a.player_id for a in actions],
        "notations": [a.notation for a in actions],
        "ats": [now if a.at is None else float(a.at) for a in actions],
        **_away_params(away_seen),
    }
    for name in _MOVE_FIELDS:
        params["set_" + name] = name in changes
        params[name] = None
    for name, value in changes.items():
        if name in ("sides", "snapshot"):
            value = None if value is None else _dumps(value)
        elif name == "game_clock":
            value = _clock_text(value)
        elif name == "status":
            value = str(value)
        elif name == "reminded":
            value = int(value)
        elif name in ("deadline", "reminder_at", "challenge_expires_at"):
            value = _float_opt(value)
        params[name] = value
    return params


def _away_held(match_id: int, expected_version: int, params: dict[str, Any]) -> Transaction[None]:
    """The time away a clock was computed from still holds (else `AwayChanged`): the players' locks
    taken shared first (held to COMMIT), then their time away read in a snapshot taken after, in
    which no `away` can be half written (`_AWAY_GATE`, `_AWAY_AS_SEEN`)."""
    if not (yield one(_AWAY_GATE, params))["open"] or not (yield one(_AWAY_AS_SEEN, params))["as_seen"]:
        raise AwayChanged(match_id, expected_version)


def _move(
    match_id: int, expected_version: int, interaction_id: int | None, params: dict[str, Any], written: Any
) -> Transaction[Match]:
    """A move without a result as one statement (`_MOVE`), with the errors of the steps it folds.
    `written` is the snapshot the move wrote (not parsed back from the row), if it wrote one."""
    try:
        row = yield one(_MOVE, params, alone=True)
    except Conflict as exc:
        if interaction_id is not None and exc.on == "actions.interaction_id":
            raise DuplicateInteraction(interaction_id) from None
        raise
    assert row is not None
    if row["seen_interaction"]:
        assert interaction_id is not None
        raise DuplicateInteraction(interaction_id)
    if row["id"] is None:
        if row["found_version"] is None:
            raise MatchNotFound(match_id)
        found = int(row["found_version"])
        if found == expected_version and not row["away_as_seen"]:
            raise AwayChanged(match_id, expected_version)
        raise StaleVersion(match_id, expected_version, found if found != expected_version else found + 1)
    return row_to_match(row, written)


# The AI's decisions whose action never came (the game moved on, or ended, while it thought): no
# record reads them, so a game's end drops them (docs/fairness.md, "Checking the AI"). A decision
# written before migration 0013 (id 0) stays: an action of then carries no id to tell.
_DROP_ORPHAN_DECISIONS = """
DELETE FROM ai_decisions WHERE match_id = ? AND interaction_id < 0 AND NOT EXISTS (
    SELECT 1 FROM actions WHERE actions.interaction_id = ai_decisions.interaction_id
)
"""


def _closing(
    match_id: int, expected_version: int, changes: dict[str, Any], now: float, result: Result | None
) -> Transaction[Match]:
    """`_apply` of a change that may end the match without an action (a forfeit, a cancel): if it
    does, the AI's decisions no action carries go with it."""
    new = yield from _apply(match_id, expected_version, changes, now, result)
    if not new.status.is_open:
        yield count(_DROP_ORPHAN_DECISIONS, (match_id,))
    return new


def _apply(
    match_id: int,
    expected_version: int,
    changes: dict[str, Any],
    now: float,
    result: Result | None,
) -> Transaction[Match]:
    """Read-check-write of one match inside the caller's transaction."""
    row = yield one(_SELECT_MATCH, (match_id,), postgres=_SELECT_MATCH_LOCKED)
    if row is None:
        raise MatchNotFound(match_id)
    current = row_to_match(row)
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
        changed = yield count(_UPDATE_MATCH, _match_params(new, expected_version))
    except Conflict as exc:
        if exc.on == "matches.channel_id":  # reopened, or moved into a busy channel
            raise ChannelBusy(new.channel_id) from None
        raise
    if changed != 1:  # another connection got in between: it won
        raise StaleVersion(match_id, expected_version, expected_version + 1)
    if result is not None and result.rated and current.challenger_id != current.opponent_id:
        yield from _record_result(current, result, now)
    return new


def _record_result(match: Match, result: Result, now: float) -> Transaction[None]:
    """The players' records and ratings, and each rating's change as it happened (migration 0008),
    in the transaction that finishes the match."""
    a, b = match.players
    # Against the AI its side is rated at its level's fixed rating, and only the player's row moves.
    ai = match.ai_player_id if result.ai_rating is not None else None
    people = sorted(user for user in (a, b) if user != ai)
    for user in people:
        yield count(_ENSURE_STATS, (match.guild_id, match.game, user, elo.START_RATING, now))
    found = yield rows(_RATINGS, (match.guild_id, match.game, a, b), postgres=_RATINGS_LOCKED)
    rating = {int(r["user_id"]): float(r["rating"]) for r in found}
    if ai is not None:
        assert result.ai_rating is not None
        rating[ai] = result.ai_rating
    if result.winner_id is None:
        score_a, outcome = 0.5, ((0, 0, 1), (0, 0, 1))
    elif result.winner_id == a:
        score_a, outcome = 1.0, ((1, 0, 0), (0, 1, 0))
    else:
        score_a, outcome = 0.0, ((0, 1, 0), (1, 0, 0))
    weight = 1.0
    if ai is None:  # two people: a pair met again within days counts less (RULES.md, "Ratings")
        since = now - elo.REPEAT_DAYS * 24 * 3600
        met = yield one(_MET_SINCE, (a, since, match.guild_id, match.game, b, b))
        weight = elo.repeat_weight(int(met["n"]) if met is not None else 0)
    new_a, new_b = elo.updated(rating[a], rating[b], score_a, elo.K_FACTOR * weight)
    moved = []
    for user, new, (wins, losses, draws) in zip((a, b), (new_a, new_b), outcome, strict=True):
        if user != ai:
            yield count(_ADD_RESULT, (wins, losses, draws, new, now, match.guild_id, match.game, user))
            moved.append((match.id, user, rating[user], new, now))
    # what really happened, kept: replaying Elo later cannot know the games played in between
    yield many(_RECORD_CHANGE, moved)
