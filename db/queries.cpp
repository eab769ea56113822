// The read side of the game database: listing, position and pattern search, the opening tree,
// one game, export. Changing stored games (editing tags, deleting) is in db/edit.cpp.
#include <algorithm>
#include <limits>
#include <atomic>
#include <map>
#include <mutex>
#include <thread>
#include <unordered_map>
#include <variant>

#include "core/game.hpp"
#include "db/fold.hpp"
#include "db/game_db.hpp"
#include "db/pattern/gounki.hpp"
#include "db/pattern/stones.hpp"
#include "core/stones/symmetry.hpp"

namespace gounki::db {

namespace {

// Parameters of a statement built from a filter, bound in order as ?first, ?first+1, ...
struct Params {
    explicit Params(int first_index = 1) : first(first_index) {}
    int first;
    std::vector<std::variant<std::int64_t, std::string>> values;
    std::string add(std::int64_t v) {
        values.emplace_back(v);
        return "?" + std::to_string(first + int(values.size()) - 1);
    }
    std::string add(std::string v) {
        values.emplace_back(std::move(v));
        return "?" + std::to_string(first + int(values.size()) - 1);
    }
    void bind(Statement& st) const {
        for (std::size_t i = 0; i < values.size(); ++i) {
            if (auto* v = std::get_if<std::int64_t>(&values[i])) st.bind(first + int(i), *v);
            else st.bind(first + int(i), std::get<std::string>(values[i]));
        }
    }
};

// The WHERE condition (on games aliased g) of a filter; "TRUE" when it has none.
std::string where(const GameFilter& f, Params& params) {
    std::vector<std::string> terms;
    // Names match as substrings of their folds (db/fold.hpp): any case, any accents.
    auto names = [&](const char* table, const std::string& text) {
        return std::string("(SELECT id FROM ") + table + " WHERE instr(gounki_fold(name), " + params.add(fold_text(text)) +
            ") > 0)";
    };
    if (!f.white.empty()) terms.push_back("g.white_id IN " + names("players", f.white));
    if (!f.black.empty()) terms.push_back("g.black_id IN " + names("players", f.black));
    if (!f.player.empty()) {
        const std::string ids = names("players", f.player);
        terms.push_back("(g.white_id IN " + ids + " OR g.black_id IN " + ids + ")");
    }
    if (!f.event.empty()) terms.push_back("g.event_id IN " + names("events", f.event));
    if (!f.site.empty()) terms.push_back("instr(gounki_fold(g.site), " + params.add(fold_text(f.site)) + ") > 0");
    if (!f.source.empty())
        terms.push_back("g.source_id IN (SELECT id FROM sources WHERE instr(gounki_fold(path), " +
                        params.add(fold_text(f.source)) + ") > 0)");
    if (f.result) terms.push_back("g.result = " + params.add(std::int64_t(*f.result)));
    if (f.kind) terms.push_back("g.kind = " + params.add(std::int64_t(*f.kind)));
    if (f.status) terms.push_back("g.status = " + params.add(std::int64_t(*f.status)));
    if (f.id_from) terms.push_back("g.id >= " + params.add(*f.id_from));
    if (f.id_to) terms.push_back("g.id <= " + params.add(*f.id_to));
    // A date known to the month or the year only is that whole month or year: it is in a range that
    // holds all of it (2024.??.?? is in 2024.01-2024.12, not in -2024.06). Its first and last days
    // are the key plus 101 and 1231 (month unknown) or 1 and 31 (day unknown); the plain key
    // comparisons let the date index narrow the rows first.
    const std::string first_day = "(g.date_key + CASE WHEN g.date_key % 10000 = 0 THEN 101 WHEN g.date_key % 100 = 0 THEN 1 ELSE 0 END)";
    const std::string last_day = "(g.date_key + CASE WHEN g.date_key % 10000 = 0 THEN 1231 WHEN g.date_key % 100 = 0 THEN 31 ELSE 0 END)";
    if (f.date_from)
        terms.push_back("g.date_key >= " + params.add(*f.date_from - 101) + " AND " + first_day + " >= " + params.add(*f.date_from));
    if (f.date_to) terms.push_back("g.date_key <= " + params.add(*f.date_to) + " AND g.date_key > 0 AND " + last_day + " <= " + params.add(*f.date_to));
    if (terms.empty()) return "TRUE";
    std::string out;
    for (const std::string& t : terms) out += (out.empty() ? "" : " AND ") + t;
    return out;
}

// The joins (beyond games g) that order_by needs, for a query that has none.
std::string order_joins(const GameOrder& o) {
    if (o.key == SortKey::player) return " LEFT JOIN players w ON w.id = g.white_id LEFT JOIN players b ON b.id = g.black_id";
    if (o.key == SortKey::event) return " LEFT JOIN events e ON e.id = g.event_id";
    return "";
}

// The ORDER BY clause of an order (GameOrder), on games g, players w and b, events e. Each key is
// preceded by whether it is unknown, always ascending: unknown values come last either way (a name
// is unknown when empty or "?", the records' way of writing it unknown).
std::string order_by(const GameOrder& o) {
    const std::string dir = o.descending ? " DESC" : "";
    const auto name = [&](const char* alias) {
        const std::string n = std::string(alias) + ".name";
        return "coalesce(" + n + ", '') IN ('', '?'), gounki_fold(" + n + ")" + dir + ", ";
    };
    // The first player's name (Black's in the games Black opens, else White's), or the second's.
    const auto player = [&](bool first) {
        std::string black_first;
        for (const GameInfo& info : games())
            if (info.first_mover == Color::black) black_first += (black_first.empty() ? "" : ", ") + std::to_string(int(info.kind));
        const std::string n = black_first.empty() ? std::string(first ? "w" : "b") + ".name"
                                                  : std::string("CASE WHEN g.kind IN (") + black_first + ") THEN " +
                (first ? "b" : "w") + ".name ELSE " + (first ? "w" : "b") + ".name END";
        return "coalesce(" + n + ", '') IN ('', '?'), gounki_fold(" + n + ")" + dir + ", ";
    };
    std::string keys;
    switch (o.key) {
    case SortKey::id: break;
    case SortKey::date: keys = "g.date_key = 0, g.date_key" + dir + ", "; break;
    case SortKey::player: keys = player(true) + player(false); break;
    case SortKey::event: keys = name("e"); break;
    case SortKey::result: keys = "g.result = 0, g.result" + dir + ", "; break;
    }
    return " ORDER BY " + keys + "g.id" + dir;
}

// The columns read_summary reads, and the tables they come from.
constexpr const char* summary_columns =
    "g.id, g.kind, w.name, b.name, e.name, g.site, g.date, g.round, g.result, g.ply_count, g.status";
constexpr const char* summary_joins =
    " LEFT JOIN players w ON w.id = g.white_id LEFT JOIN players b ON b.id = g.black_id LEFT JOIN events e ON e.id = g.event_id";
const std::string summary_from = std::string(" FROM games g") + summary_joins;

GameSummary read_summary(const Statement& st, int first = 0) {
    GameSummary s;
    s.id = st.get_int64(first);
    s.kind = GameKind(st.get_int(first + 1));
    s.white = st.get_string(first + 2);
    s.black = st.get_string(first + 3);
    s.event = st.get_string(first + 4);
    s.site = st.get_string(first + 5);
    s.date = st.get_string(first + 6);
    s.round = st.get_string(first + 7);
    s.result = ResultCode(st.get_int(first + 8));
    s.ply_count = st.get_int(first + 9);
    s.status = GameStatus(st.get_int(first + 10));
    return s;
}

Position start_of(std::string_view text) {
    if (text.empty()) return Position::start();
    auto parsed = Position::from_text(text);
    if (auto* p = std::get_if<Position>(&parsed)) return *p;
    throw DbError(0, "the database is damaged: a stored start position does not read ('" + std::string(text) + "')");
}

} // namespace

GameSummary GameDatabase::summary(std::int64_t id) {
    Statement& st = cached(std::string("SELECT ") + summary_columns + summary_from + " WHERE g.id = ?1");
    const ResetAtExit done(st);
    st.bind(1, id);
    GameSummary s;
    if (st.step()) s = read_summary(st);
    return s;
}

std::vector<std::int64_t> GameDatabase::filtered_ids(const GameFilter& filter) {
    Params params;
    Statement st(
        db_, "SELECT g.id FROM games g" + order_joins(filter.order) + " WHERE " + where(filter, params) + order_by(filter.order));
    params.bind(st);
    std::vector<std::int64_t> ids;
    while (st.step()) ids.push_back(st.get_int64(0));
    return ids;
}

std::optional<std::pair<std::int64_t, std::int64_t>> GameDatabase::change_version() {
    if (db_.is_postgres()) return std::nullopt;
    Statement& v = cached("SELECT data_version, total_changes() FROM pragma_data_version");
    const ResetAtExit done(v);
    if (!v.step()) return std::nullopt;
    return std::pair{v.get_int64(0), v.get_int64(1)};
}

GameList GameDatabase::list_games(const GameFilter& filter, Paging paging, std::optional<std::int64_t> known_total) {
    Transaction tx(db_, TransactionKind::deferred);
    Params params;
    const std::string cond = where(filter, params);
    GameList out;
    Params page_params = params;
    // No limit: the greatest one (SQLite's -1 means none; PostgreSQL refuses a negative one).
    const std::string limit = page_params.add(paging.limit < 0 ? std::numeric_limits<std::int64_t>::max() : paging.limit),
                      offset = page_params.add(std::max<std::int64_t>(paging.offset, 0));
    // The page's ids first, walking the offset without the joins of the names (a page deep in
    // the list skips its offset's games at a fraction of the cost), then their summaries.
    Statement st(db_, std::string("SELECT ") + summary_columns + " FROM (SELECT g.id AS page_id FROM games g" +
                          order_joins(filter.order) + " WHERE " + cond + order_by(filter.order) + " LIMIT " + limit + " OFFSET " +
                          offset + ") p JOIN games g ON g.id = p.page_id" + summary_joins + order_by(filter.order));
    page_params.bind(st);
    while (st.step()) out.games.push_back(read_summary(st)); // the transaction's snapshot is taken here
    if (known_total) {
        out.total = *known_total;
        tx.commit();
        return out;
    }
    // Every game's count is kept while the snapshot's file is the one it was counted in: no other
    // connection committed (data_version) and this one changed nothing (total_changes).
    std::optional<std::pair<std::int64_t, std::int64_t>> version;
    if (!filter.any()) version = change_version();
    if (version && *version == all_games_version_) out.total = all_games_;
    else {
        Statement count(db_, "SELECT count(*) FROM games g WHERE " + cond);
        params.bind(count);
        if (count.step()) out.total = count.get_int64(0);
        if (version) all_games_version_ = *version, all_games_ = out.total;
    }
    tx.commit();
    return out;
}

// `matches`: (game id, ply) sorted by id, one per game. Applies the filter, sorts, counts, pages.
GameList GameDatabase::page_of(std::vector<std::pair<std::int64_t, int>> matches, const GameFilter& filter, Paging paging) {
    if (filter.any()) {
        std::vector<std::pair<std::int64_t, int>> kept;
        if (matches.size() > 2000) {
            // Many matches: one pass over the filter's games beats a query per match.
            GameFilter by_id = filter;
            by_id.order = {};
            const std::vector<std::int64_t> ids = filtered_ids(by_id);
            for (const auto& m : matches)
                if (std::binary_search(ids.begin(), ids.end(), m.first)) kept.push_back(m);
        } else {
            Params params(2);
            Statement st(db_, "SELECT 1 FROM games g WHERE g.id = ?1 AND " + where(filter, params));
            for (const auto& m : matches) {
                const ResetAtExit done(st);
                st.bind(1, m.first);
                params.bind(st);
                if (st.step()) kept.push_back(m);
            }
        }
        matches = std::move(kept);
    }
    if (filter.order.given() && !matches.empty()) {
        // Every game in the order asked, keeping those that matched.
        GameFilter all;
        all.order = filter.order;
        std::vector<std::pair<std::int64_t, int>> ordered;
        ordered.reserve(matches.size());
        for (std::int64_t id : filtered_ids(all)) {
            const auto it = std::lower_bound(matches.begin(), matches.end(), std::pair<std::int64_t, int>(id, -1));
            if (it != matches.end() && it->first == id) ordered.push_back(*it);
        }
        matches = std::move(ordered);
    }
    GameList out;
    out.total = std::int64_t(matches.size());
    const std::size_t first = std::size_t(std::min<std::int64_t>(std::max<std::int64_t>(paging.offset, 0), out.total));
    const std::size_t last = paging.limit < 0 ? matches.size() : std::min(matches.size(), first + std::size_t(paging.limit));
    Statement st(db_, std::string("SELECT ") + summary_columns + summary_from + " WHERE g.id = ?1");
    for (std::size_t i = first; i < last; ++i) {
        const ResetAtExit done(st);
        st.bind(1, matches[i].first);
        if (st.step()) {
            out.games.push_back(read_summary(st));
            out.games.back().ply = matches[i].second;
        }
    }
    return out;
}

GameList GameDatabase::search_position(const AnyPosition& pos, const GameFilter& filter, Paging paging) {
    // A Gounki game won by an exit ends in a position whose key says so, but whose text cannot (the
    // board alone does not tell an exit): a position typed as going on is also looked up as won by
    // the player who moved last.
    if (pos.kind() == GameKind::gounki && !pos.game_over()) {
        const Position& g = pos.as_gounki();
        const std::uint64_t won = g.key_with_outcome(win_for(~g.side_to_move()));
        const std::uint64_t keys[] = {index_key(pos), index_key(GameKind::gounki, won)};
        return search_keys(keys, filter, paging);
    }
    return search_key(index_key(pos), filter, paging);
}

GameList GameDatabase::search_positions(std::span<const AnyPosition> positions, const GameFilter& filter, Paging paging,
                                        std::optional<std::uint32_t> at_ply) {
    std::vector<std::uint64_t> keys;
    for (const AnyPosition& p : positions) keys.push_back(index_key(p));
    return search_keys(keys, filter, paging, at_ply);
}

GameList GameDatabase::search_key(std::uint64_t key, const GameFilter& filter, Paging paging) {
    return search_keys(std::span(&key, 1), filter, paging);
}

GameList GameDatabase::search_keys(std::span<const std::uint64_t> keys, const GameFilter& filter, Paging paging,
                                   std::optional<std::uint32_t> at_ply) {
    Transaction tx(db_, TransactionKind::deferred); // one snapshot of all runs
    std::vector<IndexEntry> entries;
    for (const std::uint64_t key : keys) index_->lookup(key, entries); // each sorted by game, then ply
    if (keys.size() > 1)
        std::sort(entries.begin(), entries.end(),
                  [](const IndexEntry& a, const IndexEntry& b) { return std::pair(a.game, a.ply) < std::pair(b.game, b.ply); });
    std::vector<std::pair<std::int64_t, int>> matches;
    matches.reserve(entries.size());
    for (const IndexEntry& e : entries)
        if ((!at_ply || e.ply == *at_ply) && (matches.empty() || matches.back().first != e.game))
            matches.emplace_back(e.game, int(e.ply));
    GameList out = page_of(std::move(matches), filter, paging);
    tx.commit();
    return out;
}

namespace {

// The first ply of a game at which the pattern matches, or -1.
int first_match(const Pattern& pattern, Position pos, std::span<const std::uint8_t> blob) {
    if (pattern.matches(pos)) return 0;
    if (pattern.prunes() && !pattern.reachable(pos)) return -1;
    MoveDecoder moves(blob);
    UndoRecord undo;
    Move m;
    int ply = 0;
    while (moves.next(m)) {
        const Color them = ~pos.side_to_move();
        const int before = std::popcount(pos.occupancy(them));
        pos.do_move_unhashed(m, undo);
        ++ply;
        if (pattern.matches(pos)) return ply;
        // Material only goes down, and only through captures: check when a stack went.
        if (pattern.prunes() && std::popcount(pos.occupancy(them)) < before && !pattern.reachable(pos)) return -1;
    }
    return -1;
}

} // namespace

GameList GameDatabase::search_pattern(const Pattern& pattern, const GameFilter& filter, Paging paging, int threads) {
    Transaction tx(db_, TransactionKind::deferred);
    std::int64_t first = 0, last = -1;
    {
        Statement& range = cached("SELECT min(id), max(id) FROM games");
        const ResetAtExit done(range);
        if (range.step() && !range.is_null(0)) {
            first = range.get_int64(0);
            last = range.get_int64(1);
        }
    }
    if (threads <= 0) threads = int(std::max(1u, std::thread::hardware_concurrency()));
    Params params(3);
    const std::string sql =
        "SELECT g.id, g.start_position, g.moves FROM games g WHERE g.id >= ?1 AND g.id < ?2 AND g.kind = 0 AND " +
        where(filter, params);
    // Each thread reads its own id ranges through its own connection (SQLite connections are not
    // shared between threads at once; the first thread borrows this one while this thread waits).
    const std::int64_t span = last - first + 1;
    const std::int64_t chunk = std::max<std::int64_t>(1024, span / (std::int64_t(threads) * 16) + 1);
    std::atomic<std::int64_t> next{first};
    std::mutex mutex;
    std::vector<std::pair<std::int64_t, int>> matches;
    std::exception_ptr failure;
    const auto worker = [&](int index) {
        try {
            std::unique_ptr<Database> own;
            if (index > 0) {
                own = db_.open_again(OpenMode::read_only);
                own->tune("PRAGMA mmap_size = 1073741824");
            }
            Database& conn = own ? *own : db_;
            Statement st(conn, sql);
            std::unordered_map<std::string, Position> starts;
            std::vector<std::pair<std::int64_t, int>> local;
            for (;;) {
                const std::int64_t from = next.fetch_add(chunk);
                if (from > last) break;
                const ResetAtExit done(st);
                st.bind(1, from).bind(2, from + chunk);
                params.bind(st);
                static const Position standard = Position::start();
                while (st.step()) {
                    Position start = standard;
                    const std::string_view text = st.get_text(1);
                    if (!text.empty()) {
                        auto it = starts.find(std::string(text));
                        if (it == starts.end()) it = starts.emplace(std::string(text), start_of(text)).first;
                        start = it->second;
                    }
                    const int ply = first_match(pattern, start, st.get_blob(2));
                    if (ply >= 0) local.emplace_back(st.get_int64(0), ply);
                }
            }
            std::lock_guard lock(mutex);
            matches.insert(matches.end(), local.begin(), local.end());
        } catch (...) {
            std::lock_guard lock(mutex);
            if (!failure) failure = std::current_exception();
        }
    };
    if (span > 0) {
        std::vector<std::thread> pool;
        for (int i = 1; i < threads && std::int64_t(i) * chunk < span; ++i) pool.emplace_back(worker, i);
        worker(0);
        for (std::thread& t : pool) t.join();
    }
    if (failure) std::rethrow_exception(failure);

    std::sort(matches.begin(), matches.end());
    GameFilter order_only; // the filter is already applied; the order is not
    order_only.order = filter.order;
    GameList out = page_of(std::move(matches), order_only, paging);
    tx.commit();
    return out;
}

GameList GameDatabase::search_stone_pattern(const StonePattern& pattern, const GameFilter& filter, Paging paging, bool symmetric) {
    // Stone collections are replayed on one connection: a stone move costs little next to the
    // reading, and such collections are far smaller than Gounki ones.
    Transaction tx(db_, TransactionKind::deferred);
    Params params(2);
    const std::string sql =
        "SELECT g.id, g.start_position, g.moves FROM games g WHERE g.kind = ?1 AND " + where(filter, params) + " ORDER BY g.id";
    Statement st(db_, sql);
    st.bind(1, std::int64_t(pattern.kind()));
    params.bind(st);
    std::vector<std::pair<std::int64_t, int>> matches;
    stones::StoneUndo undo;
    const int turns = symmetric ? stones::symmetry_count : 1;
    const auto matches_here = [&](const stones::StonePosition& pos) {
        for (int s = 0; s < turns; ++s)
            if (pattern.matches(pos, s)) return true;
        return false;
    };
    const auto reachable_here = [&](const stones::StonePosition& pos) {
        for (int s = 0; s < turns; ++s)
            if (pattern.reachable(pos, s)) return true;
        return false;
    };
    while (st.step()) {
        stones::StonePosition pos = *stored_start(pattern.kind(), st.get_text(1)).stones();
        if (pattern.size() && *pattern.size() != pos.size()) continue;
        int ply = matches_here(pos) ? 0 : -1;
        MoveDecoder moves(st.get_blob(2));
        Move m;
        for (int i = 1; ply < 0 && moves.next(m); ++i) {
            if (pattern.prunes() && !reachable_here(pos)) break;
            if (!pos.is_legal(m))
                throw DbError(0,
                              "the database is damaged: game " + std::to_string(st.get_int64(0)) +
                                  " holds an illegal move at ply " + std::to_string(i));
            pos.play(m, undo);
            if (matches_here(pos)) ply = i;
        }
        if (ply >= 0) matches.emplace_back(st.get_int64(0), ply);
    }
    GameFilter order_only; // the filter is already applied; the order is not
    order_only.order = filter.order;
    GameList out = page_of(std::move(matches), order_only, paging);
    tx.commit();
    return out;
}

Tree GameDatabase::tree(const AnyPosition& pos, bool symmetric) {
    std::vector<TreeKey> keys;
    MoveFold fold;
    if (symmetric && pos.stones()) {
        const stones::StonePosition& here = *pos.stones();
        for (const stones::Image& i : stones::images(here))
            keys.push_back({index_key(here.rules().kind, i.position.key()), i.symmetry, here.size()});
        // The position's own symmetries (h8 alone has all eight): the points they exchange are one
        // move (i9, g9, g7 and i7 from h8), counted under the point of the first symmetry.
        const std::vector<int> own = stones::own_symmetries(here);
        if (!own.empty())
            fold = [own, size = here.size()](std::uint32_t raw) {
                std::uint32_t least = raw;
                for (const int p : stones::exchanged_points(move_from_stored_raw(raw).point(), own, size))
                    least = std::min(least, stored_raw(Move::placement(p)));
                return least;
            };
    } else {
        keys.push_back({index_key(pos), 0, 0});
    }
    return tree_of_keys(keys, fold);
}

namespace {

// A Gounki pass by bounce (docs/rules.md 1.3): a movement back to its own square.
bool is_pass(Move m) { return m.type() == MoveType::movement && m.from() == m.to(); }

} // namespace

// A move stored from an image of the position, as played from the position itself (a stone game's
// point turned back by the image's symmetry).
std::uint32_t GameDatabase::TreeKey::back(std::uint32_t raw) const {
    if (symmetry == 0) return raw;
    const Move m = move_from_stored_raw(raw);
    return stored_raw(Move::placement(stones::transformed_point(m.point(), stones::inverse_symmetry(symmetry), size)));
}

// Each game counts once per position it continued from (Tree::games) and once per move it played
// from there (TreeMove), however often it came back: the tree sums games, not visits. With several
// keys (a position's images) a game counts once however many of them it came to, and a move it
// played from two images once (as played from the position). With a fold, the moves it makes one
// count together, shown as the one of them played most (the first in point order among equals).
//
// tree_stats sums the plies below tree_depth_ (3) ply by ply. There a game passes a position once,
// except a game whose first two moves are passes, which is back at its start at ply 2: a position
// comes back after two plies only when both moves left the board as it was (no piece goes back,
// a capture never gives back what a move changed), after four at the earliest otherwise. So
// tree_stats counts games for every position none of whose moves is a pass; a position with one
// is summed from the index, game by game, like the deeper ones (passes are rare, and such
// positions few: nothing stored needs counting again). A stone game comes to a position, or to one
// of its images, at one ply at most: the stones on the board and the stones captured (part of the
// key) grow by one a ply.
Tree GameDatabase::tree_of_keys(std::span<const TreeKey> keys, const MoveFold& fold) {
    Transaction tx(db_, TransactionKind::deferred);
    struct Acc {
        TreeMove move;
        std::int64_t latest_id = 0, latest_date = -1;
        std::map<std::uint32_t, std::int64_t> played; // the games of each move the fold made one
    };
    std::map<std::uint32_t, Acc> by_move; // by the folded move
    const auto folded = [&](std::uint32_t raw) { return fold ? fold(raw) : raw; };
    auto latest = [](Acc& a, std::int64_t date, std::int64_t id) {
        if (std::pair(date, id) > std::pair(a.latest_date, a.latest_id)) {
            a.latest_date = date;
            a.latest_id = id;
        }
    };
    Tree out;

    // The shallow plies are summed up in tree_stats.
    struct Row {
        std::uint32_t move; // as played from the position
        std::int64_t games, white_wins, black_wins, draws, latest_game, latest_date;
    };
    std::vector<Row> shallow;
    {
        Statement rows(db_,
                       "SELECT move, games, white_wins, black_wins, draws, latest_game, latest_date FROM tree_stats WHERE key = ?1");
        for (const TreeKey& k : keys) {
            rows.bind(1, std::int64_t(k.key));
            while (rows.step())
                shallow.push_back({k.back(std::uint32_t(rows.get_int64(0))), rows.get_int64(1), rows.get_int64(2), rows.get_int64(3),
                                   rows.get_int64(4), rows.get_int64(5), rows.get_int64(6)});
            rows.reset();
        }
    }
    const bool from_index = std::any_of(shallow.begin(), shallow.end(),
                                        [](const Row& r) { return is_pass(move_from_stored_raw(r.move)); });
    if (from_index) shallow.clear();
    for (const Row& r : shallow) {
        Acc& a = by_move[folded(r.move)];
        a.played[r.move] += r.games;
        a.move.games += r.games;
        a.move.white_wins += r.white_wins;
        a.move.black_wins += r.black_wins;
        a.move.draws += r.draws;
        latest(a, r.latest_date, r.latest_game);
        out.games += r.games;
    }

    // The other occurrences come from the position index and the games themselves, game by game
    // (the entries sorted by game, then ply), each entry with the key it was found under.
    struct Found {
        IndexEntry entry;
        const TreeKey* key;
    };
    std::vector<Found> entries;
    {
        std::vector<IndexEntry> of_key;
        for (const TreeKey& k : keys) {
            of_key.clear();
            index_->lookup(k.key, of_key, from_index ? 0 : std::uint32_t(tree_depth_));
            for (const IndexEntry& e : of_key) entries.push_back({e, &k});
        }
        if (keys.size() > 1)
            std::stable_sort(entries.begin(), entries.end(), [](const Found& a, const Found& b) {
                return std::pair(a.entry.game, a.entry.ply) < std::pair(b.entry.game, b.entry.ply);
            });
    }
    const auto key_of = [&](std::uint64_t key) -> const TreeKey* {
        for (const TreeKey& k : keys)
            if (k.key == key) return &k;
        return nullptr;
    };
    Statement game(db_, "SELECT result, date_key, moves, kind, start_position FROM games WHERE id = ?1");
    std::vector<Move> moves; // the game at hand's, up to its last visit of the position
    std::vector<std::uint32_t> counted; // the moves it is counted for already, as played from the position
    for (std::size_t i = 0; i < entries.size();) {
        const std::int64_t id = entries[i].entry.game;
        std::size_t end = i;
        while (end < entries.size() && entries[end].entry.game == id) ++end;
        const ResetAtExit done(game);
        game.bind(1, id);
        if (game.step()) {
            moves.clear();
            MoveDecoder decoder(game.get_blob(2));
            for (Move m; moves.size() <= entries[end - 1].entry.ply && decoder.next(m);) moves.push_back(m);
            counted.clear();
            // A game that reached the position in the shallow plies too is in tree_stats already:
            // with the moves it played from there then, and in the position's games.
            if (!shallow.empty()) {
                const std::size_t plies = std::min(moves.size(), std::size_t(tree_depth_));
                const std::vector<std::uint64_t> played = position_keys(
                    stored_start(GameKind(game.get_int(3)), game.get_text(4)), std::span(moves.data(), plies));
                for (std::size_t ply = 0; ply < plies; ++ply)
                    if (const TreeKey* k = key_of(played[ply])) counted.push_back(folded(k->back(stored_raw(moves[ply]))));
            }
            const bool in_total = !counted.empty();
            const auto result = ResultCode(game.get_int(0));
            bool played = false;
            for (std::size_t k = i; k < end; ++k) {
                if (entries[k].entry.ply >= moves.size()) continue; // the game ended there
                const std::uint32_t raw = entries[k].key->back(stored_raw(moves[entries[k].entry.ply]));
                if (std::find(counted.begin(), counted.end(), folded(raw)) != counted.end()) continue;
                counted.push_back(folded(raw));
                played = true;
                Acc& a = by_move[folded(raw)];
                ++a.played[raw];
                ++a.move.games;
                a.move.white_wins += result == ResultCode::white_wins;
                a.move.black_wins += result == ResultCode::black_wins;
                a.move.draws += result == ResultCode::draw;
                latest(a, game.get_int64(1), id);
            }
            out.games += played && !in_total;
        }
        i = end;
    }

    // Point order, not the stored order: a 20x20 board's 20th rank and file are stored last.
    const auto before = [](std::uint32_t a, std::uint32_t b) {
        const Move ma = move_from_stored_raw(a), mb = move_from_stored_raw(b);
        if (ma.type() == MoveType::placement && mb.type() == MoveType::placement) return ma.point() < mb.point();
        return a < b;
    };
    for (auto& [raw, a] : by_move) {
        std::uint32_t shown = raw;
        std::int64_t most = -1;
        for (const auto& [member, games] : a.played)
            if (games > most || (games == most && before(member, shown))) shown = member, most = games;
        a.move.move = move_from_stored_raw(shown);
        a.move.latest = summary(a.latest_id);
        out.moves.push_back(std::move(a.move));
    }
    std::stable_sort(out.moves.begin(), out.moves.end(), [](const TreeMove& a, const TreeMove& b) { return a.games > b.games; });
    tx.commit();
    return out;
}

std::optional<StoredGame> GameDatabase::game(std::int64_t id) {
    Transaction tx(db_, TransactionKind::deferred);
    Statement& st =
        cached(std::string("SELECT ") + summary_columns + ", g.start_position, g.moves, s.path, g.source_line, g.annotated" +
               summary_from + " LEFT JOIN sources s ON s.id = g.source_id WHERE g.id = ?1");
    std::optional<ResetAtExit> done(st);
    st.bind(1, id);
    if (!st.step()) { return std::nullopt; }
    StoredGame out;
    out.summary = read_summary(st);
    const std::string start_text = st.get_string(11);
    out.start = stored_start(out.summary.kind, start_text);
    out.standard_start = out.summary.kind == GameKind::gounki
        ? start_text.empty()
        : out.start.as_stones() == stones::StonePosition(out.start.as_stones().rules());
    auto moves = decode_moves(st.get_blob(12));
    out.source_file = st.get_string(13);
    out.source_line = st.get_int(14);
    out.annotated = st.get_string(15);
    done.reset(); // the row's texts are copied: the statement may go
    if (!moves) throw DbError(0, "the database is damaged: the moves of game " + std::to_string(id) + " do not decode");
    out.moves = std::move(*moves);

    const GameSummary& s = out.summary;
    out.tags.emplace_back("Game", std::string(game_kind_name(s.kind)));
    auto tag = [&](const char* name, const std::string& value) {
        if (!value.empty()) out.tags.emplace_back(name, value);
    };
    tag("Event", s.event);
    tag("Site", s.site);
    tag("Date", s.date);
    tag("Round", s.round);
    tag("White", s.white);
    tag("Black", s.black);
    out.tags.emplace_back("Result", std::string(result_text(s.result)));
    if (!out.standard_start) {
        out.tags.emplace_back("SetUp", "1");
        out.tags.emplace_back("Position", start_text);
    }
    std::vector<std::pair<std::string, std::string>> stored;
    {
        Statement& tags = cached("SELECT name, value FROM tags WHERE game_id = ?1 ORDER BY seq");
        const ResetAtExit tags_done(tags);
        tags.bind(1, id);
        while (tags.step()) stored.emplace_back(tags.get_string(0), tags.get_string(1));
    }
    if (out.summary.kind != GameKind::gounki) {
        // A stone game's Size and Rules: as imported, else from the start (which always names them).
        const auto has = [&](std::string_view name) {
            return std::any_of(stored.begin(), stored.end(), [&](const auto& t) { return t.first == name; });
        };
        const stones::Rules& rules = out.start.as_stones().rules();
        if (!has("Size") && rules.size != stones::Rules::defaults(rules.kind).size)
            out.tags.emplace_back("Size", std::to_string(rules.size));
        if (std::string r = stones::rules_tag_text(rules); !has("Rules") && !r.empty())
            out.tags.emplace_back("Rules", std::move(r));
    }
    for (auto& t : stored) out.tags.push_back(std::move(t));
    {
        Statement& diags = cached("SELECT severity, code, line, col, message FROM diagnostics WHERE game_id = ?1 ORDER BY seq");
        const ResetAtExit diags_done(diags);
        diags.bind(1, id);
        while (diags.step())
            out.diagnostics.push_back(
                {Severity(diags.get_int(0)), diags.get_string(1), diags.get_int(2), diags.get_int(3), diags.get_string(4)});
    }
    tx.commit();
    return out;
}

void GameDatabase::for_each_game(const GameFilter& filter, const std::function<bool(const StoredGame&)>& f) {
    Transaction tx(db_, TransactionKind::deferred);
    for (std::int64_t id : filtered_ids(filter)) {
        auto g = game(id);
        if (g && !f(*g)) break;
    }
    tx.commit();
}

} // namespace gounki::db
