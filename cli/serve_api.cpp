// gounki serve: the routes and the JSON API under /api/ (the objects of the commands' --json).
#include <QJsonArray>
#include <QJsonDocument>

#include <algorithm>
#include <limits>
#include <sstream>

#include "cli/command.hpp"
#include "cli/json_lines.hpp"
#include "cli/serve.hpp"
#include "cli/views.hpp"
#include "db/analysis_store.hpp"
#include "pipeline/import.hpp"
#include "report/render.hpp"

namespace gounki::cli::serve {

std::int64_t path_id(const QString& text) {
    static const QRegularExpression digits("^[1-9][0-9]{0,17}$");
    return digits.match(text).hasMatch() ? text.toLongLong() : 0;
}

std::string read_paging_values(const Request& r, db::Paging& paging) {
    paging.limit = 50;
    paging.offset = 0;
    const auto number = [&](const char* name, long long lo, long long hi, std::int64_t& out) -> std::string {
        const auto v = r.param(name);
        if (!v) return {};
        bool ok = false;
        const long long n = v->toLongLong(&ok);
        if (!ok || n < lo || n > hi)
            return std::string(name) + " must be a whole number from " + std::to_string(lo) + " to " + std::to_string(hi) +
                ", got '" + v->toStdString() + "'";
        out = n;
        return {};
    };
    std::int64_t page = 0;
    for (const auto& e : {number("limit", 1, 1000, paging.limit), number("offset", 0, std::numeric_limits<int>::max(), paging.offset),
                          number("page", 1, 1000000, page)})
        if (!e.empty()) return e;
    if (page) paging.offset = (page - 1) * paging.limit;
    return {};
}

std::string read_keyset_values(const Request& r, db::GameFilter& filter, Keyset& keyset) {
    keyset = {};
    for (const char* name : {"after", "before"}) {
        const auto v = r.param(name);
        if (!v) continue;
        const std::int64_t id = path_id(*v);
        if (!id) return std::string(name) + " must be a game id (a whole number from 1), got '" + v->toStdString() + "'";
        if (filter.order.key != db::SortKey::id)
            return std::string(name) + " pages the id order only: use offset or page with sort=" + r.param("sort")->toStdString();
        if (r.param("offset") || r.param("page")) return std::string("give ") + name + " or offset (page), not both";
        (name == std::string("after") ? keyset.after : keyset.before) = id;
    }
    if (keyset.after && keyset.before) return "give after or before, not both";
    const bool desc = filter.order.descending;
    const auto below = [&](std::int64_t id) { filter.id_to = std::min(filter.id_to.value_or(id - 1), id - 1); };
    const auto above = [&](std::int64_t id) { filter.id_from = std::max(filter.id_from.value_or(id + 1), id + 1); };
    if (keyset.after) desc ? below(keyset.after) : above(keyset.after);
    if (keyset.before) {
        // The games just before it: read in the opposite order, then turned back (Keyset::restore).
        desc ? above(keyset.before) : below(keyset.before);
        filter.order.descending = !desc;
    }
    return {};
}

void Keyset::restore(db::GameFilter& filter, db::GameList& list) const {
    if (!before) return;
    filter.order.descending = !filter.order.descending;
    std::reverse(list.games.begin(), list.games.end());
}

namespace {

std::string play_moves(const QString& list, AnyPosition& pos) {
    static const QRegularExpression blanks("\\s+"), move_number("^\\d+\\.+$");
    int n = 0;
    for (const QString& token : list.split(blanks, Qt::SkipEmptyParts)) {
        if (move_number.match(token).hasMatch()) continue;
        const MoveReading m = read_move(pos, token.toStdString());
        ++n;
        if (!m.error.empty()) return "moves: move " + std::to_string(n) + " '" + token.toStdString() + "': " + m.error;
        pos.play(m.move);
    }
    return {};
}

} // namespace

std::string read_position_values(const Request& r, AnyPosition& pos, bool& given) {
    given = false;
    GameKind kind = GameKind::gounki;
    if (const auto g = r.param("game")) {
        const auto k = parse_game_kind(g->toStdString());
        if (!k) return "game must be " + game_ids_text() + ", got '" + g->toStdString() + "'";
        kind = *k;
    }
    pos = AnyPosition::start(kind);
    if (const auto text = r.param("position")) {
        auto parsed = AnyPosition::from_text(text->toStdString());
        if (auto* e = std::get_if<PositionError>(&parsed))
            return "position: bad position at character " + std::to_string(e->column + 1) + ": " + e->message;
        pos = std::get<AnyPosition>(std::move(parsed));
        given = true;
    }
    if (const auto moves = r.param("moves")) {
        given = true;
        return play_moves(*moves, pos);
    }
    return {};
}

std::string read_symmetric_value(const Request& r, const AnyPosition& pos, bool& symmetric) {
    if (std::string e = r.flag("symmetric", symmetric); !e.empty()) return e;
    return symmetric ? symmetric_refusal(pos) : std::string();
}

std::string read_search_values(const Request& r, const AnyPosition& pos, bool by_position, const db::GameFilter& filter,
                               SearchQuery& query) {
    if (int(by_position) + int(bool(r.param("pattern"))) + int(bool(r.param("opening"))) > 1)
        return "give one of position (or moves), pattern and opening";
    if (by_position) query.position = pos;
    if (r.param("pattern"))
        if (const auto e = parse_pattern(r.param("pattern")->toStdString(), query)) return "pattern: " + pattern_error_text(*e);
    if (r.param("opening"))
        if (const std::string e = parse_opening(r.param("opening")->toStdString(), filter, query); !e.empty()) return "opening: " + e;
    if (std::string e = r.flag("symmetric", query.symmetric); !e.empty()) return e;
    if (query.symmetric) return symmetric_refusal(query);
    return {};
}

QByteArray allowed_methods(const QString& path) {
    const QStringList parts = path.split('/');
    if (path == "/api/import") return "POST";
    if (parts.size() == 5 && parts[1] == "api" && parts[2] == "games" && path_id(parts[3]) && parts[4] == "judge")
        return "GET, HEAD, POST";
    return "GET, HEAD";
}

Reply App::handle(const Request& r) {
    const QStringList parts = r.path.split('/');
    // "/api/games/12" splits as "", "api", "games", "12".
    const auto is = [&](std::initializer_list<const char*> names) {
        if (parts.size() != qsizetype(names.size()) + 1) return false;
        qsizetype i = 1;
        for (const char* n : names) {
            if (*n != '*' && parts[i] != QLatin1String(n)) return false;
            ++i;
        }
        return true;
    };
    const bool api = parts.size() > 1 && parts[1] == "api";
    const bool judge = is({"api", "games", "*", "judge"}) && path_id(parts[3]);
    const auto bad_method = [&](const std::string& message) {
        Reply reply = error_reply(405, "bad-method", message);
        reply.headers.emplace_back("Allow", allowed_methods(r.path));
        return reply;
    };
    if (r.post && !is({"api", "import"}) && !judge) return bad_method("only /api/import and /api/games/ID/judge take POST");
    if (judge) return api_judge(path_id(parts[3]), r);
    if (is({"api", "import"})) return r.post ? api_import(r) : bad_method("/api/import takes POST");
    if (is({"api", "games"})) return api_games(r);
    if (is({"api", "games", "*"}) && path_id(parts[3])) return api_game(path_id(parts[3]));
    if (is({"api", "search"})) return api_search(r);
    if (is({"api", "tree"})) return api_tree(r);
    if (is({"api", "report", "*"}) && path_id(parts[3])) return api_report(path_id(parts[3]), r);
    if (api) return error_reply(404, "not-found", "no such API endpoint: " + r.path.toStdString());
    if (r.path == "/" || is({"games"})) return page_games(r);
    if (is({"game", "*"}) && path_id(parts[2])) return page_game(path_id(parts[2]));
    if (is({"search"})) return page_search(r);
    if (is({"explorer"})) return page_explorer(r);
    if (is({"import"})) return page_import();
    return html_reply(page("Not found", "<p class=\"error\">No page at " + escape(r.path.toStdString()) +
                                            ". <a href=\"/\">The games</a>.</p>"),
                      404);
}

namespace {

ValueLookup lookup(const Request& r) {
    return r.lookup();
}

} // namespace

std::uint64_t AnswerCache::generation(std::optional<Version>& seen, const std::optional<Version>& now) {
    if (!now) return none;
    const std::lock_guard lock(mutex_);
    if (seen != now) {
        ++generation_;
        trees_.clear();
        counts_.clear();
        anchors_.clear();
        anchor_count_ = 0;
        seen = now;
    }
    return generation_;
}

std::shared_ptr<const db::Tree> AnswerCache::tree(const std::string& position, std::uint64_t generation) {
    const std::lock_guard lock(mutex_);
    if (generation == none || generation != generation_) return nullptr;
    const auto it = trees_.find(position);
    return it == trees_.end() ? nullptr : it->second;
}

void AnswerCache::keep_tree(const std::string& position, std::shared_ptr<const db::Tree> tree, std::uint64_t generation) {
    const std::lock_guard lock(mutex_);
    if (generation == none || generation != generation_) return;
    if (trees_.size() >= max_entries) trees_.clear();
    trees_[position] = std::move(tree);
}

std::optional<std::int64_t> AnswerCache::count(const std::string& filter, std::uint64_t generation) {
    const std::lock_guard lock(mutex_);
    if (generation == none || generation != generation_) return std::nullopt;
    const auto it = counts_.find(filter);
    return it == counts_.end() ? std::nullopt : std::optional(it->second);
}

void AnswerCache::keep_count(const std::string& filter, std::int64_t count, std::uint64_t generation) {
    const std::lock_guard lock(mutex_);
    if (generation == none || generation != generation_) return;
    if (counts_.size() >= max_entries) counts_.clear();
    counts_[filter] = count;
}

std::optional<std::pair<std::int64_t, std::int64_t>> AnswerCache::anchor(const std::string& list, std::int64_t offset,
                                                                         std::uint64_t generation) {
    const std::lock_guard lock(mutex_);
    if (generation == none || generation != generation_) return std::nullopt;
    const auto it = anchors_.find(list);
    if (it == anchors_.end()) return std::nullopt;
    auto at = it->second.upper_bound(offset);
    if (at == it->second.begin()) return std::nullopt;
    --at;
    return *at;
}

void AnswerCache::keep_anchor(const std::string& list, std::int64_t offset, std::int64_t id, std::uint64_t generation) {
    const std::lock_guard lock(mutex_);
    if (generation == none || generation != generation_) return;
    if (anchor_count_ >= 16 * max_entries) anchors_.clear(), anchor_count_ = 0;
    anchor_count_ += anchors_[list].insert_or_assign(offset, id).second;
}

namespace {

// The filter's conditions (not its order) as one text: equal texts, the same games.
std::string filter_key(const db::GameFilter& f) {
    const auto number = [](const auto& v) { return v ? QJsonValue(qint64(*v)) : QJsonValue(); };
    const QJsonArray a{QString::fromStdString(f.white), QString::fromStdString(f.black), QString::fromStdString(f.player),
                       QString::fromStdString(f.event), QString::fromStdString(f.site), QString::fromStdString(f.source),
                       number(f.result), number(f.date_from), number(f.date_to), number(f.kind), number(f.status),
                       number(f.id_from), number(f.id_to)};
    return QJsonDocument(a).toJson(QJsonDocument::Compact).toStdString();
}

} // namespace

std::shared_ptr<const db::Tree> App::tree(const AnyPosition& pos, bool symmetric) {
    const std::uint64_t generation = shared_.answers.generation(seen_, db_.change_version());
    const std::string key = pos.to_text() + (symmetric ? " symmetric" : "");
    if (auto kept = shared_.answers.tree(key, generation)) return kept;
    auto tree = std::make_shared<const db::Tree>(db_.tree(pos, symmetric));
    shared_.answers.keep_tree(key, tree, generation);
    return tree;
}

db::GameList App::list_games(const db::GameFilter& filter, const db::Paging& paging) {
    const std::uint64_t generation = shared_.answers.generation(seen_, db_.change_version());
    const std::string key = filter_key(filter);
    const std::optional<std::int64_t> known = shared_.answers.count(key, generation);
    // A page by offset in the id order starts from the nearest page already read at or before it
    // (keyset from that game's id): paging on by offset walks only the games between them.
    const bool by_id = filter.order.key == db::SortKey::id && paging.offset > 0;
    const std::string list_key = key + (filter.order.descending ? " desc" : " asc");
    const auto from = by_id && known ? shared_.answers.anchor(list_key, paging.offset, generation) : std::nullopt;
    db::GameList list;
    if (from) {
        db::GameFilter rest = filter;
        const auto [offset, id] = *from;
        if (filter.order.descending) rest.id_to = std::min(rest.id_to.value_or(id), id);
        else rest.id_from = std::max(rest.id_from.value_or(id), id);
        list = db_.list_games(rest, {paging.limit, paging.offset - offset}, known);
    } else list = db_.list_games(filter, paging, known);
    if (!known) shared_.answers.keep_count(key, list.total, generation);
    if (by_id && !list.games.empty()) shared_.answers.keep_anchor(list_key, paging.offset, list.games.front().id, generation);
    return list;
}

Reply App::api_games(const Request& r) {
    db::GameFilter filter;
    db::Paging paging;
    Keyset keyset;
    std::string e = read_filter_values(lookup(r), "", filter);
    if (e.empty()) e = read_paging_values(r, paging);
    if (e.empty()) e = read_keyset_values(r, filter, keyset);
    if (!e.empty()) return error_reply(400, "bad-query", e);
    db::GameList list = list_games(filter, paging);
    keyset.restore(filter, list);
    QJsonObject o = games_json(list, paging, filter);
    if (keyset.after) o["after"] = qint64(keyset.after); // total: the games after it
    if (keyset.before) o["before"] = qint64(keyset.before); // total: the games before it
    return json_reply(o);
}

Reply App::api_game(std::int64_t id) {
    const auto game = db_.game(id);
    if (!game) return error_reply(404, "no-game", "no game with id " + std::to_string(id));
    QJsonObject o = game_json(*game);
    db::AnalysisStore store(db_.sql());
    const auto stored = store.load(id);
    o["judgement"] = stored ? QJsonValue(judgement_json(*game, *stored)) : QJsonValue();
    return json_reply(o);
}

Reply App::api_search(const Request& r) {
    db::GameFilter filter;
    db::Paging paging;
    std::string e = read_filter_values(lookup(r), "", filter);
    if (e.empty()) e = read_paging_values(r, paging);
    SearchQuery query;
    AnyPosition pos;
    bool by_position = false;
    if (e.empty()) {
        // game= is a filter here; a position search starts from the position (or Gounki's start).
        Request positional = r;
        positional.query.removeAllQueryItems("game");
        e = read_position_values(positional, pos, by_position);
    }
    if (e.empty()) e = read_search_values(r, pos, by_position, filter, query);
    if (!e.empty()) return error_reply(400, "bad-query", e);
    return json_reply(search_json(run_search(db_, query, filter, paging, 0), paging, filter, query));
}

Reply App::api_tree(const Request& r) {
    AnyPosition pos;
    bool given = false;
    bool symmetric = false;
    std::string e = read_position_values(r, pos, given);
    if (e.empty()) e = read_symmetric_value(r, pos, symmetric);
    if (!e.empty()) return error_reply(400, "bad-query", e);
    return json_reply(tree_json(pos, *tree(pos, symmetric), symmetric));
}

Reply App::api_import(const Request& r) {
    // The name is a label for the games' source and the diagnostics, never a path that is opened.
    std::string name = r.param("name").value_or("upload").toStdString();
    if (name.size() > 200 || name.find_first_of("\r\n") != std::string::npos)
        return error_reply(400, "bad-query", "name must be one line of at most 200 characters");
    pipeline::ImportRequest request;
    for (const auto& [flag, on] : {std::pair{"keep_duplicates", &request.options.keep_duplicates},
                                   std::pair{"reject_broken", &request.options.reject_broken}})
        if (const std::string e = r.flag(flag, *on); !e.empty()) return error_reply(400, "bad-query", e);
    // The whole upload is one transaction, stored whole or not at all, written in batches of the
    // usual size (one batch of a whole upload held every game of it in memory at once: gigabytes
    // for an archive of a million short games).
    request.one_transaction = true;
    request.options.expected_games = 1;
    request.options.names_are_labels = true; // the name is stored as given, never resolved as a path
    // An archive uploaded is unpacked up to 16 times the upload limit: a small hostile archive
    // (a "zip bomb") does not unpack for minutes.
    request.max_unpacked = std::uint64_t(16 * options_.max_upload);
    // The answer lists the first 1,000 diagnostics and noteworthy games, and counts the others: an
    // upload of many broken games (or an archive of many members) gets an answer of bounded size.
    constexpr qsizetype listed = 1000;
    QJsonArray diagnostics, games;
    qint64 diagnostics_left_out = 0, games_left_out = 0;
    pipeline::ImportEvents events;
    events.diagnostic = [&](const parser::Diagnostic& d) {
        if (diagnostics.size() < listed) diagnostics.append(diagnostic_json(d));
        else ++diagnostics_left_out;
    };
    events.report = [&](const db::ImportReport& rep) { // the noteworthy ones, as `import --json` prints them
        if (!rep.noteworthy()) return;
        if (games.size() < listed) games.append(import_report_json(rep));
        else ++games_left_out;
    };
    std::istringstream input(r.body.toStdString());
    std::unique_lock write(shared_.writes); // one write at a time; reads on the other threads go on
    const pipeline::ImportResult result = pipeline::import_stream(db_, input, name, request, events);
    write.unlock();
    const db::ImportStats& s = result.stats;
    QJsonObject summary = import_stats_json(s);
    summary.insert("io_errors", result.io_errors);
    summary.insert("rolled_back", result.rolled_back);
    summary.insert("diagnostics_left_out", diagnostics_left_out);
    summary.insert("games_left_out", games_left_out);
    QJsonObject answer{{"name", QString::fromStdString(name)},
                       {"bytes", qint64(r.body.size())},
                       {"diagnostics", diagnostics},
                       {"games", games},
                       {"summary", summary}};
    if (!result.rolled_back) return json_reply(answer);
    // An upload is stored whole or not at all: one that could not be read whole stored nothing.
    answer.insert("error", QJsonObject{{"code", "io-error"},
                                       {"message", "the upload could not be read whole (see its io-error diagnostic): "
                                                   "nothing of it was stored"}});
    return json_reply(answer, 422);
}

Reply App::api_report(std::int64_t id, const Request& r) {
    const QString format = r.param("format").value_or("html").toLower();
    if (format != "html" && format != "md" && format != "gpn")
        return error_reply(400, "bad-query", "format must be html, md or gpn, got '" + format.toStdString() + "'");
    bool shown_inline = false;
    if (const std::string e = r.flag("inline", shown_inline); !e.empty()) return error_reply(400, "bad-query", e);
    const auto game = db_.game(id);
    if (!game) return error_reply(404, "no-game", "no game with id " + std::to_string(id));
    db::AnalysisStore store(db_.sql());
    const auto stored = store.load(id);
    report::ReportModel model;
    model.games.push_back(game_report(*game, stored ? &*stored : nullptr));
    if (game->summary.kind != GameKind::gounki) model.title = std::string(game_kind_name(game->summary.kind)) + " game report";
    model.annotator = annotator_of(stored ? &*stored : nullptr);
    Reply reply;
    if (format == "html") reply = {200, "text/html; charset=utf-8", QByteArray::fromStdString(report::render_html(model)), {}};
    else if (format == "md") reply = {200, "text/markdown; charset=utf-8", QByteArray::fromStdString(report::render_markdown(model)), {}};
    else reply = {200, "text/plain; charset=utf-8", QByteArray::fromStdString(report::render_annotated_gpn(model)), {}};
    if (!shown_inline)
        reply.headers.emplace_back("Content-Disposition",
                                   "attachment; filename=\"game-" + QByteArray::number(qint64(id)) + "." + format.toLatin1() + "\"");
    return reply;
}

} // namespace gounki::cli::serve
