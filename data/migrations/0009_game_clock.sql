-- 0009: a clock for the whole game (a chess clock), which tournaments give their games (RULES.md,
-- "Tournaments"). `game_clock` is NULL for a match without one (every match stored before, every
-- ordinary challenge): its turns have only their own deadline, as always. Otherwise JSON:
-- {"total": seconds each player had at the start, "left": {"<user id>": seconds left when their
-- clock last stopped}, "running": [user ids whose clocks run now], "since": unix seconds they began
-- to run (moved on by time away as the deadline is)}. Written with the move that stops or starts a
-- clock, so it survives a restart; play/clocks.py reads it.

ALTER TABLE matches ADD COLUMN game_clock TEXT CHECK (game_clock IS NULL OR json_valid(game_clock));

PRAGMA user_version = 9;
