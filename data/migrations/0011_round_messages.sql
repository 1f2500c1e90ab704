-- 0011: the messages that state a tournament round's end, kept so they can be corrected when a game
-- begun late moves that end (RULES.md "Tournaments": a game begun late). `tournament_rounds` holds the
-- id of each round's announcement in the tournament's channel (the start's message for round 1, the
-- standings' message for the next); a round announced twice keeps the last. `tournament_games`
-- gains `message_id`, the first message of the game's thread. NULL (or no row): not posted, posted
-- by a bot before this migration, or a platform without message ids (the console).

CREATE TABLE tournament_rounds (
    tournament_id  BIGINT NOT NULL,
    round          INTEGER NOT NULL,
    message_id     BIGINT NOT NULL,
    PRIMARY KEY (tournament_id, round)
);

ALTER TABLE tournament_games ADD COLUMN message_id BIGINT;

PRAGMA user_version = 11;
