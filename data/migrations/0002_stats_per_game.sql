-- 0002: ratings and records per game. A rating earned in one game says nothing of another, so the
-- stats table gains the game in its key. Before this migration the bot hosted one game, so a row's
-- game is the game of any finished match its player played in that guild.

CREATE TABLE player_stats_per_game (
    guild_id    INTEGER NOT NULL,
    game        TEXT NOT NULL,
    user_id     INTEGER NOT NULL,
    wins        INTEGER NOT NULL DEFAULT 0,
    losses      INTEGER NOT NULL DEFAULT 0,
    draws       INTEGER NOT NULL DEFAULT 0,
    rating      REAL NOT NULL,
    updated_at  REAL NOT NULL,
    PRIMARY KEY (guild_id, game, user_id)
) WITHOUT ROWID;

INSERT INTO player_stats_per_game (guild_id, game, user_id, wins, losses, draws, rating, updated_at)
SELECT
    s.guild_id,
    COALESCE(
        (SELECT m.game FROM matches AS m
         WHERE m.guild_id = s.guild_id AND m.status = 'finished'
           AND (m.challenger_id = s.user_id OR m.opponent_id = s.user_id)
         ORDER BY m.id LIMIT 1),
        (SELECT m.game FROM matches AS m ORDER BY m.id LIMIT 1),
        'unknown'
    ),
    s.user_id, s.wins, s.losses, s.draws, s.rating, s.updated_at
FROM player_stats AS s;

DROP TABLE player_stats;

ALTER TABLE player_stats_per_game RENAME TO player_stats;

CREATE INDEX player_stats_leaderboard ON player_stats (guild_id, game, rating DESC);

PRAGMA user_version = 2;
