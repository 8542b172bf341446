-- Reason: the first schema: server settings, tables (lobbies) and their seats, and games kept
-- as a full record (rules, every deck order, every move with who made it and when) plus a
-- snapshot for fast loading, the score of every deal, and each game's turn deadline.

CREATE TABLE guild_settings (
    guild_id        INTEGER PRIMARY KEY,
    language        TEXT    NOT NULL DEFAULT 'it',
    default_rules   TEXT    NOT NULL DEFAULT '{}',   -- JSON of Rules fields the host may override
    game_channel_id INTEGER,
    updated_at      INTEGER NOT NULL                 -- milliseconds since the epoch, UTC
);

CREATE TABLE lobbies (
    id          INTEGER PRIMARY KEY,
    guild_id    INTEGER,                             -- NULL outside a server (DM, terminal)
    host_id     INTEGER NOT NULL,
    rules       TEXT    NOT NULL,                    -- JSON of Rules.to_dict()
    status      TEXT    NOT NULL CHECK (status IN ('open', 'playing', 'finished', 'cancelled')),
    channel_id  INTEGER,
    thread_id   INTEGER,
    message_id  INTEGER,
    created_at  INTEGER NOT NULL,
    updated_at  INTEGER NOT NULL
);
CREATE INDEX lobbies_by_guild_status ON lobbies (guild_id, status);
CREATE INDEX lobbies_by_message ON lobbies (message_id) WHERE message_id IS NOT NULL;

CREATE TABLE lobby_seats (
    lobby_id  INTEGER NOT NULL REFERENCES lobbies (id) ON DELETE CASCADE,
    seat      INTEGER NOT NULL CHECK (seat BETWEEN 0 AND 3),
    user_id   INTEGER,                               -- a Discord user, or NULL for a computer
    ai_level  TEXT,                                  -- the computer's level when user_id is NULL
    joined_at INTEGER NOT NULL,
    PRIMARY KEY (lobby_id, seat),
    CHECK ((user_id IS NULL) <> (ai_level IS NULL))
) WITHOUT ROWID;
CREATE INDEX lobby_seats_by_user ON lobby_seats (user_id) WHERE user_id IS NOT NULL;

CREATE TABLE games (
    id           INTEGER PRIMARY KEY,
    lobby_id     INTEGER REFERENCES lobbies (id) ON DELETE SET NULL,
    guild_id     INTEGER,
    rules        TEXT    NOT NULL,                   -- JSON of Rules.to_dict()
    seed         INTEGER NOT NULL,
    first_dealer INTEGER NOT NULL,
    dealer_draw  TEXT    NOT NULL,                   -- JSON, as in GameRecord.to_dict()
    start        TEXT,                               -- JSON start position, NULL for a new match
    status       TEXT    NOT NULL CHECK (status IN ('playing', 'finished', 'abandoned')),
    version      INTEGER NOT NULL,                   -- bumped by every write: optimistic locking
    move_count   INTEGER NOT NULL,
    snapshot     TEXT    NOT NULL,                   -- JSON Game.to_snapshot(include_record=False)
    deadline_at  INTEGER,                            -- when the seat to play runs out of time
    created_at   INTEGER NOT NULL,
    updated_at   INTEGER NOT NULL,
    finished_at  INTEGER
);
CREATE INDEX games_by_lobby ON games (lobby_id) WHERE lobby_id IS NOT NULL;
CREATE INDEX games_playing ON games (guild_id) WHERE status = 'playing';
CREATE INDEX games_by_deadline ON games (deadline_at) WHERE deadline_at IS NOT NULL;

CREATE TABLE game_seats (
    game_id  INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat     INTEGER NOT NULL CHECK (seat BETWEEN 0 AND 3),
    user_id  INTEGER,
    ai_level TEXT,
    PRIMARY KEY (game_id, seat),
    CHECK ((user_id IS NULL) <> (ai_level IS NULL))
) WITHOUT ROWID;
CREATE INDEX game_seats_by_user ON game_seats (user_id, game_id) WHERE user_id IS NOT NULL;

-- Every deck order used, in order (three-kings redeals included): shuffle n of the record.
CREATE TABLE shuffles (
    game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    number  INTEGER NOT NULL,
    deck    BLOB    NOT NULL CHECK (length(deck) = 40),   -- card indices 0..39, one byte each
    PRIMARY KEY (game_id, number)
) WITHOUT ROWID;

CREATE TABLE moves (
    game_id  INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    ply      INTEGER NOT NULL,                       -- 0-based position in the record
    seat     INTEGER NOT NULL,
    move     TEXT    NOT NULL,                       -- engine notation, e.g. 9c:1d+3s+5b
    actor    TEXT    NOT NULL CHECK (actor IN ('user', 'computer', 'timeout', 'system')),
    actor_id INTEGER,                                -- the Discord user when actor = 'user'
    at       INTEGER NOT NULL,
    PRIMARY KEY (game_id, ply)
) WITHOUT ROWID;

CREATE TABLE deal_scores (
    game_id        INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    deal           INTEGER NOT NULL,
    side           INTEGER NOT NULL,
    carte          INTEGER NOT NULL,
    denari         INTEGER NOT NULL,
    settebello     INTEGER NOT NULL,
    primiera       INTEGER NOT NULL,
    scope          INTEGER NOT NULL,
    re_bello       INTEGER NOT NULL,
    napola         INTEGER NOT NULL,
    total          INTEGER NOT NULL,
    cards          INTEGER NOT NULL,
    denari_count   INTEGER NOT NULL,
    primiera_total INTEGER,
    sevens         INTEGER NOT NULL,
    napola_reale   INTEGER NOT NULL,                 -- 1 when this side took all ten denari
    PRIMARY KEY (game_id, deal, side)
) WITHOUT ROWID;
