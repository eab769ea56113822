#pragma once
// The points of the stone games' boards and what stands on them (docs/rules.md section 2).
//
// One numbering for every board size: point = rank * stride + file (a1 = 0, b1 = 1, ...), so a
// point's name never depends on the board size; a 15x15 board uses files a..o and ranks 1..15 of
// it, a 20x20 board files a..t and ranks 1..20. A move of a stone game is Move::placement(point)
// (core/types.hpp: 9 bits, up to 511).
//
// Files and databases written before 20x20 boards numbered points rank * 19 + file. What is
// stored keeps that numbering (stored_point): a 15x15 or 19x19 game's move codes and position keys
// are the same as before, and old databases read as they are.

#include <cstdint>
#include <string>
#include <string_view>

#include "core/types.hpp"

namespace gounki::stones {

constexpr int stride = 20;
constexpr int max_size = 20;
constexpr int point_count = stride * max_size; // 400
constexpr int no_point = -1;

constexpr int make_point(int file, int rank) { return rank * stride + file; }
constexpr int point_file(int p) { return p % stride; }
constexpr int point_rank(int p) { return p / stride; }

// Coordinates counted from the top-left corner, as Piskvork PSQ files (from 1) and the Gomocup
// protocol (from 0) count them: column x from the left and row y from the top, both from 0 here,
// on a `size` x `size` board (a1, the bottom-left corner, is x 0, y size - 1). The one conversion.
constexpr int point_from_top_left(int x, int y, int size) { return make_point(x, size - 1 - y); }
constexpr int top_left_x(int p) { return point_file(p); }
constexpr int top_left_y(int p, int size) { return size - 1 - point_rank(p); }
static_assert(point_from_top_left(0, 14, 15) == make_point(0, 0) && top_left_y(make_point(7, 7), 15) == 7);

// The stored number of a point: rank * 19 + file on the 19x19 corner (0..360, as before 20x20
// boards), then the 20th rank (361 + file) and the 20th file (381 + rank).
constexpr int legacy_size = 19;
constexpr int stored_point(int p) {
    const int f = point_file(p), r = point_rank(p);
    if (f < legacy_size && r < legacy_size) return r * legacy_size + f;
    if (r == legacy_size) return legacy_size * legacy_size + f;
    return legacy_size * legacy_size + max_size + r;
}
constexpr int point_from_stored(int s) {
    constexpr int corner = legacy_size * legacy_size;
    if (s < corner) return make_point(s % legacy_size, s / legacy_size);
    if (s < corner + max_size) return make_point(s - corner, legacy_size);
    return make_point(legacy_size, s - corner - max_size);
}
static_assert(stored_point(make_point(18, 18)) == 360 && stored_point(make_point(19, 19)) == 380 &&
              stored_point(make_point(19, 18)) == 399 && point_from_stored(399) == make_point(19, 18));

// "h8", "j10", "t20"; the caller guarantees 0 <= p < point_count.
std::string point_name(int p);
// Parses a point name ("h8", "J10"; file letter in either case, letters a.. with none skipped);
// no_point when it is not a point of a `size` x `size` board.
int parse_point(std::string_view text, int size);

enum class Stone : std::uint8_t { empty = 0, black = 1, white = 2 };
constexpr Stone stone_of(Color c) { return c == Color::black ? Stone::black : Stone::white; }

} // namespace gounki::stones
