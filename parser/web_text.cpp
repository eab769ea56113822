#include "parser/web_text.hpp"

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstring>
#include <functional>

namespace gounki::parser {

namespace {

constexpr std::size_t npos = std::string_view::npos;

// ---------------------------------------------------------------------------------------------
// Characters.

enum class Kind : std::uint8_t { other, dash, times, space, zero_width, quote };

Kind classify(char32_t c) {
    switch (c) {
    case 0x2010:
    case 0x2011:
    case 0x2012:
    case 0x2013:
    case 0x2014:
    case 0x2015:
    case 0x2212:
    case 0xFE63:
    case 0xFF0D: return Kind::dash;
    case 0x00D7: return Kind::times;
    case 0x00A0:
    case 0x1680:
    case 0x202F:
    case 0x205F:
    case 0x3000: return Kind::space;
    case 0x00AD:
    case 0x200B:
    case 0x200C:
    case 0x200D:
    case 0x200E:
    case 0x200F:
    case 0x2060:
    case 0xFEFF: return Kind::zero_width;
    case 0x201C:
    case 0x201D:
    case 0x201E:
    case 0x201F:
    case 0x00AB:
    case 0x00BB:
    case 0x2033:
    case 0xFF02: return Kind::quote;
    default: return c >= 0x2000 && c <= 0x200A ? Kind::space : Kind::other;
    }
}

bool is_guillemet(char32_t c) { return c == 0x00AB || c == 0x00BB; }

// The length of the well-formed UTF-8 character at p (n bytes available, n >= 1) and its code
// point; 0 when the bytes there are not one.
unsigned decode_utf8(const unsigned char* p, std::size_t n, char32_t& cp) {
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

unsigned encode_utf8(char32_t cp, char* b) {
    if (cp < 0x80) {
        b[0] = char(cp);
        return 1;
    }
    if (cp < 0x800) {
        b[0] = char(0xC0 | cp >> 6);
        b[1] = char(0x80 | (cp & 0x3F));
        return 2;
    }
    if (cp < 0x10000) {
        b[0] = char(0xE0 | cp >> 12);
        b[1] = char(0x80 | (cp >> 6 & 0x3F));
        b[2] = char(0x80 | (cp & 0x3F));
        return 3;
    }
    b[0] = char(0xF0 | cp >> 18);
    b[1] = char(0x80 | (cp >> 12 & 0x3F));
    b[2] = char(0x80 | (cp >> 6 & 0x3F));
    b[3] = char(0x80 | (cp & 0x3F));
    return 4;
}

// Does the 8-byte word v hold a zero byte?
constexpr std::uint64_t ones = 0x0101010101010101ull;
constexpr std::uint64_t highs = 0x8080808080808080ull;
inline bool has_zero(std::uint64_t v) { return ((v - ones) & ~v & highs) != 0; }

// The first offset at or after `from` holding byte a or b; n when none.
std::size_t find_either(const unsigned char* s, std::size_t from, std::size_t n, unsigned char a, unsigned char b) {
    std::size_t p = from;
    const std::uint64_t ma = ones * a, mb = ones * b;
    for (; p + 8 <= n; p += 8) {
        std::uint64_t v;
        std::memcpy(&v, s + p, 8);
        if (has_zero(v ^ ma) || has_zero(v ^ mb)) break;
    }
    for (; p < n; ++p)
        if (s[p] == a || s[p] == b) return p;
    return n;
}

bool ascii_alpha(unsigned char c) { return (c | 0x20) >= 'a' && (c | 0x20) <= 'z'; }
bool ascii_digit(unsigned char c) { return c >= '0' && c <= '9'; }
bool word_byte(unsigned char c) { return ascii_alpha(c) || ascii_digit(c) || c == '_'; }
// Blanks as the grammar's skipper has them (without '.').
bool blank_byte(unsigned char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; }
bool eol_byte(unsigned char c) { return c == '\n' || c == '\r'; }

// Bytes that stop a run of plain movetext: 1 always (non-ASCII, comment starts, line ends), 2 in
// HTML only ('<', '&').
constexpr std::array<unsigned char, 256> make_stops() {
    std::array<unsigned char, 256> t{};
    for (unsigned c = 0x80; c < 256; ++c) t[c] = 1;
    for (unsigned char c : {'{', ';', '\n', '\r'}) t[c] = 1;
    t['<'] = t['&'] = 2;
    return t;
}
constexpr std::array<unsigned char, 256> stops = make_stops();

// ---------------------------------------------------------------------------------------------
// HTML entities: the names a pasted record may hold. Every one is at least four bytes long
// ("&lt;") and stands for a character of at most three UTF-8 bytes, so it always fits in its place.

struct NamedEntity {
    std::string_view name;
    char32_t cp;
};

constexpr NamedEntity named_entities[] = {
    {"nbsp", 0xA0},
    {"ensp", 0x2002},
    {"emsp", 0x2003},
    {"thinsp", 0x2009},
    {"hairsp", 0x200A},
    {"numsp", 0x2007},
    {"puncsp", 0x2008},
    {"MediumSpace", 0x205F},
    {"NonBreakingSpace", 0xA0},
    {"ZeroWidthSpace", 0x200B},
    {"zwnj", 0x200C},
    {"zwj", 0x200D},
    {"lrm", 0x200E},
    {"rlm", 0x200F},
    {"NoBreak", 0x2060},
    {"shy", 0xAD},
    {"ndash", 0x2013},
    {"mdash", 0x2014},
    {"minus", 0x2212},
    {"hyphen", 0x2010},
    {"dash", 0x2010},
    {"horbar", 0x2015},
    {"times", 0xD7},
    {"amp", '&'},
    {"lt", '<'},
    {"gt", '>'},
    {"quot", '"'},
    {"apos", '\''},
    {"ldquo", 0x201C},
    {"rdquo", 0x201D},
    {"bdquo", 0x201E},
    {"laquo", 0xAB},
    {"raquo", 0xBB},
    {"lsquo", 0x2018},
    {"rsquo", 0x2019},
    {"sbquo", 0x201A},
    {"prime", 0x2032},
    {"Prime", 0x2033},
    {"hellip", 0x2026},
    {"middot", 0xB7},
    {"bull", 0x2022},
    {"frac12", 0xBD},
    {"half", 0xBD},
    {"frac14", 0xBC},
    {"frac34", 0xBE},
    {"deg", 0xB0},
    {"copy", 0xA9},
    {"reg", 0xAE},
    {"trade", 0x2122},
    {"sect", 0xA7},
    {"para", 0xB6},
    {"euro", 0x20AC},
    {"pound", 0xA3},
    {"cent", 0xA2},
    {"yen", 0xA5},
    {"iexcl", 0xA1},
    {"iquest", 0xBF},
    {"ordm", 0xBA},
    {"ordf", 0xAA},
    {"micro", 0xB5},
    {"plusmn", 0xB1},
    {"divide", 0xF7},
    {"sup1", 0xB9},
    {"sup2", 0xB2},
    {"sup3", 0xB3},
    {"Agrave", 0xC0},
    {"Aacute", 0xC1},
    {"Acirc", 0xC2},
    {"Atilde", 0xC3},
    {"Auml", 0xC4},
    {"Aring", 0xC5},
    {"AElig", 0xC6},
    {"Ccedil", 0xC7},
    {"Egrave", 0xC8},
    {"Eacute", 0xC9},
    {"Ecirc", 0xCA},
    {"Euml", 0xCB},
    {"Igrave", 0xCC},
    {"Iacute", 0xCD},
    {"Icirc", 0xCE},
    {"Iuml", 0xCF},
    {"ETH", 0xD0},
    {"Ntilde", 0xD1},
    {"Ograve", 0xD2},
    {"Oacute", 0xD3},
    {"Ocirc", 0xD4},
    {"Otilde", 0xD5},
    {"Ouml", 0xD6},
    {"Oslash", 0xD8},
    {"Ugrave", 0xD9},
    {"Uacute", 0xDA},
    {"Ucirc", 0xDB},
    {"Uuml", 0xDC},
    {"Yacute", 0xDD},
    {"THORN", 0xDE},
    {"szlig", 0xDF},
    {"agrave", 0xE0},
    {"aacute", 0xE1},
    {"acirc", 0xE2},
    {"atilde", 0xE3},
    {"auml", 0xE4},
    {"aring", 0xE5},
    {"aelig", 0xE6},
    {"ccedil", 0xE7},
    {"egrave", 0xE8},
    {"eacute", 0xE9},
    {"ecirc", 0xEA},
    {"euml", 0xEB},
    {"igrave", 0xEC},
    {"iacute", 0xED},
    {"icirc", 0xEE},
    {"iuml", 0xEF},
    {"eth", 0xF0},
    {"ntilde", 0xF1},
    {"ograve", 0xF2},
    {"oacute", 0xF3},
    {"ocirc", 0xF4},
    {"otilde", 0xF5},
    {"ouml", 0xF6},
    {"oslash", 0xF8},
    {"ugrave", 0xF9},
    {"uacute", 0xFA},
    {"ucirc", 0xFB},
    {"uuml", 0xFC},
    {"yacute", 0xFD},
    {"thorn", 0xFE},
    {"yuml", 0xFF},
    {"OElig", 0x152},
    {"oelig", 0x153},
    {"Scaron", 0x160},
    {"scaron", 0x161},
    {"Yuml", 0x178},
    {"Zcaron", 0x17D},
    {"zcaron", 0x17E},
};

// Numeric references to 0x80-0x9F mean Windows-1252 in HTML (&#150; is an en dash); 0: undefined.
constexpr char32_t cp1252_high[32] = {
    0x20AC, 0,      0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0, 0x017D, 0,
    0,      0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014, 0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0, 0x017E, 0x0178,
};

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

constexpr const char* inline_names[] = {"a",      "abbr", "b",   "bdi",  "bdo",  "big", "cite", "code", "data",  "dfn",  "em",
                                        "font",   "i",    "kbd", "mark", "nobr", "q",   "s",    "samp", "small", "span", "strike",
                                        "strong", "sub",  "sup", "time", "tt",   "u",   "var",  "wbr",  "ins",   "del"};

class Normalizer {
public:
    Normalizer(std::string_view in, std::string& out, std::vector<WebTextNote>& notes)
        : s_(reinterpret_cast<const unsigned char*>(in.data())), n_(in.size()), out_(out), notes_(notes) {
        out_.assign(in.data(), in.size());
        miss_gt_ = miss_dq_ = miss_sq_ = miss_comment_ = n_;
    }

    void run() {
        detect_html();
        std::size_t pos = 0;
        while (pos < n_) {
            if (html_ && !inside_) {
                pos = outside(pos);
                continue;
            }
            switch (ctx_) {
            case Ctx::movetext: pos = movetext(pos); break;
            case Ctx::brace: pos = brace(pos); break;
            case Ctx::line: pos = line_comment(pos); break;
            }
        }
        flush(n_);
    }

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

    // `read_as` is at most four bytes: the string is built in place, within its small buffer.
    void note(std::size_t at, char32_t cp, std::string_view read_as, bool entity) {
        WebTextNote& n = notes_.emplace_back();
        n.offset = std::uint32_t(at);
        n.code_point = cp;
        n.read_as.assign(read_as.data(), read_as.size());
        n.entity = entity;
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
    std::size_t find_end_tag(const char* name, std::size_t from) const {
        for (std::size_t p = find_byte('<', from); p != npos; p = find_byte('<', p + 1))
            if (p + 1 < n_ && s_[p + 1] == '/' && starts_ci(p + 2, name)) return p;
        return n_;
    }

    // ---- HTML -----------------------------------------------------------------------------

    // Does the text hold an HTML table: `<table`, `<tr`, `<td` or `<th` (any case, opening or
    // closing, followed by the end of a tag name) outside `{...}` comments? With a table tag, only
    // the inside of tables counts, from the start when the first one is a `</table>` (a piece cut
    // from the middle of a page); with rows or cells only, all of the text.
    // Is `at` inside the quoted value of a tag pair line (`[Name "...<...`)? Asked with `at`
    // increasing through one detection pass, so the line and its quotes are followed incrementally:
    // linear however long the lines are.
    std::size_t value_line_ = 0, value_upto_ = 0;
    bool value_tag_line_ = false, value_inside_ = false, value_started_ = false;
    bool in_tag_value(std::size_t at) {
        auto start_line = [&](std::size_t b) {
            value_line_ = value_upto_ = b;
            value_inside_ = false;
            while (b < n_ && blank_byte(s_[b])) ++b;
            value_tag_line_ = b < n_ && s_[b] == '[';
        };
        if (!value_started_) {
            value_started_ = true;
            start_line(0);
        }
        if (at > value_upto_) {
            const void* nl = memrchr(s_ + value_upto_, '\n', at - value_upto_);
            if (nl) start_line(std::size_t(static_cast<const unsigned char*>(nl) - s_) + 1);
        }
        if (!value_tag_line_) {
            value_upto_ = at;
            return false;
        }
        for (std::size_t k = value_upto_; k < at; ++k) {
            if (s_[k] == '\\' && value_inside_) ++k; // an escaped quote or backslash
            else if (s_[k] == '"') value_inside_ = !value_inside_;
        }
        value_upto_ = std::max(value_upto_, at);
        return value_inside_;
    }

    void detect_html() {
        bool any = false;
        std::size_t miss_brace = n_;
        for (std::size_t p = 0; p < n_; ++p) {
            p = find_either(s_, p, n_, '{', '<');
            if (p >= n_) break;
            const unsigned char c = s_[p];
            if (c == '{') {
                const std::size_t close = find_byte('}', p + 1, miss_brace);
                if (close != npos) p = close;
                continue;
            }
            if (c != '<') continue;
            if (in_tag_value(p)) continue; // `[Event "<table> night"]` is no HTML table
            const bool closing = p + 1 < n_ && s_[p + 1] == '/';
            const std::size_t q = p + 1 + closing;
            auto name_ends = [&](std::size_t at) { return at >= n_ || blank_byte(s_[at]) || s_[at] == '>' || s_[at] == '/'; };
            if (starts_ci(q, "table") && name_ends(q + 5)) {
                html_ = regions_ = true;
                inside_ = closing;
                depth_ = closing;
                return;
            }
            if ((starts_ci(q, "tr") || starts_ci(q, "td") || starts_ci(q, "th")) && name_ends(q + 2)) any = true;
        }
        html_ = any;
    }

    static std::uint32_t word4(const char* p) {
        std::uint32_t v;
        std::memcpy(&v, p, 4);
        return v;
    }
    // <td> <th> <tr> </td> </th> </tr> (any case) at pos, pos + 5 <= n_: what parse_tag finds.
    bool common_tag(std::size_t pos, Tag& t) const {
        const std::uint32_t v = word4(reinterpret_cast<const char*>(s_) + pos);
        const std::uint32_t open = v | word4("\0\x20\x20\0"); // lower case letters
        if (open == word4("<td>") || open == word4("<th>")) {
            t = Tag{TagKind::cell, pos + 4, false};
            return true;
        }
        if (open == word4("<tr>")) {
            t = Tag{TagKind::row, pos + 4, false};
            return true;
        }
        if (s_[pos + 4] != '>') return false;
        const std::uint32_t close = v | word4("\0\0\x20\x20");
        if (close == word4("</td") || close == word4("</th")) {
            t = Tag{TagKind::cell, pos + 5, false};
            return true;
        }
        if (close == word4("</tr")) {
            t = Tag{TagKind::other, pos + 5, false};
            return true;
        }
        return false;
    }

    // The kind of tag named `name` (lower case, `len` bytes; 0 for a name too long to hold).
    static TagKind tag_kind(const char* name, std::size_t len, bool closing) {
        if (len == 2) {
            if (name[0] == 't') {
                if (name[1] == 'd' || name[1] == 'h') return TagKind::cell;
                if (name[1] == 'r') return closing ? TagKind::other : TagKind::row;
            } else if (name[0] == 'b' && name[1] == 'r') {
                return TagKind::line_break;
            }
        }
        const std::string_view nm(name, len);
        if (nm == "table") return closing ? TagKind::table_end : TagKind::table;
        if (!closing && (nm == "script" || nm == "style" || nm == "caption")) return TagKind::raw_text;
        if (len == 0 || len > 6) return TagKind::other;
        for (const char* w : inline_names)
            if (nm == w) return TagKind::inline_tag;
        return TagKind::other;
    }

    // The tag at `pos` (a '<'), if it is one.
    bool parse_tag(std::size_t pos, Tag& t) {
        if (pos + 5 <= n_ && common_tag(pos, t)) return true;
        if (pos + 1 >= n_) return false;
        const unsigned char c1 = s_[pos + 1];
        if (c1 == '!' && pos + 3 < n_ && s_[pos + 2] == '-' && s_[pos + 3] == '-') {
            if (pos + 4 >= miss_comment_) return false;
            const std::size_t e = std::string_view(reinterpret_cast<const char*>(s_), n_).find("-->", pos + 4);
            if (e == npos) {
                miss_comment_ = pos + 4;
                return false;
            }
            t.kind = TagKind::comment;
            t.end = e + 3;
        } else if (c1 == '!' || c1 == '?') {
            const std::size_t e = find_byte('>', pos + 2, miss_gt_);
            if (e == npos) return false;
            t.kind = TagKind::other;
            t.end = e + 1;
        } else {
            const bool closing = c1 == '/';
            std::size_t q = pos + 1 + closing;
            if (q >= n_ || !ascii_alpha(s_[q])) return false;
            char name[12];
            std::size_t len = 0;
            bool long_name = false;
            for (; q < n_ && (ascii_alpha(s_[q]) || ascii_digit(s_[q]) || s_[q] == '-' || s_[q] == ':'); ++q) {
                if (len + 1 < sizeof name) name[len++] = char(s_[q] | 0x20);
                else long_name = true;
            }
            name[len] = 0;
            if (q < n_ && s_[q] == '>') { // no attributes, no line end: <td>, </tr>...
                t.end = q + 1;
                t.eol = false;
                t.kind = tag_kind(name, long_name ? 0 : len, closing);
                if (t.kind != TagKind::raw_text) return true;
                t.end = find_end_tag(name, t.end);
                t.eol = std::memchr(s_ + pos, '\n', t.end - pos) || std::memchr(s_ + pos, '\r', t.end - pos);
                return true;
            }
            const std::size_t gt = find_byte('>', q, miss_gt_);
            if (gt == npos) return false;
            // Up to the '>', over quoted attribute values (which may hold '>').
            std::size_t i = q, end = npos;
            while (i < n_) {
                const unsigned char c = s_[i];
                if (c == '>') {
                    end = i + 1;
                    break;
                }
                if (c == '=') {
                    std::size_t v = i + 1;
                    while (v < n_ && blank_byte(s_[v])) ++v;
                    if (v < n_ && (s_[v] == '"' || s_[v] == '\'')) {
                        const std::size_t close = find_byte(s_[v], v + 1, s_[v] == '"' ? miss_dq_ : miss_sq_);
                        if (close == npos) break;
                        i = close + 1;
                        continue;
                    }
                    i = v;
                    continue;
                }
                ++i;
            }
            if (end == npos) end = gt + 1; // an unterminated quoted value: the first '>' ends the tag
            t.end = end;
            t.kind = tag_kind(name, long_name ? 0 : len, closing);
            if (t.kind == TagKind::raw_text) t.end = find_end_tag(name, end);
        }
        t.eol = std::memchr(s_ + pos, '\n', t.end - pos) || std::memchr(s_ + pos, '\r', t.end - pos);
        return true;
    }

    // Markup at `pos` inside a table: written as spaces with its lead byte; tables counted. Returns
    // its end; `eol` tells whether the output there holds a line end.
    std::size_t markup(std::size_t pos, const Tag& t, bool& eol) {
        char lead = ' ';
        switch (t.kind) {
        case TagKind::table:
            lead = '\n';
            ++depth_;
            break;
        case TagKind::table_end:
            if (regions_ && --depth_ <= 0) {
                depth_ = 0;
                inside_ = false;
            }
            break;
        case TagKind::row:
        case TagKind::line_break: lead = '\n'; break;
        case TagKind::cell: lead = '|'; break;
        default: break;
        }
        eol = t.eol ? blank(pos, t.end, lead) : blank_flat(pos, t.end, lead);
        return t.end;
    }

    // Text outside every table: spaces, line ends kept, up to the next <table>.
    std::size_t outside(std::size_t pos) {
        flush(pos);
        bool eol = false;
        std::size_t end;
        Tag t;
        if (s_[pos] == '<' && parse_tag(pos, t)) {
            end = t.end;
            if (t.kind == TagKind::table) {
                inside_ = true;
                depth_ = 1;
                eol = blank(pos, end, '\n');
            } else {
                eol = blank(pos, end, ' ');
            }
        } else {
            end = find_byte('<', pos + 1);
            if (end == npos) end = n_;
            eol = blank(pos, end, ' ');
        }
        if (eol && ctx_ == Ctx::line) ctx_ = Ctx::movetext;
        return end;
    }

    // The entity at `pos` (a '&'): its code point and end; false when it is none or unknown.
    bool parse_entity(std::size_t pos, char32_t& cp, std::size_t& end) const {
        std::size_t q = pos + 1;
        if (q < n_ && s_[q] == '#') {
            ++q;
            const bool hex = q < n_ && (s_[q] | 0x20) == 'x';
            if (hex) ++q;
            const std::size_t digits = q;
            std::uint32_t v = 0;
            for (; q < n_ && q - digits < 8; ++q) {
                const unsigned char c = s_[q];
                int d;
                if (ascii_digit(c)) d = c - '0';
                else if (hex && (c | 0x20) >= 'a' && (c | 0x20) <= 'f') d = (c | 0x20) - 'a' + 10;
                else break;
                v = v * (hex ? 16 : 10) + std::uint32_t(d);
            }
            if (q == digits || q >= n_ || s_[q] != ';') return false;
            if (v >= 0x80 && v <= 0x9F) v = cp1252_high[v - 0x80];
            if (v == 0 || v > 0x10FFFF || (v >= 0xD800 && v <= 0xDFFF) || v == 0x7F) return false;
            if (v < 0x20 && v != '\t' && v != '\n' && v != '\r') return false;
            cp = v;
        } else {
            const std::size_t name = q;
            while (q < n_ && q - name < 32 && (ascii_alpha(s_[q]) || ascii_digit(s_[q]))) ++q;
            if (q == name || q >= n_ || s_[q] != ';') return false;
            const std::string_view nm(reinterpret_cast<const char*>(s_) + name, q - name);
            bool found = false;
            for (const NamedEntity& e : named_entities)
                if (nm == e.name) {
                    cp = e.cp;
                    found = true;
                    break;
                }
            if (!found) return false;
        }
        end = q + 1;
        char buf[4];
        return encode_utf8(cp, buf) <= end - pos; // always true; checked all the same
    }

    // ---- movetext -------------------------------------------------------------------------

    bool line_start(std::size_t pos) const { return pos == 0 || s_[pos - 1] == '\n' || (s_[pos - 1] == '\r' && s_[pos] != '\n'); }

    // The character at [b, b + len), code point cp, read in movetext.
    void character(std::size_t b, std::size_t len, char32_t cp, bool entity) {
        const std::size_t e = b + len;
        if (entity && cp < 0x80) {
            const char c = char(cp);
            if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
                flush(b);
                spaces(b, e);
                note(b, cp, " ", true);
            } else if (c == '{' || c == ';') {
                flush(b);
                out_[b] = c;
                spaces(b + 1, e);
                ctx_ = c == '{' ? Ctx::brace : Ctx::line;
                note(b, cp, std::string_view(&c, 1), true);
            } else {
                content(b, &c, 1);
                note(b, cp, std::string_view(&c, 1), true);
            }
            return;
        }
        switch (classify(cp)) {
        case Kind::dash:
            content(b, "-", 1);
            note(b, cp, "-", entity);
            break;
        case Kind::times:
            content(b, "x", 1);
            note(b, cp, "x", entity);
            break;
        case Kind::space:
            flush(b);
            spaces(b, e);
            note(b, cp, " ", entity);
            break;
        case Kind::zero_width:
            if (cp == 0xFEFF && b == 0 && !entity) { // the reader drops a leading byte order mark
                flush(b);
                break;
            }
            removed(b, e);
            note(b, cp, "", entity);
            break;
        default:
            if (entity) {
                char buf[4];
                const unsigned k = encode_utf8(cp, buf);
                content(b, buf, k);
                note(b, cp, std::string_view(buf, k), true);
            } else {
                content(b, reinterpret_cast<const char*>(s_) + b, len);
            }
            break;
        }
    }

    // Plain ASCII movetext from pos (not a stop byte) up to the next stop byte: blanks end tokens,
    // other bytes are token bytes, moved back only in a token that lost bytes already.
    std::size_t plain_run(std::size_t pos) {
        const unsigned char mask = html_ ? 3 : 1;
        std::size_t e = pos + 1;
        while (e < n_ && !(stops[s_[e]] & mask)) ++e;
        std::size_t i = pos;
        if (tok_ && w_ != i) {
            char* o = out_.data();
            for (; i < e && !blank_byte(s_[i]); ++i) o[w_++] = char(s_[i]);
            if (i == e) return e;
            flush(i);
        }
        // From i on, the output is the input.
        if (i < e) {
            if (blank_byte(s_[e - 1])) {
                tok_ = false;
            } else {
                tok_ = true;
                w_ = e;
            }
        }
        return e;
    }

    // The bulk of a table from pos (a '<'): its common tags (common_tag), plain ASCII text and line
    // ends followed by a '<', in one loop rather than one call of movetext() each; the same output.
    // It stops before anything else (which then needs a look from movetext()).
    std::size_t table_run(std::size_t pos) {
        Tag t;
        while (pos < n_) {
            const unsigned char c = s_[pos];
            if (c == '<') {
                if (pos + 5 > n_ || !common_tag(pos, t)) break;
                flush(pos);
                bool eol;
                pos = markup(pos, t, eol);
            } else if (c == '\n') {
                // Not followed by a tag pair line: that is looked at by movetext().
                if (pos + 1 >= n_ || s_[pos + 1] != '<') break;
                flush(pos);
                ++pos;
            } else if (!(stops[c] & 3)) {
                pos = plain_run(pos);
            } else {
                break;
            }
        }
        return pos;
    }

    std::size_t movetext(std::size_t pos) {
        if (line_start(pos)) {
            std::size_t end;
            if (tag_line(pos, end)) return end;
        }
        const unsigned char c = s_[pos];
        if (!(stops[c] & (html_ ? 3 : 1))) return plain_run(pos);
        if (c < 0x80) {
            if (html_ && c == '<' && pos + 5 <= n_) {
                Tag t;
                if (common_tag(pos, t)) return table_run(pos);
            }
            if (html_ && c == '<') {
                Tag t;
                if (parse_tag(pos, t)) {
                    if ((t.kind == TagKind::inline_tag || t.kind == TagKind::comment) && !t.eol) {
                        removed(pos, t.end);
                        return t.end;
                    }
                    flush(pos);
                    bool eol;
                    return markup(pos, t, eol);
                }
            }
            if (html_ && c == '&') {
                char32_t cp;
                std::size_t end;
                if (parse_entity(pos, cp, end)) {
                    character(pos, end - pos, cp, true);
                    return end;
                }
            }
            if (blank_byte(c)) {
                flush(pos);
            } else if (c == '{' || c == ';') {
                flush(pos);
                ctx_ = c == '{' ? Ctx::brace : Ctx::line;
            } else {
                content(pos, reinterpret_cast<const char*>(s_) + pos, 1);
            }
            return pos + 1;
        }
        if (c == 0xE2 && pos + 2 < n_ && s_[pos + 1] == 0x80 && s_[pos + 2] >= 0x90 && s_[pos + 2] <= 0x95) {
            // U+2010-U+2015, the dashes of word processors: what character() does with them
            const char32_t dash = 0x2000 | (s_[pos + 2] & 0x3F);
            content(pos, "-", 1);
            note(pos, dash, "-", false);
            return pos + 3;
        }
        char32_t cp;
        const unsigned len = decode_utf8(s_ + pos, n_ - pos, cp);
        if (len == 0) { // not UTF-8: kept as it is
            content(pos, reinterpret_cast<const char*>(s_) + pos, 1);
            return pos + 1;
        }
        character(pos, len, cp, false);
        return pos + len;
    }

    // ---- comments -------------------------------------------------------------------------

    std::size_t brace(std::size_t pos) {
        for (std::size_t i = pos; i < n_; ++i) {
            const unsigned char c = s_[i];
            if (c == '}') {
                ctx_ = Ctx::movetext;
                return i + 1;
            }
            if (c == '\n') {
                // The grammar leaves a comment open before a line that looks like a tag pair.
                if (tag_line_follows(i + 1)) ctx_ = Ctx::movetext;
                return i + 1;
            }
            Tag t;
            if (html_ && c == '<' && parse_tag(i, t)) {
                bool eol;
                const std::size_t end = markup(i, t, eol);
                if (eol && tag_line_follows(end)) ctx_ = Ctx::movetext;
                return end;
            }
        }
        return n_;
    }

    std::size_t line_comment(std::size_t pos) {
        for (std::size_t i = pos; i < n_; ++i) {
            const unsigned char c = s_[i];
            if (eol_byte(c)) {
                ctx_ = Ctx::movetext; // which reads the line end
                return i;
            }
            Tag t;
            if (html_ && c == '<' && parse_tag(i, t)) {
                bool eol;
                const std::size_t end = markup(i, t, eol);
                if (eol) ctx_ = Ctx::movetext;
                return end;
            }
        }
        return n_;
    }

    // ---- tag pair lines -------------------------------------------------------------------

    // A blank of a tag pair line at p: ' ', '\t', '\f', '\v', a Unicode space or a zero-width
    // character. Its length and code point.
    bool line_blank(std::size_t p, std::size_t& len, char32_t& cp) const {
        if (p >= n_) return false;
        const unsigned char c = s_[p];
        if (c == ' ' || c == '\t' || c == '\f' || c == '\v') {
            len = 1;
            cp = c;
            return true;
        }
        if (c < 0x80) return false;
        const unsigned k = decode_utf8(s_ + p, n_ - p, cp);
        if (k == 0) return false;
        const Kind kind = classify(cp);
        if (kind != Kind::space && kind != Kind::zero_width) return false;
        len = k;
        return true;
    }
    // Past the blanks at p; `spaced` tells whether one of them reads as a space.
    std::size_t skip_line_blanks(std::size_t p, bool* spaced = nullptr) const {
        std::size_t len;
        char32_t cp;
        while (line_blank(p, len, cp)) {
            if (spaced && (cp < 0x80 || classify(cp) == Kind::space)) *spaced = true;
            p += len;
        }
        return p;
    }
    // The quote that may delimit a tag value at p: '"' or a typographic one.
    bool quote_at(std::size_t p, std::size_t& len, char32_t& cp) const {
        if (p >= n_) return false;
        if (s_[p] == '"') {
            len = 1;
            cp = '"';
            return true;
        }
        if (s_[p] < 0x80) return false;
        const unsigned k = decode_utf8(s_ + p, n_ - p, cp);
        if (k == 0 || classify(cp) != Kind::quote) return false;
        len = k;
        return true;
    }

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
    bool parse_pair(std::size_t p, Pair& r) const {
        r.open = p;
        std::size_t q = skip_line_blanks(p + 1);
        r.name_b = q;
        while (q < n_ && word_byte(s_[q])) ++q;
        if (q == r.name_b) return false;
        r.name_e = q;
        r.spaced = false;
        q = skip_line_blanks(q, &r.spaced);
        if (!quote_at(q, r.q1_len, r.q1_cp)) return false;
        r.q1 = q;
        // A value opened with '"' prefers a '"' before its ']', as the grammar reads it: a
        // typographic quote before a ']' closes it only when no such '"' follows on the line
        // (`"Lyon”]` is "Lyon", `"is »]"]` is `is »]`: regression 007, found by fuzzing).
        bool fallback = false;
        Pair typographic;
        auto close_at = [&](std::size_t v, std::size_t len, char32_t cp, std::size_t e, Pair& into) {
            into.q2 = v;
            into.q2_len = len;
            into.q2_cp = cp;
            into.close = e;
        };
        for (std::size_t v = q + r.q1_len; v < n_;) {
            const unsigned char c = s_[v];
            if (eol_byte(c) || (html_ && c == '<')) break;
            if (c == '\\') {
                if (v + 1 >= n_ || eol_byte(s_[v + 1])) break;
                v += 2;
                continue;
            }
            std::size_t len;
            char32_t cp;
            if (quote_at(v, len, cp)) {
                const std::size_t e = skip_line_blanks(v + len);
                if (e < n_ && s_[e] == ']') {
                    if (r.q1_cp != '"' || cp == '"') {
                        close_at(v, len, cp, e, r);
                        return true;
                    }
                    if (!fallback) {
                        fallback = true;
                        close_at(v, len, cp, e, typographic);
                    }
                }
                v += len;
                continue;
            }
            char32_t any;
            const unsigned k = c < 0x80 ? 1 : decode_utf8(s_ + v, n_ - v, any);
            v += k ? k : 1;
        }
        if (!fallback) return false;
        close_at(typographic.q2, typographic.q2_len, typographic.q2_cp, typographic.close, r);
        return true;
    }

    // Does a tag pair line start at p, as the grammar's comment end sees it once read: `[Name "`
    // after blanks, with a space between the name and the quote?
    bool tag_line_follows(std::size_t p) const {
        std::size_t q = p;
        while (q < n_) {
            if (s_[q] == ' ' || s_[q] == '\t' || s_[q] == '\r' || s_[q] == '\f' || s_[q] == '\v') ++q;
            else if (q + 2 < n_ && s_[q] == 0xEF && s_[q + 1] == 0xBB && s_[q + 2] == 0xBF) q += 3;
            else break;
        }
        if (q < n_ && s_[q] == '[') { // the ASCII form, exactly as the grammar checks it
            std::size_t k = q + 1;
            while (k < n_ && word_byte(s_[k])) ++k;
            if (k > q + 1 && k < n_ && (s_[k] == ' ' || s_[k] == '\t')) {
                while (k < n_ && (s_[k] == ' ' || s_[k] == '\t')) ++k;
                if (k < n_ && s_[k] == '"') return true;
            }
        }
        q = skip_line_blanks(p);
        Pair pr;
        return q < n_ && s_[q] == '[' && parse_pair(q, pr) && pr.spaced;
    }

    // Blanks [b, e) of a tag pair line, rebuilt at w_: a Unicode space as one space, a zero-width
    // character as nothing.
    void put_blanks(std::size_t b, std::size_t e) {
        std::size_t len;
        char32_t cp;
        while (b < e && line_blank(b, len, cp)) {
            if (cp < 0x80) {
                out_[w_++] = char(cp);
            } else if (classify(cp) == Kind::space) {
                out_[w_++] = ' ';
                note(b, cp, " ", false);
            } else {
                note(b, cp, "", false);
            }
            b += len;
        }
    }
    std::size_t blanks_length(std::size_t b, std::size_t e) const {
        std::size_t n = 0, len;
        char32_t cp;
        while (b < e && line_blank(b, len, cp)) {
            n += cp < 0x80 || classify(cp) == Kind::space;
            b += len;
        }
        return n;
    }
    // A space that goes with a guillemet: ' ', U+00A0, U+2009 or U+202F.
    std::size_t guillemet_space_at(std::size_t p, std::size_t limit, char32_t& cp) const {
        if (p >= limit) return 0;
        if (s_[p] == ' ') {
            cp = ' ';
            return 1;
        }
        const unsigned k = s_[p] < 0x80 ? 0 : decode_utf8(s_ + p, limit - p, cp);
        return k && (cp == 0xA0 || cp == 0x2009 || cp == 0x202F) ? k : 0;
    }
    std::size_t guillemet_space_before(std::size_t p, std::size_t limit, char32_t& cp) const {
        for (std::size_t k = 1; k <= 3 && p >= limit + k; ++k)
            if (guillemet_space_at(p - k, p, cp) == k) return k;
        return 0;
    }

    // Rebuilds one tag pair at w_ (<= pr.open).
    void put_pair(const Pair& pr) {
        const std::size_t start = w_;
        out_[w_++] = '[';
        put_blanks(pr.open + 1, pr.name_b);
        std::memcpy(&out_[w_], s_ + pr.name_b, pr.name_e - pr.name_b);
        w_ += pr.name_e - pr.name_b;
        put_blanks(pr.name_e, pr.q1);
        out_[w_++] = '"';
        if (pr.q1_cp != '"') note(pr.q1, pr.q1_cp, "\"", false);
        // The value; inside guillemets without the spaces next to them.
        std::size_t vb = pr.q1 + pr.q1_len, ve = pr.q2;
        std::vector<WebTextNote> trailing;
        char32_t cp;
        if (is_guillemet(pr.q1_cp))
            while (std::size_t k = guillemet_space_at(vb, ve, cp)) {
                if (cp != ' ') note(vb, cp, "", false);
                vb += k;
            }
        if (is_guillemet(pr.q2_cp))
            while (std::size_t k = guillemet_space_before(ve, vb, cp)) {
                ve -= k;
                if (cp != ' ') trailing.insert(trailing.begin(), WebTextNote{std::uint32_t(ve), cp, "", false});
            }
        // A '"' inside a value between typographic quotes is text: escaped when there is room.
        std::size_t quotes = 0;
        const bool typographic = pr.q1_cp != '"' || pr.q2_cp != '"';
        if (typographic)
            for (std::size_t v = vb; v < ve; ++v) {
                if (s_[v] == '\\') ++v;
                else if (s_[v] == '"') ++quotes;
            }
        const std::size_t rest = (ve - vb) + 1 + blanks_length(pr.q2 + pr.q2_len, pr.close) + 1;
        const bool escape = quotes > 0 && (w_ - start) + rest + quotes <= pr.close + 1 - pr.open;
        for (std::size_t v = vb; v < ve; ++v) {
            if (s_[v] == '\\' && v + 1 < ve) {
                out_[w_++] = '\\';
                out_[w_++] = char(s_[++v]);
                continue;
            }
            if (escape && s_[v] == '"') out_[w_++] = '\\';
            out_[w_++] = char(s_[v]);
        }
        for (WebTextNote& n : trailing) notes_.push_back(std::move(n));
        out_[w_++] = '"';
        if (pr.q2_cp != '"') note(pr.q2, pr.q2_cp, "\"", false);
        put_blanks(pr.q2 + pr.q2_len, pr.close);
        out_[w_++] = ']';
    }

    // A line starting at pos (movetext, no token open) whose first non-blank byte is '['. Its tag
    // pairs are rebuilt and padded after their last ']'; `end` is where movetext goes on. A line
    // that is not a tag pair is left as it is (outside HTML, where it may hold markup).
    bool tag_line(std::size_t pos, std::size_t& end) {
        const std::size_t p = skip_line_blanks(pos);
        if (p >= n_ || s_[p] != '[') return false;
        Pair pr;
        if (!parse_pair(p, pr)) {
            if (html_) return false;
            end = p;
            while (end < n_ && !eol_byte(s_[end])) ++end;
            return true;
        }
        // Blanks before the '[' stay in place.
        for (std::size_t b = pos, len = 1; b < p; b += len) {
            char32_t cp = 0;
            if (!line_blank(b, len, cp) || cp < 0x80 || (cp == 0xFEFF && b == 0)) continue;
            spaces(b, b + len);
            note(b, cp, classify(cp) == Kind::space ? " " : "", false);
        }
        w_ = p;
        put_pair(pr);
        for (;;) {
            const std::size_t next = skip_line_blanks(pr.close + 1);
            Pair more;
            if (next >= n_ || s_[next] != '[' || !parse_pair(next, more)) break;
            put_blanks(pr.close + 1, next);
            pr = more;
            put_pair(pr);
        }
        end = pr.close + 1;
        spaces(w_, end);
        return true;
    }
};

} // namespace

bool may_need_web_text_pass(std::string_view text) {
    const char* p = text.data();
    std::size_t n = text.size();
    while (n >= 8) {
        std::uint64_t v;
        std::memcpy(&v, p, 8);
        if ((v & highs) || has_zero(v ^ (ones * '<')) || has_zero(v ^ (ones * '&'))) return true;
        p += 8;
        n -= 8;
    }
    for (; n; --n, ++p) {
        const unsigned char c = static_cast<unsigned char>(*p);
        if (c >= 0x80 || c == '<' || c == '&') return true;
    }
    return false;
}

bool normalize_web_text(std::string_view text, std::string& out, std::vector<WebTextNote>& notes) {
    const std::less<const char*> before;
    if (!text.empty() && !before(text.data(), out.data()) && before(text.data(), out.data() + out.capacity())) {
        const std::string copy(text); // the text lies in `out`, which is about to be overwritten
        return normalize_web_text(copy, out, notes);
    }
    Normalizer(text, out, notes).run();
    return std::string_view(out) != text;
}

std::string describe_code_point(char32_t c) {
    const char* name = nullptr;
    switch (c) {
    case 0x2010: name = "a hyphen"; break;
    case 0x2011: name = "a non-breaking hyphen"; break;
    case 0x2012: name = "a figure dash"; break;
    case 0x2013: name = "an en dash"; break;
    case 0x2014: name = "an em dash"; break;
    case 0x2015: name = "a horizontal bar"; break;
    case 0x2212: name = "a minus sign"; break;
    case 0xFE63: name = "a small hyphen-minus"; break;
    case 0xFF0D: name = "a full-width hyphen-minus"; break;
    case 0x00D7: name = "a multiplication sign"; break;
    case 0x00A0: name = "a non-breaking space"; break;
    case 0x1680: name = "an ogham space mark"; break;
    case 0x2000: name = "an en quad"; break;
    case 0x2001: name = "an em quad"; break;
    case 0x2002: name = "an en space"; break;
    case 0x2003: name = "an em space"; break;
    case 0x2004: name = "a three-per-em space"; break;
    case 0x2005: name = "a four-per-em space"; break;
    case 0x2006: name = "a six-per-em space"; break;
    case 0x2007: name = "a figure space"; break;
    case 0x2008: name = "a punctuation space"; break;
    case 0x2009: name = "a thin space"; break;
    case 0x200A: name = "a hair space"; break;
    case 0x202F: name = "a narrow non-breaking space"; break;
    case 0x205F: name = "a medium mathematical space"; break;
    case 0x3000: name = "an ideographic space"; break;
    case 0x00AD: name = "a soft hyphen"; break;
    case 0x200B: name = "a zero-width space"; break;
    case 0x200C: name = "a zero-width non-joiner"; break;
    case 0x200D: name = "a zero-width joiner"; break;
    case 0x200E: name = "a left-to-right mark"; break;
    case 0x200F: name = "a right-to-left mark"; break;
    case 0x2060: name = "a word joiner"; break;
    case 0xFEFF: name = "a zero-width no-break space (byte order mark)"; break;
    case 0x201C: name = "a left double quotation mark"; break;
    case 0x201D: name = "a right double quotation mark"; break;
    case 0x201E: name = "a double low-9 quotation mark"; break;
    case 0x201F: name = "a double high-reversed-9 quotation mark"; break;
    case 0x00AB: name = "a left-pointing double angle quotation mark"; break;
    case 0x00BB: name = "a right-pointing double angle quotation mark"; break;
    case 0x2033: name = "a double prime"; break;
    case 0xFF02: name = "a full-width quotation mark"; break;
    default: break;
    }
    char hex[16];
    std::snprintf(hex, sizeof hex, "U+%04X", unsigned(c));
    if (name) return std::string(name) + " (" + hex + ")";
    return std::string("the character ") + hex;
}

} // namespace gounki::parser
