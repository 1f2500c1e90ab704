-- 0006: Swiss tournaments (issue 36). A tournament lives in one channel of one guild; its games are
-- ordinary matches, each in a thread of that channel. `version` guards every change of a
-- tournament, so of two sweeps that find a round over, one pairs the next and the other is refused
-- (docs/architecture.md, "Several processes"). `announced` is the last round whose standings the
-- channel has (posted at least once). Options are the game's, as JSON. Times are unix seconds.

CREATE TABLE tournaments (
    id             INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id       BIGINT NOT NULL,
    channel_id     BIGINT NOT NULL,
    game           TEXT NOT NULL,
    options        TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(options)),
    name           TEXT NOT NULL,
    rounds         INTEGER NOT NULL CHECK (rounds > 0),
    round_seconds  BIGINT NOT NULL CHECK (round_seconds > 0),
    status         TEXT NOT NULL CHECK (status IN ('signup', 'running', 'finished', 'cancelled')),
    round          INTEGER NOT NULL DEFAULT 0,
    round_ends_at  DOUBLE PRECISION,
    announced      INTEGER NOT NULL DEFAULT 0,
    message_id     BIGINT,
    created_by     BIGINT NOT NULL,
    version        INTEGER NOT NULL DEFAULT 0,
    created_at     DOUBLE PRECISION NOT NULL,
    updated_at     DOUBLE PRECISION NOT NULL
);

-- one tournament at a time in a channel
CREATE UNIQUE INDEX tournaments_open_channel ON tournaments (channel_id)
    WHERE status IN ('signup', 'running');

CREATE TABLE tournament_players (
    tournament_id  BIGINT NOT NULL,
    user_id        BIGINT NOT NULL,
    -- the player's rating in the game when the tournament started (pairing order, rating change)
    rating         DOUBLE PRECISION,
    -- 1 once they left the server (or the tournament after it started): never paired again
    withdrawn      INTEGER NOT NULL DEFAULT 0 CHECK (withdrawn IN (0, 1)),
    joined_at      DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (tournament_id, user_id)
);

CREATE TABLE tournament_games (
    tournament_id  BIGINT NOT NULL,
    round          INTEGER NOT NULL,
    board          INTEGER NOT NULL,
    first_id       BIGINT NOT NULL,
    -- NULL: a bye for first_id
    second_id      BIGINT,
    thread_id      BIGINT,
    match_id       BIGINT,
    -- first_id's points (1, 0.5, 0) once the game is over
    result         DOUBLE PRECISION,
    PRIMARY KEY (tournament_id, round, board)
);

-- who may run tournaments in a guild besides those who can manage it
CREATE TABLE tournament_roles (
    guild_id  BIGINT PRIMARY KEY,
    role_id   BIGINT NOT NULL
);

PRAGMA user_version = 7;
