// gounki report [--db PATH] (IDS... | filters | --all) --format html|md|gpn -o OUT
// Annotated reports of stored games from their stored judgements (gounki analyze).
#include <QFileInfo>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>

#include <algorithm>
#include <cstdio>
#include <filesystem>

#include "analysis/judge.hpp"
#include "cli/command.hpp"
#include "cli/db_options.hpp"
#include "cli/views.hpp"
#include "core/gounki/notation.hpp"
#include "db/analysis_store.hpp"
#include "db/record_bridge.hpp"
#include "pipeline/output_file.hpp"
#include "report/from_record.hpp"
#include "report/render.hpp"
#include "report/report_model.hpp"

namespace gounki::cli {

using pipeline::write_whole;
using pipeline::same_file;

void describe_report(QCommandLineParser& p) {
    add_db_option(p);
    add_game_choice_options(p, "report on");
    p.addOption({"format",
                 "html (one self-contained file), md (Markdown) or gpn (annotated records); by default told by the "
                 "extension of -o (.html .htm, .md .markdown, .gpn .pgn), else html.",
                 "FORMAT"});
    p.addOption({QStringList{"o", "output"}, "Write the report to FILE ('-' for standard output).", "FILE"});
    p.addOption({"title", "The report's title.", "TEXT"});
    p.addOption({"summary", "HTML: players, openings and the games with their accuracy only (no game sections)."});
    p.addOption({"split",
                 "HTML: write one file per game (game-ID.html, each with its interactive board) and an index.html "
                 "(the summary, linking to them) into DIR, made if missing; instead of -o.",
                 "DIR"});
    p.addOption({"json", "Print one JSON object saying what was written."});
    add_notation_option(p, false); // the moves of --format gpn
}

namespace {

// The format the extension of `path` names ("" for none that a report format has).
QString format_of_extension(const QString& path) {
    const QString ext = QFileInfo(path).suffix().toLower();
    if (ext == "html" || ext == "htm") return "html";
    if (ext == "md" || ext == "markdown") return "md";
    if (ext == "gpn" || ext == "pgn") return "gpn";
    return {};
}

// --format in any case, else the extension of -o, else html; a --format that the extension of -o
// contradicts (-o games.md --format html) is refused rather than writing HTML into a .md file.
bool report_format(const Command& self, const QCommandLineParser& p, QString& format) {
    const QString output = p.value("output");
    const QString by_name = output == "-" ? QString() : format_of_extension(output);
    format = p.isSet("format") ? p.value("format").trimmed().toLower() : by_name.isEmpty() ? QString("html") : by_name;
    if (format != "html" && format != "md" && format != "gpn") {
        usage_error(self, "--format must be html, md or gpn, not '" + p.value("format").toStdString() + "'");
        return false;
    }
    if (!by_name.isEmpty() && by_name != format) {
        usage_error(self,
                    "-o " + output.toStdString() + " names a " + by_name.toStdString() + " file but --format is " +
                        format.toStdString() + ": give a matching name, or leave --format out");
        return false;
    }
    return true;
}

// --split DIR: one page per game and an index linking to them. False with `error` set when a file
// cannot be written (the files written before it stay: each is whole).
bool write_split(const std::string& dir, const report::ReportModel& model, std::int64_t& bytes, std::string& error) {
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    if (ec || !std::filesystem::is_directory(dir)) {
        error = "cannot make the directory '" + dir + "'" + (ec ? ": " + ec.message() : std::string());
        return false;
    }
    report::HtmlOptions index;
    for (std::size_t k = 0; k < model.games.size(); ++k) {
        const report::GameReport& g = model.games[k];
        const std::string name = "game-" + (g.id.empty() ? std::to_string(k + 1) : g.id) + ".html";
        report::ReportModel one;
        one.title = model.title;
        one.annotator = model.annotator;
        one.games.push_back(g);
        report::HtmlOptions page;
        page.back_link = "index.html";
        page.games_before = k;
        const std::string text = report::render_html(one, page);
        if (!write_whole((std::filesystem::path(dir) / name).string(), text, error)) return false;
        bytes += std::int64_t(text.size());
        index.game_links.push_back(name);
    }
    const std::string text = report::render_html(model, index);
    bytes += std::int64_t(text.size());
    return write_whole((std::filesystem::path(dir) / "index.html").string(), text, error);
}

// Where the report goes (-o FILE or --split DIR) and in which format, with --summary; false after
// saying what does not fit.
bool output_options(const Command& self, const QCommandLineParser& p, QString& format) {
    auto refuse = [&](const std::string& message) {
        usage_error(self, message);
        return false;
    };
    const bool split = p.isSet("split");
    if (split && p.isSet("output")) return refuse("--split DIR writes its own files: leave -o out");
    if (!split && !p.isSet("output"))
        return refuse("say where to write the report with -o FILE (or -o - for standard output), or --split DIR");
    if (split && p.value("split").isEmpty()) return refuse("--split needs a directory");
    if (!report_format(self, p, format)) return false;
    if ((split || p.isSet("summary")) && format != "html")
        return refuse(std::string(split ? "--split" : "--summary") + " is for HTML reports, not --format " +
                      format.toStdString());
    if (split && p.isSet("summary"))
        return refuse("--split writes the summary as its index.html: give one of --split and --summary");
    if (!split && same_file(p.value("output").toStdString(), db_path(p)))
        return refuse("-o " + p.value("output").toStdString() + " is the database the games are read from: name another file");
    return true;
}

// The default title names the game: "Gomoku game report"; "Game report" for games of several kinds.
void set_default_title(report::ReportModel& model) {
    const GameKind kind = model.games.front().kind;
    const bool one_kind =
        std::all_of(model.games.begin(), model.games.end(), [&](const report::GameReport& g) { return g.kind == kind; });
    if (!one_kind) model.title = "Game report";
    else if (kind != GameKind::gounki) model.title = std::string(game_kind_name(kind)) + " game report";
}

// What was written: a JSON object with --json, else a line (none with --quiet or on standard output).
void say_written(bool json, const std::string& output, const QString& format, qint64 games, int unjudged, std::int64_t bytes,
                 bool split) {
    if (json) {
        QJsonObject o{{"output", QString::fromStdString(output)},
                      {"format", format},
                      {"games", games},
                      {"unjudged", unjudged},
                      {"bytes", qint64(bytes)}};
        if (split) o.insert("files", games + 1);
        print_out(QJsonDocument(o).toJson(QJsonDocument::Compact).toStdString() + "\n");
    } else if (!quiet() && output != "-") {
        print_out("wrote " +
                  std::string(format == "md"        ? "Markdown"
                                  : format == "gpn" ? "annotated records"
                                                    : "HTML") +
                  " report on " + counted(games, "game") + " to " + std::filesystem::absolute(output).string() +
                  (split ? " (index.html and one file per game)" : "") + "\n");
    }
}

} // namespace

int run_report(const QCommandLineParser& p) {
    const Command& self = *find_command("report");
    const bool split = p.isSet("split");
    QString format;
    if (!output_options(self, p, format)) return exit_usage;
    report::GpnOptions gpn;
    if (!read_notation(self, p, false, gpn.notation)) return exit_usage;
    if (p.isSet("notation") && format != "gpn") return usage_error(self, "--notation is for --format gpn (annotated records)");
    const std::string output = split ? p.value("split").toStdString() : p.value("output").toStdString();
    GameChoice choice;
    int code = exit_ok;
    if (!read_game_choice(self, p, "report on", choice, code)) return code;

    auto database = open_database(self, p, db::Access::read_only);
    if (!database) return exit_usage;
    report::ReportModel model;
    if (p.isSet("title")) model.title = p.value("title").toStdString();
    int unjudged = 0;
    std::vector<std::string> settings; // of the judged games, each once
    try {
        db::AnalysisStore store(database->sql());
        std::vector<db::StoredGame> games;
        if (!chosen_games(self, *database, choice, games)) return exit_usage;
        for (const db::StoredGame& g : games) {
            const auto stored = store.load(g.summary.id);
            if (!stored) ++unjudged;
            else if (std::find(settings.begin(), settings.end(), stored->settings) == settings.end())
                settings.push_back(stored->settings);
            model.games.push_back(game_report(g, stored ? &*stored : nullptr));
        }
    } catch (const std::exception& e) { return database_error(self, e); }
    if (model.games.empty()) {
        print_err("gounki report: no game matches\n");
        return exit_findings;
    }
    if (!p.isSet("title")) set_default_title(model);
    // The report's own annotator (a page's footer) names the settings when the games share them;
    // each game's record names its own.
    model.annotator = "gounki " GOUNKI_VERSION + (settings.size() == 1   ? " (" + settings[0] + ")"
                                                  : settings.size() > 1 ? std::string(" (games judged with different settings)")
                                                                        : std::string());
    std::string error;
    std::int64_t bytes = 0;
    if (split) {
        if (!write_split(output, model, bytes, error)) {
            print_err("gounki report: " + error + "\n");
            return exit_usage;
        }
    } else {
        report::HtmlOptions html;
        html.summary = p.isSet("summary");
        const std::string text = format == "html" ? report::render_html(model, html)
            : format == "md"                      ? report::render_markdown(model)
                                                  : report::render_annotated_gpn(model, gpn);
        bytes = std::int64_t(text.size());
        if (!write_whole(output, text, error)) {
            print_err("gounki report: " + error + "\n");
            return exit_usage;
        }
    }
    if (unjudged)
        print_info("gounki report: " + std::to_string(unjudged) + " of " + std::to_string(model.games.size()) +
                   " games have no stored judgement (run 'gounki analyze' first); they are shown without one\n");
    say_written(p.isSet("json"), output, format, qint64(model.games.size()), unjudged, bytes, split);
    return exit_ok;
}

} // namespace gounki::cli
