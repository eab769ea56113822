#pragma once
// Gomocup's opening lists (docs/rules.md 4.8): the plain-text files the Gomocup tournaments publish
// with their results (openings_freestyle15.txt, openings_renju.txt) and engine-match programs read.
//
//   8,-3, 6,-4, 5,-4, 4,-3      one opening a line: its stones in the order played, Black first,
//   0,0, 1,1, -1,2              each x,y the offset from the board's centre (x to the right, y down;
//                               the centre is (size / 2, size / 2) counted from the top left, 0 based)
//   d3e5f6d7                    or in pos notation: a column's letter from a, a row's number from 1 at
//                               the top, nothing between the stones (a line starting with a letter)
//
// The file does not name its board or rule; its name does, as Gomocup names its lists: `renju`
// Renju, `standard` Gomoku with exact fives, else freestyle; the first number in the name is the
// board's size (`freestyle15`); a freestyle list whose name has none is on 20x20 when its name says
// `freestyle` (Gomocup's freestyle board until 2023) or when a stone of it lies off the 15x15 board
// (Gomocup's older lists saved as `openings.txt`); any other list is on 15x15.
//
// Every line is a game: tags Game (and Size, Rules where not the game's defaults), Result "*",
// the stones as its main line. Diagnostics: syntax (a line that is no list of offsets, at its
// column: the game is kept without moves), illegal-move (a point off the board, occupied,
// forbidden), io-error, game-too-large.

#include <string>
#include <string_view>
#include <vector>

#include "parser/formats.hpp"
#include "parser/record.hpp"

namespace gounki::parser {

class OpeningsReader : public FileSource {
public:
    // A list larger than this is refused (game-too-large): Gomocup's hold a few dozen lines.
    static constexpr std::size_t max_bytes = std::size_t(64) << 20;

    using FileSource::FileSource;
    bool next(GameRecord& game) override;

private:
    bool loaded_ = false;
    bool beyond_15_ = false; // a stone of the list lies off the 15x15 board
    std::string text_;
    std::size_t at_ = 0; // where the next line starts
    int line_ = 0; // lines read
    int games_ = 0;
};

// Every opening of a list in memory (tests, fuzzing); `name` decides the board and rule.
std::vector<GameRecord> read_openings(std::string_view text, const std::string& name,
                                      std::vector<Diagnostic>* file_diagnostics = nullptr);

// Whether the start of a file is an opening list: a first line of digits, signs, commas and blanks
// alone, with at least one comma, or of two points or more in pos notation (a later line that is
// not is the list's syntax error). A `.txt` named `openings*` is one by its name (formats.cpp).
bool claims_openings(std::string_view head);
std::string openings_cannot_hold(const GameRecord& game);

} // namespace gounki::parser
