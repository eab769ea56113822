#pragma once
// How the grammar reports: positions and errors as data, never printed, never thrown past parse_chunk.
//
// Boost 1.74's stock x3::error_handler keeps a position cache of iterators per node and prints
// messages (it can name the line after the real one, and prints a blank source line for an empty
// first line). Ours stores byte offsets in the nodes and pushes {offset, code, message} records;
// resolve.cpp turns offsets into line and column against the chunk it read.

#include <boost/spirit/home/x3.hpp>

#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include "parser/ast.hpp"

namespace gounki::parser::grammar {

namespace x3 = boost::spirit::x3;

// What a parse carries along, reached from every rule through the context (x3::with).
struct ParseState {
    const char* begin = nullptr; // start of the chunk: every offset is relative to it
    std::vector<ast::SyntaxError>* errors = nullptr;
    int depth = 0; // variations open right now
    bool too_deep_reported = false;
    // The game being read has moves: a table header row from here on starts the next game (a file
    // of several pasted tables), and `header_stop` is where it starts.
    bool game_has_moves = false;
    const char* header_stop = nullptr;

    std::uint32_t offset_of(const char* p) const { return std::uint32_t(p - begin); }
};

struct state_tag;

// Variations nested deeper than this are refused: the grammar and the replay both recurse.
inline constexpr int max_variation_depth = 64;

// Rule IDs derive from this to get their node's offset and length filled on success. Deliberately
// generic in the attribute: Boost 1.74 detects on_success with the attribute and context types
// swapped, so a handler written for one node type would silently never be called.
struct annotate {
    template <typename Iterator, typename Attribute, typename Context>
    void on_success(Iterator const& first, Iterator const& last, Attribute& node, Context const& ctx) const {
        if constexpr (std::is_base_of_v<ast::Located, Attribute>) {
            node.offset = x3::get<state_tag>(ctx).offset_of(first);
            node.length = std::uint32_t(last - first);
        }
    }
};

inline std::string describe_byte(const char* p, const char* last) {
    if (p == last) return "the end of the text";
    const char c = *p;
    if (c == '\n' || c == '\r') return "the end of the line";
    if (c == ' ' || c == '\t') return "a space";
    if (static_cast<unsigned char>(c) < 32 || c == 127) return "a control character";
    if (static_cast<unsigned char>(c) >= 128) return "a non-ASCII character";
    return std::string("'") + c + "'";
}

// The tag pair rule commits at `[` with expectation points; a failure becomes a record here and the
// rule fails, so the caller's fallback (skip the rest of the line) takes over and the game goes on.
struct tag_error_handler {
    template <typename Iterator, typename Exception, typename Context>
    x3::error_handler_result on_error(Iterator& first, Iterator const& last, Exception const& x, Context const& ctx) const {
        ParseState& st = x3::get<state_tag>(ctx);
        Iterator where = x.where();
        while (where != last && (*where == ' ' || *where == '\t')) ++where;
        Iterator start = first;
        while (start != last && *start != '[') ++start;
        const bool line_end = where == last || *where == '\n' || *where == '\r';
        ast::SyntaxError e;
        e.offset = st.offset_of(where);
        e.start = st.offset_of(start);
        e.code = line_end ? "unterminated-tag" : "bad-tag";
        e.message = (line_end ? "unterminated tag pair: expected " : "malformed tag pair: expected ") + x.which() +
            (line_end ? " before the end of the line" : ", found " + describe_byte(where, last));
        st.errors->push_back(std::move(e));
        return x3::error_handler_result::fail;
    }
};

} // namespace gounki::parser::grammar
