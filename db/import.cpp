#include "db/import.hpp"

#include <algorithm>
#include <array>
#include <chrono>
#include <filesystem>
#include <future>
#include <map>
#include <unordered_map>

#include "db/import_impl.hpp"

namespace gounki::db {

std::string_view import_action_name(ImportAction a) {
    switch (a) {
    case ImportAction::stored: return "stored";
    case ImportAction::duplicate: return "duplicate";
    case ImportAction::already_imported: return "already imported";
    case ImportAction::rejected: return "rejected";
    case ImportAction::replaced: return "replaced";
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

void Importer::Impl::store(Prepared& p, std::int64_t source_id, std::int64_t replacing) {
    GameInput& g = p.in;
    // The names first: their lookups are statements of their own, not part of the row.
    const std::int64_t event = p.event.empty() ? 0 : name_id(find_event, insert_event, events, p.event);
    const std::int64_t white = p.white.empty() ? 0 : name_id(find_player, insert_player, players, p.white);
    const std::int64_t black = p.black.empty() ? 0 : name_id(find_player, insert_player, players, p.black);
    const std::int64_t id = replacing ? replacing : id_counter++;
    // The texts and the moves live in `p` until end_row() has read them.
    games_out.add(std::int64_t(g.kind)).add_id_or_null(event).add_text_or_null(p.site).add_text_or_null(p.date);
    games_out.add(p.date_key).add_text_or_null(p.round).add_id_or_null(white).add_id_or_null(black);
    games_out.add(std::int64_t(g.result)).add_text_or_null(p.start_text).add(std::int64_t(g.moves.size()));
    games_out.add(std::int64_t(g.status)).add_blob(p.moves_blob);
    if (source_id) games_out.add(source_id).add(std::int64_t(g.source_line));
    else games_out.add_null().add_null();
    games_out.add(std::int64_t(p.keys.back())).add(id).add_text_or_null(g.annotated);
    games_out.end_row();
    p.report.game_id = id;
    int seq = 0;
    for (const auto& [name, value] : p.other_tags) tags_out.add(id).add(seq++).add(name).add(value).end_row();
    seq = 0;
    for (const Diagnostic& d : g.diagnostics)
        diagnostics_out.add(id)
            .add(seq++)
            .add(std::int64_t(d.severity))
            .add(d.code)
            .add(std::int64_t(d.line))
            .add(std::int64_t(d.column))
            .add(d.message)
            .end_row();
}

void Importer::Impl::note(std::int64_t game, const std::string& text) {
    insert_note.bind(1, game).bind(2, text);
    insert_note.run();
}

void Importer::Impl::note_on_older(std::int64_t game, NoteKind kind, const std::string& text) {
    auto [at, added] = notes_on.try_emplace(game);
    if (added) { // its notes so far, counted once an import
        const ResetAtExit done(count_notes);
        count_notes.bind(1, game);
        if (count_notes.step())
            for (int k = 0; k < 3; ++k) at->second[std::size_t(k)] = count_notes.get_int64(k);
    }
    std::int64_t& count = at->second[std::size_t(kind)];
    if (count >= max_other_notes) return;
    ++count;
    note(game, text);
}

// A batch of prepared games in one write transaction: the games, the position index run, the
// tree counts and the id counter, all or nothing.
void Importer::Impl::write(PreparedBatch& prepared, ImportStats& stats) {
    std::vector<Prepared>& batch = prepared.games;
    if (batch.empty()) return;
    for (Prepared& p : batch)
        if (!p.in.source_file.empty() && !absolute_paths.count(p.in.source_file))
            absolute_paths.emplace(p.in.source_file, opt.names_are_labels ? p.in.source_file : absolute_path(p.in.source_file));

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
    passing.clear();
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
    // Replacing looks games up by player: it keeps the indexes.
    if (!opt.replace && opt.expected_games >= std::max<std::int64_t>(stored, 1000)) {
        gdb.drop_lookup_indexes(); // with this batch: rolled back with it
        lookup_dropped = true;
    }
}

// Every game not skipped: checked for duplicates, stored, flagged against prefixes both ways.
void Importer::Impl::store_games(std::vector<Prepared>& batch) {
    std::vector<std::uint64_t> batch_end_keys;
    has_empty_in_batch = false;
    if (!first_import_id) first_import_id = id_counter;
    for (Prepared& p : batch) {
        if (p.skip) continue;
        std::int64_t source_id = 0;
        if (!p.in.source_file.empty()) source_id = name_id(find_source, insert_source, sources, absolute_paths[p.in.source_file]);
        const std::int64_t replacing = opt.replace ? find_replaced(p, source_id) : 0;
        if (p.skip) continue;
        if (replacing) {
            gdb.delete_game(replacing); // joins this transaction; its judgements go with it
            notes_on.erase(replacing); // its notes went with it
            p.report.action = ImportAction::replaced;
            replaced_in_batch = true;
        } else {
            check_duplicate(p, source_id, batch);
            if (p.skip) continue;
        }
        store(p, source_id, replacing);
        add_to_end_group(p, source_id);
        if (p.in.moves.size() >= short_game_plies) batch_ends.emplace(p.keys.back(), p.report.game_id);
        has_empty_in_batch |= p.in.moves.empty();
        flag_prefixes(p, batch);
        const std::int64_t id = p.report.game_id;
        for (std::int64_t other : p.report.prefix_of) {
            note(id, GameDatabase::note_is_prefix_of(other));
            note_on_older(other, NoteKind::has_prefix, GameDatabase::note_has_prefix(id));
        }
        for (std::int64_t other : p.report.has_prefix) {
            note(id, GameDatabase::note_has_prefix(other));
            note_on_older(other, NoteKind::is_prefix_of, GameDatabase::note_is_prefix_of(id));
        }
        for (std::int64_t other : p.report.same_moves) {
            note(id, GameDatabase::note_same_moves(other));
            note_on_older(other, NoteKind::same_moves, GameDatabase::note_same_moves(id));
        }
        batch_end_keys.push_back(p.keys.back());
    }
    add_end_keys(batch_end_keys);
}

// The batch's run of the position index: ids grow with the batch index, so the order holds, unless
// a game replaced an older one and took its id.
void Importer::Impl::add_index_run(const PreparedBatch& prepared) {
    std::vector<IndexEntry> entries;
    entries.reserve(prepared.entries.size());
    for (const BatchEntry& e : prepared.entries) {
        const Prepared& p = prepared.games[e.game];
        if (!p.skip) entries.push_back({e.key, p.report.game_id, e.ply});
    }
    if (replaced_in_batch) std::sort(entries.begin(), entries.end());
    replaced_in_batch = false;
    if (entries.empty()) return;
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
        tree_out.add(std::int64_t(hits[i].key))
            .add(std::int64_t(hits[i].move))
            .add(games)
            .add(white)
            .add(black)
            .add(draws)
            .add(latest_game)
            .add(latest_date)
            .end_row();
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
        case ImportAction::replaced:
            ++stats.replaced;
            stats.prefix_flagged += r.flagged();
            break;
        }
        if (on_report) on_report(r);
    }
}

Importer::Importer(GameDatabase& db, ImportOptions options, std::function<void(const ImportReport&)> on_report)
    : impl_(std::make_unique<Impl>(db, options, std::move(on_report))) {
    if (db.sql().read_only()) throw DbError(8, "the database '" + db.sql().path() + "' is read-only");
    // Checkpoint every 64 MB of log rather than every 4 MB: a batch writes ~20 MB, and the pages
    // every batch touches (index interiors, tree counts) are then copied back once, not each time.
    db.sql().tune("PRAGMA wal_autocheckpoint = 16384");
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
