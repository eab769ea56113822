#pragma once
// Partial positions of the stone games (Gomoku, Gomoku Ninuki) for `gounki search --pattern`:
// per-point conditions, the side to move and counts of stones, all of which must hold in one
// position of a game. The Gounki patterns are db/pattern/gounki.hpp; this file shares only PatternError.
//
// Syntax. The first word is the game, Gomoku or Ninuki (any case; required). Then terms separated
// by spaces or ';':
//
//   board     15 or 19 ranks separated by '/', top rank first, as in the stone position format of
//             core/stones/position.hpp (so a position's board text is a pattern for that exact board). The
//             number of ranks is the board size, and every rank has that many cells:
//               x  o        a black stone, a white stone (X O also read)
//               .           an empty point
//               1..19       that many empty points
//               ?           anything, empty or not
//               *           any stone
//             At most one board per pattern.
//   PT=CELL   one point, e.g. h8=x  j10=.  k11=*  (CELL one of x o . ? *). Points are named as in
//             the records (a1 bottom left); a point off the pattern's board is an error (without a
//             board: off the 19x19 board). A point term replaces what the board says of its point,
//             wherever the board stands; two terms that ask different cells of one point are
//             an error (no position has both).
//   b  w      the side to move
//   COUNT OP N  OP one of >= <= = > <, N from 0 to 400, COUNT one of
//               Bc Wc      stones captured by Black, by White (Ninuki only: Gomoku has no captures)
//               Bs Ws      black stones, white stones on the board
//
// Sizes: a pattern with a board matches positions of that size only. A pattern without a board
// matches both sizes; a point off a 15x15 board (file p..s or rank 16..19) is then never a stone
// and never empty, so `x`, `o`, `*` and `.` there never match a 15x15 position (`?` does).
// The game word matters too: a Gomoku pattern never matches a Ninuki position and vice versa.
//
// Examples:  "Gomoku h8=x i9=x j10=x b"   "ninuki Bc>=8 Wc<=2"
//            "Gomoku 15/15/15/15/15/15/15/7x7/15/15/15/15/15/15/15 w"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "core/stones/position.hpp"
#include "core/types.hpp"
#include "db/pattern/gounki.hpp" // PatternError

namespace gounki::db {

// What a pattern allows on one point.
enum class StoneCell : std::uint8_t { any, empty, black, white, stone };
char stone_cell_char(StoneCell c); // '?' '.' 'x' 'o' '*'

struct StoneCountTerm {
    enum class Count : std::uint8_t { black_captured, white_captured, black_stones, white_stones };
    using Op = CountOp;
    Count count = Count::black_captured;
    Op op = Op::ge;
    int value = 0;

    bool holds(int n) const;
    // Whether a count of n, or any larger one, fails the term (the term has an upper bound below n).
    bool exceeded(int n) const;
    std::string text() const; // "Bc<=4"
};

class StonePattern {
public:
    static std::variant<StonePattern, PatternError> parse(std::string_view text);

    GameKind kind() const { return kind_; }
    // The board size, when the pattern has a board.
    std::optional<int> size() const { return size_; }
    std::optional<Color> side() const { return side_; }
    StoneCell cell(int point) const { return cells_[std::size_t(point)]; }
    const std::vector<StoneCountTerm>& terms() const { return terms_; }

    bool matches(const stones::StonePosition& pos) const { return matches(pos, 0); }
    // Whether the pattern turned by `symmetry` (core/stones/symmetry.hpp) about the centre of the
    // position's board matches: what `search --pattern --symmetric` asks of each of the eight.
    bool matches(const stones::StonePosition& pos, int symmetry) const;
    // False when no later position of the same game can match. Captured counts only go up, so an
    // upper bound on Bc or Wc fails for good once exceeded; in Gomoku stones also never leave the
    // board, so a point that must be empty (or of the other colour) once taken, and an upper bound
    // on Bs or Ws once exceeded, fail for good too. In Ninuki stones are captured, so stone counts
    // and points never prune there. A position of another game or size is never reachable either.
    bool reachable(const stones::StonePosition& pos) const { return reachable(pos, 0); }
    bool reachable(const stones::StonePosition& pos, int symmetry) const; // the pattern turned, as matches
    // Whether reachable() can say no for a position of the pattern's game and size (for another
    // game or size it always says no, as matches() does).
    bool prunes() const { return prunes_; }
    // The canonical text of the pattern: the game, the board (when one was given; otherwise the
    // point terms, top rank first), the side, the counts in the order given.
    std::string text() const;

private:
    void finish();
    int count_of(StoneCountTerm::Count c, const stones::StonePosition& pos, int& black_stones) const;

    // One point to look at: bit (1 << Stone) of `allowed` is set for every stone allowed there.
    struct Check {
        std::int16_t point;
        std::uint8_t allowed;
    };

    GameKind kind_ = GameKind::gomoku;
    std::optional<int> size_;
    std::array<StoneCell, stones::point_count> cells_{};
    std::optional<Color> side_;
    std::vector<StoneCountTerm> terms_;

    // Filled by finish(): the points with a condition, the stones first (they fail soonest, early
    // in a game); the fewest stones a matching board has; the size a position needs to hold every
    // point with a condition (1 + the largest file or rank among them).
    std::vector<Check> checks_;
    int min_stones_ = 0;
    int extent_ = 0;
    bool prunes_ = false;
};

} // namespace gounki::db
