// gounki delete [--db PATH] (IDS... | filters | --all) [--yes] [--json]
#include <QJsonDocument>

#include <unordered_set>

#include "cli/db_options.hpp"

namespace gounki::cli {

void describe_delete(QCommandLineParser& p) {
    add_db_option(p);
    add_game_choice_options(p, "delete");
    p.addOption({"yes", "Delete more than one game (without it, the games that would go are listed, and none is)."});
    p.addOption({"json", "Print one JSON object instead of text."});
}

namespace {

// "3-7, 9, 12" for ids in increasing order.
std::string id_ranges(std::vector<std::int64_t> ids) {
    std::sort(ids.begin(), ids.end());
    std::string out;
    for (std::size_t i = 0; i < ids.size();) {
        std::size_t j = i;
        while (j + 1 < ids.size() && ids[j + 1] == ids[j] + 1) ++j;
        out += (out.empty() ? "" : ", ") + std::to_string(ids[i]) + (j > i ? "-" + std::to_string(ids[j]) : "");
        i = j + 1;
    }
    return out;
}

QJsonArray json_ids(const std::vector<std::int64_t>& ids) {
    QJsonArray out;
    for (std::int64_t id : ids) out.append(qint64(id));
    return out;
}

// Without --yes, more than one game: what would go, and nothing deleted (exit status 1).
int preview(const QCommandLineParser& p, const std::vector<db::GameSummary>& games, const std::vector<std::int64_t>& ids) {
    if (p.isSet("json")) {
        const QJsonObject o{{"deleted", 0}, {"would_delete", qint64(ids.size())}, {"ids", json_ids(ids)}};
        print_out(QJsonDocument(o).toJson(QJsonDocument::Compact).toStdString() + "\n");
    } else {
        constexpr std::size_t shown = 20;
        const std::vector<db::GameSummary> head(games.begin(), games.begin() + std::ptrdiff_t(std::min(shown, games.size())));
        print_shown(games_table(head, false));
        if (games.size() > shown) print_out("... and " + counted(std::int64_t(games.size() - shown), "more game") + "\n");
    }
    print_err("gounki delete: " + counted(std::int64_t(ids.size()), "game") + " would be deleted (ids " + id_ranges(ids) +
              "); nothing was deleted: add --yes to delete them\n");
    return exit_findings;
}

// With --yes no summary is shown: the chosen games' ids alone, as chosen_summaries would give them
// (ids in the order given, each once; a range or id holding no game is an error), without reading
// every game's names (seconds for half a million games). False after printing why.
bool chosen_ids(const Command& cmd, db::GameDatabase& db, const GameChoice& choice, std::vector<std::int64_t>& out) {
    if (choice.search) {
        std::vector<db::GameSummary> games;
        if (!chosen_summaries(cmd, db, choice, games)) return false;
        for (const db::GameSummary& g : games) out.push_back(g.id);
        return true;
    }
    if (choice.spans.empty()) {
        out = db.game_ids(choice.filter);
        return true;
    }
    std::unordered_set<std::int64_t> seen;
    for (const GameChoice::Span& span : choice.spans) {
        db::GameFilter f = choice.filter;
        f.id_from = span.first;
        f.id_to = span.last;
        const std::vector<std::int64_t> ids = db.game_ids(f);
        if (ids.empty()) {
            // The span may hold games that the filters leave out: only a span of no game is an error.
            std::vector<db::GameSummary> any;
            if (!chosen_summaries(cmd, db, GameChoice{{span}, {}, std::nullopt}, any)) return false;
        }
        for (std::int64_t id : ids)
            if (seen.insert(id).second) out.push_back(id);
    }
    return true;
}

} // namespace

int run_delete(const QCommandLineParser& p) {
    const Command& self = *find_command("delete");
    int code = exit_ok;
    GameChoice choice;
    if (!read_game_choice(self, p, "delete", choice, code)) return code;
    std::vector<db::GameSummary> games;
    std::vector<std::int64_t> ids;
    {
        // Chosen on a read-only connection: a missing database file is not created by asking.
        auto reader = open_database(self, p, db::Access::read_only);
        if (!reader) return exit_usage;
        try {
            if (p.isSet("yes") && !choice.filter.order.given()) {
                if (!chosen_ids(self, *reader, choice, ids)) return exit_usage;
            } else {
                if (!chosen_summaries(self, *reader, choice, games)) return exit_usage;
                for (const db::GameSummary& g : games) ids.push_back(g.id);
            }
        } catch (const std::exception& e) { return database_error(self, e); }
    }
    if (ids.size() > 1 && !p.isSet("yes")) return preview(p, games, ids);
    std::int64_t deleted = 0;
    if (!ids.empty()) {
        auto database = open_database(self, p, db::Access::read_write);
        if (!database) return exit_usage;
        try {
            deleted = database->delete_games(ids);
        } catch (const std::exception& e) { return database_error(self, e); }
    }
    if (p.isSet("json")) {
        const QJsonObject o{{"deleted", qint64(deleted)}, {"ids", json_ids(ids)}};
        print_out(QJsonDocument(o).toJson(QJsonDocument::Compact).toStdString() + "\n");
    } else if (ids.size() == 1 && deleted == 1) {
        print_out("deleted game " + std::to_string(ids[0]) + "\n");
    } else {
        print_out("deleted " + counted(deleted, "game") + (ids.empty() ? "" : " (ids " + id_ranges(ids) + ")") + "\n");
    }
    if (deleted != std::int64_t(ids.size()))
        print_err("gounki delete: " + counted(std::int64_t(ids.size()) - deleted, "game") +
                  " went meanwhile (deleted by another process)\n");
    return exit_ok;
}

} // namespace gounki::cli
