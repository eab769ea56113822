#include "db/import.hpp"

#include <algorithm>
#include <array>
#include <chrono>
#include <filesystem>
#include <future>
#include <map>
#include <unordered_map>

#include "db/import_prepare.hpp"

namespace gounki::db {

std::string_view import_action_name(ImportAction a) {
    switch (a) {
    case ImportAction::stored: return "stored";
    case ImportAction::duplicate: return "duplicate";
    case ImportAction::already_imported: return "already imported";
    case ImportAction::rejected: return "rejected";
    }
    return "?";
}

namespace {

using namespace detail;

std::string absolute_path(const std::string& path) {
    if (path.empty() || path == "-") return path;
    std::error_code ec;
    auto p = std::filesystem::weakly_canonical(std::filesystem::absolute(path, ec), ec);
    return ec ? path : p.string();
}

} // namespace

// Games shorter than this are found by final position through the partial index games_short_end
// (db/game_db.cpp, migration 4); longer ones through the position index.
constexpr std::uint32_t short_game_plies = 8;

struct Importer::Impl {
    Impl(GameDatabase& g, ImportOptions o, std::function<void(const ImportReport&)> cb)
        : gdb(g), db(g.sql()), opt(o), on_report(std::move(cb)),
          same_end(db,
                   "SELECT g.id, g.source_id, g.source_line, g.moves, g.start_position, g.result, g.kind, w.name, b.name "
                   "FROM games g LEFT JOIN players w ON w.id = g.white_id LEFT JOIN players b ON b.id = g.black_id "
                   "WHERE g.id = ?1 AND g.ply_count = ?2"),
          // The bound ply count alone does not let SQLite use the partial index: the literal does.
          short_end(db,
                    "SELECT id FROM games WHERE end_key = ?1 AND ply_count = ?2 AND ply_count < " +
                        std::to_string(short_game_plies)),
          find_player(db, "SELECT id FROM players WHERE name = ?1"), insert_player(db, "INSERT INTO players (name) VALUES (?1)"),
          find_event(db, "SELECT id FROM events WHERE name = ?1"), insert_event(db, "INSERT INTO events (name) VALUES (?1)"),
          find_source(db, "SELECT id FROM sources WHERE path = ?1"), insert_source(db, "INSERT INTO sources (path) VALUES (?1)"),
          insert_game(db,
                      "INSERT INTO games (kind, event_id, site, date, date_key, round, white_id, black_id, result, "
                      "start_position, ply_count, status, moves, source_id, source_line, end_key, id, annotated) "
                      "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18)"),
          insert_tag(db, "INSERT INTO tags (game_id, seq, name, value) VALUES (?1, ?2, ?3, ?4)"),
          insert_diag(
              db,
              "INSERT INTO diagnostics (game_id, seq, severity, code, line, col, message) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)"),
          insert_note(db,
                      "INSERT INTO diagnostics (game_id, seq, severity, code, message) VALUES "
                      "(?1, (SELECT coalesce(max(seq) + 1, 0) FROM diagnostics WHERE game_id = ?1), 0, 'prefix', ?2)"),
          find_end(db, "SELECT id, moves, start_position, kind FROM games WHERE id = ?1 AND ply_count = ?2"),
          game_moves(db, "SELECT moves, start_position, kind, ply_count FROM games WHERE id = ?1"),
          all_end_keys(db, "SELECT end_key FROM games"), new_end_keys(db, "SELECT end_key FROM games WHERE id > ?1"),
          max_id(db, "SELECT coalesce(max(id), 0) FROM games"),
          tree_upsert(db,
                      "INSERT INTO tree_stats (key, move, games, white_wins, black_wins, draws, latest_game, latest_date) "
                      "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8) ON CONFLICT (key, move) DO UPDATE SET "
                      "games = games + excluded.games, white_wins = white_wins + excluded.white_wins, "
                      "black_wins = black_wins + excluded.black_wins, draws = draws + excluded.draws, "
                      "latest_game = CASE WHEN (excluded.latest_date, excluded.latest_game) > (latest_date, latest_game) "
                      "THEN excluded.latest_game ELSE latest_game END, "
                      "latest_date = CASE WHEN (excluded.latest_date, excluded.latest_game) > (latest_date, latest_game) "
                      "THEN excluded.latest_date ELSE latest_date END"),
          next_id(
              db,
              "SELECT max((SELECT value FROM meta WHERE name = 'next_game_id'), (SELECT coalesce(max(id), 0) + 1 FROM games))"),
          set_next_id(db, "UPDATE meta SET value = ?1 WHERE name = 'next_game_id'") {}

    void submit(ImportStats& stats);
    void write(PreparedBatch& batch, ImportStats& stats);
    std::int64_t name_id(Statement& find, Statement& insert, std::unordered_map<std::string, std::int64_t>& cache,
                         const std::string& name);
    void load_end_keys();
    void add_end_keys(std::vector<std::uint64_t>& keys);
    void match_end_keys(PreparedBatch& b);
    void games_ending(std::uint64_t key, std::uint32_t plies, std::vector<std::int64_t>& ids);
    void check_duplicate(Prepared& p, std::int64_t source_id);
    void store(Prepared& p, std::int64_t source_id);
    void flag_prefixes(Prepared& p, std::span<Prepared> batch);
    // The steps of write(), in order.
    void decide_lookup_indexes();
    void mark_prefix_candidates(std::vector<Prepared>& batch);
    void store_games(std::vector<Prepared>& batch);
    void add_index_run(const PreparedBatch& prepared);
    void add_tree_counts(const std::vector<Prepared>& batch);
    void tally(std::vector<Prepared>& batch, ImportStats& stats);
    void note(std::int64_t game, const std::string& text);

    GameDatabase& gdb;
    Database& db;
    ImportOptions opt;
    std::function<void(const ImportReport&)> on_report;
    std::vector<GameInput> queue;
    std::future<PreparedBatch> pending; // the batch being prepared on another thread
    Statement same_end, short_end, find_player, insert_player, find_event, insert_event, find_source, insert_source;
    Statement insert_game, insert_tag, insert_diag, insert_note, find_end, game_moves;
    Statement all_end_keys, new_end_keys, max_id, tree_upsert, next_id, set_next_id;
    std::int64_t id_counter = 0; // the id the next stored game of this batch gets
    std::unordered_map<std::string, std::int64_t> players, events, sources;
    std::unordered_map<std::string, std::string> absolute_paths;
    std::vector<std::uint64_t> end_keys; // final positions of the stored games, in key_less order
    bool end_keys_loaded = false;
    bool has_empty_in_batch = false; // an empty game was stored in this batch already
    std::int64_t last_seen_id = 0;
    bool lookup_decided = false; // whether to defer the lookup indexes (expected_games)
    bool lookup_dropped = false; // they were dropped: finish() builds them again
    std::vector<IndexEntry> found; // scratch
    std::vector<std::int64_t> ending; // scratch: games_ending's answer
    // This batch's stored games of at least short_game_plies plies by final position: they are in
    // no run of the position index until the batch's run is added.
    std::unordered_multimap<std::uint64_t, std::int64_t> batch_ends;
};

void Importer::Impl::games_ending(std::uint64_t key, std::uint32_t plies, std::vector<std::int64_t>& ids) {
    // The stored games whose final position is `key` at ply `plies`, in id order. A game's final
    // position is in the position index at its last ply; the rows are checked for that ply count.
    ids.clear();
    if (plies < short_game_plies) {
        const ResetAtExit done(short_end);
        short_end.bind(1, std::int64_t(key)).bind(2, std::int64_t(plies));
        while (short_end.step()) ids.push_back(short_end.get_int64(0));
        return;
    }
    found.clear();
    gdb.index().lookup_filtered(key, found);
    for (const IndexEntry& e : found)
        if (e.ply == plies) ids.push_back(e.game);
    const auto [from, to] = batch_ends.equal_range(key);
    for (auto it = from; it != to; ++it) ids.push_back(it->second);
    std::sort(ids.begin(), ids.end());
    ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
}

std::int64_t Importer::Impl::name_id(Statement& find, Statement& insert, std::unordered_map<std::string, std::int64_t>& cache,
                                     const std::string& name) {
    if (auto it = cache.find(name); it != cache.end()) return it->second;
    std::int64_t id = 0;
    {
        const ResetAtExit done(find);
        find.bind(1, name);
        if (find.step()) id = find.get_int64(0);
    }
    if (!id) {
        insert.bind(1, name);
        insert.run();
        id = db.last_insert_rowid();
    }
    cache.emplace(name, id);
    return id;
}

void Importer::Impl::load_end_keys() {
    // Inside the write transaction: the keys and the id they reach are one consistent snapshot.
    std::vector<std::uint64_t> added;
    {
        Statement& st = end_keys_loaded ? new_end_keys : all_end_keys;
        const ResetAtExit done(st);
        if (end_keys_loaded) st.bind(1, last_seen_id); // games other importers stored since our last batch
        while (st.step()) added.push_back(std::uint64_t(st.get_int64(0)));
    }
    end_keys_loaded = true;
    add_end_keys(added);
    const ResetAtExit done(max_id);
    max_id.step();
    last_seen_id = max_id.get_int64(0);
}

void Importer::Impl::add_end_keys(std::vector<std::uint64_t>& keys) {
    std::sort(keys.begin(), keys.end(), key_less);
    const std::size_t old = end_keys.size();
    end_keys.insert(end_keys.end(), keys.begin(), keys.end());
    std::inplace_merge(end_keys.begin(), end_keys.begin() + std::ptrdiff_t(old), end_keys.end(), key_less);
}

// Walks the batch's sorted entries and the sorted final positions of the stored games side by side:
// the plies at which a game stands where a stored game ended, without a lookup per position.
void Importer::Impl::match_end_keys(PreparedBatch& b) {
    std::size_t j = 0;
    for (const BatchEntry& e : b.entries) {
        while (j < end_keys.size() && key_less(end_keys[j], e.key)) ++j;
        if (j == end_keys.size()) break;
        if (end_keys[j] == e.key && e.ply > 0) b.games[e.game].stored_end_plies.push_back(e.ply);
    }
    for (Prepared& p : b.games) std::sort(p.stored_end_plies.begin(), p.stored_end_plies.end());
}

void Importer::Impl::check_duplicate(Prepared& p, std::int64_t source_id) {
    // A duplicate ends on the same position at the same ply; then compare what the rule names.
    const std::uint32_t n = std::uint32_t(p.in.moves.size());
    const bool stored_end = std::binary_search(p.stored_end_plies.begin(), p.stored_end_plies.end(), n) ||
        (n == 0 && std::binary_search(end_keys.begin(), end_keys.end(), p.keys[0], key_less));
    if (!stored_end && p.longer_in_batch.empty() && (n > 0 || !has_empty_in_batch)) return;
    std::int64_t dup = 0, same_record = 0;
    games_ending(p.keys.back(), n, ending);
    for (std::int64_t other : ending) {
        const ResetAtExit done(same_end);
        same_end.bind(1, other).bind(2, std::int64_t(n));
        const bool same = same_end.step() && same_end.get_blob(3).size() == p.moves_blob.size() &&
            blob_starts_with(same_end.get_blob(3), p.moves_blob) && same_end.get_text(4) == p.start_text &&
            same_end.get_int64(5) == std::int64_t(p.in.result) && same_end.get_int64(6) == std::int64_t(p.in.kind) &&
            same_end.get_text(7) == p.white && same_end.get_text(8) == p.black;
        if (same) {
            if (!dup) dup = other;
            if (source_id && same_end.get_int64(1) == source_id && same_end.get_int64(2) == p.in.source_line) same_record = other;
        }
    }
    if (same_record) {
        p.skip = true;
        p.report.action = ImportAction::already_imported;
        p.report.other_id = same_record;
    } else if (dup && !opt.keep_duplicates) {
        p.skip = true;
        p.report.action = ImportAction::duplicate;
        p.report.other_id = dup;
    } else if (dup) {
        p.report.other_id = dup; // stored anyway, still reported
    }
}

void Importer::Impl::store(Prepared& p, std::int64_t source_id) {
    GameInput& g = p.in;
    insert_game.bind(1, std::int64_t(g.kind));
    if (!p.event.empty()) insert_game.bind(2, name_id(find_event, insert_event, events, p.event));
    // The texts and the moves live in `p` until the reset below: bound without copies.
    insert_game.bind_static_text_or_null(3, p.site)
        .bind_static_text_or_null(4, p.date)
        .bind(5, p.date_key)
        .bind_static_text_or_null(6, p.round);
    if (!p.white.empty()) insert_game.bind(7, name_id(find_player, insert_player, players, p.white));
    if (!p.black.empty()) insert_game.bind(8, name_id(find_player, insert_player, players, p.black));
    insert_game.bind(9, std::int64_t(g.result)).bind_text_or_null(10, p.start_text).bind(11, std::int64_t(g.moves.size()));
    insert_game.bind(12, std::int64_t(g.status)).bind_static_blob(13, p.moves_blob);
    insert_game.bind_static_text_or_null(18, g.annotated);
    if (source_id) insert_game.bind(14, source_id).bind(15, g.source_line);
    insert_game.bind(16, std::int64_t(p.keys.back())).bind(17, id_counter);
    insert_game.run();
    const std::int64_t id = id_counter++;
    p.report.game_id = id;
    int seq = 0;
    for (const auto& [name, value] : p.other_tags) {
        insert_tag.bind(1, id).bind(2, seq++).bind(3, name).bind(4, value);
        insert_tag.run();
    }
    seq = 0;
    for (const Diagnostic& d : g.diagnostics) {
        insert_diag.bind(1, id)
            .bind(2, seq++)
            .bind(3, std::int64_t(d.severity))
            .bind(4, d.code)
            .bind(5, d.line)
            .bind(6, d.column)
            .bind(7, d.message);
        insert_diag.run();
    }
}

void Importer::Impl::note(std::int64_t game, const std::string& text) {
    insert_note.bind(1, game).bind(2, text);
    insert_note.run();
}

void Importer::Impl::flag_prefixes(Prepared& p, std::span<Prepared> batch) {
    const std::size_t n = p.in.moves.size();
    if (n == 0) return; // an empty game is a prefix of everything: not worth a flag
    constexpr std::size_t max_flags = 10;
    const std::int64_t id = p.report.game_id;

    // Stored games that are prefixes of this one (or hold the same moves): their final position is
    // one of ours, at the same ply, found by match_end_keys or, in this batch, while preparing.
    const auto add = [&](std::int64_t other, bool same_length) {
        // A game of this batch can turn up twice: by the query (it is stored already) and in-batch.
        auto& list = same_length ? p.report.same_moves : p.report.has_prefix;
        if (list.size() < max_flags && std::find(list.begin(), list.end(), other) == list.end()) list.push_back(other);
    };
    for (std::uint32_t ply : p.stored_end_plies) {
        games_ending(p.keys[ply], ply, ending);
        for (std::int64_t other : ending) {
            if (other == id || other == p.report.other_id) continue;
            const ResetAtExit done(find_end);
            find_end.bind(1, other).bind(2, std::int64_t(ply));
            if (find_end.step() && find_end.get_text(2) == p.start_text && find_end.get_int64(3) == std::int64_t(p.in.kind) &&
                blob_starts_with(p.moves_blob, find_end.get_blob(1)))
                add(other, ply == n);
        }
    }
    for (std::uint32_t i : p.shorter_in_batch) {
        const Prepared& other = batch[i];
        if (other.skip || other.report.game_id == p.report.other_id) continue;
        if (other.start_text == p.start_text && other.in.kind == p.in.kind && blob_starts_with(p.moves_blob, other.moves_blob))
            add(other.report.game_id, other.in.moves.size() == n);
    }

    // Stored games of which this one is a proper prefix: they reach our final position at our
    // last ply. The runs' Bloom filters rule out almost every lookup.
    if (!p.can_go_on) return; // a won game cannot go on
    std::vector<std::int64_t> candidates;
    if (p.index_maybe) {
        found.clear();
        gdb.index().lookup_filtered(p.keys[n], found);
        for (const IndexEntry& e : found)
            if (e.ply == n && e.game != id) candidates.push_back(e.game);
    }
    // Games of this batch stored before this one are not in a run yet.
    for (std::uint32_t other : p.longer_in_batch)
        if (!batch[other].skip) candidates.push_back(batch[other].report.game_id);
    std::sort(candidates.begin(), candidates.end());
    candidates.erase(std::unique(candidates.begin(), candidates.end()), candidates.end());
    for (std::int64_t other : candidates) {
        if (p.report.prefix_of.size() >= max_flags) break;
        const ResetAtExit done(game_moves);
        game_moves.bind(1, other);
        if (game_moves.step() && game_moves.get_int64(3) > std::int64_t(n) && game_moves.get_text(1) == p.start_text &&
            game_moves.get_int64(2) == std::int64_t(p.in.kind) && blob_starts_with(game_moves.get_blob(0), p.moves_blob))
            p.report.prefix_of.push_back(other);
    }
}

// A batch of prepared games in one write transaction: the games, the position index run, the
// tree counts and the id counter, all or nothing.
void Importer::Impl::write(PreparedBatch& prepared, ImportStats& stats) {
    std::vector<Prepared>& batch = prepared.games;
    if (batch.empty()) return;
    for (Prepared& p : batch)
        if (!p.in.source_file.empty() && !absolute_paths.count(p.in.source_file))
            absolute_paths.emplace(p.in.source_file, absolute_path(p.in.source_file));

    auto lap = Clock::now();
    auto add_lap = [&lap](double& total) {
        const auto now = Clock::now();
        total += std::chrono::duration<double>(now - lap).count();
        lap = now;
    };
    stats.prepare_s += prepared.seconds;
    Transaction tx(db, TransactionKind::immediate);
    decide_lookup_indexes();
    {
        const ResetAtExit done(next_id);
        next_id.step();
        id_counter = next_id.get_int64(0);
    }
    load_end_keys();
    match_end_keys(prepared);
    gdb.index().refresh_filters(); // games_ending and the prefix checks look runs up
    batch_ends.clear();
    mark_prefix_candidates(batch);
    store_games(batch);
    // Our own games are in the set now; the next batch reads only the games of other importers
    // (they cannot write while this transaction holds the lock, so none comes between).
    last_seen_id = std::max(last_seen_id, id_counter - 1);
    add_lap(stats.games_s);
    add_index_run(prepared);
    add_lap(stats.index_s);
    set_next_id.bind(1, id_counter);
    set_next_id.run();
    add_tree_counts(batch);
    add_lap(stats.tree_s);
    tx.commit();
    add_lap(stats.commit_s);
    ++stats.batches;
    tally(batch, stats);
}

// A large import into a small database drops the lookup indexes (rebuilt at the end, or by the
// next read-write open after a crash); decided once, in the first batch's transaction.
void Importer::Impl::decide_lookup_indexes() {
    if (lookup_decided) return;
    lookup_decided = true;
    std::int64_t stored = 0;
    {
        Statement count(db, "SELECT count(*) FROM games");
        if (count.step()) stored = count.get_int64(0);
    }
    if (opt.expected_games >= std::max<std::int64_t>(stored, 1000)) {
        gdb.drop_lookup_indexes(); // with this batch: rolled back with it
        lookup_dropped = true;
    }
}

// Which unfinished games may be a prefix of a stored one: their final positions against the
// runs' Bloom filters, all at once in key order.
void Importer::Impl::mark_prefix_candidates(std::vector<Prepared>& batch) {
    std::vector<std::pair<std::uint64_t, std::uint32_t>> finals;
    for (std::size_t i = 0; i < batch.size(); ++i)
        if (!batch[i].skip && batch[i].can_go_on && !batch[i].in.moves.empty())
            finals.emplace_back(batch[i].keys.back(), std::uint32_t(i));
    if (finals.empty()) return;
    std::sort(finals.begin(), finals.end(), [](const auto& a, const auto& b) { return key_less(a.first, b.first); });
    std::vector<std::uint64_t> keys;
    keys.reserve(finals.size());
    for (const auto& f : finals) keys.push_back(f.first);
    const std::vector<bool> maybe = gdb.index().may_contain(keys);
    for (std::size_t k = 0; k < finals.size(); ++k) batch[finals[k].second].index_maybe = maybe[k];
}

// Every game not skipped: checked for duplicates, stored, flagged against prefixes both ways.
void Importer::Impl::store_games(std::vector<Prepared>& batch) {
    std::vector<std::uint64_t> batch_end_keys;
    has_empty_in_batch = false;
    for (Prepared& p : batch) {
        if (p.skip) continue;
        std::int64_t source_id = 0;
        if (!p.in.source_file.empty()) source_id = name_id(find_source, insert_source, sources, absolute_paths[p.in.source_file]);
        check_duplicate(p, source_id);
        if (p.skip) continue;
        store(p, source_id);
        if (p.in.moves.size() >= short_game_plies) batch_ends.emplace(p.keys.back(), p.report.game_id);
        has_empty_in_batch |= p.in.moves.empty();
        flag_prefixes(p, batch);
        const std::int64_t id = p.report.game_id;
        for (std::int64_t other : p.report.prefix_of) {
            note(id, "its moves are a prefix of game " + std::to_string(other) + "'s");
            note(other, "game " + std::to_string(id) + "'s moves are a prefix of its moves");
        }
        for (std::int64_t other : p.report.has_prefix) {
            note(id, "game " + std::to_string(other) + "'s moves are a prefix of its moves");
            note(other, "its moves are a prefix of game " + std::to_string(id) + "'s");
        }
        for (std::int64_t other : p.report.same_moves) {
            note(id, "game " + std::to_string(other) + " has the same moves");
            note(other, "game " + std::to_string(id) + " has the same moves");
        }
        batch_end_keys.push_back(p.keys.back());
    }
    add_end_keys(batch_end_keys);
}

// The batch's run of the position index: ids grow with the batch index, so the order holds.
void Importer::Impl::add_index_run(const PreparedBatch& prepared) {
    std::vector<IndexEntry> entries;
    entries.reserve(prepared.entries.size());
    for (const BatchEntry& e : prepared.entries) {
        const Prepared& p = prepared.games[e.game];
        if (!p.skip) entries.push_back({e.key, p.report.game_id, e.ply});
    }
    gdb.index().add_run(entries);
}

// Tree counts of the shallow plies, summed over the batch first: sorted, then one upsert per
// (position, move).
void Importer::Impl::add_tree_counts(const std::vector<Prepared>& batch) {
    struct Hit {
        std::uint64_t key;
        std::uint32_t move;
        ResultCode result;
        std::int64_t date, game;
    };
    std::vector<Hit> hits;
    const std::size_t depth = std::size_t(gdb.tree_depth());
    for (const Prepared& p : batch) {
        if (p.skip) continue;
        for (std::size_t ply = 0; ply < depth && ply < p.in.moves.size(); ++ply)
            hits.push_back({p.keys[ply], stored_raw(p.in.moves[ply]), p.in.result, p.date_key, p.report.game_id});
    }
    std::sort(hits.begin(), hits.end(),
              [](const Hit& a, const Hit& b) { return a.key != b.key ? a.key < b.key : a.move < b.move; });
    for (std::size_t i = 0; i < hits.size();) {
        std::int64_t games = 0, white = 0, black = 0, draws = 0, latest_game = 0, latest_date = -1;
        std::size_t j = i;
        for (; j < hits.size() && hits[j].key == hits[i].key && hits[j].move == hits[i].move; ++j) {
            const Hit& h = hits[j];
            ++games;
            white += h.result == ResultCode::white_wins;
            black += h.result == ResultCode::black_wins;
            draws += h.result == ResultCode::draw;
            if (std::pair(h.date, h.game) > std::pair(latest_date, latest_game)) {
                latest_date = h.date;
                latest_game = h.game;
            }
        }
        tree_upsert.bind(1, std::int64_t(hits[i].key))
            .bind(2, std::int64_t(hits[i].move))
            .bind(3, games)
            .bind(4, white)
            .bind(5, black)
            .bind(6, draws)
            .bind(7, latest_game)
            .bind(8, latest_date);
        tree_upsert.run();
        i = j;
    }
}

// After the commit: the counts, and each game's report to the caller.
void Importer::Impl::tally(std::vector<Prepared>& batch, ImportStats& stats) {
    for (Prepared& p : batch) {
        ImportReport& r = p.report;
        switch (r.action) {
        case ImportAction::stored:
            ++stats.stored;
            stats.broken += r.status != GameStatus::valid;
            stats.prefix_flagged += r.flagged();
            stats.duplicates += r.other_id != 0;
            break;
        case ImportAction::duplicate: ++stats.duplicates; break;
        case ImportAction::already_imported: ++stats.already_imported; break;
        case ImportAction::rejected: ++stats.rejected; break;
        }
        if (on_report) on_report(r);
    }
}

Importer::Importer(GameDatabase& db, ImportOptions options, std::function<void(const ImportReport&)> on_report)
    : impl_(std::make_unique<Impl>(db, options, std::move(on_report))) {
    if (db.sql().read_only()) throw DbError(8, "the database '" + db.sql().path() + "' is read-only");
    // Checkpoint every 64 MB of log rather than every 4 MB: a batch writes ~20 MB, and the pages
    // every batch touches (index interiors, tree counts) are then copied back once, not each time.
    db.sql().exec("PRAGMA wal_autocheckpoint = 16384");
}

Importer::~Importer() {
    // A batch still being prepared must finish before its inputs go; it is not written.
    if (impl_->pending.valid()) impl_->pending.wait();
    if (impl_->lookup_dropped) { // unwinding: the next read-write open builds them otherwise
        try {
            impl_->gdb.create_lookup_indexes();
        } catch (const std::exception&) {}
    }
}

// The batch in `queue` is prepared on another thread while the one prepared before is written.
void Importer::Impl::submit(ImportStats& stats) {
    std::future<PreparedBatch> next;
    if (!queue.empty()) next = std::async(std::launch::async, prepare_batch, std::move(queue), opt);
    queue = {};
    if (!pending.valid()) {
        pending = std::move(next);
        return;
    }
    auto start = Clock::now();
    PreparedBatch b = pending.get();
    stats.wait_s += seconds_since(start);
    pending = std::move(next);
    write(b, stats);
    start = Clock::now();
    if (opt.compact) stats.merges += gdb.index().compact();
    stats.merge_s += seconds_since(start);
}

void Importer::add(GameInput game) {
    ++stats_.added;
    impl_->queue.push_back(std::move(game));
    if (impl_->queue.size() >= impl_->opt.batch_games) impl_->submit(stats_);
}

void Importer::finish() {
    impl_->submit(stats_); // the last batch goes to preparation, the one before is written
    impl_->submit(stats_); // the last batch is written
    if (impl_->lookup_dropped) {
        const auto start = Clock::now();
        impl_->gdb.create_lookup_indexes();
        impl_->lookup_dropped = false;
        stats_.lookup_indexes_s += seconds_since(start);
    }
}

} // namespace gounki::db
