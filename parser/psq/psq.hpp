#pragma once
// Piskvork PSQ files: one Gomoku game per file, what the Piskvork manager and Gomocup write
// (docs/rules.md 4.2).
//
//   Piskvorky 15x15, 11:11, 0      header: the board (square), then what the manager noted
//   8,8,0                          a move per line: x,y,milliseconds; x from 1 on the left, y from 1
//   9,9,1250                       at the TOP (rank = size - y + 1)
//   ENGINE1.zip                    the engines, the one that moved first after the opening first
//   ENGINE2.zip
//   -1                             an end code (Gomocup -1, older managers 0)
//   1,Freestyle15_2                Gomocup's result: 0 draw, 1 the first-named won, 2 the second;
//                                  and the group, whose name says the rule
//
// What a file becomes (a GameRecord like the other readers'):
//   - tags: Game (Gomoku; the group's rule), Event (the group), Black and White (the engines by the
//     colour they played), Result, Size (when not 15), Rules (Gomoku standard), OpeningStones (how
//     many stones the opening placed).
//   - the opening: the stones at the start with time 0. An engine may answer in 0 ms too; when the
//     result line names a winner whose colour the last stone's five contradicts, the opening is
//     read one stone shorter (docs/rules.md 4.2 Decision).
//   - result: from the result line; without one, the board's (a five, a full board), else "*".
//
// Diagnostics (record.hpp codes): syntax (a broken header or line: file:line:column; the moves stop
// there), illegal-move (an occupied point, which engines do play, or a point off the board: the
// game is partial), move-after-end, result-contradicts, bad-rules (a board gounki does not have),
// unsupported-game (a rule gounki does not play, named), game-too-large, io-error, not-utf8.

#include <cstdint>
#include <filesystem>
#include <iosfwd>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "parser/formats.hpp"
#include "parser/record.hpp"

namespace gounki::parser {

class PsqReader : public FileSource {
public:
    // A PSQ file larger than this is not a game: game-too-large, nothing read.
    static constexpr std::size_t max_bytes = std::size_t(1) << 20;

    using FileSource::FileSource; // a file by its path, or a stream and the file's name

    // The file's game (once); false after it, or for an empty file.
    bool next(GameRecord& game) override;

private:
    bool done_ = false;
};

// The game of a PSQ text in memory (tests, small inputs); `file_diagnostics` receives the file's own.
GameRecord read_psq(std::string_view text, const std::string& name = "<text>",
                    std::vector<Diagnostic>* file_diagnostics = nullptr);

// The PSQ text of a Gomoku or Renju game: the header, the moves of the main line (the OpeningStones tag's
// first stones with time 0, the others with 1 ms: gounki keeps no thinking times), the players
// (the one moving first after the opening first), -1, and a result line whose group is the Event
// when it names the game's rule, else the rule and the size ("Freestyle15"); no result line for *.
// Comments and variations are left out. The PSQ reader reads it back as the same game.
std::string write_psq(const GameRecord& game);
// Why `game` cannot be written as PSQ (not Gomoku or Renju; a set-up start; a rule other than
// freestyle and no result, so no result line to name it); empty when it can.
std::string psq_cannot_hold(const GameRecord& game);

// Whether an engine's name written on a line of its own, among the names (the end code after them),
// reads back as that name: not when it starts with '-', is move-like ("7,7"), or starts with a digit
// and is neither digits alone nor holds a letter; nor with a line end or blanks around it.
bool psq_name_reads_back(std::string_view name);
// Whether the writer puts `_` before `name` on its line (an empty name, or one starting with a digit
// or `-` that would not read back), and so whether the reader takes a `_` before it off again.
bool psq_name_marked(std::string_view name);

// Whether the start of a file is a PSQ header: "Piskvorky" (any case) as its first word.
bool claims_psq(std::string_view head);

} // namespace gounki::parser
