// gounki import [--db PATH] [--keep-duplicates] [--reject-broken] [--replace] [--json] FILE...
// Options and printing only: reading, parsing and storing the games is pipeline/import.hpp.
#include <QElapsedTimer>
#include <fstream>
#include <filesystem>
#include <cstring>
#include <functional>
#include <algorithm>
#include <cerrno>
#include <QJsonArray>
#include <QJsonObject>

#include <cstdio>
#include <string>
#include <vector>

#include "cli/db_options.hpp"
#include "cli/json_lines.hpp"
#include "cli/progress.hpp"
#include "cli/views.hpp"
#include "core/stones/symmetry.hpp"
#include "db/import.hpp"
#include "parser/formats.hpp"
#include "parser/record.hpp"
#include "pipeline/import.hpp"

namespace gounki::cli {

void describe_import(QCommandLineParser& p) {
    add_db_option(p);
    p.addOption({"keep-duplicates",
                 "Store games that duplicate a stored one (same players, result and moves); they are still reported."});
    p.addOption({"reject-broken",
                 "Do not store broken games (illegal moves, contradicting results...); by default they are stored "
                 "as partial or invalid with their diagnostics."});
    p.addOption({"replace",
                 "A game that matches one stored game replaces it, keeping its id: the game stored from the same file "
                 "and line, else the one with the same players, date, game and first 10 plies. Its judgements go."});
    p.addOption({"batch", "Games per transaction (default 50000).", "N", "50000"});
    p.addOption({"json", "Print JSON lines: one per noteworthy game or file problem, then a summary."});
    add_format_option(p);
    add_as_tree_option(p);
    add_notation_option(p, true);
    p.addPositionalArgument("FILE",
                            "Record files to import: GPN (docs/rules.md 1.8), SGF of the stone games, Piskvork PSQ "
                            "(docs/rules.md 4), told by their content, else by their name; a folder for every record file "
                            "below it; an archive or a compressed file (zip, tar.gz, 7z, .pgn.gz...) for the record files in it "
                            "(docs/rules.md 4.7); - reads standard input.",
                            "FILE...");
}

namespace {

std::string report_text(const db::ImportReport& r) {
    // A game of a binary file (a RenLib library) has no line.
    std::string t = parser::escape_controls(r.source_file);
    if (r.source_line > 0) t.append(":").append(std::to_string(r.source_line));
    t += ": ";
    auto ids = [](const std::vector<std::int64_t>& v) {
        std::string s;
        for (auto id : v) s += (s.empty() ? "" : ", ") + std::to_string(id);
        return s;
    };
    // " turned a half", " mirrored left to right": how the stored game lies in this record.
    auto turned = [](const db::ImportReport& rep) {
        return rep.symmetry ? " " + std::string(stones::symmetry_name(rep.symmetry)) : std::string();
    };
    // "game 7", "games 7, 9"
    auto games = [&](const std::vector<std::int64_t>& v) { return (v.size() == 1 ? "game " : "games ") + ids(v); };
    switch (r.action) {
    case db::ImportAction::stored:
        t += "stored as game " + std::to_string(r.game_id);
        if (r.status != db::GameStatus::valid) t += " (" + std::string(db::status_name(r.status)) + ")";
        if (r.other_id) t += ", a duplicate of game " + std::to_string(r.other_id) + turned(r);
        if (!r.prefix_of.empty()) t += "; its moves are a prefix of " + games(r.prefix_of);
        if (!r.has_prefix.empty())
            t += "; the moves of " + games(r.has_prefix) + (r.has_prefix.size() == 1 ? " are a prefix" : " are prefixes") + " of its moves";
        if (!r.same_moves.empty()) t += "; " + games(r.same_moves) + (r.same_moves.size() == 1 ? " has" : " have") + " the same moves";
        break;
    case db::ImportAction::duplicate: t += "duplicate of game " + std::to_string(r.other_id) + turned(r) + ", skipped"; break;
    case db::ImportAction::already_imported:
        t += "already imported as game " + std::to_string(r.other_id);
        if (!r.reason.empty()) t += ", " + r.reason;
        break;
    case db::ImportAction::rejected: t += "rejected: " + r.reason; break;
    case db::ImportAction::replaced:
        t += "replaced game " + std::to_string(r.game_id);
        if (r.status != db::GameStatus::valid) t += " (" + std::string(db::status_name(r.status)) + ")";
        break;
    }
    return t + "\n";
}

// The summary line: JSON, or text on stderr (none under --quiet).
void print_summary(const QCommandLineParser& p, const db::ImportStats& s, double seconds, bool io_errors) {
    if (p.isSet("json")) {
        QJsonObject o = import_stats_json(s);
        o.insert("database", QString::fromStdString(db::redacted_url(db_path(p))));
        o.insert("seconds", seconds);
        o.insert("phases_s", import_phases_json(s));
        o.insert("io_errors", io_errors);
        print_json_line(o);
        return;
    }
    char line[320];
    std::snprintf(line, sizeof line,
                  " %lld stored (%lld broken), %lld duplicates, %lld already imported, %lld rejected, "
                  "%lld flagged as prefixes; %.2f s, %.0f games/s\n",
                  static_cast<long long>(s.stored), static_cast<long long>(s.broken), static_cast<long long>(s.duplicates),
                  static_cast<long long>(s.already_imported), static_cast<long long>(s.rejected),
                  static_cast<long long>(s.prefix_flagged), seconds, seconds > 0 ? double(s.added) / seconds : 0.0);
    std::string replaced;
    if (p.isSet("replace")) replaced.append(" ").append(std::to_string(s.replaced)).append(" replaced,");
    print_info(counted(s.added, "game") + " read:" + replaced + line);
}

} // namespace

namespace {

// The options read into `request` (false: a usage error, said); files that cannot be opened are
// taken out of it into `unreadable`, before the database is opened: an import of nothing readable
// leaves no new empty database behind.
bool read_import_request(const Command& self, const QCommandLineParser& p, pipeline::ImportRequest& request,
                         std::vector<parser::Diagnostic>& unreadable) {
    bool ok = false;
    const int batch = p.value("batch").toInt(&ok);
    if (!ok || batch < 1) return usage_error(self, "--batch takes a whole number from 1"), false;
    if (!read_notation(self, p, true, request.notation)) return false;
    if (!read_format(self, p, request.format)) return false;
    request.files = input_files(p.positionalArguments(), request.format, unreadable);
    request.renlib_tree = p.isSet("as-tree");
    request.options.keep_duplicates = p.isSet("keep-duplicates");
    request.options.reject_broken = p.isSet("reject-broken");
    request.options.replace = p.isSet("replace");
    request.options.batch_games = std::size_t(batch);
    std::erase_if(request.files, [&](const std::string& file) {
        std::error_code ec;
        if (file == "-" || (std::ifstream(file, std::ios::binary) && !std::filesystem::is_directory(file, ec))) return false;
        const std::string why = std::filesystem::is_directory(file, ec) ? "it is a directory" : std::strerror(errno);
        unreadable.push_back(parser::file_diagnostic("io-error", file, "cannot read the file: " + why));
        return true;
    });
    return true;
}

// The import, carried on after a lost connection (PostgreSQL): the batch under way was rolled back
// whole; the files are read again on a new connection and the games stored before it are skipped
// as already imported. Not with --keep-duplicates (they would be stored twice) or standard input
// (it cannot be read again). `lost` is called before each new try.
pipeline::ImportResult import_carrying_on(std::unique_ptr<db::GameDatabase>& database, const QCommandLineParser& p,
                                          const pipeline::ImportRequest& request, const pipeline::ImportEvents& events,
                                          const std::function<void(const std::exception&)>& lost) {
    const bool can_repeat =
        !request.options.keep_duplicates && std::find(request.files.begin(), request.files.end(), "-") == request.files.end();
    for (int tries = 1;; ++tries) {
        try {
            return pipeline::import_files(*database, request, events);
        } catch (const std::exception& e) {
            if (!connection_lost(e) || !can_repeat || tries == 3) throw;
            lost(e);
            database.reset();
            database = connect_again("import", db_path(p), db::Access::read_write, 120);
        }
    }
}

} // namespace

int run_import(const QCommandLineParser& p) {
    const Command& self = *find_command("import");
    if (p.positionalArguments().isEmpty()) return usage_error(self, "expected at least one FILE to import");
    const bool json = p.isSet("json");
    pipeline::ImportRequest request;
    std::vector<parser::Diagnostic> folder_errors;
    if (!read_import_request(self, p, request, folder_errors)) return exit_usage;
    if (request.files.empty()) {
        for (const parser::Diagnostic& d : folder_errors)
            json ? print_json_line(diagnostic_json(d)) : print_err(parser::format_diagnostic(d) + "\n");
        print_err("gounki import: nothing to import; the database was not opened\n");
        return exit_usage;
    }
    const std::uint64_t total_bytes = pipeline::input_bytes(request.files);

    auto database = open_database(self, p, db::Access::read_write, true);
    if (!database) return exit_usage;

    std::int64_t findings = 0;
    Progress progress("games", json ? 0 : total_bytes, true);
    QElapsedTimer timer;
    timer.start();
    // After a lost connection the files are read again: what was said of the games read before is
    // not said twice (their diagnostics come before their reports, in file order).
    std::int64_t reports = 0, said = 0;
    const auto repeated = [&] { return reports < said; };
    pipeline::ImportEvents events;
    events.report = [&](const db::ImportReport& r) {
        const bool again = repeated();
        ++reports;
        if (again || !r.noteworthy()) return;
        // Replacing is what --replace asked for: not a finding.
        if (r.action != db::ImportAction::already_imported && r.action != db::ImportAction::replaced) ++findings;
        progress.clear();
        if (json) print_json_line(import_report_json(r));
        else print_out(report_text(r));
    };
    events.diagnostic = [&](const parser::Diagnostic& d) {
        if (repeated()) return;
        progress.clear();
        if (json) print_json_line(diagnostic_json(d));
        else print_err(parser::format_diagnostic(d) + "\n");
    };
    events.progress = [&](std::int64_t games, std::uint64_t bytes) { progress.update(std::uint64_t(games), bytes); };
    bool io_errors = !folder_errors.empty();
    for (const parser::Diagnostic& d : folder_errors) events.diagnostic(d);
    try {
        const pipeline::ImportResult result = import_carrying_on(database, p, request, events, [&](const std::exception& e) {
            progress.clear();
            print_err("gounki import: the connection to the database was lost (" + std::string(e.what()) +
                      "); connecting again and reading the files again (the games already stored are skipped)\n");
            said = std::max(said, reports);
            reports = 0;
        });
        io_errors = io_errors || result.io_errors;
        progress.update(std::uint64_t(result.stats.added), total_bytes, true);
        progress.clear();
        print_summary(p, result.stats, double(timer.nsecsElapsed()) / 1e9, io_errors);
    } catch (const std::exception& e) {
        progress.clear();
        return database_error(self, e);
    }
    if (io_errors) return exit_usage;
    return findings ? exit_findings : exit_ok;
}

} // namespace gounki::cli
