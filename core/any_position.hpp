#pragma once
// A position of any game: Gounki's stacks or the stone games' points, one value type for the code
// that serves every game alike (commands, records, the database, reports). Engines and move
// generators keep their own position type, chosen once per command through visit().
//
// It only goes forward (play keeps no undo record): code that searches uses the family's type.

#include <cstdint>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "core/game.hpp"
#include "core/gounki/notation.hpp"
#include "core/gounki/position.hpp"
#include "core/stones/position.hpp"

namespace gounki {

class AnyPosition {
public:
    using Variant = std::variant<Position, stones::StonePosition>;

    AnyPosition() : v_(Position::start()) {}
    AnyPosition(const Position& p) : v_(p) {} // NOLINT: a Gounki position is one
    AnyPosition(const stones::StonePosition& p) : v_(p) {} // NOLINT: so is a stone position

    // Where a game of `kind` starts: Gounki's start position, an empty board of the default size
    // and rules with Black to move.
    static AnyPosition start(GameKind kind);
    // A position as people type it: `start` (Gounki), a game's name (its start: `gomoku`, `ninuki`),
    // a stone position text ("Gomoku 15 ... b", core/stones/position.hpp) or a Gounki one (docs/rules.md 1.7).
    static std::variant<AnyPosition, PositionError> from_text(std::string_view text);

    GameKind kind() const;
    Family family() const { return family_of(kind()); }
    std::uint64_t key() const;
    Color side_to_move() const;
    Outcome outcome() const;
    bool game_over() const { return outcome() != Outcome::none; }
    std::string to_text() const;

    // The move's text: Gounki in `notation` (core/gounki/notation.hpp), a stone game's point name.
    std::string move_text(Move m, Notation notation = Notation::automatic) const;
    // The legal move a text names; the message says why there is none.
    std::variant<Move, std::string> parse_move(std::string_view text) const;
    bool is_legal(Move m) const;
    std::vector<Move> legal_moves() const;
    // Plays a legal move (the caller checked it).
    void play(Move m);

    // The family's own position, or nullptr.
    const Position* gounki() const { return std::get_if<Position>(&v_); }
    const stones::StonePosition* stones() const { return std::get_if<stones::StonePosition>(&v_); }
    // The family's own position where the caller knows the family (a precondition, checked:
    // std::bad_variant_access otherwise).
    const Position& as_gounki() const { return std::get<Position>(v_); }
    Position& as_gounki() { return std::get<Position>(v_); }
    const stones::StonePosition& as_stones() const { return std::get<stones::StonePosition>(v_); }
    stones::StonePosition& as_stones() { return std::get<stones::StonePosition>(v_); }
    bool is_stones() const { return v_.index() == 1; }
    const Variant& variant() const { return v_; }
    // Calls f with the family's position type, once: the way into compile-time code per family.
    template <class F>
    decltype(auto) visit(F&& f) const {
        return std::visit(std::forward<F>(f), v_);
    }
    template <class F>
    decltype(auto) visit(F&& f) {
        return std::visit(std::forward<F>(f), v_);
    }

    bool operator==(const AnyPosition& other) const;

private:
    Variant v_;
};

} // namespace gounki
