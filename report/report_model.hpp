#pragma once
// The data a report is made of: plain structs that whoever wires `gounki report` fills from the
// database and the judge, and that the renderers (render.hpp) only read. No database, no search,
// no Qt: a test builds one by hand. Moves and positions are held as values (core's Move and
// AnyPosition); a renderer writes their text once, with AnyPosition's move_text and to_text.
//
// Perspective: every score and expected result in a `Judgement` is from the side that played the
// ply (KataGo's habit: each number says whose view it is). The renderers turn them into White's
// view where a graph needs one.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/any_position.hpp"
#include "core/stones/renju_openings.hpp"
#include "core/types.hpp"
#include "core/verdict.hpp"

namespace gounki::report {

// What the judge says of a move (core/verdict.hpp): a report marks every verdict but `best` (a
// judged move that is fine); `book` is an opening move of the database's own tree, not judged (no
// scores: its expected results are 0.5).
using gounki::Verdict;

// "inaccuracy", "mistake", "blunder", "missed-win", "allows-loss", "book"; "" for best.
std::string_view verdict_name(Verdict v);
// "Inaccuracy", ..., "Missed win", "Allows a loss", "Book move": the word a comment starts with.
std::string_view verdict_label(Verdict v);
// The inverse of verdict_name; "" and "none" read as Verdict::best; unknown text gives nullopt.
std::optional<Verdict> parse_verdict(std::string_view text);
// The moves that get a diagram: blunder, mistake, missed win, allowed loss (not inaccuracies).
constexpr bool is_flagged(Verdict v) {
    return v == Verdict::blunder || v == Verdict::mistake || v == Verdict::missed_win || v == Verdict::allows_loss;
}

// A score from the mover's side: a heuristic value in pieces (the engine's centi-pieces / 100),
// or a proven result when win_in != 0 (analysis/score.hpp's win_in, counted from this ply:
// 1 = this very move wins, 3 = the mover's second move wins, -2 = the opponent's reply wins).
struct ScoreView {
    double pieces = 0;
    int win_in = 0;
};

struct Judgement {
    Move best_move; // the engine's choice (Move::none() when it gave none)
    ScoreView played; // the move played
    ScoreView best; // the best move
    double expected_before = 0.5; // expected result for the mover before the move, 0..1
    double expected_after = 0.5; // ... after the move played (still the mover's view)
    Verdict verdict = Verdict::best;
    std::vector<Move> best_line; // from the position before the ply, starting with best_move
    // False when the engine gave no evaluation to grade the move with (an external engine that
    // prints none, analysis::PlyJudgement::scored): the scores and expected results mean nothing
    // and the verdict is `best`; best_move still says which move the engine prefers. Such a ply
    // shows no score and counts in no side's summary.
    bool scored = true;
};

struct Variation;

// A move of a variation (a line the record gives as an alternative), with the position after it.
struct LineMove {
    Move move; // played from the position before it (the line's start, or the move before's `after`)
    Color side = Color::white;
    AnyPosition after;
    std::vector<int> nags; // the record's NAGs (1 !, 2 ?, 3 !!, 4 ??, 5 !?, 6 ?!, others $n)
    std::vector<std::string> comments; // the record's comments after the move
    std::vector<Variation> variations; // the record's alternatives to this move, nested at any depth
};

// A variation of the record: an alternative to the ply (or variation move) it hangs on, from the
// position before it.
struct Variation {
    std::vector<std::string> comments; // before its first move
    std::vector<LineMove> moves;
};

struct Ply {
    Move move; // a legal move of `before`
    AnyPosition before; // the position it is played from (the position after it: the next ply's)
    std::optional<Judgement> judgement; // nullopt when the ply was not analysed
    // What the record says of the move (the players' or the annotator's own, beside the engine's).
    std::vector<int> nags;
    std::vector<std::string> comments;
    std::vector<Variation> variations;

    Color side() const { return before.side_to_move(); } // who played it
};

struct Tag {
    std::string name;
    std::string value;
};

// Per side of one game. Counts are filled by summarize_side; accuracy comes from the judge.
struct SideSummary {
    int judged = 0; // book moves and ungraded ones not counted
    int book = 0;
    int ungraded = 0; // judged by an engine that gave no evaluation to grade them with
    int inaccuracies = 0;
    int mistakes = 0;
    int blunders = 0;
    int missed_wins = 0;
    int allowed_losses = 0;
    std::optional<double> accuracy; // percent, 0..100
};

struct GameReport {
    GameKind kind = GameKind::gounki; // Gomoku and Ninuki: stone positions, Black moves first
    std::string id; // database id or any label; shown and used for anchors when set
    // This game's [Annotator] (the engine and settings of its judgement); empty: the report's.
    std::string annotator;
    std::string event;
    std::string date;
    std::string white;
    std::string black;
    std::string result = "*"; // "1-0", "0-1", "1/2-1/2" or "*"
    std::vector<Tag> other_tags; // shown and written as they are (not Game/SetUp/Position)
    std::optional<AnyPosition> start; // nullopt means the start position of `kind` (a stone game:
        // an empty board with the default rules of its kind)
    std::vector<std::string> comments; // the record's comments before the first move
    std::vector<Ply> plies;
    SideSummary summary[2]; // index(Color)
    // A broken game (the record parser's statuses): "partial" (the moves stop at an error: plies
    // holds those before it) or "invalid" (errors, the moves whole); empty for a valid game. The
    // renderers mark it, and the statistics over many games leave it out.
    std::string status;
    std::vector<std::string> problems; // its errors, as "message [code]"
    bool broken() const { return !status.empty(); }
};

// Per player over all games of a report.
struct PlayerStats {
    std::string name;
    int games = 0;
    // [colour][0 wins, 1 draws, 2 losses, 3 unfinished], colour = index(Color)
    int results[2][4] = {{0, 0, 0, 0}, {0, 0, 0, 0}};
    std::optional<double> average_accuracy; // over the games with an accuracy
};

// The games that start with `moves` (the first N plies) from the start position `start`.
struct OpeningLine {
    std::string name; // a named opening's label ("Kagetsu (4D)"), else empty
    std::vector<std::string> moves;
    std::string start; // the start position's text (games of one kind may differ in size or rules)
    std::string variant; // a stone game's board and rules when not the defaults ("15x15", "19x19,
        // RULES"); empty for Gounki
    int games = 0;
    int white_wins = 0;
    int black_wins = 0;
    int draws = 0;
    int unfinished = 0;
};

// A first move (ply 1) of the opening table with its most played replies (the first two plies).
struct OpeningGroup {
    OpeningLine first; // one move
    std::vector<OpeningLine> replies; // two moves each, the first being first's; most played first
    int more_replies = 0; // the replies left out of `replies`
    int more_reply_games = 0; // ... and their games
};

// An opening table grouped at 1-2 plies: the most played first moves, each with its top replies.
struct OpeningGroups {
    std::vector<OpeningGroup> groups; // most played first
    int games = 0; // the games counted (long enough, from the start position, not broken)
    int more_openings = 0; // the first moves left out of `groups`
    int more_games = 0; // ... and their games
    bool several_variants = false; // the games are of more than one board size or set of rules
};

// The statistics of one game kind over the games of a report: a Gounki player's results are not
// mixed with their Gomoku results.
struct KindTables {
    GameKind kind = GameKind::gounki;
    std::vector<std::size_t> games; // indices into the report's games, in order
    std::vector<PlayerStats> players;
    OpeningGroups openings;
    // Renju: the games by their named opening (renju_opening), most played first; `name` is the
    // opening's label, `moves` empty. Empty for the other games.
    std::vector<OpeningLine> named_openings;
    int broken = 0; // broken games of this kind (left out of players and openings)
};

struct ReportModel {
    std::string title = "Gounki game report";
    std::string annotator = "gounki"; // e.g. "gounki 0.1.0 (depth 10)": the [Annotator] tag
    std::vector<GameReport> games;
    // Over many games, per game kind: the opening table shows the `opening_rows` most played first
    // moves, each with its `opening_replies` most played replies.
    int opening_rows = 10;
    int opening_replies = 3;
};

// The Renju opening a game's first three stones make (core/stones/renju_openings.hpp), from the
// empty board; nullptr for other games, shorter ones and other shapes.
const stones::RenjuOpening* renju_opening(const GameReport& game);
// The games (not broken) by their Renju opening, most played first.
std::vector<OpeningLine> named_openings(const std::vector<const GameReport*>& games);

// Counts the verdicts of one side's judged moves; keeps the accuracy already in `game`.
SideSummary summarize_side(const GameReport& game, Color side);
// Fills game.summary[] counts for both sides (accuracy kept).
void summarize(GameReport& game);
// Per-player statistics, sorted by games played (most first), then name. Broken games (partial or
// invalid) are left out, as in opening_table: their results and accuracy do not count. Games of
// different kinds are counted together: kind_tables keeps them apart.
std::vector<PlayerStats> player_statistics(const std::vector<GameReport>& games);
std::vector<PlayerStats> player_statistics(const std::vector<const GameReport*>& games);
// Games grouped by their start and first `plies` plies (games shorter than that, games from a
// set-up position and broken games are left out), most frequent first (then by start and moves).
std::vector<OpeningLine> opening_table(const std::vector<GameReport>& games, int plies);
std::vector<OpeningLine> opening_table(const std::vector<const GameReport*>& games, int plies);
// The opening table grouped at 1-2 plies: the `rows` most played first moves (games of at least
// two plies from the start position, not broken), each with its `replies` most played replies;
// what is left out is counted.
OpeningGroups opening_groups(const std::vector<const GameReport*>& games, int rows, int replies);
// The statistics per game kind, in GameKind order (Gounki, Gomoku, Ninuki, Pente, Renju), one
// entry per kind present.
std::vector<KindTables> kind_tables(const std::vector<GameReport>& games, int rows, int replies);
// How many of the games are broken (left out of the statistics).
int broken_games(const std::vector<GameReport>& games);

} // namespace gounki::report
