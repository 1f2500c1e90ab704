"""The tournaments' rows and queries (migrations 0007, 0008, 0010, 0011, 0015, 0016, 0017,
0018, 0020), for both stores.

`TournamentStore(db)` runs its transactions through a `data.db.Database` (either store), in a file
of its own so the match queries and the tournament queries each read as one idea. Every change of
a tournament's own row is `UPDATE ... WHERE id = ? AND version = ?` (`TournamentMoved` for the
loser), so two sweeps that find the same round over pair the next round once; a game's result,
thread and match are each written once (`... WHERE result IS NULL`).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from data.db import MAX_ID, Conflict, Database, Transaction, count, many, one, row_to_match, rows
from data.elo import START_RATING
from data.errors import DataError
from data.models import Match, Status

NO_CAP = 1 << 40  # a sign-up list's limit where the tournament sets none
NO_INPUT = "-"  # the input to a game's dice of a player who gave none (play/tournament.py `_dice`)
KNOCKOUT = "knockout"  # single elimination (migration 0020 lets `format` say so)


class TournamentStatus(StrEnum):
    """signup -> running -> finished, or cancelled from either of the first two."""

    SIGNUP = "signup"
    RUNNING = "running"
    FINISHED = "finished"
    CANCELLED = "cancelled"

    @property
    def is_open(self) -> bool:
        return self in (TournamentStatus.SIGNUP, TournamentStatus.RUNNING)


class TournamentBusy(DataError):
    """The channel already runs a tournament (one at a time per channel)."""


class TournamentMoved(DataError):
    """The tournament changed since the caller read it (another command or sweep won)."""


class RatingsMoved(DataError):
    """A player's rating changed between the start's read and its write (a game of theirs ended
    meanwhile): the start pairs round 1 again from the ratings as they now are."""


@dataclass(frozen=True, slots=True)
class Tournament:
    id: int
    guild_id: int
    channel_id: int
    game: str
    options: dict[str, Any]
    name: str
    rounds: int
    round_seconds: int
    status: TournamentStatus
    round: int
    round_ends_at: float | None
    announced: int
    message_id: int | None
    created_by: int
    version: int
    created_at: float
    # the tournament's seal (migration 0010): its games' secrets come from it; shown by a message of
    # its own before anyone joined; the secret (kept out of repr) is revealed when the tournament ends
    seal_commitment: str | None = None
    sealed_at: float | None = None
    seal_message_id: int | None = None
    seal_secret: str | None = field(default=None, repr=False)
    # its own settings (migration 0017; 'knockout' since 0019, stored as such since 0020): how it
    # pairs, and the most players it takes (None: no cap)
    format: str = "swiss"
    max_players: int | None = None
    tiebreaks: str | None = None  # the name of its tie-break order (None: its format's usual one)
    signup_closes_at: float | None = None  # no sign-up after it (None: open until the start)


@dataclass(frozen=True, slots=True)
class Held:
    """A tournament as a server's list of them shows it: `changed_at` its row's last change (for
    one over or cancelled, when that happened), `began_at` its first game's start (None before any)."""

    tournament: Tournament
    changed_at: float
    began_at: float | None


@dataclass(frozen=True, slots=True)
class Entry:
    """A player of a tournament; `rating` is theirs in the game when it started (None before);
    `join_input` their input to their games' dice (the id of the interaction that first signed them
    up to this tournament: kept through a leave, migration 0015). `joined_round`: the round under
    way when they joined (0 before the start; a latecomer sat out the rounds up to it, each a
    zero-point bye); `withdrawn_round` and `withdrawn_by`: the round under way when they were
    withdrawn, and the organiser who removed them (None: themselves, or they left the server),
    migration 0016."""

    user_id: int
    rating: float | None
    withdrawn: bool
    joined_at: float
    join_input: str | None = None
    joined_round: int = 0
    withdrawn_round: int | None = None
    withdrawn_by: int | None = None


@dataclass(frozen=True, slots=True)
class LateRefused:
    """What a latecomer's refused write found, read in its transaction under the tournament's row
    lock: the tournament, its list and the organiser's removal of theirs, if one stands. The refusal
    is said from these, so it names what refused it, not what another process changed after."""

    tournament: Tournament
    entries: list[Entry]
    removed_by: int | None


@dataclass(frozen=True, slots=True)
class Board:
    """One game of a round; `second_id` None is a bye. `result` is `first_id`'s points once over."""

    tournament_id: int
    round: int
    board: int
    first_id: int
    second_id: int | None
    thread_id: int | None
    match_id: int | None
    result: float | None
    message_id: int | None = None  # the first message of its thread (migration 0011)


@dataclass(frozen=True, slots=True)
class GameRating:
    """What a tournament game did to its players' ratings, as recorded when it was rated (migration
    0008): `changes` maps each player to their rating (before, after). No changes and `finished`: it
    ended with a result before the changes were recorded (the standings estimate it); no changes and
    not `finished`: it was never rated (stopped at the round's end, cancelled, still going)."""

    round: int
    board: int
    finished: bool
    changes: dict[int, tuple[float, float]]


_INSERT = """
INSERT INTO tournaments (
    guild_id, channel_id, game, options, name, rounds, round_seconds, status, round, announced,
    created_by, version, created_at, updated_at, seal_secret, seal_commitment, format, max_players,
    tiebreaks, signup_closes_at
) VALUES (
    :guild_id, :channel_id, :game, :options, :name, :rounds, :round_seconds, 'signup', 0, 0,
    :created_by, 0, :now, :now, :seal_secret, :seal_commitment, :format, :max_players,
    :tiebreaks, :signup_closes_at
)
RETURNING *
"""
# The message that showed the tournament's seal: the first one counts.
_SEAL_SHOWN = """
UPDATE tournaments SET sealed_at = ?, seal_message_id = ? WHERE id = ? AND sealed_at IS NULL
"""
# The tournament game a match is, if it is one (its seal gives the match's secret).
_BOARD_OF_MATCH = "SELECT * FROM tournament_games WHERE match_id = ?"
_BOARDS_IN_THREAD = "SELECT * FROM tournament_games WHERE thread_id = ?"
_SELECT = "SELECT * FROM tournaments WHERE id = ?"
# Tournaments taking sign-ups whose seal or sign-up list never went out (a crash right after making
# one, or a post that failed): owed to their channel, the seal first.
_UNSHOWN = """
SELECT * FROM tournaments
WHERE status = 'signup' AND (message_id IS NULL OR (seal_commitment IS NOT NULL AND sealed_at IS NULL))
ORDER BY id
"""
# A server's tournaments, newest first (`/tournament past`), with when each began: its
# first game's making (NULL before any). No write touches a tournament's row time once it is over or
# cancelled (each is guarded by status 'signup' or 'running'), so `updated_at` is then when it ended.
_IN_GUILD = """
SELECT t.*, (
    SELECT MIN(m.created_at) FROM tournament_games AS g JOIN matches AS m ON m.id = g.match_id
    WHERE g.tournament_id = t.id
) AS first_game_at
FROM tournaments AS t WHERE t.guild_id = ? ORDER BY t.id DESC
"""
_OPEN_IN_CHANNEL = "SELECT * FROM tournaments WHERE channel_id = ? AND status IN ('signup', 'running')"
_LATEST_IN_CHANNEL = "SELECT * FROM tournaments WHERE channel_id = ? ORDER BY id DESC LIMIT 1"
_RUNNING = """
SELECT * FROM tournaments
WHERE status = 'running' OR (status = 'finished' AND announced < round)
ORDER BY id
"""
_PLAYERS = "SELECT * FROM tournament_players WHERE tournament_id = ? ORDER BY joined_at, user_id"
_BOARDS = "SELECT * FROM tournament_games WHERE tournament_id = ? ORDER BY round, board"
# Every game's recorded rating changes in one statement, whatever the number of boards (a row per
# player whose rating moved; one row of NULLs for a game that recorded none).
_GAME_RATINGS = """
SELECT g.round, g.board, m.status, c.user_id, c.rating_before, c.rating_after
FROM tournament_games AS g
JOIN matches AS m ON m.id = g.match_id
LEFT JOIN rating_changes AS c ON c.match_id = g.match_id
WHERE g.tournament_id = ?
ORDER BY g.round, g.board, c.user_id
"""
# A player's first input to the dice is kept for the whole tournament (migration 0015): a join again
# takes it, not its own interaction's, so leaving and joining again draws no new dice. A player an
# organiser took off the list (migration 0018's `removed_by`) is refused by this write itself, and by
# the touches of the tournament's row before it, until an organiser puts them back.
_JOIN = """
INSERT INTO tournament_players (tournament_id, user_id, rating, withdrawn, joined_at, join_input)
SELECT id, :user_id, NULL, 0, :now, COALESCE(
    (SELECT join_input FROM tournament_inputs WHERE tournament_id = :id AND user_id = :user_id), :join_input
) FROM tournaments WHERE id = :id AND status = 'signup'
AND (SELECT COUNT(*) FROM tournament_players WHERE tournament_id = :id) < :most
AND (
    SELECT removed_by FROM tournament_inputs WHERE tournament_id = :id AND user_id = :user_id
) IS NULL
ON CONFLICT DO NOTHING
"""
_KEEP_INPUT = """
INSERT INTO tournament_inputs (tournament_id, user_id, join_input, given_at)
SELECT tournament_id, user_id, join_input, joined_at FROM tournament_players
WHERE tournament_id = :id AND user_id = :user_id AND join_input IS NOT NULL
ON CONFLICT DO NOTHING
"""
# A latecomer joins a running tournament (RULES.md "Late entry"): while the round under way is at most
# half the rounds, so they play at least as many rounds as they miss, the tournament has fewer than
# `most` players (the withdrawn count: their places were taken) and no organiser's removal of theirs
# stands. Checked by this write itself, after `_LOCK` (as a join before the start is).
_JOIN_LATE = """
INSERT INTO tournament_players (
    tournament_id, user_id, rating, withdrawn, joined_at, join_input, joined_round
)
SELECT id, :user_id, :rating, 0, :now, COALESCE(
    (SELECT join_input FROM tournament_inputs WHERE tournament_id = :id AND user_id = :user_id), :join_input
), round FROM tournaments WHERE id = :id AND status = 'running' AND round * 2 <= rounds
AND (SELECT COUNT(*) FROM tournament_players WHERE tournament_id = :id) < :most
AND (SELECT removed_by FROM tournament_inputs WHERE tournament_id = :id AND user_id = :user_id) IS NULL
ON CONFLICT DO NOTHING
"""
_JOINED_ROUND = "SELECT joined_round FROM tournament_players WHERE tournament_id = :id AND user_id = :user_id"
_LEAVE = """
DELETE FROM tournament_players WHERE tournament_id = :id AND user_id = :user_id
AND EXISTS (SELECT 1 FROM tournaments WHERE id = :id AND status = 'signup')
"""
# Who changes a tournament's list moves (and so locks) its row first, as pairing it does, then the
# player's: one order for all, so on PostgreSQL neither waits on the other in a cycle, and a join or
# a leave either commits first (the start, holding the older version, is refused) or waits for it.
# A join locks the row before it reads anything (`_LOCK`), whatever it finds, and moves the version
# (`_TOUCH`) only once it is in: under READ COMMITTED its checks then see every change of the list
# committed before it, a removal whose player's row it would otherwise wait on and then re-insert,
# and a join that took the last place (each statement reads afresh, but a statement that waited on a
# lock does not read again the other rows its checks counted).
_LOCK = "UPDATE tournaments SET version = version WHERE id = :id"
_TOUCH = "UPDATE tournaments SET version = version + 1, updated_at = :now WHERE id = :id"
# An organiser takes a player off the sign-up list (RULES.md "Leaving"): their row goes, as a leave's
# does, and the row keeping their input (which outlives it) says who removed them, so it holds. A
# player signed up before inputs were kept (migration 0015: no input, their games' dice take "-")
# has no such row: the removal writes one, keeping "-", which is what their games took.
_MARK_REMOVED = """
INSERT INTO tournament_inputs (tournament_id, user_id, join_input, given_at, removed_by)
VALUES (:id, :user_id, :no_input, :now, :by)
ON CONFLICT (tournament_id, user_id) DO UPDATE SET removed_by = excluded.removed_by
"""
_REMOVED_BY = """
SELECT removed_by FROM tournament_inputs
WHERE tournament_id = :id AND user_id = :user_id AND removed_by IS NOT NULL
"""
# Signed up once (their input kept, migration 0015), and no organiser's removal stands: off the list
# now, they left it themselves (or the server).
_SIGNED_UP_ONCE = """
SELECT 1 FROM tournament_inputs WHERE tournament_id = :id AND user_id = :user_id AND removed_by IS NULL
"""
# Put back on the list by an organiser before the start: the tournament's row moves first (as a
# join's does), only while the removal still stands; the join then takes their kept input.
_TOUCH_UNREMOVED = """
UPDATE tournaments SET version = version + 1, updated_at = :now
WHERE id = :id AND status = 'signup' AND EXISTS (
    SELECT 1 FROM tournament_inputs WHERE tournament_id = :id AND user_id = :user_id
    AND removed_by IS NOT NULL
)
"""
# Put back by an organiser after the start: a late entry on their behalf, on late entry's terms (the
# round under way at most half the rounds), only while the removal stands and they are not in.
_TOUCH_UNREMOVED_LATE = """
UPDATE tournaments SET version = version + 1, updated_at = :now
WHERE id = :id AND status = 'running' AND round * 2 <= rounds AND NOT EXISTS
    (SELECT 1 FROM tournament_players WHERE tournament_id = :id AND user_id = :user_id)
AND EXISTS (
    SELECT 1 FROM tournament_inputs WHERE tournament_id = :id AND user_id = :user_id
    AND removed_by IS NOT NULL
)
"""
_UNREMOVE = """
UPDATE tournament_inputs SET removed_by = NULL
WHERE tournament_id = :id AND user_id = :user_id AND removed_by IS NOT NULL
"""
_TOUCH_IF_IN = """
UPDATE tournaments SET version = version + 1, updated_at = :now
WHERE id = :id AND status = :status AND EXISTS
    (SELECT 1 FROM tournament_players WHERE tournament_id = :id AND user_id = :user_id AND withdrawn = 0)
"""
_MESSAGE = "UPDATE tournaments SET message_id = ? WHERE id = ?"
# `rounds` is set once, at a round-robin's start (its players then say how many): NULL keeps it.
_ADVANCE = """
UPDATE tournaments SET status = :status, round = :round, round_ends_at = :round_ends_at,
    rounds = COALESCE(:rounds, rounds), version = version + 1, updated_at = :now
WHERE id = :id AND version = :version
"""
# A game begun late in its round has the whole round (RULES.md "Tournaments": a game begun late):
# the round ends no sooner than its start plus the round's length. Only ever later; the version
# moves, so a sweep holding the earlier end pairs nothing on it.
_EXTEND = """
UPDATE tournaments SET round_ends_at = :ends, version = version + 1, updated_at = :now
WHERE id = :id AND round = :round AND status = 'running' AND round_ends_at < :ends
"""
# An organiser's extension: later by `by` seconds, while the round is the one extended and its time
# is not up (a round the sweep may be closing on time is not reopened).
_LENGTHEN = """
UPDATE tournaments SET round_ends_at = round_ends_at + CAST(:by AS DOUBLE PRECISION),
    version = version + 1, updated_at = :now
WHERE id = :id AND round = :round AND status = 'running' AND round_ends_at > :now
"""
_RATING = "UPDATE tournament_players SET rating = ? WHERE tournament_id = ? AND user_id = ?"
# The ratings as they are in the start's own transaction (data/db.py's `player_stats`).
_RATINGS_NOW = "SELECT user_id, rating FROM player_stats WHERE guild_id = ? AND game = ?"
_INSERT_BOARD = """
INSERT INTO tournament_games (tournament_id, round, board, first_id, second_id, result)
VALUES (?, ?, ?, ?, ?, ?)
"""
_RESULT = """
UPDATE tournament_games SET result = ?
WHERE tournament_id = ? AND round = ? AND board = ? AND result IS NULL
"""
_THREAD = """
UPDATE tournament_games SET thread_id = ?
WHERE tournament_id = ? AND round = ? AND board = ? AND thread_id IS NULL
"""
_MATCH = """
UPDATE tournament_games SET match_id = ?
WHERE tournament_id = ? AND round = ? AND board = ? AND match_id IS NULL
"""
_BOARD_MESSAGE = """
UPDATE tournament_games SET message_id = ? WHERE tournament_id = ? AND round = ? AND board = ?
"""
# A round's announcement: the last one posted counts (a round announced again after a crash).
_ROUND_MESSAGE = """
INSERT INTO tournament_rounds (tournament_id, round, message_id) VALUES (?, ?, ?)
ON CONFLICT (tournament_id, round) DO UPDATE SET message_id = excluded.message_id
"""
_GET_ROUND_MESSAGE = "SELECT message_id FROM tournament_rounds WHERE tournament_id = ? AND round = ?"
_ANNOUNCED = "UPDATE tournaments SET announced = ? WHERE id = ? AND announced < ?"
# A player left the server: their tournaments' rows are locked first (no version moves, so a sweep
# that is withdrawing them itself goes on), then the pairing's check of who is still in sees them go.
_LOCK_THEIRS = """
UPDATE tournaments SET version = version
WHERE guild_id = :guild_id AND status IN ('signup', 'running') AND id IN
    (SELECT tournament_id FROM tournament_players WHERE user_id = :user_id AND withdrawn = 0)
"""
_WITHDRAW_RUNNING = """
UPDATE tournament_players SET withdrawn = 1, withdrawn_by = NULL,
    withdrawn_round = (SELECT round FROM tournaments WHERE id = tournament_players.tournament_id)
WHERE user_id = :user_id AND withdrawn = 0 AND tournament_id IN
    (SELECT id FROM tournaments WHERE guild_id = :guild_id AND status = 'running')
"""
_WITHDRAW_SIGNUP = """
DELETE FROM tournament_players
WHERE user_id = :user_id AND tournament_id IN
    (SELECT id FROM tournaments WHERE guild_id = :guild_id AND status = 'signup')
"""
# A player withdraws (or is removed) from a running tournament: never paired again. The version moves
# too, so a sweep that read the players before this is refused and pairs the round again without them.
_WITHDRAW_ONE = """
UPDATE tournament_players SET withdrawn = 1, withdrawn_by = :by,
    withdrawn_round = (SELECT round FROM tournaments WHERE id = :id)
WHERE tournament_id = :id AND user_id = :user_id AND withdrawn = 0
AND EXISTS (SELECT 1 FROM tournaments WHERE id = :id AND status = 'running')
"""
# An organiser's removal undone (RULES.md "Leaving"): only while the round it came in is still the
# one under way, so the player missed no pairing; the version moves, as a withdrawal's does.
_TOUCH_REMOVED = """
UPDATE tournaments SET version = version + 1, updated_at = :now
WHERE id = :id AND status = 'running' AND EXISTS (
    SELECT 1 FROM tournament_players WHERE tournament_id = :id AND user_id = :user_id
    AND withdrawn = 1 AND withdrawn_by IS NOT NULL AND withdrawn_round = tournaments.round
)
"""
_REINSTATE = """
UPDATE tournament_players SET withdrawn = 0, withdrawn_round = NULL, withdrawn_by = NULL
WHERE tournament_id = :id AND user_id = :user_id AND withdrawn = 1
"""
# Read again inside the transaction that commits a round's pairings: a player withdrawn (or taken off
# the list) since the players were read must not be paired; leaving the server moves no version.
_STILL_IN = "SELECT user_id FROM tournament_players WHERE tournament_id = ? AND withdrawn = 0"
# The matches of one round's boards in one statement (the sweep and the round's view read them all).
_ROUND_MATCHES = """
SELECT g.board AS board_no, m.* FROM tournament_games AS g
JOIN matches AS m ON m.id = g.match_id
WHERE g.tournament_id = ? AND g.round = ?
"""
_GET_ROLE = "SELECT role_id FROM tournament_roles WHERE guild_id = ?"
_SET_ROLE = """
INSERT INTO tournament_roles (guild_id, role_id) VALUES (?, ?)
ON CONFLICT (guild_id) DO UPDATE SET role_id = excluded.role_id
"""
_CLEAR_ROLE = "DELETE FROM tournament_roles WHERE guild_id = ?"


def _tournament(row: Any) -> Tournament:
    ends = row["round_ends_at"]
    return Tournament(
        id=int(row["id"]),
        guild_id=int(row["guild_id"]),
        channel_id=int(row["channel_id"]),
        game=row["game"],
        options=json.loads(row["options"]),
        name=row["name"],
        rounds=int(row["rounds"]),
        round_seconds=int(row["round_seconds"]),
        status=TournamentStatus(row["status"]),
        round=int(row["round"]),
        round_ends_at=None if ends is None else float(ends),
        announced=int(row["announced"]),
        message_id=None if row["message_id"] is None else int(row["message_id"]),
        created_by=int(row["created_by"]),
        version=int(row["version"]),
        created_at=float(row["created_at"]),
        seal_commitment=row["seal_commitment"],
        sealed_at=None if row["sealed_at"] is None else float(row["sealed_at"]),
        seal_message_id=None if row["seal_message_id"] is None else int(row["seal_message_id"]),
        seal_secret=row["seal_secret"],
        format=row["format"],
        max_players=None if row["max_players"] is None else int(row["max_players"]),
        tiebreaks=row["tiebreaks"],
        signup_closes_at=None if row["signup_closes_at"] is None else float(row["signup_closes_at"]),
    )


def _entry(row: Any) -> Entry:
    rating = row["rating"]
    return Entry(
        int(row["user_id"]),
        None if rating is None else float(rating),
        bool(row["withdrawn"]),
        float(row["joined_at"]),
        row["join_input"],
        int(row["joined_round"]),
        None if row["withdrawn_round"] is None else int(row["withdrawn_round"]),
        None if row["withdrawn_by"] is None else int(row["withdrawn_by"]),
    )


def _board(row: Any) -> Board:
    def opt(name: str) -> int | None:
        return None if row[name] is None else int(row[name])

    result = row["result"]
    return Board(
        tournament_id=int(row["tournament_id"]),
        round=int(row["round"]),
        board=int(row["board"]),
        first_id=int(row["first_id"]),
        second_id=opt("second_id"),
        thread_id=opt("thread_id"),
        match_id=opt("match_id"),
        result=None if result is None else float(result),
        message_id=opt("message_id"),
    )


class TournamentStore:
    """The tournament queries, run by the store `db` (SQLite or PostgreSQL)."""

    def __init__(self, db: Database) -> None:
        self.db = db

    async def _transact(self, work: Callable[[], Transaction[Any]]) -> Any:
        return await self.db._transact(work)

    async def _query(self, sql: str, params: Any = ()) -> list[Any]:
        return await self.db._query(sql, params)

    async def create_tournament(
        self,
        *,
        guild_id: int,
        channel_id: int,
        game: str,
        options: dict[str, Any],
        name: str,
        rounds: int,
        round_seconds: int,
        created_by: int,
        now: float,
        seal_secret: str | None = None,
        seal_commitment: str | None = None,
        format: str = "swiss",
        max_players: int | None = None,
        tiebreaks: str | None = None,
        signup_closes_at: float | None = None,
    ) -> Tournament:
        """A new tournament taking sign-ups, with its seal (migration 0010) and its own settings
        (0017); `TournamentBusy` if the channel runs one."""
        params = {
            "guild_id": guild_id,
            "channel_id": channel_id,
            "game": game,
            "options": json.dumps(options, sort_keys=True),
            "name": name,
            "rounds": rounds,
            "round_seconds": round_seconds,
            "created_by": created_by,
            "now": float(now),
            "seal_secret": seal_secret,
            "seal_commitment": seal_commitment,
            "format": format,
            "max_players": max_players,
            "tiebreaks": tiebreaks,
            "signup_closes_at": None if signup_closes_at is None else float(signup_closes_at),
        }

        def insert() -> Transaction[Tournament]:
            try:
                row = yield one(_INSERT, params)
            except Conflict:  # the only unique index a new row can hit: one open per channel
                raise TournamentBusy(channel_id) from None
            return _tournament(row)

        result: Tournament = await self._transact(insert)
        return result

    async def get_tournament(self, tournament_id: int) -> Tournament | None:
        if not 0 < tournament_id <= MAX_ID:
            return None  # no row has it (a number typed at the console)
        found = await self._query(_SELECT, (tournament_id,))
        return _tournament(found[0]) if found else None

    async def channel_tournament(self, channel_id: int, *, open_only: bool = True) -> Tournament | None:
        """The channel's tournament taking sign-ups or running (or, not `open_only`, its latest)."""
        found = await self._query(_OPEN_IN_CHANNEL if open_only else _LATEST_IN_CHANNEL, (channel_id,))
        return _tournament(found[0]) if found else None

    async def guild_tournaments(self, guild_id: int) -> list[Held]:
        """Every tournament of a server, newest first, each with when it began and last changed."""
        return [
            Held(
                _tournament(row),
                float(row["updated_at"]),
                None if row["first_game_at"] is None else float(row["first_game_at"]),
            )
            for row in await self._query(_IN_GUILD, (guild_id,))
        ]

    async def running_tournaments(self) -> list[Tournament]:
        """Tournaments running, and those finished whose final standings the channel lacks."""
        return [_tournament(row) for row in await self._query(_RUNNING)]

    async def unshown_tournaments(self) -> list[Tournament]:
        """Tournaments taking sign-ups whose seal, or sign-up list, was never posted."""
        return [_tournament(row) for row in await self._query(_UNSHOWN)]

    async def tournament_entries(self, tournament_id: int) -> list[Entry]:
        return [_entry(row) for row in await self._query(_PLAYERS, (tournament_id,))]

    async def tournament_boards(self, tournament_id: int) -> list[Board]:
        return [_board(row) for row in await self._query(_BOARDS, (tournament_id,))]

    async def game_ratings(self, tournament_id: int) -> list[GameRating]:
        """The rating changes of every game of the tournament that has a match, in round and board
        order, read in one query (the standings are drawn after every round)."""
        games: dict[tuple[int, int], GameRating] = {}
        for row in await self._query(_GAME_RATINGS, (tournament_id,)):
            key = (int(row["round"]), int(row["board"]))
            game = games.get(key)
            if game is None:
                game = games[key] = GameRating(*key, Status(row["status"]) is Status.FINISHED, {})
            if row["user_id"] is not None:
                game.changes[int(row["user_id"])] = (float(row["rating_before"]), float(row["rating_after"]))
        return list(games.values())

    async def join_tournament(
        self,
        tournament_id: int,
        user_id: int,
        now: float,
        join_input: str | None = None,
        most: int | None = None,
    ) -> bool:
        """Sign a player up, with their input to their games' dice: `join_input` if this is their
        first sign-up to the tournament, else the input of that first one, kept through any leave
        (migration 0015). False if they were already signed up, sign-ups are closed, or it has its
        `most` players already (counted after its row is locked, so two joins cannot both pass), or
        an organiser took them off (a removal in flight is waited for)."""
        params = {"id": tournament_id, "user_id": user_id, "now": float(now)}

        def join() -> Transaction[bool]:
            yield count(_LOCK, params)
            limit = {"join_input": join_input, "most": NO_CAP if most is None else most}
            added = yield count(_JOIN, {**params, **limit})
            if added:
                yield count(_TOUCH, params)
                yield count(_KEEP_INPUT, params)
            return bool(added)

        joined: bool = await self._transact(join)
        return joined

    async def join_late(
        self,
        tournament_id: int,
        user_id: int,
        now: float,
        rating: float,
        join_input: str | None = None,
        most: int | None = None,
    ) -> int | LateRefused:
        """Sign a latecomer up to a running tournament, rated `rating` (theirs in the game now), with
        their input to their games' dice as `join_tournament` takes it: the round under way then,
        whose pairing and those before it they missed. Refused (`LateRefused`, what the write found)
        if they were in it already, or late entry has closed (more than half the rounds begun), or
        it no longer runs, or it has `most` players already (the withdrawn count; counted after its
        row is locked), or an organiser took them off before the start. The version moves once they
        are in: a sweep that read the players before this is refused, and the next pairs the round
        with them."""
        params = {"id": tournament_id, "user_id": user_id, "now": float(now)}
        limit = {"most": NO_CAP if most is None else most}

        def join() -> Transaction[int | LateRefused]:
            yield count(_LOCK, params)
            late = {**limit, "rating": float(rating), "join_input": join_input}
            added = yield count(_JOIN_LATE, {**params, **late})
            if not added:  # why, read once, still under the lock: nothing has changed since
                found = yield rows(_SELECT, (tournament_id,))
                entries = yield rows(_PLAYERS, (tournament_id,))
                removal = yield rows(_REMOVED_BY, params)
                by = int(removal[0]["removed_by"]) if removal else None
                return LateRefused(_tournament(found[0]), [_entry(e) for e in entries], by)
            yield count(_TOUCH, params)
            yield count(_KEEP_INPUT, params)
            found = yield rows(_JOINED_ROUND, params)
            return int(found[0]["joined_round"])

        joined: int | LateRefused = await self._transact(join)
        return joined

    async def reinstate_entry(self, tournament_id: int, user_id: int, now: float) -> bool:
        """Undo an organiser's removal while the round it came in is still under way; False if they
        were not removed by one, or a round has been paired since, or it no longer runs."""
        params = {"id": tournament_id, "user_id": user_id}

        def reinstate() -> Transaction[bool]:
            touched = yield count(_TOUCH_REMOVED, {**params, "now": float(now)})
            if not touched:
                return False
            back = yield count(_REINSTATE, params)
            return bool(back)

        done: bool = await self._transact(reinstate)
        return done

    async def leave_tournament(self, tournament_id: int, user_id: int, now: float) -> bool:
        """Take a player off the sign-up list; False if they were not on it (or it has started)."""
        params = {"id": tournament_id, "user_id": user_id}
        touch = {**params, "now": float(now), "status": str(TournamentStatus.SIGNUP)}

        def leave() -> Transaction[bool]:
            yield count(_TOUCH_IF_IN, touch)
            gone = yield count(_LEAVE, params)
            return bool(gone)

        left: bool = await self._transact(leave)
        return left

    async def remove_signup(self, tournament_id: int, user_id: int, now: float, by: int) -> bool:
        """An organiser (`by`) takes a player off the sign-up list before the start: off it as by a
        leave, and their own join refused until an organiser puts them back (migration 0018). False
        if they were not on it (or it has started)."""
        params = {"id": tournament_id, "user_id": user_id}
        touch = {**params, "now": float(now), "status": str(TournamentStatus.SIGNUP)}

        def remove() -> Transaction[bool]:
            yield count(_TOUCH_IF_IN, touch)
            gone = yield count(_LEAVE, params)
            if gone:
                yield count(_MARK_REMOVED, {**params, "by": by, "now": float(now), "no_input": NO_INPUT})
            return bool(gone)

        removed: bool = await self._transact(remove)
        return removed

    async def removed_by(self, tournament_id: int, user_id: int) -> int | None:
        """The organiser who took `user_id` off the tournament's sign-up list, if that still stands."""
        found = await self._query(_REMOVED_BY, {"id": tournament_id, "user_id": user_id})
        return int(found[0]["removed_by"]) if found else None

    async def signed_up_once(self, tournament_id: int, user_id: int) -> bool:
        """`user_id` signed up to the tournament at some time (since inputs were kept), and no
        organiser's removal of theirs stands: whether they are on the list now is not read here."""
        return bool(await self._query(_SIGNED_UP_ONCE, {"id": tournament_id, "user_id": user_id}))

    async def reinstate_signup(self, tournament_id: int, user_id: int, now: float) -> bool:
        """Undo an organiser's removal before the start: back on the sign-up list with the input
        they first signed up with. False if no removal of theirs stands, or it has started."""
        params = {"id": tournament_id, "user_id": user_id}

        def reinstate() -> Transaction[bool]:
            # the row lock first, then the touch's check afresh: a reinstate that held it first (the
            # same one, on another shard) has undone the removal, and this one changes nothing; a
            # touch that waited on the row would check the removal as read before the wait
            yield count(_LOCK, params)
            touched = yield count(_TOUCH_UNREMOVED, {**params, "now": float(now)})
            if not touched:
                return False
            yield count(_UNREMOVE, params)
            # an organiser's own act: the cap they set does not refuse the player they put back
            back = yield count(_JOIN, {**params, "now": float(now), "join_input": None, "most": NO_CAP})
            return bool(back)

        done: bool = await self._transact(reinstate)
        return done

    async def reinstate_late(self, tournament_id: int, user_id: int, now: float, rating: float) -> int | None:
        """Undo an organiser's removal before the start once it runs: in as a latecomer (rated
        `rating`, with their kept input), on late entry's terms; the round under way then, or None
        if no removal of theirs stands, they are in, or late entry has closed."""
        params = {"id": tournament_id, "user_id": user_id, "now": float(now)}

        def reinstate() -> Transaction[int | None]:
            yield count(_LOCK, params)  # as `reinstate_signup`: the touch then checks afresh
            touched = yield count(_TOUCH_UNREMOVED_LATE, params)
            if not touched:
                return None
            # read afresh: a reinstate that held the row first (the same one, on another shard) undid
            # the removal while this waited, and the touch's check could not see it
            if not (yield count(_UNREMOVE, params)):
                return None
            # an organiser's own act: the cap they set does not refuse the player they put back
            late = {"rating": float(rating), "join_input": None, "most": NO_CAP}
            yield count(_JOIN_LATE, {**params, **late})
            found = yield rows(_JOINED_ROUND, params)
            return int(found[0]["joined_round"])

        joined: int | None = await self._transact(reinstate)
        return joined

    async def tournament_seal_shown(self, tournament_id: int, message_id: int | None, now: float) -> bool:
        """A message (`message_id`, where the platform gives one) showed the tournament's seal; the
        first showing counts."""

        def write() -> Transaction[bool]:
            changed = yield count(_SEAL_SHOWN, (float(now), message_id, tournament_id))
            return bool(changed)

        shown: bool = await self._transact(write)
        return shown

    async def board_of_match(self, match_id: int) -> Board | None:
        """The tournament game `match_id` is, or None for a match outside any tournament."""
        found = await self._query(_BOARD_OF_MATCH, (match_id,))
        return _board(found[0]) if found else None

    async def boards_in_thread(self, thread_id: int) -> list[Board]:
        """The tournament games whose thread is `thread_id` (one, or none for any other channel)."""
        return [_board(row) for row in await self._query(_BOARDS_IN_THREAD, (thread_id,))]

    async def set_tournament_message(self, tournament_id: int, message_id: int) -> None:
        def write() -> Transaction[None]:
            yield count(_MESSAGE, (message_id, tournament_id))

        await self._transact(write)

    async def advance_tournament(
        self,
        tournament: Tournament,
        *,
        status: TournamentStatus,
        round_no: int,
        round_ends_at: float | None,
        now: float,
        boards: Sequence[tuple[int, int | None, float | None]] = (),
        ratings: Iterable[tuple[int, float]] = (),
        rounds: int | None = None,
    ) -> Tournament:
        """Move a tournament on (start it, pair the next round, finish or cancel it) in one
        transaction, if it is still at the version read: `boards` are the new round's (first,
        second or None, result); `ratings` each player's rating at the start, as the caller read
        them and paired from them: read again here, in the transaction that stores them, and refused
        (`RatingsMoved`, nothing written) if one changed since (a game of theirs ended), so the
        ratings stored are those of the moment the tournament began; `rounds` the number of rounds,
        where the start sets it (a round-robin's). Refused too (`TournamentMoved`, nothing written)
        if a player the boards pair has withdrawn or left since."""
        params = {
            "status": str(status),
            "round": round_no,
            "round_ends_at": round_ends_at,
            "rounds": rounds,
            "now": float(now),
            "id": tournament.id,
            "version": tournament.version,
        }
        new_boards = [(tournament.id, round_no, n, a, b, r) for n, (a, b, r) in enumerate(boards, 1)]
        rated = [(float(r), tournament.id, user) for user, r in ratings]

        paired = {user for _, _, _, a, b, _ in new_boards for user in (a, b) if user is not None}

        def advance() -> Transaction[Tournament]:
            changed = yield count(_ADVANCE, params)
            if changed != 1:
                raise TournamentMoved(tournament.id)
            if paired:  # after the row is locked, so a withdrawal either lands before this or after
                still = yield rows(_STILL_IN, (tournament.id,))
                if not paired <= {int(row["user_id"]) for row in still}:
                    raise TournamentMoved(tournament.id)
            if rated:
                found = yield rows(_RATINGS_NOW, (tournament.guild_id, tournament.game))
                now = {int(r["user_id"]): float(r["rating"]) for r in found}
                if any(now.get(user, START_RATING) != r for r, _, user in rated):
                    raise RatingsMoved(tournament.id)
                yield many(_RATING, rated)
            if new_boards:
                yield many(_INSERT_BOARD, new_boards)
            row = yield one(_SELECT, (tournament.id,))
            return _tournament(row)

        moved: Tournament = await self._transact(advance)
        return moved

    async def _once(self, sql: str, params: tuple[Any, ...] | dict[str, Any]) -> bool:
        """One write that must change exactly one row: whether it did."""

        def write() -> Transaction[bool]:
            changed = yield count(sql, params)
            return bool(changed == 1)

        done: bool = await self._transact(write)
        return done

    async def extend_round(self, tournament_id: int, round_no: int, ends: float, now: float) -> bool:
        """Move the end of round `round_no` of a running tournament to `ends`, if that is later;
        False if it was not (as late already, another round now, or no longer running)."""
        params = {"ends": float(ends), "now": float(now), "id": tournament_id, "round": round_no}
        return await self._once(_EXTEND, params)

    async def lengthen_round(self, tournament_id: int, round_no: int, by: float, now: float) -> bool:
        """Move the end of round `round_no` of a running tournament `by` seconds later, in one
        write; False if it is another round now, no longer running, or its time was up at `now`."""
        params = {"by": float(by), "now": float(now), "id": tournament_id, "round": round_no}
        return await self._once(_LENGTHEN, params)

    async def set_board_result(self, board: Board, result: float) -> bool:
        """Record a game's result once; False if it was already recorded."""
        return await self._once(_RESULT, (float(result), board.tournament_id, board.round, board.board))

    async def set_board_thread(self, board: Board, thread_id: int) -> bool:
        return await self._once(_THREAD, (thread_id, board.tournament_id, board.round, board.board))

    async def set_board_match(self, board: Board, match_id: int) -> bool:
        return await self._once(_MATCH, (match_id, board.tournament_id, board.round, board.board))

    async def set_board_message(self, board: Board, message_id: int) -> None:
        """The first message of the board's thread (its round's end is stated there)."""

        def write() -> Transaction[None]:
            yield count(_BOARD_MESSAGE, (message_id, board.tournament_id, board.round, board.board))

        await self._transact(write)

    async def set_round_message(self, tournament_id: int, round_no: int, message_id: int) -> None:
        """The message that announced round `round_no` in the tournament's channel, with its end."""

        def write() -> Transaction[None]:
            yield count(_ROUND_MESSAGE, (tournament_id, round_no, message_id))

        await self._transact(write)

    async def round_message(self, tournament_id: int, round_no: int) -> int | None:
        found = await self._query(_GET_ROUND_MESSAGE, (tournament_id, round_no))
        return int(found[0]["message_id"]) if found else None

    async def mark_announced(self, tournament_id: int, round_no: int) -> bool:
        """The channel has the standings after `round_no`; False if some process had marked it."""
        return await self._once(_ANNOUNCED, (round_no, tournament_id, round_no))

    async def withdraw_player(self, guild_id: int, user_id: int) -> None:
        """A player left the server: off every sign-up list there, never paired again in its
        running tournaments (their games in progress run on to their deadlines)."""
        params = {"guild_id": guild_id, "user_id": user_id}

        def withdraw() -> Transaction[None]:
            yield count(_LOCK_THEIRS, params)
            yield count(_WITHDRAW_SIGNUP, params)
            yield count(_WITHDRAW_RUNNING, params)

        await self._transact(withdraw)

    async def withdraw_entry(
        self, tournament_id: int, user_id: int, now: float, by: int | None = None
    ) -> bool:
        """A player withdraws from a running tournament (or an organiser, `by`, removes them): not
        paired again, their games and results kept. False if they were not in it, had already
        withdrawn, or it is no longer running."""
        params = {"id": tournament_id, "user_id": user_id}
        touch = {**params, "now": float(now), "status": str(TournamentStatus.RUNNING)}

        def withdraw() -> Transaction[bool]:
            yield count(_TOUCH_IF_IN, touch)
            gone = yield count(_WITHDRAW_ONE, {**params, "by": by})
            return bool(gone)

        done: bool = await self._transact(withdraw)
        return done

    async def round_matches(self, tournament_id: int, round_no: int) -> dict[int, Match]:
        """The matches of a round's boards that have one, by board number, in one query. Their
        `snapshot` is not parsed (None): the caller wants the status, the winner and whose turn."""
        rows = await self._query(_ROUND_MATCHES, (tournament_id, round_no))
        return {int(row["board_no"]): row_to_match(row, None) for row in rows}

    async def organiser_role(self, guild_id: int) -> int | None:
        found = await self._query(_GET_ROLE, (guild_id,))
        return int(found[0]["role_id"]) if found else None

    async def set_organiser_role(self, guild_id: int, role_id: int | None) -> None:
        def write() -> Transaction[None]:
            if role_id is None:
                yield count(_CLEAR_ROLE, (guild_id,))
            else:
                yield count(_SET_ROLE, (guild_id, role_id))

        await self._transact(write)


__all__ = [
    "Board",
    "Entry",
    "GameRating",
    "Held",
    "LateRefused",
    "RatingsMoved",
    "Tournament",
    "TournamentBusy",
    "TournamentMoved",
    "TournamentStatus",
    "TournamentStore",
]
