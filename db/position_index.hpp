#pragma once
// The position index of schema.sql: entries (key, game, ply) in sorted runs of compressed blocks.
//
// Why not one SQL row per position: a 40-ply game has 41 positions, and SQLite inserts rows at
// about half a million a second on our machines, so a row per position caps an import at about
// 10,000 games/s and costs 20 bytes a row before B-tree slack. Runs of varint blocks are written
// sequentially (one row per ~90 entries) and take ~10 bytes an entry; a lookup seeks each run, and
// runs are merged when too many of one size pile up, so there are few of them.

#include <cstdint>
#include <span>
#include <unordered_map>
#include <vector>

#include "db/codec.hpp"
#include "db/sqlite.hpp"

namespace gounki::db {

struct IndexEntry {
    std::uint64_t key = 0; // index_key() of the position
    std::int64_t game = 0; // games.id
    std::uint32_t ply = 0; // 0 = the start position

    // The index order: key as a signed 64-bit integer (as SQLite compares it), then game, ply.
    friend bool operator<(const IndexEntry& a, const IndexEntry& b) {
        if (a.key != b.key) return std::int64_t(a.key) < std::int64_t(b.key);
        if (a.game != b.game) return a.game < b.game;
        return a.ply < b.ply;
    }
    friend bool operator==(const IndexEntry&, const IndexEntry&) = default;
};

// Block payloads: see position_blocks in schema.sql. Pure functions, tested on their own.
void encode_block(std::span<const IndexEntry> sorted, std::vector<std::uint8_t>& out);
// Calls f(entry) for each entry; returns false when the payload is malformed.
template <class F>
bool decode_block(std::uint64_t first_key, std::span<const std::uint8_t> data, F&& f);

// A blocked Bloom filter: each key sets 6 bits inside one 64-byte block (one cache line).
class BloomFilter {
public:
    BloomFilter() = default;
    // Room for `expected_keys` keys at about 10 bits a key (about 1.5% false positives).
    explicit BloomFilter(std::size_t expected_keys);
    static BloomFilter from_bytes(std::span<const std::uint8_t> bytes);
    void add(std::uint64_t key);
    bool may_contain(std::uint64_t key) const;
    std::span<const std::uint8_t> bytes() const;
    bool empty() const { return words_.empty(); }

private:
    std::vector<std::uint64_t> words_; // 8 words per block
};

struct RunInfo {
    std::int64_t id = 0;
    std::int64_t entries = 0;
};

class PositionIndex {
public:
    explicit PositionIndex(Database& db);

    // Adds a run holding `sorted` (sorted by operator<, non-empty). Runs in the caller's write
    // transaction, so the run lands together with its games.
    void add_run(std::span<const IndexEntry> sorted);

    // Appends to `out` every entry with this key, in all runs, sorted by (game, ply). In the
    // caller's transaction.
    // min_ply: only the entries at this ply or deeper (the opening tree skips the plies it sums elsewhere).
    void lookup(std::uint64_t key, std::vector<IndexEntry>& out, std::uint32_t min_ply = 0);

    // The importer's lookup: skips the runs whose Bloom filter rules the key out. Call
    // refresh_filters() inside the transaction first, so that the filters match the runs.
    void refresh_filters();
    void lookup_filtered(std::uint64_t key, std::vector<IndexEntry>& out);
    // For keys sorted in index order: whether some run's filter may hold each. A filter is walked
    // front to back (its blocks follow the keys' order), instead of a cache miss per key and run.
    std::vector<bool> may_contain(std::span<const std::uint64_t> sorted_keys) const;

    // Removes every entry of the games `sorted_games` (ascending ids, distinct) in one pass per
    // run; returns the number of entries removed. `sorted_keys` (distinct, in index order) may list
    // every key of those games' positions: a run with many more blocks than keys is then read only
    // where the keys are; otherwise each run is read once from end to end. Blocks are rewritten a
    // page at a time, never one per game.
    std::int64_t remove_games(std::span<const std::int64_t> sorted_games, std::span<const std::uint64_t> sorted_keys);

    std::vector<RunInfo> runs();

    // Merges runs of similar size (8 runs of one size tier into one), each merge in its own
    // write transaction. Returns the number of merges done.
    int compact();
    // Merges every run into one (dbbench, after a bulk import).
    void compact_all();

private:
    void lookup_run(std::int64_t run, std::uint64_t key, std::vector<IndexEntry>& out, std::uint32_t min_ply = 0);
    void merge(std::span<const std::int64_t> run_ids);

    Database& db_;
    Statement insert_run_;
    Statement update_bloom_;
    BulkWriter insert_block_; // COPY on PostgreSQL
    Statement find_blocks_;
    Statement list_runs_;
    Statement load_bloom_;
    struct KnownFilter {
        std::int64_t entries = 0; // of the run when the filter was made: an id reused after a
            // rollback has another count, and its filter is read again
        BloomFilter filter;
    };
    std::unordered_map<std::int64_t, KnownFilter> filters_;
    std::vector<std::pair<std::int64_t, const BloomFilter*>> active_; // the runs, for lookup_filtered
};

// ---- template implementation ----

template <class F>
bool decode_block(std::uint64_t first_key, std::span<const std::uint8_t> data, F&& f) {
    const std::uint8_t* p = data.data();
    const std::uint8_t* end = p + data.size();
    IndexEntry e;
    e.key = first_key;
    bool first = true;
    while (p < end) {
        std::uint64_t dk, g, ply;
        if (!get_varint(p, end, dk) || !get_varint(p, end, g) || !get_varint(p, end, ply)) return false;
        e.key += dk;
        e.game = (first || dk != 0) ? std::int64_t(g) : e.game + std::int64_t(g);
        e.ply = std::uint32_t(ply);
        first = false;
        f(static_cast<const IndexEntry&>(e));
    }
    return true;
}

} // namespace gounki::db
