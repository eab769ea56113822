#pragma once
// The SQL layer: thin RAII wrappers over the SQLite C API, in the manner of SQLiteCpp, which also
// speak to a PostgreSQL server when the database is named by a `postgresql://` URL (db/postgres.hpp
// holds that side). This header, sqlite.cpp and postgres.cpp are the only places that call
// sqlite3_* or libpq functions; everything else in db/ goes through them. The choice of backend is
// made once, when a Database is opened; SQL is written with `?N` parameters for both.
//
// Failures of the database itself (I/O error, corrupt file, disk full, a lock not obtained within
// the busy timeout, a lost server connection) are a broken environment: they throw DbError, which
// carries the backend's message.

#include <cstddef>
#include <cstdint>
#include <chrono>
#include <functional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <memory>

struct sqlite3;
struct sqlite3_stmt;

namespace gounki::db {

class DbError : public std::runtime_error {
public:
    DbError(int code, const std::string& message, std::string sqlstate = {})
        : std::runtime_error(message), code_(code), sqlstate_(std::move(sqlstate)) {}
    // The SQLite primary result code (SQLITE_BUSY, SQLITE_NOTADB, ...), or 0 for our own errors
    // and PostgreSQL's.
    int code() const { return code_; }
    // PostgreSQL's SQLSTATE ("23505" a unique violation, "08006" a lost connection...), or empty.
    const std::string& sqlstate() const { return sqlstate_; }
    // Another connection holds what this one needs (SQLite's busy or locked; PostgreSQL's
    // serialization failure, deadlock or lock timeout): worth trying again.
    bool is_busy() const;
    // The PostgreSQL server went away (SQLSTATE class 08).
    bool is_connection_lost() const { return sqlstate_.starts_with("08"); }

private:
    int code_;
    std::string sqlstate_;
};

class PgConnection;
class PgStatement;
class PgCopy;

// How long a command waits for another program's write lock before it gives up, in milliseconds:
// $GOUNKI_DB_TIMEOUT seconds (a number from 0; default 600, ten minutes, for an importer may hold
// the lock that long). Throws DbError for a value that is not such a number.
int lock_timeout_ms();
// The error when a wait of `timeout_ms` for another program's lock on `where` (a path, or a server
// URL without its password) ran out: what, and what to do. Both backends say it alike.
std::string locked_message(const std::string& where, int timeout_ms);
// After this long waiting for another connection's lock, a connection says so, once per wait,
// through the notice set below (PostgreSQL: a writer waiting for the writers' lock; a wait for a
// lock some other program holds on a table is not told).
inline constexpr int lock_notice_ms = 1500;
// Called with the database's path and the busy timeout (ms) when a connection has waited
// lock_notice_ms for a lock: the commands say on standard error what they wait for. Set once, before
// any connection is opened; called on the waiting connection's thread.
using LockWaitNotice = std::function<void(const std::string& path, int timeout_ms)>;
void set_lock_wait_notice(LockWaitNotice notice);
// Says, through that notice, that a connection to `where` has waited lock_notice_ms for a lock.
void tell_lock_wait(const std::string& where, int timeout_ms);

enum class OpenMode {
    read_only, // never writes; a file that cannot be written is opened as immutable
    read_write, // the file must exist
    create, // read-write, creating the file when it does not exist
};

class Database {
public:
    // A file path opens SQLite; a `postgresql://` URL connects to PostgreSQL (where `create`
    // and `read_write` are the same: the database must exist on the server).
    Database(const std::string& path, OpenMode mode);
    ~Database();
    Database(const Database&) = delete;
    Database& operator=(const Database&) = delete;

    // Runs one or more statements that take no parameters (schema scripts, pragmas).
    void exec(std::string_view sql);
    // A setting of SQLite's (a PRAGMA statement) that PostgreSQL has no use for: run on SQLite only.
    void tune(std::string_view pragma);
    // Another connection to the same database (a file, or the server with the same credentials).
    std::unique_ptr<Database> open_again(OpenMode mode) const;
    // After a lost connection (PostgreSQL): connects again in place (PgConnection::reconnect);
    // nothing to do for an SQLite file.
    void reconnect();
    std::int64_t last_insert_rowid() const;
    int changes() const;
    // How long a writer waits for another connection's lock before giving up (SQLite: waiting in
    // growing steps up to 0.1 s, saying so through the lock wait notice after lock_notice_ms; the
    // error then names the file and the timeout).
    void set_busy_timeout(int milliseconds);
    // What a statement that failed with SQLITE_BUSY (extended code `rc`) says: the path, and for a
    // lock not obtained in time, how long it waited and what to do.
    std::string busy_message(int rc, const char* sqlite_message) const;
    bool read_only() const { return read_only_; }
    // Whether a transaction is open on this connection.
    bool in_transaction() const;
    // The file path, or the URL without its password.
    const std::string& path() const { return path_; }
    bool is_postgres() const { return pg_ != nullptr; }
    // SQLite's handle; null for PostgreSQL.
    sqlite3* handle() const { return db_; }
    PgConnection* postgres() const { return pg_.get(); }

private:
    static int on_busy(void* self, int count); // SQLite's busy handler
    sqlite3* db_ = nullptr;
    std::unique_ptr<PgConnection> pg_;
    int busy_timeout_ms_ = 0;
    std::chrono::steady_clock::time_point wait_start_; // of the current wait for a lock
    bool wait_told_ = false; // the current wait was told through the lock wait notice
    std::string path_;
    std::string url_; // PostgreSQL: the URL as given, password included; never shown
    bool read_only_ = false;
};

// A prepared statement, meant to be kept and reused: bind, step, reset.
class Statement {
public:
    Statement(Database& db, std::string_view sql);
    ~Statement();
    Statement(const Statement&) = delete;
    Statement& operator=(const Statement&) = delete;
    Statement(Statement&& o) noexcept;
    Statement& operator=(Statement&&) = delete;

    // Parameters are numbered from 1, as in SQL (?1, ?2, ...). Text and blobs are copied.
    Statement& bind(int index, std::int64_t value);
    Statement& bind(int index, int value) { return bind(index, std::int64_t(value)); }
    Statement& bind(int index, std::uint64_t value) { return bind(index, std::int64_t(value)); }
    Statement& bind(int index, double value);
    Statement& bind(int index, std::string_view text);
    Statement& bind(int index, const char* text) { return bind(index, std::string_view(text)); }
    Statement& bind(int index, const std::string& text) { return bind(index, std::string_view(text)); }
    Statement& bind_blob(int index, std::span<const std::uint8_t> data);
    Statement& bind_null(int index);
    // Binds NULL when the text is empty: optional text columns store NULL rather than ''.
    Statement& bind_text_or_null(int index, std::string_view text);
    // Without a copy: the caller keeps the bytes alive and unchanged until the next reset().
    Statement& bind_static_text_or_null(int index, std::string_view text);
    Statement& bind_static_blob(int index, std::span<const std::uint8_t> data);

    // Steps once: true when a row is available, false when the statement is done.
    bool step();
    // Steps a statement that returns no rows (INSERT, UPDATE, ...) to its end, then resets it for
    // the next execution (also when it fails).
    void run();
    // Resets for the next execution and clears the bindings. A statement that returns rows is
    // reset by a ResetAtExit guard rather than by hand.
    void reset() noexcept;

    // Columns are numbered from 0, as in SQLite's C API. PostgreSQL's booleans read as 0 and 1.
    int column_count() const;
    // The name of a column of the answer (PostgreSQL: once the first step ran).
    std::string column_name(int column) const;
    // What the current row holds in a column (SQLite: the value's own type; PostgreSQL: the
    // column's type, NULL aside).
    enum class Kind { null, integer, real, text, blob };
    Kind column_kind(int column) const;
    bool is_null(int column) const;
    std::int64_t get_int64(int column) const;
    int get_int(int column) const { return int(get_int64(column)); }
    double get_double(int column) const;
    // Valid until the next step, reset or type conversion of the same column.
    std::string_view get_text(int column) const;
    std::string get_string(int column) const { return std::string(get_text(column)); }
    std::span<const std::uint8_t> get_blob(int column) const;

private:
    void check(int rc) const;
    const Database* database_ = nullptr;
    sqlite3* db_ = nullptr;
    sqlite3_stmt* stmt_ = nullptr;
    std::unique_ptr<PgStatement> pg_; // set instead of stmt_ on a PostgreSQL connection
};

// Resets a statement that returns rows (clearing its bindings) when the scope ends, however it
// ends (the last row read, a break, an exception), so the statement never holds its read open:
//   const ResetAtExit done(st);
//   st.bind(1, id);
//   while (st.step()) ...
class ResetAtExit {
public:
    explicit ResetAtExit(Statement& st) : st_(st) {}
    ~ResetAtExit() { st_.reset(); }
    ResetAtExit(const ResetAtExit&) = delete;
    ResetAtExit& operator=(const ResetAtExit&) = delete;

private:
    Statement& st_;
};

// Many rows for one table, written inside a transaction: the seam through which the import writes
// its rows. On SQLite, a prepared INSERT run per row. On PostgreSQL the rows are gathered and sent
// with COPY ... FROM STDIN (PgCopy) at the latest before the next statement that could see them or
// change what they refer to, and before the commit; so a read sees them as on SQLite. `columns`:
// "a, b, c"; `on_conflict` (an ON CONFLICT clause, or empty) makes each row an upsert.
//   BulkWriter tags(db, "tags", "game_id, seq, name, value");
//   tags.add(id).add(seq).add(name).add(value).end_row();
class BulkWriter {
public:
    BulkWriter(Database& db, std::string_view table, std::string_view columns, std::string_view on_conflict = {});
    ~BulkWriter();
    BulkWriter(const BulkWriter&) = delete;
    BulkWriter& operator=(const BulkWriter&) = delete;

    // The row's values, column by column. Texts and blobs are read by end_row() at the latest:
    // they must stay alive and unchanged until it returns.
    BulkWriter& add(std::int64_t value);
    BulkWriter& add(int value) { return add(std::int64_t(value)); }
    BulkWriter& add(std::uint64_t value) { return add(std::int64_t(value)); }
    BulkWriter& add(double value);
    BulkWriter& add(std::string_view text);
    BulkWriter& add(const char* text) { return add(std::string_view(text)); }
    BulkWriter& add(const std::string& text) { return add(std::string_view(text)); }
    BulkWriter& add_blob(std::span<const std::uint8_t> data);
    BulkWriter& add_null();
    // NULL for empty text, as Statement::bind_text_or_null.
    BulkWriter& add_text_or_null(std::string_view text) { return text.empty() ? add_null() : add(text); }
    // NULL for 0 (an id that names no row).
    BulkWriter& add_id_or_null(std::int64_t id) { return id ? add(id) : add_null(); }
    // Ends the row: written now on SQLite, gathered on PostgreSQL.
    void end_row();
    // Sends the gathered rows now (those of every writer on the connection, in order). Needed
    // before a writer is destroyed with rows it still holds, which are otherwise dropped.
    void flush();

private:
    int next_column();
    std::unique_ptr<Statement> insert_;
    std::unique_ptr<PgCopy> copy_;
    std::string table_;
    int columns_ = 0;
    int column_ = 0;
};

enum class TransactionKind {
    // A reader: a consistent snapshot from the first read (PostgreSQL: REPEATABLE READ).
    deferred,
    // A writer: takes the write lock at once, waiting up to the busy timeout (PostgreSQL: READ
    // COMMITTED and a transaction-level advisory lock).
    immediate,
    // The job queue's claim, and a worker's store (the judgement and the job marked done): on SQLite
    // as immediate (one writer at a time anyway); on PostgreSQL READ COMMITTED without the writers'
    // advisory lock, so that workers wait only for the rows they share (claimers skip even those),
    // never for one another or for an importer.
    job,
};

// Rolls back in the destructor unless commit() ran. Inside a transaction already open on the
// connection it joins that one: its commit and rollback are left to the outer transaction.
class Transaction {
public:
    Transaction(Database& db, TransactionKind kind);
    ~Transaction();
    Transaction(const Transaction&) = delete;
    Transaction& operator=(const Transaction&) = delete;
    void commit();

private:
    Database& db_;
    bool open_ = false; // this object began the transaction and has not ended it
};

} // namespace gounki::db
