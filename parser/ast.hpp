#pragma once
// The syntax tree of a record text (docs/rules.md 1.8), as the grammar reads it. Syntax only: a move is a
// `MoveSpec` (what was written), never a checked `Move`; resolve.cpp replays the tree through core.
//
// Every node remembers where it was written as a byte offset and length inside the chunk of text
// the grammar read (`Located`); turning offsets into line and column is the caller's business, so
// the grammar pays nothing for positions it never reports.

#include <boost/spirit/home/x3/support/ast/variant.hpp>

#include <cstdint>
#include <string>
#include <vector>

#include "core/gounki/notation.hpp"

namespace gounki::parser::ast {

namespace x3 = boost::spirit::x3;

struct Located {
    std::uint32_t offset = 0; // first byte of the node in the chunk
    std::uint32_t length = 0; // bytes it spans
};

// `[Name "value"]`; the value keeps its escapes (`\"`, `\\`) so that bad escapes can be reported
// with their exact place when the value is decoded.
struct Tag : Located {
    std::string name;
    std::string raw_value;
};

// `12.` or `12...`
struct MoveNumber : Located {
    unsigned number = 0;
    bool ellipsis = false;
};

// A move as written, spaces inside it included; `length` covers exactly the move's text.
// Either a Gounki move (`spec`) or a point alone (`h8`, `j10`: a stone placed in Gomoku or
// Ninuki), read by letter and number whatever the board: place_file >= 0 tells which.
//
// Other Gounki notations hand over their pieces as read, and the resolver groups them (the grammar
// knows no position): the official site's notation writes `c1 b1+` (a point, then a point with a
// join mark) and `e6 * d7 c8 OUT` (a deployment, points, a lone OUT); the 2014 course notation
// (LC4) writes `g8#` (a point with an exit mark), `d4+d5-e6` and `d4*e5-d6` (deployments with an
// order marker and dashes between the squares). `form` records which of these forms were written.
struct Move : Located {
    MoveSpec spec;
    std::int8_t place_file = -1; // 0 = a
    std::int8_t place_rank = -1; // 0 = rank 1 (up to 98 as read; the board decides what exists)
    std::uint8_t form = 0; // Form bits
    enum Form : std::uint8_t {
        point_join = 1, // a point followed by `+`
        point_exit = 2, // a point followed by `#` (LC4: the stack leaves the board from there)
        lone_out = 4, // `OUT` alone (spec.out set, no square)
        plus_deploy = 8, // `d4+d5-e6`: LC4's squares-first deployment
        dashed_targets = 16, // `-` between a deployment's squares (LC4)
        hash_out = 32, // a deployment ending in `#` (LC4: its next step leaves the board)
    };
    bool is_placement() const { return place_file >= 0; }
    bool is_lone_out() const { return form & lone_out; }
};

// A suffix (`!` `?` `!!` `??` `!?` `?!`, stored as NAG 1..6) or a NAG `$n`.
struct Annotation : Located {
    std::uint32_t value = 0;
    bool suffix = false;
};

// `{...}` (closed is false when the text ended first) or `; ...` to the end of the line.
struct Comment : Located {
    std::string text;
    bool closed = true;
};

// A header row of the web-table layout: `| Move | Alice | Bob |`, cells trimmed.
struct TableHeader : Located {
    std::vector<std::string> cells;
};

// Text that is no element of movetext (a mistyped move, a stray `)`...): reported, never guessed at.
struct Unknown : Located {};

struct Variation;

struct Element : x3::variant<MoveNumber, Move, Annotation, Comment, x3::forward_ast<Variation>, TableHeader, Unknown> {
    using base_type::base_type;
    using base_type::operator=;
};

// `( ... )`; closed is false when the text ended before `)`.
struct Variation : Located {
    std::vector<Element> elements;
    bool closed = true;
};

enum class Result : std::uint8_t { none, white_wins, black_wins, draw, unfinished };

struct ResultToken : Located {
    Result value = Result::none;
};

// One game: tag pairs, movetext, the termination marker (value none when absent).
struct Game : Located {
    std::vector<Tag> tags;
    std::vector<Comment> header_comments; // comments among the tag pairs
    std::vector<Element> elements;
    ResultToken result;
    std::vector<Comment> trailing_comments; // comments after the termination marker
};

// A problem the grammar itself found, as data (see error_handler.hpp).
struct SyntaxError {
    std::uint32_t offset = 0; // where the text is wrong
    std::uint32_t start = 0; // where the element that failed began (the `[` of a tag...)
    std::string code; // stable code: "unterminated-tag", "bad-tag", "too-deep", "syntax"
    std::string message;
    bool truncates = false; // the movetext after `offset` was not read
};

} // namespace gounki::parser::ast
