#pragma once
// Partial positions for `gounki search --pattern`: per-square conditions, the side to move and
// material counts, all of which must hold in one position of a game.
//
// Syntax (also in `gounki help search`). Terms are separated by spaces or ';':
//
//   board     8 ranks separated by '/', rank 8 first, files a to h, as in the position format of
//             docs/rules.md 1.7 (so a position text is a pattern for that exact board), with these cells:
//               R S r s (RS) (rrs) ...  exactly this stack (any letter order inside parentheses)
//               1..8                    that many empty squares
//               .                       an empty square
//               ?                       anything, empty or not
//               W  B  X                 any white stack, any black stack, any stack
//               [COND]                  a stack meeting COND: an optional colour W or B, then any of
//                                       rN (at least N rounds), sN (at least N squares), nN (at least
//                                       N pieces). [Wr2]: a white stack with 2 or more rounds.
//   SQ=CELL   one square, e.g. e4=W  d5=.  c3=(RS)  f6=[Bs2]
//   w  b      the side to move
//   COUNT OP N  material, OP one of >= <= = > <, COUNT one of
//               #CELL              the number of stacks matching a stack cell, e.g. #[Wn3]>=2
//                                  (White has at least two stacks of three), #B<=4
//               Wr Ws Wp           White's rounds, squares, pieces on the board; Br Bs Bp Black's
//
// Examples:  "e4=[Wn3] #[Wn3]>=2"   "????????/8/????????/8/8/8/8/???????? w"   "Bp<=3 Wp>=10"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "core/gounki/position.hpp"

namespace gounki::db {

// A count compared with a number, as patterns write it: >= <= = > < (Gounki and stone patterns).
enum class CountOp : std::uint8_t { ge, le, eq, gt, lt };
bool count_holds(CountOp op, int n, int value);
std::string_view count_op_text(CountOp op);
// Reads an operator at the start of `text` into `op`: its length in characters, 0 when none.
std::size_t read_count_op(std::string_view text, CountOp& op);

// What one cell of a pattern allows on its square.
struct CellCondition {
    enum class Kind : std::uint8_t { any, empty, exact, stack };
    Kind kind = Kind::any;
    Stack exact; // Kind::exact
    std::optional<Color> color; // Kind::stack: the colour when one is required
    int min_rounds = 0, min_squares = 0, min_pieces = 0;

    bool matches(Stack s) const;
    std::string text() const;
};

struct MaterialTerm {
    enum class Count : std::uint8_t { stacks, rounds, squares, pieces };
    using Op = CountOp;
    Count count = Count::stacks;
    CellCondition cell; // Count::stacks: which stacks are counted
    Color color = Color::white; // rounds, squares, pieces: whose
    Op op = Op::ge;
    int value = 0;

    bool holds(int n) const;
    std::string text() const;

    // Filled by Pattern::parse: the stack codes this term counts, and what each counts for (1 a
    // stack, or its rounds, squares or pieces), so a count is a few popcounts of the position's
    // per-stack-kind bitboards.
    std::vector<std::pair<std::uint8_t, std::uint8_t>> weights;
};

struct PatternError {
    int column = 0; // 0-based, in the pattern text
    std::string message;
};

class Pattern {
public:
    static std::variant<Pattern, PatternError> parse(std::string_view text);

    bool matches(const Position& pos) const;
    // False when no later position of the same game can match: pieces are never added, so the
    // rounds and squares each side keeps only go down.
    bool reachable(const Position& pos) const;
    // Whether reachable() can ever say no (the pattern asks for some material).
    bool prunes() const { return prunes_; }
    // The canonical text of the pattern, for messages and JSON.
    std::string text() const;

private:
    void finish();

    std::array<CellCondition, 64> cells_{};
    std::optional<Color> side_;
    std::vector<MaterialTerm> terms_;
    std::uint64_t empty_mask_ = 0, white_mask_ = 0, black_mask_ = 0, occupied_mask_ = 0, detail_mask_ = 0;
    int min_rounds_[2] = {0, 0}, min_squares_[2] = {0, 0}, min_pieces_[2] = {0, 0};
    bool prunes_ = false;
};

} // namespace gounki::db
