#pragma once
// From syntax to rules: replays a game's syntax tree through core and builds its GameRecord, with
// every problem as a Diagnostic at its line and column.

#include <algorithm>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "parser/ast.hpp"
#include "parser/record.hpp"

namespace gounki::parser {

// Where a chunk of text sits in its file, to turn the tree's byte offsets into lines and columns.
// Lookups are fastest in increasing order (the usual case); any order works.
class SourceMap {
public:
    // `places`, when given, is the text as written, of the same length as `chunk`: lines and columns
    // are counted in it (the chunk may be that text made readable, parser/web_text.hpp).
    SourceMap(std::string_view chunk, int first_line, int first_column, std::string_view places = {})
        : text_(chunk), places_(places.size() == chunk.size() ? places : chunk), line0_(first_line), column0_(first_column) {}

    struct Place {
        int line;
        int column;
    };
    Place locate(std::uint32_t offset) const;
    std::string_view text() const { return text_; }
    std::string_view slice(std::uint32_t offset, std::uint32_t length) const {
        if (offset > text_.size()) return {};
        return {text_.data() + offset, std::min<std::size_t>(length, text_.size() - offset)};
    }

private:
    std::string_view text_;
    std::string_view places_;
    int line0_, column0_;
    mutable std::uint32_t cache_offset_ = 0;
    mutable Place cache_{0, 0};
    mutable bool cached_ = false;
};

// A token as a message shows it: at most 40 characters (whole UTF-8 ones), then "... (N bytes)"
// (a binary file makes tokens of kilobytes).
std::string shortened(const std::string& text);

// Appends a diagnostic of game `game` placed at `offset` of `source` to `out.diagnostics`.
Diagnostic& add_diagnostic(GameRecord& out, const SourceMap& source, const std::string& file, int game, Severity sev,
                           std::string_view code, std::uint32_t offset, std::string message);

// Replays `game` into `out` (cleared first). `errors` are the grammar's errors that fall inside this
// game; `file` and `number` name it in its diagnostics.
// `notation` forces how Gounki moves are read (automatic: detected per game, see Notation).
void resolve_game(const ast::Game& game, const SourceMap& source, std::span<const ast::SyntaxError> errors,
                  const std::string& file, int number, GameRecord& out, Notation notation = Notation::automatic);

// Only what the tag pairs say (tags, kind, number, line, written result): skipping a game costs no
// replay. No diagnostics.
void read_game_header(const ast::Game& game, const SourceMap& source, const std::string& file, int number, GameRecord& out);

} // namespace gounki::parser
