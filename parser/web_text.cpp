#include "parser/web_text_normalizer.hpp"

#include <algorithm>
#include <cstdio>
#include <functional>

namespace gounki::parser::web_detail {

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

void Normalizer::run() {
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

void Normalizer::character(std::size_t b, std::size_t len, char32_t cp, bool entity) {
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

std::size_t Normalizer::plain_run(std::size_t pos) {
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

std::size_t Normalizer::table_run(std::size_t pos) {
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

std::size_t Normalizer::movetext(std::size_t pos) {
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

std::size_t Normalizer::brace(std::size_t pos) {
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

std::size_t Normalizer::line_comment(std::size_t pos) {
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

} // namespace gounki::parser::web_detail

namespace gounki::parser {

using namespace web_detail;

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

char ascii_stand_in(char32_t c) {
    switch (web_detail::classify(c)) {
    case web_detail::Kind::dash: return '-';
    case web_detail::Kind::times: return 'x';
    case web_detail::Kind::quote: return '"';
    case web_detail::Kind::space: return ' ';
    default: return 0;
    }
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
