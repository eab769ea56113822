// gounki position "<position>": validates a position text, prints it canonically with its legal moves.
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>

#include "cli/command.hpp"
#include "core/notation.hpp"

namespace gounki::cli {

void describe_position(QCommandLineParser& p) {
    p.addOption({"json", "Print one JSON object instead of text."});
    p.addOption({"moves", "Play these moves first (whitespace-separated, record notation), then show the result.", "moves"});
    p.addPositionalArgument("POSITION", "A position in the format of RULES.md 1.7, or 'start'.");
}

int run_position(const QCommandLineParser& p) {
    const Command& self = *find_command("position");
    const QStringList args = p.positionalArguments();
    if (args.size() != 1) return usage_error(self, "expected exactly one POSITION argument (quote it)");
    Position pos = Position::start();
    if (args[0] != "start" && !read_position(self, args[0], pos)) return exit_usage;
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
                print_err("gounki position: warning: move " + std::to_string(i + 1) + " '" + text + "': " +
                          std::string(marker_warning_text(w)) + "\n");
            UndoRecord undo;
            pos.do_move(r.move, undo);
        }
    }
    MoveList moves;
    generate_moves(pos, moves);
    const char* outcome = pos.outcome() == Outcome::white_wins ? "1-0" : pos.outcome() == Outcome::black_wins ? "0-1" : "*";
    if (p.isSet("json")) {
        QJsonArray list;
        for (Move m : moves) list.append(QString::fromStdString(move_to_text(pos, m)));
        QJsonObject o{{"position", QString::fromStdString(pos.to_text())},
                      {"side_to_move", pos.side_to_move() == Color::white ? "white" : "black"},
                      {"key", QString::asprintf("%016llx", static_cast<unsigned long long>(pos.key()))},
                      {"result", outcome},
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
    else out += std::string(pos.side_to_move() == Color::white ? "White" : "Black") + " to move, " +
                std::to_string(moves.size()) + " legal moves:\n";
    std::string line;
    for (Move m : moves) {
        const std::string t = move_to_text(pos, m);
        if (line.size() + t.size() + 1 > 78) { out += line + "\n"; line.clear(); }
        line += (line.empty() ? "" : " ") + t;
    }
    if (!line.empty()) out += line + "\n";
    print_out(out);
    return exit_ok;
}

} // namespace gounki::cli
