#pragma once
// The transposition table: buckets of four 16-byte entries, one cache line each.
//
// Every entry carries the generation of the search that wrote it, and only entries of the current
// generation are ever read. Starting a search bumps the generation, which empties the table in
// O(1): a search's result depends on its position and limits only, never on earlier searches
// (determinism), and judging a game does not pay a memset per position.

#include <cstddef>
#include <cstdint>
#include <vector>

#include "analysis/score.hpp"
#include "core/types.hpp"

namespace gounki::analysis {

enum class Bound : std::uint8_t { none = 0, upper = 1, lower = 2, exact = 3 };

struct TTHit {
    Move move;
    Score score = 0; // relative to the node (see score_to_tt)
    int depth = 0;
    Bound bound = Bound::none;
};

// The largest table this machine is given: half its physical memory, in MiB (a power of two, at
// least 1). A --hash or Hash option above it is refused; a table asked for above it is halved.
std::size_t max_table_megabytes();

class TranspositionTable {
public:
    explicit TranspositionTable(std::size_t megabytes = 16);
    // Rounds down to a power of two of buckets; at least one bucket. A table that cannot be
    // allocated (more than max_table_megabytes(), or the allocation fails) is halved until it can:
    // size_bytes() then says what was taken.
    void resize(std::size_t megabytes);
    std::size_t size_bytes() const { return buckets_.size() * sizeof(Bucket); }
    // Forgets everything (O(1) except once every 63 searches).
    void new_search();
    bool probe(std::uint64_t key, TTHit& hit) const;
    // Starts loading the bucket of `key` into the cache (the probe comes a little later).
    void prefetch(std::uint64_t key) const { __builtin_prefetch(&buckets_[key & mask_]); }
    void store(std::uint64_t key, Move move, Score score, int depth, Bound bound);
    // Permille of the first 1000 entries written by the current search (UI information).
    int hashfull() const;

private:
    // Layout of one entry:
    //   key    all 64 bits of the position key
    //   move   Move::raw()
    //   score  int16, relative to the node
    //   depth  int8 (quiescence entries store 0)
    //   meta   bits 0-1 Bound, bits 2-7 generation (1..63; 0 never written)
    struct Entry {
        std::uint64_t key;
        std::uint32_t move;
        std::int16_t score;
        std::int8_t depth;
        std::uint8_t meta;
    };
    struct alignas(64) Bucket {
        Entry e[4];
    };
    static_assert(sizeof(Entry) == 16 && sizeof(Bucket) == 64);

    std::vector<Bucket> buckets_;
    std::uint64_t mask_ = 0;
    std::uint8_t generation_ = 1;
};

} // namespace gounki::analysis
