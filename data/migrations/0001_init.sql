-- 0001: matches, the append-only action log, users (preferences), per-guild player stats.
-- Times are unix seconds (REAL). Discord ids are INTEGER (snowflakes fit in 63 bits).
-- Each migration file sets its own user_version; the runner checks it and applies the
-- whole file in one transaction.

CREATE TABLE users (
    user_id     INTEGER PRIMARY KEY,
    dm_on_turn  INTEGER NOT NULL DEFAULT 0 CHECK (dm_on_turn IN (0, 1)),
    created_at  REAL NOT NULL,
    updated_at  REAL NOT NULL
);

CREATE TABLE matches (
    id                    INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id              INTEGER NOT NULL,
    channel_id            INTEGER NOT NULL,
    game                  TEXT NOT NULL,
    options               TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(options)),
    seed                  INTEGER NOT NULL,
    challenger_id         INTEGER NOT NULL,
    opponent_id           INTEGER NOT NULL,
    -- what the challenger asked for ('random' or a side name); resolved into `sides` at accept time
    challenger_side       TEXT NOT NULL DEFAULT 'random',
    -- JSON object side name -> user id, '{}' until the challenge is accepted
    sides                 TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(sides)),
    status                TEXT NOT NULL CHECK (status IN
                              ('challenged', 'active', 'finished', 'declined', 'expired', 'cancelled')),
    turn_player_id        INTEGER,
    -- the deadline and its reminder live on the match row: a match has at most one running clock
    deadline              REAL,
    reminder_at           REAL,
    reminded              INTEGER NOT NULL DEFAULT 0 CHECK (reminded IN (0, 1)),
    turn_seconds          INTEGER NOT NULL CHECK (turn_seconds > 0),
    version               INTEGER NOT NULL DEFAULT 0,
    snapshot              TEXT CHECK (snapshot IS NULL OR json_valid(snapshot)),
    winner_id             INTEGER,
    result_reason         TEXT,
    challenge_expires_at  REAL,
    ai_player_id          INTEGER,
    ai_level              TEXT,
    created_at            REAL NOT NULL,
    updated_at            REAL NOT NULL
);

-- One open (challenged or active) match per channel; a thread is a channel of its own.
CREATE UNIQUE INDEX matches_one_open_per_channel
    ON matches (channel_id) WHERE status IN ('challenged', 'active');

CREATE INDEX matches_guild_status ON matches (guild_id, status);
CREATE INDEX matches_deadline ON matches (deadline) WHERE status = 'active' AND deadline IS NOT NULL;
CREATE INDEX matches_reminder ON matches (reminder_at)
    WHERE status = 'active' AND reminded = 0 AND reminder_at IS NOT NULL;
CREATE INDEX matches_challenge_expiry ON matches (challenge_expires_at) WHERE status = 'challenged';

-- Append-only: rows are never updated or deleted (the triggers below refuse it).
CREATE TABLE actions (
    match_id        INTEGER NOT NULL REFERENCES matches (id),
    seq             INTEGER NOT NULL CHECK (seq >= 1),
    player_id       INTEGER,
    notation        TEXT NOT NULL,
    interaction_id  INTEGER,
    at              REAL NOT NULL,
    -- the match version this row produced (rows of one command share it)
    version         INTEGER NOT NULL,
    PRIMARY KEY (match_id, seq)
) WITHOUT ROWID;

CREATE UNIQUE INDEX actions_interaction ON actions (interaction_id) WHERE interaction_id IS NOT NULL;

CREATE TRIGGER actions_no_update BEFORE UPDATE ON actions
BEGIN
    SELECT RAISE(ABORT, 'the action log is append-only');
END;

CREATE TRIGGER actions_no_delete BEFORE DELETE ON actions
BEGIN
    SELECT RAISE(ABORT, 'the action log is append-only');
END;

CREATE TABLE player_stats (
    guild_id    INTEGER NOT NULL,
    user_id     INTEGER NOT NULL,
    wins        INTEGER NOT NULL DEFAULT 0,
    losses      INTEGER NOT NULL DEFAULT 0,
    draws       INTEGER NOT NULL DEFAULT 0,
    rating      REAL NOT NULL,
    updated_at  REAL NOT NULL,
    PRIMARY KEY (guild_id, user_id)
) WITHOUT ROWID;

CREATE INDEX player_stats_leaderboard ON player_stats (guild_id, rating DESC);

PRAGMA user_version = 1;
