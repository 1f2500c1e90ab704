-- 0014: which program made each decision of the AI (docs/fairness.md, "Checking the AI"): the git
-- commit of the source its AI process ran, and whether that source differed from the commit, as
-- JSON `{"commit": "<hex>" or null, "changed": true|false}` (engine/program.py). A replay binds the
-- code that runs it, so the record names the program for the checker to compare with its own; per
-- decision, as a game may go on across an update of the bot. NULL for a decision made before.

ALTER TABLE ai_decisions ADD COLUMN program TEXT;

PRAGMA user_version = 14;
