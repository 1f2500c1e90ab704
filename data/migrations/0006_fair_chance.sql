-- 0006: chance anyone can check (issue 30). `chance_version` is the generator a match draws with
-- (engine/chance.py): 1 for every match stored before, so old games replay as they were played; new
-- matches get 2. For version 2, `seed_secret` is the bot's secret (hex; stored, never shown before
-- the game ends), `seed_commitment` its SHA-256 shown when the game is challenged, and `seed_inputs`
-- the players' inputs mixed in after it (a JSON list of text). The game key comes from both.

ALTER TABLE matches ADD COLUMN chance_version INTEGER NOT NULL DEFAULT 1;
ALTER TABLE matches ADD COLUMN seed_secret TEXT;
ALTER TABLE matches ADD COLUMN seed_commitment TEXT;
ALTER TABLE matches ADD COLUMN seed_inputs TEXT;

PRAGMA user_version = 6;
