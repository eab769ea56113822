#pragma once
// Board diagrams of any position: SVG (for files and HTML reports) and text (for Markdown and
// the terminal). Stacks read at a glance: rounds as circles above, squares as squares below,
// one shape per simple piece, white pieces light, black pieces dark.

#include <string>
#include <vector>

#include "core/gounki/position.hpp"
#include "core/stones/position.hpp"

namespace gounki::report {

// Arrow colours by meaning: the move played, the engine's best move, or just a move.
enum class ArrowKind { move, played, best };

struct Arrow {
    Move move;
    ArrowKind kind = ArrowKind::move;
};

struct BoardStyle {
    std::vector<Arrow> arrows; // legal moves of the position drawn
    int cell = 56; // pixels per square
    bool flip = false; // Black's side at the bottom
    bool side_to_move = true; // a line under the board saying who moves (or the result)
    bool standalone = true; // an XML declaration and xmlns for a .svg file; off inside HTML
    std::string caption; // optional text under the board (escaped)
};

// An SVG document (standalone) or element (inside HTML) of `pos` with `style.arrows`. Each arrow:
// a movement from origin to destination, a deployment as a path through its placed squares
// (a dot at each), an exit as an arrow off the far edge of the board.
std::string board_svg(const Position& pos, const BoardStyle& style = {});

// The text diagram: ranks 8..1 (1..8 flipped), 4 columns per square (`RRS`, `s`, `.`), file
// letters, then who moves (or the result), then one line per arrow (`Best: c2-d3`).
std::string board_text(const Position& pos, const std::vector<Arrow>& arrows = {}, bool flip = false);

// Who moves, or the result: "White to move", "Black has won", "Draw".
std::string outcome_text(Outcome outcome, Color to_move);

// The stack as its letters, rounds first, lower case for Black: "RRS", "s"; "" when empty.
std::string stack_letters(Stack st);

// ---------------------------------------------------------------------------------------------
// Stone games (Gomoku, Ninuki): stones on the intersections of a 15x15 or 19x19 grid.

struct StoneBoardStyle {
    // Points to mark, as Move::placement moves: a ring on the point, coloured by kind like the
    // arrows of Gounki (move blue, played red, best green), with a dot in it when it is empty.
    std::vector<Arrow> marks;
    int last_move = stones::no_point; // a stone to highlight (the move just played): a red dot on it
    int cell = 0; // pixels between lines; 0: 32 on 15x15, 26 on 19x19
    bool star_points = true; // the usual hoshi dots
    bool side_to_move = true; // a line under the board: who moves (or the result), captures
    // Renju with Black to move: a red cross on every point forbidden to Black (stones::forbidden_points).
    bool forbidden = true;
    bool standalone = true; // as BoardStyle::standalone
    std::string caption; // optional text under the board (escaped)
};

// An SVG of a stone position: grid, coordinates (files a.. under the board, ranks 1.. on the left,
// 1 at the bottom), one `<circle class="stone black|white" data-point="h8">` per stone, the marks,
// and a footer saying who moves (or the result) and, for Ninuki, the stones each side has taken.
std::string stone_board_svg(const stones::StonePosition& pos, const StoneBoardStyle& style = {});

// The text diagram: ranks from the top, each a rank number right-aligned in two columns, then per
// point a space and `x` (black), `o` (white) or `.` (empty), the last move's stone in capitals;
// file letters under the points; then who moves (or the result), "Captured: Black 2, White 0" for
// Ninuki, "Last: h8" and one line per mark ("Best: j9").
std::string stone_board_text(const stones::StonePosition& pos, const std::vector<Arrow>& marks = {},
                             int last_move = stones::no_point);

// The star points of a board size: the centre and the points four lines in from the edges
// (15x15: 5 points, 19x19: 9 points; 20x20, which has no centre: the 4 on the fourth lines).
std::vector<int> star_points(int size);

} // namespace gounki::report
