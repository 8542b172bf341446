-- Reason: leaderboards. Match results with their players, ratings and per-player statistics,
-- per server and across all servers (guild_id 0), indexed for paged leaderboard queries;
-- games already finished before this migration are backfilled.

CREATE TABLE match_results (
    id          INTEGER PRIMARY KEY,
    game_id     INTEGER UNIQUE REFERENCES games (id) ON DELETE SET NULL,  -- NULL when imported
    guild_id    INTEGER,
    category    TEXT    NOT NULL,                    -- the preset: scopa, scopone_scientifico, ...
    winner_side INTEGER,                             -- NULL when nobody could be named
    reason      TEXT    NOT NULL,
    totals      TEXT    NOT NULL,                    -- JSON list, one total per side
    deals       INTEGER NOT NULL,
    finished_at INTEGER NOT NULL
);
CREATE INDEX match_results_by_guild ON match_results (guild_id, finished_at);

CREATE TABLE match_players (
    match_id INTEGER NOT NULL REFERENCES match_results (id) ON DELETE CASCADE,
    seat     INTEGER NOT NULL,
    side     INTEGER NOT NULL,
    user_id  INTEGER,
    ai_level TEXT,
    won      INTEGER NOT NULL,
    PRIMARY KEY (match_id, seat)
) WITHOUT ROWID;
CREATE INDEX match_players_by_user ON match_players (user_id, match_id) WHERE user_id IS NOT NULL;

-- The rating numbers only: the algorithm that moves them belongs to the service.
CREATE TABLE ratings (
    guild_id   INTEGER NOT NULL,                     -- 0: across all servers
    category   TEXT    NOT NULL,
    user_id    INTEGER NOT NULL,
    mu         REAL    NOT NULL,
    sigma      REAL    NOT NULL,
    score      REAL    NOT NULL,                     -- what the leaderboard sorts by
    games      INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    PRIMARY KEY (guild_id, category, user_id)
) WITHOUT ROWID;
CREATE INDEX ratings_board ON ratings (guild_id, category, score DESC, user_id);

-- In pair games a player's deal figures are their pair's.
CREATE TABLE player_stats (
    guild_id   INTEGER NOT NULL,                     -- 0: across all servers
    category   TEXT    NOT NULL,
    user_id    INTEGER NOT NULL,
    games      INTEGER NOT NULL DEFAULT 0,
    wins       INTEGER NOT NULL DEFAULT 0,
    deals      INTEGER NOT NULL DEFAULT 0,
    scope      INTEGER NOT NULL DEFAULT 0,
    settebelli INTEGER NOT NULL DEFAULT 0,
    primiere   INTEGER NOT NULL DEFAULT 0,
    points     INTEGER NOT NULL DEFAULT 0,           -- deal points: average = points / deals
    updated_at INTEGER NOT NULL,
    PRIMARY KEY (guild_id, category, user_id)
) WITHOUT ROWID;
CREATE INDEX player_stats_by_wins ON player_stats (guild_id, category, wins DESC, user_id);
CREATE INDEX player_stats_by_games ON player_stats (guild_id, category, games DESC, user_id);
CREATE INDEX player_stats_by_scope ON player_stats (guild_id, category, scope DESC, user_id);

-- Backfill from games finished under schema 1.
INSERT INTO match_results (game_id, guild_id, category, winner_side, reason, totals, deals,
                           finished_at)
SELECT id, guild_id, json_extract(rules, '$.preset'), json_extract(snapshot, '$.outcome.winner'),
       json_extract(snapshot, '$.outcome.reason'), json_extract(snapshot, '$.outcome.totals'),
       json_extract(snapshot, '$.outcome.deals'), coalesce(finished_at, updated_at)
FROM games WHERE status = 'finished' AND json_extract(snapshot, '$.outcome') IS NOT NULL;

INSERT INTO match_players (match_id, seat, side, user_id, ai_level, won)
SELECT r.id, s.seat,
       CASE WHEN json_extract(g.rules, '$.players') = 4 THEN s.seat % 2 ELSE s.seat END,
       s.user_id, s.ai_level, 0
FROM match_results r JOIN games g ON g.id = r.game_id JOIN game_seats s ON s.game_id = g.id;
UPDATE match_players SET won = 1
WHERE side = (SELECT winner_side FROM match_results r WHERE r.id = match_id);

-- Statistics of human players, per server then across servers.
CREATE TEMP TABLE backfill_stats AS
SELECT g.guild_id AS guild_id, json_extract(g.rules, '$.preset') AS category, s.user_id AS user_id,
       count(*) AS deals, sum(d.scope) AS scope, sum(d.settebello) AS settebelli,
       sum(d.primiera) AS primiere, sum(d.total) AS points
FROM deal_scores d JOIN games g ON g.id = d.game_id
JOIN game_seats s ON s.game_id = d.game_id
 AND d.side = CASE WHEN json_extract(g.rules, '$.players') = 4 THEN s.seat % 2 ELSE s.seat END
WHERE s.user_id IS NOT NULL
GROUP BY g.guild_id, category, s.user_id;

CREATE TEMP TABLE backfill_games AS
SELECT r.guild_id AS guild_id, r.category AS category, p.user_id AS user_id,
       count(*) AS games, sum(p.won) AS wins
FROM match_results r JOIN match_players p ON p.match_id = r.id
WHERE p.user_id IS NOT NULL
GROUP BY r.guild_id, r.category, p.user_id;

INSERT INTO player_stats (guild_id, category, user_id, deals, scope, settebelli, primiere, points,
                          updated_at)
SELECT scope_id, category, user_id, sum(deals), sum(scope), sum(settebelli), sum(primiere),
       sum(points), CAST(strftime('%s', 'now') AS INTEGER) * 1000
FROM (SELECT guild_id AS scope_id, * FROM backfill_stats WHERE guild_id IS NOT NULL
      UNION ALL SELECT 0 AS scope_id, * FROM backfill_stats)
GROUP BY scope_id, category, user_id;

INSERT INTO player_stats (guild_id, category, user_id, games, wins, updated_at)
SELECT scope_id, category, user_id, sum(games), sum(wins),
       CAST(strftime('%s', 'now') AS INTEGER) * 1000
FROM (SELECT guild_id AS scope_id, * FROM backfill_games WHERE guild_id IS NOT NULL
      UNION ALL SELECT 0 AS scope_id, * FROM backfill_games)
WHERE true
GROUP BY scope_id, category, user_id
ON CONFLICT (guild_id, category, user_id) DO UPDATE
SET games = excluded.games, wins = excluded.wins;

DROP TABLE backfill_stats;
DROP TABLE backfill_games;
