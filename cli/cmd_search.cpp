// gounki search [--db PATH] [--position P | --pattern SPEC | --opening NAME] [filters] [--limit N] [--offset N] [--json]
#include <QJsonDocument>

#include "cli/db_options.hpp"
#include "cli/views.hpp"
#include "db/pattern/gounki.hpp"
#include "db/pattern/stones.hpp"

namespace gounki::cli {

void describe_search(QCommandLineParser& p) {
    add_db_option(p);
    p.addOption({"position",
                 "Games that reached this position, whatever the move order: a Gounki position (docs/rules.md 1.7 "
                 "format) or a stone game's one (\"Gomoku 15 ...\", docs/rules.md 2).",
                 "position"});
    p.addOption({"pattern",
                 "Games that reached a partial position. Terms, separated by spaces or ';': a board of 8 ranks "
                 "'/'-separated (rank 8 first) whose cells are R S r s (RS).. exactly that stack, 1-8 empty squares, "
                 ". empty, ? anything, W B X any white/black/any stack, [Wr2] a stack with conditions (colour W or B, "
                 "rN sN nN: at least N rounds, squares, pieces); SQ=CELL for one square (e4=W, c3=(RS)); w or b, the "
                 "side to move; counts COUNT OP N with OP >= <= = > < and COUNT #CELL (stacks matching CELL), Wr Ws Wp "
                 "(White's rounds, squares, pieces) or Br Bs Bp. Example: '#[Wn3]>=2' (White has two stacks of three). "
                 "Stone-game patterns start with the game's name, then a board of 15 or 19 ranks (x o . ? * "
                 "and digits), PT=CELL terms (h8=x), b or w, and counts Bc Wc (stones captured by Black, White) "
                 "and Bs Ws (stones on the board): 'Ninuki h8=x i9=x Bc>=4'.",
                 "spec"});
    p.addOption({"opening",
                 "Renju games whose first three stones make this opening, in any of its turns and mirror images: "
                 "one of the 26 canonical openings by name (Kagetsu, any case; Shougetsu or Shogetsu), Japanese name "
                 "or code (4D, I13).",
                 "name"});
    p.addOption({"threads", "Threads replaying games for --pattern (default: one per processor).", "N", "0"});
    add_filter_options(p);
    add_paging_options(p, 50);
    add_moves_option(p);
    p.addOption({"json", "Print one JSON object instead of a table."});
}

int run_search(const QCommandLineParser& p) {
    const Command& self = *find_command("search");
    if (const int code = refuse_arguments(self, p)) return code;
    // --moves alone plays from the start: a position search all the same.
    const bool by_position = p.isSet("position") || p.isSet("moves");
    if (int(by_position) + int(p.isSet("pattern")) + int(p.isSet("opening")) > 1)
        return usage_error(self, "give one of --position (or --moves), --pattern and --opening");
    int code = exit_ok;
    db::GameFilter filter;
    db::Paging paging;
    if (!read_filter(self, p, filter, code) || !read_paging(self, p, paging, code)) return code;
    bool ok = false;
    const int threads = p.value("threads").toInt(&ok);
    if (!ok || threads < 0) return usage_error(self, "--threads takes a whole number from 0");

    SearchQuery query;
    if (by_position) {
        // --moves without --position play from the start of --game (as tree does), else Gounki's.
        AnyPosition position = AnyPosition::start(filter.kind.value_or(GameKind::gounki));
        if (p.isSet("position") && !read_position(self, p.value("position"), position)) return exit_usage;
        if (filter.kind && position.kind() != *filter.kind)
            return usage_error(self, "--position is a " + std::string(game_kind_name(position.kind())) + " position but --game is " +
                                         std::string(game_kind_name(*filter.kind)) + ": no game could reach it");
        if (!apply_moves_option(self, p, position)) return exit_usage;
        query.position = position;
    }
    if (p.isSet("pattern")) {
        const std::string text = p.value("pattern").toStdString();
        if (const auto e = parse_pattern(text, query)) {
            print_err("gounki search: " + pattern_error_text(*e) + "\n  " + text + "\n  " +
                      std::string(std::size_t(e->column), ' ') + "^\n");
            return exit_usage;
        }
    }

    if (p.isSet("opening"))
        if (const std::string e = parse_opening(p.value("opening").toStdString(), filter, query); !e.empty())
            return usage_error(self, "--opening " + e);

    auto database = open_database(self, p, db::Access::read_only);
    if (!database) return exit_usage;
    db::GameList list;
    try {
        list = run_search(*database, query, filter, paging, threads);
    } catch (const std::exception& e) { return database_error(self, e); }

    const bool with_ply = by_position || p.isSet("pattern") || query.opening;
    if (p.isSet("json")) {
        print_out(QJsonDocument(search_json(list, paging, filter, query)).toJson(QJsonDocument::Compact).toStdString() + "\n");
        return exit_ok;
    }
    std::string out = std::to_string(list.total) + (list.total == 1 ? " game" : " games");
    if (by_position) out += " reached " + query.position->to_text();
    else if (p.isSet("pattern")) out += " matched " + (query.pattern ? query.pattern->text() : query.stone_pattern->text());
    else if (query.opening) out += " opened " + query.opening->label();
    else out += " matched the filters";
    out += "\n";
    if (!list.games.empty()) out += games_table(list.games, with_ply);
    out += paging_note(std::int64_t(list.games.size()), list.total, paging);
    print_shown(out);
    return exit_ok;
}

} // namespace gounki::cli
