#include "db/postgres.hpp"

#include "db/sqlite.hpp"

#include <libpq-fe.h>

#include <charconv>
#include <cstdlib>
#include <cstring>
#include <memory>

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

bool is_postgres_url(std::string_view name) {
    return name.starts_with("postgresql://") || name.starts_with("postgres://");
}

std::string redacted_url(std::string_view url) {
    std::string out(url);
    // user:secret@host
    const std::size_t scheme = out.find("://");
    if (scheme != std::string::npos) {
        const std::size_t start = scheme + 3;
        const std::size_t at = out.find('@', start);
        const std::size_t slash = out.find('/', start);
        if (at != std::string::npos && (slash == std::string::npos || at < slash)) {
            const std::size_t colon = out.find(':', start);
            if (colon != std::string::npos && colon < at) out.replace(colon + 1, at - colon - 1, "***");
        }
    }
    // ?password=secret&...
    for (std::size_t p = out.find("password="); p != std::string::npos; p = out.find("password=", p + 1)) {
        if (p > 0 && out[p - 1] != '?' && out[p - 1] != '&') continue;
        const std::size_t v = p + 9;
        const std::size_t end = out.find('&', v);
        out.replace(v, (end == std::string::npos ? out.size() : end) - v, "***");
    }
    return out;
}

std::string postgres_parameters(std::string_view sql, int& count) {
    std::string out;
    out.reserve(sql.size() + 8);
    count = 0;
    int bare = 0;
    for (std::size_t i = 0; i < sql.size(); ++i) {
        const char c = sql[i];
        if (c == '\'' || c == '"') { // a literal or a quoted name, with doubled quotes inside
            const std::size_t close = sql.find(c, i + 1);
            const std::size_t end = close == std::string_view::npos ? sql.size() : close + 1;
            out.append(sql.substr(i, end - i));
            i = end - 1;
        } else if (c == '-' && i + 1 < sql.size() && sql[i + 1] == '-') {
            const std::size_t nl = sql.find('\n', i);
            const std::size_t end = nl == std::string_view::npos ? sql.size() : nl;
            out.append(sql.substr(i, end - i));
            i = end - 1;
        } else if (c == '?') {
            std::size_t j = i + 1;
            int n = 0;
            while (j < sql.size() && sql[j] >= '0' && sql[j] <= '9') n = n * 10 + (sql[j++] - '0');
            if (j == i + 1) n = ++bare;
            out += '$';
            out += std::to_string(n);
            count = std::max(count, n);
            i = j - 1;
        } else {
            out += c;
        }
    }
    return out;
}

PgConnection::PgConnection(const std::string& url, bool read_only) {
    conn_ = PQconnectdb(url.c_str());
    if (!conn_ || PQstatus(conn_) != CONNECTION_OK) {
        std::string msg = "cannot open database '" + redacted_url(url) + "': " +
            (conn_ ? trimmed(PQerrorMessage(conn_)) : std::string("out of memory"));
        PQfinish(conn_);
        conn_ = nullptr;
        throw DbError(0, msg, "08001");
    }
    // The server's notices (an index that already exists, ...) are not the user's business.
    PQsetNoticeProcessor(conn_, [](void*, const char*) {}, nullptr);
    try {
        exec("SET client_encoding = 'UTF8'");
        if (read_only) exec("SET default_transaction_read_only = on");
    } catch (...) {
        PQfinish(conn_);
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
    } else {
        const char* text = r ? PQresultErrorField(r.get(), PG_DIAG_MESSAGE_PRIMARY) : nullptr;
        msg += text ? trimmed(text) : trimmed(PQerrorMessage(conn_));
    }
    throw DbError(0, msg, sqlstate);
}

void PgConnection::exec(std::string_view sql) {
    const std::string text(sql);
    PGresult* r = PQexec(conn_, text.c_str());
    if (!r || !ok(r)) fail(r, "");
    changes_ = changed_rows(r);
    PQclear(r);
}

bool PgConnection::in_transaction() const {
    const PGTransactionStatusType s = PQtransactionStatus(conn_);
    return s == PQTRANS_INTRANS || s == PQTRANS_INERROR || s == PQTRANS_ACTIVE;
}

void PgConnection::set_lock_timeout(int milliseconds) { exec("SET lock_timeout = " + std::to_string(std::max(0, milliseconds))); }

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
    : c_(connection), name_(connection.next_statement_name()), sql_head_(sql.substr(0, 60)) {
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
