-- 0016: reserved for the late entries of another branch (organiser2's 0016_late_entries.sql), which
-- is merged beside this one: this file only holds the number so 0017 follows without a gap, and is
-- deleted when that migration is merged.

PRAGMA user_version = 16;
