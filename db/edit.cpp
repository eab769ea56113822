// Changing stored games: editing a game's tags (deleting games: delete.cpp). Each change runs in one write
// transaction and keeps the columns, the position index, the opening tree counts and the stored
// judgements in step with the games.
#include <algorithm>
#include <cctype>
#include <charconv>
#include <functional>
#include <map>
#include <memory>
#include <tuple>
#include <unordered_map>

#include "db/game_db.hpp"
#include "parser/dates.hpp"
#include "parser/record.hpp"
#include "parser/syntax.hpp"

namespace gounki::db {

namespace {

// Tags kept as columns of games, in their canonical spelling.
constexpr std::string_view column_tags[] = {"Event", "Site", "Date", "Round", "White", "Black", "Result"};
// Tags that say which game is played and from where: changing one would need the moves replayed
// under other rules, which an edit does not do.
constexpr std::string_view defining_tags[] = {"Game", "SetUp", "Position", "FEN", "Size", "Rules", "GameType"};

bool same_name(std::string_view a, std::string_view b) {
    return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
               return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
           });
}

template <std::size_t N>
const std::string_view* find_name(const std::string_view (&names)[N], std::string_view name) {
    const auto it = std::find_if(std::begin(names), std::end(names), [&](std::string_view n) { return same_name(n, name); });
    return it == std::end(names) ? nullptr : it;
}

// The canonical spelling of a column or defining tag, else the name as given.
std::string canonical_name(const std::string& name) {
    if (const auto* c = find_name(column_tags, name)) return std::string(*c);
    if (const auto* d = find_name(defining_tags, name)) return std::string(*d);
    return name;
}

bool has_control(std::string_view text) {
    return std::any_of(text.begin(), text.end(), [](char c) { return static_cast<unsigned char>(c) < 0x20 || c == 0x7f; });
}

// A name the record reader reads back as this very tag name (docs/rules.md 1.8: words of letters,
// digits and '_' with one space between them), asked of the grammar itself.
void check_name(const std::string& name) {
    if (name.empty()) throw EditRefused("a tag name cannot be empty");
    parser::ChunkSyntax syntax;
    if (!has_control(name)) parser::parse_chunk("[" + name + " \"\"]\n", syntax);
    const bool read_back = syntax.errors.empty() && syntax.games.size() == 1 && syntax.games[0].tags.size() == 1 &&
        syntax.games[0].tags[0].name == name;
    if (!read_back)
        throw EditRefused("'" + parser::escape_controls(name) +
                          "' is not a tag name: a tag name is words of letters, digits and '_' (A-Z, a-z, 0-9, _) with one space "
                          "between them");
}


// The game's columns and stored tags as an edit changes them.
struct EditPlan {
    std::string event, site, date, round, white, black;
    ResultCode result = ResultCode::unknown;
    std::vector<std::pair<std::string, std::string>> others; // the tags table, in order
    bool columns_changed = false, others_changed = false;
    std::vector<TagChange> changes;
    // Result set to the result stored, which the import doubted (result-mismatch...): the doubt goes.
    bool result_confirmed = false;

    std::string* column(std::string_view name) {
        if (name == "Event") return &event;
        if (name == "Site") return &site;
        if (name == "Date") return &date;
        if (name == "Round") return &round;
        if (name == "White") return &white;
        if (name == "Black") return &black;
        return nullptr;
    }
};

std::string refusal_prefix(std::int64_t id) { return "game " + std::to_string(id) + ": "; }

[[noreturn]] void refuse_defining(std::int64_t id, const std::string& name) {
    throw EditRefused(refusal_prefix(id) + "the " + name +
                      " tag defines the game (its rules, board or start), and changing it would mean replaying the "
                      "moves again, which edit does not do: delete the game and import the corrected record instead");
}

// A tag of the game as it is shown (show, export), or none.
std::optional<std::string> shown_value(const StoredGame& g, std::string_view name) {
    for (const auto& [n, v] : g.tags)
        if (n == name) return v;
    return std::nullopt;
}

// Whether a defining tag set to `value` says what the game is already: its value as shown, or the
// game's name in any case, or a stone game's board size when no Size is shown (the default).
bool says_already(const StoredGame& g, std::string_view name, const std::string& value) {
    if (shown_value(g, name) == value) return true;
    if (name == "Game") return parse_game_kind(value) == g.summary.kind;
    if (name == "Size" && g.summary.kind != GameKind::gounki && !shown_value(g, name))
        return value == std::to_string(g.start.as_stones().rules().size);
    return false;
}

// The Status tag is gounki's own reading of the game (docs/rules.md 1.8), written by export from the
// stored status: not a tag a user sets.
void refuse_status(std::int64_t id, std::string_view name) {
    if (same_name(name, "Status"))
        throw EditRefused(refusal_prefix(id) +
                          "Status is gounki's own reading of the game (valid, partial or invalid, from its import), "
                          "written by export; it is not edited");
}

void plan_remove(EditPlan& plan, const StoredGame& g, const std::string& name) {
    const std::int64_t id = g.summary.id;
    refuse_status(id, name);
    if (find_name(defining_tags, name)) {
        if (shown_value(g, name)) refuse_defining(id, name);
        throw EditRefused(refusal_prefix(id) + "it has no " + name + " tag to remove");
    }
    if (name == "Result") {
        plan.changes.push_back({name, std::string(result_text(plan.result)), std::nullopt});
        plan.result = ResultCode::unknown;
        plan.columns_changed = true;
        return;
    }
    if (std::string* col = plan.column(name)) {
        if (col->empty()) throw EditRefused(refusal_prefix(id) + "it has no " + name + " tag to remove");
        plan.changes.push_back({name, *col, std::nullopt});
        col->clear();
        plan.columns_changed = true;
        return;
    }
    const auto it = std::find_if(plan.others.begin(), plan.others.end(), [&](const auto& t) { return t.first == name; });
    if (it == plan.others.end()) throw EditRefused(refusal_prefix(id) + "it has no " + name + " tag to remove");
    plan.changes.push_back({name, it->second, std::nullopt});
    plan.others.erase(it);
    plan.others_changed = true;
}

void plan_set(EditPlan& plan, const StoredGame& g, const std::string& name, const std::string& written) {
    // A date is stored in the project's form, as the readers store it (2024-05-01 as 2024.05.01).
    const std::string value = name == "Date" && !written.empty() ? parser::project_date(written) : written;
    const std::int64_t id = g.summary.id;
    if (has_control(value)) throw EditRefused(refusal_prefix(id) + "the value of " + name + " holds a control character");
    refuse_status(id, name);
    if (find_name(defining_tags, name)) {
        if (!says_already(g, name, value)) refuse_defining(id, name);
        return; // already so
    }
    if (name == "Result") {
        const auto r = parse_result(value);
        if (!r) throw EditRefused(refusal_prefix(id) + "Result must be 1-0, 0-1, 1/2-1/2 or *, not '" + value + "'");
        if (*r == plan.result) {
            const bool doubted = std::any_of(g.diagnostics.begin(), g.diagnostics.end(), [](const Diagnostic& d) {
                return d.code == "result-mismatch" || d.code == "result-incomplete" || d.code == "no-result" ||
                    d.code == "bad-result-tag";
            });
            if (doubted && !plan.result_confirmed) plan.changes.push_back({name, std::string(value), std::string(value)});
            plan.result_confirmed |= doubted;
            return;
        }
        plan.changes.push_back({name, std::string(result_text(plan.result)), std::string(result_text(*r))});
        plan.result = *r;
        plan.columns_changed = true;
        return;
    }
    if (std::string* col = plan.column(name)) {
        if (name == "Date" && !value.empty() && !parser::is_project_date(value))
            throw EditRefused(refusal_prefix(id) + "Date must read as YYYY.MM.DD (unknown parts as ?\?; 2024-05-01, 20240501 "
                              "and 2024-05 are read so), not '" + written + "'");
        if (*col == value) return;
        plan.changes.push_back(
            {name, col->empty() ? std::nullopt : std::optional(*col), value.empty() ? std::nullopt : std::optional(value)});
        *col = value;
        plan.columns_changed = true;
        return;
    }
    const auto it = std::find_if(plan.others.begin(), plan.others.end(), [&](const auto& t) { return t.first == name; });
    if (it != plan.others.end() && it->second == value) return;
    plan.changes.push_back({name, it == plan.others.end() ? std::nullopt : std::optional(it->second), value});
    if (it == plan.others.end()) plan.others.emplace_back(name, value);
    else it->second = value;
    plan.others_changed = true;
}


// Refuses a Result that the game's final position contradicts (a game won on the board).
void check_result(const StoredGame& g, ResultCode result) {
    if (result == ResultCode::unknown) return;
    AnyPosition pos = g.start;
    for (Move m : g.moves) pos.play(m);
    if (!pos.game_over() || outcome_text(pos.outcome()) == result_text(result)) return;
    const Outcome o = pos.outcome();
    const std::string what = o == Outcome::draw ? "a draw" : o == Outcome::white_wins ? "a win for White" : "a win for Black";
    throw EditRefused(refusal_prefix(g.summary.id) + "its moves end in " + what + " on the board (" +
                      std::string(outcome_text(o)) + ", after ply " + std::to_string(g.moves.size()) + "): a Result of " +
                      std::string(result_text(result)) + " contradicts it");
}

// The id of `name` in players or events, added when new; 0 for no name.
std::int64_t name_id(Database& db, const char* table, const std::string& name) {
    if (name.empty()) return 0;
    {
        Statement find(db, std::string("SELECT id FROM ") + table + " WHERE name = ?1");
        find.bind(1, name);
        if (find.step()) return find.get_int64(0);
    }
    Statement insert(db, std::string("INSERT INTO ") + table + " (name) VALUES (?1)");
    insert.bind(1, name);
    insert.run();
    return db.last_insert_rowid();
}

Statement& bind_id_or_null(Statement& st, int index, std::int64_t id) { return id ? st.bind(index, id) : st.bind_null(index); }

} // namespace

std::optional<std::vector<TagChange>> GameDatabase::edit_tags(std::int64_t id, const TagEdit& edit) {
    Transaction tx(db_, TransactionKind::immediate);
    const std::optional<StoredGame> g = game(id);
    if (!g) return std::nullopt;
    const GameSummary& s = g->summary;
    EditPlan plan{s.event, s.site, s.date, s.round, s.white, s.black, s.result, {}, false, false, {}, false};
    {
        Statement tags(db_, "SELECT name, value FROM tags WHERE game_id = ?1 ORDER BY seq");
        tags.bind(1, id);
        while (tags.step()) plan.others.emplace_back(tags.get_string(0), tags.get_string(1));
    }
    std::vector<std::string> named;
    const auto once = [&](const std::string& name) {
        check_name(name);
        if (std::find(named.begin(), named.end(), name) != named.end())
            throw EditRefused(refusal_prefix(id) + "the tag " + name + " is named twice in one edit");
        named.push_back(name);
    };
    for (const std::string& raw : edit.remove) {
        const std::string name = canonical_name(raw);
        once(name);
        plan_remove(plan, *g, name);
    }
    for (const auto& [raw, value] : edit.set) {
        const std::string name = canonical_name(raw);
        once(name);
        plan_set(plan, *g, name, value);
    }
    if (plan.result != s.result || plan.result_confirmed) check_result(*g, plan.result);

    const std::int64_t old_date = date_key(s.date), new_date = date_key(plan.date);
    if (plan.columns_changed) {
        Statement update(db_,
                         "UPDATE games SET event_id = ?2, site = ?3, date = ?4, date_key = ?5, round = ?6, white_id = ?7, "
                         "black_id = ?8, result = ?9 WHERE id = ?1");
        update.bind(1, id);
        bind_id_or_null(update, 2, name_id(db_, "events", plan.event));
        update.bind_text_or_null(3, plan.site).bind_text_or_null(4, plan.date).bind(5, new_date).bind_text_or_null(6, plan.round);
        bind_id_or_null(update, 7, name_id(db_, "players", plan.white));
        bind_id_or_null(update, 8, name_id(db_, "players", plan.black));
        update.bind(9, std::int64_t(plan.result));
        update.run();
    }
    if (plan.others_changed) {
        Statement clear(db_, "DELETE FROM tags WHERE game_id = ?1");
        clear.bind(1, id);
        clear.run();
        Statement insert(db_, "INSERT INTO tags (game_id, seq, name, value) VALUES (?1, ?2, ?3, ?4)");
        int seq = 0;
        for (const auto& [name, value] : plan.others) {
            insert.bind(1, id).bind(2, seq++).bind(3, name).bind(4, value);
            insert.run();
        }
    }
    if (plan.result != s.result || plan.result_confirmed) settle_result_diagnostics(id, s.status);
    if (plan.result != s.result || new_date != old_date) update_tree_for_edit(*g, plan.result, old_date, new_date);
    tx.commit();
    return std::move(plan.changes);
}

// A new Result settles what the import said about the old one; an invalid game whose only errors
// were those becomes valid (a partial one stays partial: its moves stop at an error).
void GameDatabase::settle_result_diagnostics(std::int64_t id, GameStatus status) {
    Statement drop(db_,
                   "DELETE FROM diagnostics WHERE game_id = ?1 AND code IN ('result-contradicts', 'result-mismatch', "
                   "'result-incomplete', 'no-result', 'bad-result-tag')");
    drop.bind(1, id);
    drop.run();
    if (status != GameStatus::invalid) return;
    Statement errors(db_, "SELECT count(*) FROM diagnostics WHERE game_id = ?1 AND severity = 2");
    errors.bind(1, id);
    if (errors.step() && errors.get_int64(0) == 0) {
        Statement valid(db_, "UPDATE games SET status = 0 WHERE id = ?1");
        valid.bind(1, id);
        valid.run();
    }
}

// The tree counts of the game's shallow plies follow its new result, and the latest game of each
// (position, move) its new date.
void GameDatabase::update_tree_for_edit(const StoredGame& g, ResultCode result, std::int64_t old_date, std::int64_t new_date) {
    const ResultCode old = g.summary.result;
    const std::int64_t id = g.summary.id;
    const auto delta = [&](ResultCode r) { return std::int64_t(result == r) - std::int64_t(old == r); };
    Statement counts(db_,
                     "UPDATE tree_stats SET white_wins = white_wins + ?3, black_wins = black_wins + ?4, draws = draws + ?5 "
                     "WHERE key = ?1 AND move = ?2 RETURNING latest_game, latest_date");
    Statement newer(db_, "UPDATE tree_stats SET latest_game = ?3, latest_date = ?4 WHERE key = ?1 AND move = ?2");
    AnyPosition pos = g.start;
    for (std::size_t ply = 0; ply < g.moves.size() && ply < std::size_t(tree_depth_); ++ply) {
        const Move m = g.moves[ply];
        const std::uint64_t key = index_key(pos);
        std::int64_t latest_game = 0, latest_date = 0;
        {
            const ResetAtExit done(counts);
            counts.bind(1, std::int64_t(key))
                .bind(2, std::int64_t(stored_raw(m)))
                .bind(3, delta(ResultCode::white_wins))
                .bind(4, delta(ResultCode::black_wins))
                .bind(5, delta(ResultCode::draw));
            if (!counts.step())
                throw DbError(0, "the database is damaged: the opening tree lacks a move of game " + std::to_string(id));
            latest_game = counts.get_int64(0);
            latest_date = counts.get_int64(1);
        }
        if (new_date != old_date) {
            if (std::pair(new_date, id) > std::pair(latest_date, latest_game)) {
                newer.bind(1, std::int64_t(key)).bind(2, std::int64_t(stored_raw(m))).bind(3, id).bind(4, new_date);
                newer.run();
            } else if (latest_game == id) {
                recompute_latest(key, m, pos);
            }
        }
        pos.play(m);
    }
}

} // namespace gounki::db
