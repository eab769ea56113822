#pragma once
// The grammar's entry point for the rest of the library, free of Spirit headers.

#include <string_view>
#include <vector>

#include "parser/ast.hpp"

namespace gounki::parser {

struct ChunkSyntax {
    std::vector<ast::Game> games;
    std::vector<ast::SyntaxError> errors; // offsets into the chunk, in the order found
    void clear() {
        games.clear();
        errors.clear();
    }
};

// Parses every game of `text` (one chunk from the splitter, or a whole small file) into `out`.
// Never throws on bad input: what cannot be read becomes ast::Unknown nodes or SyntaxError records.
// A chunk larger than 4 GiB is not supported (offsets are 32-bit); the reader never makes one.
void parse_chunk(std::string_view text, ChunkSyntax& out);

} // namespace gounki::parser
