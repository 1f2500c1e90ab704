-- 0013: two bot processes on one store may both decide the AI's action `n` at the same version of
-- the game; only one of them stores its action, and either may write its decision last. So each
-- decision now gets its own `interaction_id`, drawn at random and negative (never a Discord id),
-- and the AI's command is stored under that id as a player's click is under its interaction's
-- (`actions.interaction_id`, written in the action's own transaction): the record takes, for each
-- action of the AI, the decision whose id the action carries (play/fairness.py). Both processes'
-- rows are kept; a decision no action carries is read by no check. Rows written before this
-- migration have the id 0 and stay one per action number: an action stored without an id (before
-- this migration) takes the row of id 0 at its number, as it did.

CREATE TABLE ai_decisions_by_id (
    match_id        INTEGER NOT NULL REFERENCES matches (id),
    n               INTEGER NOT NULL CHECK (n >= 1),
    interaction_id  INTEGER NOT NULL CHECK (interaction_id <= 0),
    kind            TEXT NOT NULL,
    level           TEXT NOT NULL,
    budget_s        DOUBLE PRECISION,
    clock           TEXT,
    PRIMARY KEY (match_id, n, interaction_id)
);

INSERT INTO ai_decisions_by_id (match_id, n, interaction_id, kind, level, budget_s, clock)
SELECT match_id, n, 0, kind, level, budget_s, clock FROM ai_decisions;

DROP TABLE ai_decisions;

ALTER TABLE ai_decisions_by_id RENAME TO ai_decisions;

PRAGMA user_version = 13;
