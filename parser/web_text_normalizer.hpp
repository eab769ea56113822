#pragma once
// Inside the web-text pass (web_text.hpp): character helpers and the Normalizer, whose members are
// defined by concern: web_text.cpp (the pass, movetext and comments), web_html.cpp (HTML tables:
// detection, tags, entities) and web_tag_pairs.cpp (tag pair lines with typographic quotes).
// Included by those three files only.

#include <array>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "parser/web_text.hpp"

namespace gounki::parser::web_detail {

inline constexpr std::size_t npos = std::string_view::npos;

// ---------------------------------------------------------------------------------------------
// Characters.

enum class Kind : std::uint8_t { other, dash, times, space, zero_width, quote };

Kind classify(char32_t c);

inline bool is_guillemet(char32_t c) { return c == 0x00AB || c == 0x00BB; }

// The length of the well-formed UTF-8 character at p (n bytes available, n >= 1) and its code
// point; 0 when the bytes there are not one.
inline unsigned decode_utf8(const unsigned char* p, std::size_t n, char32_t& cp) {
    const unsigned char c = p[0];
    auto cont = [&](std::size_t i) { return i < n && (p[i] & 0xC0) == 0x80; };
    if (c < 0x80) {
        cp = c;
        return 1;
    }
    if (c < 0xC2) return 0;
    if (c < 0xE0) {
        if (!cont(1)) return 0;
        cp = char32_t(c & 0x1F) << 6 | (p[1] & 0x3F);
        return 2;
    }
    if (c < 0xF0) {
        if (!cont(1) || !cont(2)) return 0;
        cp = char32_t(c & 0x0F) << 12 | char32_t(p[1] & 0x3F) << 6 | (p[2] & 0x3F);
        if (cp < 0x800 || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
        return 3;
    }
    if (c < 0xF5) {
        if (!cont(1) || !cont(2) || !cont(3)) return 0;
        cp = char32_t(c & 0x07) << 18 | char32_t(p[1] & 0x3F) << 12 | char32_t(p[2] & 0x3F) << 6 | (p[3] & 0x3F);
        if (cp < 0x10000 || cp > 0x10FFFF) return 0;
        return 4;
    }
    return 0;
}

// Writes cp as UTF-8 at b (room for four bytes); its length.
unsigned encode_utf8(char32_t cp, char* b);

// Does the 8-byte word v hold a zero byte?
inline constexpr std::uint64_t ones = 0x0101010101010101ull;
inline constexpr std::uint64_t highs = 0x8080808080808080ull;
inline bool has_zero(std::uint64_t v) { return ((v - ones) & ~v & highs) != 0; }

// The first offset at or after `from` holding byte a or b; n when none.
std::size_t find_either(const unsigned char* s, std::size_t from, std::size_t n, unsigned char a, unsigned char b);

inline bool ascii_alpha(unsigned char c) { return (c | 0x20) >= 'a' && (c | 0x20) <= 'z'; }
inline bool ascii_digit(unsigned char c) { return c >= '0' && c <= '9'; }
inline bool word_byte(unsigned char c) { return ascii_alpha(c) || ascii_digit(c) || c == '_'; }
// The end of a tag name from q: words of word bytes with one space between them (`Player 1 Name`).
inline std::size_t tag_name_end(const unsigned char* s, std::size_t q, std::size_t n) {
    const std::size_t b = q;
    while (q < n && word_byte(s[q])) ++q;
    if (q == b) return q;
    while (q + 1 < n && s[q] == ' ' && word_byte(s[q + 1])) {
        ++q;
        while (q < n && word_byte(s[q])) ++q;
    }
    return q;
}
// Blanks as the grammar's skipper has them (without '.').
inline bool blank_byte(unsigned char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; }
inline bool eol_byte(unsigned char c) { return c == '\n' || c == '\r'; }

// Bytes that stop a run of plain movetext: 1 always (non-ASCII, comment starts, line ends), 2 in
// HTML only ('<', '&').
constexpr std::array<unsigned char, 256> make_stops() {
    std::array<unsigned char, 256> t{};
    for (unsigned c = 0x80; c < 256; ++c) t[c] = 1;
    for (unsigned char c : {'{', ';', '\n', '\r'}) t[c] = 1;
    t['<'] = t['&'] = 2;
    return t;
}
inline constexpr std::array<unsigned char, 256> stops = make_stops();

// ---------------------------------------------------------------------------------------------
// HTML tags.

enum class TagKind : std::uint8_t {
    table, // <table ...>
    table_end, // </table>
    row, // <tr ...>
    cell, // <td> <th> </td> </th>
    line_break, // <br>
    raw_text, // <script> <style> <caption>: their content is no record text
    inline_tag, // <b> <span> <a>...: no break in the text
    comment, // <!-- ... -->
    other,
};

struct Tag {
    TagKind kind = TagKind::other;
    std::size_t end = 0; // one past the '>' (for raw_text: past the content, before its end tag)
    bool eol = false; // the tag holds a line end
};

class Normalizer {
public:
    Normalizer(std::string_view in, std::string& out, std::vector<WebTextNote>& notes)
        : s_(reinterpret_cast<const unsigned char*>(in.data())), n_(in.size()), out_(out), notes_(notes) {
        out_.assign(in.data(), in.size());
        miss_gt_ = miss_dq_ = miss_sq_ = miss_comment_ = n_;
    }

    void run();

private:
    enum class Ctx : std::uint8_t { movetext, brace, line };

    const unsigned char* s_;
    std::size_t n_;
    std::string& out_;
    std::vector<WebTextNote>& notes_;
    Ctx ctx_ = Ctx::movetext;
    bool html_ = false; // the text holds an HTML table
    bool regions_ = false; // ... with a <table> tag: only the inside of tables counts
    bool inside_ = true;
    int depth_ = 0; // open <table> tags
    bool tok_ = false; // a movetext token is open; its next byte goes to w_
    std::size_t w_ = 0;
    // No such byte or string at or after this offset (searches that failed once are not repeated,
    // so that text full of '<' without '>' stays linear).
    std::size_t miss_gt_, miss_dq_, miss_sq_, miss_comment_;

    // ---- output ---------------------------------------------------------------------------

    void note(std::size_t at, char32_t cp, std::string_view read_as, bool entity) {
        notes_.emplace_back(std::uint32_t(at), cp, read_as, entity);
    }
    void spaces(std::size_t b, std::size_t e) {
        if (e > b) std::memset(&out_[b], ' ', e - b);
    }
    // Markup or text that is no record text: spaces, keeping line ends; `lead` as its first byte.
    // True when the span holds a line end.
    bool blank(std::size_t b, std::size_t e, char lead) {
        if (b < e && !std::memchr(s_ + b, '\n', e - b) && !std::memchr(s_ + b, '\r', e - b)) return blank_flat(b, e, lead);
        bool eol = false;
        for (std::size_t i = b; i < e; ++i) {
            const unsigned char c = s_[i];
            if (eol_byte(c)) eol = true;
            else out_[i] = ' ';
        }
        if (lead != ' ' && b < e && !eol_byte(s_[b])) out_[b] = lead;
        return eol || lead == '\n';
    }
    // The same for a span known to hold no line end.
    bool blank_flat(std::size_t b, std::size_t e, char lead) {
        if (b >= e) return lead == '\n';
        char* o = out_.data();
        if (e - b <= 8) {
            for (std::size_t i = b; i < e; ++i) o[i] = ' ';
        } else {
            std::memset(o + b, ' ', e - b);
        }
        if (lead != ' ') o[b] = lead;
        return lead == '\n';
    }
    // Bytes of the current token (opened at `at` when none is).
    void content(std::size_t at, const char* bytes, std::size_t k) {
        if (!tok_) {
            tok_ = true;
            w_ = at;
        }
        std::memcpy(&out_[w_], bytes, k);
        w_ += k;
    }
    // Bytes read as nothing: inside a token they are given back at its end; before it, spaces.
    void removed(std::size_t b, std::size_t e) {
        if (!tok_) spaces(b, e);
    }
    // Ends the current token before `upto`: what it gave back becomes spaces at its end.
    void flush(std::size_t upto) {
        if (!tok_) return;
        spaces(w_, upto);
        tok_ = false;
    }

    // ---- searches -------------------------------------------------------------------------

    std::size_t find_byte(unsigned char c, std::size_t from, std::size_t& miss) const {
        if (from >= miss) return npos;
        const void* p = std::memchr(s_ + from, c, n_ - from);
        if (!p) {
            miss = from;
            return npos;
        }
        return std::size_t(static_cast<const unsigned char*>(p) - s_);
    }
    std::size_t find_byte(unsigned char c, std::size_t from) const {
        if (from >= n_) return npos;
        const void* p = std::memchr(s_ + from, c, n_ - from);
        return p ? std::size_t(static_cast<const unsigned char*>(p) - s_) : npos;
    }
    bool starts_ci(std::size_t at, const char* word) const { // `word` in lower case
        for (std::size_t i = 0; word[i]; ++i)
            if (at + i >= n_ || char(s_[at + i] | 0x20) != word[i]) return false;
        return true;
    }
    // Where `</name` (any case) starts at or after `from`; n_ when nowhere.
    std::size_t find_end_tag(const char* name, std::size_t from) const;

    // ---- HTML -----------------------------------------------------------------------------

    // Is `at` inside the quoted value of a tag pair line (`[Name "...<...`)? Asked with `at`
    // increasing through one detection pass, so the line and its quotes are followed incrementally:
    // linear however long the lines are.
    std::size_t value_line_ = 0, value_upto_ = 0;
    bool value_tag_line_ = false, value_inside_ = false, value_started_ = false;
    bool in_tag_value(std::size_t at);

    // Does the text hold an HTML table: `<table`, `<tr`, `<td` or `<th` (any case, opening or
    // closing, followed by the end of a tag name) outside `{...}` comments? With a table tag, only
    // the inside of tables counts, from the start when the first one is a `</table>` (a piece cut
    // from the middle of a page); with rows or cells only, all of the text.
    void detect_html();

    static std::uint32_t word4(const char* p) {
        std::uint32_t v;
        std::memcpy(&v, p, 4);
        return v;
    }
    // <td> <th> <tr> </td> </th> </tr> (any case) at pos, pos + 5 <= n_: what parse_tag finds.
    bool common_tag(std::size_t pos, Tag& t) const {
        const std::uint32_t v = word4(reinterpret_cast<const char*>(s_) + pos);
        const std::uint32_t open = v | word4("\0\x20\x20\0"); // lower case letters
        const bool row = open == word4("<tr>");
        if (row || open == word4("<td>") || open == word4("<th>")) {
            t = Tag{row ? TagKind::row : TagKind::cell, pos + 4, false};
            return true;
        }
        if (s_[pos + 4] != '>') return false;
        const std::uint32_t close = v | word4("\0\0\x20\x20");
        const bool row_end = close == word4("</tr");
        if (row_end || close == word4("</td") || close == word4("</th")) {
            t = Tag{row_end ? TagKind::other : TagKind::cell, pos + 5, false};
            return true;
        }
        return false;
    }

    // Whether the ';' at `at` ends an entity (`&amp;`, `&#8211;`) rather than starting a comment.
    bool ends_entity(std::size_t at) const;
    // Past the `;` line comments that start before `p` (`semi`: the next ';', moved on): the end of
    // the one that reaches p or beyond (its line end, or n_), or npos when none does.
    std::size_t line_comment_over(std::size_t& semi, std::size_t p);

    // The kind of tag named `name` (lower case, `len` bytes; 0 for a name too long to hold).
    static TagKind tag_kind(const char* name, std::size_t len, bool closing);

    // The tag at `pos` (a '<'), if it is one.
    bool parse_tag(std::size_t pos, Tag& t);

    // Markup at `pos` inside a table: written as spaces with its lead byte; tables counted. Returns
    // its end; `eol` tells whether the output there holds a line end.
    std::size_t markup(std::size_t pos, const Tag& t, bool& eol);

    // Text outside every table: spaces, line ends kept, up to the next <table>.
    std::size_t outside(std::size_t pos);

    // The entity at `pos` (a '&'): its code point and end; false when it is none or unknown.
    bool parse_entity(std::size_t pos, char32_t& cp, std::size_t& end) const;

    // ---- movetext -------------------------------------------------------------------------

    bool line_start(std::size_t pos) const { return pos == 0 || s_[pos - 1] == '\n' || (s_[pos - 1] == '\r' && s_[pos] != '\n'); }

    // The character at [b, b + len), code point cp, read in movetext.
    void character(std::size_t b, std::size_t len, char32_t cp, bool entity);

    // Plain ASCII movetext from pos (not a stop byte) up to the next stop byte: blanks end tokens,
    // other bytes are token bytes, moved back only in a token that lost bytes already.
    std::size_t plain_run(std::size_t pos);

    // The bulk of a table from pos (a '<'): its common tags (common_tag), plain ASCII text and line
    // ends followed by a '<', in one loop rather than one call of movetext() each; the same output.
    // It stops before anything else (which then needs a look from movetext()).
    std::size_t table_run(std::size_t pos);

    std::size_t movetext(std::size_t pos);

    // ---- comments -------------------------------------------------------------------------

    std::size_t brace(std::size_t pos);

    std::size_t line_comment(std::size_t pos);

    // ---- tag pair lines -------------------------------------------------------------------

    // A blank of a tag pair line at p: ' ', '\t', '\f', '\v', a Unicode space or a zero-width
    // character. Its length and code point.
    bool line_blank(std::size_t p, std::size_t& len, char32_t& cp) const;
    // Past the blanks at p; `spaced` tells whether one of them reads as a space.
    std::size_t skip_line_blanks(std::size_t p, bool* spaced = nullptr) const;
    // The quote that may delimit a tag value at p: '"' or a typographic one.
    bool quote_at(std::size_t p, std::size_t& len, char32_t& cp) const;

    struct Pair {
        std::size_t open = 0; // '['
        std::size_t name_b = 0, name_e = 0;
        std::size_t q1 = 0, q1_len = 0; // opening quote
        char32_t q1_cp = 0;
        std::size_t q2 = 0, q2_len = 0; // closing quote; the value is [q1 + q1_len, q2)
        char32_t q2_cp = 0;
        std::size_t close = 0; // ']'
        bool spaced = false; // a blank that reads as a space between the name and the value
    };

    // `[Name "value"]` at p (a '['), the quotes '"' or typographic, the value up to the first
    // quote followed by blanks and ']' on the line (escapes `\x` skipped as the grammar does).
    bool parse_pair(std::size_t p, Pair& r) const;

    // Does a tag pair line start at p, as the grammar's comment end sees it once read: `[Name "`
    // after blanks, with a space between the name and the quote?
    bool tag_line_follows(std::size_t p) const;

    // Blanks [b, e) of a tag pair line, rebuilt at w_: a Unicode space as one space, a zero-width
    // character as nothing.
    void put_blanks(std::size_t b, std::size_t e);
    std::size_t blanks_length(std::size_t b, std::size_t e) const;
    // A space that goes with a guillemet: ' ', U+00A0, U+2009 or U+202F.
    std::size_t guillemet_space_at(std::size_t p, std::size_t limit, char32_t& cp) const;
    std::size_t guillemet_space_before(std::size_t p, std::size_t limit, char32_t& cp) const;

    // Rebuilds one tag pair at w_ (<= pr.open).
    void put_pair(const Pair& pr);

    // A line starting at pos (movetext, no token open) whose first non-blank byte is '['. Its tag
    // pairs are rebuilt and padded after their last ']'; `end` is where movetext goes on. A line
    // that is not a tag pair is left as it is (outside HTML, where it may hold markup).
    bool tag_line(std::size_t pos, std::size_t& end);
};

} // namespace gounki::parser::web_detail
