#pragma once
// Cuts a stream of record text into chunks of one game each, at the byte level and without parsing,
// so that the reader holds one game in memory at a time whatever the size of the file.
//
// A game ends:
//   - before a line that starts with `[` (a tag pair) once the chunk has movetext;
//   - before a line that starts with `<table` (an HTML table, any case) once the chunk holds one;
//   - after a termination marker (`1-0`, `0-1`, `1/2-1/2`, `*`) outside variations, together with
//     the blanks and comments that follow it;
//   - inside a `{` comment, before a line that looks like a tag pair (`[Name "`): that comment is
//     unterminated, and the grammar reports it instead of swallowing the rest of the file.
// Comments, tag values, `;` lines and PGN's `%` escape lines (a `%` that starts a line, or the
// chunk) are skipped by state, so brackets and results inside them do not count. A `*` that starts a token is a result unless the next token is a square, `out` or `,` (then
// it deploys); glued to a token (`j6*`) it is part of that token, as the grammar reads it.
// The grammar accepts several games in one chunk, so a boundary this cannot see only costs memory.

#include <cstddef>

namespace gounki::parser {

// Does a line that looks like a tag pair, `[Name "` after blanks, start at p (the text ends at end)?
// Inside a `{` comment such a line ends the comment, unterminated: the splitter cuts there and the
// grammar stops the comment there.
bool tag_line_starts(const char* p, const char* end);

class GameSplitter {
public:
    enum class Scan {
        cut, // a game ends at `cut`; the next chunk starts there
        need_more, // the data ends before anything is decided: append more and call again
        end, // eof: the last chunk runs to the end of the data
    };

    // Scans data[position(), size) for the end of the chunk that started at the last start_chunk().
    Scan scan(const char* data, std::size_t size, bool eof, std::size_t& cut);

    // A new chunk starts at `at` (the cut just returned, or 0).
    void start_chunk(std::size_t at);
    // The caller dropped the first `removed` bytes of its buffer: positions move down.
    void shift(std::size_t removed) {
        pos_ -= removed;
        chunk_start_ = chunk_start_ > removed ? chunk_start_ - removed : 0;
    }
    std::size_t position() const { return pos_; }
    // Tests: scan byte by byte only, without the shortcuts through runs of bytes that decide
    // nothing. Both ways must cut at the same places.
    void disable_shortcuts() { shortcuts_ = false; }

private:
    enum class State : unsigned char {
        normal,
        brace,
        line_comment,
        tag,
        tag_string,
        after_result,
        after_result_brace,
        after_result_line,
    };

    std::size_t pos_ = 0;
    std::size_t chunk_start_ = 0;
    State state_ = State::normal;
    bool line_start_ = true; // only blanks since the last line end or the chunk start
    bool movetext_ = false; // the chunk holds movetext, not only tag pairs and comments
    bool table_ = false; // the chunk holds an HTML table
    int depth_ = 0; // open variations
    bool shortcuts_ = true;
};

} // namespace gounki::parser
