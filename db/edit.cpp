// Changing stored games: editing a game's tags, deleting games. Each change runs in one write
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

void check_name(const std::string& name) {
    if (name.empty()) throw EditRefused("a tag name cannot be empty");
    if (has_control(name) || name.find_first_of("\"[]{}") != std::string::npos || name.front() == ' ' || name.back() == ' ')
        throw EditRefused("'" + name + "' is not a tag name (no quotes, brackets, braces, control characters or outer spaces)");
}

// A Date as records write it: YYYY.MM.DD, parts unknown as ??, or no date at all.
bool date_reads(std::string_view text) {
    if (text.empty() || date_key(text) != 0) return true;
    return std::all_of(text.begin(), text.end(), [](char c) { return c == '?' || c == '.' || c == '-' || c == '/'; });
}

// The game's columns and stored tags as an edit changes them.
struct EditPlan {
    std::string event, site, date, round, white, black;
    ResultCode result = ResultCode::unknown;
    std::vector<std::pair<std::string, std::string>> others; // the tags table, in order
    bool columns_changed = false, others_changed = false;
    std::vector<TagChange> changes;

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

void plan_set(EditPlan& plan, const StoredGame& g, const std::string& name, const std::string& value) {
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
        if (*r == plan.result) return;
        plan.changes.push_back({name, std::string(result_text(plan.result)), std::string(result_text(*r))});
        plan.result = *r;
        plan.columns_changed = true;
        return;
    }
    if (std::string* col = plan.column(name)) {
        if (name == "Date" && !date_reads(value))
            throw EditRefused(refusal_prefix(id) + "Date must read as YYYY.MM.DD (unknown parts as ?\?), not '" + value + "'");
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
    EditPlan plan{s.event, s.site, s.date, s.round, s.white, s.black, s.result, {}, false, false, {}};
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
    if (plan.result != s.result) check_result(*g, plan.result);

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
    if (plan.result != s.result) settle_result_diagnostics(id, s.status);
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

namespace {

// Runs `head` + "(?1, ..., ?n)" over `ids`, a few hundred ids a statement, calling row(st) for each
// row the statements return.
template <class Row>
void for_ids(Database& db, const std::string& head, std::span<const std::int64_t> ids, Row&& row) {
    constexpr std::size_t per_statement = 500;
    std::unique_ptr<Statement> st;
    std::size_t prepared = 0;
    for (std::size_t at = 0; at < ids.size(); at += per_statement) {
        const std::size_t n = std::min(per_statement, ids.size() - at);
        if (n != prepared) {
            std::string sql = head + "(";
            for (std::size_t i = 0; i < n; ++i) sql += (i ? ",?" : "?") + std::to_string(i + 1);
            st = std::make_unique<Statement>(db, sql + ")");
            prepared = n;
        }
        const ResetAtExit done(*st);
        for (std::size_t i = 0; i < n; ++i) st->bind(int(i + 1), ids[at + i]);
        while (st->step()) row(*st);
    }
}

// The starts of stored games, read once per distinct start text.
class Starts {
public:
    const AnyPosition& of(GameKind kind, std::string_view text) {
        auto it = known_.find({kind, std::string(text)});
        if (it == known_.end()) it = known_.emplace(std::pair(kind, std::string(text)), stored_start(kind, text)).first;
        return it->second;
    }

private:
    std::map<std::pair<GameKind, std::string>, AnyPosition> known_;
};

// A game to delete, as its deletion needs it.
struct DoomedGame {
    std::int64_t id = 0;
    const AnyPosition* start = nullptr;
    std::vector<Move> moves;
    ResultCode result = ResultCode::unknown;
};

// What the deleted games take off one row (position, move) of the opening tree.
struct TreeDecrement {
    std::int64_t games = 0, white_wins = 0, black_wins = 0, draws = 0;
    std::uint64_t child = 0; // the key of the position the move leads to
};
using TreeDecrements = std::map<std::pair<std::int64_t, std::int64_t>, TreeDecrement>; // (key, stored move)

// A tree row whose latest game was deleted.
struct StaleLatest {
    std::int64_t key = 0;
    Move move;
    std::uint64_t child = 0;
};

std::vector<DoomedGame> load_doomed(Database& db, Starts& starts, std::span<const std::int64_t> sorted_ids) {
    std::vector<DoomedGame> out;
    out.reserve(sorted_ids.size());
    for_ids(db, "SELECT id, kind, start_position, moves, result FROM games WHERE id IN ", sorted_ids, [&](Statement& st) {
        const std::int64_t id = st.get_int64(0);
        auto moves = decode_moves(st.get_blob(3));
        if (!moves) throw DbError(0, "the database is damaged: the moves of game " + std::to_string(id) + " do not decode");
        out.push_back({id, &starts.of(GameKind(st.get_int(1)), st.get_text(2)), std::move(*moves), ResultCode(st.get_int(4))});
    });
    std::sort(out.begin(), out.end(), [](const DoomedGame& a, const DoomedGame& b) { return a.id < b.id; });
    return out;
}

TreeDecrements tree_decrements(const std::vector<DoomedGame>& games, int tree_depth) {
    TreeDecrements out;
    for (const DoomedGame& g : games) {
        AnyPosition pos = *g.start;
        for (std::size_t ply = 0; ply < g.moves.size() && ply < std::size_t(tree_depth); ++ply) {
            const Move m = g.moves[ply];
            TreeDecrement& d = out[{std::int64_t(index_key(pos)), std::int64_t(stored_raw(m))}];
            pos.play(m);
            d.child = index_key(pos);
            ++d.games;
            d.white_wins += g.result == ResultCode::white_wins;
            d.black_wins += g.result == ResultCode::black_wins;
            d.draws += g.result == ResultCode::draw;
        }
    }
    return out;
}

// The game ids named by an import note ('prefix' code), as GameDatabase writes them; 0 for none.
std::int64_t note_names(std::string_view message) {
    const std::size_t at = message.find("game ");
    if (at == std::string_view::npos) return 0;
    std::int64_t id = 0;
    const char* begin = message.data() + at + 5;
    const auto [end, ec] = std::from_chars(begin, message.data() + message.size(), id);
    if (ec != std::errc() || end == begin) return 0;
    const std::string_view text = message;
    return text == GameDatabase::note_is_prefix_of(id) || text == GameDatabase::note_has_prefix(id) ||
            text == GameDatabase::note_same_moves(id)
        ? id
        : 0;
}

bool among(std::span<const std::int64_t> sorted, std::int64_t id) { return std::binary_search(sorted.begin(), sorted.end(), id); }

// The keys of every position of the games (distinct, in index order) when they are few beside the
// index, so that PositionIndex::remove_games can seek them; none otherwise (it reads the runs through).
std::vector<std::uint64_t> index_keys_if_few(Database& db, const std::vector<DoomedGame>& games) {
    std::int64_t entries = 0, positions = 0;
    {
        Statement st(db, "SELECT coalesce(sum(entries), 0) FROM position_runs");
        if (st.step()) entries = st.get_int64(0);
    }
    for (const DoomedGame& g : games) positions += std::int64_t(g.moves.size()) + 1;
    std::vector<std::uint64_t> keys;
    if (positions * 256 >= entries) return keys;
    for (const DoomedGame& g : games) {
        const std::vector<std::uint64_t> k = GameDatabase::position_keys(*g.start, g.moves);
        keys.insert(keys.end(), k.begin(), k.end());
    }
    std::sort(keys.begin(), keys.end(), [](std::uint64_t a, std::uint64_t b) { return std::int64_t(a) < std::int64_t(b); });
    keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
    return keys;
}

// Takes the deleted games off the tree, each row once; drops the rows no game plays any more.
// Returns the rows that keep games but whose latest game was deleted.
std::vector<StaleLatest> apply_tree_decrements(Database& db, const TreeDecrements& decrements, std::span<const std::int64_t> gone) {
    Statement dec(db,
                  "UPDATE tree_stats SET games = games - ?3, white_wins = white_wins - ?4, black_wins = black_wins - ?5, "
                  "draws = draws - ?6 WHERE key = ?1 AND move = ?2 RETURNING games, latest_game");
    Statement drop(db, "DELETE FROM tree_stats WHERE key = ?1 AND move = ?2");
    std::vector<StaleLatest> stale;
    for (const auto& [row, d] : decrements) {
        std::int64_t left = 0, latest = 0;
        {
            const ResetAtExit done(dec);
            dec.bind(1, row.first).bind(2, row.second).bind(3, d.games).bind(4, d.white_wins).bind(5, d.black_wins).bind(6, d.draws);
            if (!dec.step()) throw DbError(0, "the database is damaged: the opening tree lacks a move of a deleted game");
            left = dec.get_int64(0);
            latest = dec.get_int64(1);
        }
        if (left <= 0) {
            drop.bind(1, row.first).bind(2, row.second);
            drop.run();
        } else if (among(gone, latest)) {
            stale.push_back({row.first, move_from_stored_raw(std::uint32_t(row.second)), d.child});
        }
    }
    return stale;
}

// Sets the latest game of each stale row again: the games that reach the position the move leads
// to (from the index) are tried from the latest down, and the first that played the move from the
// row's position at a ply the tree counts wins. Dates are read once for all the rows.
void latest_again(Database& db, PositionIndex& index, int tree_depth, Starts& starts, const std::vector<StaleLatest>& stale) {
    if (stale.empty()) return;
    std::vector<std::vector<IndexEntry>> reached(stale.size());
    std::vector<std::int64_t> wanted;
    for (std::size_t i = 0; i < stale.size(); ++i) {
        std::vector<IndexEntry> entries;
        index.lookup(stale[i].child, entries);
        for (const IndexEntry& e : entries)
            if (e.ply >= 1 && e.ply <= std::uint32_t(tree_depth)) { // tree_stats counts plies below the depth
                reached[i].push_back(e);
                wanted.push_back(e.game);
            }
    }
    std::sort(wanted.begin(), wanted.end());
    wanted.erase(std::unique(wanted.begin(), wanted.end()), wanted.end());
    std::unordered_map<std::int64_t, std::int64_t> dates;
    for_ids(db, "SELECT id, date_key FROM games WHERE id IN ", wanted, [&](Statement& st) { dates[st.get_int64(0)] = st.get_int64(1); });

    Statement game(db, "SELECT kind, start_position, moves FROM games WHERE id = ?1");
    Statement update(db, "UPDATE tree_stats SET latest_game = ?3, latest_date = ?4 WHERE key = ?1 AND move = ?2");
    for (std::size_t i = 0; i < stale.size(); ++i) {
        const StaleLatest& row = stale[i];
        std::vector<std::tuple<std::int64_t, std::int64_t, std::uint32_t>> candidates; // date, id, ply
        for (const IndexEntry& e : reached[i])
            if (const auto d = dates.find(e.game); d != dates.end()) candidates.emplace_back(d->second, e.game, e.ply);
        std::sort(candidates.begin(), candidates.end(), std::greater<>());
        std::int64_t best_id = 0, best_date = 0;
        for (const auto& [date, id, ply] : candidates) {
            const ResetAtExit done(game);
            game.bind(1, id);
            if (!game.step()) continue;
            AnyPosition p = starts.of(GameKind(game.get_int(0)), game.get_text(1));
            MoveDecoder moves(game.get_blob(2));
            Move m;
            bool whole = true;
            for (std::uint32_t k = 0; k + 1 < ply && (whole = moves.next(m)); ++k) p.play(m);
            if (whole && std::int64_t(index_key(p)) == row.key && moves.next(m) && m == row.move) {
                best_id = id;
                best_date = date;
                break;
            }
        }
        update.bind(1, row.key).bind(2, std::int64_t(stored_raw(row.move))).bind(3, best_id).bind(4, best_date);
        update.run();
    }
}

// latest_again for many rows at once: every game's first plies are replayed once, and each stale
// row keeps the latest game (greatest date, then id) that played its move from its position.
void latest_by_scan(Database& db, int tree_depth, Starts& starts, const std::vector<StaleLatest>& stale) {
    std::map<std::pair<std::int64_t, std::int64_t>, std::pair<std::int64_t, std::int64_t>> best; // (key, move) -> (date, id)
    for (const StaleLatest& row : stale) best[{row.key, std::int64_t(stored_raw(row.move))}] = {0, 0};
    {
        Statement st(db, "SELECT id, kind, start_position, moves, date_key FROM games");
        while (st.step()) {
            const std::pair<std::int64_t, std::int64_t> candidate{st.get_int64(4), st.get_int64(0)};
            AnyPosition pos = starts.of(GameKind(st.get_int(1)), st.get_text(2));
            MoveDecoder moves(st.get_blob(3));
            Move m;
            for (int ply = 0; ply < tree_depth && moves.next(m); ++ply) {
                const auto it = best.find({std::int64_t(index_key(pos)), std::int64_t(stored_raw(m))});
                if (it != best.end() && candidate > it->second) it->second = candidate;
                pos.play(m);
            }
        }
    }
    Statement update(db, "UPDATE tree_stats SET latest_game = ?3, latest_date = ?4 WHERE key = ?1 AND move = ?2");
    for (const auto& [row, latest] : best) {
        update.bind(1, row.first).bind(2, row.second).bind(3, latest.second).bind(4, latest.first);
        update.run();
    }
}

} // namespace

// Deletes in one pass however many games go: the games are read once, the position index is
// rewritten a page of blocks at a time (not game by game), each tree row is changed once by the
// sum of what the games took off it, and a row's latest game is looked for again only when it
// was deleted. Tags, diagnostics, judgements and jobs go by ON DELETE CASCADE.
std::int64_t GameDatabase::delete_games(std::span<const std::int64_t> ids) { return delete_rows(ids, true); }

std::int64_t GameDatabase::delete_rows(std::span<const std::int64_t> ids, bool empty_at_once) {
    Transaction tx(db_, TransactionKind::immediate);
    std::vector<std::int64_t> distinct(ids.begin(), ids.end());
    std::sort(distinct.begin(), distinct.end());
    distinct.erase(std::unique(distinct.begin(), distinct.end()), distinct.end());
    Starts starts;
    const std::vector<DoomedGame> doomed = load_doomed(db_, starts, distinct);
    std::int64_t total = 0;
    {
        Statement count(db_, "SELECT count(*) FROM games");
        if (count.step()) total = count.get_int64(0);
    }
    if (doomed.empty()) return 0;
    if (empty_at_once && std::int64_t(doomed.size()) == total) {
        // Every game of the database: emptied at once (ids still only grow: meta keeps the next one).
        db_.exec("DELETE FROM games; DELETE FROM tree_stats; DELETE FROM position_blocks; DELETE FROM position_runs;");
        tx.commit();
        return total;
    }
    std::vector<std::int64_t> gone;
    gone.reserve(doomed.size());
    for (const DoomedGame& g : doomed) gone.push_back(g.id);
    index_->remove_games(gone, index_keys_if_few(db_, doomed));
    const std::vector<StaleLatest> stale = apply_tree_decrements(db_, tree_decrements(doomed, tree_depth_), gone);
    // The indexes of games by player, event and date: built again for the games that stay when a
    // third or more go (one sort each, rather than an index entry removed per game).
    const bool rebuild_lookups = gone.size() >= 500 && std::int64_t(gone.size()) * 3 >= total;
    if (rebuild_lookups) drop_lookup_indexes();
    for_ids(db_, "DELETE FROM games WHERE id IN ", gone, [](Statement&) {});
    if (rebuild_lookups) create_lookup_indexes();
    // Once the games are gone: what is read now is what stays. Many stale rows (half the games
    // gone): one pass over the games left; few: the games that reach each row's next position.
    if (std::int64_t(stale.size()) * 64 > total - std::int64_t(gone.size())) latest_by_scan(db_, tree_depth_, starts, stale);
    else latest_again(db_, *index_, tree_depth_, starts, stale);
    drop_notes_naming(gone);
    tx.commit();
    return std::int64_t(gone.size());
}

std::string GameDatabase::note_is_prefix_of(std::int64_t other) {
    return "its moves are a prefix of game " + std::to_string(other) + "'s";
}
std::string GameDatabase::note_has_prefix(std::int64_t other) {
    return "game " + std::to_string(other) + "'s moves are a prefix of its moves";
}
std::string GameDatabase::note_same_moves(std::int64_t other) { return "game " + std::to_string(other) + " has the same moves"; }

// The other games' import notes that name a deleted game, found in one pass over the notes.
void GameDatabase::drop_notes_naming(std::span<const std::int64_t> sorted_ids) {
    std::vector<std::pair<std::int64_t, std::int64_t>> notes; // game_id, seq
    {
        Statement st(db_, "SELECT game_id, seq, message FROM diagnostics WHERE code = 'prefix'");
        while (st.step())
            if (const std::int64_t named = note_names(st.get_text(2)); named && among(sorted_ids, named))
                notes.emplace_back(st.get_int64(0), st.get_int64(1));
    }
    Statement drop(db_, "DELETE FROM diagnostics WHERE game_id = ?1 AND seq = ?2");
    for (const auto& [game, seq] : notes) {
        drop.bind(1, game).bind(2, seq);
        drop.run();
    }
}

void GameDatabase::recompute_latest(std::uint64_t key, Move move, const AnyPosition& pos) {
    AnyPosition child = pos;
    child.play(move);
    Starts starts;
    latest_again(db_, *index_, tree_depth_, starts, {StaleLatest{std::int64_t(key), move, index_key(child)}});
}

bool GameDatabase::delete_game(std::int64_t id) {
    // Also called inside an import (a replaced game), whose batch may have rows of its own in the
    // tree and the index: never the emptying of every table.
    const std::int64_t one[] = {id};
    return delete_rows(one, false) == 1;
}

} // namespace gounki::db
