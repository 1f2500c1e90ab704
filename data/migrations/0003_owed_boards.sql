-- 0003: the outbox. A move's board is owed to its channel from the moment the move is stored (the
-- row is written in the move's own transaction) until the post succeeds; a bot killed in between
-- posts it after its restart. Rows are few and short-lived.

CREATE TABLE owed_boards (
    match_id    INTEGER NOT NULL REFERENCES matches (id),
    version     INTEGER NOT NULL,
    channel_id  INTEGER NOT NULL,
    created_at  REAL NOT NULL,
    PRIMARY KEY (match_id, version)
) WITHOUT ROWID;

CREATE INDEX owed_boards_age ON owed_boards (created_at);

PRAGMA user_version = 3;
