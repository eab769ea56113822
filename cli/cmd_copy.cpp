// gounki copy --from DB --to DB: a whole collection between SQLite files and PostgreSQL servers.
#include <QElapsedTimer>

#include <cstdio>

#include "cli/db_options.hpp"
#include "db/copy.hpp"

namespace gounki::cli {

void describe_copy(QCommandLineParser& p) {
    p.addOption({"from", "The database to copy: an SQLite file or a postgresql:// URL.", "path|url"});
    p.addOption({"to", "The database to copy into (created if it is a file that does not exist; it must hold no game).",
                 "path|url"});
}

int run_copy(const QCommandLineParser& p) {
    const Command& self = *find_command("copy");
    if (const int code = refuse_arguments(self, p)) return code;
    if (!p.isSet("from") || !p.isSet("to")) return usage_error(self, "--from and --to are both needed");
    const std::string from = p.value("from").toStdString(), to = p.value("to").toStdString();
    if (from == to) return usage_error(self, "--from and --to name the same database");
    QElapsedTimer timer;
    timer.start();
    try {
        db::GameDatabase source(from, db::Access::read_only);
        db::GameDatabase target(to, db::Access::read_write);
        const db::CopyStats stats = db::copy_collection(source, target, [](std::string_view table, std::int64_t rows) {
            print_info("  " + std::string(table) + ": " + std::to_string(rows) + " rows\n");
        });
        char seconds[32];
        std::snprintf(seconds, sizeof seconds, "%.2f", double(timer.elapsed()) / 1000.0);
        print_info("copied " + std::to_string(stats.games) + " games (" + std::to_string(stats.rows) + " rows) from " +
                   source.sql().path() + " to " + target.sql().path() + " in " + seconds + " s\n");
    } catch (const std::exception& e) { return database_error(self, e); }
    return exit_ok;
}

} // namespace gounki::cli
