-- Reason: tournaments (round robin, Swiss, knock-out, groups then knock-out). A tournament keeps its table options, pace and round length; its entries (a person, or a pair) and the people in them, each person entered once; its rounds, each opened once; its pairings, each decided once and opening at most one table; and, when it ends, its standings and winner for good. A server may name the role that organises tournaments.

CREATE TABLE tournaments (
    id              INTEGER PRIMARY KEY,
    guild_id        INTEGER,
    channel_id      INTEGER,                 -- where its tables open and its news is posted
    organiser_id    INTEGER NOT NULL,
    name            TEXT NOT NULL,
    format          TEXT NOT NULL CHECK (format IN ('round_robin', 'swiss', 'knockout', 'groups')),
    preset          TEXT NOT NULL,
    players         INTEGER NOT NULL,        -- at each table: 2 (single entries) or 4 (pairs)
    options         TEXT NOT NULL,           -- JSON: the matches' table options
    pace            TEXT NOT NULL,           -- JSON of the service's Pace
    on_timeout      TEXT NOT NULL,
    level           TEXT NOT NULL,
    round_seconds   INTEGER NOT NULL CHECK (round_seconds > 0),
    rounds          INTEGER,                 -- Swiss: how many rounds
    groups          INTEGER,                 -- groups then knock-out: how many groups ...
    qualifiers      INTEGER,                 -- ... and how many of each go through
    seeding         TEXT NOT NULL CHECK (seeding IN ('rating', 'draw')),
    computers       INTEGER NOT NULL DEFAULT 0,  -- computer players fill byes and withdrawals
    seed            INTEGER NOT NULL,        -- every draw and deal of the tournament follows it
    status          TEXT NOT NULL CHECK (status IN ('registering', 'playing', 'finished', 'cancelled')),
    round           INTEGER NOT NULL DEFAULT 0,   -- the round being played (0: not started)
    round_deadline  INTEGER,                 -- ms; when the round in play ends at the latest
    bracket         INTEGER,                 -- a knock-out's first-round places (a power of two)
    knockout_from   INTEGER,                 -- the first knock-out round (groups then knock-out)
    winner_entry    INTEGER,
    standings       TEXT,                    -- JSON, written when it ends and kept for good
    version         INTEGER NOT NULL DEFAULT 0,
    created_at      INTEGER NOT NULL,
    updated_at      INTEGER NOT NULL,
    started_at      INTEGER,
    finished_at     INTEGER
);
CREATE INDEX tournaments_by_guild ON tournaments (guild_id, status);
CREATE INDEX tournaments_by_deadline ON tournaments (round_deadline)
    WHERE status = 'playing' AND round_deadline IS NOT NULL;

CREATE TABLE tournament_entries (
    id            INTEGER PRIMARY KEY,
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    user_id       INTEGER NOT NULL,          -- who entered (a pair: its first member)
    partner_id    INTEGER,                   -- a pair's second member (NULL: a single entry,
                                             -- or, with pairs, one who signed up alone)
    seed          INTEGER,                   -- 1 = the top seed; set at the start
    group_no      INTEGER,                   -- groups then knock-out: 0, 1, ...
    joined_at     INTEGER NOT NULL,
    withdrawn_at  INTEGER
);
CREATE INDEX tournament_entries_by_tournament ON tournament_entries (tournament_id);

CREATE TABLE tournament_people (             -- each person in one entry of a tournament
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    user_id       INTEGER NOT NULL,
    entry_id      INTEGER NOT NULL REFERENCES tournament_entries (id) ON DELETE CASCADE,
    PRIMARY KEY (tournament_id, user_id)
);
CREATE INDEX tournament_people_by_user ON tournament_people (user_id);

CREATE TABLE tournament_rounds (
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    round         INTEGER NOT NULL,
    stage         TEXT NOT NULL CHECK (stage IN ('league', 'knockout')),
    started_at    INTEGER NOT NULL,
    deadline_at   INTEGER NOT NULL,
    finished_at   INTEGER,
    PRIMARY KEY (tournament_id, round)       -- a round is opened once
);

CREATE TABLE tournament_pairings (
    id            INTEGER PRIMARY KEY,
    tournament_id INTEGER NOT NULL,
    round         INTEGER NOT NULL,
    slot          INTEGER NOT NULL,
    group_no      INTEGER,
    entry_a       INTEGER NOT NULL REFERENCES tournament_entries (id),
    entry_b       INTEGER REFERENCES tournament_entries (id),   -- NULL: a bye or a rest
    table_id      INTEGER REFERENCES tables (id),
    outcome       TEXT CHECK (outcome IN ('a', 'b', 'both_lost', 'bye', 'rest')),  -- NULL: playing
    points_a      INTEGER NOT NULL DEFAULT 0,
    points_b      INTEGER NOT NULL DEFAULT 0,
    reason        TEXT,                       -- how it was decided (match, forfeit, deadline...)
    decided_at    INTEGER,
    FOREIGN KEY (tournament_id, round) REFERENCES tournament_rounds (tournament_id, round)
        ON DELETE CASCADE,
    UNIQUE (tournament_id, round, slot)      -- a pairing is decided once
);
CREATE UNIQUE INDEX tournament_pairings_one_table ON tournament_pairings (table_id)
    WHERE table_id IS NOT NULL;
CREATE INDEX tournament_pairings_open ON tournament_pairings (tournament_id, round)
    WHERE outcome IS NULL;

CREATE TABLE tournament_organisers (         -- a server's organiser role, beside its managers
    guild_id      INTEGER PRIMARY KEY,
    role_id       INTEGER,
    updated_at    INTEGER NOT NULL
);
