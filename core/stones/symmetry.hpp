#pragma once
// The eight symmetries of a stone game's square board about its centre (docs/rules.md 2.7): the
// identity, the turns by a quarter, a half and three quarters, and the four reflections. The rules
// of every stone game look the same in each (lines, captures, the forbidden shapes of Renju, the
// distance from the centre that opening rules count, but for Pente's tournament rule on a 20x20
// board, whose centre is a point beside the true one), so a position and its images are the same
// position for play; collections hold them in every turn and mirror image, and the opening tree
// and the position search can take them together (`tree --symmetric`, `search --symmetric`).
//
// One seam: the Renju opening table (renju_openings.cpp), the tree and the searches turn points here.

#include <array>
#include <cstdint>
#include <string_view>
#include <vector>

#include "core/stones/position.hpp"

namespace gounki::stones {

constexpr int symmetry_count = 8; // 0 is the identity

// An offset from the centre (file to the right, rank upwards) under `symmetry`.
struct Offset {
    int file = 0, rank = 0;
    bool operator==(const Offset&) const = default;
};
constexpr Offset transformed(Offset o, int symmetry) {
    const int f = o.file, r = o.rank;
    switch (symmetry) {
    case 0: return {f, r};
    case 1: return {-r, f}; // a quarter turn anticlockwise
    case 2: return {-f, -r};
    case 3: return {r, -f};
    case 4: return {-f, r}; // the mirror image left to right
    case 5: return {f, -r};
    case 6: return {r, f};
    default: return {-r, -f};
    }
}
// The symmetry that takes every image of `symmetry` back.
constexpr int inverse_symmetry(int symmetry) { return symmetry == 1 ? 3 : symmetry == 3 ? 1 : symmetry; }

// A point of a `size` x `size` board under `symmetry`.
int transformed_point(int point, int symmetry, int size);

// How `symmetry` shows a board: "turned a quarter anticlockwise", "mirrored left to right", ... (the
// identity: "as it is"). The words of the importer's report of a turned duplicate.
std::string_view symmetry_name(int symmetry);

// What a stone `stone` (black or white) on `point` adds to a position's key (XOR); defined beside the
// keys, in position.cpp.
std::uint64_t stone_key(int point, Stone stone);

// The keys (StonePosition::key) of `pos` under each of the eight symmetries, `pos.key()` first: the
// key of `transformed(pos, s)` without building it (one pass over the stones).
std::array<std::uint64_t, symmetry_count> image_keys(const StonePosition& pos);

// `pos` under `symmetry`: its stones moved, all else (side to move, captures, a pending five, the
// outcome) as it was.
StonePosition transformed(const StonePosition& pos, int symmetry);

// The symmetries other than the identity that leave `pos` as it is (all seven for h8 alone).
std::vector<int> own_symmetries(const StonePosition& pos);

// `point` and its images under `symmetries` on a `size` x `size` board (the points a position's own
// symmetries exchange: one move of the symmetric tree), `point` first.
std::vector<int> exchanged_points(int point, const std::vector<int>& symmetries, int size);

// A position's distinct images (a symmetric position has fewer than eight), the identity first,
// each with the first symmetry that makes it.
struct Image {
    StonePosition position;
    int symmetry = 0;
};
std::vector<Image> images(const StonePosition& pos);

} // namespace gounki::stones
