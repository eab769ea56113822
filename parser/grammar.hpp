#pragma once
// Declarations of the record grammar (docs/rules.md 1.8): the entry rule and the skipper. Definitions are
// in grammar_def.hpp; grammar.cpp is the only translation unit that includes them and so the only
// one that instantiates the grammar. Other code calls parse_chunk() from syntax.hpp.

#include <boost/spirit/home/x3.hpp>

#include <array>

#include "parser/ast.hpp"

namespace gounki::parser::grammar {

namespace x3 = boost::spirit::x3;

// Between tokens: blanks and line ends, `|` table borders and rule rows (`|---|:--:|`), runs of `.`
// (the `...` of "1. ... f7-e6" and of table cells), and UTF-8 byte order marks (files glued
// together with cat keep theirs). Hand-written because it runs before every token.
// 1: skipped; 2: `|`; 3: first byte of a byte order mark; 0: a token starts here.
constexpr std::array<unsigned char, 256> make_skip_class() {
    std::array<unsigned char, 256> t{};
    for (unsigned char c : {' ', '\t', '\n', '\r', '\f', '\v', '.'}) t[c] = 1;
    t['|'] = 2;
    t[0xEF] = 3;
    return t;
}
inline constexpr std::array<unsigned char, 256> skip_class = make_skip_class();

// Skips everything skippable from p; returns where the next token starts.
template <typename Iterator>
Iterator skip_run(Iterator p, Iterator const& last) {
    while (p != last) {
        const unsigned char k = skip_class[static_cast<unsigned char>(*p)];
        if (k == 1) {
            ++p;
        } else if (k == 2) {
            ++p;
            // A cell holding only '-' and ':' is table furniture (a rule row, or "--" for no move).
            Iterator q = p;
            bool dash = false;
            while (q != last && (*q == '-' || *q == ':' || *q == ' ' || *q == '\t')) dash |= *q++ != ' ' && q[-1] != '\t';
            // Furniture is skipped whole; so are the blanks alone that were looked at (no second walk).
            if (!dash || q == last || *q == '|' || *q == '\n' || *q == '\r') p = q;
        } else if (k == 3 && last - p >= 3 && static_cast<unsigned char>(p[1]) == 0xBB &&
                   static_cast<unsigned char>(p[2]) == 0xBF) {
            p += 3;
        } else {
            break;
        }
    }
    return p;
}

// X3 calls a skipper before every token and again while it answers true; this one skips the whole
// run in one call and always answers false, so that each skip is one call, and most of them (at a
// token already) one table lookup.
struct skipper_parser : x3::parser<skipper_parser> {
    using attribute_type = x3::unused_type;
    static bool const has_attribute = false;

    template <typename Iterator, typename Context, typename RContext, typename Attribute>
    [[gnu::always_inline]] bool parse(Iterator& first, Iterator const& last, Context const&, RContext&, Attribute&) const {
        if (first == last) return false;
        const unsigned char k = skip_class[static_cast<unsigned char>(*first)];
        if (k == 0) return false;
        // Most gaps between tokens are one blank.
        if (k == 1 && first + 1 != last && skip_class[static_cast<unsigned char>(first[1])] == 0) ++first;
        else first = skip_run(first, last);
        return false;
    }
};

inline constexpr skipper_parser skipper{};

struct game_class;
using game_type = x3::rule<game_class, ast::Game>;
BOOST_SPIRIT_DECLARE(game_type)

// One game: tag pairs, movetext, termination marker. Never fails on text that is not a tag pair
// or movetext at all: unreadable tokens become ast::Unknown nodes.
game_type const& game();

} // namespace gounki::parser::grammar
