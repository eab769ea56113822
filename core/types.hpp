#pragma once
// The vocabulary of the Gounki rules core: colours, squares, stacks and moves as tiny value types.
// Everything here is constexpr and allocation-free; see docs/rules.md section 1.

#include <cstdint>
#include <string_view>

namespace gounki {

// The games the tool knows (their names and traits: core/game.hpp). Stored in records, position
// keys and database rows, so the numeric values are part of the file formats: append only.
enum class GameKind : std::uint8_t { gounki = 0, gomoku = 1, ninuki = 2, pente = 3, renju = 4 };

enum class Color : std::uint8_t { white = 0, black = 1 };

constexpr Color operator~(Color c) { return Color(int(c) ^ 1); }
constexpr int index(Color c) { return int(c); }
// +1 rank for White, -1 for Black: nothing ever moves backward.
constexpr int forward(Color c) { return c == Color::white ? 1 : -1; }

// Squares 0..63: a1 = 0, b1 = 1, ..., h8 = 63.
using Square = int;
constexpr Square no_square = 64;

constexpr Square make_square(int file, int rank) { return rank * 8 + file; }
constexpr int file_of(Square s) { return s & 7; }
constexpr int rank_of(Square s) { return s >> 3; }
constexpr bool is_square(Square s) { return s >= 0 && s < 64; }
constexpr std::uint64_t square_bb(Square s) { return std::uint64_t(1) << s; }

// A stack: 1 to 3 simple pieces of one colour. Order inside never matters, so a stack is
// (colour, rounds, squares). Packed in one byte:
//   bits 0-1  number of rounds  (0..3)
//   bits 2-3  number of squares (0..3)
//   bit  4    colour (0 white, 1 black)
// The byte 0 is the empty square. Codes are < 32, so tables indexed by code have 32 entries.
class Stack {
public:
    constexpr Stack() = default;
    constexpr Stack(Color c, int rounds, int squares) : code_(std::uint8_t(rounds | (squares << 2) | (int(c) << 4))) {}
    static constexpr Stack from_code(std::uint8_t code) {
        Stack s;
        s.code_ = code;
        return s;
    }
    static constexpr Stack empty() { return Stack(); }

    constexpr std::uint8_t code() const { return code_; }
    constexpr bool is_empty() const { return code_ == 0; }
    constexpr int rounds() const { return code_ & 3; }
    constexpr int squares() const { return (code_ >> 2) & 3; }
    constexpr int size() const { return rounds() + squares(); }
    constexpr Color color() const { return Color((code_ >> 4) & 1); }
    // Adds pieces of the same colour; the caller checks the result holds at most 3 pieces.
    constexpr Stack plus(int rounds, int squares) const {
        return Stack(color(), this->rounds() + rounds, this->squares() + squares);
    }
    constexpr bool operator==(const Stack&) const = default;

private:
    std::uint8_t code_ = 0;
};

constexpr int stack_codes = 32;

// placement: a stone placed on a point (Gomoku and Ninuki, core/stones/position.hpp); the other three are
// Gounki moves.
enum class MoveType : std::uint8_t { movement = 0, exit = 1, deployment = 2, placement = 3 };

// A move, packed in 32 bits. It knows nothing of text; notation.hpp writes and reads it.
//   bits 0-5    origin square
//   bits 6-11   first target: the destination of a movement, the first placed piece of a deployment
//   bits 12-17  second placed piece (deployment)
//   bits 18-23  third placed piece (deployment)
//   bits 24-25  MoveType
//   bits 26-27  number of pieces placed on the board (deployment, 1..3; 0 otherwise)
//   bit  28     the deployment ends by a piece leaving the board (docs/rules.md 1.5)
//   bits 29-31  bit i set: placed piece i is a round (else a square)
// A placement (stone games) uses bits 0-8 for the point (0..360, see core/stones/position.hpp) and MoveType 3.
// Move::none() is 0, which reads as "a1-a1", a move no position has (a1 can never bounce back).
class Move {
public:
    constexpr Move() = default;
    static constexpr Move none() { return Move(); }

    static constexpr Move movement(Square from, Square to) { return Move(std::uint32_t(from) | std::uint32_t(to) << 6); }
    static constexpr Move exit(Square from) { return Move(std::uint32_t(from) | std::uint32_t(MoveType::exit) << 24); }
    // `placed` pieces on `squares`, with `round_mask` bit i set when piece i is a round.
    static constexpr Move deployment(Square from, const Square* squares, int placed, unsigned round_mask, bool out) {
        std::uint32_t d = std::uint32_t(from) | std::uint32_t(MoveType::deployment) << 24 | std::uint32_t(placed) << 26 |
            std::uint32_t(out) << 28 | std::uint32_t(round_mask & 7) << 29;
        for (int i = 0; i < placed; ++i) d |= std::uint32_t(squares[i]) << (6 + 6 * i);
        return Move(d);
    }

    // A stone placed on `point` (core/stones/position.hpp numbering).
    static constexpr Move placement(int point) { return Move(std::uint32_t(point) | std::uint32_t(MoveType::placement) << 24); }
    constexpr int point() const { return int(data_ & 511); }

    constexpr Square from() const { return Square(data_ & 63); }
    constexpr Square to() const { return Square((data_ >> 6) & 63); }
    constexpr MoveType type() const { return MoveType((data_ >> 24) & 3); }
    constexpr int placed() const { return int((data_ >> 26) & 3); }
    constexpr Square placed_square(int i) const { return Square((data_ >> (6 + 6 * i)) & 63); }
    constexpr bool placed_round(int i) const { return (data_ >> (29 + i)) & 1; }
    constexpr bool ends_out() const { return type() == MoveType::exit || ((data_ >> 28) & 1); }
    constexpr std::uint32_t raw() const { return data_; }
    static constexpr Move from_raw(std::uint32_t d) { return Move(d); }

    constexpr bool operator==(const Move&) const = default;
    constexpr explicit operator bool() const { return data_ != 0; }

private:
    constexpr explicit Move(std::uint32_t d) : data_(d) {}
    std::uint32_t data_ = 0;
};

// Who has won, if anyone. Gounki defines no draw (docs/rules.md 1.6); a stone game is drawn when the
// board fills up with no winner (docs/rules.md 2).
enum class Outcome : std::uint8_t { none = 0, white_wins = 1, black_wins = 2, draw = 3 };

constexpr Outcome win_for(Color c) { return c == Color::white ? Outcome::white_wins : Outcome::black_wins; }

// The result as records write it: "1-0", "0-1", "1/2-1/2", or "*" while the game goes on.
constexpr std::string_view outcome_text(Outcome o) {
    switch (o) {
    case Outcome::white_wins: return "1-0";
    case Outcome::black_wins: return "0-1";
    case Outcome::draw: return "1/2-1/2";
    case Outcome::none: break;
    }
    return "*";
}

} // namespace gounki
