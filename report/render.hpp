#pragma once
// The report renderers: a ReportModel (report_model.hpp) in, one document out. They never touch
// files, the database or the engine; `gounki report` fills the model and writes the string.
//
// Verdict marks (docs/rules.md 1.8 suffixes and NAGs): blunder `??` ($4), mistake `?` ($2), inaccuracy
// `?!` ($6); an allowed loss is marked like a blunder (`??`), a missed win like a mistake (`?`), and
// both are told apart by their comment ("Allows a loss." / "Missed win.") and, in HTML and Markdown,
// by a badge and a colour of their own.

#include <string>
#include <vector>

#include "report/report_model.hpp"
#include "core/gounki/notation.hpp"

namespace gounki::report {

struct HtmlOptions {
    // Players, openings and a table of the games with their accuracy only (no game sections).
    bool summary = false;
    // An index of a split report: the summary, each game's row linking to the file given here
    // (one per game, in order).
    std::vector<std::string> game_links;
    // A link at the top of the page back to an index (a split report's game pages), when set.
    std::string back_link;
    // How many games come before this page's in the whole report (a split report's game pages are
    // numbered as in its index).
    std::size_t games_before = 0;
};

// One self-contained HTML5 file (UTF-8; inline CSS, SVG and one inline script; no external
// reference). Per game: tags, an interactive board (report/viewer.hpp: the final position for a
// reader without script; with it, a board that follows the move list, the evaluation graph, the
// keys, the variations and the engine's lines), the move list with marks and the record's NAGs,
// comments and variations, the evaluation graph (one point per ply: the expected result after it
// from White's side in Gounki, Black's in the stone games, move numbers along the bottom), a diagram
// at every flagged move (played move red, best move green), per-side summary. With more than one
// game: an index, per-player statistics and the opening table (report_model.hpp's kind_tables:
// per game kind, headed by the game's name when the games are of several kinds; the opening table
// grouped at 1-2 plies, its top rows shown).
std::string render_html(const ReportModel& model, const HtmlOptions& options = {});

// The same content in Markdown (CommonMark with pipe tables): boards as text diagrams in code
// blocks, the evaluation as a sparkline (one character per ply) in a code block; the tables over
// many games as in HTML.
std::string render_markdown(const ReportModel& model);

struct GpnOptions {
    bool comment_every_judged_move = true; // "(+0.3 -> +0.2)" on plain judged moves too
    bool variations = true; // the best line as a variation at each flagged or inaccurate move
    Notation notation = Notation::wikipedia; // of the moves (comments name moves canonically)
};

// Annotated records (docs/rules.md 1.8), written by parser/'s canonical writer: one game per
// GameReport, an [Annotator] tag, the record's own comments, NAGs and variations (nested as in the
// record) where they were, and beside them the engine's: the verdict as a suffix (`??` `?` `?!`:
// NAGs 4, 2, 6; after the record's own NAGs, unless it has that one), a comment per judged move
// (after the record's), the best line as a variation after the record's, opened by the comment
// engine_line_comment. Read back, it gives the same main line, and the record's variations as
// they were (the engine's line one more). A move of the model that does not replay cuts the
// game off there, with a comment saying so. Gomoku and Ninuki games the same way (the writer adds
// their Size and Rules tags; Black's moves are numbered "1.").
std::string render_annotated_gpn(const ReportModel& model, const GpnOptions& options = {});

} // namespace gounki::report
