// gounki board --position "<position>" [--move MOVE] [--format svg|text] [-o FILE] [--json]: a
// diagram of a Gounki position, or of a Gomoku or Ninuki position ("Gomoku 15 ...").
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <fstream>

#include "cli/db_options.hpp"
#include "cli/game_ply.hpp"
#include "report/board_diagram.hpp"
#include "core/gounki/notation.hpp"

namespace gounki::cli {

namespace {

QString qs(const std::string& s) { return QString::fromStdString(s); }

const char* side_name(Color c) { return c == Color::white ? "white" : "black"; }

const char* outcome_name(Outcome o) {
    switch (o) {
    case Outcome::white_wins: return "white";
    case Outcome::black_wins: return "black";
    case Outcome::draw: return "draw";
    case Outcome::none: break;
    }
    return nullptr;
}

// What the diagram shows, for --json (consumers are told to tolerate new fields).
QJsonObject position_json(const Position& pos) {
    QJsonArray stacks;
    for (Square s = 0; s < 64; ++s)
        if (!pos.at(s).is_empty())
            stacks.append(QJsonObject{{"square", qs(square_name(s))},
                                      {"color", side_name(pos.at(s).color())},
                                      {"stack", qs(report::stack_letters(pos.at(s)))}});
    const char* winner = outcome_name(pos.outcome());
    return {{"kind", "Gounki"},
            {"position", qs(pos.to_text())},
            {"side", side_name(pos.side_to_move())},
            {"outcome", winner ? QJsonValue(winner) : QJsonValue()},
            {"stacks", stacks}};
}

QJsonObject position_json(const stones::StonePosition& pos) {
    QJsonArray black, white;
    for (int p = 0; p < stones::point_count; ++p) {
        if (!pos.on_board(p) || pos.at(p) == stones::Stone::empty) continue;
        (pos.at(p) == stones::Stone::black ? black : white).append(qs(stones::point_name(p)));
    }
    const char* winner = outcome_name(pos.outcome());
    QJsonObject o{{"kind", qs(std::string(game_kind_name(pos.rules().kind)))},
                  {"size", pos.size()},
                  {"position", qs(pos.to_text())},
                  {"side", side_name(pos.side_to_move())},
                  {"outcome", winner ? QJsonValue(winner) : QJsonValue()},
                  {"stones", QJsonObject{{"black", black}, {"white", white}}}};
    if (pos.rules().captures())
        o.insert("captured", QJsonObject{{"black", pos.captured(Color::black)}, {"white", pos.captured(Color::white)}});
    return o;
}

// The point named by --move or --last on a stone board; no_point after printing why not.
int read_point(const Command& self, const stones::StonePosition& pos, const char* option, const std::string& text) {
    const int p = stones::parse_point(text, pos.size());
    if (p == stones::no_point) {
        const char last = char('a' + pos.size() - 1);
        usage_error(self,
                    std::string("--") + option + " '" + text + "': not a point of the " + std::to_string(pos.size()) + "x" +
                        std::to_string(pos.size()) + " board (a1 to " + last + std::to_string(pos.size()) + ")");
    }
    return p;
}

struct Diagram {
    std::string text; // the SVG or text diagram
    QJsonObject position; // for --json
    std::string move; // the marked move, canonical
    std::string heading; // a stored game's board: which game, which ply (game_ply_heading)
};

// --game ID [--ply N]: the stored game's board; nullopt after printing why not.
std::optional<GamePly> stored_board(const Command& self, const QCommandLineParser& p) {
    if (p.isSet("position") || p.isSet("moves")) {
        usage_error(self, "--game draws a stored game's board: give --position and --moves, or --game, not both");
        return std::nullopt;
    }
    const std::optional<db::StoredGame> game = stored_game(self, p, p.value("game"), "--game");
    if (!game) return std::nullopt;
    std::optional<GamePly> at = read_game_ply(self, p, *game);
    if (at) at->heading = game_ply_heading(*game, *at);
    return at;
}

// --move: the move to mark, added to `marks` (nothing when not given), and its canonical text in
// `out`; false after printing a usage error, when it is not a legal move.
bool read_marked_move(const Command& self, const QCommandLineParser& p, const AnyPosition& pos, std::vector<report::Arrow>& marks,
                      Diagram& out) {
    if (!p.isSet("move")) return true;
    const std::string written = p.value("move").toStdString();
    const MoveReading r = read_move(pos, written);
    if (!r.error.empty()) {
        usage_error(self, "--move '" + written + "': " + r.error);
        return false;
    }
    for (const std::string& w : r.warnings) print_err("gounki board: warning: --move '" + written + "': " + w + "\n");
    marks.push_back({r.move, report::ArrowKind::move});
    out.move = pos.move_text(r.move);
    return true;
}

// A Gounki diagram (`played`: the stored game's last move, drawn as an arrow on the SVG); false
// after printing a usage error.
bool gounki_diagram(const Command& self, const QCommandLineParser& p, bool svg, const Position& pos, Move played, Diagram& out) {
    if (p.isSet("last"))
        return usage_error(self, "--last marks a stone of a stone game; a Gounki move is drawn with --move"), false;
    std::vector<report::Arrow> arrows;
    if (!read_marked_move(self, p, AnyPosition(pos), arrows, out)) return false;
    if (played && svg) arrows.push_back({played, report::ArrowKind::played});
    if (svg) {
        report::BoardStyle style;
        style.arrows = arrows;
        style.flip = p.isSet("flip");
        out.text = report::board_svg(pos, style);
    } else {
        out.text = report::board_text(pos, arrows, p.isSet("flip"));
    }
    out.position = position_json(pos);
    return true;
}

// A Gomoku or Ninuki diagram: --move rings an empty point where the side to move may play, --last
// (or the stored game's last move, `played`) highlights a stone.
bool stone_diagram(const Command& self, const QCommandLineParser& p, bool svg, const stones::StonePosition& pos, Move played,
                   Diagram& out) {
    if (p.isSet("flip"))
        return usage_error(self, "--flip turns a Gounki board; a stone board is drawn with a1 at the bottom left"), false;
    std::vector<report::Arrow> marks;
    if (!read_marked_move(self, p, AnyPosition(pos), marks, out)) return false;
    int last = played ? played.point() : stones::no_point;
    if (p.isSet("last")) {
        const std::string written = p.value("last").toStdString();
        last = read_point(self, pos, "last", written);
        if (last == stones::no_point) return false;
        if (pos.at(last) == stones::Stone::empty) {
            usage_error(self, "--last '" + written + "': no stone on " + stones::point_name(last));
            return false;
        }
    }
    if (svg) {
        report::StoneBoardStyle style;
        style.marks = marks;
        style.last_move = last;
        out.text = report::stone_board_svg(pos, style);
    } else {
        out.text = report::stone_board_text(pos, marks, last);
    }
    out.position = position_json(pos);
    if (last != stones::no_point) out.position.insert("last", qs(stones::point_name(last)));
    return true;
}

} // namespace

void describe_board(QCommandLineParser& p) {
    add_position_option(p, "The position to draw", "Gounki's start when left out", "start");
    p.addOption({"move",
                 "Draw this move of the position: an arrow for Gounki (record notation, e.g. c2-d3 or c5*d5,e5,f6), "
                 "a ring on the point for a stone game (e.g. h8).",
                 "MOVE"});
    add_moves_option(p);
    p.addOption({"last", "Stone games: highlight the stone on this point as the last move played (e.g. h8).", "POINT"});
    p.addOption({"format", "svg (default; text when FILE ends in .txt or .md) or text.", "FORMAT"});
    p.addOption({{"o", "output"}, "Write to FILE; '-' or no -o: standard output.", "FILE", "-"});
    p.addOption({"flip", "Black's side at the bottom (Gounki)."});
    p.addOption({"game", "Draw a stored game's board (with --ply; --db names the database) instead of --position.", "ID"});
    add_ply_option(p);
    add_db_option(p);
    p.addOption({"json",
                 "Print one JSON object: the game, the position (stacks or stones), the move, the format and "
                 "the file written; with no -o FILE the diagram is its 'diagram' field."});
}

int run_board(const QCommandLineParser& p) {
    const Command& self = *find_command("board");
    if (const int code = refuse_arguments(self, p, " (the position goes after --position, quoted)")) return code;
    const std::string file = p.value("output").toStdString();
    std::string format = p.value("format").trimmed().toLower().toStdString();
    if (format.empty()) {
        const bool texty = file.size() > 4 && (file.ends_with(".txt") || file.ends_with(".md"));
        format = texty ? "text" : "svg";
    }
    if (format != "svg" && format != "text") return usage_error(self, "--format '" + format + "': expected svg or text");

    Diagram d;
    AnyPosition pos;
    Move played;
    if (p.isSet("game")) {
        const std::optional<GamePly> at = stored_board(self, p);
        if (!at) return exit_usage;
        pos = at->position;
        played = at->last;
        d.heading = at->heading;
    } else if (p.isSet("ply")) {
        return usage_error(self, "--ply goes with --game ID (a stored game)");
    } else if (!read_position(self, p.value("position"), pos) || !apply_moves_option(self, p, pos)) {
        return exit_usage;
    }
    const bool svg = format == "svg";
    if (!(pos.stones() ? stone_diagram(self, p, svg, *pos.stones(), played, d)
                       : gounki_diagram(self, p, svg, *pos.gounki(), played, d)))
        return exit_usage;
    if (!d.heading.empty() && !svg) d.text = d.heading + "\n" + d.text;

    const bool json = p.isSet("json");
    if (file != "-") {
        std::ofstream f(file, std::ios::binary);
        if (f) f.write(d.text.data(), std::streamsize(d.text.size()));
        if (!f) {
            print_err("gounki board: cannot write '" + file + "'\n");
            return exit_usage;
        }
    } else if (!json) {
        print_out(d.text);
    }
    if (json) {
        QJsonObject o = d.position;
        o.insert("format", qs(format));
        o.insert("move", d.move.empty() ? QJsonValue() : QJsonValue(qs(d.move)));
        o.insert("output", file == "-" ? QJsonValue() : QJsonValue(qs(file)));
        if (!d.heading.empty()) o.insert("heading", qs(d.heading));
        if (file == "-") o.insert("diagram", qs(d.text));
        print_out(QJsonDocument(o).toJson(QJsonDocument::Compact).toStdString() + "\n");
    }
    return exit_ok;
}

} // namespace gounki::cli
