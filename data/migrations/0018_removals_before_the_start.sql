-- 0018: an organiser's removal before a tournament's start holds (RULES.md "Tournaments": Leaving).
-- Before the start, a removal deletes the player's `tournament_players` row like a leave, so nothing
-- told the two apart and the removed player could sign up again at once. `removed_by` on the row
-- that keeps each player's first input (0015, which outlives any leave) is the organiser who took
-- them off the sign-up list (NULL: never removed, or put back since); while it is set, the player's
-- own join is refused, before the start and after it, and only an organiser's `reinstate` clears it.
-- A player who left themselves is not removed: they may sign up again. Nobody was removed before this.

ALTER TABLE tournament_inputs ADD COLUMN removed_by BIGINT;

PRAGMA user_version = 18;
