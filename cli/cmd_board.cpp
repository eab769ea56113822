// gounki board --position "<position>" [--move MOVE] [--format svg|text] [-o FILE]: a diagram.
#include <fstream>

#include "cli/command.hpp"
#include "cli/report/board_diagram.hpp"
#include "core/notation.hpp"

namespace gounki::cli {

namespace {

std::string move_list_text(const Position& pos, const MoveList& moves) {
    std::string out;
    for (Move m : moves) {
        if (!out.empty()) out += ' ';
        out += move_to_text(pos, m);
    }
    return out;
}

} // namespace

void describe_board(QCommandLineParser& p) {
    p.addOption({"position", "The position (RULES.md 1.7), or 'start' (the default).", "POSITION", "start"});
    p.addOption({"move", "Draw this move of the position as an arrow (record notation, e.g. c2-d3 or c5*d5,e5,f6).", "MOVE"});
    p.addOption({"format", "svg (default; text when FILE ends in .txt or .md) or text.", "FORMAT"});
    p.addOption({{"o", "output"}, "Write to FILE; '-' or no -o: standard output.", "FILE", "-"});
    p.addOption({"flip", "Black's side at the bottom."});
}

int run_board(const QCommandLineParser& p) {
    const Command& self = *find_command("board");
    if (!p.positionalArguments().isEmpty())
        return usage_error(self, "unexpected argument '" + p.positionalArguments().first().toStdString() +
                                     "' (the position goes after --position, quoted)");
    Position pos = Position::start();
    const QString text = p.value("position");
    if (text != "start" && !read_position(self, text, pos)) return exit_usage;

    std::vector<report::Arrow> arrows;
    if (p.isSet("move")) {
        const std::string written = p.value("move").toStdString();
        const Resolution r = resolve_move_text(pos, written);
        if (!r.move) {
            std::string msg = "--move '" + written + "': " + r.message;
            if (!r.stack_moves.empty()) {
                msg += "\n  legal moves of that stack: " + move_list_text(pos, r.stack_moves);
            } else if (!pos.game_over()) {
                MoveList all;
                generate_moves(pos, all);
                msg += "\n  legal moves: " + move_list_text(pos, all);
            }
            return usage_error(self, msg);
        }
        for (MarkerWarning w : r.warnings)
            print_err("gounki board: warning: --move '" + written + "': " + std::string(marker_warning_text(w)) + "\n");
        arrows.push_back({r.move, report::ArrowKind::move});
    }

    const std::string file = p.value("output").toStdString();
    std::string format = p.value("format").toStdString();
    if (format.empty()) {
        const bool texty = file.size() > 4 && (file.ends_with(".txt") || file.ends_with(".md"));
        format = texty ? "text" : "svg";
    }
    std::string out;
    if (format == "svg") {
        report::BoardStyle style;
        style.arrows = arrows;
        style.flip = p.isSet("flip");
        out = report::board_svg(pos, style);
    } else if (format == "text") {
        out = report::board_text(pos, arrows, p.isSet("flip"));
    } else {
        return usage_error(self, "--format '" + format + "': expected svg or text");
    }

    if (file == "-") {
        print_out(out);
        return exit_ok;
    }
    std::ofstream f(file, std::ios::binary);
    if (f) f.write(out.data(), std::streamsize(out.size()));
    if (!f) {
        print_err("gounki board: cannot write '" + file + "'\n");
        return exit_usage;
    }
    return exit_ok;
}

} // namespace gounki::cli
