#pragma once
// Move notation of RULES.md 1.3-1.5: writing a move of a position in canonical text, and finding
// the legal move that a written move names.

#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "core/movegen.hpp"

namespace gounki {

// The canonical text of legal move `m` in `pos` (before the move): `a1-a2+`, `f7xe7`, `a1-Out`,
// `g2-g2`, `c5*d5,e5,f6`, `a3*b4,a4,b4+`, `a6*a7,b8,out`.
std::string move_to_text(const Position& pos, Move m);

// A move as written, before it is checked against a position: the syntax only.
enum class MoveSeparator { dash, capture, deploy };

struct WrittenTarget {
    Square square = no_square;
    bool joins = false; // written with `+`
};

struct MoveSpec {
    Square from = no_square;
    MoveSeparator separator = MoveSeparator::dash;
    WrittenTarget targets[3]; // a movement has one target (none when it exits)
    int target_count = 0;
    bool out = false; // the move (or its last step) leaves the board
};

struct MoveTextError {
    int column = 0;
    std::string message;
};

// Reads a move written as in records: spaces may appear between tokens, `out` in any case.
std::variant<MoveSpec, MoveTextError> parse_move_text(std::string_view text);

// The canonical text of a written move (what a record writer prints for it, markers as written).
std::string spec_to_text(const MoveSpec& spec);

// A marker that disagrees with the position: never silent, never fatal (RULES.md 1.8).
enum class MarkerWarning {
    plus_without_join,    // `+` on a square where no stack is joined
    join_without_plus,    // a stack is joined but `+` is missing
    dash_on_capture,      // `-` where the move captures
    x_without_capture,    // `x` where nothing is captured
    deploy_exit_as_deploy // `c5*out`: the exit of the whole stack is written `c5-Out`
};
std::string_view marker_warning_text(MarkerWarning w);

enum class ResolveFailure {
    no_stack,      // nothing on the origin square
    enemy_stack,   // the origin holds the opponent's stack
    game_over,     // the game has already ended
    illegal,       // the stack has no such move
};

struct Resolution {
    Move move = Move::none(); // none when the move could not be resolved
    std::vector<MarkerWarning> warnings;
    ResolveFailure failure = ResolveFailure::illegal;
    MoveList stack_moves; // on failure: the legal moves of the stack on the origin square
    std::string message;  // on failure: what is wrong, in words
};

// Finds the legal move of `pos` that `spec` names.
Resolution resolve_move(const Position& pos, const MoveSpec& spec);

// parse_move_text + resolve_move, for callers holding plain text; the message says what is wrong.
Resolution resolve_move_text(const Position& pos, std::string_view text);

} // namespace gounki
