#pragma once
// Game records (docs/rules.md 1.8): what a game read from a record file is once its moves are replayed
// through core, and how problems with it are reported.
//
// The library in three headers:
//   record.hpp  GameRecord (tags, start position, the move tree, result, status, diagnostics) and
//               Diagnostic (severity, stable code, file:line:column, game, move, legal moves...).
//   reader.hpp  RecordReader: reads a file or stream game by game in bounded memory;
//               next() replays a game, skip() passes over one without replaying it.
//               read_records() for a whole text in memory.
//   writer.hpp  write_record(): the canonical text of a game; parse, write, parse gives it back.
//
// Reading goes in two steps, syntax then rules: the X3 grammar (grammar.hpp, syntax.hpp) turns text
// into a syntax tree of written moves (MoveSpec); resolve.hpp replays that tree through core
// (resolve_move) and builds the GameRecord.
//
// Places: lines and columns are 1-based; a column counts characters, not bytes, and a tab counts as
// one; a line ends at '\n' ('\r\n' is one line end).

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/any_position.hpp"
#include "core/types.hpp"

namespace gounki::parser {

enum class Severity : std::uint8_t { warning, error };

// One finding, as a value. `code` is stable (scripts and tests match on it); `message` is for
// people. Codes:
//   errors:   illegal-move, ambiguous-move, move-after-end, bad-move (unreadable movetext), unterminated-comment,
//             unterminated-variation, unmatched-paren, unterminated-tag, bad-tag, too-deep, syntax,
//             result-contradicts, result-mismatch, bad-position, missing-position, bad-rules, unsupported-game,
//             unknown-game, game-too-large, io-error, binary-file (UTF-16/32 text or NUL bytes: the file is
//             not read)
//   warnings: no-game (a file without any game), plus-without-join, join-without-plus, dash-on-capture, x-without-capture,
//             deploy-exit-as-deploy, wrong-move-number, no-result, result-incomplete, bad-result-tag,
//             bad-escape, bad-nag, misplaced-annotation, misplaced-variation, empty-variation,
//             duplicate-tag, missing-setup, not-utf8, unknown-charset and bad-charset (SGF CA),
//             wrong-deploy-order (LC4), ambiguous-exit (LC4 `g8#`
//             where the stack could leave in several ways: read as the exit of the whole stack),
//             typographic (a typographic or Unicode character read as the ASCII one it stands for),
//             placeholder (`-` alone: a table's empty cell), swap2-choice (a second swap2 colour choice),
//             SGF only (parser/sgf/sgf.hpp): missing-game (no GM property: read as Gomoku), setup-ignored
//             (AB/AW after the first node), wrong-game-number (GM other than 4 on a five-in-a-row
//             game: read as 4), unknown-property (a property gounki does not read, left out), bad-alt
//             (5A, as RenjuNet's), text-outside-game (prose outside the game trees, passed over);
//             `syntax` there also names text outside the game trees that holds a property, or a
//             file of text with no game tree
struct Diagnostic {
    Severity severity = Severity::error;
    std::string code;
    std::string message;
    std::string file;
    int line = 0; // 0: not tied to a place
    int column = 0;
    int game = 0; // 1-based number of the game in its file; 0: about the file
    int move_number = 0; // 0: not about a move
    Color side = Color::white; // who plays that move (when move_number > 0)
    std::string written; // the text as written (the move, the tag...)
    std::vector<std::string> legal_moves; // illegal move: the legal moves of that stack, canonical
    std::string suggestion; // the nearest legal move when the intent is obvious, else empty
    // The reader left out something the record holds (a property it does not read, set-up stones
    // inside a game, variations with no move to hang on): a record written from the GameRecord would
    // lose it, so `gounki format` keeps such a game as written.
    bool left_out = false;
};

// "file:line:col: error: message [code]" (place parts left out when unknown).
std::string format_diagnostic(const Diagnostic& d);
// `text` with control characters shown as escapes (\x1b, \u0085), for a terminal; with
// `keep_lines`, line ends and tabs stay as they are (a table or a record shown).
std::string escape_controls(std::string_view text, bool keep_lines = false);
std::string_view severity_name(Severity s);

// ---------------------------------------------------------------------------------------------
// The move tree. A Line is a sequence of plies; each ply can carry alternatives (variations), each
// a Line starting from the position before that ply, as `( ... )` after a move in the text.

struct Line;

struct Ply {
    // Not an aggregate: a new Ply is built member by member, not zero-filled whole first (the
    // reader makes one per move read, and the fill was a measurable part of reading).
    // (Defined after Line, which a Ply's members need complete.)
    Ply();
    explicit Ply(Move m, std::string as_written = {});

    Move move;
    std::string written; // as written in the file; empty for plies made by code
    std::vector<std::uint8_t> nags; // suffixes as NAGs (! 1, ? 2, !! 3, ?? 4, !? 5, ?! 6) and $n, in order
    std::vector<std::string> comments; // comments after the move, trimmed
    std::vector<Line> variations; // alternatives to this ply
};

struct Line {
    std::vector<std::string> comments; // comments before the first ply
    std::vector<Ply> plies;
};

inline Ply::Ply() {}
inline Ply::Ply(Move m, std::string as_written) : move(m), written(std::move(as_written)) {}

enum class GameStatus : std::uint8_t {
    valid, // no error (there may be warnings)
    invalid, // errors that left every move of the main line in place (a bad tag, a contradicting
    // result, an illegal move inside a variation...)
    partial, // the main line stops at an error: it holds the moves before it, never one after
};

std::string_view status_name(GameStatus s);
// Whether a Status tag's value is export's mark of a game's status ("partial", "invalid", "valid",
// any case: docs/rules.md 1.8); any other value is an ordinary tag.
bool is_status_mark(std::string_view value);

struct GameRecord {
    GameKind kind = GameKind::gounki; // from the Game tag
    Notation notation = Notation::wikipedia; // what the moves were written in (Gounki)
    std::vector<std::pair<std::string, std::string>> tags; // every tag pair in file order, unescaped
    // Where the game starts, in its family's position: Gounki's from SetUp/Position, else the
    // start; a stone game's rules from the Game, Size and Rules tags and its board from a Position
    // tag, else empty (its plies hold Move::placement moves). Always of the game's kind.
    AnyPosition start;
    int first_number = 1; // the number of the first move: a set-up game may go on from move 12
    Line main;
    std::string result = "*"; // "1-0", "0-1", "1/2-1/2" or "*": the termination marker as written,
        // else the Result tag, else "*"
    bool result_written = false; // the movetext ended with a termination marker
    GameStatus status = GameStatus::valid;
    std::vector<Diagnostic> diagnostics; // in the order of the text
    std::string file; // where the game was read from ("-" for standard input)
    int line = 0; // line of its first tag pair or move
    int column = 0; // and its column (1-based; 0: the line's start)
    int number = 0; // 1-based number of the game in its file
    // What the reader passed over without a word because gounki keeps no such thing (SGF's markup,
    // timing, node names: docs/rules.md 4.1), as the property names ("LB N BL"): a record written
    // from the GameRecord would lose it, so `gounki format` keeps such a game as written.
    std::string passed_over;

    // The value of the first tag `name` (exact case), or nullptr.
    const std::string* tag(std::string_view name) const;
    // The position after the last ply of the main line (Gounki games).
    Position final_position() const;
    // The same for a stone game.
    stones::StonePosition final_stone_position() const;
    bool is_stone_game() const { return gounki::is_stone_game(kind); }
    // Sets kind and start from `pos`.
    void set_start(const AnyPosition& pos);
    // Sets kind and start to the kind's standard start (default rules): kind and start always
    // name the same game, so code that knows the kind may take the family's start.
    void set_kind(GameKind k) { set_start(AnyPosition::start(k)); }
    std::size_t error_count() const;
    void clear();
};

} // namespace gounki::parser
