#pragma once
// Declarations of the record grammar (docs/rules.md 1.8): the entry rule and the skipper. Definitions are
// in grammar_def.hpp; grammar.cpp is the only translation unit that includes them and so the only
// one that instantiates the grammar. Other code calls parse_chunk() from syntax.hpp.

#include <boost/spirit/home/x3.hpp>

#include <array>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

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

// The first byte at or after p that is not of class 1 or 2 (blanks, line ends, '.', '|'); last when
// there is none. Sixteen bytes at a time where SSE2 is there (every x86-64): the runs between the
// cells of a table copied from a web page are long.
inline const char* skippable_end(const char* p, const char* last) {
    auto skippable = [](char c) {
        const unsigned char k = skip_class[static_cast<unsigned char>(c)];
        return k == 1 || k == 2;
    };
#if defined(__SSE2__)
    const __m128i space = _mm_set1_epi8(' '), dot = _mm_set1_epi8('.'), bar = _mm_set1_epi8('|');
    const __m128i tab = _mm_set1_epi8('\t'), four = _mm_set1_epi8(4); // \t \n \v \f \r are 9..13
    while (last - p >= 16) {
        const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
        const __m128i control = _mm_sub_epi8(v, tab);
        const __m128i skipped =
            _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, space), _mm_cmpeq_epi8(v, dot)),
                         _mm_or_si128(_mm_cmpeq_epi8(v, bar), _mm_cmpeq_epi8(_mm_min_epu8(control, four), control)));
        const unsigned stop = ~unsigned(_mm_movemask_epi8(skipped)) & 0xFFFFu;
        if (stop) return p + __builtin_ctz(stop);
        p += 16;
    }
#endif
    while (p != last && skippable(*p)) ++p;
    return p;
}

// Skips everything skippable from p; returns where the next token starts. A `|` starts a table
// cell: a cell holding only '-' and ':' (and blanks) up to the next `|` or the line end is table
// furniture (a rule row, or "--" for no move) and is skipped whole; otherwise its '-' starts a
// token. Runs of blanks, line ends, '.' and '|' are passed in one go, and the cell is looked at
// only where such a run stops at a '-' or ':' right after a `|` (blanks between). Not inlined: the
// skipper's own test, at a token already or after one blank, is what runs most.
[[gnu::noinline]] inline const char* skip_run(const char* p, const char* last) {
    const char* const start = p;
    for (;;) {
        p = skippable_end(p, last);
        if (p == last) return p;
        const unsigned char c = static_cast<unsigned char>(*p);
        if (c == '-' || c == ':') {
            const char* b = p;
            while (b != start && (b[-1] == ' ' || b[-1] == '\t')) --b;
            if (b == start || b[-1] != '|') return p;
            const char* q = p;
            while (q != last && (*q == '-' || *q == ':' || *q == ' ' || *q == '\t')) ++q;
            if (q != last && *q != '|' && *q != '\n' && *q != '\r') return p;
            p = q; // furniture
        } else if (skip_class[c] == 3 && last - p >= 3 && static_cast<unsigned char>(p[1]) == 0xBB &&
                   static_cast<unsigned char>(p[2]) == 0xBF) {
            p += 3;
        } else {
            return p;
        }
    }
}

// The base of a hand-written parser that gives no attribute: it only moves over text, or checks or
// counts something where it stands. `Derived` has the parse() member.
template <class Derived>
struct plain_parser : x3::parser<Derived> {
    using attribute_type = x3::unused_type;
    static bool const has_attribute = false;
};

// X3 calls a skipper before every token and again while it answers true; this one skips the whole
// run in one call and always answers false, so that each skip is one call, and most of them (at a
// token already) one table lookup.
struct skipper_parser : plain_parser<skipper_parser> {
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
