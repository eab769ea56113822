#pragma once
// The PostgreSQL side of the SQL layer (db/sqlite.hpp): a connection and a prepared statement over
// libpq, with the calls of SQLite's wrappers (bind, step, reset, get), so that db/ code written
// against Database and Statement runs on either. Only db/sqlite.cpp uses these classes; this file
// and postgres.cpp are the only places that call libpq.
//
// Parameters are written `?1`, `?2`... as in SQLite and become `$1`, `$2`... here. Values travel as
// text except blobs (binary); results come back as text, bytea decoded from its hex form.
// Credentials come from the URL, PGPASSFILE or the environment, and are never part of a message.

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

struct pg_conn;
struct pg_result;

namespace gounki::db {

// Whether a database name is a PostgreSQL connection URL (`postgresql://...` or `postgres://...`).
bool is_postgres_url(std::string_view name);
// The URL with its password (`user:secret@`, `password=secret`) replaced by `***`: what messages show.
std::string redacted_url(std::string_view url);
// `?N` parameters (and bare `?`, numbered in order) as `$N`, outside quotes and comments. `count`
// gets the highest parameter number.
std::string postgres_parameters(std::string_view sql, int& count);
// A schema script written for SQLite (db/schema.sql and the migrations) as PostgreSQL runs it:
// PRAGMA lines dropped, STRICT and WITHOUT ROWID dropped, INTEGER as BIGINT (a single-column
// INTEGER PRIMARY KEY as an identity column), REAL as DOUBLE PRECISION, BLOB as BYTEA.
std::string postgres_ddl(std::string_view sql);
// The SQL functions the queries use that PostgreSQL lacks: instr (SQLite's built-in) and
// gounki_fold (db/fold.hpp, which SQLite calls in C++): normalized (NFKD), lower case (ICU), marks
// removed, ß as ss and the final sigma as σ (what case folding does beyond lower case), dashes and
// typographic quotes as ASCII. It agrees with fold_text on names written in Latin, Greek and
// Cyrillic letters (tested), not necessarily on every script.
std::string_view postgres_functions();

class PgCopy;

class PgConnection {
public:
    // Throws DbError when the server cannot be reached or refuses the login. A read-only
    // connection refuses every write (default_transaction_read_only).
    PgConnection(const std::string& url, bool read_only);
    ~PgConnection();
    // After a lost connection: connects again in place (the same URL and access, the server tried
    // again as the constructor does); objects that refer to this connection stay valid, but the
    // statements prepared on the old session are gone (using one fails with a DbError).
    void reconnect();
    PgConnection(const PgConnection&) = delete;
    PgConnection& operator=(const PgConnection&) = delete;

    // One or more statements without parameters.
    void exec(std::string_view sql);
    bool in_transaction() const;
    // BEGIN, then the transaction-level advisory lock `key`, waiting up to the lock timeout; after
    // lock_notice_ms of waiting it says so (tell_lock_wait), once. On an error the transaction is
    // rolled back before the DbError goes on.
    void begin_locked(std::int64_t key);
    // How long a statement waits for a lock another connection holds (lock_timeout); 0: forever.
    void set_lock_timeout(int milliseconds);
    // Rows changed by the last INSERT, UPDATE or DELETE run on this connection.
    int changes() const { return changes_; }
    // The value the last INSERT gave a serial or identity column (lastval()).
    std::int64_t last_insert_id();

    pg_conn* handle() const { return conn_; }
    std::string next_statement_name() { return "gounki_" + std::to_string(++statements_); }
    void set_changes(int n) { changes_ = n; }
    // Throws DbError for a failed result (which it frees), with the server's message and SQLSTATE.
    [[noreturn]] void fail(pg_result* result, std::string_view context) const;

    // The rows PgCopy objects gather wait until a statement could see them or change what they
    // refer to: then every copy's rows are sent, in the order the copies were made (a child
    // table's rows after its parent's). `sql` is what is about to run: a SELECT that names none of
    // the gathered tables, and an INSERT that names none and goes into a table whose foreign keys
    // name none of them, let them wait; anything else (the commit among them) does not. A rollback drops them.
    void before(std::string_view sql);
    void send_copies();
    void add_copy(PgCopy* copy) { copies_.push_back(copy); }
    void remove_copy(PgCopy* copy) { std::erase(copies_, copy); }

private:
    // The table an `INSERT INTO table ...` writes, and the tables its foreign keys name (asked of
    // the server once per table).
    static std::string inserted_table(std::string_view sql);
    const std::vector<std::string>& referenced_tables(const std::string& table);

    std::vector<PgCopy*> copies_;
    std::unordered_map<std::string, std::vector<std::string>> references_;
    bool sending_ = false;
    void connect(); // to url_, as the constructor says
    pg_conn* conn_ = nullptr;
    std::string url_; // as given, password included: never shown
    bool read_only_ = false;
    int changes_ = 0;
    int lock_timeout_ms_ = 0; // of set_lock_timeout: named when a wait for a lock runs out
    bool lock_timeout_set_ = false; // set_lock_timeout ran: a reconnection sets it again
    std::uint64_t statements_ = 0;
};

// Rows for one table gathered in COPY's binary form and sent with one `COPY table (columns) FROM
// STDIN` when the connection needs them (PgConnection::before), or when a few megabytes gathered.
// With an ON CONFLICT clause the rows go to a temporary table first, then into the table by
// `INSERT ... SELECT ... ON CONFLICT`: an upsert of many rows in three round trips.
class PgCopy {
public:
    PgCopy(PgConnection& connection, std::string_view table, std::string_view columns, std::string_view on_conflict);
    ~PgCopy();
    PgCopy(const PgCopy&) = delete;
    PgCopy& operator=(const PgCopy&) = delete;

    // The columns must be BIGINT for add_int64 and DOUBLE PRECISION for add_double (the schema's
    // INTEGER and REAL on PostgreSQL): the binary form carries no conversion.
    void add_int64(std::int64_t value);
    void add_double(double value);
    void add_text(std::string_view text);
    void add_blob(std::span<const std::uint8_t> data);
    void add_null();
    void end_row();
    // Sends the gathered rows now; on failure they are dropped (the transaction is lost anyway).
    void send();
    void drop() noexcept;
    // Sends the rows of every copy of the connection, in order.
    void send_all() { c_.send_copies(); }
    bool pending() const { return rows_ > 0; }
    const std::string& table() const { return table_; }

private:
    void separate(); // starts a row with its field count
    void put_be(std::uint64_t value, int bytes);

    PgConnection& c_;
    std::string table_, columns_, on_conflict_;
    std::string data_;
    std::int64_t rows_ = 0;
    int fields_ = 0;
    bool row_start_ = true;
};

class PgStatement {
public:
    PgStatement(PgConnection& connection, std::string_view sql);
    ~PgStatement();
    PgStatement(const PgStatement&) = delete;
    PgStatement& operator=(const PgStatement&) = delete;

    void bind_int64(int index, std::int64_t value);
    void bind_double(int index, double value);
    void bind_text(int index, std::string_view text);
    void bind_blob(int index, std::span<const std::uint8_t> data);
    void bind_null(int index);

    // The first step runs the statement; each step then moves to the next row.
    bool step();
    void reset() noexcept;

    int column_count() const;
    std::string column_name(int column) const;
    // 0 NULL, 1 integer, 2 real, 3 text, 4 blob (Statement::Kind's order).
    int column_kind(int column) const;
    bool is_null(int column) const;
    std::int64_t get_int64(int column) const;
    double get_double(int column) const;
    std::string_view get_text(int column) const;
    std::span<const std::uint8_t> get_blob(int column) const;

private:
    struct Param {
        std::string value;
        bool null = true;
        bool binary = false;
    };
    Param& param(int index);
    void check_row(int column) const;

    PgConnection& c_;
    std::string name_;
    std::string sql_; // for PgConnection::before
    std::string sql_head_; // the start of the SQL, for messages
    std::vector<Param> params_;
    pg_result* result_ = nullptr;
    int row_ = -1;
    int rows_ = 0;
    bool ran_ = false;
    mutable std::vector<std::vector<std::uint8_t>> blobs_; // decoded bytea of the current row, per column
    mutable std::vector<int> blob_row_;
};

} // namespace gounki::db
