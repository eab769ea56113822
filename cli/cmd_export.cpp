// gounki export [--db PATH] [IDS... | filters | --all] [--format gpn|sgf|psq] -o FILE|DIR [--json]
// Without ids or filters, every game.
#include <QJsonDocument>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>

#include "cli/db_options.hpp"
#include "db/record_bridge.hpp"
#include "parser/formats.hpp"
#include "pipeline/output_file.hpp"

namespace gounki::cli {

using pipeline::OutputFile;
using pipeline::same_file;

void describe_export(QCommandLineParser& p) {
    add_db_option(p);
    add_game_choice_options(p, "export (none: every game)");
    p.addOption({{"o", "output"},
                 "Write the records to this file (- for standard output); with --format psq, to this folder, one file "
                 "per game named by its id.",
                 "file"});
    p.addOption(
        {"format",
         QString::fromStdString("The records' format: " + parser::format_names_text() +
                                " (gpn: every game; sgf: the stone games; psq: Gomoku games, one file each); by default told "
                                "by the extension of -o, else gpn."),
         "name"});
    add_notation_option(p, false);
    p.addOption({"go-coordinates",
                 "gpn: the points of 19x19 stone games (Pente, Gomoku, Ninuki) in Go-style coordinates, as pente.org "
                 "writes them: columns A-T without I, upper case, rows from the bottom (K10 the centre); gounki reads "
                 "them back as the same games."});
    p.addOption({"json", "Print a JSON summary instead of a line of text."});
}

namespace {

struct Written {
    int status = exit_ok;
    std::int64_t games = 0, skipped = 0;
};

// A game the format cannot hold is left out, with a line that says which and why.
bool holds(const parser::FormatInfo& info, const parser::GameRecord& record, const db::StoredGame& g, Written& w) {
    const std::string why = info.cannot_hold(record);
    if (why.empty()) return true;
    print_err("gounki export: game " + std::to_string(g.summary.id) + " left out: " + why + "\n");
    ++w.skipped;
    return false;
}

// Every game into one file (or standard output), whole or not at all (pipeline/output_file.hpp).
Written export_file(const Command& self, db::GameDatabase& database, const GameChoice& choice, const parser::FormatInfo& info,
                    const parser::WriteOptions& options, const std::string& path) {
    Written w;
    OutputFile file(path);
    std::string error;
    if (!file.open(error)) {
        print_err("gounki export: " + error + "\n");
        return {exit_usage};
    }
    std::ostream& out = file.stream();
    try {
        const bool chosen = for_each_chosen(self, database, choice, [&](const db::StoredGame& g) {
            const parser::GameRecord record = db::game_record(g);
            if (!holds(info, record, g, w)) return true;
            out << info.write(record, options);
            ++w.games;
            return bool(out);
        });
        if (!chosen) return {exit_usage};
    } catch (const std::exception& e) { return {database_error(self, e)}; }
    if (!file.commit(error)) {
        print_err("gounki export: " + error + "\n");
        return {exit_usage};
    }
    return w;
}

// One file per game in the folder `dir` (created), named by the game's id: 12.psq.
Written export_files(const Command& self, db::GameDatabase& database, const GameChoice& choice,
                     const parser::FormatInfo& info, const std::string& dir) {
    Written w;
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    if (ec || !std::filesystem::is_directory(dir)) {
        print_err("gounki export: cannot make the folder '" + dir + "'" + (ec ? ": " + ec.message() : "") + "\n");
        return {exit_usage};
    }
    try {
        const bool chosen = for_each_chosen(self, database, choice, [&](const db::StoredGame& g) {
            const parser::GameRecord record = db::game_record(g);
            if (!holds(info, record, g, w)) return true;
            const std::filesystem::path file =
                std::filesystem::path(dir) / (std::to_string(g.summary.id) + std::string(info.extensions[0]));
            std::ofstream out(file, std::ios::binary | std::ios::trunc);
            out << info.write(record, {});
            if (!out) {
                print_err("gounki export: writing '" + file.string() + "' failed\n");
                w.status = exit_usage;
                return false;
            }
            ++w.games;
            return true;
        });
        if (!chosen) return {exit_usage};
    } catch (const std::exception& e) { return {database_error(self, e)}; }
    return w;
}

} // namespace

int run_export(const QCommandLineParser& p) {
    const Command& self = *find_command("export");
    if (!p.isSet("output")) return usage_error(self, "give the output file with -o FILE (- for standard output)");
    int code = exit_ok;
    GameChoice choice;
    if (p.positionalArguments().isEmpty() && !p.isSet("all")) {
        // Nothing chosen: every game (that the filters and the search keep).
        if (!read_filter(self, p, choice.filter, code)) return code;
        SearchQuery query;
        bool searched = false;
        if (!read_search(self, p, choice.filter, query, searched, code)) return code;
        if (searched) choice.search = std::move(query);
    } else if (!read_game_choice(self, p, "export", choice, code)) return code;
    const std::string path = p.value("output").toStdString();
    Notation notation = Notation::wikipedia;
    if (!read_notation(self, p, false, notation)) return exit_usage;
    // --format, else the extension of -o (games.sgf), else gpn; never a format the name contradicts.
    // One initialisation, no later reset: GCC 12's -Wmaybe-uninitialized misreads a reset optional in a Release build.
    const std::optional<parser::RecordFormat> by_name = [&]() -> std::optional<parser::RecordFormat> {
        if (path == "-" || !parser::has_record_extension(path)) return std::nullopt;
        const parser::RecordFormat named = parser::format_of(path, {});
        if (!parser::format_info(named).write) return std::nullopt; // openings_x.txt: a name, not a format gounki writes
        return named;
    }();
    const auto format = p.isSet("format") ? parser::parse_record_format(p.value("format").trimmed().toStdString())
                                          : by_name.value_or(parser::RecordFormat::gpn);
    if (!format)
        return usage_error(self,
                           "--format must be " + parser::format_names_text() + ", got '" + p.value("format").toStdString() + "'");
    if (by_name && *by_name != *format)
        return usage_error(self,
                           "-o " + path + " names a " + std::string(parser::format_name(*by_name)) + " file but --format is " +
                               std::string(parser::format_name(*format)) + ": give a matching name, or leave --format out");
    const parser::FormatInfo& info = parser::format_info(*format);
    if (!info.write)
        return usage_error(self, "gounki reads " + std::string(info.name) + " files but does not write them: export as gpn, sgf or psq");
    if (info.one_game_per_file && path == "-")
        return usage_error(self, "--format psq writes one file per game: -o names a folder");
    // The records are no database: -o never names the one read (a rename would put them in its place).
    if (path != "-" && same_file(path, db_path(p)))
        return usage_error(self, "-o " + path + " is the database the games are read from: name another file");
    auto database = open_database(self, p, db::Access::read_only);
    if (!database) return exit_usage;
    const Written w = info.one_game_per_file ? export_files(self, *database, choice, info, path)
                                             : export_file(self, *database, choice, info, {notation, p.isSet("go-coordinates")}, path);
    if (w.status != exit_ok) return w.status;
    if (p.isSet("json")) {
        QJsonObject o{{"file", QString::fromStdString(path)},
                      {"games", qint64(w.games)},
                      {"skipped", qint64(w.skipped)},
                      {"filter", filter_json(choice.filter)}};
        if (choice.search) add_search_json(o, *choice.search);
        (path == "-" ? print_err : print_out)(QJsonDocument(o).toJson(QJsonDocument::Compact).toStdString() + "\n");
    } else {
        print_info("exported " + counted(w.games, "game") + (path == "-" ? "" : " to " + path) +
                  (w.skipped ? "; " + counted(w.skipped, "game") + " left out" : std::string()) + "\n");
    }
    return w.skipped ? exit_findings : exit_ok;
}

} // namespace gounki::cli
