#pragma once
// The importer's first stage, off the write transaction (db/import.cpp runs it on another thread):
// each game's position keys, move blob and columns, and the batch's index entries sorted, with the
// games of the batch that end where another one stands. Internal to db/import*.cpp.

#include <array>
#include <chrono>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "db/import.hpp"

namespace gounki::db::detail {

// Keys in the index order (signed), as SQLite compares them.
inline bool key_less(std::uint64_t a, std::uint64_t b) { return std::int64_t(a) < std::int64_t(b); }

inline bool blob_starts_with(std::span<const std::uint8_t> blob, std::span<const std::uint8_t> prefix) {
    return blob.size() >= prefix.size() && std::equal(prefix.begin(), prefix.end(), blob.begin());
}

using Clock = std::chrono::steady_clock;
inline double seconds_since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

// A game made ready for storing, outside the write transaction.
struct Prepared {
    GameInput in;
    std::string start_text; // empty: the standard start
    std::vector<std::uint64_t> keys; // plies 0..n
    std::vector<std::uint8_t> moves_blob;
    bool can_go_on = false; // the final position is not won: the game may be a prefix of another
    std::string white, black, event, site, date, round;
    std::vector<std::pair<std::string, std::string>> other_tags; // for the tags table
    std::int64_t date_key = 0;
    ImportReport report;
    bool skip = false;
    // Earlier games of the same batch that go on from this game's final position, its moves
    // first (this game is a prefix of theirs), and earlier games of the batch whose moves this
    // game plays first (theirs is a prefix of this one, or the same moves); a few of each
    // (link_in_batch, db/import_prepare.cpp).
    std::vector<std::uint32_t> longer_in_batch, shorter_in_batch;
    bool ends_where_earlier_ends = false; // an earlier game of the batch ends on this final position, at this ply
    // Plies (>= 1) at which this game's position is the final position of some stored game.
    std::vector<std::uint32_t> stored_end_plies;
    bool index_maybe = false; // a run's Bloom filter may hold the final position
    std::vector<std::uint64_t> lines; // the line's hash at each ply (line_hashes), made by line_at when needed
    // A stone game with moves: its images (docs/rules.md 2.7) are looked for as turned duplicates.
    bool turnable = false;
    int board_size = 0;
    std::array<std::uint64_t, 8> image_ends{}; // index keys of its final position's images, by symmetry
    std::uint64_t turn_free = 0; // a hash of the game (moves, start, result, players) that its images share
    // Earlier games of the batch with the same turn_free hash (a few), and the symmetries under
    // which its final position is the final position of some stored game (match_end_keys).
    std::vector<std::uint32_t> turned_in_batch;
    std::vector<std::uint8_t> turned_stored;
};

// `p`'s start, game and moves under `symmetry` (a stone game): the line its image is stored as.
struct TurnedLine {
    std::string start_text;
    std::vector<std::uint8_t> moves_blob;
};
TurnedLine turned_line(const Prepared& p, int symmetry);

// The hash of a line (its start, game and moves) after each of its moves: `out[ply]` for plies
// 0..n, from the moves BLOB. Two games with the same first moves from the same start have the same
// hash at each of those plies.
void line_hashes(std::string_view start, std::int64_t kind, std::span<const std::uint8_t> blob, std::vector<std::uint64_t>& out);
std::uint64_t mix(std::uint64_t x);
// The line hash of `p` at ply `ply`: its `lines`, made on first use.
std::uint64_t line_at(Prepared& p, std::uint32_t ply);
// A game by its whole line, result and players: what two games share when one duplicates the other.
std::uint64_t game_hash(std::uint64_t line, std::int64_t result, std::string_view white, std::string_view black);
// Whether `longer` starts as `shorter` does and plays its moves first (or the same moves).
bool extends(const Prepared& longer, const Prepared& shorter);

// An index entry of a batch before the game ids are known: 16 bytes, so sorting moves less.
struct BatchEntry {
    std::uint64_t key;
    std::uint32_t game; // index in the batch
    std::uint32_t ply;
};

// Sorts into the index order: key (as a signed integer), then game, then ply. The input is in
// (game, ply) order. Two stable 8-bit passes on the top 16 bits of the key (256 write streams each,
// which the cache keeps up with, unlike a 65536-way scatter) leave runs of about a dozen entries
// with equal top bits, still in (game, ply) order, which a short sort finishes.
struct PreparedBatch {
    std::vector<Prepared> games;
    std::vector<BatchEntry> entries; // sorted
    // The final positions' images of the turnable games (ply: the symmetry, 1..7), sorted likewise.
    std::vector<BatchEntry> image_entries;
    double seconds = 0; // spent preparing
};

// Prepares a batch of games (each as prepare does, then the sorted entries).
PreparedBatch prepare_batch(std::vector<GameInput> queue, ImportOptions opt);

} // namespace gounki::db::detail
