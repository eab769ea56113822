#include "cli/views.hpp"

#include <QJsonArray>

#include "cli/command.hpp"
#include "cli/db_options.hpp"
#include "cli/json_lines.hpp"
#include "core/stones/symmetry.hpp"
#include "db/fold.hpp"
#include "db/record_bridge.hpp"
#include "parser/writer.hpp"
#include "protocol/session.hpp"
#include "report/from_record.hpp"

namespace gounki::cli {

namespace {

QString qs(std::string_view s) { return QString::fromUtf8(s.data(), qsizetype(s.size())); }

// {"name": "Kagetsu", "code": "4D", "japanese": "花月"}
QJsonObject opening_json(const stones::RenjuOpening& o) {
    return QJsonObject{{"name", qs(o.name)}, {"code", QString::fromStdString(o.code())}, {"japanese", qs(o.kanji)}};
}

// The name filters; a filter of accents or other marks alone folds to nothing, which every name contains.
std::string read_name_filters(const ValueLookup& get, const std::string& prefix, db::GameFilter& f) {
    std::string* fields[] = {&f.white, &f.black, &f.player, &f.event, &f.site, &f.source};
    const char* names[] = {"white", "black", "player", "event", "site", "source"};
    for (std::size_t i = 0; i < std::size(names); ++i) {
        const std::string text = get(names[i]).value_or(QString()).toStdString();
        if (!text.empty() && db::fold_text(text).empty())
            return prefix + names[i] + " '" + text + "': nothing is left to match once case and accents are set aside";
        *fields[i] = text;
    }
    return {};
}

} // namespace

std::string read_flag(const ValueLookup& get, const std::string& prefix, const char* name, bool& on) {
    on = false;
    const auto v = get(name);
    if (!v) return {};
    const QString t = v->trimmed().toLower();
    if (t.isEmpty() || t == "1" || t == "true" || t == "yes") on = true;
    else if (t != "0" && t != "false" && t != "no")
        return prefix + name + " must be 1, true or yes (on) or 0, false or no (off), got '" + v->toStdString() + "'";
    return {};
}

std::string read_filter_values(const ValueLookup& get, const std::string& prefix, db::GameFilter& f) {
    if (std::string e = read_name_filters(get, prefix, f); !e.empty()) return e;
    if (const auto v = get("result")) {
        f.result = db::parse_result(v->trimmed().toLower().toStdString());
        if (!f.result) return prefix + "result must be 1-0, 0-1, 1/2-1/2 or *, got '" + v->toStdString() + "'";
    }
    if (const auto v = get("status")) {
        f.status = db::parse_status(v->trimmed().toLower().toStdString());
        if (!f.status) return prefix + "status must be valid, partial or invalid, got '" + v->toStdString() + "'";
    }
    if (const auto v = get("game")) {
        f.kind = parse_game_kind(v->toStdString());
        if (!f.kind) return prefix + "game must be " + game_ids_text() + ", got '" + v->toStdString() + "'";
    }
    if (const auto v = get("sort")) {
        const auto key = db::parse_sort_key(v->toStdString());
        if (!key) return prefix + "sort must be id, date, player, event or result, got '" + v->toStdString() + "'";
        f.order.key = *key;
    }
    if (std::string e = read_flag(get, prefix, "desc", f.order.descending); !e.empty()) return e;
    for (const char* name : {"from", "to"}) {
        const auto v = get(name);
        if (!v) continue;
        const bool to = std::string_view(name) == "to";
        const auto bound = db::date_bound(v->toStdString(), to);
        if (!bound) return prefix + name + " must be a date YYYY, YYYY.MM or YYYY.MM.DD, got '" + v->toStdString() + "'";
        (to ? f.date_to : f.date_from) = *bound;
    }
    return {};
}

std::optional<db::PatternError> parse_pattern(const std::string& text, SearchQuery& out) {
    if (stones::is_stone_position_text(text)) {
        auto parsed = db::StonePattern::parse(text);
        if (auto* e = std::get_if<db::PatternError>(&parsed)) return *e;
        out.stone_pattern = std::get<db::StonePattern>(std::move(parsed));
    } else {
        auto parsed = db::Pattern::parse(text);
        if (auto* e = std::get_if<db::PatternError>(&parsed)) return *e;
        out.pattern = std::get<db::Pattern>(std::move(parsed));
    }
    return std::nullopt;
}

std::string pattern_error_text(const db::PatternError& e) {
    return "bad pattern at character " + std::to_string(e.column + 1) + ": " + e.message;
}

std::string parse_opening(const std::string& text, const db::GameFilter& filter, SearchQuery& out) {
    out.opening = stones::find_renju_opening(text);
    // No name is longer than 10 letters: a longer text is named by its start only, cut between
    // characters, control bytes and bytes that are not UTF-8 written \xNN (a terminal is sent no
    // escape sequence, a page or a JSON reply no broken character).
    const std::string shown = protocol::quoted_text(text, 40);
    if (!out.opening) return shown + " names no Renju opening; the names (any case, or the codes): " + stones::renju_opening_names();
    if (filter.kind && *filter.kind != GameKind::renju)
        return shown + " is a Renju opening but the games asked for are " + std::string(game_kind_name(*filter.kind)) + "'s";
    return {};
}

namespace {

constexpr const char* no_gounki_images =
    "symmetric is for the stone games: a Gounki position's mirror image is not one of Gounki's (its start is not symmetric)";

} // namespace

std::string symmetric_refusal(const AnyPosition& position) { return position.stones() ? "" : no_gounki_images; }

std::string symmetric_refusal(const SearchQuery& q) {
    if (q.position) return symmetric_refusal(*q.position);
    if (q.pattern) return no_gounki_images;
    if (!q.stone_pattern && !q.opening) return "symmetric goes with a position, a pattern or an opening search";
    return {};
}

db::GameList run_search(db::GameDatabase& database, const SearchQuery& q, const db::GameFilter& filter,
                        const db::Paging& paging, int threads) {
    if (q.position && q.symmetric && q.position->stones()) {
        std::vector<AnyPosition> positions;
        for (const stones::Image& i : stones::images(*q.position->stones())) positions.emplace_back(i.position);
        return database.search_positions(positions, filter, paging);
    }
    if (q.position) return database.search_position(*q.position, filter, paging);
    if (q.opening) {
        const std::vector<stones::StonePosition> shown = stones::renju_opening_positions(*q.opening);
        const std::vector<AnyPosition> positions(shown.begin(), shown.end());
        // The position after the third move: a set-up game that starts from it, or reaches it
        // sooner, did not open with it (docs/rules.md 2.6).
        return database.search_positions(positions, filter, paging, 3);
    }
    if (q.pattern) return database.search_pattern(*q.pattern, filter, paging, threads);
    if (q.stone_pattern) return database.search_stone_pattern(*q.stone_pattern, filter, paging, q.symmetric);
    return database.list_games(filter, paging); // the tag filters alone
}

QJsonObject games_json(const db::GameList& list, const db::Paging& paging, const db::GameFilter& filter) {
    QJsonArray games;
    for (const auto& g : list.games) games.append(summary_json(g));
    return QJsonObject{
        {"total", qint64(list.total)}, {"offset", qint64(paging.offset)}, {"filter", filter_json(filter)}, {"games", games}};
}

void add_search_json(QJsonObject& o, const SearchQuery& q) {
    if (q.position) o["position"] = QString::fromStdString(q.position->to_text());
    if ((q.position || q.stone_pattern) && q.symmetric) o["symmetric"] = true;
    if (q.pattern) o["pattern"] = QString::fromStdString(q.pattern->text());
    if (q.stone_pattern) o["pattern"] = QString::fromStdString(q.stone_pattern->text());
    if (q.opening) o["opening"] = opening_json(*q.opening);
}

QJsonObject search_json(const db::GameList& list, const db::Paging& paging, const db::GameFilter& filter,
                        const SearchQuery& q) {
    QJsonObject o = games_json(list, paging, filter);
    add_search_json(o, q);
    return o;
}

QJsonObject game_json(const db::StoredGame& game) {
    QJsonObject o = summary_json(game.summary);
    QJsonArray tags, moves, diagnostics;
    for (const auto& [name, value] : game.tags) tags.append(QJsonArray{QString::fromStdString(name), QString::fromStdString(value)});
    AnyPosition pos = game.start;
    for (Move m : game.moves) {
        moves.append(QString::fromStdString(pos.move_text(m, Notation::wikipedia)));
        pos.play(m);
    }
    for (const db::Diagnostic& d : game.diagnostics)
        diagnostics.append(QJsonObject{{"severity", qs(db::severity_name(d.severity))},
                                       {"code", QString::fromStdString(d.code)},
                                       {"line", d.line},
                                       {"column", d.column},
                                       {"message", QString::fromStdString(d.message)}});
    o["tags"] = tags;
    o["start"] = QString::fromStdString(game.start.to_text());
    o["moves"] = moves;
    o["diagnostics"] = diagnostics;
    o["source"] = QJsonObject{{"file", QString::fromStdString(game.source_file)}, {"line", game.source_line}};
    o["record"] = QString::fromStdString(parser::write_record(db::game_record(game)));
    return o;
}

QJsonObject judgement_json(const db::StoredGame& game, const db::StoredJudgement& stored) {
    QJsonArray plies;
    AnyPosition pos = game.start;
    for (const analysis::PlyJudgement& j : stored.judgement.plies) {
        if (j.ply < 0 || std::size_t(j.ply) >= game.moves.size()) break;
        QJsonObject p{{"ply", j.ply},
                      {"played", QString::fromStdString(pos.move_text(j.played))},
                      {"best", j.best ? QString::fromStdString(pos.move_text(j.best)) : QString()},
                      {"verdict", qs(analysis::verdict_name(j.verdict))},
                      {"best_score", int(j.best_score)},
                      {"played_score", int(j.played_score)},
                      {"expected_best", j.expected_best},
                      {"expected_played", j.expected_played}};
        if (!j.scored && j.verdict != analysis::Verdict::book) {
            // An external engine without evaluations: the move it prefers, no grade (as analyze --json).
            for (const char* key : {"best_score", "played_score", "expected_best", "expected_played"}) p[key] = QJsonValue();
            p["graded"] = false;
            p["verdict"] = j.played == j.best ? "best" : "engine-prefers";
        }
        plies.append(p);
        pos.play(game.moves[std::size_t(j.ply)]);
    }
    QJsonObject sides;
    for (const Color c : {Color::white, Color::black})
        sides[c == Color::white ? "white" : "black"] =
            QJsonObject{{"moves", stored.judgement.sides[index(c)].moves},
                        {"book", stored.judgement.sides[index(c)].counts[int(analysis::Verdict::book)]},
                        {"accuracy", stored.judgement.sides[index(c)].moves ? QJsonValue(stored.judgement.sides[index(c)].accuracy)
                                                                            : QJsonValue()}};
    return QJsonObject{
        {"settings", QString::fromStdString(stored.settings)}, {"created", QString::fromStdString(stored.created)},
        {"engine", stored.engine.empty() ? QJsonValue() : QString::fromStdString(stored.engine)},
        {"plies", plies}, {"sides", sides}};
}

const stones::RenjuOpening* renju_opening(const AnyPosition& pos) {
    const stones::StonePosition* s = pos.stones();
    return s ? stones::renju_opening_of(*s) : nullptr;
}

const stones::RenjuOpening* renju_opening_after(const AnyPosition& pos, Move move) {
    const stones::StonePosition* s = pos.stones();
    // Only a move onto a board of two stones can make one: no copy of the others.
    if (!s || s->rules().kind != GameKind::renju || s->stone_count() != 2 || !pos.is_legal(move)) return nullptr;
    AnyPosition after = pos;
    after.play(move);
    return renju_opening(after);
}

QJsonObject tree_json(const AnyPosition& pos, const db::Tree& tree, bool symmetric) {
    const auto pct = [](std::int64_t part, std::int64_t whole) { return whole ? 100.0 * double(part) / double(whole) : 0.0; };
    QJsonArray moves;
    for (const db::TreeMove& m : tree.moves) {
        QJsonObject move{{"move", QString::fromStdString(pos.move_text(m.move))},
                         {"games", qint64(m.games)},
                         {"white_wins", qint64(m.white_wins)},
                         {"black_wins", qint64(m.black_wins)},
                         {"draws", qint64(m.draws)},
                         {"white_pct", pct(m.white_wins, m.games)},
                         {"black_pct", pct(m.black_wins, m.games)},
                         {"draw_pct", pct(m.draws, m.games)},
                         {"latest", summary_json(m.latest)}};
        if (const stones::RenjuOpening* o = renju_opening_after(pos, m.move)) move["opening"] = opening_json(*o);
        moves.append(move);
    }
    QJsonObject out{{"position", QString::fromStdString(pos.to_text())}, {"games", qint64(tree.games)}, {"moves", moves}};
    if (const stones::RenjuOpening* o = renju_opening(pos)) out["opening"] = opening_json(*o);
    if (symmetric) out["symmetric"] = true;
    return out;
}

QJsonObject import_stats_json(const db::ImportStats& s) {
    return summary_json({{"read", s.added},
                         {"stored", s.stored},
                         {"broken", s.broken},
                         {"duplicates", s.duplicates},
                         {"already_imported", s.already_imported},
                         {"rejected", s.rejected},
                         {"prefix_flagged", s.prefix_flagged},
                         {"replaced", s.replaced}});
}

QJsonObject import_report_json(const db::ImportReport& r) {
    QJsonObject o{{"type", "game"},
                  {"file", QString::fromStdString(r.source_file)},
                  {"line", r.source_line},
                  {"action", qs(db::import_action_name(r.action))}};
    if (r.game_id) o["id"] = qint64(r.game_id);
    if (r.action == db::ImportAction::stored || r.action == db::ImportAction::replaced) o["status"] = qs(db::status_name(r.status));
    if (r.other_id) o[r.action == db::ImportAction::already_imported ? "stored_as" : "duplicate_of"] = qint64(r.other_id);
    if (r.symmetry) o["symmetry"] = qs(stones::symmetry_name(r.symmetry));
    const auto ids = [&o](const char* name, const std::vector<std::int64_t>& v) {
        QJsonArray a;
        for (auto id : v) a.append(qint64(id));
        if (!a.isEmpty()) o[name] = a;
    };
    ids("prefix_of", r.prefix_of);
    ids("has_prefix", r.has_prefix);
    ids("same_moves", r.same_moves);
    if (!r.reason.empty()) o["reason"] = QString::fromStdString(r.reason);
    if (r.diagnostics) o["diagnostics"] = r.diagnostics;
    return o;
}

report::GameReport game_report(const db::StoredGame& g, const db::StoredJudgement* stored) {
    // The record export writes: a broken game's status, errors and Status tag come with it.
    const parser::GameRecord rec = db::game_record(g);
    report::GameReport r = report::game_report(rec, stored ? &stored->judgement : nullptr);
    r.id = std::to_string(g.summary.id);
    r.event = g.summary.event;
    r.date = g.summary.date;
    r.white = g.summary.white;
    r.black = g.summary.black;
    r.result = std::string(db::result_text(g.summary.result));
    r.annotator = annotator_of(stored);
    return r;
}

std::string annotator_of(const db::StoredJudgement* stored) {
    return "gounki " GOUNKI_VERSION + (stored ? " (" + stored->settings + ")" : std::string());
}

} // namespace gounki::cli
