// gounki position "<position>": validates a position text, prints it canonically with its legal moves;
// --format lc4 writes it as an LC4 position file instead (core/gounki/position_lc4.hpp).
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>

#include "cli/command.hpp"
#include "report/board_diagram.hpp"
#include "core/gounki/notation.hpp"
#include "core/gounki/position_lc4.hpp"
#include "core/stones/position.hpp"

#include <fstream>
#include <iterator>
#include <optional>

namespace gounki::cli {

void describe_position(QCommandLineParser& p) {
    p.addOption({"json", "Print one JSON object instead of text."});
    p.addOption({"moves", "Play these moves first (whitespace-separated, record notation), then show the result.", "moves"});
    p.addOption({"format",
                 "text (the default: canonical text, diagram, legal moves) or lc4 (the position as an LC4 "
                 "position file, 64 lines, and nothing else; it holds no side to move).",
                 "format", "text"});
    p.addOption({"side",
                 "w or b: the side to move of an LC4 position file given as @FILE (default w); a position "
                 "text says its own.",
                 "side"});
    p.addPositionalArgument("POSITION",
                            "A position in the format of docs/rules.md 1.7, or 'start'; or a stone-game position "
                            "(\"Ninuki 19 ...\", README \"Stone positions\"), or a stone game's name ('gomoku', 'ninuki', "
                            "'pente', 'renju') for its empty board; "
                            "or @FILE, a file holding an LC4 position file (64 cells V0, B1-B9, N1-N9 from a1 to h8) "
                            "or a Gounki position text on its first line.");
}

namespace {

// A Gomoku or Ninuki position (moves are points, h8), `last` the point of the last move played.
int print_stone_position(const QCommandLineParser& p, const stones::StonePosition& pos, int last) {
    const std::vector<Move> moves = pos.legal_moves();
    const std::string outcome(outcome_text(pos.outcome()));
    if (p.isSet("json")) {
        QJsonArray list;
        for (Move m : moves) list.append(QString::fromStdString(stones::point_name(m.point())));
        QJsonObject obj{{"position", QString::fromStdString(pos.to_text())},
                        {"game", QString::fromUtf8(game_kind_name(pos.rules().kind).data())},
                        {"side_to_move", pos.side_to_move() == Color::white ? "white" : "black"},
                        {"key", QString::asprintf("%016llx", static_cast<unsigned long long>(pos.key()))},
                        {"result", QString::fromStdString(outcome)},
                        {"moves", list}};
        if (pos.rules().captures())
            obj["captured"] = QJsonObject{{"black", pos.captured(Color::black)}, {"white", pos.captured(Color::white)}};
        print_out(QJsonDocument(obj).toJson(QJsonDocument::Compact).toStdString() + "\n");
        return exit_ok;
    }
    std::string out = pos.to_text() + "\n" + report::stone_board_text(pos, {}, last);
    if (!out.empty() && out.back() != '\n') out += '\n';
    if (pos.game_over()) out += std::string("Game over: ") + outcome + "\n";
    else out += std::to_string(moves.size()) + " legal moves\n";
    print_out(out);
    return exit_ok;
}

// A Gounki position: canonical text, diagram and legal moves, or one JSON object.
int print_gounki_position(const QCommandLineParser& p, const Position& pos) {
    MoveList moves;
    generate_moves(pos, moves);
    const std::string outcome(outcome_text(pos.outcome()));
    if (p.isSet("json")) {
        QJsonArray list;
        for (Move m : moves) list.append(QString::fromStdString(move_to_text(pos, m)));
        QJsonObject o{{"position", QString::fromStdString(pos.to_text())},
                      {"side_to_move", pos.side_to_move() == Color::white ? "white" : "black"},
                      {"key", QString::asprintf("%016llx", static_cast<unsigned long long>(pos.key()))},
                      {"result", QString::fromStdString(outcome)},
                      {"moves", list}};
        print_out(QJsonDocument(o).toJson(QJsonDocument::Compact).toStdString() + "\n");
        return exit_ok;
    }
    // The diagram of report::board_text without its last line (who is to move): this command says
    // it with the moves.
    std::string diagram = report::board_text(pos);
    diagram.erase(diagram.rfind('\n', diagram.size() - 2) + 1);
    std::string out = pos.to_text() + "\n" + diagram;
    if (pos.game_over()) out += std::string("Game over: ") + outcome + "\n";
    else
        out += std::string(pos.side_to_move() == Color::white ? "White" : "Black") + " to move, " + std::to_string(moves.size()) +
            " legal moves:\n";
    std::string line;
    for (Move m : moves) {
        const std::string t = move_to_text(pos, m);
        if (line.size() + t.size() + 1 > 78) {
            out += line + "\n";
            line.clear();
        }
        line += (line.empty() ? "" : " ") + t;
    }
    if (!line.empty()) out += line + "\n";
    print_out(out);
    return exit_ok;
}

} // namespace

int run_position(const QCommandLineParser& p) {
    const Command& self = *find_command("position");
    const QStringList args = p.positionalArguments();
    if (args.size() != 1) return usage_error(self, "expected exactly one POSITION argument (quote it)");
    const std::string arg = args[0].toStdString();
    const QString format = p.value("format").toLower();
    if (format != "text" && format != "lc4")
        return usage_error(self, "--format must be text or lc4, got '" + p.value("format").toStdString() + "'");
    const bool lc4 = format == "lc4";
    if (lc4 && p.isSet("json")) return usage_error(self, "give --json or --format lc4, not both");
    std::optional<Color> side;
    if (p.isSet("side")) {
        const QString s = p.value("side").toLower();
        if (s == "w" || s == "white") side = Color::white;
        else if (s == "b" || s == "black") side = Color::black;
        else return usage_error(self, "--side must be w or b, got '" + p.value("side").toStdString() + "'");
        // Only an LC4 file lacks the side to move; a position text (on the command line or in a
        // file) says its own.
        bool lc4_file = false;
        if (args[0].startsWith('@') && args[0].size() > 1) {
            std::ifstream in(QFile::encodeName(args[0].mid(1)).constData(), std::ios::binary);
            const std::string content((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
            // A file that cannot be read: read_position below says why.
            lc4_file = !in.is_open() || looks_like_lc4(content, arg.substr(1));
        }
        if (!lc4_file)
            return usage_error(self,
                               "--side gives the side to move of an LC4 position file (@FILE); a position text "
                               "ends with its own (w or b)");
    }
    AnyPosition any;
    if (!read_position(self, args[0], any)) return exit_usage;
    if (const stones::StonePosition* stone = any.stones(); stone && lc4)
        return usage_error(
            self, "--format lc4 writes a Gounki position; " + std::string(game_kind_name(any.kind())) + " has no LC4 format");
    if (const Position* g = any.gounki(); g && side) {
        Position turned = *g;
        turned.set_side_to_move(*side);
        any = AnyPosition(turned);
    }
    Move last;
    if (p.isSet("moves") && !play_move_list(self, p.value("moves"), any, &last)) return exit_findings;
    if (const stones::StonePosition* stone = any.stones())
        return print_stone_position(p, *stone, last ? last.point() : stones::no_point);
    const Position& pos = *any.gounki();
    if (lc4) {
        if (pos.side_to_move() == Color::black && !pos.game_over())
            print_info("gounki position: an LC4 file holds no side to move: Black is to move here (read it back "
                       "with --side b)\n");
        print_out(position_to_lc4(pos));
        return exit_ok;
    }
    return print_gounki_position(p, pos);
}

} // namespace gounki::cli
