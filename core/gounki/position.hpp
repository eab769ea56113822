#pragma once
// A Gounki position: mailbox board, per-colour occupancy bitboards and an incremental hash.

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <variant>

#include "core/types.hpp"

namespace gounki {

// Where a position text is wrong: the 0-based column of the offending character and a message.
struct PositionError {
    int column = 0;
    std::string message;
};

// What do_move changes, saved so undo_move restores the position exactly. Owned by the caller.
struct UndoRecord {
    std::array<Square, 4> squares{};
    std::array<Stack, 4> before{};
    int count = 0;
    std::uint64_t key = 0;
    Outcome outcome = Outcome::none;
};

class Position {
public:
    // The start position of docs/rules.md 1.1.
    static Position start();
    // An empty board, White to move.
    Position();

    // Parses the one-line format of docs/rules.md 1.7. Any letter order inside parentheses is accepted.
    static std::variant<Position, PositionError> from_text(std::string_view text);
    // The canonical text: stacks with rounds first.
    std::string to_text() const;

    Stack at(Square s) const { return board_[s]; }
    Color side_to_move() const { return side_; }
    std::uint64_t occupancy(Color c) const { return occupied_[index(c)]; }
    std::uint64_t occupancy() const { return occupied_[0] | occupied_[1]; }
    // The squares holding exactly this kind of stack.
    std::uint64_t stacks_of(Stack st) const { return by_code_[st.code()]; }
    std::uint64_t key() const { return key_; }
    // The key of this position with outcome `o` (a position won by an exit looks like one still
    // going on: its board alone does not tell).
    std::uint64_t key_with_outcome(Outcome o) const;
    Outcome outcome() const { return outcome_; }
    bool game_over() const { return outcome_ != Outcome::none; }
    // Number of simple pieces of a kind still on the board.
    int piece_count(Color c) const;

    // Board editing for tests and set-up; keeps occupancy and the key in step.
    void put(Square s, Stack st);
    void set_side_to_move(Color c);
    // Declares the game over when a side has no piece left (docs/rules.md 1.6).
    void update_outcome_from_material();

    void do_move(Move m, UndoRecord& undo) { apply<true>(m, undo); }
    void undo_move(Move m, const UndoRecord& undo);
    // do_move without the hash: key() is stale until the matching undo_move. For perft's inner
    // loop, which never reads the key.
    void do_move_unhashed(Move m, UndoRecord& undo) { apply<false>(m, undo); }

    // The hash computed from scratch; equals key() whenever the position is consistent.
    std::uint64_t compute_key() const;

    bool operator==(const Position& o) const {
        return board_ == o.board_ && side_ == o.side_ && outcome_ == o.outcome_ && occupied_[0] == o.occupied_[0] &&
            occupied_[1] == o.occupied_[1] && by_code_ == o.by_code_;
    }

private:
    template <bool Hash>
    void set_square(Square s, Stack st);
    template <bool Hash>
    void apply(Move m, UndoRecord& undo);

    std::array<Stack, 64> board_{};
    std::uint64_t occupied_[2] = {0, 0};
    std::array<std::uint64_t, stack_codes> by_code_{}; // by_code_[0] is unused (empty squares)
    std::uint64_t key_ = 0;
    Color side_ = Color::white;
    Outcome outcome_ = Outcome::none;
};

// "a1".."h8"; the caller guarantees is_square(s).
std::string square_name(Square s);
// Parses a square name ("e4", case-insensitive file letter); no_square when it is not one.
Square parse_square(std::string_view text);

} // namespace gounki
