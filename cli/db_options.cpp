#include "cli/db_options.hpp"

#include "cli/views.hpp"

#include <QRegularExpression>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <thread>
#include <unordered_map>
#include <unordered_set>

namespace gounki::cli {

void add_db_option(QCommandLineParser& p) {
    p.addOption({"db",
                 "The database: an SQLite file, or a PostgreSQL server as postgresql://USER@HOST/DBNAME "
                 "(default: $GOUNKI_DB, else ./gounki.db).",
                 "path|url"});
}

std::string db_path(const QCommandLineParser& p) {
    return p.isSet("db") ? p.value("db").toStdString() : db::default_database_path();
}

void add_filter_options(QCommandLineParser& p) {
    p.addOption({"white", "Games whose White player's name contains this text (any case or accents).", "name"});
    p.addOption({"black", "Games whose Black player's name contains this text (any case or accents).", "name"});
    p.addOption({"player", "Games in which a player's name contains this text (any case or accents).", "name"});
    p.addOption({"event", "Games whose event's name contains this text (any case or accents).", "name"});
    p.addOption({"site", "Games whose site contains this text (any case or accents).", "place"});
    p.addOption({"source", "Games imported from a file whose path contains this text (any case or accents).", "text"});
    p.addOption({"result", "Games with this result: 1-0, 0-1, 1/2-1/2 or * (also white, black, draw).", "result"});
    p.addOption({"from",
                 "Games played on or after this date: YYYY, YYYY.MM or YYYY.MM.DD (a game dated to the month or year "
                 "only, 2024.05.??, counts when all of it is in the range).",
                 "date"});
    p.addOption({"to", "Games played on or before this date: YYYY, YYYY.MM or YYYY.MM.DD.", "date"});
    p.addOption({"game", QString::fromStdString("Games of this game: " + game_ids_text() + "."), "kind"});
    p.addOption(
        {"status", "Games of this status: valid, partial (moves cut at an error) or invalid (errors, moves whole).", "status"});
    p.addOption({"sort",
                 "Games in this order: id (default), date (unknown last), player (White, then Black), event or result "
                 "(1-0, 0-1, 1/2-1/2, *); ties by id.",
                 "key"});
    p.addOption({"desc", "Sort in descending order (unknown dates, names and results still last)."});
}

void add_search_options(QCommandLineParser& p) {
    p.addOption({"position",
                 "Games that reached this position, whatever the move order: a Gounki position (docs/rules.md 1.7 "
                 "format) or a stone game's one (\"Gomoku 15 ...\", docs/rules.md 2).",
                 "position"});
    add_moves_option(p);
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
    p.addOption({"symmetric",
                 "With --position, --moves or --pattern in a stone game: games that reached the position, or matched "
                 "the pattern, in any of its turns and mirror images too (the board's eight symmetries about its centre)."});
}

bool read_search(const Command& cmd, const QCommandLineParser& p, const db::GameFilter& filter, SearchQuery& query,
                 bool& searched, int& exit_code) {
    // --moves alone plays from the start: a position search all the same.
    const bool by_position = p.isSet("position") || p.isSet("moves");
    searched = by_position || p.isSet("pattern") || p.isSet("opening");
    if (int(by_position) + int(p.isSet("pattern")) + int(p.isSet("opening")) > 1) {
        exit_code = usage_error(cmd, "give one of --position (or --moves), --pattern and --opening");
        return false;
    }
    if (by_position) {
        // --moves without --position play from the start of --game (as tree does), else Gounki's.
        AnyPosition position = AnyPosition::start(filter.kind.value_or(GameKind::gounki));
        if (p.isSet("position") && !read_position(cmd, p.value("position"), position)) {
            exit_code = exit_usage;
            return false;
        }
        if (filter.kind && position.kind() != *filter.kind) {
            exit_code = usage_error(cmd, "--position is a " + std::string(game_kind_name(position.kind())) + " position but --game is " +
                                             std::string(game_kind_name(*filter.kind)) + ": no game could reach it");
            return false;
        }
        if (!apply_moves_option(cmd, p, position)) {
            exit_code = exit_usage;
            return false;
        }
        query.position = position;
    }
    if (p.isSet("pattern")) {
        const std::string text = p.value("pattern").toStdString();
        if (const auto e = parse_pattern(text, query)) {
            print_err("gounki " + std::string(cmd.name) + ": " + pattern_error_text(*e) + "\n  " + text + "\n  " +
                      std::string(std::size_t(e->column), ' ') + "^\n");
            exit_code = exit_usage;
            return false;
        }
    }
    if (p.isSet("opening"))
        if (const std::string e = parse_opening(p.value("opening").toStdString(), filter, query); !e.empty()) {
            exit_code = usage_error(cmd, "--opening " + e);
            return false;
        }
    if (p.isSet("symmetric")) {
        query.symmetric = true;
        if (const std::string e = symmetric_refusal(query); !e.empty()) {
            exit_code = usage_error(cmd, "--" + e);
            return false;
        }
    }
    return true;
}

void add_game_choice_options(QCommandLineParser& p, const std::string& verb) {
    add_filter_options(p);
    add_search_options(p);
    p.addOption({"all", QString::fromStdString("Every game of the database.")});
    p.addPositionalArgument(
        "IDS", QString::fromStdString("Game ids or id ranges (3-7) to " + verb + "; or use filters, a search (--position, --moves, --pattern, --opening) or --all."), "[IDS...]");
}

namespace {

// The widest range read, so that a typing slip ("1-99999999999") cannot ask for billions of lookups.
constexpr std::int64_t max_range = 10'000'000;

} // namespace

bool read_game_choice(const Command& cmd, const QCommandLineParser& p, const std::string& verb, GameChoice& out, int& exit_code) {
    if (!read_filter(cmd, p, out.filter, exit_code)) return false;
    SearchQuery query;
    bool searched = false;
    if (!read_search(cmd, p, out.filter, query, searched, exit_code)) return false;
    if (searched) out.search = std::move(query);
    static const QRegularExpression id_or_range("^(\\d+)(?:-(\\d+))?$");
    for (const QString& a : p.positionalArguments()) {
        const QRegularExpressionMatch m = id_or_range.match(a.trimmed());
        bool ok_first = false, ok_last = true;
        GameChoice::Span span;
        if (m.hasMatch()) {
            span.first = m.captured(1).toLongLong(&ok_first);
            span.last = m.captured(2).isEmpty() ? span.first : m.captured(2).toLongLong(&ok_last);
        }
        if (!ok_first || !ok_last || span.first < 1 || span.last < span.first || span.last - span.first >= max_range) {
            exit_code = usage_error(cmd,
                                    std::string("'").append(a.toStdString()) + "' is not a game id or a range of ids such as 3-7" +
                                        (ok_first && span.last - span.first >= max_range ? " (at most ten million)" : ""));
            return false;
        }
        out.spans.push_back(span);
    }
    if (!out.spans.empty() && p.isSet("all")) {
        exit_code = usage_error(cmd, "give game ids or --all, not both");
        return false;
    }
    if (!out.spans.empty() && out.search) {
        exit_code = usage_error(cmd, "give game ids or a search (--position, --moves, --pattern, --opening), not both");
        return false;
    }
    if (out.spans.empty() && !out.filter.any() && !out.search && !p.isSet("all")) {
        exit_code = usage_error(cmd, "say which games to " + verb + ": game ids, tag filters, a search, or --all");
        return false;
    }
    return true;
}

namespace {

// Games chosen by id, put in the filter's order (--sort): that of the filter's games over their ids.
void sort_chosen(db::GameDatabase& db, const db::GameFilter& filter, std::vector<db::GameSummary>& games) {
    if (games.empty()) return;
    db::GameFilter span = filter;
    span.id_from = span.id_to = games.front().id;
    std::unordered_map<std::int64_t, std::size_t> at;
    for (std::size_t i = 0; i < games.size(); ++i) {
        at.emplace(games[i].id, i);
        span.id_from = std::min(*span.id_from, games[i].id);
        span.id_to = std::max(*span.id_to, games[i].id);
    }
    std::vector<db::GameSummary> sorted;
    sorted.reserve(games.size());
    for (std::int64_t id : db.game_ids(span))
        if (const auto it = at.find(id); it != at.end()) sorted.push_back(std::move(games[it->second]));
    games = std::move(sorted);
}

} // namespace

bool chosen_summaries(const Command& cmd, db::GameDatabase& db, const GameChoice& choice, std::vector<db::GameSummary>& out) {
    if (choice.search) { // the search's games that the filters keep, in their order
        out = run_search(db, *choice.search, choice.filter, {-1, 0}, 0).games;
        return true;
    }
    if (choice.spans.empty()) {
        out = db.list_games(choice.filter, {}).games;
        return true;
    }
    std::unordered_set<std::int64_t> seen;
    for (const GameChoice::Span& span : choice.spans) {
        db::GameFilter in_span;
        in_span.id_from = span.first;
        in_span.id_to = span.last;
        if (db.list_games(in_span, {0, 0}).total == 0) {
            const std::string which = span.first == span.last
                ? "game " + std::to_string(span.first)
                : "game from " + std::to_string(span.first) + " to " + std::to_string(span.last);
            print_err("gounki " + std::string(cmd.name) + ": no " + which + " in " + db.sql().path() + "\n");
            out.clear();
            return false;
        }
        db::GameFilter f = choice.filter;
        f.id_from = span.first;
        f.id_to = span.last;
        for (db::GameSummary& g : db.list_games(f, {}).games)
            if (seen.insert(g.id).second) out.push_back(std::move(g));
    }
    if (choice.filter.order.given()) sort_chosen(db, choice.filter, out);
    return true;
}

bool chosen_games(const Command& cmd, db::GameDatabase& db, const GameChoice& choice, std::vector<db::StoredGame>& out) {
    return for_each_chosen(cmd, db, choice, [&](const db::StoredGame& g) {
        out.push_back(g);
        return true;
    });
}

bool for_each_chosen(const Command& cmd, db::GameDatabase& db, const GameChoice& choice,
                     const std::function<bool(const db::StoredGame&)>& fn) {
    if (choice.spans.empty() && !choice.search) {
        db.for_each_game(choice.filter, fn);
        return true;
    }
    std::vector<db::GameSummary> games;
    if (!chosen_summaries(cmd, db, choice, games)) return false;
    for (const db::GameSummary& s : games)
        if (auto g = db.game(s.id); g && !fn(*g)) break;
    return true;
}

bool read_filter(const Command& cmd, const QCommandLineParser& p, db::GameFilter& f, int& exit_code) {
    const std::string error = read_filter_values(
        [&p](const char* name) { return p.isSet(name) ? std::optional<QString>(p.value(name)) : std::nullopt; }, "--", f);
    if (error.empty()) return true;
    exit_code = usage_error(cmd, error);
    return false;
}

void add_paging_options(QCommandLineParser& p, int default_limit) {
    p.addOption(
        {"limit", QString("Show at most N games (default %1; 0: all).").arg(default_limit), "N", QString::number(default_limit)});
    p.addOption({"offset", "Skip the first N games (default 0).", "N", "0"});
}

bool read_paging(const Command& cmd, const QCommandLineParser& p, db::Paging& out, int& exit_code) {
    bool ok1 = false, ok2 = false;
    const qlonglong limit = p.value("limit").toLongLong(&ok1);
    const qlonglong offset = p.value("offset").toLongLong(&ok2);
    if (!ok1 || !ok2 || limit < 0 || offset < 0) {
        exit_code = usage_error(cmd, "--limit and --offset take whole numbers from 0");
        return false;
    }
    out.limit = limit == 0 ? -1 : limit;
    out.offset = offset;
    return true;
}

std::unique_ptr<db::GameDatabase> open_database(const Command& cmd, const QCommandLineParser& p, db::Access access,
                                                bool create) {
    const std::string path = db_path(p);
    std::error_code ec;
    if (access == db::Access::read_write && !create && !db::is_postgres_url(path) && !std::filesystem::exists(path, ec)) {
        print_err(std::string("gounki ") + cmd.name + ": no database at '" + path + "' (import games to create one)\n");
        return nullptr;
    }
    try {
        return std::make_unique<db::GameDatabase>(db_path(p), access);
    } catch (const std::exception& e) {
        database_error(cmd, e);
        return nullptr;
    }
}

int database_error(const Command& cmd, const std::exception& e) {
    print_err(std::string("gounki ") + cmd.name + ": " + e.what() + "\n");
    return exit_usage;
}

bool connection_lost(const std::exception& e) {
    const auto* d = dynamic_cast<const db::DbError*>(&e);
    return d && (d->is_connection_lost() || d->sqlstate().starts_with("57P"));
}

std::unique_ptr<db::GameDatabase> connect_again(const std::string& command, const std::string& path, db::Access access,
                                                double patience_s, const std::function<bool()>& stop) {
    const auto start = std::chrono::steady_clock::now();
    for (int delay_ms = 500;; delay_ms = std::min(2 * delay_ms, 8000)) {
        try {
            return std::make_unique<db::GameDatabase>(path, access);
        } catch (const db::DbError& e) {
            const double waited = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
            if (!connection_lost(e) || waited > patience_s || (stop && stop())) throw;
            print_err("gounki " + command + ": cannot connect yet (" + std::string(e.what()) + "); trying again\n");
            std::this_thread::sleep_for(std::chrono::milliseconds(delay_ms));
        }
    }
}

bool read_game_id(const Command& cmd, const QString& text, const std::string& what, std::int64_t& id) {
    bool ok = false;
    id = text.toLongLong(&ok);
    if (ok && id > 0) return true;
    usage_error(cmd, what + " must be a game id (a positive whole number), got '" + text.toStdString() + "'");
    return false;
}

std::optional<db::StoredGame> stored_game(const Command& cmd, const QCommandLineParser& p, const QString& text,
                                          const std::string& what) {
    std::int64_t id = 0;
    if (!read_game_id(cmd, text, what, id)) return std::nullopt;
    auto database = open_database(cmd, p, db::Access::read_only);
    if (!database) return std::nullopt;
    std::optional<db::StoredGame> game;
    try {
        game = database->game(id);
    } catch (const std::exception& e) {
        database_error(cmd, e);
        return std::nullopt;
    }
    if (!game)
        print_err("gounki " + std::string(cmd.name) + ": no game with id " + std::to_string(id) + " in " + db::redacted_url(db_path(p)) + "\n");
    return game;
}

QJsonObject summary_json(const db::GameSummary& g) {
    QJsonObject o;
    o["id"] = qint64(g.id);
    o["game"] = QString::fromUtf8(game_kind_name(g.kind).data(), qsizetype(game_kind_name(g.kind).size()));
    o["white"] = QString::fromStdString(g.white);
    o["black"] = QString::fromStdString(g.black);
    o["event"] = QString::fromStdString(g.event);
    o["site"] = QString::fromStdString(g.site);
    o["date"] = QString::fromStdString(g.date);
    o["round"] = QString::fromStdString(g.round);
    o["result"] = QString::fromStdString(std::string(db::result_text(g.result)));
    o["result_shown"] = QString::fromStdString(result_shown(g));
    o["first_player"] = first_mover(g.kind) == Color::white ? "white" : "black";
    o["plies"] = g.ply_count;
    o["status"] = QString::fromStdString(std::string(db::status_name(g.status)));
    if (g.ply >= 0) o["ply"] = g.ply;
    return o;
}

QJsonObject import_phases_json(const db::ImportStats& s) {
    return QJsonObject{
        {"prepare", s.prepare_s}, {"wait", s.wait_s},     {"games", s.games_s}, {"index", s.index_s},
        {"tree", s.tree_s},       {"commit", s.commit_s}, {"merge", s.merge_s}, {"lookup_indexes", s.lookup_indexes_s}};
}

QJsonObject filter_json(const db::GameFilter& f) {
    QJsonObject o;
    for (const auto& [name, text] : {std::pair{"white", &f.white},
                                     {"source", &f.source},
                                     {"black", &f.black},
                                     {"player", &f.player},
                                     {"event", &f.event},
                                     {"site", &f.site}})
        if (!text->empty()) o[name] = QString::fromStdString(*text);
    if (f.result) o["result"] = QString::fromStdString(std::string(db::result_text(*f.result)));
    if (f.date_from) o["from"] = qint64(*f.date_from);
    if (f.date_to) o["to"] = qint64(*f.date_to);
    if (f.status)
        o["status"] = QString::fromUtf8(db::status_name(*f.status).data(), qsizetype(db::status_name(*f.status).size()));
    if (f.order.given()) {
        static constexpr const char* keys[] = {"id", "date", "player", "event", "result"};
        o["sort"] = keys[int(f.order.key)];
        o["desc"] = f.order.descending;
    }
    if (f.kind) o["game"] = QString::fromUtf8(game_kind_name(*f.kind).data(), qsizetype(game_kind_name(*f.kind).size()));
    return o;
}

namespace {

// Pads or cuts `text` to `width` characters as a terminal shows them: UTF-8 continuation bytes take
// no column, and a cut never splits a character.
std::string cell(const std::string& text, std::size_t width) {
    std::string out;
    std::size_t columns = 0;
    auto starts_char = [](unsigned char c) { return (c & 0xC0) != 0x80; };
    std::size_t total = 0;
    for (unsigned char c : text) total += starts_char(c);
    const std::size_t keep = total > width ? width - 1 : total;
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (starts_char(static_cast<unsigned char>(text[i]))) {
            if (columns == keep) break;
            ++columns;
        }
        out += text[i];
    }
    if (total > width) {
        out += '~';
        ++columns;
    }
    out.append(width - columns, ' ');
    return out;
}

} // namespace

std::string PlayerColumns::heading(int column) const {
    if (neutral) return column == 0 ? "First" : "Second";
    return (column == 0) == (first == Color::white) ? "White" : "Black";
}

std::string PlayerColumns::name(const db::GameSummary& g, int column) const {
    const Color game_first = neutral ? first_mover(g.kind) : first;
    const Color c = column == 0 ? game_first : ~game_first;
    const std::string& n = c == Color::white ? g.white : g.black;
    return (n.empty() ? "?" : n) + (neutral ? (c == Color::white ? " (W)" : " (B)") : "");
}

PlayerColumns player_columns(const std::vector<db::GameSummary>& games) {
    PlayerColumns out;
    if (games.empty()) return out;
    out.first = first_mover(games.front().kind);
    out.neutral = std::any_of(games.begin(), games.end(), [&](const db::GameSummary& g) { return first_mover(g.kind) != out.first; });
    return out;
}

std::string result_shown(const db::GameSummary& g) {
    if (!is_stone_game(g.kind)) return std::string(db::result_text(g.result));
    switch (g.result) {
    case db::ResultCode::white_wins: return "W+";
    case db::ResultCode::black_wins: return "B+";
    case db::ResultCode::draw: return "Draw";
    default: return std::string(db::result_text(g.result));
    }
}

std::string players_shown(const db::GameSummary& g) {
    const PlayerColumns own{false, first_mover(g.kind)};
    return own.name(g, 0) + " - " + own.name(g, 1);
}

std::string games_table(const std::vector<db::GameSummary>& games, bool with_ply) {
    std::string out;
    char line[64];
    // A Game column when the list holds stone games (a Gounki-only list reads as it always did).
    const bool kinds =
        std::any_of(games.begin(), games.end(), [](const db::GameSummary& g) { return g.kind != GameKind::gounki; });
    const PlayerColumns players = player_columns(games);
    const std::size_t width = players.neutral ? 24 : 20; // room for " (W)"
    std::snprintf(line, sizeof line, "%8s  ", "Id");
    out += line;
    if (kinds) out += cell("Game", 6) + "  ";
    out += cell(players.heading(0), width) + "  " + cell(players.heading(1), width) + "  " + cell("Date", 10) + "  " +
        cell("Result", 7) + "  Plies";
    if (with_ply) out += "   Ply";
    out += "  Event\n";
    for (const db::GameSummary& g : games) {
        std::snprintf(line, sizeof line, "%8lld  ", static_cast<long long>(g.id));
        out += line;
        if (kinds) out += cell(std::string(game_kind_name(g.kind)), 6) + "  ";
        // A long name is cut, not the " (W)" after it.
        auto player = [&](int column) {
            std::string full = players.name(g, column);
            if (!players.neutral) return cell(full, width);
            std::string name = cell(full.substr(0, full.size() - 4), width - 4);
            name.erase(name.find_last_not_of(' ') + 1);
            return cell(name + full.substr(full.size() - 4), width);
        };
        out += player(0) + "  " + player(1) + "  " + cell(g.date.empty() ? "?" : g.date, 10) + "  " + cell(result_shown(g), 7);
        std::snprintf(line, sizeof line, "  %5d", g.ply_count);
        out += line;
        if (with_ply) {
            std::snprintf(line, sizeof line, "  %4d", g.ply);
            out += line;
        }
        out += "  " + g.event;
        if (g.status != db::GameStatus::valid) out += std::string(" (") + std::string(db::status_name(g.status)) + ")";
        out += "\n";
    }
    return out;
}

std::string paging_note(std::int64_t shown, std::int64_t total, const db::Paging& paging) {
    if (shown >= total && paging.offset == 0) return {};
    if (shown == 0) return "none shown (offset " + std::to_string(paging.offset) + " of " + std::to_string(total) + ")\n";
    std::string note = "showing " + std::to_string(paging.offset + 1) + "-" + std::to_string(paging.offset + shown) + " of " +
        std::to_string(total);
    if (paging.offset + shown < total) note += "; --offset " + std::to_string(paging.offset + shown) + " for more";
    return note + "\n";
}

} // namespace gounki::cli
