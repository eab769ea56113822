#pragma once
// The "LC4" position file of a 2014 Gounki programming course: one cell per line, 64 lines, in the
// order a1, b1, ..., h1, a2, ..., h8. A cell is two characters:
//   V0            an empty square
//   B<d> / N<d>   a White (Blanc) / Black (Noir) stack, the digit d saying which:
//                 1 square, 2 round, 3 two squares, 4 two rounds, 5 three squares,
//                 6 three rounds, 7 square+round, 8 two squares+round, 9 square+two rounds
// Some programs write header lines starting with '#' before the cells. The format holds no side to
// move: the reader takes it from the caller (White by default).
//
// The reader accepts what real files hold: CRLF line ends, blanks around a cell, blank lines at
// the end, a UTF-8 byte order mark, lowercase letters (v0, b3). It refuses, naming the line: a
// line that is not a cell, fewer or more than 64 cells, a blank line between cells, a colour with
// more than 8 rounds or 8 squares, an empty board (the checks of Position::from_text).

#include <string>
#include <string_view>
#include <variant>

#include "core/gounki/position.hpp"

namespace gounki {

// Where a position file is wrong: the 1-based line and a message.
struct PositionFileError {
    int line = 0;
    std::string message;
};

// Reads an LC4 position file; `side` is the side to move (the file does not say).
std::variant<Position, PositionFileError> position_from_lc4(std::string_view text, Color side = Color::white);
// Writes the 64 cells, uppercase, each followed by '\n'; no header line. The side to move is lost.
std::string position_to_lc4(const Position& pos);
// Content detection, cheap: the first line that is neither blank nor a '#' header is one cell.
// A one-line position text ("8/8/.../8 w") never looks like one. With `file_name`, a name ending
// in ".lc4" (any case) is enough, so that a file broken on its first cell gets the LC4 reader's
// message.
bool looks_like_lc4(std::string_view text, std::string_view file_name = {});

} // namespace gounki
