#pragma once
// Move notation of docs/rules.md 1.3-1.5: writing a move of a position in canonical text, and finding
// the legal move that a written move names.

#include <cstdint>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "core/gounki/movegen.hpp"

namespace gounki {

// The notations of Gounki moves (docs/rules.md 3):
//   wikipedia  the canonical one (the Wikipedia article's): `c2-d3`, `f7xe7`, `a1-a2+`, `c5*d5,e5,f6`,
//              `a1-Out`, `a6*a7,b8,out`;
//   official   the official site's of 2003: squares separated by blanks, `x` `+` `-` `,` optional,
//              `*` required: `c2 d3`, `b1 x c2`, `c1 b1+`, `d4 * d5 d6`, `a1 OUT`, `e6 * d7 c8 OUT`;
//   lc4        the 2014 course's: `b2-b3`, an exit as the square it leaves from and `#` (`g8#`),
//              deployments squares first `d4+d5-e6` or rounds first `d4*e5-d6`, `a6*a7-b8#`.
// Reading detects the notation of each game from its moves (`automatic`) unless one is forced.
enum class Notation : std::uint8_t { automatic, wikipedia, official, lc4 };
std::string_view notation_name(Notation n); // "automatic", "wikipedia", "official", "lc4"
// "wikipedia" (or "canonical"), "official", "lc4", "auto"/"automatic", any case; false otherwise.
bool parse_notation(std::string_view text, Notation& out);

// The canonical text of legal move `m` in `pos` (before the move): `a1-a2+`, `f7xe7`, `a1-Out`,
// `g2-g2`, `c5*d5,e5,f6`, `a3*b4,a4,b4+`, `a6*a7,b8,out`.
std::string move_to_text(const Position& pos, Move m);
// The same in another notation (automatic and wikipedia: the canonical text).
std::string move_to_text(const Position& pos, Move m, Notation notation);

// A move as written, before it is checked against a position: the syntax only.
enum class MoveSeparator { dash, capture, deploy };

struct WrittenTarget {
    Square square = no_square;
    bool joins = false; // written with `+`
};

// The order of a deployment as the 2014 course notation (LC4) writes it: `d4+d5,e6` places the
// squares first, `d4*e5,d6` the rounds first. Other notations write no order (the squares alone
// identify a deployment).
enum class DeployOrder : std::uint8_t { unwritten, squares_first, rounds_first };

struct MoveSpec {
    Square from = no_square;
    MoveSeparator separator = MoveSeparator::dash;
    WrittenTarget targets[3]; // a movement has one target (none when it exits)
    int target_count = 0;
    bool out = false; // the move (or its last step) leaves the board
    // Notations where `x` and `+` are optional sugar (the official site's 2003 notation, LC4): a
    // missing marker says nothing, only a marker that is written and wrong is reported.
    bool optional_markers = false;
    DeployOrder order = DeployOrder::unwritten;
};

struct MoveTextError {
    int column = 0;
    std::string message;
};

// Reads a move written as in records: spaces may appear between tokens, `out` in any case.
std::variant<MoveSpec, MoveTextError> parse_move_text(std::string_view text);

// The canonical text of a written move (what a record writer prints for it, markers as written).
std::string spec_to_text(const MoveSpec& spec);

// A marker that disagrees with the position: never silent, never fatal (docs/rules.md 1.8).
enum class MarkerWarning {
    plus_without_join, // `+` on a square where no stack is joined
    join_without_plus, // a stack is joined but `+` is missing
    dash_on_capture, // `-` where the move captures
    x_without_capture, // `x` where nothing is captured
    deploy_exit_as_deploy, // `c5*out`: the exit of the whole stack is written `c5-Out`
    wrong_deploy_order // LC4: `+` (squares first) or `*` (rounds first) says the other order
};
// The warning's diagnostic code ("plus-without-join") and its text ("'+' written where no stack is
// joined"), from one table.
std::string_view marker_warning_code(MarkerWarning w);
std::string_view marker_warning_text(MarkerWarning w);

enum class ResolveFailure {
    no_stack, // nothing on the origin square
    enemy_stack, // the origin holds the opponent's stack
    game_over, // the game has already ended
    illegal, // the stack has no such move
};

struct Resolution {
    Move move = Move::none(); // none when the move could not be resolved
    std::vector<MarkerWarning> warnings;
    ResolveFailure failure = ResolveFailure::illegal;
    MoveList stack_moves; // on failure: the legal moves of the stack on the origin square
    std::string message; // on failure: what is wrong, in words
};

// Which kind deployment `m` of `pos` places first (unwritten for other moves). A stack of one kind
// places that kind "first".
DeployOrder deploy_order_of(const Position& pos, Move m);

// Finds the legal move of `pos` that `spec` names.
Resolution resolve_move(const Position& pos, const MoveSpec& spec);

// parse_move_text + resolve_move, for callers holding plain text; the message says what is wrong.
Resolution resolve_move_text(const Position& pos, std::string_view text);

} // namespace gounki
