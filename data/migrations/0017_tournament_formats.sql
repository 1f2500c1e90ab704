-- 0017: a tournament's own settings, chosen when it is made (RULES.md "Tournaments"). `format` is
-- how it pairs: 'swiss' (every tournament before this one) or 'round-robin' (everyone meets everyone
-- once; its `rounds` are set when it starts, from the players then). `max_players`: no sign-up past
-- it (NULL: no cap). `tiebreaks`: the name of the tie-break order chosen (play/tiebreaks.py,
-- `PRESETS`; NULL: its format's usual one, which every older tournament keeps). `signup_closes_at`:
-- no sign-up after it (unix seconds; NULL: sign-ups stay open until the start).

ALTER TABLE tournaments ADD COLUMN format TEXT NOT NULL DEFAULT 'swiss'
    CHECK (format IN ('swiss', 'round-robin'));

ALTER TABLE tournaments ADD COLUMN max_players INTEGER CHECK (max_players IS NULL OR max_players >= 2);

ALTER TABLE tournaments ADD COLUMN tiebreaks TEXT;

ALTER TABLE tournaments ADD COLUMN signup_closes_at REAL;

PRAGMA user_version = 17;
