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
                            "A position in the format of docs/rules.md 1.7, or 'start'; or a Gomoku/Ninuki position "
                            "(\"Ninuki 19 ...\", README \"Stone positions\"), or 'gomoku' or 'ninuki' for the empty board; "
                            "or @FILE, a file holding an LC4 position file (64 cells V0, B1-B9, N1-N9 from a1 to h8) "
                            "or a Gounki position text on its first line.");
}

namespace {

// The same for a Gomoku or Ninuki position: moves are points (h8).
int run_stone_position(const QCommandLineParser& p, stones::StonePosition pos) {
    int last = stones::no_point;
    if (p.isSet("moves")) {
        const QStringList played = p.value("moves").split(QRegularExpression("\\s+"), Qt::SkipEmptyParts);
        for (int i = 0; i < played.size(); ++i) {
            const std::string written = played[i].toStdString();
            const int point = stones::parse_point(written, pos.size());
            const Move m = Move::placement(point == stones::no_point ? 0 : point);
            const stones::PlaceError e = point == stones::no_point ? stones::PlaceError::off_board : pos.check(m);
            if (e != stones::PlaceError::none) {
                print_err("gounki position: move " + std::to_string(i + 1) + " '" + written + "': " +
                          (point == stones::no_point
                               ? "not a point of the " + std::to_string(pos.size()) + "x" + std::to_string(pos.size()) + " board"
                               : std::string(stones::place_error_text(e))) +
                          "\n");
                return exit_findings;
            }
            stones::StoneUndo undo;
            pos.play(m, undo);
            last = point;
        }
    }
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
    if (const stones::StonePosition* stone = any.stones()) {
        if (lc4)
            return usage_error(
                self, "--format lc4 writes a Gounki position; " + std::string(game_kind_name(any.kind())) + " has no LC4 format");
        return run_stone_position(p, *stone);
    }
    Position pos = *any.gounki();
    if (side) pos.set_side_to_move(*side);
    if (p.isSet("moves")) {
        const QStringList played = p.value("moves").split(QRegularExpression("\\s+"), Qt::SkipEmptyParts);
        for (int i = 0; i < played.size(); ++i) {
            const std::string text = played[i].toStdString();
            const Resolution r = resolve_move_text(pos, text);
            if (!r.move) {
                std::string msg = "move " + std::to_string(i + 1) + " '" + text + "': " + r.message;
                if (!r.stack_moves.empty()) {
                    msg += "; legal moves of that stack:";
                    for (Move m : r.stack_moves) {
                        msg += ' ';
                        msg += move_to_text(pos, m);
                    }
                }
                print_err("gounki position: " + msg + "\n");
                return exit_findings;
            }
            for (MarkerWarning w : r.warnings)
                print_err("gounki position: warning: move " + std::to_string(i + 1) + " '" + text +
                          "': " + std::string(marker_warning_text(w)) + "\n");
            UndoRecord undo;
            pos.do_move(r.move, undo);
        }
    }
    if (lc4) {
        if (pos.side_to_move() == Color::black && !pos.game_over())
            print_info("gounki position: an LC4 file holds no side to move: Black is to move here (read it back "
                       "with --side b)\n");
        print_out(position_to_lc4(pos));
        return exit_ok;
    }
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
    std::string out = pos.to_text() + "\n";
    for (int rank = 7; rank >= 0; --rank) {
        out += char('1' + rank);
        out += ' ';
        for (int file = 0; file < 8; ++file) {
            const Stack st = pos.at(make_square(file, rank));
            std::string cell;
            for (int i = 0; i < st.rounds(); ++i) cell += st.color() == Color::white ? 'R' : 'r';
            for (int i = 0; i < st.squares(); ++i) cell += st.color() == Color::white ? 'S' : 's';
            if (cell.empty()) cell.push_back('.');
            if (file < 7) cell.resize(4, ' ');
            out += cell;
        }
        while (out.back() == ' ') out.pop_back();
        out += '\n';
    }
    out += "  a   b   c   d   e   f   g   h\n";
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

} // namespace gounki::cli
