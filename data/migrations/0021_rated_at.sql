-- 0021: when each rating change was made. A rated game between two players who already played a
-- rated game together in the 30 days before it moves both ratings less (RULES.md, "Ratings"): the
-- transaction that finishes a match counts those earlier games from here. The changes written
-- before this migration take their match's last update, which for a finished match is its end.
-- The index serves that count: one player's changes since a moment.

ALTER TABLE rating_changes ADD COLUMN rated_at DOUBLE PRECISION;

UPDATE rating_changes SET rated_at = (SELECT m.updated_at FROM matches AS m WHERE m.id = rating_changes.match_id);

CREATE INDEX rating_changes_by_player ON rating_changes (user_id, rated_at);

PRAGMA user_version = 21;
