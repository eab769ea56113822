// gounki tree [--db PATH] [--position P] [--moves M] [--symmetric] [--json]
#include <QJsonDocument>

#include <cstdio>

#include "cli/db_options.hpp"
#include "cli/views.hpp"
#include "core/gounki/notation.hpp"

namespace gounki::cli {

void describe_tree(QCommandLineParser& p) {
    add_db_option(p);
    p.addOption({"position",
                 "The position to explore: a Gounki position (docs/rules.md 1.7 format) or a stone game's one "
                 "(\"Ninuki 19 ...\", docs/rules.md 2); default: the start position of --game.",
                 "position"});
    p.addOption({"game",
                 QString::fromStdString("Without --position: start from the empty board of " + game_ids_text(Family::stones) +
                                        " (default: gounki)."),
                 "kind", "gounki"});
    p.addOption({"symmetric",
                 "A stone game's position: take in the games that reached its turns and mirror images too (the "
                 "board's eight symmetries), their moves turned to this position."});
    p.addOption({"json", "Print one JSON object instead of a table."});
    add_moves_option(p);
}

int run_tree(const QCommandLineParser& p) {
    const Command& self = *find_command("tree");
    if (const int code = refuse_arguments(self, p)) return code;
    GameKind game = GameKind::gounki;
    if (!read_game(self, "game", p.value("game"), game)) return exit_usage;
    AnyPosition pos = AnyPosition::start(game);
    if (p.isSet("position") && !read_position(self, p.value("position"), pos)) return exit_usage;
    if (p.isSet("position") && p.isSet("game") && pos.kind() != game)
        return usage_error(self, "--position is a " + std::string(game_kind_name(pos.kind())) + " position but --game is " +
                                     std::string(game_kind_name(game)) + ": give one of them");
    if (!apply_moves_option(self, p, pos)) return exit_usage;
    const bool symmetric = p.isSet("symmetric");
    if (symmetric)
        if (const std::string e = symmetric_refusal(pos); !e.empty()) return usage_error(self, "--" + e);
    const std::string position_text = pos.to_text();
    auto database = open_database(self, p, db::Access::read_only);
    if (!database) return exit_usage;
    db::Tree tree;
    try {
        tree = database->tree(pos, symmetric);
    } catch (const std::exception& e) { return database_error(self, e); }
    const auto pct = [](std::int64_t part, std::int64_t whole) { return whole ? 100.0 * double(part) / double(whole) : 0.0; };
    if (p.isSet("json")) {
        print_out(QJsonDocument(tree_json(pos, tree, symmetric)).toJson(QJsonDocument::Compact).toStdString() + "\n");
        return exit_ok;
    }
    std::string out = position_text + "\n";
    if (const stones::RenjuOpening* o = renju_opening(pos)) out += "Opening " + o->label() + "\n";
    out += std::to_string(tree.games) + (tree.games == 1 ? " game" : " games") + " continued from here" +
        images_said(symmetric, true) + "\n";
    // A Renju move that makes one of the 26 openings is named beside it ("i9 Kagetsu (4D)").
    std::vector<std::string> moves;
    std::size_t width = 14;
    for (const db::TreeMove& m : tree.moves) {
        std::string move = pos.move_text(m.move);
        if (const stones::RenjuOpening* o = renju_opening_after(pos, m.move)) move += " " + o->label();
        width = std::max(width, move.size());
        moves.push_back(std::move(move));
    }
    // The first player's share first, as the lists name the players (Black's in Gomoku, Ninuki, Renju).
    const bool black_first = first_mover(pos.kind()) == Color::black;
    if (!tree.moves.empty())
        out += std::string("Move") + std::string(width - 4, ' ') + (black_first ? "    Games   Black   White    Draw  Latest\n" : "    Games   White   Black    Draw  Latest\n");
    for (std::size_t i = 0; i < tree.moves.size(); ++i) {
        const db::TreeMove& m = tree.moves[i];
        char line[160];
        std::string move = moves[i];
        move.resize(width, ' ');
        std::snprintf(line, sizeof line, "%s %8lld  %5.1f%%  %5.1f%%  %5.1f%%  ", move.c_str(), static_cast<long long>(m.games),
                      pct(black_first ? m.black_wins : m.white_wins, m.games), pct(black_first ? m.white_wins : m.black_wins, m.games),
                      pct(m.draws, m.games));
        const db::GameSummary& g = m.latest;
        // The latest game as the lists name it: its first player first, its result in its own convention.
        out += line + std::string("#") + std::to_string(g.id) + " " + players_shown(g) + " " + (g.date.empty() ? "?" : g.date) +
            " " + result_shown(g) + "\n";
    }
    print_shown(out);
    return exit_ok;
}

} // namespace gounki::cli
