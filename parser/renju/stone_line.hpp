#pragma once
// One line of stone moves replayed into a GameRecord: what the RenjuNet and RenLib readers share
// (renjunet.hpp, renlib.hpp). Each move carries where it was written (a line and column of a text
// file, or a byte offset of a binary one) so that its diagnostic points at it.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/stones/position.hpp"
#include "parser/record.hpp"

namespace gounki::parser {

struct StoneLineMove {
    int point = stones::no_point; // no_point: not a point of the board (the reader's `why` says why)
    std::string written; // as written ("h8"), or the point's name
    int line = 0, column = 0; // text files
    std::int64_t byte = -1; // binary files: the offset of the move's record
    std::string why; // when point is no_point: why the text is no move
    std::vector<std::string> comments; // comments after the move
};

// A diagnostic of `game` at `where` (line and column, or "at byte N" in the message).
Diagnostic& add_line_diagnostic(GameRecord& game, Severity severity, std::string code, const StoneLineMove& where,
                                std::string message);

// Plays the move `m` from `pos` onto the end of `line` (a line of `game`: its main line or a
// variation), `ply` the plies played before it in the game: true and `pos` after it, or an error
// of `game` at `m` (an unreadable point, an occupied or forbidden point, a move after the end) and
// false. `end`: whether `m` ends the main line, and of a record whose result is White's win; then
// Black's stone on a forbidden point in Renju is the foul that lost the game (five_rules.hpp,
// foul_ending): the warning `foul`, the stone left out, true. At the end of a record with another
// result such a stone stays an error, which says how to have it read as the foul.
enum class LineEnd { no, last, last_white_won };
bool play_stone_move(GameRecord& game, Line& line, const StoneLineMove& m, stones::StonePosition& pos, int ply,
                     LineEnd end = LineEnd::no);

// Plays `moves` from `game.start.as_stones()` into `game.main`. An unreadable point, an occupied or
// forbidden point or a move after the end is an error there and the line stops (false: the game
// is partial); but a Renju game that `stated` (its result in colours) gives White may end with
// Black's foul. `pos` ends as the position after the last move played.
bool replay_stone_line(GameRecord& game, const std::vector<StoneLineMove>& moves, stones::StonePosition& pos,
                       std::string_view stated = "*");

// The result a stone game's record states, checked against the board: a five or a full board that
// says otherwise is result-contradicts at `where`; "*" takes the board's result when it has one.
void settle_stone_result(GameRecord& game, const stones::StonePosition& pos, const std::string& stated,
                         const StoneLineMove& where);

} // namespace gounki::parser
