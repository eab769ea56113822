#pragma once
// The importer's state (Importer::Impl), shared by its two halves: db/import.cpp writes the batches,
// db/import_match.cpp finds the stored games a new one duplicates, extends, is a prefix of, or
// replaces. Internal to db/import*.cpp.

#include <array>
#include <future>
#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "db/import.hpp"
#include "db/import_prepare.hpp"

namespace gounki::db {

using namespace detail;

// Games shorter than this are found by final position through the partial index games_short_end
// (db/game_db.cpp, migration 4); longer ones through the position index.
constexpr std::uint32_t short_game_plies = 8;

// A final position (at one ply) that this many stored games end on gets an EndGroup.
constexpr std::size_t end_group_size = 32;

// The import notes of one kind that a stored game keeps about the games imported after it.
constexpr std::int64_t max_other_notes = 10;

// The stored games that end on one position at one ply, once there are end_group_size of them
// (forfeits after one move, one game uploaded many times under other names), grouped by line
// (start, game and moves), and by line, result and players: a game ending there is compared with its
// likes only, not with every one of them, which made an import quadratic in them. A group lives as long as the
// importer: the games it stores are added as they are stored; games another importer stored
// empty the groups (load_end_keys); a game deleted since is found out by the exact comparison
// every hit goes through, so a group can hold a stale game but never miss a stored one.
struct EndGroup {
    // Each list in id order.
    std::unordered_map<std::uint64_t, std::vector<std::int64_t>> by_line; // line hash -> games
    std::unordered_map<std::uint64_t, std::vector<std::int64_t>> by_game; // game_hash (line, result, players) -> games
    std::unordered_map<std::uint64_t, std::vector<std::int64_t>> by_place; // place_hash (the same, source, line) -> games
};

// The stored games that pass through one position at one ply, as the position index lists them,
// read (moves, length) in id order only as far as needed: the ones read that go on from there, by
// line. A game that ends there has its moves read once a batch, however many games end there too,
// and a game passing there by other moves is never taken for one that plays a new game's moves.
struct Passing {
    std::vector<std::int64_t> ids; // in id order
    std::size_t read = 0; // ids[0, read) are read
    std::unordered_map<std::uint64_t, std::vector<std::int64_t>> going_on; // line hash at the ply -> games
};

struct Importer::Impl {
    Impl(GameDatabase& g, ImportOptions o, std::function<void(const ImportReport&)> cb)
        : gdb(g), db(g.sql()), opt(o), on_report(std::move(cb)),
          same_end(db,
                   "SELECT g.id, g.source_id, g.source_line, g.moves, g.start_position, g.result, g.kind, w.name, b.name "
                   "FROM games g LEFT JOIN players w ON w.id = g.white_id LEFT JOIN players b ON b.id = g.black_id "
                   "WHERE g.id = ?1 AND g.ply_count = ?2"),
          // The bound ply count alone does not let SQLite use the partial index: the literal does.
          short_end(db,
                    "SELECT id FROM games WHERE end_key = ?1 AND ply_count = ?2 AND ply_count < " +
                        std::to_string(short_game_plies)),
          find_player(db, "SELECT id FROM players WHERE name = ?1"), insert_player(db, "INSERT INTO players (name) VALUES (?1)"),
          find_event(db, "SELECT id FROM events WHERE name = ?1"), insert_event(db, "INSERT INTO events (name) VALUES (?1)"),
          find_source(db, "SELECT id FROM sources WHERE path = ?1"), insert_source(db, "INSERT INTO sources (path) VALUES (?1)"),
          insert_note(db,
                      "INSERT INTO diagnostics (game_id, seq, severity, code, message) VALUES "
                      "(?1, (SELECT coalesce(max(seq) + 1, 0) FROM diagnostics WHERE game_id = ?1), 0, 'prefix', ?2)"),
          count_notes(db,
                      "SELECT count(*) FILTER (WHERE message LIKE 'its moves are a prefix of game %'), "
                      "count(*) FILTER (WHERE message LIKE 'game %''s moves are a prefix of its moves'), "
                      "count(*) FILTER (WHERE message LIKE 'game % has the same moves') "
                      "FROM diagnostics WHERE game_id = ?1 AND code = 'prefix'"),
          find_end(db, "SELECT id, moves, start_position, kind FROM games WHERE id = ?1 AND ply_count = ?2"),
          game_moves(db, "SELECT moves, start_position, kind, ply_count FROM games WHERE id = ?1"),
          all_end_keys(db, "SELECT end_key FROM games"), new_end_keys(db, "SELECT end_key FROM games WHERE id > ?1"),
          max_id(db, "SELECT coalesce(max(id), 0) FROM games"),
          next_id(
              db,
              "SELECT CASE WHEN m > g THEN m ELSE g END FROM (SELECT (SELECT value FROM meta WHERE name = 'next_game_id') "
              "AS m, (SELECT coalesce(max(id), 0) + 1 FROM games) AS g) AS ids"),
          set_next_id(db, "UPDATE meta SET value = ?1 WHERE name = 'next_game_id'"),
          // The rows of every stored game go through bulk writers: COPY on PostgreSQL.
          games_out(db, "games",
                    "kind, event_id, site, date, date_key, round, white_id, black_id, result, start_position, ply_count, "
                    "status, moves, source_id, source_line, end_key, id, annotated"),
          tags_out(db, "tags", "game_id, seq, name, value"),
          diagnostics_out(db, "diagnostics", "game_id, seq, severity, code, line, col, message"),
          tree_out(db, "tree_stats", "key, move, games, white_wins, black_wins, draws, latest_game, latest_date",
                   "ON CONFLICT (key, move) DO UPDATE SET "
                   "games = tree_stats.games + excluded.games, white_wins = tree_stats.white_wins + excluded.white_wins, "
                   "black_wins = tree_stats.black_wins + excluded.black_wins, draws = tree_stats.draws + excluded.draws, "
                   "latest_game = CASE WHEN (excluded.latest_date, excluded.latest_game) > "
                   "(tree_stats.latest_date, tree_stats.latest_game) THEN excluded.latest_game ELSE tree_stats.latest_game END, "
                   "latest_date = CASE WHEN (excluded.latest_date, excluded.latest_game) > "
                   "(tree_stats.latest_date, tree_stats.latest_game) THEN excluded.latest_date ELSE tree_stats.latest_date END") {}

    void submit(ImportStats& stats);
    void write(PreparedBatch& batch, ImportStats& stats);
    std::int64_t name_id(Statement& find, Statement& insert, std::unordered_map<std::string, std::int64_t>& cache,
                         const std::string& name);
    void load_end_keys();
    void add_end_keys(std::vector<std::uint64_t>& keys);
    void match_end_keys(PreparedBatch& b);
    void games_ending(std::uint64_t key, std::uint32_t plies, std::vector<std::int64_t>& ids);
    // The group of the games ending on `key` at ply `plies`, or null when they are fewer than
    // end_group_size: then `ending` holds them (games_ending).
    EndGroup* end_group(std::uint64_t key, std::uint32_t plies);
    // Adds a game just stored to the group of its final position, if there is one.
    void add_to_end_group(Prepared& p, std::int64_t source_id);
    // Whether stored game `other`, of `plies` plies, is `p` again (moves, start, game, result and
    // players); its source and line in `source` and `line` when so.
    bool same_game(const Prepared& p, std::int64_t other, std::int64_t& source, std::int64_t& line);
    void check_duplicate(Prepared& p, std::int64_t source_id, std::span<const Prepared> batch);
    // The lowest id of a game stored before (or earlier in the batch) that is an image of `p` under one
    // of the seven symmetries other than the identity (moves, start, game, result and players), with
    // the symmetry that takes it to `p` in `symmetry`; 0 if none.
    std::int64_t turned_duplicate(const Prepared& p, std::span<const Prepared> batch, int& symmetry);
    // Whether the row same_end stands on holds p's kind, start and moves (players and result aside),
    // or `start` and `moves` in p's kind.
    bool row_has_moves_of(const Prepared& p);
    bool row_has_line(const Prepared& p, std::string_view start, std::span<const std::uint8_t> moves);
    // Among `candidates` (games ending where the record ends), one an earlier import stored from this
    // record's file and line with its kind, start and moves (its players or result differ): its id,
    // with the differences in p.report.reason; 0 if none.
    std::int64_t edited_record(Prepared& p, std::int64_t source_id, const std::vector<std::int64_t>& candidates);
    // Stores a game under the next id, or under `replacing` (a stored game just deleted).
    void store(Prepared& p, std::int64_t source_id, std::int64_t replacing = 0);
    // replace: the stored game `p` replaces, or 0 (none, or `p` is settled: skipped or rejected).
    std::int64_t find_replaced(Prepared& p, std::int64_t source_id);
    std::vector<std::int64_t> same_players_and_opening(const Prepared& p);
    bool same_as_stored(const Prepared& p, std::int64_t id);
    // A statement prepared once for the importer's life (the replace lookups, rarely used).
    Statement& statement(const std::string& sql);
    void flag_prefixes(Prepared& p, std::span<Prepared> batch);
    // The games of `through` read so far that go on from ply `ply` with line hash `line`, reading
    // more until there are `want` of them or all are read.
    const std::vector<std::int64_t>& going_on(Passing& through, std::uint32_t ply, std::uint64_t line, std::size_t want);
    // The steps of write(), in order.
    void decide_lookup_indexes();
    void mark_prefix_candidates(std::vector<Prepared>& batch);
    void store_games(std::vector<Prepared>& batch);
    void add_index_run(const PreparedBatch& prepared);
    void add_tree_counts(const std::vector<Prepared>& batch);
    void tally(std::vector<Prepared>& batch, ImportStats& stats);
    void note(std::int64_t game, const std::string& text);
    // A note on an older game that a new one names: at most max_other_notes of a kind (NoteKind)
    // on a game, however many games later name it (every game that starts as a short one does).
    enum class NoteKind { is_prefix_of, has_prefix, same_moves };
    void note_on_older(std::int64_t game, NoteKind kind, const std::string& text);

    GameDatabase& gdb;
    Database& db;
    ImportOptions opt;
    std::function<void(const ImportReport&)> on_report;
    std::vector<GameInput> queue;
    std::future<PreparedBatch> pending; // the batch being prepared on another thread
    Statement same_end, short_end, find_player, insert_player, find_event, insert_event, find_source, insert_source;
    Statement insert_note, count_notes, find_end, game_moves;
    Statement all_end_keys, new_end_keys, max_id, next_id, set_next_id;
    BulkWriter games_out, tags_out, diagnostics_out, tree_out;
    std::int64_t id_counter = 0; // the id the next stored game of this batch gets
    std::unordered_map<std::string, std::int64_t> players, events, sources;
    std::unordered_map<std::string, std::string> absolute_paths;
    std::vector<std::uint64_t> end_keys; // final positions of the stored games, in key_less order
    bool end_keys_loaded = false;
    bool has_empty_in_batch = false; // an empty game was stored in this batch already
    std::int64_t last_seen_id = 0;
    bool lookup_decided = false; // whether to defer the lookup indexes (expected_games)
    bool lookup_dropped = false; // they were dropped: finish() builds them again
    std::vector<IndexEntry> found; // scratch
    std::vector<std::int64_t> ending; // scratch: games_ending's answer
    std::map<std::pair<std::uint64_t, std::uint32_t>, EndGroup> end_groups; // by final position and ply
    std::unordered_map<std::int64_t, std::array<std::int64_t, 3>> notes_on; // note_on_older's counts by game
    // The stored games that pass through a position at a ply (flag_prefixes), by position and ply,
    // for one batch (the batch adds its games to the index when it ends).
    std::map<std::pair<std::uint64_t, std::uint32_t>, Passing> passing;
    // This batch's stored games of at least short_game_plies plies by final position: they are in
    // no run of the position index until the batch's run is added.
    std::unordered_multimap<std::uint64_t, std::int64_t> batch_ends;
    std::int64_t first_import_id = 0; // the id of this import's first stored game: later ids are its own
    bool replaced_in_batch = false;
    std::unordered_set<std::int64_t>
        replaced_ids; // the stored games this import replaced // a game took an old id: the batch's index entries need sorting
    std::unordered_map<std::string, std::unique_ptr<Statement>> statements;
};

} // namespace gounki::db
