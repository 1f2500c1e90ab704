-- 0019: a third tournament format, the knockout (single elimination, RULES.md "Knockout"). The
-- `format` column's CHECK (0017) allows only 'swiss' and 'round-robin', and neither store can widen a
-- column's CHECK in the portable subset (SQLite would rebuild the whole table), so a knockout is
-- marked here: `knockout` 1 is a knockout, whose `format` is stored as 'swiss' and read back as
-- 'knockout'. Every older tournament is not one. Replaced by 0020, which widens the CHECK (each store
-- in its own words), writes 'knockout' into `format` and drops this column.

ALTER TABLE tournaments ADD COLUMN knockout INTEGER NOT NULL DEFAULT 0 CHECK (knockout IN (0, 1));

PRAGMA user_version = 19;
