#pragma once
// The interactive board of an HTML report: per game, the positions of every ply as data (JSON in a
// `<script type="application/json">` block) and one small inline script that draws the current
// board as SVG and steps through the game, its variations and the engine's best lines. Without
// the script the page shows the final position drawn here; the script only adds. render_html
// uses it; a page of its own (a server's game page) can hold one game's viewer_html, inside a
// `<section class="game" id="ANCHOR">` (with the move list and graph of render_html, when it has
// them), viewer_css in its style and viewer_script once at the end; the tests read viewer_json.
//
// The data of a game (cells are indexed file + size * rank, a1 = 0):
//   {"kind":"Gounki","size":8,"fixed":"White","start":{"d":[[cell,"value"],...],"st":"White to move",
//    "pieces":32,"c":["the record's comments before the first move"]},"plies":[STEP...]}
//   STEP: {"m":"c2-d3","no":"1.","d":[[cell,"value"],...] (the cells the move changed, "" when
//          emptied),"last":[cells of the move],"st":"Black to move","pieces":N,
//          "eval":"White +0.4 (56%)","v":"blunder","mark":"??","eng":"engine's comment",
//          "nag":"!?","c":["the record's comments"],
//          "lines":[{"name":"Variation 1"|"Engine's best line","c":[...],"moves":[STEP...]}]}
//   A cell's value: Gounki the stack's letters ("RRS", "s"); a stone "b" or "w", followed by the
//   number of the ply that placed it ("b12") when the game placed it. A line's moves start from
//   the position before the ply they hang on.

#include <string>
#include <vector>

#include "report/report_model.hpp"

namespace gounki::report {

// The positions of a game: [0] the start, [i] the position after ply i (the position before ply
// i + 1; after the last ply, its move played: left out when it is not legal there).
std::vector<AnyPosition> game_positions(const GameReport& game);

// The board as cells (file + size * rank): Gounki a stack's letters, stones "b" or "w"; "" empty.
std::vector<std::string> board_cells(const AnyPosition& pos);

// The viewer's data of one game (the shape above), with '<' written as \u003c so that it can sit
// in a script block.
std::string viewer_json(const GameReport& game);

// The viewer of one game: a box holding the final position (drawn for readers without script)
// and the data block. `anchor` is the game section's id (its move list's plies are anchor-pN).
std::string viewer_html(const GameReport& game, const std::string& anchor);

// The viewer's style and its script (one `<script>` element, once per page).
std::string_view viewer_css();
std::string viewer_script();

// "!", "?", "!!", "??", "!?", "?!" for NAGs 1-6, "$n" for the others.
std::string nag_text(int nag);

} // namespace gounki::report
