// gounki search [--db PATH] [--position P | --pattern SPEC | --opening NAME] [filters] [--limit N] [--offset N] [--json]
#include <QJsonDocument>

#include "cli/db_options.hpp"
#include "cli/views.hpp"
#include "db/pattern/gounki.hpp"
#include "db/pattern/stones.hpp"

namespace gounki::cli {

void describe_search(QCommandLineParser& p) {
    add_db_option(p);
    add_search_options(p);
    p.addOption({"threads", "Threads replaying games for --pattern (default: one per processor).", "N", "0"});
    add_filter_options(p);
    add_paging_options(p, 50);
    p.addOption({"json", "Print one JSON object instead of a table."});
}

int run_search(const QCommandLineParser& p) {
    const Command& self = *find_command("search");
    if (const int code = refuse_arguments(self, p)) return code;
    int code = exit_ok;
    db::GameFilter filter;
    db::Paging paging;
    if (!read_filter(self, p, filter, code) || !read_paging(self, p, paging, code)) return code;
    bool ok = false;
    const int threads = p.value("threads").toInt(&ok);
    if (!ok || threads < 0) return usage_error(self, "--threads takes a whole number from 0");
    SearchQuery query;
    bool searched = false;
    if (!read_search(self, p, filter, query, searched, code)) return code;

    auto database = open_database(self, p, db::Access::read_only);
    if (!database) return exit_usage;
    db::GameList list;
    try {
        list = run_search(*database, query, filter, paging, threads);
    } catch (const std::exception& e) { return database_error(self, e); }

    if (p.isSet("json")) {
        print_out(QJsonDocument(search_json(list, paging, filter, query)).toJson(QJsonDocument::Compact).toStdString() + "\n");
        return exit_ok;
    }
    std::string out = std::to_string(list.total) + (list.total == 1 ? " game" : " games");
    if (query.position) out += " reached " + query.position->to_text() + images_said(query.symmetric);
    else if (p.isSet("pattern"))
        out += " matched " + (query.pattern ? query.pattern->text() : query.stone_pattern->text()) +
            images_said(query.symmetric);
    else if (query.opening) out += " opened " + query.opening->label();
    else out += " matched the filters";
    out += "\n";
    if (!list.games.empty()) out += games_table(list.games, searched);
    out += paging_note(std::int64_t(list.games.size()), list.total, paging);
    print_shown(out);
    return exit_ok;
}

} // namespace gounki::cli
