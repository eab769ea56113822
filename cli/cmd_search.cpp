// gounki search [--db PATH] [--position P | --pattern SPEC] [filters] [--limit N] [--offset N] [--json]
#include <QJsonDocument>

#include "cli/db_options.hpp"
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
    p.addOption({"threads", "Threads replaying games for --pattern (default: one per processor).", "N", "0"});
    add_filter_options(p);
    add_paging_options(p, 50);
    add_moves_option(p);
    p.addOption({"json", "Print one JSON object instead of a table."});
}

int run_search(const QCommandLineParser& p) {
    const Command& self = *find_command("search");
    if (!p.positionalArguments().isEmpty())
        return usage_error(self, "unexpected argument '" + p.positionalArguments()[0].toStdString() + "'");
    // --moves alone plays from the start: a position search all the same.
    const bool by_position = p.isSet("position") || p.isSet("moves");
    if (by_position && p.isSet("pattern")) return usage_error(self, "give --position (or --moves) or --pattern, not both");
    int code = exit_ok;
    db::GameFilter filter;
    db::Paging paging;
    if (!read_filter(self, p, filter, code) || !read_paging(self, p, paging, code)) return code;
    bool ok = false;
    const int threads = p.value("threads").toInt(&ok);
    if (!ok || threads < 0) return usage_error(self, "--threads takes a whole number from 0");

    AnyPosition position;
    if (p.isSet("position") && !read_position(self, p.value("position"), position)) return exit_usage;
    if (!apply_moves_option(self, p, position)) return exit_usage;
    const std::string position_text = position.to_text();
    std::optional<db::Pattern> pattern;
    std::optional<db::StonePattern> stone_pattern;
    if (p.isSet("pattern")) {
        const std::string text = p.value("pattern").toStdString();
        const auto bad = [&](const db::PatternError& e) {
            print_err("gounki search: bad pattern at character " + std::to_string(e.column + 1) + ": " + e.message + "\n  " +
                      text + "\n  " + std::string(std::size_t(e.column), ' ') + "^\n");
            return exit_usage;
        };
        if (stones::is_stone_position_text(text)) {
            auto parsed = db::StonePattern::parse(text);
            if (auto* e = std::get_if<db::PatternError>(&parsed)) return bad(*e);
            stone_pattern = std::get<db::StonePattern>(std::move(parsed));
        } else {
            auto parsed = db::Pattern::parse(text);
            if (auto* e = std::get_if<db::PatternError>(&parsed)) return bad(*e);
            pattern = std::get<db::Pattern>(std::move(parsed));
        }
    }
    const std::string pattern_text = pattern ? pattern->text() : stone_pattern ? stone_pattern->text() : std::string();

    auto database = open_database(self, p, db::Access::read_only);
    if (!database) return exit_usage;
    db::GameList list;
    try {
        if (by_position) list = database->search_position(position, filter, paging);
        else if (pattern) list = database->search_pattern(*pattern, filter, paging, threads);
        else if (stone_pattern) list = database->search_stone_pattern(*stone_pattern, filter, paging);
        else list = database->list_games(filter, paging); // the tag filters alone
    } catch (const std::exception& e) { return database_error(self, e); }

    const bool with_ply = by_position || p.isSet("pattern");
    if (p.isSet("json")) {
        QJsonArray games;
        for (const auto& g : list.games) games.append(summary_json(g));
        QJsonObject o{
            {"total", qint64(list.total)}, {"offset", qint64(paging.offset)}, {"filter", filter_json(filter)}, {"games", games}};
        if (by_position) o["position"] = QString::fromStdString(position_text);
        if (p.isSet("pattern")) o["pattern"] = QString::fromStdString(pattern_text);
        print_out(QJsonDocument(o).toJson(QJsonDocument::Compact).toStdString() + "\n");
        return exit_ok;
    }
    std::string out = std::to_string(list.total) + (list.total == 1 ? " game" : " games");
    if (by_position) out += " reached " + position_text;
    else if (p.isSet("pattern")) out += " matched " + pattern_text;
    else out += " matched the filters";
    out += "\n";
    if (!list.games.empty()) out += games_table(list.games, with_ply);
    out += paging_note(std::int64_t(list.games.size()), list.total, paging);
    print_out(out);
    return exit_ok;
}

} // namespace gounki::cli
