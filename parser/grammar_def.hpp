#pragma once
// Definitions of the record grammar (docs/rules.md 1.8). Included by grammar.cpp only.
//
// The grammar knows no rules of the game: a move is read as an origin square, a separator and
// targets (a `MoveSpec`), whatever the position. It never rejects a game outright either: text it
// cannot read becomes an ast::Unknown node (or an unterminated comment or variation is flagged),
// and the replay in resolve.cpp reports it where it stands and keeps the game up to that point.
//
// Character classes: X3's `alnum`, `space` and `no_case` assert on bytes >= 0x80 with the standard
// encoding, and record files carry UTF-8 names and comments; every test below is a byte comparison
// or a char set, which are safe for any byte.

#include <boost/spirit/home/x3.hpp>

#include <algorithm>
#include <string_view>
#include <vector>

#include "parser/ast.hpp"
#include "parser/ast_adapted.hpp"
#include "parser/error_handler.hpp"
#include "parser/grammar.hpp"
#include "parser/splitter.hpp"

namespace gounki::parser::grammar {

using x3::char_;
using x3::lexeme;
using x3::lit;

// ---------------------------------------------------------------------------------------------
// Hand-written primitives: a square, the word `out`, a web-table header row, the variation depth.

// `a1`..`h8`, file letter in either case.
struct square_parser : x3::parser<square_parser> {
    using attribute_type = Square;
    static bool const has_attribute = true;

    template <typename Iterator, typename Context, typename RContext, typename Attribute>
    bool parse(Iterator& first, Iterator const& last, Context const& ctx, RContext&, Attribute& attr) const {
        x3::skip_over(first, last, ctx);
        if (last - first < 2) return false;
        const char f = char(first[0] | 0x20), r = first[1];
        if (f < 'a' || f > 'h' || r < '1' || r > '8') return false;
        x3::traits::move_to(Square(make_square(f - 'a', r - '1')), attr);
        first += 2;
        return true;
    }
};

// A point of a stone game alone: a letter `a`..`t` (either case; `T` is also the last column of
// Go-style coordinates, A-T without I) and a rank of one or two digits,
// followed by the end of the text, a blank, a suffix or a delimiter (so `h8-z9` stays one unreadable
// token). Its attribute: file | rank << 8 (both 0-based).
struct point_parser : x3::parser<point_parser> {
    using attribute_type = std::uint16_t;
    static bool const has_attribute = true;

    template <typename Iterator, typename Context, typename RContext, typename Attribute>
    bool parse(Iterator& first, Iterator const& last, Context const& ctx, RContext&, Attribute& attr) const {
        x3::skip_over(first, last, ctx);
        if (last - first < 2) return false;
        const char f = char(first[0] | 0x20);
        if (f < 'a' || f > 't' || first[1] < '1' || first[1] > '9') return false;
        Iterator p = first + 2;
        int rank = first[1] - '0';
        if (p != last && *p >= '0' && *p <= '9') rank = rank * 10 + (*p++ - '0');
        if (p != last) {
            const char c = *p;
            const bool ends = c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '{' || c == '}' || c == '(' || c == ')' ||
                c == ';' || c == '|' || c == '!' || c == '?' || c == '$' || c == '+' || c == '#' || c == ',';
            if (!ends) return false;
        }
        x3::traits::move_to(std::uint16_t((f - 'a') | (rank - 1) << 8), attr);
        first = p;
        return true;
    }
};

inline bool is_word_byte(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

// `out` in any case, not followed by a letter or digit.
struct out_parser : plain_parser<out_parser> {
    template <typename Iterator, typename Context, typename RContext, typename Attribute>
    bool parse(Iterator& first, Iterator const& last, Context const& ctx, RContext&, Attribute&) const {
        x3::skip_over(first, last, ctx);
        if (last - first < 3) return false;
        if ((first[0] | 0x20) != 'o' || (first[1] | 0x20) != 'u' || (first[2] | 0x20) != 't') return false;
        if (last - first > 3 && is_word_byte(first[3])) return false;
        first += 3;
        return true;
    }
};

// A header row of a table copied from a web page: a line `| Move | Alice | Bob |` (the first cell
// may be empty), or cells separated by tabs (what a browser copies: `Move<TAB>Alice<TAB>Bob`), whose
// cells hold neither a move number nor a move. Rows with moves are plain movetext, their `|` and
// tabs being skipped. Once the game has moves, a header row starts the next game: the parser then
// fails and marks the place (`header_stop`), so that `unknown` does not take its words either.
struct table_header_parser : x3::parser<table_header_parser> {
    using attribute_type = ast::TableHeader;
    static bool const has_attribute = true;

    static bool blank(char c) { return c == ' ' || c == '\t'; }

    template <typename Iterator, typename Context, typename RContext, typename Attribute>
    bool parse(Iterator& first, Iterator const& last, Context const& ctx, RContext&, Attribute& attr) const {
        ParseState& st = x3::get<state_tag>(ctx);
        const char* begin = st.begin;
        Iterator p = first;
        x3::skip_over(p, last, ctx); // to the token; the `|` skipped on its line are looked for below
        while (p != last && (blank(*p) || *p == '\n' || *p == '\r')) ++p;
        if (p == last) return false;
        // Back to the start of the line, over the blanks and `|` the skipper may have taken already.
        Iterator line = p;
        bool bar = *p == '|';
        while (line != begin && (blank(line[-1]) || line[-1] == '|')) bar |= *--line == '|';
        if (line != begin && line[-1] != '\n') return false; // only at the start of a line
        Iterator line_end = p;
        bool tab = false;
        while (line_end != last && *line_end != '\n' && *line_end != '\r') tab |= *line_end++ == '\t';
        if (!bar) {
            bar = false;
            for (Iterator q = line; q != line_end && !bar; ++q) bar = *q == '|';
        }
        if (!bar && !tab) return false;
        const char sep = bar ? '|' : '\t';
        ast::TableHeader row;
        bool named = false;
        Iterator q = line;
        while (q != line_end && blank(*q) && *q != sep) ++q;
        if (q != line_end && *q == '|') ++q; // the opening border
        while (q < line_end) {
            Iterator e = q;
            while (e != line_end && *e != sep) ++e;
            Iterator b = q, t = e;
            while (b != t && blank(*b)) ++b;
            while (t != b && blank(t[-1])) --t;
            if (b != t) {
                const char c0 = char(b[0] | 0x20);
                if (b[0] >= '0' && b[0] <= '9') return false; // a move number
                if (t - b >= 2 && c0 >= 'a' && c0 <= 'h' && b[1] >= '1' && b[1] <= '8') return false; // a move
                bool furniture = true;
                for (Iterator k = b; k != t; ++k) furniture &= *k == '-' || *k == ':' || *k == '.';
                named |= !furniture;
            }
            if (e == line_end && b == t) break; // nothing after the last separator
            row.cells.emplace_back(b, t);
            q = e == line_end ? e : e + 1;
        }
        if (!named) return false;
        if (st.game_has_moves) { // the next game's header
            st.header_stop = p;
            return false;
        }
        x3::traits::move_to(std::move(row), attr);
        first = line_end;
        return true;
    }
};

// A cell after the two moves of a web table's row, the Notes column of a published game
// (`| 1. | a1-a2+ | a8-b7+ | builds a double square |`): a comment, to the end of the line. A cell
// is a note when three cells come before it in a row whose first cell is a move number, and its
// first word is prose (prose(): `1.<TAB>a1-a2<TAB>a8-b7<TAB>2.<TAB>...`, a result, a comment or a
// variation in that cell stay movetext). The comment's
// text is the cells, `/` between them; cells of dashes alone ("-": no note) give none, and then an
// empty text, which is no comment (push_note).
struct table_note_parser : x3::parser<table_note_parser> {
    using attribute_type = ast::Comment;
    static bool const has_attribute = true;

    static bool blank(char c) { return c == ' ' || c == '\t'; }
    // A cell's text, blanks trimmed.
    template <typename Iterator>
    static std::string_view trimmed(Iterator b, Iterator e) {
        while (b != e && blank(*b)) ++b;
        while (e != b && blank(e[-1])) --e;
        return std::string_view(&*b, std::size_t(e - b));
    }
    static bool move_number(std::string_view cell) {
        std::size_t digits = 0;
        while (digits < cell.size() && cell[digits] >= '0' && cell[digits] <= '9') ++digits;
        if (digits == 0) return false;
        for (std::size_t i = digits; i < cell.size(); ++i)
            if (cell[i] != '.') return false;
        return true;
    }

    // Whether a cell's first word starts a note rather than movetext: no move number, result, move
    // or point (`2.`, `1-0`, `*`, `b1-b2`, `h8`), comment, variation or annotation (`{` `(` `;` `$`).
    static bool prose(std::string_view w) {
        if (w.empty() || move_number(w)) return false;
        const char c = w[0], l = char(c | 0x20);
        if (c == '{' || c == '(' || c == ')' || c == ';' || c == '$' || c == '*' || c == '[' || c == '!' || c == '?')
            return false;
        if (w.starts_with("1-0") || w.starts_with("0-1") || w.starts_with("1/2") || w.starts_with("\xC2\xBD")) return false;
        if (l >= 'a' && l <= 't' && w.size() >= 2 && w[1] >= '0' && w[1] <= '9') return false; // a square or a point
        return true;
    }

    template <typename Iterator, typename Context, typename RContext, typename Attribute>
    bool parse(Iterator& first, Iterator const& last, Context const& ctx, RContext&, Attribute& attr) const {
        const ParseState& st = x3::get<state_tag>(ctx);
        x3::skip_over(first, last, ctx); // kept on failure too, as X3's own parsers do: no second skip
        const Iterator p = first;
        if (p == last || *p == '\n' || *p == '\r') return false;
        // Right after a separator (blanks between): the start of a cell. The cheap test first.
        Iterator q = p;
        while (q != st.begin && q[-1] == ' ') --q;
        if (q == st.begin || (q[-1] != '|' && q[-1] != '\t')) return false;
        Iterator line = q;
        while (line != st.begin && line[-1] != '\n' && line[-1] != '\r') --line;
        bool bar = false;
        for (Iterator k = line; k != p && !bar; ++k) bar = *k == '|';
        const char sep = bar ? '|' : '\t';
        Iterator cell = line;
        if (bar) { // the row's opening border
            while (cell != p && blank(*cell)) ++cell;
            if (*cell == '|') ++cell;
        }
        // The cells before this one. An HTML table's row (web_text.cpp) has a bar at each <td> and
        // each </td>, so an empty cell between every two: then every second cell is one.
        std::vector<std::string_view> cells;
        for (Iterator b = cell; b < p;) {
            Iterator e = std::find(b, p, sep);
            if (e == p) break;
            cells.push_back(trimmed(b, e));
            b = e + 1;
        }
        bool gaps = cells.size() >= 2;
        for (std::size_t i = 1; i < cells.size() && gaps; i += 2) gaps = cells[i].empty();
        if (gaps) {
            std::size_t kept = 0;
            for (std::size_t i = 0; i < cells.size(); i += 2) cells[kept++] = cells[i];
            cells.resize(kept);
        }
        // Three at least, the first a move number, none after the moves a move number (a line of
        // several moves in tab-separated cells is movetext).
        if (cells.size() < 3 || !move_number(cells[0])) return false;
        for (std::size_t i = 3; i < cells.size(); ++i)
            if (move_number(cells[i])) return false;
        Iterator eol = p;
        while (eol != last && *eol != '\n' && *eol != '\r') ++eol;
        Iterator word_end = p; // the cell's first word: prose, not movetext
        while (word_end != eol && !blank(*word_end) && *word_end != sep) ++word_end;
        if (!prose(std::string_view(&*p, std::size_t(word_end - p)))) return false;
        ast::Comment note;
        for (Iterator b = p; b < eol;) {
            Iterator e = std::find(b, eol, sep);
            const std::string_view t = trimmed(b, e);
            if (t.find_first_not_of("-") != std::string_view::npos) {
                if (!note.text.empty()) note.text += " / ";
                for (std::size_t i = 0; i < t.size(); ++i) // blank runs as one space (an HTML cell's markup)
                    if (!blank(t[i]) || !blank(t[i - 1])) note.text += blank(t[i]) ? ' ' : t[i];
            }
            b = e == eol ? e : e + 1;
        }
        note.offset = st.offset_of(&*p);
        Iterator end = eol;
        while (end != p && (blank(end[-1]) || end[-1] == '|')) --end;
        note.length = std::uint32_t(end - p);
        x3::traits::move_to(std::move(note), attr);
        first = eol;
        return true;
    }
};

// table_note_parser's cheap test, which needs no attribute: the token starts right after a `|` or a
// tab (blanks between). Used as a predicate (`&`), so that the note's Comment is made only in a
// table row; the predicate works on a copy of the iterator, so the next alternative skips again.
struct after_cell_separator_parser : plain_parser<after_cell_separator_parser> {
    template <typename Iterator, typename Context, typename RContext, typename Attribute>
    bool parse(Iterator& first, Iterator const& last, Context const& ctx, RContext&, Attribute&) const {
        x3::skip_over(first, last, ctx);
        const char* const begin = x3::get<state_tag>(ctx).begin;
        Iterator q = first;
        while (q != begin && q[-1] == ' ') --q;
        return q != begin && (q[-1] == '|' || q[-1] == '\t');
    }
};

// Fails where a table header row ends the game (see table_header_parser).
struct not_header_stop_parser : plain_parser<not_header_stop_parser> {
    template <typename Iterator, typename Context, typename RContext, typename Attribute>
    bool parse(Iterator& first, Iterator const&, Context const& ctx, RContext&, Attribute&) const {
        return first != x3::get<state_tag>(ctx).header_stop;
    }
};

// Counts open variations around a variation's body. Deeper than max_variation_depth it reports
// too-deep once and consumes the rest of the text. The body between enter and leave cannot fail,
// so they always pair up.
struct enter_variation_parser : plain_parser<enter_variation_parser> {
    template <typename Iterator, typename Context, typename RContext, typename Attribute>
    bool parse(Iterator& first, Iterator const& last, Context const& ctx, RContext&, Attribute&) const {
        ParseState& st = x3::get<state_tag>(ctx);
        if (st.depth < max_variation_depth) {
            ++st.depth;
            return true;
        }
        if (!st.too_deep_reported) {
            st.too_deep_reported = true;
            ast::SyntaxError e;
            e.offset = e.start = st.offset_of(first) - 1; // the '(' just read
            e.code = "too-deep";
            e.message =
                "variations nested more than " + std::to_string(max_variation_depth) + " deep; the rest of the game is not read";
            e.truncates = true;
            st.errors->push_back(std::move(e));
        }
        // As said: the rest is not read. Consumed whole, so that its closing parentheses are not
        // taken for unmatched ones, nor the variations around for unclosed (variation_closed).
        ++st.depth;
        first = last;
        return true;
    }
};

struct leave_variation_parser : plain_parser<leave_variation_parser> {
    template <typename Iterator, typename Context, typename RContext, typename Attribute>
    bool parse(Iterator&, Iterator const&, Context const& ctx, RContext&, Attribute&) const {
        --x3::get<state_tag>(ctx).depth;
        return true;
    }
};

// Spaces and tabs, possibly none: the blanks allowed inside a move. Always succeeds.
struct blanks_parser : plain_parser<blanks_parser> {
    template <typename Iterator, typename Context, typename RContext, typename Attribute>
    bool parse(Iterator& first, Iterator const& last, Context const&, RContext&, Attribute&) const {
        while (first != last && (*first == ' ' || *first == '\t')) ++first;
        return true;
    }
};

// The text of a `{` comment: up to its `}`, or up to and including the line end before a line that
// looks like a tag pair, where the comment is left open. The splitter cuts games at that line too,
// so an open comment never swallows the games after it, whether a chunk holds one game or several.
struct comment_body_parser : plain_parser<comment_body_parser> {
    template <typename Iterator, typename Context, typename RContext, typename Attribute>
    bool parse(Iterator& first, Iterator const& last, Context const&, RContext&, Attribute&) const {
        while (first != last && *first != '}')
            if (*first++ == '\n' && tag_line_starts(first, last)) break;
        return true;
    }
};

inline constexpr blanks_parser blanks{};
inline constexpr comment_body_parser comment_body{};
inline constexpr square_parser square{};
inline constexpr point_parser point{};
inline constexpr out_parser out_word{};
inline constexpr table_header_parser table_row{};
inline constexpr table_note_parser table_note{};
inline constexpr after_cell_separator_parser after_cell_separator{};
inline constexpr not_header_stop_parser not_header_stop{};
inline constexpr enter_variation_parser enter_variation{};
inline constexpr leave_variation_parser leave_variation{};

// ---------------------------------------------------------------------------------------------
// Symbol tables.

struct suffix_table : x3::symbols<std::uint32_t> {
    suffix_table() { add("!", 1)("?", 2)("!!", 3)("??", 4)("!?", 5)("?!", 6); }
};
const suffix_table suffixes;

struct result_table : x3::symbols<ast::Result> {
    result_table() {
        add("1-0", ast::Result::white_wins)("0-1", ast::Result::black_wins)("1/2-1/2", ast::Result::draw)(
            "*", ast::Result::unfinished)("\xC2\xBD-\xC2\xBD", ast::Result::draw) // and the UTF-8 one-half sign
            // Spaced, as the official site's notation allows.
            ("1 - 0", ast::Result::white_wins)("0 - 1", ast::Result::black_wins)("1/2 - 1/2", ast::Result::draw)(
                "\xC2\xBD - \xC2\xBD", ast::Result::draw);
    }
};
const result_table results;

// ---------------------------------------------------------------------------------------------
// Rule IDs: `annotate` fills each node's offset and length; the tag pair handles its own errors.
// Rules built by semantic actions cannot use on_success (X3 hands it an unused attribute for them):
// they wrap their body in raw[...][locate] instead.

struct tag_class : annotate, tag_error_handler {};
struct tag_name_class;
struct tag_value_class;
struct bad_tag_class;
struct move_number_class : annotate {};
struct move_class;
struct placement_class;
struct annotation_class;
struct comment_class;
struct variation_class;
struct table_header_class : annotate {};
struct unknown_class : annotate {};
struct stray_close_class : annotate {};
struct result_class;
struct game_class;

const x3::rule<tag_class, ast::Tag> tag = "tag pair";
const x3::rule<tag_name_class, std::string> tag_name = "tag name";
const x3::rule<tag_value_class, std::string> tag_value = "tag value in double quotes";
const x3::rule<bad_tag_class> bad_tag = "bad tag pair";
const x3::rule<move_number_class, ast::MoveNumber> move_number = "move number";
const x3::rule<move_class, ast::Move> move = "move";
const x3::rule<placement_class, ast::Move> placement = "stone placement";
const x3::rule<annotation_class, ast::Annotation> annotation = "suffix or NAG";
const x3::rule<comment_class, ast::Comment> comment = "comment";
const x3::rule<variation_class, ast::Variation> variation = "variation";
const x3::rule<table_header_class, ast::TableHeader> table_header = "table header row";
const x3::rule<unknown_class, ast::Unknown> unknown = "unreadable text";
const x3::rule<stray_close_class, ast::Unknown> stray_close = "unmatched ')'";
const x3::rule<result_class, ast::ResultToken> result = "result";
const game_type game_rule = "game";

// ---------------------------------------------------------------------------------------------
// Semantic actions: they fill the nodes that are not adapted.

// A failed optional part at the end of a rule (the `+` after a square...) has already skipped the
// blanks before it: X3 does not undo a pre-skip. Those blanks are not part of the node.
const auto locate = [](auto& ctx) {
    auto& node = x3::_val(ctx);
    const auto& range = x3::_attr(ctx);
    auto end = range.end();
    while (end != range.begin() &&
           (end[-1] == ' ' || end[-1] == '\t' || end[-1] == '\n' || end[-1] == '\r' || end[-1] == '|' || end[-1] == '.'))
        --end;
    node.offset = x3::get<state_tag>(ctx).offset_of(range.begin());
    node.length = std::uint32_t(end - range.begin());
};
const auto set_from = [](auto& ctx) { x3::_val(ctx).spec.from = x3::_attr(ctx); };
const auto set_point = [](auto& ctx) {
    const std::uint16_t v = x3::_attr(ctx);
    x3::_val(ctx).place_file = std::int8_t(v & 0xFF);
    x3::_val(ctx).place_rank = std::int8_t(v >> 8);
};
const auto set_dash = [](auto& ctx) { x3::_val(ctx).spec.separator = MoveSeparator::dash; };
const auto set_capture = [](auto& ctx) { x3::_val(ctx).spec.separator = MoveSeparator::capture; };
const auto set_deploy = [](auto& ctx) { x3::_val(ctx).spec.separator = MoveSeparator::deploy; };
const auto set_out = [](auto& ctx) { x3::_val(ctx).spec.out = true; };
const auto add_target = [](auto& ctx) {
    MoveSpec& spec = x3::_val(ctx).spec;
    if (spec.target_count == 3) { // a fourth square: not a move; the text is reported as unreadable
        x3::_pass(ctx) = false;
        return;
    }
    spec.targets[spec.target_count++] = WrittenTarget{x3::_attr(ctx), false};
};
const auto set_plus_deploy = [](auto& ctx) {
    x3::_val(ctx).spec.separator = MoveSeparator::deploy;
    x3::_val(ctx).form |= ast::Move::plus_deploy;
};
// LC4's `d4+d5-e6`: two squares at least, or a last step out (`d4+d5#`).
const auto check_plus_deploy = [](auto& ctx) {
    const MoveSpec& spec = x3::_val(ctx).spec;
    x3::_pass(ctx) = spec.target_count >= 2 || spec.out;
};
const auto set_dashed = [](auto& ctx) { x3::_val(ctx).form |= ast::Move::dashed_targets; };
const auto set_hash_out = [](auto& ctx) {
    x3::_val(ctx).spec.out = true;
    x3::_val(ctx).form |= ast::Move::hash_out;
};
const auto set_point_join = [](auto& ctx) { x3::_val(ctx).form |= ast::Move::point_join; };
const auto set_point_exit = [](auto& ctx) { x3::_val(ctx).form |= ast::Move::point_exit; };
const auto set_lone_out = [](auto& ctx) {
    x3::_val(ctx).spec.out = true;
    x3::_val(ctx).form |= ast::Move::lone_out;
};
// A point's node ends before a `,` after it (`b2 * c3, c4`: the comma is the deployment's).
const auto locate_point = [](auto& ctx) {
    locate(ctx);
    auto& node = x3::_val(ctx);
    const char* b = x3::get<state_tag>(ctx).begin + node.offset;
    while (node.length > 0 && (b[node.length - 1] == ',' || b[node.length - 1] == ' ' || b[node.length - 1] == '\t'))
        --node.length;
};
const auto mark_join = [](auto& ctx) {
    MoveSpec& spec = x3::_val(ctx).spec;
    spec.targets[spec.target_count - 1].joins = true;
};
const auto set_suffix = [](auto& ctx) {
    x3::_val(ctx).value = x3::_attr(ctx);
    x3::_val(ctx).suffix = true;
};
const auto set_nag = [](auto& ctx) { x3::_val(ctx).value = x3::_attr(ctx); };
const auto set_text = [](auto& ctx) {
    const auto& range = x3::_attr(ctx);
    x3::_val(ctx).text.assign(range.begin(), range.end());
};
const auto set_unclosed = [](auto& ctx) { x3::_val(ctx).closed = false; };
// A variation left open, unless the rest of the game was passed over as too deep (too-deep says it).
const auto set_variation_unclosed = [](auto& ctx) { x3::_val(ctx).closed = x3::get<state_tag>(ctx).too_deep_reported; };
const auto set_result = [](auto& ctx) { x3::_val(ctx).value = x3::_attr(ctx); };
const auto push_tag = [](auto& ctx) { x3::_val(ctx).tags.push_back(std::move(x3::_attr(ctx))); };
const auto push_header_comment = [](auto& ctx) { x3::_val(ctx).header_comments.push_back(std::move(x3::_attr(ctx))); };
// Room for a typical game at once rather than a string of reallocations, each moving every node.
const auto reserve_elements = [](auto& ctx) {
    x3::_val(ctx).elements.reserve(256); // the official notation writes two elements a move
    x3::get<state_tag>(ctx).game_has_moves = false;
};
// Each kind of element goes straight into the enclosing game's or variation's list: no variant
// temporary per alternative tried, no variant assignment.
const auto push = [](auto& ctx) { x3::_val(ctx).elements.emplace_back(std::move(x3::_attr(ctx))); };
const auto push_move = [](auto& ctx) {
    x3::get<state_tag>(ctx).game_has_moves = true;
    x3::_val(ctx).elements.emplace_back(std::move(x3::_attr(ctx)));
};
// A table's note (table_note_parser): a comment unless it holds nothing.
const auto push_note = [](auto& ctx) {
    if (!x3::_attr(ctx).text.empty()) x3::_val(ctx).elements.emplace_back(std::move(x3::_attr(ctx)));
};
const auto push_variation = [](auto& ctx) {
    x3::_val(ctx).elements.emplace_back(ast::x3::forward_ast<ast::Variation>(std::move(x3::_attr(ctx))));
};
const auto take_result = [](auto& ctx) { x3::_val(ctx).result = x3::_attr(ctx); };
const auto push_trailing_comment = [](auto& ctx) { x3::_val(ctx).trailing_comments.push_back(std::move(x3::_attr(ctx))); };

// ---------------------------------------------------------------------------------------------
// The rules.

// Tag pairs: committed at `[`, one line each.
// A tag name is words of letters, digits and '_' with one space between them: pente.org writes
// `[Player 1 Name "..."]`.
const auto name_word = +char_("a-zA-Z0-9_");
const auto tag_name_def = lexeme[x3::raw[name_word >> *(lit(' ') >> name_word)]];
const auto tag_value_def = lexeme[lit('"') > x3::raw[*((lit('\\') >> ~char_("\r\n")) | ~char_("\"\\\r\n"))] > lit('"')];
const auto tag_def = lit('[') >> x3::skip(char_(" \t"))[x3::expect[tag_name] > tag_value > lit(']')]; // blanks, no line end, inside
const auto bad_tag_def = lexeme[lit('[') >> *(char_ - x3::eol)];

// `12.` and `12...` (`...` after a space is skipped as blank, which reads the same); in a table
// cell the dot may be missing: `| 12 | c2-d3 |`, `12<TAB>c2-d3`.
const auto move_number_def = lexeme[x3::uint_ >> ((lit("...") >> x3::attr(true)) | (lit('.') >> x3::attr(false)) |
                                                  (&(blanks >> lit('|')) >> x3::attr(false)) | (&lit('\t') >> x3::attr(false)))];

// Moves: spaces may appear between the parts (`a6 * a7, b8, out`), not line ends. One lexeme with
// explicit blanks: the skipper would run before every part, and moves are most of a record.
// LC4's forms ride along where they cost nothing on the common path: `+` after the origin (a
// squares-first deployment), `-` between deployed squares, `#` for a deployment's last step out.
const auto target = square[add_target] >> -(blanks >> lit('+')[mark_join]);
const auto comma = blanks >> (lit(',') | lit('-')[set_dashed]) >> blanks;
const auto deploy_targets = out_word[set_out] | (target % comma >> -((comma >> out_word[set_out]) | lit('#')[set_hash_out]));
const auto move_def =
    lexeme[x3::raw[square[set_from] >> blanks >>
                   (((lit('-')[set_dash] | char_("xX")[set_capture]) >> blanks >> (out_word[set_out] | target)) |
                    (lit('*')[set_deploy] >> blanks >> deploy_targets) |
                    // `+` right before a square: `c1 b1+ e7 e6+` (the official notation's joins) is no deployment.
                    (lit('+')[set_plus_deploy] >> deploy_targets >> x3::eps[check_plus_deploy]))][locate]];

// A stone game's move: a point alone. In a Gounki game, a square of the official site's notation
// (`c1 b1+`, `b2 * c3 c4, c5`) or LC4's exit (`g8#`); and a lone `OUT`.
const auto placement_def =
    lexeme[x3::raw[point[set_point] >> -(blanks >> (lit('+')[set_point_join] | lit('#')[set_point_exit])) >>
                   -(blanks >> lit(','))][locate_point]] |
    lexeme[x3::raw[out_word[set_lone_out]][locate]];

const auto annotation_def = x3::raw[suffixes[set_suffix] | lexeme[lit('$') >> x3::uint_][set_nag]][locate];

const auto brace_comment = lexeme[lit('{') >> x3::raw[comment_body][set_text] >> (lit('}') | x3::eps[set_unclosed])];
const auto line_comment = lexeme[lit(';') >> x3::raw[*(char_ - x3::eol)][set_text]];
const auto comment_def = x3::raw[brace_comment | line_comment][locate];

const auto table_header_def = table_row;

// Anything else up to the next delimiter, so that a typo costs one token and is reported as such.
const auto delimiter = char_(" \t\r\n\f\v{}()[];|");
const auto unknown_def = lexeme[!results >> not_header_stop >> x3::omit[+(char_ - delimiter) | char_("}]")]];
const auto stray_close_def = x3::omit[lit(')')];

// Most frequent first, but for a table's note, which a cheap test rules out everywhere else (it
// must come before the move number, which would take a note's leading digits). The table header
// must come before `unknown`, which would take its words; nothing before it can consume a `|` row
// (they all fail on its first cell).
// A move number is the only element that starts with a digit: those go straight to it.
const auto element = (&after_cell_separator >> table_note[push_note]) | (&char_('0', '9') >> move_number[push]) | move[push_move] | placement[push_move] | annotation[push] |
    comment[push] | variation[push_variation] | table_header[push] | unknown[push];

const auto variation_def =
    x3::raw[lit('(') >> enter_variation >> *element >> leave_variation >> (lit(')') | x3::eps[set_variation_unclosed])][locate];

const auto result_def = x3::raw[results[set_result]][locate];

const auto tag_section = *(tag[push_tag] | bad_tag | comment[push_header_comment]);
const auto game_rule_def = x3::raw[x3::eps[reserve_elements] >> tag_section >> *(element | stray_close[push]) >>
                                   -(result[take_result] >> *comment[push_trailing_comment])][locate];

BOOST_SPIRIT_DEFINE(tag, tag_name, tag_value, bad_tag, move_number, move, placement, annotation, comment, variation, table_header,
                    unknown, stray_close, result, game_rule)

} // namespace gounki::parser::grammar
