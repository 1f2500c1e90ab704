-- 0005: time away. A player away from a server stops the clocks of their games there until they are
-- back (deadlines are moved, see play/service.py); each stretch away is a row, so the days taken in
-- the last 365 count against the yearly allowance (RULES.md). `end_at` is when it ends or ended
-- (moved to the moment of `back`). Ids are Discord snowflakes (BIGINT), times unix seconds.

CREATE TABLE time_away (
    guild_id  BIGINT NOT NULL,
    user_id   BIGINT NOT NULL,
    start_at  DOUBLE PRECISION NOT NULL,
    end_at    DOUBLE PRECISION NOT NULL
);

CREATE INDEX time_away_user ON time_away (guild_id, user_id, end_at);

PRAGMA user_version = 5;
