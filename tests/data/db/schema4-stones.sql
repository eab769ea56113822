-- A game database of schema version 4 written by gounki before boards of 20x20 existed (stone
-- points then numbered rank * 19 + file): Gomoku 15x15 and 19x19 and Ninuki games with their
-- position index, opening tree counts and one judged game. Made with `gounki import` and
-- `gounki analyze --nodes 500` of that version, dumped with `sqlite3 FILE .dump` (the source
-- paths made relative; the two PRAGMAs below, which a dump leaves out, added). tests/db_compat_test.cpp
-- builds the file from this text and checks that this version reads and extends it.
PRAGMA application_id = 1196381515;
PRAGMA user_version = 4;
PRAGMA foreign_keys=OFF;
BEGIN TRANSACTION;
CREATE TABLE meta (
    name  TEXT PRIMARY KEY,
    value INTEGER NOT NULL
) STRICT;
INSERT INTO meta VALUES('tree_depth',3);
INSERT INTO meta VALUES('next_game_id',8);
CREATE TABLE players (
    id   INTEGER PRIMARY KEY,
    name TEXT NOT NULL UNIQUE
) STRICT;
INSERT INTO players VALUES(1,'Wanda Roux');
INSERT INTO players VALUES(2,'Bertrand Morel');
INSERT INTO players VALUES(3,'Otto');
INSERT INTO players VALUES(4,'Nina');
INSERT INTO players VALUES(5,'W19');
INSERT INTO players VALUES(6,'B19');
CREATE TABLE events (
    id   INTEGER PRIMARY KEY,
    name TEXT NOT NULL UNIQUE
) STRICT;
INSERT INTO events VALUES(1,'Gomoku club night');
INSERT INTO events VALUES(2,'Ninuki rules, one game per rule');
INSERT INTO events VALUES(3,'A 19x19 game');
CREATE TABLE sources (
    id   INTEGER PRIMARY KEY,
    path TEXT NOT NULL UNIQUE
) STRICT;
INSERT INTO sources VALUES(1,'10-gomoku.gpn');
INSERT INTO sources VALUES(2,'11-ninuki.gpn');
INSERT INTO sources VALUES(3,'g19.gpn');
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
, annotated TEXT) STRICT;
INSERT INTO games VALUES(1,1,1,'Lyon','2026.10.14',20261014,'1',1,2,2,'Gomoku 15 15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 b',9,0,X'b3048305b7048705bb04ff04bf04af04c304',1,1,8950033443576901232,replace('[Game "Gomoku"]\n[Event "Gomoku club night"]\n[Site "Lyon"]\n[Date "2026.10.14"]\n[Round "1"]\n[White "Wanda Roux"]\n[Black "Bertrand Morel"]\n[Result "0-1"]\n\n{Freestyle Gomoku (docs/rules.md 2.1): a 15x15 board, Black plays first, five or more\nstones in a row win.} 1. h8 i9 2. i8 j9 3. j8\n{an open three: g8 and k8 are empty} 3... h9?\n{White builds her own three and leaves Black''s open} (3... g8\n{blocks, and the\ngame goes on}) 4. k8!\n{an open four: g8 and l8 are both empty, so no single stone\nstops five} 4... g8 5. l8 {five in a row, h8 to l8} 0-1\n\n','\n',char(10)));
INSERT INTO games VALUES(2,1,1,'Lyon','2026.10.14',20261014,'2',2,1,2,'Gomoku 19 19/19/19/19/19/19/19/19/19/19/19/19/19/19/19/19/19/19/19 b',11,0,X'd30503d7059b01db05b302e305cb03e705e304df05',1,17,8364106913142696950,replace('[Game "Gomoku"]\n[Event "Gomoku club night"]\n[Site "Lyon"]\n[Date "2026.10.14"]\n[Round "2"]\n[White "Bertrand Morel"]\n[Black "Wanda Roux"]\n[Result "0-1"]\n[Size "19"]\n\n{On 19x19 ([Size "19"]). Freestyle: a line of more than five wins too.} 1. j10\na1 2. k10 a3 3. l10 a5 4. n10 a7 5. o10 a9 6. m10\n{six in a row, j10 to\no10: an overline, and a win in freestyle Gomoku} 0-1\n\n','\n',char(10)));
INSERT INTO games VALUES(3,2,2,NULL,'2026.10.21',20261021,'1',3,4,2,'Ninuki 19 19/19/19/19/19/19/19/19/19/19/19/19/19/19/19/19/19/19/19 b 0 0',21,0,X'4f53b302575bb7029704bb02bf029b04fb059f04a304ff05df0783068706e307a30be707eb07',2,1,7722197760385271976,replace('[Game "Ninuki"]\n[Event "Ninuki rules, one game per rule"]\n[Date "2026.10.21"]\n[Round "1"]\n[White "Otto"]\n[Black "Nina"]\n[Result "0-1"]\n\n{Gomoku Ninuki (docs/rules.md 2.2) on 19x19: a stone that closes a line X O O X takes the\ntwo enemy stones. Black takes five pairs, ten stones, and wins.} 1. a2 b2 2. a5\nc2 3. d2 {a2 and d2 enclose b2 and c2: two stones taken} 3... b5 4. a8 c5 5. d5\n{four stones taken} 5... b8 6. a11 c8 7. d8 {six} 7... b11 8. a14 c11 9. d11\n{eight} 9... b14 10. s19 c14?? 11. d14 {ten captured stones: Black wins} 0-1\n\n','\n',char(10)));
INSERT INTO games VALUES(4,2,2,NULL,'2026.10.21',20261021,'2',3,4,2,'Ninuki 19 19/19/19/19/19/19/19/19/19/19/19/19/19/19/19/19/19/19/19 b 0 0',13,0,X'c305e306c7050397060bcf0513d3051bcb05ff04cb05',2,15,-2216152861810133176,replace('[Game "Ninuki"]\n[Event "Ninuki rules, one game per rule"]\n[Date "2026.10.21"]\n[Round "2"]\n[White "Otto"]\n[Black "Nina"]\n[Result "0-1"]\n\n{The end-game capture: a five does not win while the opponent can break it by\ntaking a pair out of it.} 1. f10 h12 2. g10 a1 3. h11 c1 4. i10 e1 5. j10 g1\n6. h10\n{five in a row on rank 10, but h10 and h11 sit between h9 and White''s h12}\n6... h9 {takes h10 and h11: the five is broken and play goes on} 7. h10\n{five again, and now no capture can break it: Black wins} 0-1\n\n','\n',char(10)));
INSERT INTO games VALUES(5,2,2,NULL,'2026.10.21',20261021,'3',3,4,2,'Ninuki 19 19/19/19/19/19/19/19/19/19/19/19/19/19/19/19/19/19/19/19 b 0 0 allow-double-three',13,0,X'cb0503cf059b01bb04b3028705cb03d305d7059f06eb06ef03',2,30,-6126964921528890817,replace('[Game "Ninuki"]\n[Event "Ninuki rules, one game per rule"]\n[Date "2026.10.21"]\n[Round "3"]\n[White "Otto"]\n[Black "Nina"]\n[Result "0-1"]\n[Rules "allow-double-three"]\n\n{With the double-three rule switched off by the Rules tag, a stone may make two\nfree threes at once; under the full rules 5. j10 would be forbidden.} 1. h10 a1\n2. i10 a3 3. j8 a5 4. j9 a7 5. j10 {two free threes: h10-j10 and\nj8-j10} 5... k10 {White can block only one} 6. j11 {an open four} 6... j12\n7. j7 0-1\n\n','\n',char(10)));
INSERT INTO games VALUES(6,2,2,NULL,'2026.10.21',20261021,'4',3,4,1,'Ninuki 15 15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 b 0 0 simple',12,0,X'b304e303b704af04bb04fb04cf05cb0503c70597039306',2,44,7882482579269849966,replace('[Game "Ninuki"]\n[Event "Ninuki rules, one game per rule"]\n[Date "2026.10.21"]\n[Round "4"]\n[White "Otto"]\n[Black "Nina"]\n[Result "1-0"]\n[Size "15"]\n[Rules "simple"]\n\n{"Gomoku simple" on 15x15: captures, and ten captured stones win, without the two\noptional rules.} 1. h8 g7 2. i8 g8 3. j8 g9 4. i10 h10 5. a1 g10\n{an open four on file g} 6. g6 g11\n{five, g7 to g11. Black could take g10 and h10 by playing f10 (i10 is Black''s):\nunder the full rules this five would not win yet; without the end-game capture\nrule it wins at once} 1-0\n\n','\n',char(10)));
INSERT INTO games VALUES(7,1,3,NULL,NULL,0,NULL,5,6,2,'Gomoku 19 19/19/19/19/19/19/19/19/19/19/19/19/19/19/19/19/19/19/19 b',11,0,X'd305a306a30b03d705f306db05c307df059308e305',3,1,3298765617440554152,NULL);
CREATE TABLE tags (
    game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seq     INTEGER NOT NULL,
    name    TEXT NOT NULL,
    value   TEXT NOT NULL,
    PRIMARY KEY (game_id, seq)
) WITHOUT ROWID, STRICT;
INSERT INTO tags VALUES(2,0,'Size','19');
INSERT INTO tags VALUES(5,0,'Rules','allow-double-three');
INSERT INTO tags VALUES(6,0,'Size','15');
INSERT INTO tags VALUES(6,1,'Rules','simple');
INSERT INTO tags VALUES(7,0,'Size','19');
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
CREATE TABLE position_runs (
    id      INTEGER PRIMARY KEY,
    entries INTEGER NOT NULL,   -- number of entries in the run
    -- Blocked Bloom filter of the run's keys: 64-byte blocks, about 10 bits per key; a key sets 6
    -- bits in the block its top bits select (db/position_index.cpp). Empty: no filter.
    bloom   BLOB NOT NULL
) STRICT;
INSERT INTO position_runs VALUES(1,97,X'883846691a3ca972259a0ab10c8c47b4180f34db49434aa98a452ea89d9328b29ec1c32d275a6f6efc10218ff45cb4c95d926002ad1aa780a782522337238215b932fd1136903bfcdc80116cae291971c75a10686c84c6c438656ac2f6cc8ebad2186d320228c0a72f5c82814a21812de04535a5f020861ea68f3156f218fa68');
CREATE TABLE position_blocks (
    run_id    INTEGER NOT NULL REFERENCES position_runs (id) ON DELETE CASCADE,
    last_key  INTEGER NOT NULL,
    seq       INTEGER NOT NULL,  -- block number inside the run, in entry order
    first_key INTEGER NOT NULL,
    data      BLOB NOT NULL,
    PRIMARY KEY (run_id, last_key, seq)
) WITHOUT ROWID, STRICT;
INSERT INTO position_blocks VALUES(1,7660814333802884534,0,-9164834154374884381,X'000302d9f3cba0ffbdccce06070a8d81a5a3ff89f98b020507ddf7e9b7bdbff65401009ac7a2f2dc98d8c1010205d6d3fea3c4dde4d20104089ee8efba909ed5cd070107d6c48bfd9db5cfd9060504cf82d3a3d3ae888a030106c5ddcc879eb7acb102030496a5fff5a4afce8804031389ebd9deb588e0050501b6ca9ce4b5a6e689030101ccfdf1e0ffa9c4d502050d8498ccbbfdeee4ed08050090f58df9e38c9d5c0306a4cc959a9cffbdf5010404b3dfd8e2cceefb480705c4b8f5aa89eaaea80f0314fd8ff79fdaefc7ac050505f4e0908383ccded0010709bbc2b5d085b2aae5010307f6ccd5858bb0dedc010402f080effa9bdfecaf020207d0e8bcfaf7e99ed50306039cf9e1d8fdb985df04020abcc7eedbbde2c59c01050ba7b68cc7c3e3e74f0609aae5bb87c08ba2d7010103cfa2d1c8fc94858b02040dc1b6e5b6e9f1813f040ba2dceffca4c3c971040a8495cdf3e5b58227030eb2a99dfabe9f9d3b060a8cddbcdad6caed8c01030ce5ccdba588bbf67005029ddda2c4fac8f77b0607d3b9e0f6f5bba9a304030386c8c8e5c8ed83ed0204069dc8b9ead1e1c0de01050cbefbf4c2e9c7b26203128180ecc3b1ccb4240203f4bb9f82dfebaae705040387c9b6ed8e9daf5c070697fd83de84bfba8401040c85ede2a4fbe6f9d0010509cdf3f7efa4fad5f3030200000500b5c591e2a6bba3e3040301e4e9eda4cabec9b101040583af9dd6ffcfb9c30a030f89b0ccdc948f90700707f1d59082b3e897250108a8f3ae888defde8f010407848fce8be6d7bea0010201000501afec87f0e485da8c040508dedcc099c8fea7650401d492a9dfa8e29b1c0704bff7b19288e0a7230308e5bfb4a4f5e4f02003000001008dffadb5ffeae79901050385e1d2c3fec6f083030606f2b0bae8caac97470702c8e8c39bb6daf995010605edf5aec6ebaad1f0010209e1ffe3b1e3a3ecec0b0608fd95a59a9ae0f48102050ac28bedb281e7fc6a070b8e87f3cd81c3a614030a88afd0adc3ffa28909030b81fce1e3a0f0a9c802050698e7ff9c908594590105f7bb9d9aa081ccf508030dc2db80f5beefc9b3080601ea81d6f5efb3f3c7010604b6aeb4a8cff6a6f2010208f59589f685fff6f8020202ff858bbbadc0bfe0020310a09ebeaefc9ce3890207039cd8bf8d9a93ca8a050309f4a8bfbd8185cad5050409f1b3fdebe7a3f5a9010708dcfc99f79bcbd0bd010311a4e2d683a384cfcc050600f1b2d9829ecbcc2a0104');
INSERT INTO position_blocks VALUES(1,9192826787738280020,1,7722197760385271976,X'000315caa8c5a0b7ccc801060baf9fcebfe2cbfa480305cdcdef83ffad99d201060c8491e8fcff90e09806020484a0cbc0fac7e43e020b878d9ff8fdc1e2a2020102978088a5aaeee99c030206dcf7e09a8bf29bd1020109e4e3c5c4a9e8a4af030602');
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
INSERT INTO tree_stats VALUES(-9164834154374884381,50331724,1,0,1,0,3,20261021);
INSERT INTO tree_stats VALUES(-8489593020816766426,50331788,1,0,1,0,1,20261014);
INSERT INTO tree_stats VALUES(-6540920618398112195,50331648,1,0,1,0,5,20261021);
INSERT INTO tree_stats VALUES(-6319231365852083341,50331808,1,0,1,0,1,20261014);
INSERT INTO tree_stats VALUES(-5488699006400801213,50331826,1,0,1,0,5,20261021);
INSERT INTO tree_stats VALUES(-3397669695901269232,50331825,1,0,1,0,4,20261021);
INSERT INTO tree_stats VALUES(-1918567286071003950,50331827,1,0,1,0,5,20261021);
INSERT INTO tree_stats VALUES(-190094825396881528,50331828,2,0,2,0,2,20261014);
INSERT INTO tree_stats VALUES(154023565402348093,50331668,1,0,1,0,3,20261021);
INSERT INTO tree_stats VALUES(1267857879622347466,50331648,1,0,1,0,2,20261014);
INSERT INTO tree_stats VALUES(1267857879622347466,50331848,1,0,1,0,7,0);
INSERT INTO tree_stats VALUES(1620273496095723351,50331864,1,0,1,0,4,20261021);
INSERT INTO tree_stats VALUES(1674546740319482959,50331667,1,0,1,0,3,20261021);
INSERT INTO tree_stats VALUES(1674546740319482959,50331824,1,0,1,0,4,20261021);
INSERT INTO tree_stats VALUES(2019563544323210451,50332008,1,0,1,0,7,0);
INSERT INTO tree_stats VALUES(5447111580275823888,50331768,1,1,0,0,6,20261021);
INSERT INTO tree_stats VALUES(5908243786232150053,50331829,1,0,1,0,2,20261014);
INSERT INTO tree_stats VALUES(7636833599185245253,50331788,1,1,0,0,6,20261021);
INSERT INTO tree_stats VALUES(8527795675382559357,50331789,1,0,1,0,1,20261014);
INSERT INTO tree_stats VALUES(9192826787738280020,50331789,1,1,0,0,6,20261021);
CREATE TABLE analysis_settings (
    id   INTEGER PRIMARY KEY,
    text TEXT NOT NULL UNIQUE
) STRICT;
INSERT INTO analysis_settings VALUES(1,'depth=0 nodes=500 curve=1000.0000 inaccuracy=0.050 mistake=0.100 blunder=0.200 verify=2');
CREATE TABLE analyses (
    game_id        INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    settings_id    INTEGER NOT NULL REFERENCES analysis_settings (id),
    created        TEXT NOT NULL,
    nodes          INTEGER NOT NULL,
    white_accuracy REAL NOT NULL,
    black_accuracy REAL NOT NULL,
    plies          BLOB NOT NULL,
    PRIMARY KEY (game_id, settings_id)
) WITHOUT ROWID, STRICT;
INSERT INTO analyses VALUES(7,1,'2026-11-23 17:39:46',4504,68.536325259692873145,88.677383591357909157,X'0b9823d305d305d001d0010000a68d02a68d020003d30587058305a3068705cf011e0000d9f201f58102000287058305a30b8b051d2a00008afe01d8820200028b059b0603db05291e0000a7fd01f581020002db05eb06d7058b051da00100008afe019e8a0200028b059b06f306db059f01dd110000e1f501c57c0302db05eb06db05cf05de11500000ba83038f85020301cf05c307df054ff7f3030007f0fa01000501df05df05df05faf303faf3030606ffff03ffff030003df05e305cf059308e305fbf303fbf303030300000002e305cf05e305cf05fef303fef3030202ffff03ffff030001cf0505030000010001c63506050000010000a445');
CREATE INDEX games_white ON games (white_id);
CREATE INDEX games_black ON games (black_id);
CREATE INDEX games_event ON games (event_id);
CREATE INDEX games_date ON games (date_key);
CREATE INDEX analyses_settings ON analyses (settings_id);
CREATE INDEX games_short_end ON games (end_key) WHERE ply_count < 8;
COMMIT;
