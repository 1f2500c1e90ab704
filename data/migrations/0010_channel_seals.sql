-- 0010: a channel's seal (docs/fairness.md, "Sealed in advance"). A seal is the secret of the next
-- game a channel (a thread is a channel) will hold, drawn from the OS before anyone asks for that
-- game: `secret` (hex; never shown before its game ends), `commitment` its SHA-256, `created_at` when
-- it was drawn, and, once a message showed the commitment in the channel, `shown_at` (unix seconds)
-- and that message's id (a Discord snowflake carries its own time; NULL where the platform has none).
-- A challenge takes the channel's seal only once it was shown, and deletes it in the transaction that
-- stores the challenge, so no two games share one. The match keeps what a player can check: when and
-- where its seal was shown (`sealed_at`, `seal_channel_id`, `seal_message_id`; NULL: not sealed, its
-- secret was drawn at the challenge as before).

CREATE TABLE channel_seals (
    channel_id  BIGINT PRIMARY KEY,
    secret      TEXT NOT NULL,
    commitment  TEXT NOT NULL,
    created_at  DOUBLE PRECISION NOT NULL,
    shown_at    DOUBLE PRECISION,
    message_id  BIGINT
);

ALTER TABLE matches ADD COLUMN sealed_at DOUBLE PRECISION;
ALTER TABLE matches ADD COLUMN seal_channel_id BIGINT;
ALTER TABLE matches ADD COLUMN seal_message_id BIGINT;

-- A tournament's seal (docs/fairness.md, "Tournaments"): `seal_secret` (hex; revealed when the
-- tournament ends) and its SHA-256 `seal_commitment`, drawn when the tournament is created and shown
-- in its channel by a message of its own (`seal_message_id`, at `sealed_at`) before anyone joins.
-- Each of its games' secrets is an HMAC of it (engine/fairness.py). A player's `join_input` is the
-- id of the interaction that signed them up (given after the seal was shown), mixed into their games'
-- dice; NULL for every tournament and player stored before.

ALTER TABLE tournaments ADD COLUMN seal_secret TEXT;
ALTER TABLE tournaments ADD COLUMN seal_commitment TEXT;
ALTER TABLE tournaments ADD COLUMN sealed_at DOUBLE PRECISION;
ALTER TABLE tournaments ADD COLUMN seal_message_id BIGINT;
ALTER TABLE tournament_players ADD COLUMN join_input TEXT;

PRAGMA user_version = 10;
