// gounki games [--db PATH] [filters] [--limit N] [--offset N] [--json]
#include <QJsonDocument>

#include "cli/db_options.hpp"
#include "cli/views.hpp"

namespace gounki::cli {

void describe_games(QCommandLineParser& p) {
    add_db_option(p);
    add_filter_options(p);
    add_paging_options(p, 100);
    p.addOption({"json", "Print one JSON object instead of a table."});
}

int run_games(const QCommandLineParser& p) {
    const Command& self = *find_command("games");
    if (const int code = refuse_arguments(self, p)) return code;
    int code = exit_ok;
    db::GameFilter filter;
    db::Paging paging;
    if (!read_filter(self, p, filter, code) || !read_paging(self, p, paging, code)) return code;
    auto database = open_database(self, p, db::Access::read_only);
    if (!database) return exit_usage;
    try {
        const db::GameList list = database->list_games(filter, paging);
        if (p.isSet("json")) {
            print_out(QJsonDocument(games_json(list, paging, filter)).toJson(QJsonDocument::Compact).toStdString() + "\n");
        } else {
            print_shown(games_table(list.games, false) + paging_note(std::int64_t(list.games.size()), list.total, paging));
        }
    } catch (const std::exception& e) { return database_error(self, e); }
    return exit_ok;
}

} // namespace gounki::cli
