#include "db/copy.hpp"

#include <string>

namespace gounki::db {

namespace {

std::int64_t count_rows(Database& db, const std::string& table) {
    Statement st(db, "SELECT count(*) FROM " + table);
    return st.step() ? st.get_int64(0) : 0;
}

// The rows of one table, column for column in the schema's order (both backends run the same
// migrations, so a table's columns come in the same order on both).
std::int64_t copy_table(Database& from, Database& to, const std::string& table) {
    // meta: the settings of the collection; the schema's own rows stay the target's.
    const bool meta = table == "meta";
    Statement read(from, meta ? "SELECT name, value FROM meta WHERE name NOT IN ('schema_version', 'application_id')"
                              : "SELECT * FROM " + table);
    std::int64_t rows = 0;
    std::unique_ptr<BulkWriter> write; // COPY on PostgreSQL
    while (read.step()) {
        const int n = read.column_count();
        if (!write) {
            std::string columns;
            for (int c = 0; c < n; ++c) columns += (c ? ", " : "") + read.column_name(c);
            write = std::make_unique<BulkWriter>(to, table, columns,
                                                 meta ? "ON CONFLICT (name) DO UPDATE SET value = excluded.value" : "");
        }
        for (int c = 0; c < n; ++c) {
            switch (read.column_kind(c)) {
            case Statement::Kind::null: write->add_null(); break;
            case Statement::Kind::integer: write->add(read.get_int64(c)); break;
            case Statement::Kind::real: write->add(read.get_double(c)); break;
            case Statement::Kind::text: write->add(read.get_text(c)); break;
            case Statement::Kind::blob: write->add_blob(read.get_blob(c)); break;
            }
        }
        write->end_row();
        ++rows;
    }
    if (write) write->flush();
    return rows;
}

} // namespace

CopyStats copy_collection(GameDatabase& from, GameDatabase& to,
                          const std::function<void(std::string_view table, std::int64_t rows)>& progress) {
    Database& src = from.sql();
    Database& dst = to.sql();
    Transaction reading(src, TransactionKind::deferred);
    Transaction writing(dst, TransactionKind::immediate);
    if (const std::int64_t there = count_rows(dst, "games"); there > 0)
        throw DbError(0, "'" + dst.path() + "' already holds " + std::to_string(there) +
                             " games: copy writes into a new or empty database only");
    // An empty target may still hold what an import of nothing left (index runs, tree rows).
    for (auto it = std::rbegin(collection_tables); it != std::rend(collection_tables); ++it)
        if (std::string_view(*it) != "meta") dst.exec(std::string("DELETE FROM ") + *it);
    CopyStats stats;
    for (const char* table : collection_tables) {
        const std::int64_t rows = copy_table(src, dst, table);
        stats.rows += rows;
        if (std::string_view(table) == "games") stats.games = rows;
        if (progress) progress(table, rows);
    }
    // PostgreSQL's identity columns hand out ids from a sequence, which the copied ids passed by.
    if (dst.is_postgres())
        for (const char* table : {"players", "events", "sources", "games", "position_runs", "analysis_settings", "jobs"})
            dst.exec(std::string("SELECT setval(pg_get_serial_sequence('") + table + "', 'id'), coalesce(max(id), 0) + 1, false) FROM " +
                     table);
    writing.commit();
    reading.commit();
    return stats;
}

} // namespace gounki::db
