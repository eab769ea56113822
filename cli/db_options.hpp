#pragma once
// What the database commands (import, search, tree, games, show, export, delete, dbbench) share:
// the --db option, tag filters, paging, opening the database with a clear error, game lines.

#include <QCommandLineParser>
#include <QJsonArray>
#include <QJsonObject>

#include <memory>
#include <string>

#include "cli/command.hpp"
#include "db/game_db.hpp"
#include "db/import.hpp"

namespace gounki::cli {

// --db PATH; the default is $GOUNKI_DB, else ./gounki.db.
void add_db_option(QCommandLineParser& p);
std::string db_path(const QCommandLineParser& p);

// --white --black --player --event --result --from --to
void add_filter_options(QCommandLineParser& p);
// False (after printing a usage error into exit_code) when a value is malformed.
bool read_filter(const Command& cmd, const QCommandLineParser& p, db::GameFilter& out, int& exit_code);

// --limit N (0: all) --offset N
void add_paging_options(QCommandLineParser& p, int default_limit);
bool read_paging(const Command& cmd, const QCommandLineParser& p, db::Paging& out, int& exit_code);

// Opens the database; on failure prints "gounki CMD: message" and returns null (exit_usage).
std::unique_ptr<db::GameDatabase> open_database(const Command& cmd, const QCommandLineParser& p, db::Access access);
// Prints a database error raised while a command ran; returns exit_usage.
int database_error(const Command& cmd, const std::exception& e);

QJsonObject summary_json(const db::GameSummary& g);
QJsonObject filter_json(const db::GameFilter& f);
// Where an import's time went, in seconds (db::ImportStats), for `import --json` and `dbbench`.
QJsonObject import_phases_json(const db::ImportStats& s);
// A table of games: id, white, black, date, result, plies (and the matching ply when `with_ply`).
std::string games_table(const std::vector<db::GameSummary>& games, bool with_ply);
// "showing 1-50 of 1234; --offset 50 for more" and the like, or empty when all are shown.
std::string paging_note(std::int64_t shown, std::int64_t total, const db::Paging& paging);

} // namespace gounki::cli
