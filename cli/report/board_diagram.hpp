#pragma once
// Board diagrams of any position: SVG (for files and HTML reports) and text (for Markdown and
// the terminal). Stacks read at a glance: rounds as circles above, squares as squares below,
// one shape per simple piece, white pieces light, black pieces dark.

#include <string>
#include <vector>

#include "core/position.hpp"

namespace gounki::report {

// Arrow colours by meaning: the move played, the engine's best move, or just a move.
enum class ArrowKind { move, played, best };

struct Arrow {
    Move move;
    ArrowKind kind = ArrowKind::move;
};

struct BoardStyle {
    std::vector<Arrow> arrows; // legal moves of the position drawn
    int cell = 56;             // pixels per square
    bool flip = false;         // Black's side at the bottom
    bool side_to_move = true;  // a line under the board saying who moves (or the result)
    bool standalone = true;    // an XML declaration and xmlns for a .svg file; off inside HTML
    std::string caption;       // optional text under the board (escaped)
};

// An SVG document (standalone) or element (inside HTML) of `pos` with `style.arrows`. Each arrow:
// a movement from origin to destination, a deployment as a path through its placed squares
// (a dot at each), an exit as an arrow off the far edge of the board.
std::string board_svg(const Position& pos, const BoardStyle& style = {});

// The text diagram: ranks 8..1 (1..8 flipped), 4 columns per square (`RRS`, `s`, `.`), file
// letters, then who moves (or the result), then one line per arrow (`Best: c2-d3`).
std::string board_text(const Position& pos, const std::vector<Arrow>& arrows = {}, bool flip = false);

// The stack as its letters, rounds first, lower case for Black: "RRS", "s"; "" when empty.
std::string stack_letters(Stack st);

} // namespace gounki::report
