#pragma once
// perft: the number of move sequences of a given length, the reference check of move generation.

#include <cstdint>
#include <vector>

#include "core/gounki/position.hpp"

namespace gounki {

enum class PerftMode {
    fast, // counts the leaves' moves without playing them
    checked, // plays every move and checks at every node that undo restores the position and
    // that the incremental hash equals one computed from scratch
};

// Thrown by checked perft when an invariant breaks; says which move at which position.
struct PerftInvariantError {
    std::string what;
};

std::uint64_t perft(Position& pos, int depth, PerftMode mode = PerftMode::fast);

struct PerftDivideEntry {
    Move move;
    std::uint64_t nodes;
};
std::vector<PerftDivideEntry> perft_divide(Position& pos, int depth, PerftMode mode = PerftMode::fast);

} // namespace gounki
