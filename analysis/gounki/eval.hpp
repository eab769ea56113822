#pragma once
// The static evaluation: a quiet-position estimate of who wins the race off the board.

#include <array>
#include <cstdint>

#include "analysis/score.hpp"
#include "core/gounki/position.hpp"

namespace gounki::analysis {

// The weights of the evaluation, in centi-pieces (one simple piece = 100). A plain struct so that
// tuning matches can pit two settings against each other; `EvalWeights{}` is the engine's own.
struct EvalWeights {
    int piece = 100; // each simple piece on the board
    int range2 = 30; // a stack that moves 2 squares in one kind (RR, SS, RRS, RSS)
    int range3 = 70; // a stack that moves 3 squares in one kind (RRR, SSS)
    // By the number of own moves a stack needs to leave the board on an empty board, 1..8.
    std::array<int, 9> advance = {0, 120, 60, 30, 15, 6, 2, 0, 0};
    int runner = 80; // per move the side's fastest stack is ahead of the other's fastest
    int hanging_their_move = 60; // percent of a stack's worth lost when the opponent, to move, attacks it
    int hanging_our_move = 15; // same when we are to move (we may move it away or trade)
    int defended = 50; // percent of the hanging penalty kept when we can take back
    int contested = 20; // the fastest stack's next squares are all attacked
    int tempo = 10; // the side to move
};

// The number of moves a stack needs to leave the board from `distance` ranks away on an empty
// board: its final move may be a deployment (one step per piece, so `size` ranks), the others
// advance by its range in one kind.
constexpr int moves_to_exit(int distance, int size, int range) {
    if (distance <= size) return 1;
    return 1 + (distance - size + range - 1) / range;
}

// Evaluates with tables built once from the weights: per stack (colour included) and square, the
// stack's worth and its moves to leave the board. The sum of the worths over the board (White's
// minus Black's, the "base") is kept up to date by the search move by move (base_delta), so an
// evaluation only adds the terms that depend on the whole position.
class Evaluator {
public:
    explicit Evaluator(const EvalWeights& w = EvalWeights{});

    // The base of a position computed from scratch.
    int base(const Position& pos) const;
    // How a move changed the base: `after` is the position after do_move, `undo` its record.
    int base_delta(const Position& after, const UndoRecord& undo) const;

    // The evaluation of a position where neither side can leave the board at once, from the side
    // to move, given its base. Always strictly inside (-score_heuristic_max, score_heuristic_max).
    // `attacked`, when given, receives both sides' attacked squares (see tactics.hpp).
    Score evaluate(const Position& pos, int base, std::uint64_t* attacked = nullptr) const;
    Score operator()(const Position& pos) const { return evaluate(pos, base(pos)); }

    const EvalWeights& weights() const { return w_; }

private:
    EvalWeights w_;
    int worth_[stack_codes][64] = {}; // signed: positive for White's stacks; 0 for the empty square
    std::uint8_t moves_[stack_codes][64] = {};
};

// One-off evaluation (builds the tables each call: for tests and tools, not for search).
Score evaluate(const Position& pos, const EvalWeights& w = EvalWeights{});

} // namespace gounki::analysis
