#pragma once
// Small text helpers shared by the renderers: escaping, numbers, scores, move numbers, the
// wording of a judged move. Internal to report/ (render.hpp is the public face).

#include <string>
#include <string_view>
#include <vector>

#include "report/board_diagram.hpp"
#include "report/report_model.hpp"
#include "core/any_position.hpp"

namespace gounki::report {

// Text for HTML/SVG element content and attribute values (both quote kinds escaped).
std::string xml_escape(std::string_view text);

// A number with at most `decimals` decimals, no trailing zeros: 12, 12.5, -0.3.
std::string format_number(double value, int decimals = 1);

// "+1.2", "-3.4", "0.0"; proven results "+#3" (the mover's winning move 3 plies ahead) and "-#2".
std::string format_score(const ScoreView& score);

// The text of a move of `before` (AnyPosition::move_text: Gounki's canonical notation, a stone
// game's point name); "" for Move::none().
std::string move_text(const AnyPosition& before, Move m);
// The text of a ply's move.
std::string move_text(const Ply& p);
// The positions after each move of `moves` played from `before`, as far as they are legal.
std::vector<AnyPosition> line_positions(AnyPosition before, const std::vector<Move>& moves);
// The texts of the moves of `moves` played from `before`, as far as they are legal.
std::vector<std::string> line_texts(const AnyPosition& before, const std::vector<Move>& moves);

// "(+1.2 -> -3.4) Blunder. d4*e5,f6 was best." for a flagged or inaccurate move,
// "(+0.3 -> +0.2)" for a plain judged move, "Book move, not judged." for a book move, and for a move
// an engine gave no evaluation to grade (Judgement::scored false) "Engine prefers l8 (no
// evaluation to grade the move with)." or, when `played` is the engine's move, "Engine's move (no
// evaluation to grade the move with).". Scores: best -> played, from the mover's side. `before`:
// the position the judged move `played` was played from.
std::string judgement_comment(const Judgement& j, const AnyPosition& before, Move played);
// The same for a judged ply.
std::string judgement_comment(const Ply& p);
// "Engine's best line": the comment that opens the engine's best line in an annotated record,
// telling it from the record's own variations beside it (the Annotator tag names the engine).
std::string engine_line_comment();

// The suffix of docs/rules.md 1.8 for a verdict: "??" blunder and allowed loss, "?" mistake and missed
// win, "?!" inaccuracy, "" none and book. Missed win and allowed loss are told apart from plain mistakes and
// blunders by their comment, and in HTML/Markdown by a badge (verdict_badge).
std::string_view verdict_suffix(Verdict v);
// The NAG of the suffix: 4, 2, 6; 0 for none.
int verdict_nag(Verdict v);
// "missed win", "allows loss", "book"; "" for the other verdicts (their suffix says it all).
std::string_view verdict_badge(Verdict v);
// The rows of a game's summary table, one per side in named_order: the player ("?" when unknown),
// the colour ("White", "Black"), the judged moves, inaccuracies, mistakes, blunders, missed wins
// and allowed losses, and the accuracy ("77.3%"; "\u2013" when there is none). Plain text.
std::vector<std::vector<std::string>> summary_rows(const GameReport& game);
// Under a game's summary table: "The first 6 plies are book moves (played in many games of the
// database), not judged." ("The first ply is ..." for one); "" without book moves.
std::string book_note(const GameReport& game);
// Under it: "9 moves not graded: the engine gave no evaluation to grade them with." ("1 move ... it
// with"); "" when every judged move is graded.
std::string ungraded_note(const GameReport& game);

// White's expected result after each ply (0..1), from the movers' expected_after. A ply without a
// judgement, or not graded, keeps the value before it (0.5 at the start), except a last ply of a
// decided game, which takes the result.
std::vector<double> white_curve(const GameReport& game);

// Stone games (Gomoku, Ninuki) have stone positions and Black moving first.
bool is_stone_game(const GameReport& game);
// Who makes the first move: White in Gounki, Black in the stone games.
Color first_mover(const GameReport& game);

// Move numbers: ply i of a game is move `move_number(game, i)`; "12." for the first mover's moves
// (White in Gounki, Black in the stone games), "12..." for the other side's.
int move_number(const GameReport& game, std::size_t ply);
std::string move_number_text(const GameReport& game, std::size_t ply);
// Whether a move list writes ply i's number: the first ply, every first mover's move, and a second
// mover's move after the record's comment or variation on the ply before (`3... e5`, as PGN does).
bool numbered(const GameReport& game, std::size_t ply);

// "1. c2-d3 f7-e6 2. ...": the moves of an opening line with their numbers.
std::string opening_text(const OpeningLine& line);
// The heading of the table of Renju games by their named opening (KindTables::named_openings).
inline constexpr const char* named_openings_heading = "Renju openings (the first three stones, in any turn or mirror image)";
// The same, followed by the board ("1. h8 (19x19)") when the table mixes board sizes or rules.
std::string opening_text(const OpeningLine& line, const OpeningGroups& table);

// A broken game's mark: "Partial game: the moves stop at an error: MESSAGE [code]" or "Invalid
// game: MESSAGE [code]" (errors joined by "; "); empty for a valid game.
std::string broken_note(const GameReport& game);
// The note under the statistics of many games when some are broken: "2 broken games (partial or
// invalid) are left out of these tables."; empty when none is.
std::string left_out_note(const std::vector<GameReport>& games);
std::string left_out_note(int broken);

// The heading of a table over many games: `what` ("Players") alone, or after the game's name
// ("Gomoku: players") when the report mixes game kinds.
std::string kind_heading(std::string_view what, GameKind kind, bool mixed);
// A share of a count: "3 (38%)", "1 (<1%)", "199 (>99%)"; "0" when there is none.
std::string count_share(int count, int total);
// The lines under an opening table: how it is grouped, and what is left out ("4 more openings
// (first moves) in 6 games."; empty when none is).
std::string openings_legend(const OpeningGroups& table, int rows, int replies);
std::string more_openings_note(const OpeningGroups& table);
std::string more_replies_note(const OpeningGroup& group);
// The order of the colours in the results' columns: the first mover first (Black in Gomoku,
// Ninuki and Renju, White in Gounki and Pente).
std::vector<Color> result_columns(GameKind kind);
int wins_of(const OpeningLine& line, Color side);

// "White – Black" with "?" for unknown names.
std::string players_line(const GameReport& game);
// The players as the game's convention names them, the first mover first: "White – Black" in
// Gounki and Pente, "Black – White" in Gomoku, Ninuki and Renju (Black moves first there).
std::string players_text(const GameReport& game);
// The result as the game's convention writes it: "1-0", "0-1", "1/2-1/2" in Gounki; "B+", "W+",
// "Draw" in the stone games; "*" for none.
std::string result_text(const GameReport& game);
// The colours in the order the game's convention names them, the first mover's first (White in
// Gounki and Pente, Black in Gomoku, Ninuki and Renju), for tables with a row or column per side.
std::vector<Color> named_order(const GameReport& game);
// The start position text, canonical: of game.start or the standard start (a stone game: an empty
// board with the default rules of its kind).
std::string start_position_text(const GameReport& game);
// Gounki: the standard start; a stone game: an empty board with Black to move, whatever its size
// and options.
bool starts_from_standard_position(const GameReport& game);
// The rows of a game's tags table, in order (those with an empty value are left out by the
// renderers): Event, Date, White, Black ("?" when unknown; Black first in the stone games), Result
// (result_text), the other tags, then
// stone_rule_tags. The start position is each renderer's own (a code span, a cell).
std::vector<Tag> shown_tags(const GameReport& game);
// What a tags table shows of a stone game's rules: Game (Gomoku, Ninuki), Size, and Rules when the
// options are not the defaults; nothing for Gounki.
std::vector<Tag> stone_rule_tags(const GameReport& game);
// The game's start position: game.start, or the start of its kind.
AnyPosition start_position(const GameReport& game);

// The arrows (Gounki) or marks (stone games) of a ply's diagram: the move played, then the best
// move, each only when it is a legal move of the position before the ply.
std::vector<Arrow> ply_arrows(const Ply& p);

// The diagram of the position before ply `ply` of `game` (ply < plies.size()), whatever the game:
// an SVG element (not standalone; Gounki: board cells of `cell` pixels) or a text diagram. A stone
// game's diagram also highlights the stone of the ply before.
std::string ply_diagram_svg(const GameReport& game, std::size_t ply, int cell);
std::string ply_diagram_text(const GameReport& game, std::size_t ply);

} // namespace gounki::report
