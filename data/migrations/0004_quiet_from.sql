-- 0004: commands the channel does not see (a standing order given in private) still move a match's
-- version, so the buttons of the board the channel has would read as out of date. `quiet_from` is
-- the version of that board while only such commands came after it (NULL otherwise): a button of
-- that version still counts as current.

ALTER TABLE matches ADD COLUMN quiet_from INTEGER;

PRAGMA user_version = 4;
