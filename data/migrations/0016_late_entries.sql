-- 0016: who joined a running tournament late, and who was withdrawn when and by whom (RULES.md
-- "Tournaments": Late entry, Leaving). `joined_round` is the round under way when the player signed
-- up (0: before the start); the rounds up to it are theirs without a game, each a zero-point bye.
-- `withdrawn_round` is the round under way when they were withdrawn (NULL: still in, or withdrawn
-- before this migration), and `withdrawn_by` the organiser who removed them (NULL: they withdrew
-- themselves, left the server, or were withdrawn before this migration): an organiser's removal may
-- be undone until the next round is paired, and these say whether it still may.

ALTER TABLE tournament_players ADD COLUMN joined_round INTEGER NOT NULL DEFAULT 0;

ALTER TABLE tournament_players ADD COLUMN withdrawn_round INTEGER;

ALTER TABLE tournament_players ADD COLUMN withdrawn_by BIGINT;

PRAGMA user_version = 16;
