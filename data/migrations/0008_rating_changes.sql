-- 0008: what each rated result did to each rating, written by the transaction that finishes the
-- match (data/db.py, `_record_result`): the person's rating in the game just before and just after.
-- The tournament standings add these up for the tournament's own games, so a game played outside it
-- meanwhile, or in another order, never counts. Against the AI only the person's row is written (the
-- AI's rating is its level's, fixed); a match that ends unrated (stopped, cancelled) writes none.
-- Matches finished before this migration have no rows: the standings estimate those (play/tournament.py).

CREATE TABLE rating_changes (
    match_id       INTEGER NOT NULL REFERENCES matches (id),
    user_id        INTEGER NOT NULL,
    rating_before  REAL NOT NULL,
    rating_after   REAL NOT NULL,
    PRIMARY KEY (match_id, user_id)
) WITHOUT ROWID;

PRAGMA user_version = 8;
