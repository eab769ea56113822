#pragma once
// Legal move generation. Every generated move is legal: Gounki has no check.

#include <array>
#include <cstdint>

#include "core/gounki/position.hpp"

namespace gounki {

// Fixed capacity, no heap. 256 is above the most moves a side can have: at most 16 pieces, and
// a triple stack, the richest, has fewer than 40 moves.
class MoveList {
public:
    static constexpr int capacity = 256;
    void push(Move m) { moves_[size_++] = m; }
    int size() const { return size_; }
    bool empty() const { return size_ == 0; }
    Move operator[](int i) const { return moves_[i]; }
    const Move* begin() const { return moves_.data(); }
    const Move* end() const { return moves_.data() + size_; }
    void clear() { size_ = 0; }
    bool contains(Move m) const;

private:
    std::array<Move, capacity> moves_;
    int size_ = 0;
};

// All legal moves of the side to move; none once the game is over. Order: by origin square, then
// movements by destination square, the exit, then deployments.
void generate_moves(const Position& pos, MoveList& out);
// The legal moves of the stack on `from` (which must belong to the side to move).
void generate_moves_from(const Position& pos, Square from, MoveList& out);

// The movement part of generate_moves_from, without building moves or walking deployments: the
// squares the stack on `from` can move to (a bitboard) and whether it can leave the board. For
// readers that check one written move (a movement or an exit is most of a record).
struct MovementTargets {
    std::uint64_t destinations = 0;
    bool exits = false;
};
MovementTargets movement_targets(const Position& pos, Square from);
// Can the stack on `from` move to `to`? The same answer as movement_targets(pos, from).destinations,
// found by following only the walks that land on `to`.
bool movement_reaches(const Position& pos, Square from, Square to);
// The deployment of the stack on `from` that places its pieces on `squares[0..placed)` in that
// order and, when `out`, ends with a piece leaving the board; none when the stack has no such
// deployment. The same move generate_moves_from lists (its first, should two name these squares),
// found by following only the walks whose steps land on the written squares.
Move find_deployment(const Position& pos, Square from, const Square* squares, int placed, bool out);
// The number of legal moves, without building them (perft's leaves).
int count_moves(const Position& pos);

} // namespace gounki
