#pragma once
// The rules of the stone games: Gomoku, Gomoku Ninuki, Pente and Renju (docs/rules.md section 2).
//
// Points: core/stones/points.hpp. Rules and their options: core/stones/rules.hpp.
//
// Colours: the game's first mover (core/game.hpp) plays first. Results keep the record convention:
// "1-0" is a win for White.
//
// Ninuki decisions implemented exactly as docs/rules.md 2.2 says:
//   - capture: the placed stone and another stone of its colour enclose exactly two enemy stones in
//     any of the 8 directions; every such pair is taken, only by the placed stone;
//   - end-game capture (option): a five (or more) made by a move wins at once unless the opponent
//     has a legal reply that captures a pair and leaves no five of the mover's colour, or captures a
//     pair that brings their own count to ten. Otherwise the five is "pending": the opponent moves,
//     and if a five of the mover's colour still stands after that move, the mover wins. When that
//     reply itself wins (ten captures, or a five of the opponent's that wins at once), the reply's
//     win is decided first only for ten captures; a five of the opponent's made while the mover's
//     five still stands loses to the mover's five, which was there first;
//   - no double-three (option): a placement that creates free threes in two or more directions,
//     each containing the placed stone, is illegal, unless it captures a pair or wins at once.
//     A free three is a window of six points `_XXX__`, `__XXX_`, `_X_XX_` or `_XX_X_`.
//   - ten captured stones win at once (captures always count, whatever the options).
// Pente is Ninuki's captures with both options fixed off, White first, and the tournament rule
// (an option) which a record may break with a warning: breaks_tournament_rule, not check().
// Renju is Gomoku on 15x15 where Black wins with exactly five and may not play a forbidden point
// (double-three, double-four, overline: core/stones/renju.hpp); check() says which.

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "core/game.hpp"
#include "core/gounki/position.hpp" // PositionError
#include "core/stones/points.hpp"
#include "core/stones/rules.hpp"
#include "core/types.hpp"

namespace gounki::stones {

// Why a placement is not legal.
enum class PlaceError : std::uint8_t { none, off_board, occupied, double_three, game_over, double_four, overline };
std::string_view place_error_text(PlaceError e);
class StonePosition;
// "the point h8 is occupied by a black stone": what readers say of a stone played on another.
std::string occupied_text(const StonePosition& pos, int point);
// "the game is already over: Black made five" (or "...: the board is full") for a finished game.
std::string game_over_text(const StonePosition& pos);

// What play() changed, kept by the caller for undo().
struct StoneUndo {
    int point = no_point;
    std::array<std::int16_t, 16> captured{}; // points emptied by captures (8 directions x 2)
    int captured_count = 0;
    std::uint64_t key = 0;
    Outcome outcome = Outcome::none;
    std::uint8_t pending = 0;
};

class StonePosition {
public:
    // An empty board, the game's first mover (core/game.hpp) to move.
    explicit StonePosition(Rules rules = Rules{});

    // The one-line text format (docs/rules.md 2; README "Stone positions"):
    //   KIND SIZE BOARD SIDE [BLACK_CAPTURED WHITE_CAPTURED] [OPTIONS...]
    // e.g. "Gomoku 15 15/15/15/15/15/15/15/7x7/15/15/15/15/15/15/15 w" or
    //      "Ninuki 19 19/.../19 b 2 0 no-endgame-capture".
    // KIND is Gomoku or Ninuki (any case); BOARD lists the ranks from the top one down, separated by
    // '/', each with 'x' for a black stone, 'o' for a white one and a number for a run of empty
    // points; SIDE is 'b' or 'w' (who moves); the captured counts (stones taken by Black, by White)
    // come for Ninuki only; OPTIONS are words of the Rules tag. A pending five (end-game capture) is
    // written as a final word "pending-black" or "pending-white".
    static std::variant<StonePosition, PositionError> from_text(std::string_view text);
    std::string to_text() const;

    const Rules& rules() const { return rules_; }
    int size() const { return rules_.size; }
    bool on_board(int file, int rank) const { return file >= 0 && rank >= 0 && file < size() && rank < size(); }
    bool on_board(int point) const {
        return point >= 0 && point < point_count && point_file(point) < size() && point_rank(point) < size();
    }
    Stone at(int p) const { return board_[std::size_t(p)]; }
    Color side_to_move() const { return side_; }
    int captured(Color by) const { return captured_[index(by)]; } // stones taken by `by`
    int stone_count() const { return stones_; }
    std::uint64_t key() const { return key_; }
    Outcome outcome() const { return outcome_; }
    bool game_over() const { return outcome_ != Outcome::none; }
    // The colour whose five stands but may still be broken (end-game capture), if any.
    std::optional<Color> pending_five() const;

    // Why `move` cannot be played here (PlaceError::none when it can).
    PlaceError check(Move move) const;
    bool is_legal(Move move) const { return check(move) == PlaceError::none; }
    // Whether a stone of the side to move on `point` breaks the tournament rule (Rules::tournament_rule):
    // the first stone of an empty board off the centre, or the first mover's stone on a board of two
    // stones and no captures (their second stone) less than three points from the centre. A legal
    // move all the same (a record that breaks it gets a warning); the engine does not play it.
    bool breaks_tournament_rule(int point) const;
    // What a record's reader says of a move that breaks it (the `tournament-rule` warning).
    std::string_view tournament_rule_text() const;
    // Every legal move, in point order. Empty when the game is over.
    std::vector<Move> legal_moves() const;
    // Plays a legal move (the caller checked it); the outcome is updated.
    void play(Move move, StoneUndo& undo);
    void undo(const StoneUndo& undo);

    // Board editing for set-up and tests; keeps the key in step. Does not look for captures or fives.
    void put(int point, Stone s);
    void set_side_to_move(Color c);
    void set_captured(Color by, int count);
    // After editing: decides the outcome of the position as set up (ten captures, a five).
    void update_outcome();
    // The stones, side to move and captured counts (where `rules` has captures) of `pos` under
    // `rules`; on another board size, centred on it (stones off a smaller board are dropped). The
    // outcome is decided anew.
    static StonePosition transplanted(const StonePosition& pos, const Rules& rules);
    // The same position with every stone moved to where(point), a one-to-one map of the board's
    // points (stones::transformed, core/stones/symmetry.hpp); the side to move, the captured counts,
    // a pending five and the outcome as they were.
    template <class F>
    StonePosition moved_stones(F&& where) const {
        StonePosition out(*this);
        out.board_.fill(Stone::empty);
        for (int r = 0; r < size(); ++r)
            for (int f = 0; f < size(); ++f)
                if (const int p = make_point(f, r); board_[std::size_t(p)] != Stone::empty)
                    out.board_[std::size_t(where(p))] = board_[std::size_t(p)];
        out.key_ = out.compute_key();
        return out;
    }

    // Rule queries (also used by the engines).
    // Whether `c` has a winning line anywhere on the board: five in a row, or more where the rules
    // let an overline win (Rules::overline_wins).
    bool has_five(Color c) const;
    // Whether a winning line of `c` runs through `point` (the stone there, or to be put there: the
    // point itself counts as `c`'s).
    bool five_through(int point, Color c) const;
    // The points of the pairs a stone of `c` placed on the empty `point` would capture (0 in Gomoku).
    int captures_at(int point, Color c, std::array<std::int16_t, 16>& out) const;
    // How many free threes containing `point` a stone of `c` there would make (directions counted once).
    int free_threes_at(int point, Color c) const;

    std::uint64_t compute_key() const;
    bool operator==(const StonePosition& o) const {
        return rules_ == o.rules_ && board_ == o.board_ && side_ == o.side_ && captured_ == o.captured_ &&
            outcome_ == o.outcome_ && pending_ == o.pending_;
    }

private:
    void set(int p, Stone s);
    // f(point) for every point of the board holding `s`, in point order.
    template <class F>
    void for_each_stone(Stone s, F&& f) const;
    // After `mover` made a five: whether the opponent has a reply that breaks it (end-game capture).
    bool five_breakable(Color mover) const;
    // Whether the side to move surely has a point its forbidden shapes leave free, by counting alone.
    bool surely_has_allowed_point() const;
    // Whether a stone of the side to move on the empty `p`, capturing nothing, wins at once.
    bool wins_at_once(int p) const;
    // The outcome after `mover` played on `point` (stones and captures already updated).
    Outcome decide(Color mover, int point, bool captured_any);

    Rules rules_;
    std::array<Stone, point_count> board_{};
    Color side_ = Color::black;
    std::array<int, 2> captured_{0, 0};
    int stones_ = 0;
    int black_stones_ = 0; // of stones_
    std::uint64_t key_ = 0;
    Outcome outcome_ = Outcome::none;
    std::uint8_t pending_ = 0; // 0 none, 1 + index(Color) of the pending five's colour
};

// A position of any game, for commands that take --position: "Gomoku ..." and "Ninuki ..." texts
// are stone positions, anything else a Gounki position.
bool is_stone_position_text(std::string_view text);

} // namespace gounki::stones
