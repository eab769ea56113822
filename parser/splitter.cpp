#include "parser/splitter.hpp"

#include <array>
#include <cstdint>
#include <string_view>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace gounki::parser {

namespace {

// A look ahead may need bytes that have not arrived yet.
enum class Look { yes, no, more };

bool blank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v'; }
bool word(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_'; }
bool is_bom(const char* p, const char* end) {
    return end - p >= 3 && static_cast<unsigned char>(p[0]) == 0xEF && static_cast<unsigned char>(p[1]) == 0xBB &&
        static_cast<unsigned char>(p[2]) == 0xBF;
}

// Does a line that looks like a tag pair, `[Name "` (or a typographic quote), start at p?
Look tag_line_at(const char* p, const char* end, bool eof) {
    while (p != end && (blank(*p) || is_bom(p, end))) p += blank(*p) ? 1 : 3;
    if (p == end) return eof ? Look::no : Look::more;
    if (*p++ != '[') return Look::no;
    for (;;) { // words with one space between them: `[Player 1 Name "`
        const char* w = p;
        while (p != end && word(*p)) ++p;
        if (p == end) return eof ? Look::no : Look::more;
        if (p == w) return Look::no; // only for the first word: a later one starts with a word byte
        if (*p != ' ') break;
        if (p + 1 == end) return eof ? Look::no : Look::more;
        if (!word(p[1])) break;
        ++p;
    }
    if (!(*p == ' ' || *p == '\t')) return Look::no;
    while (p != end && (*p == ' ' || *p == '\t')) ++p;
    if (p == end) return eof ? Look::no : Look::more;
    if (*p == '"') return Look::yes;
    // A typographic opening quote, as word processors write one (the web-text pass reads it as '"'):
    // U+201C-U+201F (E2 80 9C-9F) and U+00AB (C2 AB).
    const auto b0 = static_cast<unsigned char>(*p);
    if (b0 != 0xE2 && b0 != 0xC2) return Look::no;
    if (end - p < (b0 == 0xE2 ? 3 : 2)) return eof ? Look::no : Look::more;
    const auto b1 = static_cast<unsigned char>(p[1]);
    if (b0 == 0xC2) return b1 == 0xAB ? Look::yes : Look::no;
    const auto b2 = static_cast<unsigned char>(p[2]);
    return b1 == 0x80 && b2 >= 0x9C && b2 <= 0x9F ? Look::yes : Look::no;
}

// The length of a termination marker `1-0`, `0-1` or `1/2-1/2` at p, followed by a delimiter.
Look result_at(const char* p, const char* end, bool eof, std::size_t& length) {
    static constexpr const char* words[] = {"1-0", "0-1", "1/2-1/2"};
    for (const char* w : words) {
        std::size_t n = 0;
        while (w[n] && p + n != end && p[n] == w[n]) ++n;
        if (w[n] == 0) {
            if (p + n == end) {
                if (!eof) return Look::more;
            } else {
                const char c = p[n];
                if (!(blank(c) || c == '\n' || c == '{' || c == ';' || c == '[' || c == '(' || c == ')' || c == '|')) continue;
            }
            length = n;
            return Look::yes;
        }
        if (p + n == end && !eof) return Look::more; // a prefix of this marker so far
    }
    return Look::no;
}

// After a `*`: is the next token a square, `out` or `,` (a deployment) rather than anything else
// (the `*` result)? Blank lines in between are skipped, up to a limit past which it is a result.
Look deployment_follows(const char* p, const char* end, bool eof) {
    const char* limit = p + 4096;
    while (p != end && p != limit && (blank(*p) || *p == '\n')) ++p;
    if (p == limit) return Look::no;
    if (p == end) return eof ? Look::no : Look::more;
    if (*p == ',') return Look::yes;
    if (end - p < 2) return eof ? Look::no : Look::more;
    const char f = char(p[0] | 0x20);
    if (f >= 'a' && f <= 'h' && p[1] >= '1' && p[1] <= '8') return Look::yes;
    if (f == 'o') {
        if (end - p < 3) return eof ? Look::no : Look::more;
        if ((p[1] | 0x20) == 'u' && (p[2] | 0x20) == 't') return Look::yes;
    }
    return Look::no;
}

// `<table` in any case at p (six bytes there).
bool table_tag_at(const unsigned char* p) {
    static constexpr char table[] = "<table";
    for (int k = 1; k < 6; ++k)
        if ((p[k] | 0x20) != table[k]) return false;
    return true;
}

// 1: a byte that decides nothing here (movetext, blanks: the slow path below would only note
// that the line holds something); 2: `0` or `1`, which may start a result after a token boundary;
// 0: look closer (line ends, brackets, comments, `*`, `<` (an HTML table), the first byte of a
// BOM, \f and \v).
// Four bytes are all of class 1 exactly when the AND of their classes is 1.
constexpr std::array<std::uint8_t, 256> make_byte_class() {
    std::array<std::uint8_t, 256> t{};
    for (auto& c : t) c = 1;
    for (char c : std::string_view("\n[]{};()*\f\v<")) t[static_cast<unsigned char>(c)] = 0;
    t[0xEF] = 0;
    t['0'] = t['1'] = 2;
    return t;
}
constexpr std::array<std::uint8_t, 256> byte_class = make_byte_class();

#if defined(__SSE2__)
// The bytes of p[0..15] where the run below stops, as a 16-bit mask (it reads p[0..17]): those of
// class 0 but '<', a '<' followed by `ta` (any case: it may open <table), a `0` or `1` followed by
// `-` or `/` (it may start a result). The other bytes are passed over by the run as well.
inline unsigned stop_mask(const unsigned char* p) {
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
    const __m128i v1 = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + 1));
    const __m128i v2 = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + 2));
    auto eq = [](__m128i a, int c) { return _mm_cmpeq_epi8(a, _mm_set1_epi8(char(c))); };
    auto mask = [](__m128i a, int m) { return _mm_and_si128(a, _mm_set1_epi8(char(m))); };
    auto lower = [](__m128i a) { return _mm_or_si128(a, _mm_set1_epi8(0x20)); };
    const __m128i folded = mask(v, 0xDF); // '[' and '{' as 0x5B, ']' and '}' as 0x5D
    const __m128i controls = _mm_sub_epi8(v, _mm_set1_epi8('\n')); // \n \v \f as 0..2
    __m128i m = _mm_or_si128(eq(folded, 0x5B), eq(folded, 0x5D));
    m = _mm_or_si128(m, eq(mask(v, 0xFE), '(')); // ( )
    m = _mm_or_si128(m, _mm_cmpeq_epi8(_mm_min_epu8(controls, _mm_set1_epi8(2)), controls));
    m = _mm_or_si128(m, _mm_or_si128(_mm_or_si128(eq(v, ';'), eq(v, '*')), eq(v, 0xEF)));
    m = _mm_or_si128(m, _mm_and_si128(_mm_and_si128(eq(v, '<'), eq(lower(v1), 't')), eq(lower(v2), 'a')));
    m = _mm_or_si128(m, _mm_and_si128(eq(mask(v, 0xFE), '0'), _mm_or_si128(eq(v1, '-'), eq(v1, '/'))));
    return unsigned(_mm_movemask_epi8(m));
}
#endif

// From i, the first byte the run below must look at: one not of class 1, in the scalar part; the
// SIMD part passes over more (see stop_mask), all of which the run would pass over too.
std::size_t next_stop(const unsigned char* d, std::size_t i, std::size_t size) {
#if defined(__SSE2__)
    for (; i + 18 <= size; i += 16)
        if (const unsigned m = stop_mask(d + i)) return i + unsigned(__builtin_ctz(m));
#endif
    while (i + 4 <= size && (byte_class[d[i]] & byte_class[d[i + 1]] & byte_class[d[i + 2]] & byte_class[d[i + 3]]) == 1) i += 4;
    while (i < size && byte_class[d[i]] == 1) ++i;
    return i;
}

// Bytes after which a result may start (the test in the slow path below, as a table).
constexpr std::array<bool, 256> make_token_boundary() {
    std::array<bool, 256> t{};
    for (char c : std::string_view(" \t\r\f\v\n)|}.")) t[static_cast<unsigned char>(c)] = true;
    return t;
}
constexpr std::array<bool, 256> token_boundary = make_token_boundary();

} // namespace

bool tag_line_starts(const char* p, const char* end) { return tag_line_at(p, end, true) == Look::yes; }

void GameSplitter::start_chunk(std::size_t at) {
    pos_ = at;
    chunk_start_ = at;
    state_ = State::normal;
    line_start_ = true;
    movetext_ = false;
    table_ = false;
    depth_ = 0;
}

// One loop on purpose: the scan is the reader's hot path (every byte of every file passes here),
// and its state machine reads best as one switch over the states.
GameSplitter::Scan GameSplitter::scan(const char* data, std::size_t size, bool eof, std::size_t& cut) {
    const char* const end = data + size;
    while (pos_ < size) {
        const char* p = data + pos_;
        const char c = *p;
        switch (state_) {
        case State::normal:
            if (c == '%' && (pos_ == chunk_start_ || data[pos_ - 1] == '\n')) { // PGN's escape line: passed over
                state_ = State::line_comment;
                break;
            }
            if (shortcuts_ && byte_class[static_cast<unsigned char>(c)] != 0) {
                // The bulk of movetext decides nothing: run through it in one go, stopping only at
                // a byte to look at and at a 0 or 1 after a token boundary (it may start a result).
                const auto* d = reinterpret_cast<const unsigned char*>(data);
                std::size_t i = pos_;
                for (;;) {
                    i = next_stop(d, i, size);
                    if (i + 2 >= size) break;
                    if (byte_class[d[i]] == 2 &&
                        ((d[i + 1] != '-' && d[i + 1] != '/') || // every result goes on with - or /
                         (i > chunk_start_ && !token_boundary[d[i - 1]]))) { // c1-d2 and 10. start no result
                        ++i;
                        continue;
                    }
                    if (d[i] == '*' && depth_ == 0 && ((d[i + 1] | 0x20) >= 'a' && (d[i + 1] | 0x20) <= 'h') && d[i + 2] >= '1' &&
                        d[i + 2] <= '8') {
                        i += 3; // a deployment's first square (deployment_follows says the same)
                        continue;
                    }
                    if (d[i] == '<' && i + 6 <= size && !table_tag_at(d + i)) {
                        ++i; // markup other than <table: movetext, as the slow path below has it
                        continue;
                    }
                    break;
                }
                if (i != pos_) {
                    if (line_start_ || !movetext_) { // does the run hold more than blanks?
                        for (std::size_t j = pos_; j < i; ++j)
                            if (!blank(data[j])) {
                                line_start_ = false;
                                movetext_ = true;
                                break;
                            }
                    }
                    pos_ = i;
                    continue;
                }
                // else: a 0 or 1 that may start a result, below
            }
            if (c == '\n') {
                line_start_ = true;
            } else if (blank(c)) {
                // keeps line_start_
            } else if (is_bom(p, end)) {
                pos_ += 2; // with the ++pos_ below: a byte order mark is blank
            } else if (static_cast<unsigned char>(c) == 0xEF && !eof && end - p < 3) {
                return Scan::need_more;
            } else if (c == '[') {
                if (line_start_ && movetext_) {
                    cut = pos_;
                    return Scan::cut;
                }
                state_ = State::tag;
                line_start_ = false;
            } else if (c == '<') {
                // An HTML table at the start of a line, after another table: the next game's. (The
                // page before the first table stays with it: the web-text pass blanks it there.)
                if (end - p < 6 && !eof) return Scan::need_more;
                const bool match = end - p >= 6 && table_tag_at(reinterpret_cast<const unsigned char*>(p));
                if (match && line_start_ && movetext_ && table_) {
                    cut = pos_;
                    return Scan::cut;
                }
                table_ |= match;
                line_start_ = false;
                movetext_ = true;
            } else if (c == '{') {
                state_ = State::brace;
                line_start_ = false;
            } else if (c == ';') {
                state_ = State::line_comment;
            } else {
                line_start_ = false;
                movetext_ = true;
                if (c == '(') {
                    ++depth_;
                } else if (c == ')') {
                    if (depth_ > 0) --depth_;
                } else if (depth_ == 0 && (c == '1' || c == '0') &&
                           (pos_ == chunk_start_ || token_boundary[static_cast<unsigned char>(p[-1])])) {
                    std::size_t n = 0;
                    const Look r = result_at(p, end, eof, n);
                    if (r == Look::more) return Scan::need_more;
                    if (r == Look::yes) {
                        pos_ += n;
                        state_ = State::after_result;
                        continue;
                    }
                } else if (depth_ == 0 && c == '*' &&
                           (pos_ == chunk_start_ || token_boundary[static_cast<unsigned char>(p[-1])])) {
                    // A `*` glued to a token (`j6*`) is part of that token, as the grammar reads it.
                    const Look d = deployment_follows(p + 1, end, eof);
                    if (d == Look::more) return Scan::need_more;
                    if (d == Look::no) state_ = State::after_result;
                }
            }
            break;
        case State::brace:
        case State::after_result_brace:
            if (c == '}') {
                state_ = state_ == State::brace ? State::normal : State::after_result;
            } else if (c == '\n') {
                const Look t = tag_line_at(p + 1, end, eof);
                if (t == Look::more) return Scan::need_more;
                if (t == Look::yes) { // an unterminated comment: the grammar will say so
                    cut = pos_ + 1;
                    return Scan::cut;
                }
            }
            break;
        case State::line_comment:
        case State::after_result_line:
            if (c == '\n') {
                state_ = state_ == State::line_comment ? State::normal : State::after_result;
                line_start_ = true;
            }
            break;
        case State::tag:
            if (shortcuts_ && c != '"' && c != ']' && c != '\n') { // the bulk of a tag's name
                while (pos_ < size && data[pos_] != '"' && data[pos_] != ']' && data[pos_] != '\n') ++pos_;
                continue;
            }
            if (c == '"') state_ = State::tag_string;
            else if (c == ']') state_ = State::normal;
            else if (c == '\n') {
                state_ = State::normal;
                line_start_ = true;
            }
            break;
        case State::tag_string:
            if (shortcuts_ && c != '\\' && c != '"' && c != '\n') { // the bulk of a tag value
                while (pos_ < size && data[pos_] != '\\' && data[pos_] != '"' && data[pos_] != '\n') ++pos_;
                continue;
            }
            if (c == '\\') {
                if (p + 1 == end && !eof) return Scan::need_more;
                if (p + 1 != end && p[1] != '\n') ++pos_;
            } else if (c == '"') {
                state_ = State::tag;
            } else if (c == '\n') {
                state_ = State::normal;
                line_start_ = true;
            }
            break;
        case State::after_result:
            if (c == '{') state_ = State::after_result_brace;
            else if (c == ';' || (c == '%' && data[pos_ - 1] == '\n')) state_ = State::after_result_line;
            else if (!(blank(c) || c == '\n')) {
                cut = pos_;
                return Scan::cut;
            }
            break;
        }
        ++pos_;
    }
    if (!eof) return Scan::need_more;
    cut = size;
    return Scan::end;
}

} // namespace gounki::parser
