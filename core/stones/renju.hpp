#pragma once
// Renju's forbidden points (the RIF rules; docs/rules.md 2.5): where Black may not play.
//
// A Black stone on an empty point is forbidden when it makes, in the lines through that point:
//   - an overline: six or more black stones in a row;
//   - a double-four: two fours or more. A four is a line of stones that one more stone makes an
//     exact five (for Black, never six); a straight four (`_XXXX_`) has two such points but is one
//     four, while `X_XXX_X` completed in the middle is two fours in one line;
//   - a double-three: two threes or more, in two lines. A three is a line that one more stone, on an
//     empty point of that line, makes a straight four, where that point is not itself forbidden to
//     Black with the new stone on the board (the recursive definition; a line that is already a
//     four is not a three).
// A stone that makes an exact five is never forbidden: the five wins whatever else it makes.
//
// The recursion (is the point that makes the straight four forbidden?) is bounded: at depth
// renju_depth_limit, a three's straight-four point is taken as allowed when it makes no overline
// and no double-four, its own threes not examined. Each level adds a black stone on the line of a
// three, so real positions need two or three levels; the bound only keeps made-up boards cheap.

#include <cstdint>
#include <string_view>
#include <utility>
#include <vector>

namespace gounki::stones {

class StonePosition;

enum class Forbidden : std::uint8_t { none, double_three, double_four, overline };

// How many nested straight-four points the double-three test examines (the first point is 0).
constexpr int renju_depth_limit = 6;

// Why a black stone on the empty `point` of `pos` is forbidden under Renju's rules, whatever the
// position's game and side to move (Forbidden::none when it is allowed, or makes an exact five).
Forbidden renju_forbidden(const StonePosition& pos, int point);

std::string_view forbidden_name(Forbidden f);

// The points where Black may not play now, with why, in point order: in a Renju game going on with
// Black to move (what diagrams and the viewer mark); empty otherwise.
std::vector<std::pair<int, Forbidden>> forbidden_points(const StonePosition& pos);

} // namespace gounki::stones
