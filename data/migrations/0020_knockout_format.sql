-- 0020: a knockout is stored as what it is. 0019 could not widen the CHECK that 0017 put on
-- `tournaments.format` (only 'swiss' and 'round-robin'), so it stored a knockout as 'swiss' with a
-- `knockout` column set, which only data/tournaments.py read back: an export, a query by format or
-- an admin at the database saw a Swiss tournament. Here the CHECK names 'knockout' too, every row
-- marked by 0019 gets format 'knockout', and the `knockout` column goes. Each store says it in its
-- own words (docs/architecture.md, "Migrations").
--
-- SQLite cannot change a CHECK in place: the table is rebuilt as SQLite's documentation says
-- ("Making Other Kinds Of Table Schema Changes"): a new table with the new CHECK, every row copied
-- (same ids), the old one dropped, the new one renamed, its one index made again. The runner has
-- foreign keys off around it and runs `PRAGMA foreign_key_check` before the commit (no table
-- refers to `tournaments` by a foreign key today; its players, games, inputs and round messages
-- hold its id, which the copy keeps). The AUTOINCREMENT counter is carried over, so an id once
-- given is never given again. Every statement is in the migration's one transaction: a start
-- interrupted mid-rebuild leaves the table of 0019 as it was.
--
-- PostgreSQL changes the constraint itself (named `tournaments_format_check` when 0017 added the
-- column), in the transaction of all pending migrations; dropping the column drops its CHECK.

-- [sqlite]
CREATE TABLE tournaments_0020 (
    id               INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id         BIGINT NOT NULL,
    channel_id       BIGINT NOT NULL,
    game             TEXT NOT NULL,
    options          TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(options)),
    name             TEXT NOT NULL,
    rounds           INTEGER NOT NULL CHECK (rounds > 0),
    round_seconds    BIGINT NOT NULL CHECK (round_seconds > 0),
    status           TEXT NOT NULL CHECK (status IN ('signup', 'running', 'finished', 'cancelled')),
    round            INTEGER NOT NULL DEFAULT 0,
    round_ends_at    DOUBLE PRECISION,
    announced        INTEGER NOT NULL DEFAULT 0,
    message_id       BIGINT,
    created_by       BIGINT NOT NULL,
    version          INTEGER NOT NULL DEFAULT 0,
    created_at       DOUBLE PRECISION NOT NULL,
    updated_at       DOUBLE PRECISION NOT NULL,
    seal_secret      TEXT,
    seal_commitment  TEXT,
    sealed_at        DOUBLE PRECISION,
    seal_message_id  BIGINT,
    format           TEXT NOT NULL DEFAULT 'swiss' CHECK (format IN ('swiss', 'round-robin', 'knockout')),
    max_players      INTEGER CHECK (max_players IS NULL OR max_players >= 2),
    tiebreaks        TEXT,
    signup_closes_at REAL
);

INSERT INTO tournaments_0020 (
    id, guild_id, channel_id, game, options, name, rounds, round_seconds, status, round,
    round_ends_at, announced, message_id, created_by, version, created_at, updated_at, seal_secret,
    seal_commitment, sealed_at, seal_message_id, format, max_players, tiebreaks, signup_closes_at
)
SELECT
    id, guild_id, channel_id, game, options, name, rounds, round_seconds, status, round,
    round_ends_at, announced, message_id, created_by, version, created_at, updated_at, seal_secret,
    seal_commitment, sealed_at, seal_message_id,
    CASE WHEN knockout = 1 THEN 'knockout' ELSE format END,
    max_players, tiebreaks, signup_closes_at
FROM tournaments;

-- the counter of ids given (sqlite_sequence), which the copy set to the highest id kept: an id
-- given to a tournament since deleted stays given
DELETE FROM sqlite_sequence WHERE name = 'tournaments_0020';

INSERT INTO sqlite_sequence (name, seq)
SELECT 'tournaments_0020', seq FROM sqlite_sequence WHERE name = 'tournaments';

DROP TABLE tournaments;

ALTER TABLE tournaments_0020 RENAME TO tournaments;

-- one tournament at a time in a channel (0007's index, word for word)
CREATE UNIQUE INDEX tournaments_open_channel ON tournaments (channel_id)
    WHERE status IN ('signup', 'running');

-- [postgresql]
ALTER TABLE tournaments DROP CONSTRAINT tournaments_format_check;

ALTER TABLE tournaments ADD CONSTRAINT tournaments_format_check
    CHECK (format IN ('swiss', 'round-robin', 'knockout'));

UPDATE tournaments SET format = 'knockout' WHERE knockout = 1;

ALTER TABLE tournaments DROP COLUMN knockout;

-- [both]
PRAGMA user_version = 20;
