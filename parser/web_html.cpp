#include "parser/web_text_normalizer.hpp"

#include <algorithm>

namespace gounki::parser::web_detail {

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

constexpr const char* inline_names[] = {"a",      "abbr", "b",   "bdi",  "bdo",  "big", "cite", "code", "data",  "dfn",  "em",
                                        "font",   "i",    "kbd", "mark", "nobr", "q",   "s",    "samp", "small", "span", "strike",
                                        "strong", "sub",  "sup", "time", "tt",   "u",   "var",  "wbr",  "ins",   "del"};

std::size_t Normalizer::find_end_tag(const char* name, std::size_t from) const {
    for (std::size_t p = find_byte('<', from); p != npos; p = find_byte('<', p + 1))
        if (p + 1 < n_ && s_[p + 1] == '/' && starts_ci(p + 2, name)) return p;
    return n_;
}

bool Normalizer::in_tag_value(std::size_t at) {
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

bool Normalizer::ends_entity(std::size_t at) const {
    std::size_t b = at;
    while (b > 0 && at - b < 32 && (ascii_alpha(s_[b - 1]) || ascii_digit(s_[b - 1]) || s_[b - 1] == '#')) --b;
    return b < at && b > 0 && s_[b - 1] == '&';
}

std::size_t Normalizer::line_comment_over(std::size_t& semi, std::size_t p) {
    while (semi < p) {
        if (ends_entity(semi) || in_tag_value(semi)) {
            semi = find_byte(';', semi + 1);
            continue;
        }
        const std::size_t eol = find_byte('\n', semi + 1);
        semi = eol == npos ? npos : find_byte(';', eol + 1);
        if (eol == npos || eol >= p) return eol == npos ? n_ : eol;
    }
    return npos;
}

void Normalizer::detect_html() {
    bool any = false;
    std::size_t miss_brace = n_;
    // The next `;` that may start a line comment: what such a comment holds is no markup (a record
    // may quote HTML there), as what a brace comment holds is not.
    std::size_t semi = find_byte(';', 0);
    for (std::size_t p = 0; p < n_; ++p) {
        p = find_either(s_, p, n_, '{', '<');
        if (p >= n_) break;
        if (const std::size_t end = line_comment_over(semi, p); end != npos) {
            p = end;
            continue;
        }
        const unsigned char c = s_[p];
        if (c == '{') {
            const std::size_t close = find_byte('}', p + 1, miss_brace);
            if (close != npos) p = close;
            while (semi < p) semi = find_byte(';', semi + 1); // a ';' inside it starts nothing
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

TagKind Normalizer::tag_kind(const char* name, std::size_t len, bool closing) {
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

bool Normalizer::parse_tag(std::size_t pos, Tag& t) {
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

std::size_t Normalizer::markup(std::size_t pos, const Tag& t, bool& eol) {
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

std::size_t Normalizer::outside(std::size_t pos) {
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

bool Normalizer::parse_entity(std::size_t pos, char32_t& cp, std::size_t& end) const {
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

} // namespace gounki::parser::web_detail
