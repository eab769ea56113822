// Deleting stored games, one or a million, in one write transaction that keeps the position index,
// the opening tree counts, the judgements and the import notes in step (editing tags: edit.cpp).
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
