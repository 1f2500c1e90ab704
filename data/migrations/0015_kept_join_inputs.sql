-- 0015: a player's first input to a tournament's dice is kept for the whole tournament
-- (docs/fairness.md, "Tournaments"). A sign-up's input is the id of the interaction that signed the
-- player up, mixed into their games' dice; a leave deletes their `tournament_players` row, so a player
-- who knew or guessed how the dice fall could leave and join again for a fresh input, as often as
-- they liked, until their games' dice suited them. This row outlives the leave (and an organiser's
-- removal, and leaving the server): a join again takes the input kept here, not its own interaction's.
-- `given_at` is when that first sign-up was stored (unix seconds). Filled from the inputs the players
-- signed up with so far; a player who left before this migration has none kept.

CREATE TABLE tournament_inputs (
    tournament_id  BIGINT NOT NULL,
    user_id        BIGINT NOT NULL,
    join_input     TEXT NOT NULL,
    given_at       DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (tournament_id, user_id)
);

INSERT INTO tournament_inputs (tournament_id, user_id, join_input, given_at)
SELECT tournament_id, user_id, join_input, joined_at FROM tournament_players WHERE join_input IS NOT NULL;

PRAGMA user_version = 15;
