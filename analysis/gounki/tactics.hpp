#pragma once
// Fast tactical queries the search asks at every node, written against the walk tables so that
// they work for either colour without generating all moves: can a side leave the board in one
// move, which squares can it capture on, which captures does the side to move have.
// They agree with core/gounki/movegen.cpp by construction and tests/analysis_test.cpp checks it.

#include <cstdint>

#include "core/gounki/movegen.hpp"

namespace gounki::analysis {

// Ranks a stack of colour `c` on `s` must still step forward to leave the board: 1 on the
// opponent's last rank, 8 on its own first rank.
constexpr int exit_distance(Color c, Square s) { return c == Color::white ? 8 - rank_of(s) : rank_of(s) + 1; }

// Squares within 3 steps of leaving the board for colour `c`: the only ones a stack can exit from.
constexpr std::uint64_t exit_zone(Color c) { return c == Color::white ? 0xFFFFFF0000000000ull : 0x0000000000FFFFFFull; }

// Whether the stack on `from` (colour `c`) could leave the board if `c` were to move now, by a
// movement or a deployment (docs/rules.md 1.4, 1.5).
bool stack_can_exit(const Position& pos, Color c, Square from);

// Whether colour `c` could win at once by leaving the board if it were to move now.
bool can_exit(const Position& pos, Color c);

// A move of the side to move that leaves the board, or Move::none().
Move find_exit_move(const Position& pos);

// The squares of the stacks of `c` that could leave the board at once.
std::uint64_t exiting_stacks(const Position& pos, Color c);

// Every square a movement of colour `c` could end on by capturing: the first occupied square of
// each walk when an enemy holds it, plus every empty square a walk passes (where an enemy stack
// arriving there could be taken). "Attacked by c".
std::uint64_t attacked_squares(const Position& pos, Color c);

// The capturing movements of the side to move (no deployments: they never capture).
void generate_captures(const Position& pos, MoveList& out);

// Whether a move of the side to move changes the position for good: a capture, an exit, or any
// piece moving forward. Only sequences of other moves (sideways moves, passes, sideways
// deployments and re-merges) can bring a position back.
bool is_irreversible(const Position& pos, Move m);

// Whether move `m` of the side to move captures.
inline bool is_capture(const Position& pos, Move m) {
    if (m.type() != MoveType::movement) return false;
    const Stack t = pos.at(m.to());
    return !t.is_empty() && t.color() != pos.side_to_move();
}

} // namespace gounki::analysis
