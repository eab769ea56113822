#include "db/sqlite.hpp"

#include "db/fold.hpp"
#include "db/postgres.hpp"

#include <sqlite3.h>

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <thread>
#include <filesystem>

namespace gounki::db {

namespace {

[[noreturn]] void fail(const Database* database, sqlite3* db, int rc, const std::string& context) {
    const char* text = db ? sqlite3_errmsg(db) : sqlite3_errstr(rc);
    if ((rc & 0xff) == SQLITE_BUSY && database) throw DbError(rc & 0xff, database->busy_message(rc, text));
    std::string msg = context;
    if (!msg.empty()) msg += ": ";
    msg += text;
    throw DbError(rc & 0xff, msg);
}

LockWaitNotice& lock_wait_notice() {
    static LockWaitNotice notice;
    return notice;
}

std::string uri_escape(const std::string& path) {
    std::string out;
    for (char c : path) {
        if (c == '%' || c == '?' || c == '#') {
            static const char hex[] = "0123456789ABCDEF";
            out += '%';
            out += hex[(unsigned char)c >> 4];
            out += hex[(unsigned char)c & 15];
        } else {
            out += c;
        }
    }
    return out;
}

// The folder a database file is in ("." for a bare name).
std::string folder_of(const std::string& path) {
    const std::string folder = std::filesystem::path(path).parent_path().string();
    return folder.empty() ? "." : folder;
}

} // namespace

int lock_timeout_ms() {
    const char* env = std::getenv("GOUNKI_DB_TIMEOUT");
    if (!env || !*env) return 600 * 1000;
    char* end = nullptr;
    const double seconds = std::strtod(env, &end);
    if (end == env || *end != '\0' || !(seconds >= 0) || seconds > 2e6)
        throw DbError(0, std::string("GOUNKI_DB_TIMEOUT must be a number of seconds from 0 to 2000000 (how long to wait for "
                                     "another program's lock on the database), not '") +
                             env + "'");
    return int(std::lround(seconds * 1000));
}

void set_lock_wait_notice(LockWaitNotice notice) { lock_wait_notice() = std::move(notice); }
void tell_lock_wait(const std::string& where, int timeout_ms) {
    if (const LockWaitNotice& notice = lock_wait_notice()) notice(where, timeout_ms);
}

bool DbError::is_busy() const {
    return code_ == SQLITE_BUSY || code_ == SQLITE_LOCKED || sqlstate_ == "40001" || sqlstate_ == "40P01" ||
        sqlstate_ == "55P03";
}

Database::Database(const std::string& path, OpenMode mode) : path_(path) {
    if (is_postgres_url(path)) {
        path_ = redacted_url(path);
        url_ = path;
        pg_ = std::make_unique<PgConnection>(path, mode == OpenMode::read_only);
        read_only_ = mode == OpenMode::read_only;
        return;
    }
    // Memory statistics cost a global mutex around every allocation; nothing here reads them.
    // Only possible before SQLite initialises, so once, before the first connection.
    static const int configured = sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
    (void)configured;
    int flags = SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_EXRESCODE;
    switch (mode) {
    case OpenMode::read_only: flags |= SQLITE_OPEN_READONLY; break;
    case OpenMode::read_write: flags |= SQLITE_OPEN_READWRITE; break;
    case OpenMode::create: flags |= SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE; break;
    }
    // SQLite writes its journal (the write-ahead log, PATH-wal, and its index, PATH-shm) beside the
    // file, and a reader of a WAL database creates the index too: in a folder that cannot be written
    // nobody can write the database, whatever the file's own permissions.
    const std::string folder = folder_of(path);
    const bool folder_writable = ::access(folder.c_str(), W_OK) == 0;
    if (mode != OpenMode::read_only && !folder_writable && ::access(folder.c_str(), F_OK) == 0)
        throw DbError(SQLITE_READONLY,
                      "cannot write to '" + path + "': its folder '" + folder +
                          "' is read-only, and SQLite needs to create its journal ('" + path +
                          "-wal') beside the file; make the folder writable, or move the database to one that is");
    // A reader of a file it may not write (a read-only copy, a CD), or of one in a read-only
    // folder: SQLite cannot create the WAL index beside it, so it is opened as immutable. Nobody can
    // be writing it meanwhile. Unless its write-ahead log beside it holds changes (a writer still
    // open, or one that stopped without its last checkpoint): an immutable file is read without its
    // log, so those would be missing; SQLite reads a log and index that exist without writing.
    std::error_code no_log;
    const auto log_size = std::filesystem::file_size(path + "-wal", no_log);
    const bool log_holds_changes = !no_log && log_size > 0;
    std::string name = path;
    if (mode == OpenMode::read_only && (::access(path.c_str(), W_OK) != 0 || !folder_writable) &&
        ::access(path.c_str(), R_OK) == 0 && !log_holds_changes) {
        name = "file:" + uri_escape(path) + "?immutable=1";
        flags |= SQLITE_OPEN_URI;
    }
    const int rc = sqlite3_open_v2(name.c_str(), &db_, flags, nullptr);
    if (rc != SQLITE_OK) {
        std::string msg = "cannot open database '" + path + "': " + (db_ ? sqlite3_errmsg(db_) : sqlite3_errstr(rc));
        sqlite3_close_v2(db_);
        db_ = nullptr;
        throw DbError(rc & 0xff, msg);
    }
    read_only_ = sqlite3_db_readonly(db_, "main") == 1;
    try {
        register_fold_function(db_); // name filters match through it, on every connection
    } catch (...) {
        sqlite3_close_v2(db_);
        throw;
    }
}

Database::~Database() { sqlite3_close_v2(db_); }

void Database::exec(std::string_view sql) {
    if (pg_) return pg_->exec(sql);
    const std::string text(sql);
    char* err = nullptr;
    const int rc = sqlite3_exec(db_, text.c_str(), nullptr, nullptr, &err);
    if (rc != SQLITE_OK) {
        std::string msg = err ? err : sqlite3_errstr(rc);
        if ((rc & 0xff) == SQLITE_BUSY) msg = busy_message(rc, msg.c_str());
        sqlite3_free(err);
        throw DbError(rc & 0xff, msg);
    }
}

void Database::tune(std::string_view pragma) {
    if (!pg_) exec(pragma);
}

void Database::reconnect() {
    if (pg_) pg_->reconnect();
}

std::unique_ptr<Database> Database::open_again(OpenMode mode) const {
    return std::make_unique<Database>(pg_ ? url_ : path_, mode);
}

std::int64_t Database::last_insert_rowid() const { return pg_ ? pg_->last_insert_id() : sqlite3_last_insert_rowid(db_); }
bool Database::in_transaction() const { return pg_ ? pg_->in_transaction() : sqlite3_get_autocommit(db_) == 0; }
int Database::changes() const { return pg_ ? pg_->changes() : sqlite3_changes(db_); }
void Database::set_busy_timeout(int milliseconds) {
    busy_timeout_ms_ = std::max(0, milliseconds);
    if (pg_) pg_->set_lock_timeout(milliseconds);
    else sqlite3_busy_handler(db_, busy_timeout_ms_ > 0 ? &Database::on_busy : nullptr, this);
}

// As sqlite3_busy_timeout's handler (sleeps of 1 ms growing to 100 ms until the timeout), and after
// lock_notice_ms of waiting it says so, once.
int Database::on_busy(void* self, int count) {
    Database& d = *static_cast<Database*>(self);
    const auto now = std::chrono::steady_clock::now();
    if (count == 0) {
        d.wait_start_ = now;
        d.wait_told_ = false;
    }
    const auto waited = std::chrono::duration_cast<std::chrono::milliseconds>(now - d.wait_start_).count();
    if (waited >= d.busy_timeout_ms_) return 0;
    if (!d.wait_told_ && waited >= lock_notice_ms) {
        d.wait_told_ = true;
        tell_lock_wait(d.path_, d.busy_timeout_ms_);
    }
    static constexpr int delays[] = {1, 2, 5, 10, 15, 20, 25, 25, 25, 50, 50, 100};
    const int delay = count < int(std::size(delays)) ? delays[count] : 100;
    std::this_thread::sleep_for(std::chrono::milliseconds(std::min<long long>(delay, d.busy_timeout_ms_ - waited)));
    return 1;
}

std::string Database::busy_message(int rc, const char* sqlite_message) const {
    // A lock waited for in vain (plain SQLITE_BUSY, or SQLITE_BUSY_TIMEOUT from a WAL lock); the
    // other extended codes (a snapshot outdated, a recovery) never waited.
    if (rc != SQLITE_BUSY && rc != SQLITE_BUSY_TIMEOUT) return "'" + path_ + "' is busy: " + sqlite_message;
    return locked_message(path_, busy_timeout_ms_);
}

std::string locked_message(const std::string& where, int timeout_ms) {
    char waited[32];
    std::snprintf(waited, sizeof waited, "%g s", timeout_ms / 1000.0);
    return "'" + where + "' is locked: another program is writing to it, and gounki gave up waiting after " + waited +
        " (GOUNKI_DB_TIMEOUT); try again when that program is done, or set GOUNKI_DB_TIMEOUT (seconds) to wait longer";
}

Statement::Statement(Database& db, std::string_view sql) : database_(&db), db_(db.handle()) {
    if (db.postgres()) {
        pg_ = std::make_unique<PgStatement>(*db.postgres(), sql);
        return;
    }
    const int rc = sqlite3_prepare_v3(db_, sql.data(), int(sql.size()), SQLITE_PREPARE_PERSISTENT, &stmt_, nullptr);
    if (rc != SQLITE_OK) fail(database_, db_, rc, "preparing '" + std::string(sql.substr(0, 60)) + "'");
}

Statement::~Statement() { sqlite3_finalize(stmt_); }

Statement::Statement(Statement&& o) noexcept : database_(o.database_), db_(o.db_), stmt_(o.stmt_), pg_(std::move(o.pg_)) {
    o.stmt_ = nullptr;
}

void Statement::check(int rc) const {
    if (rc != SQLITE_OK) fail(database_, db_, rc, "");
}

Statement& Statement::bind(int index, std::int64_t value) {
    if (pg_) {
        pg_->bind_int64(index, value);
        return *this;
    }
    check(sqlite3_bind_int64(stmt_, index, value));
    return *this;
}

Statement& Statement::bind(int index, double value) {
    if (pg_) {
        pg_->bind_double(index, value);
        return *this;
    }
    check(sqlite3_bind_double(stmt_, index, value));
    return *this;
}

Statement& Statement::bind(int index, std::string_view text) {
    if (pg_) {
        pg_->bind_text(index, text);
        return *this;
    }
    check(sqlite3_bind_text64(stmt_, index, text.data(), text.size(), SQLITE_TRANSIENT, SQLITE_UTF8));
    return *this;
}

Statement& Statement::bind_blob(int index, std::span<const std::uint8_t> data) {
    if (pg_) {
        pg_->bind_blob(index, data);
        return *this;
    }
    // A zero-length blob must still be a blob, not NULL: sqlite3_bind_blob64 with a null pointer binds NULL.
    static const std::uint8_t empty = 0;
    check(sqlite3_bind_blob64(stmt_, index, data.empty() ? &empty : data.data(), data.size(), SQLITE_TRANSIENT));
    return *this;
}

Statement& Statement::bind_null(int index) {
    if (pg_) return pg_->bind_null(index), *this;
    check(sqlite3_bind_null(stmt_, index));
    return *this;
}

Statement& Statement::bind_text_or_null(int index, std::string_view text) {
    return text.empty() ? bind_null(index) : bind(index, text);
}

Statement& Statement::bind_static_text_or_null(int index, std::string_view text) {
    if (text.empty()) return bind_null(index);
    if (pg_) return bind(index, text);
    check(sqlite3_bind_text64(stmt_, index, text.data(), text.size(), SQLITE_STATIC, SQLITE_UTF8));
    return *this;
}

Statement& Statement::bind_static_blob(int index, std::span<const std::uint8_t> data) {
    if (pg_) return bind_blob(index, data);
    static const std::uint8_t empty = 0;
    check(sqlite3_bind_blob64(stmt_, index, data.empty() ? &empty : data.data(), data.size(), SQLITE_STATIC));
    return *this;
}

bool Statement::step() {
    if (pg_) return pg_->step();
    const int rc = sqlite3_step(stmt_);
    if (rc == SQLITE_ROW) return true;
    if (rc == SQLITE_DONE) return false;
    const std::string msg = (rc & 0xff) == SQLITE_BUSY ? database_->busy_message(rc, sqlite3_errmsg(db_)) : sqlite3_errmsg(db_);
    sqlite3_reset(stmt_);
    throw DbError(rc & 0xff, msg);
}

void Statement::run() {
    try {
        while (step()) {}
    } catch (...) {
        reset();
        throw;
    }
    reset();
}

void Statement::reset() noexcept {
    if (pg_) return pg_->reset();
    sqlite3_reset(stmt_);
    sqlite3_clear_bindings(stmt_);
}

int Statement::column_count() const { return pg_ ? pg_->column_count() : sqlite3_column_count(stmt_); }
std::string Statement::column_name(int column) const {
    if (pg_) return pg_->column_name(column);
    const char* name = sqlite3_column_name(stmt_, column);
    return name ? name : "";
}

Statement::Kind Statement::column_kind(int column) const {
    if (pg_) return Kind(pg_->column_kind(column));
    switch (sqlite3_column_type(stmt_, column)) {
    case SQLITE_INTEGER: return Kind::integer;
    case SQLITE_FLOAT: return Kind::real;
    case SQLITE_TEXT: return Kind::text;
    case SQLITE_BLOB: return Kind::blob;
    default: return Kind::null;
    }
}

bool Statement::is_null(int column) const {
    return pg_ ? pg_->is_null(column) : sqlite3_column_type(stmt_, column) == SQLITE_NULL;
}
std::int64_t Statement::get_int64(int column) const {
    return pg_ ? pg_->get_int64(column) : sqlite3_column_int64(stmt_, column);
}
double Statement::get_double(int column) const { return pg_ ? pg_->get_double(column) : sqlite3_column_double(stmt_, column); }

std::string_view Statement::get_text(int column) const {
    if (pg_) return pg_->get_text(column);
    const auto* p = reinterpret_cast<const char*>(sqlite3_column_text(stmt_, column));
    if (!p) return {};
    return {p, std::size_t(sqlite3_column_bytes(stmt_, column))};
}

std::span<const std::uint8_t> Statement::get_blob(int column) const {
    if (pg_) return pg_->get_blob(column);
    const auto* p = static_cast<const std::uint8_t*>(sqlite3_column_blob(stmt_, column));
    if (!p) return {};
    return {p, std::size_t(sqlite3_column_bytes(stmt_, column))};
}

BulkWriter::BulkWriter(Database& db, std::string_view table, std::string_view columns, std::string_view on_conflict)
    : table_(table) {
    columns_ = 1 + int(std::count(columns.begin(), columns.end(), ','));
    if (db.postgres()) {
        copy_ = std::make_unique<PgCopy>(*db.postgres(), table, columns, on_conflict);
        return;
    }
    std::string sql = "INSERT INTO " + table_ + " (" + std::string(columns) + ") VALUES (";
    for (int i = 1; i <= columns_; ++i) sql += (i > 1 ? ", ?" : "?") + std::to_string(i);
    sql += ") ";
    sql += on_conflict;
    insert_ = std::make_unique<Statement>(db, sql);
}

BulkWriter::~BulkWriter() = default;

int BulkWriter::next_column() {
    if (column_ >= columns_)
        throw DbError(0, "more than " + std::to_string(columns_) + " values in a row for " + table_);
    return ++column_;
}

BulkWriter& BulkWriter::add(std::int64_t value) {
    const int i = next_column();
    if (copy_) copy_->add_int64(value);
    else insert_->bind(i, value);
    return *this;
}

BulkWriter& BulkWriter::add(double value) {
    const int i = next_column();
    if (copy_) copy_->add_double(value);
    else insert_->bind(i, value);
    return *this;
}

BulkWriter& BulkWriter::add(std::string_view text) {
    const int i = next_column();
    if (copy_) copy_->add_text(text);
    else if (text.empty()) insert_->bind(i, text);
    else insert_->bind_static_text_or_null(i, text); // not empty: never NULL
    return *this;
}

BulkWriter& BulkWriter::add_blob(std::span<const std::uint8_t> data) {
    const int i = next_column();
    if (copy_) copy_->add_blob(data);
    else insert_->bind_static_blob(i, data);
    return *this;
}

BulkWriter& BulkWriter::add_null() {
    const int i = next_column();
    if (copy_) copy_->add_null();
    else insert_->bind_null(i);
    return *this;
}

void BulkWriter::end_row() {
    if (column_ != columns_) {
        const int had = column_;
        column_ = 0;
        if (insert_) insert_->reset();
        if (copy_) copy_->drop();
        throw DbError(0, "a row for " + table_ + " with " + std::to_string(had) + " values, not " + std::to_string(columns_));
    }
    column_ = 0;
    if (copy_) copy_->end_row();
    else insert_->run();
}

void BulkWriter::flush() {
    if (copy_) copy_->send_all();
}

Transaction::Transaction(Database& db, TransactionKind kind) : db_(db) {
    if (db_.in_transaction()) return;
    // PostgreSQL: writers take one advisory lock for the transaction, as SQLite's writers take
    // the file's write lock: one writer at a time (ids are handed out from meta, the opening tree's
    // counts are read and rewritten), waiting up to the lock timeout; readers never wait.
    if (!db_.is_postgres()) db_.exec(kind == TransactionKind::deferred ? "BEGIN DEFERRED" : "BEGIN IMMEDIATE");
    else if (kind == TransactionKind::immediate) db_.postgres()->begin_locked(1196381515);
    else if (kind == TransactionKind::job) db_.exec("BEGIN ISOLATION LEVEL READ COMMITTED");
    else db_.exec("BEGIN ISOLATION LEVEL REPEATABLE READ");
    open_ = true;
}

Transaction::~Transaction() {
    if (!open_) return;
    try {
        db_.exec("ROLLBACK");
    } catch (const DbError&) {
        // SQLite may already have rolled back on its own (after an I/O error or SQLITE_FULL).
    }
}

void Transaction::commit() {
    if (!open_) return;
    db_.exec("COMMIT");
    open_ = false;
}

} // namespace gounki::db
