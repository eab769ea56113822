// Opening a game database: file checks, schema version, migrations, connection settings.
#include "db/game_db.hpp"
#include "core/text.hpp"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <thread>

#include "db/analysis_store.hpp"
#include "db/job_queue.hpp"
#include "db/postgres.hpp"
#include "db/schema_sql.hpp"

namespace gounki::db {

namespace {

// SQLite primary result codes used in our own errors (sqlite3.h stays inside sqlite.cpp).
constexpr int sqlite_readonly = 8;
constexpr int sqlite_cantopen = 14;
constexpr int sqlite_corrupt = 11;
constexpr int sqlite_notadb = 26;

// Append only: migration N takes a database from user_version N-1 to N. Each runs in its own
// transaction and ends by setting user_version.
struct Migration {
    int version;
    const char* sql;
};
constexpr const char annotations_sql_v3[] = R"sql(
-- Migration 3: what a record says beyond its main line (comments, NAGs, variations), so that show
-- and export give it back whole. The game's canonical record text (parser/writer.hpp) as imported;
-- NULL when the record had none of them (most games).
ALTER TABLE games ADD COLUMN annotated TEXT;
PRAGMA user_version = 3;
)sql";

constexpr const char short_end_sql_v4[] = R"sql(
-- Migration 4: games are found by their final position (duplicates, prefixes) through the position
-- index, which holds every position of every game already; an index of every game's end_key cost
-- a random B-tree insertion per imported game. Only short games keep one (a partial index): their
-- final positions are near the start, where the position index lists the many games that pass.
DROP INDEX IF EXISTS games_end_key;
CREATE INDEX games_short_end ON games (end_key) WHERE ply_count < 8;
PRAGMA user_version = 4;
)sql";

constexpr Migration migrations[] = {
    {1, schema_sql_v1},
    {2, analysis_schema_sql_v2}, // db/analysis_store.cpp
    {3, annotations_sql_v3},
    {4, short_end_sql_v4},
    {5, analysis_engine_sql_v5}, // db/analysis_store.cpp
    {6, jobs_schema_sql_v6}, // db/job_queue.cpp
};
static_assert(std::size(migrations) == std::size_t(schema_version), "one migration per schema version");

Database open_file(const std::string& path, Access access) {
    if (is_postgres_url(path)) return Database(path, access == Access::read_only ? OpenMode::read_only : OpenMode::create);
    std::error_code ec;
    if (access == Access::read_only && !std::filesystem::exists(path, ec))
        throw DbError(sqlite_cantopen, "no database at '" + path + "' (import games to create one)");
    if (std::filesystem::is_directory(path, ec))
        throw DbError(sqlite_cantopen, "'" + path + "' is a directory, not a database file");
    return Database(path, access == Access::read_only ? OpenMode::read_only : OpenMode::create);
}

std::int64_t pragma_int(Database& db, std::string_view sql) {
    Statement st(db, sql);
    return st.step() ? st.get_int64(0) : 0;
}

} // namespace

namespace {
constexpr Named<Severity> severity_names[] = {
    {Severity::note, "note"}, {Severity::warning, "warning"}, {Severity::error, "error"}};
constexpr Named<GameStatus> status_names[] = {
    {GameStatus::valid, "valid"}, {GameStatus::partial, "partial"}, {GameStatus::invalid, "invalid"}};
constexpr Named<SortKey> sort_key_names[] = {{SortKey::id, "id"},
                                             {SortKey::date, "date"},
                                             {SortKey::player, "player"},
                                             {SortKey::event, "event"},
                                             {SortKey::result, "result"}};
} // namespace

std::string_view severity_name(Severity s) { return name_of(severity_names, s); }
std::string_view status_name(GameStatus s) { return name_of(status_names, s); }
std::optional<GameStatus> parse_status(std::string_view text) { return named(status_names, text); }
std::optional<SortKey> parse_sort_key(std::string_view text) { return named(sort_key_names, text); }

std::string default_database_path() {
    const char* env = std::getenv("GOUNKI_DB");
    return env && *env ? env : "gounki.db";
}

GameDatabase::GameDatabase(const std::string& path, Access access) : db_(open_file(path, access)) {
    open_schema(access);
    index_ = std::make_unique<PositionIndex>(db_);
}

void GameDatabase::reconnect() {
    statements_.clear();
    index_.reset();
    all_games_version_ = {-1, -1};
    db_.reconnect();
    index_ = std::make_unique<PositionIndex>(db_);
}

GameDatabase::~GameDatabase() = default;

Statement& GameDatabase::cached(const std::string& sql) {
    auto& slot = statements_[sql];
    if (!slot) slot = std::make_unique<Statement>(db_, sql);
    slot->reset();
    return *slot;
}

void GameDatabase::open_schema(Access access) {
    // Another importer may hold the write lock for a while (a batch, a merge of index runs): wait
    // $GOUNKI_DB_TIMEOUT seconds, ten minutes by default.
    db_.set_busy_timeout(lock_timeout_ms());
    if (db_.is_postgres()) open_server_schema(access);
    else open_file_schema(access);
    {
        Statement depth(db_, "SELECT value FROM meta WHERE name = 'tree_depth'");
        if (depth.step()) tree_depth_ = depth.get_int(0);
    }
    // Below 4 plies a game comes back to a position by passes only, which the tree looks for
    // (GameDatabase::tree_of_keys).
    if (tree_depth_ < 0 || tree_depth_ > 4)
        throw DbError(0, "the database '" + db_.path() + "' is damaged: meta tree_depth is " + std::to_string(tree_depth_) +
                             " (the opening tree sums plies 0 to 3 at most)");
    if (access == Access::read_write) create_lookup_indexes();
}

void GameDatabase::check_schema(std::int64_t version, bool empty, bool ours, Access access) const {
    const std::string& path = db_.path();
    if (version > schema_version)
        throw DbError(0,
                      "'" + path + "' was written by a newer gounki (schema version " + std::to_string(version) +
                          "; this gounki knows up to " + std::to_string(schema_version) + "): refusing to use it");
    if (!empty && !ours)
        throw DbError(0, "'" + path + "' is " + (db_.is_postgres() ? "a PostgreSQL" : "an SQLite") +
                             " database but not a gounki database");
    if (access == Access::read_only && empty)
        throw DbError(0, "'" + path + "' is empty: not a gounki database yet (import games to create one)");
    if (access == Access::read_write && db_.read_only())
        throw DbError(sqlite_readonly, "the database '" + path + "' is read-only: cannot write to it");
    if (version < schema_version && access == Access::read_only)
        throw DbError(0,
                      "'" + path + "' has schema version " + std::to_string(version) + " and needs an upgrade to " +
                          std::to_string(schema_version) + ": run a command that writes (import) first");
}

// A PostgreSQL database holds the same tables (each migration's script translated by
// postgres_ddl); the schema version and the gounki mark are rows of meta, in the current schema
// (search_path), so one server database can hold several collections in schemas of their own.
void GameDatabase::open_server_schema(Access access) {
    const auto read_version = [&](std::int64_t& version, bool& ours) {
        version = 0;
        ours = false;
        if (pragma_int(db_, "SELECT count(*) FROM pg_tables WHERE schemaname = current_schema() AND tablename = 'meta'") == 0)
            return;
        version = pragma_int(db_, "SELECT coalesce(max(value), 0) FROM meta WHERE name = 'schema_version'");
        ours = pragma_int(db_, "SELECT count(*) FROM meta WHERE name = 'application_id' AND value = " +
                                   std::to_string(application_id)) > 0;
    };
    std::int64_t version = 0;
    bool ours = false;
    read_version(version, ours);
    const bool empty = pragma_int(db_, "SELECT count(*) FROM pg_tables WHERE schemaname = current_schema()") == 0;
    check_schema(version, empty, ours, access);
    for (const Migration& m : migrations) {
        if (version >= m.version) continue;
        Transaction tx(db_, TransactionKind::immediate);
        // One migrating connection at a time; another may have migrated meanwhile.
        db_.exec("SELECT pg_advisory_xact_lock(" + std::to_string(application_id) + ")");
        read_version(version, ours);
        if (version >= m.version) continue;
        if (m.version == 1) db_.exec(postgres_functions());
        db_.exec(postgres_ddl(m.sql));
        db_.exec("INSERT INTO meta (name, value) VALUES ('schema_version', " + std::to_string(m.version) + "), "
                 "('application_id', " + std::to_string(application_id) + ") "
                 "ON CONFLICT (name) DO UPDATE SET value = excluded.value");
        tx.commit();
        version = m.version;
    }
}

namespace {

// PRAGMA journal_mode = WAL needs the file to itself, and SQLite answers SQLITE_BUSY at once, without
// the busy handler, while another connection has it open (two importers creating one new file):
// tried again until the other has switched it or closed, up to the lock timeout.
void switch_to_wal(Database& db) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(lock_timeout_ms());
    for (;;) {
        try {
            db.exec("PRAGMA journal_mode = WAL");
            return;
        } catch (const DbError& e) {
            if (!e.is_busy() || std::chrono::steady_clock::now() >= deadline) throw;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
        Statement mode(db, "PRAGMA journal_mode");
        if (mode.step() && mode.get_text(0) == "wal") return; // the other connection switched it
    }
}

} // namespace

void GameDatabase::open_file_schema(Access access) {
    const std::string& path = db_.path();

    // Nothing is written before the file is known to be ours and not newer than this build.
    std::int64_t version = 0, app = 0, objects = 0;
    try {
        objects = pragma_int(db_, "SELECT count(*) FROM sqlite_master");
        version = pragma_int(db_, "PRAGMA user_version");
        app = pragma_int(db_, "PRAGMA application_id");
    } catch (const DbError& e) {
        if (e.code() == sqlite_notadb || e.code() == sqlite_corrupt)
            throw DbError(e.code(),
                          "'" + path + "' is not a gounki database: not an SQLite file, or a damaged one (" + e.what() + ")");
        throw DbError(e.code(), "cannot read '" + path + "': " + e.what());
    }
    check_schema(version, objects == 0 && version == 0, app == application_id, access);

    db_.exec("PRAGMA foreign_keys = ON");
    if (access == Access::read_write) {
        // WAL lets searches read while an import writes; NORMAL sync is safe against crashes in WAL.
        bool wal = false;
        {
            Statement mode(db_, "PRAGMA journal_mode");
            wal = mode.step() && mode.get_text(0) == "wal";
        }
        // A new file gets 16 KB pages (before WAL fixes the size): fewer B-tree levels and page
        // splits; an import commits about a quarter faster than with the default 4 KB.
        if (objects == 0 && version == 0) db_.exec("PRAGMA page_size = 16384");
        if (!wal) switch_to_wal(db_);
        db_.exec("PRAGMA synchronous = NORMAL");
    }
    db_.exec("PRAGMA cache_size = -65536"); // 64 MB
    // Reads through a memory map skip a copy per page; the index blocks are read a lot.
    db_.exec("PRAGMA mmap_size = 1073741824");

    for (const Migration& m : migrations) {
        if (version >= m.version) continue;
        Transaction tx(db_, TransactionKind::immediate);
        // Another process may have migrated meanwhile.
        version = pragma_int(db_, "PRAGMA user_version");
        if (version >= m.version) continue;
        db_.exec(m.sql);
        // Set here too, so that a migration script cannot forget it.
        db_.exec("PRAGMA user_version = " + std::to_string(m.version));
        tx.commit();
        version = m.version;
    }
}

namespace {

// The indexes of schema.sql that an import may defer (GameDatabase::drop_lookup_indexes).
constexpr const char* lookup_indexes[][2] = {
    {"games_white", "games (white_id)"},
    {"games_black", "games (black_id)"},
    {"games_event", "games (event_id)"},
    {"games_date", "games (date_key)"},
};

} // namespace

void GameDatabase::drop_lookup_indexes() {
    for (const auto& [name, on] : lookup_indexes) db_.exec(std::string("DROP INDEX IF EXISTS ") + name);
}

void GameDatabase::create_lookup_indexes() {
    Statement exists(db_, db_.is_postgres() ? "SELECT 1 FROM pg_indexes WHERE schemaname = current_schema() AND indexname = ?1"
                                            : "SELECT 1 FROM sqlite_master WHERE type = 'index' AND name = ?1");
    bool all = true;
    for (const auto& [name, on] : lookup_indexes) {
        const ResetAtExit done(exists);
        exists.bind(1, name);
        all &= exists.step();
    }
    if (all) return;
    Transaction tx(db_, TransactionKind::immediate);
    for (const auto& [name, on] : lookup_indexes) db_.exec(std::string("CREATE INDEX IF NOT EXISTS ") + name + " ON " + on);
    tx.commit();
}

std::vector<std::uint64_t> GameDatabase::position_keys(GameKind kind, const Position& start, std::span<const Move> moves) {
    std::vector<std::uint64_t> keys;
    keys.reserve(moves.size() + 1);
    Position pos = start;
    UndoRecord undo;
    keys.push_back(index_key(kind, pos.key()));
    for (Move m : moves) {
        pos.do_move(m, undo);
        keys.push_back(index_key(kind, pos.key()));
    }
    return keys;
}

std::vector<std::uint64_t> GameDatabase::position_keys(AnyPosition pos, std::span<const Move> moves) {
    std::vector<std::uint64_t> keys;
    keys.reserve(moves.size() + 1);
    keys.push_back(index_key(pos));
    for (Move m : moves) {
        pos.play(m);
        keys.push_back(index_key(pos));
    }
    return keys;
}

void GameDatabase::checkpoint() { db_.tune("PRAGMA wal_checkpoint(TRUNCATE)"); }

DatabaseStats GameDatabase::stats() {
    DatabaseStats s;
    Transaction tx(db_, TransactionKind::deferred);
    s.games = pragma_int(db_, "SELECT count(*) FROM games");
    s.partial_games = pragma_int(db_, "SELECT count(*) FROM games WHERE status <> 0");
    s.players = pragma_int(db_, "SELECT count(*) FROM players");
    s.events = pragma_int(db_, "SELECT count(*) FROM events");
    s.index_runs = pragma_int(db_, "SELECT count(*) FROM position_runs");
    s.index_entries = pragma_int(db_, "SELECT coalesce(sum(entries), 0) FROM position_runs");
    s.tree_rows = pragma_int(db_, "SELECT count(*) FROM tree_stats");
    s.file_bytes = db_.is_postgres() ? pragma_int(db_, "SELECT pg_database_size(current_database())")
                                     : pragma_int(db_, "PRAGMA page_count") * pragma_int(db_, "PRAGMA page_size");
    tx.commit();
    return s;
}

} // namespace gounki::db
