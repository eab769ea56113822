// gounki show [--db PATH] [--json] ID
#include <QJsonDocument>

#include "cli/db_options.hpp"
#include "cli/game_ply.hpp"
#include "cli/views.hpp"
#include "db/analysis_store.hpp"
#include "core/gounki/notation.hpp"
#include "db/record_bridge.hpp"
#include "parser/writer.hpp"
#include "report/board_diagram.hpp"

namespace gounki::cli {

void describe_show(QCommandLineParser& p) {
    add_db_option(p);
    p.addOption({"json", "Print one JSON object instead of the record."});
    p.addOption({"ply",
                 "Draw the board after this many plies instead of printing the record (0: the start; 'end': after the "
                 "last move), with the position text.",
                 "N"});
    p.addPositionalArgument("ID", "The id of the game (as listed by games or search).");
}

namespace {

// show ID --ply N: the heading, the text diagram and the position text.
int show_ply(const Command& self, const QCommandLineParser& p, const db::StoredGame& game) {
    const std::optional<GamePly> at = read_game_ply(self, p, game);
    if (!at) return exit_usage;
    const std::string heading = game_ply_heading(game, *at);
    if (p.isSet("json")) {
        QJsonObject o = summary_json(game.summary);
        o["ply"] = at->ply;
        o["last"] = at->ply ? QJsonValue(QString::fromStdString(at->last_text)) : QJsonValue();
        o["position"] = QString::fromStdString(at->position.to_text());
        o["heading"] = QString::fromStdString(heading);
        print_out(QJsonDocument(o).toJson(QJsonDocument::Compact).toStdString() + "\n");
        return exit_ok;
    }
    const std::string diagram = at->position.stones()
        ? report::stone_board_text(*at->position.stones(), {}, at->last ? at->last.point() : stones::no_point)
        : report::board_text(*at->position.gounki());
    print_shown(heading + "\n" + diagram + "Position: " + at->position.to_text() + "\n");
    return exit_ok;
}

// What judged the game last (gounki analyze): the engine, the settings and when; nothing when the
// game was never judged.
std::optional<db::StoredJudgement> newest_judgement(const Command& self, const QCommandLineParser& p, std::int64_t id,
                                                    std::string& error) {
    auto database = open_database(self, p, db::Access::read_only);
    if (!database) return std::nullopt;
    try {
        return db::AnalysisStore(database->sql()).load(id);
    } catch (const std::exception& e) { error = e.what(); }
    return std::nullopt;
}

std::string judged_by(const db::StoredJudgement& j) {
    return (j.engine.empty() ? std::string("gounki's engine") : "engine '" + j.engine + "'") + " (" + j.settings + ") on " + j.created;
}

} // namespace

int run_show(const QCommandLineParser& p) {
    const Command& self = *find_command("show");
    const QStringList args = p.positionalArguments();
    if (args.size() != 1) return usage_error(self, "expected exactly one game ID");
    const std::optional<db::StoredGame> game = stored_game(self, p, args[0], "ID");
    if (!game) return exit_usage;
    if (p.isSet("ply")) return show_ply(self, p, *game);
    std::string judgement_error;
    const auto judgement = newest_judgement(self, p, game->summary.id, judgement_error);
    if (p.isSet("json")) {
        // The object of the server's /api/games/ID: the game, and its newest judgement (null when none).
        QJsonObject o = game_json(*game);
        o["judgement"] = judgement ? QJsonValue(judgement_json(*game, *judgement)) : QJsonValue();
        print_out(QJsonDocument(o).toJson(QJsonDocument::Compact).toStdString() + "\n");
        return exit_ok;
    }
    const std::string record = parser::write_record(db::game_record(*game));
    std::string out = record;
    // One line whatever the file's name holds (a line end in it is written \x0a).
    if (!game->source_file.empty())
        out += "; from " + parser::escape_controls(game->source_file) + ":" + std::to_string(game->source_line) + "\n";
    if (game->summary.status != db::GameStatus::valid)
        out += std::string("; status: ") + std::string(db::status_name(game->summary.status)) + "\n";
    for (const db::Diagnostic& d : game->diagnostics) {
        out += "; ";
        if (d.line) out += std::to_string(d.line) + ":" + std::to_string(d.column) + ": ";
        out += std::string(db::severity_name(d.severity)) + ": " + d.message;
        if (!d.code.empty()) out += " [" + d.code + "]";
        out += "\n";
    }
    if (judgement) out += "; judged by " + judged_by(*judgement) + "\n";
    if (!judgement_error.empty()) out += "; stored judgement: " + judgement_error + "\n";
    print_shown(out);
    return exit_ok;
}

} // namespace gounki::cli
