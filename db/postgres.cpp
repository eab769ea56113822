#include "db/postgres.hpp"

#include "db/sqlite.hpp"

#include <libpq-fe.h>

#include <algorithm>
#include <bit>
#include <charconv>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cctype>
#include <cstring>
#include <memory>
#include <thread>

namespace gounki::db {

namespace {

constexpr unsigned bytea_oid = 17; // pg_type.h BYTEAOID
constexpr unsigned bool_oid = 16; // BOOLOID

std::string trimmed(const char* text) {
    std::string s = text ? text : "";
    while (!s.empty() && (s.back() == '\n' || s.back() == ' ')) s.pop_back();
    return s;
}

struct ResultFree {
    void operator()(PGresult* r) const { PQclear(r); }
};
using Result = std::unique_ptr<PGresult, ResultFree>;

bool ok(const PGresult* r) {
    const ExecStatusType s = PQresultStatus(r);
    return s == PGRES_COMMAND_OK || s == PGRES_TUPLES_OK || s == PGRES_EMPTY_QUERY;
}

int changed_rows(PGresult* r) {
    const char* n = PQcmdTuples(r);
    return n && *n ? std::atoi(n) : 0;
}

int hex_digit(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

} // namespace

namespace {

// What libpq would find wrong with the URL only when it tries to connect: the URL cannot be read,
// or a port is no number from 1 to 65535 (a list of hosts has a list of ports). Empty: nothing.
std::string url_problem(const std::string& url) {
    char* error = nullptr;
    PQconninfoOption* options = PQconninfoParse(url.c_str(), &error);
    if (!options) {
        std::string why = error ? trimmed(error) : std::string("out of memory");
        PQfreemem(error);
        return why;
    }
    std::string why;
    for (const PQconninfoOption* o = options; o->keyword; ++o) {
        if (std::strcmp(o->keyword, "port") != 0 || !o->val) continue;
        const std::string_view ports(o->val);
        for (std::size_t start = 0; start <= ports.size() && why.empty();) {
            std::size_t end = ports.find(',', start);
            if (end == std::string_view::npos) end = ports.size();
            const std::string_view port = ports.substr(start, end - start);
            int n = 0;
            const auto res = std::from_chars(port.data(), port.data() + port.size(), n);
            if (!port.empty() && (res.ec != std::errc{} || res.ptr != port.data() + port.size() || n < 1 || n > 65535))
                why = "the port '" + std::string(port) + "' is not a number from 1 to 65535";
            start = end + 1;
        }
    }
    PQconninfoFree(options);
    return why;
}

} // namespace

PgConnection::PgConnection(const std::string& url, bool read_only) : url_(url), read_only_(read_only) {
    // A malformed URL is reported at once: trying it again would not mend it.
    if (const std::string why = url_problem(url); !why.empty())
        throw DbError(0, "cannot open database '" + redacted_url(url) + "': " + why);
    connect();
}

void PgConnection::reconnect() {
    PQfinish(conn_);
    conn_ = nullptr;
    copies_.clear(); // what they gathered went with the old session's transaction
    references_.clear();
    sending_ = false;
    connect();
}

void PgConnection::connect() {
    const std::string& url = url_;
    const bool read_only = read_only_;
    // A server that does not answer yet (starting, restarting, a network blip) is tried again,
    // waiting 0.1 s, then twice as long each time up to 2 s, for $GOUNKI_PG_RETRY_SECONDS in all
    // (default 10); a server that answers and refuses (a wrong password, no such database) is not.
    const char* env = std::getenv("GOUNKI_PG_RETRY_SECONDS");
    const double budget = env && *env ? std::max(0.0, std::strtod(env, nullptr)) : 10.0;
    const auto start = std::chrono::steady_clock::now();
    int tries = 0;
    for (int delay_ms = 100;; delay_ms = std::min(2 * delay_ms, 2000)) {
        ++tries;
        conn_ = PQconnectdb(url.c_str());
        if (conn_ && PQstatus(conn_) == CONNECTION_OK) break;
        const std::string why = conn_ ? trimmed(PQerrorMessage(conn_)) : std::string("out of memory");
        PQfinish(conn_);
        conn_ = nullptr;
        const PGPing ping = PQping(url.c_str());
        const bool not_answering = ping == PQPING_NO_RESPONSE || ping == PQPING_REJECT;
        const double waited = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        if (!not_answering || waited + delay_ms / 1000.0 > budget) {
            char over[64] = "";
            if (tries > 1) std::snprintf(over, sizeof over, " (tried %d times over %.1f s)", tries, waited);
            throw DbError(0, "cannot open database '" + redacted_url(url) + "': " + why + over, "08001");
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(delay_ms));
    }
    // The server's notices (an index that already exists, ...) are not the user's business.
    PQsetNoticeProcessor(conn_, [](void*, const char*) {}, nullptr);
    try {
        exec("SET client_encoding = 'UTF8'");
        if (read_only) exec("SET default_transaction_read_only = on");
        // A new session after a lost one waits for locks as the old one did.
        if (lock_timeout_set_) exec("SET lock_timeout = " + std::to_string(std::max(1, lock_timeout_ms_)));
    } catch (...) {
        PQfinish(conn_);
        conn_ = nullptr;
        throw;
    }
}

PgConnection::~PgConnection() { PQfinish(conn_); }

void PgConnection::fail(pg_result* result, std::string_view context) const {
    const Result r(result);
    std::string sqlstate;
    if (r) {
        if (const char* s = PQresultErrorField(r.get(), PG_DIAG_SQLSTATE)) sqlstate = s;
    }
    std::string msg(context);
    if (!msg.empty()) msg += ": ";
    if (PQstatus(conn_) == CONNECTION_BAD) {
        msg += "the connection to the database server was lost (" + trimmed(PQerrorMessage(conn_)) + ")";
        if (sqlstate.empty()) sqlstate = "08006";
    } else if (sqlstate == "55P03") { // lock_not_available: the lock_timeout ran out
        msg = locked_message(redacted_url(url_), lock_timeout_ms_);
    } else {
        const char* text = r ? PQresultErrorField(r.get(), PG_DIAG_MESSAGE_PRIMARY) : nullptr;
        msg += text ? trimmed(text) : trimmed(PQerrorMessage(conn_));
    }
    throw DbError(0, msg, sqlstate);
}

void PgConnection::exec(std::string_view sql) {
    before(sql);
    const std::string text(sql);
    PGresult* r = PQexec(conn_, text.c_str());
    if (!r || !ok(r)) fail(r, "");
    changes_ = changed_rows(r);
    PQclear(r);
}

namespace {

// Whether `sql` holds `name` as a whole word (not as part of a longer identifier).
bool names(std::string_view sql, std::string_view name) {
    const auto ident = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
    for (std::size_t p = sql.find(name); p != std::string_view::npos; p = sql.find(name, p + 1))
        if ((p == 0 || !ident(sql[p - 1])) && (p + name.size() == sql.size() || !ident(sql[p + name.size()]))) return true;
    return false;
}

bool starts_with_word(std::string_view sql, std::string_view word) {
    while (!sql.empty() && std::isspace(static_cast<unsigned char>(sql.front()))) sql.remove_prefix(1);
    if (sql.size() < word.size()) return false;
    for (std::size_t i = 0; i < word.size(); ++i)
        if (std::toupper(static_cast<unsigned char>(sql[i])) != word[i]) return false;
    return sql.size() == word.size() || !std::isalnum(static_cast<unsigned char>(sql[word.size()]));
}

} // namespace

void PgConnection::before(std::string_view sql) {
    if (sending_ || copies_.empty()) return;
    if (starts_with_word(sql, "ROLLBACK")) {
        for (PgCopy* c : copies_) c->drop();
        return;
    }
    bool pending = false, named = false;
    for (const PgCopy* c : copies_) {
        pending |= c->pending();
        named |= c->pending() && names(sql, c->table());
    }
    if (!pending) return;
    if (!named && starts_with_word(sql, "SELECT")) return;
    // An INSERT into a table whose foreign keys name none of the gathered tables cannot see them.
    if (!named && starts_with_word(sql, "INSERT")) {
        bool refers = false;
        for (const std::string& parent : referenced_tables(inserted_table(sql)))
            for (const PgCopy* c : copies_) refers |= c->pending() && c->table() == parent;
        if (!refers) return;
    }
    send_copies();
}

std::string PgConnection::inserted_table(std::string_view sql) {
    std::size_t p = sql.find_first_not_of(" \t\n");
    p += 6; // INSERT
    p = sql.find_first_not_of(" \t\n", p);
    p += 4; // INTO
    p = sql.find_first_not_of(" \t\n", p);
    std::string name;
    while (p < sql.size() && (std::isalnum(static_cast<unsigned char>(sql[p])) || sql[p] == '_')) name += sql[p++];
    return name;
}

const std::vector<std::string>& PgConnection::referenced_tables(const std::string& table) {
    auto it = references_.find(table);
    if (it != references_.end()) return it->second;
    std::vector<std::string> parents;
    const char* values[1] = {table.c_str()};
    PGresult* r = PQexecParams(conn_,
                               "SELECT DISTINCT c.relname FROM pg_constraint k JOIN pg_class c ON c.oid = k.confrelid "
                               "WHERE k.contype = 'f' AND k.conrelid = to_regclass($1)",
                               1, nullptr, values, nullptr, nullptr, 0);
    if (!r || PQresultStatus(r) != PGRES_TUPLES_OK) fail(r, "the foreign keys of " + table);
    for (int i = 0; i < PQntuples(r); ++i) parents.emplace_back(PQgetvalue(r, i, 0));
    PQclear(r);
    return references_.emplace(table, std::move(parents)).first->second;
}

void PgConnection::send_copies() {
    if (sending_) return;
    sending_ = true;
    try {
        for (PgCopy* c : copies_) c->send();
    } catch (...) {
        for (PgCopy* c : copies_) c->drop();
        sending_ = false;
        throw;
    }
    sending_ = false;
}

PgCopy::PgCopy(PgConnection& connection, std::string_view table, std::string_view columns, std::string_view on_conflict)
    : c_(connection), table_(table), columns_(columns), on_conflict_(on_conflict),
      fields_(1 + int(std::count(columns.begin(), columns.end(), ','))) {
    c_.add_copy(this);
}

PgCopy::~PgCopy() { c_.remove_copy(this); }

// COPY's binary form: per row the number of fields (16 bits), per field its length (32 bits, -1
// for NULL) and its bytes, numbers in network byte order: BIGINT 8 bytes, DOUBLE PRECISION the 8
// bytes of the IEEE double, TEXT its UTF-8 bytes, BYTEA the bytes themselves.
void PgCopy::put_be(std::uint64_t value, int bytes) {
    for (int i = bytes - 1; i >= 0; --i) data_ += char((value >> (8 * i)) & 0xff);
}

void PgCopy::separate() {
    if (!row_start_) return;
    put_be(std::uint64_t(fields_), 2);
    row_start_ = false;
}

void PgCopy::add_int64(std::int64_t value) {
    separate();
    put_be(8, 4);
    put_be(std::uint64_t(value), 8);
}

void PgCopy::add_double(double value) {
    separate();
    put_be(8, 4);
    put_be(std::bit_cast<std::uint64_t>(value), 8);
}

void PgCopy::add_text(std::string_view text) {
    separate();
    put_be(text.size(), 4);
    data_.append(text);
}

void PgCopy::add_blob(std::span<const std::uint8_t> data) {
    separate();
    put_be(data.size(), 4);
    data_.append(reinterpret_cast<const char*>(data.data()), data.size());
}

void PgCopy::add_null() {
    separate();
    put_be(0xffffffffu, 4);
}

void PgCopy::end_row() {
    row_start_ = true;
    ++rows_;
    constexpr std::size_t send_at = 16 << 20;
    if (data_.size() >= send_at) c_.send_copies(); // in order: a child's rows never go before its parent's
}

void PgCopy::drop() noexcept {
    data_.clear();
    rows_ = 0;
    row_start_ = true;
}

void PgCopy::send() {
    if (!rows_) return;
    static constexpr char header[19] = {'P', 'G', 'C', 'O', 'P', 'Y', '\n', '\xff', '\r', '\n', '\0'}; // flags, extension: 0
    std::string data(header, sizeof header);
    data += data_;
    data += "\xff\xff"; // the end: a field count of -1
    drop();
    pg_conn* h = c_.handle();
    const std::string target = on_conflict_.empty() ? table_ : "gounki_copy_" + table_;
    if (!on_conflict_.empty())
        c_.exec("CREATE TEMPORARY TABLE IF NOT EXISTS " + target + " (LIKE " + table_ + ") ON COMMIT DELETE ROWS");
    const std::string context = "copying rows into " + table_;
    PGresult* r = PQexec(h, ("COPY " + target + " (" + columns_ + ") FROM STDIN (FORMAT binary)").c_str());
    if (!r || PQresultStatus(r) != PGRES_COPY_IN) c_.fail(r, context);
    PQclear(r);
    constexpr std::size_t chunk = 1 << 20;
    bool sent = true;
    for (std::size_t at = 0; sent && at < data.size(); at += chunk)
        sent = PQputCopyData(h, data.data() + at, int(std::min(chunk, data.size() - at))) == 1;
    // Ending with an error message makes the server give up the COPY, so the connection stays usable.
    PQputCopyEnd(h, sent ? nullptr : "the rows could not be sent");
    r = PQgetResult(h);
    while (PGresult* more = PQgetResult(h)) PQclear(more);
    if (!r || PQresultStatus(r) != PGRES_COMMAND_OK) c_.fail(r, context);
    PQclear(r);
    if (!on_conflict_.empty())
        c_.exec("INSERT INTO " + table_ + " (" + columns_ + ") SELECT " + columns_ + " FROM " + target + " " + on_conflict_ +
                "; TRUNCATE " + target);
}

bool PgConnection::in_transaction() const {
    const PGTransactionStatusType s = PQtransactionStatus(conn_);
    return s == PQTRANS_INTRANS || s == PQTRANS_INERROR || s == PQTRANS_ACTIVE;
}

void PgConnection::begin_locked(std::int64_t key) {
    const std::string lock = "SELECT pg_advisory_xact_lock(" + std::to_string(key) + ")";
    const std::string restore = "; SET LOCAL lock_timeout = " + std::to_string(lock_timeout_ms_);
    const auto start = std::chrono::steady_clock::now();
    try {
        if (lock_timeout_ms_ <= lock_notice_ms) {
            exec("BEGIN; " + lock);
            return;
        }
        // A first wait of lock_notice_ms; when it runs out, the transaction (which holds nothing
        // yet) is begun again after the notice, and the lock waited for over the rest of the timeout.
        try {
            exec("BEGIN; SET LOCAL lock_timeout = " + std::to_string(lock_notice_ms) + "; " + lock + restore);
        } catch (const DbError& e) {
            if (e.sqlstate() != "55P03") throw;
            exec("ROLLBACK");
            tell_lock_wait(redacted_url(url_), lock_timeout_ms_);
            const auto waited = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - start).count();
            exec("BEGIN; SET LOCAL lock_timeout = " + std::to_string(std::max<long long>(1, lock_timeout_ms_ - waited)) + "; " + lock +
                 restore);
        }
    } catch (const DbError&) {
        if (in_transaction()) {
            try {
                exec("ROLLBACK");
            } catch (const DbError&) {
                // The connection is gone: nothing is left open on it.
            }
        }
        throw;
    }
}

void PgConnection::set_lock_timeout(int milliseconds) {
    // lock_timeout 0 waits without end: a timeout of 0 gives up at once, after a millisecond.
    exec("SET lock_timeout = " + std::to_string(std::max(1, milliseconds)));
    lock_timeout_ms_ = std::max(0, milliseconds);
    lock_timeout_set_ = true;
}

std::int64_t PgConnection::last_insert_id() {
    PGresult* r = PQexec(conn_, "SELECT lastval()");
    if (!r || PQresultStatus(r) != PGRES_TUPLES_OK) fail(r, "last inserted id");
    const Result hold(r);
    std::int64_t v = 0;
    const char* s = PQgetvalue(r, 0, 0);
    std::from_chars(s, s + std::strlen(s), v);
    return v;
}

PgStatement::PgStatement(PgConnection& connection, std::string_view sql)
    : c_(connection), name_(connection.next_statement_name()), sql_(sql), sql_head_(sql.substr(0, 60)) {
    int count = 0;
    const std::string text = postgres_parameters(sql, count);
    PGresult* r = PQprepare(c_.handle(), name_.c_str(), text.c_str(), 0, nullptr);
    if (!r || !ok(r)) c_.fail(r, "preparing '" + sql_head_ + "'");
    PQclear(r);
    params_.resize(std::size_t(count));
}

PgStatement::~PgStatement() {
    PQclear(result_);
    if (PQstatus(c_.handle()) != CONNECTION_OK) return;
    // Inside a failed transaction the server refuses every statement until the rollback; the
    // prepared statement then lives until the connection closes, which costs nothing.
    if (PQtransactionStatus(c_.handle()) == PQTRANS_INERROR) return;
    PQclear(PQexec(c_.handle(), ("DEALLOCATE " + name_).c_str()));
}

PgStatement::Param& PgStatement::param(int index) {
    if (index < 1 || std::size_t(index) > params_.size())
        throw DbError(0, "parameter " + std::to_string(index) + " out of range in '" + sql_head_ + "'", "42P02");
    return params_[std::size_t(index - 1)];
}

void PgStatement::bind_int64(int index, std::int64_t value) {
    Param& p = param(index);
    p.value = std::to_string(value);
    p.null = p.binary = false;
}

void PgStatement::bind_double(int index, double value) {
    Param& p = param(index);
    char buf[32];
    const auto res = std::to_chars(buf, buf + sizeof buf, value); // shortest form that reads back the same
    p.value.assign(buf, res.ptr);
    p.null = p.binary = false;
}

void PgStatement::bind_text(int index, std::string_view text) {
    Param& p = param(index);
    p.value.assign(text);
    p.null = p.binary = false;
}

void PgStatement::bind_blob(int index, std::span<const std::uint8_t> data) {
    Param& p = param(index);
    p.value.assign(reinterpret_cast<const char*>(data.data()), data.size());
    p.null = false;
    p.binary = true;
}

void PgStatement::bind_null(int index) { param(index).null = true; }

bool PgStatement::step() {
    if (ran_) return ++row_ < rows_;
    c_.before(sql_);
    const std::size_t n = params_.size();
    std::vector<const char*> values(n);
    std::vector<int> lengths(n), formats(n);
    for (std::size_t i = 0; i < n; ++i) {
        values[i] = params_[i].null ? nullptr : params_[i].value.data();
        lengths[i] = int(params_[i].value.size());
        formats[i] = params_[i].binary ? 1 : 0;
    }
    PGresult* r = PQexecPrepared(c_.handle(), name_.c_str(), int(n), values.data(), lengths.data(), formats.data(), 0);
    if (!r || !ok(r)) c_.fail(r, "");
    result_ = r;
    ran_ = true;
    c_.set_changes(changed_rows(r));
    rows_ = PQntuples(r);
    row_ = 0;
    blobs_.assign(std::size_t(PQnfields(r)), {});
    blob_row_.assign(std::size_t(PQnfields(r)), -1);
    return rows_ > 0;
}

void PgStatement::reset() noexcept {
    PQclear(result_);
    result_ = nullptr;
    ran_ = false;
    row_ = -1;
    rows_ = 0;
    for (Param& p : params_) {
        p.null = true;
        p.value.clear();
    }
}

void PgStatement::check_row(int column) const {
    if (!result_ || row_ < 0 || row_ >= rows_ || column < 0 || column >= PQnfields(result_))
        throw DbError(0, "no column " + std::to_string(column) + " in the current row of '" + sql_head_ + "'", "");
}

int PgStatement::column_count() const { return result_ ? PQnfields(result_) : 0; }
std::string PgStatement::column_name(int column) const {
    const char* name = result_ ? PQfname(result_, column) : nullptr;
    return name ? name : "";
}

int PgStatement::column_kind(int column) const {
    if (is_null(column)) return 0;
    switch (PQftype(result_, column)) {
    case bool_oid:
    case 20: // int8
    case 21: // int2
    case 23: return 1; // int4
    case 700: // float4
    case 701: // float8
    case 1700: return 2; // numeric
    case bytea_oid: return 4;
    default: return 3;
    }
}

bool PgStatement::is_null(int column) const {
    check_row(column);
    return PQgetisnull(result_, row_, column) == 1;
}

std::int64_t PgStatement::get_int64(int column) const {
    if (is_null(column)) return 0;
    const char* s = PQgetvalue(result_, row_, column);
    if (PQftype(result_, column) == bool_oid) return *s == 't' ? 1 : 0;
    std::int64_t v = 0;
    const char* end = s + PQgetlength(result_, row_, column);
    const auto res = std::from_chars(s, end, v);
    if (res.ec != std::errc{} || (res.ptr != end && *res.ptr != '.')) // numeric sums come as "12" or "12.0"
        return std::int64_t(std::strtod(s, nullptr));
    return v;
}

double PgStatement::get_double(int column) const {
    if (is_null(column)) return 0;
    const char* s = PQgetvalue(result_, row_, column);
    return std::strtod(s, nullptr);
}

std::string_view PgStatement::get_text(int column) const {
    if (is_null(column)) return {};
    return {PQgetvalue(result_, row_, column), std::size_t(PQgetlength(result_, row_, column))};
}

std::span<const std::uint8_t> PgStatement::get_blob(int column) const {
    if (is_null(column)) return {};
    const char* s = PQgetvalue(result_, row_, column);
    const std::size_t len = std::size_t(PQgetlength(result_, row_, column));
    if (PQftype(result_, column) != bytea_oid) return {reinterpret_cast<const std::uint8_t*>(s), len};
    std::vector<std::uint8_t>& out = blobs_[std::size_t(column)];
    if (blob_row_[std::size_t(column)] != row_) {
        // The server's hex form: \x followed by two hex digits a byte (bytea_output = hex, the default).
        if (len < 2 || s[0] != '\\' || s[1] != 'x')
            throw DbError(0, "a bytea value not in hex form in '" + sql_head_ + "' (set bytea_output = hex)", "");
        out.resize((len - 2) / 2);
        for (std::size_t i = 0; i < out.size(); ++i) {
            const int hi = hex_digit(s[2 + 2 * i]), lo = hex_digit(s[3 + 2 * i]);
            if (hi < 0 || lo < 0) throw DbError(0, "a malformed bytea value in '" + sql_head_ + "'", "");
            out[i] = std::uint8_t(hi << 4 | lo);
        }
        blob_row_[std::size_t(column)] = row_;
    }
    return out;
}

} // namespace gounki::db
