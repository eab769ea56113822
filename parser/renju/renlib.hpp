#pragma once
// RenLib opening libraries (*.lib, binary): the move tree of the RenLib program, with comments and
// board texts. docs/rules.md 4.6 and README.md (Formats).
//
//   header (20 bytes)   FF 'R' 'e' 'n' 'L' 'i' 'b' FF, major and minor version (3.x), ten FF
//   a node (2 bytes)    the point: low 4 bits the file (1 = a), high 4 bits the row from the top
//                       (0 = row 15); 0 is no point (the root); then the flags:
//                         0x80 DOWN      another branch follows below this node (its depth is kept)
//                         0x40 RIGHT     this node ends a line: the next node goes back to the last
//                                        depth kept by DOWN
//                         0x20 OLD_COMMENT, 0x08 COMMENT: a comment follows the node
//                         0x10 MARK, 0x04 START: marks of the program (not kept)
//                         0x02 NO_MOVE   not a stone: a label on the board (its board text)
//                         0x01 EXTENSION two more bytes of flags follow; 0x0100 there: a board text
//   a text              bytes in pairs up to a pair holding a 0 (one-line comment, byte 08, then the
//                       multi-line one), in the Windows code page (read as UTF-8 when valid, else CP1252)
//
// Read as lines (the default), each line of the tree (from the root to a move with no move below it) is one Renju game on 15x15
// (moves in order, Black first), numbered in the file's order; comments are the moves' comments, a
// board text is a comment "board text h9: A" on the move it labels, the root's comment the game's
// first comment. A line that plays an occupied or forbidden point is partial there (illegal-move,
// "at byte N"). A file that is cut short or corrupt is refused whole with a syntax error naming the
// byte (nothing of it is stored).
//
// Read as a tree (ReadOptions::renlib_tree, `--as-tree`), the library is one Renju game: from the
// root, the first move below each move (in the file's order) continues the line and the other moves
// below it are variations of that move, each going on the same way; comments as above. A variation
// that plays a refused point stops there (an illegal-move error, the game invalid; in the main line:
// partial); variations nested more than 64 deep are left out with a `too-deep` warning.

#include <cstdint>
#include <iosfwd>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "parser/formats.hpp"
#include "parser/record.hpp"

namespace gounki::parser {

class RenLibReader : public FileSource {
public:
    // A library larger than this is refused (game-too-large).
    static constexpr std::size_t max_bytes = std::size_t(64) << 20;

    RenLibReader(std::istream& in, std::string name, bool as_tree = false);
    ~RenLibReader() override;

    bool next(GameRecord& game) override;

    struct Tree;

private:
    bool load();

    bool as_tree_ = false;
    bool loaded_ = false;
    std::unique_ptr<Tree> tree_;
    std::size_t next_node_ = 0;
    int games_ = 0;
};

// Every game of a RenLib library in memory (tests, fuzzing).
std::vector<GameRecord> read_renlib(std::string_view bytes, const std::string& name = "<bytes>",
                                    std::vector<Diagnostic>* file_diagnostics = nullptr, bool as_tree = false);

// Whether a file starts with RenLib's header bytes (FF "RenLib" FF).
bool claims_renlib(std::string_view head);

// gounki reads RenLib libraries and does not write them: always a reason.
std::string renlib_cannot_hold(const GameRecord& game);

} // namespace gounki::parser
