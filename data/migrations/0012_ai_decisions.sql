-- 0012: what a check needs to replay each decision of the AI (docs/fairness.md, "Checking the AI"),
-- written before the AI's action is stored, keyed by the action's number in the game's log (`n`,
-- counted as the record counts them: the effective log, steps taken back left out). `level` is the
-- level it chose at, `budget_s` the time budget the bot passed (NULL: the level's own), `kind`
-- `move` (its turn, `Game.choose`) or `draw` (its answer to a draw offer, `Game.accepts_draw`), and
-- `clock` its thinking clock (engine/tape.py: JSON `[[tick, reads], ...]`; NULL for a draw answer,
-- which reads no clock). A row whose action was never stored (the game moved on while it thought)
-- is written over by the next decision at that number, and read by no check.

CREATE TABLE ai_decisions (
    match_id  INTEGER NOT NULL REFERENCES matches (id),
    n         INTEGER NOT NULL CHECK (n >= 1),
    kind      TEXT NOT NULL,
    level     TEXT NOT NULL,
    budget_s  DOUBLE PRECISION,
    clock     TEXT,
    PRIMARY KEY (match_id, n)
);

PRAGMA user_version = 12;
