-- The gounki game database, schema version 1 (PRAGMA user_version = 1).
--
-- This file is migration 1: it is run, in one transaction, on a new empty database. Later schema
-- changes are appended as migrations 2, 3, ... in db/game_db.cpp, each run in its own transaction
-- and each ending by raising PRAGMA user_version; this file is never edited after a release. A
-- database whose user_version is higher than the newest migration this build knows was written by
-- a newer gounki: it is refused and never written.
--
-- Conventions
-- * Every table is STRICT. Connections run with PRAGMA foreign_keys = ON, journal_mode = WAL;
--   new files get 16 KB pages (db/game_db.cpp).
-- * Position keys are core Position::key() (a 64-bit Zobrist hash of board, side to move and
--   outcome) XOR a per-game-kind constant (0 for Gounki), stored as a signed 64-bit INTEGER with
--   the same bits. The game kind is thus part of every key.
-- * Game kinds are core GameKind values: 0 Gounki, 1 Gomoku, 2 Ninuki.
-- * Results: 0 '*' (unknown or unfinished), 1 '1-0', 2 '0-1', 3 '1/2-1/2'.

PRAGMA application_id = 1196381515; -- 0x474F554B, 'GOUK': marks the file as a gounki database

-- Database-wide settings. Rows:
--   ('tree_depth', P): tree_stats aggregates the positions at plies 0 .. P-1 (see below); fixed
--                      at creation.
--   ('next_game_id', N): the id the next stored game gets. Ids only grow, so the id of a deleted
--                      game is never given to another (like AUTOINCREMENT, without its cost of a
--                      sqlite_sequence update per row: the importer takes ids a batch at a time).
CREATE TABLE meta (
    name  TEXT PRIMARY KEY,
    value INTEGER NOT NULL
) STRICT;
INSERT INTO meta (name, value) VALUES ('tree_depth', 3), ('next_game_id', 1);

CREATE TABLE players (
    id   INTEGER PRIMARY KEY,
    name TEXT NOT NULL UNIQUE
) STRICT;

CREATE TABLE events (
    id   INTEGER PRIMARY KEY,
    name TEXT NOT NULL UNIQUE
) STRICT;

-- The files games were imported from, by absolute path.
CREATE TABLE sources (
    id   INTEGER PRIMARY KEY,
    path TEXT NOT NULL UNIQUE
) STRICT;

-- One row per stored game. Ids come from meta 'next_game_id'; a skipped duplicate may leave a gap.
-- event_id, white_id, black_id and source_id name rows of events, players and sources. They are
-- not declared as foreign keys: checking four parents on every insert cost about a fifth of the
-- import time, while the importer inserts the parents in the same transaction and nothing ever
-- deletes an event, a player or a source.
CREATE TABLE games (
    id             INTEGER PRIMARY KEY,
    kind           INTEGER NOT NULL DEFAULT 0,            -- GameKind
    event_id       INTEGER,                                -- events.id; NULL: no Event tag
    site           TEXT,
    date           TEXT,                                   -- the Date tag as written ('2026.11.02', '2026.??.??')
    date_key       INTEGER NOT NULL DEFAULT 0,             -- YYYYMMDD, unknown parts 0: for sorting and --from/--to
    round          TEXT,
    white_id       INTEGER,                                -- players.id; NULL: no White tag
    black_id       INTEGER,                                -- players.id; NULL: no Black tag
    result         INTEGER NOT NULL CHECK (result BETWEEN 0 AND 3),
    start_position TEXT,                                   -- docs/rules.md 1.7 text; NULL for the standard start
    ply_count      INTEGER NOT NULL,
    -- 0 valid; 1 partial: the main line stops at an error and holds the moves before it;
    -- 2 invalid: errors that left the main line whole (a contradicting result, a bad tag...).
    status         INTEGER NOT NULL CHECK (status IN (0, 1, 2)),
    -- The main line: per move one LEB128 varint of core Move::raw() with its two MoveType bits
    -- rotated to the bottom: v = ((raw & 0x00FFFFFF) | (raw >> 26) << 24) << 2 | ((raw >> 24) & 3).
    -- A movement takes 2 bytes, an exit 1 or 2, a deployment up to 5 (db/codec.hpp).
    moves          BLOB NOT NULL,
    source_id      INTEGER,                                -- sources.id; NULL: not from a file
    source_line    INTEGER,                                -- line of the game's first tag in its file
    -- Key of the final position. Finds duplicates (same final position at the same ply, then the
    -- moves, start, players and result compared) and games that are a prefix of another.
    end_key        INTEGER NOT NULL
) STRICT;
CREATE INDEX games_end_key ON games (end_key);
CREATE INDEX games_white ON games (white_id);
CREATE INDEX games_black ON games (black_id);
CREATE INDEX games_event ON games (event_id);
CREATE INDEX games_date ON games (date_key);

-- Tags other than Game, Event, Site, Date, Round, White, Black, Result, SetUp and Position, in
-- record order.
CREATE TABLE tags (
    game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seq     INTEGER NOT NULL,
    name    TEXT NOT NULL,
    value   TEXT NOT NULL,
    PRIMARY KEY (game_id, seq)
) WITHOUT ROWID, STRICT;

-- What the import found wrong or noteworthy in a game: the parser's diagnostics (illegal move,
-- marker warnings...) and the importer's notes (this game's moves are a prefix of another's).
-- Severity: 0 note, 1 warning, 2 error. code: the parser's stable code ('illegal-move'), or
-- 'prefix' for the importer's notes. line/col 0 when not tied to a place in the source.
CREATE TABLE diagnostics (
    game_id  INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seq      INTEGER NOT NULL,
    severity INTEGER NOT NULL CHECK (severity BETWEEN 0 AND 2),
    code     TEXT NOT NULL DEFAULT '',
    line     INTEGER NOT NULL DEFAULT 0,
    col      INTEGER NOT NULL DEFAULT 0,
    message  TEXT NOT NULL,
    PRIMARY KEY (game_id, seq)
) WITHOUT ROWID, STRICT;

-- The position index: for every stored game and every ply 0..ply_count of its main line, the entry
-- (key of the position, game id, ply). Entries are kept in sorted runs, like a log-structured
-- merge tree: each import transaction adds one run holding its games' entries; runs of similar
-- size are merged in the background of an import. A lookup seeks every run; a run's Bloom filter
-- lets a lookup skip runs that cannot hold the key.
CREATE TABLE position_runs (
    id      INTEGER PRIMARY KEY,
    entries INTEGER NOT NULL,   -- number of entries in the run
    -- Blocked Bloom filter of the run's keys: 64-byte blocks, about 10 bits per key; a key sets 6
    -- bits in the block its top bits select (db/position_index.cpp). Empty: no filter.
    bloom   BLOB NOT NULL
) STRICT;

-- A run is cut into blocks of consecutive entries, sorted by (key, game, ply), each under 1 KB so
-- that it stays inside its B-tree page. data: per entry three LEB128 varints: the key's increase
-- over the previous entry (over first_key for the first), then the game id (the increase over the
-- previous game id when the key did not change, except in the first entry), then the ply.
CREATE TABLE position_blocks (
    run_id    INTEGER NOT NULL REFERENCES position_runs (id) ON DELETE CASCADE,
    last_key  INTEGER NOT NULL,
    seq       INTEGER NOT NULL,  -- block number inside the run, in entry order
    first_key INTEGER NOT NULL,
    data      BLOB NOT NULL,
    PRIMARY KEY (run_id, last_key, seq)
) WITHOUT ROWID, STRICT;

-- The opening tree, precomputed for the positions at plies below meta 'tree_depth': per position
-- and move played from it, the games, their results and the latest game (greatest date_key, then
-- greatest id). Deeper positions are aggregated from the position index when asked.
CREATE TABLE tree_stats (
    key         INTEGER NOT NULL,
    move        INTEGER NOT NULL,  -- core Move::raw()
    games       INTEGER NOT NULL,
    white_wins  INTEGER NOT NULL,
    black_wins  INTEGER NOT NULL,
    draws       INTEGER NOT NULL,
    latest_game INTEGER NOT NULL,  -- a games.id (kept up to date by db/, no foreign key)
    latest_date INTEGER NOT NULL,  -- that game's date_key
    PRIMARY KEY (key, move)
) WITHOUT ROWID, STRICT;

PRAGMA user_version = 1;
