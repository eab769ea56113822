#include "parser/encoding.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <iterator>
#include <string>

#include <unicode/ucnv.h>
#include <unicode/ucnv_cb.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace gounki::parser {

bool valid_utf8(std::string_view text, std::size_t& bad) {
    const auto* s = reinterpret_cast<const unsigned char*>(text.data());
    const std::size_t n = text.size();
    std::size_t i = 0;
    while (i < n) {
        // ASCII runs, sixteen bytes at a time with SSE2 (to the first byte >= 0x80), else eight; a word
        // with a byte >= 0x80 is walked up to that byte.
#if defined(__SSE2__)
        if (i + 16 <= n) {
            const unsigned high = unsigned(_mm_movemask_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i*>(s + i))));
            if (!high) {
                i += 16;
                continue;
            }
            i += unsigned(__builtin_ctz(high));
        } else
#endif
            if (i + 8 <= n) {
            std::uint64_t w;
            std::memcpy(&w, s + i, 8);
            if (!(w & 0x8080808080808080ull)) {
                i += 8;
                continue;
            }
            while (s[i] < 0x80) ++i;
        } else if (s[i] < 0x80) {
            ++i;
            continue;
        }
        const unsigned char c = s[i];
        // Three bytes led by E1-EC or EE-EF (dashes, quotes, spaces): any two continuation bytes are
        // well-formed (only E0 has overlong forms and only ED surrogates).
        if (c >= 0xE1 && c <= 0xEF && c != 0xED) {
            if (i + 3 > n || (s[i + 1] & 0xC0) != 0x80 || (s[i + 2] & 0xC0) != 0x80) {
                bad = i;
                return false;
            }
            i += 3;
            continue;
        }
        std::size_t len;
        std::uint32_t cp;
        if (c >= 0xC2 && c <= 0xDF) {
            len = 2;
            cp = c & 0x1F;
        } else if (c >= 0xE0 && c <= 0xEF) {
            len = 3;
            cp = c & 0x0F;
        } else if (c >= 0xF0 && c <= 0xF4) {
            len = 4;
            cp = c & 0x07;
        } else {
            bad = i;
            return false;
        }
        if (i + len > n) {
            bad = i;
            return false;
        }
        for (std::size_t k = 1; k < len; ++k) {
            if ((s[i + k] & 0xC0) != 0x80) {
                bad = i;
                return false;
            }
            cp = cp << 6 | (s[i + k] & 0x3F);
        }
        const bool overlong_or_surrogate = len == 3 && (cp < 0x800 || (cp >= 0xD800 && cp <= 0xDFFF));
        if (overlong_or_surrogate || (len == 4 && (cp < 0x10000 || cp > 0x10FFFF))) {
            bad = i;
            return false;
        }
        i += len;
    }
    return true;
}

bool valid_utf8_prefix(std::string_view text) {
    std::size_t bad = 0;
    if (valid_utf8(text, bad)) return true;
    const auto* s = reinterpret_cast<const unsigned char*>(text.data()) + bad;
    const std::size_t left = text.size() - bad;
    const unsigned char c = s[0];
    const std::size_t len = c >= 0xC2 && c <= 0xDF ? 2 : c >= 0xE0 && c <= 0xEF ? 3 : c >= 0xF0 && c <= 0xF4 ? 4 : 0;
    if (len == 0 || left >= len) return false; // a byte that starts nothing, or a whole sequence that is bad
    for (std::size_t k = 1; k < left; ++k)
        if ((s[k] & 0xC0) != 0x80) return false;
    return true;
}

std::size_t utf8_else_cp1252(std::string_view text, bool last, std::string& out, std::string& rest) {
    rest.clear();
    std::size_t first = std::string_view::npos;
    for (std::size_t at = 0; at < text.size();) {
        std::size_t bad = 0;
        const std::string_view left = text.substr(at);
        if (valid_utf8(left, bad)) {
            out.append(left);
            break;
        }
        out.append(left.substr(0, bad));
        if (!last && valid_utf8_prefix(left.substr(bad))) { // a character the next block ends
            rest.assign(left.substr(bad));
            break;
        }
        if (first == std::string_view::npos) first = at + bad;
        cp1252_to_utf8(left.substr(bad, 1), out);
        at += bad + 1;
    }
    return first;
}

void lone_cr_to_lf(char* text, std::size_t from, std::size_t size, bool& pending) {
    if (from < size) {
        // The CR that ended the text before was turned into LF at once; if it was a CRLF's, its LF
        // becomes the CR (which no reader counts), so the pair is still one line end.
        if (pending && text[from] == '\n') text[from++] = '\r';
        pending = false;
    }
    for (char* p = text + from; p < text + size && (p = static_cast<char*>(std::memchr(p, '\r', std::size_t(text + size - p))));
         ++p) {
        if (p + 1 < text + size) {
            if (p[1] != '\n') *p = '\n';
            else ++p; // CRLF
        } else {
            *p = '\n';
            pending = true;
        }
    }
}

void cp1252_to_utf8(std::string_view text, std::string& out) {
    // 0x80..0x9F; 0 where Windows-1252 defines nothing (kept as the C1 control of that value).
    static constexpr std::uint16_t high[32] = {0x20AC, 0,      0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021,
                                               0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0,      0x017D, 0,
                                               0,      0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014,
                                               0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0,      0x017E, 0x0178};
    out.reserve(out.size() + text.size() + text.size() / 8);
    for (const char ch : text) {
        const auto c = static_cast<unsigned char>(ch);
        if (c < 0x80) {
            out += ch;
            continue;
        }
        std::uint32_t cp = c;
        if (c < 0xA0 && high[c - 0x80]) cp = high[c - 0x80];
        append_utf8(cp, out);
    }
}

void append_utf8(char32_t c, std::string& out) {
    if (c < 0x80) {
        out += char(c);
    } else if (c < 0x800) {
        out += char(0xC0 | c >> 6);
        out += char(0x80 | (c & 0x3F));
    } else if (c < 0x10000) {
        out += char(0xE0 | c >> 12);
        out += char(0x80 | ((c >> 6) & 0x3F));
        out += char(0x80 | (c & 0x3F));
    } else {
        out += char(0xF0 | c >> 18);
        out += char(0x80 | ((c >> 12) & 0x3F));
        out += char(0x80 | ((c >> 6) & 0x3F));
        out += char(0x80 | (c & 0x3F));
    }
}

char32_t first_code_point(std::string_view text, std::size_t& length) {
    length = text.empty() ? 0 : 1;
    if (text.empty()) return 0;
    const auto c = static_cast<unsigned char>(text[0]);
    const std::size_t n = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC0 ? 2 : 1;
    if (n == 1 || n > text.size()) return c;
    char32_t cp = c & (0x7F >> n);
    for (std::size_t k = 1; k < n; ++k) {
        const auto b = static_cast<unsigned char>(text[k]);
        if ((b & 0xC0) != 0x80) return c;
        cp = cp << 6 | (b & 0x3F);
    }
    length = n;
    return cp;
}

std::size_t utf8_length(std::string_view text) {
    std::size_t n = 0;
    for (const char c : text) n += (static_cast<unsigned char>(c) & 0xC0) != 0x80;
    return n;
}

// ---------------------------------------------------------------------------------------------
// CharsetDecoder: ICU's converter of the set, and one to UTF-8, with the UTF-16 pivot between them
// kept from one block to the next (ucnv_convertEx).

struct CharsetDecoder::Icu {
    UConverter* from = nullptr;
    UConverter* to = nullptr;
    UConverter* steps = nullptr; // the set again, for step(): its state apart from the decoding's
    UChar pivot[1024];
    UChar* pivot_source = pivot;
    UChar* pivot_target = pivot;
    bool started = false;
    ~Icu() {
        if (from) ucnv_close(from);
        if (to) ucnv_close(to);
        if (steps) ucnv_close(steps);
    }
};

namespace {

// Each sequence that is no character of the set becomes U+FFFD and is counted (ICU's own
// substitute is the control U+001A for some sets).
void count_and_substitute(const void* context, UConverterToUnicodeArgs* args, const char*, int32_t,
                          UConverterCallbackReason reason, UErrorCode* error) {
    if (reason != UCNV_UNASSIGNED && reason != UCNV_ILLEGAL && reason != UCNV_IRREGULAR) return;
    ++*static_cast<std::size_t*>(const_cast<void*>(context));
    *error = U_ZERO_ERROR;
    const UChar replacement = 0xFFFD;
    ucnv_cbToUWriteUChars(args, &replacement, 1, 0, error);
}

} // namespace

CharsetDecoder::CharsetDecoder(std::unique_ptr<Icu> icu) : icu_(std::move(icu)) {}

std::string CharsetDecoder::replaced_message(std::string_view set, std::string_view why) const {
    return std::to_string(replaced_) + " byte sequence" + (replaced_ == 1 ? " is" : "s are") + " no " + std::string(set) + " text (" +
        std::string(why) + "); read as U+FFFD";
}

bool CharsetDecoder::ascii_compatible() const { return ucnv_getMinCharSize(icu_->from) == 1; }

bool CharsetDecoder::shifts() const {
    switch (ucnv_getType(icu_->from)) {
    case UCNV_ISO_2022: case UCNV_HZ: case UCNV_UTF7: case UCNV_IMAP_MAILBOX: case UCNV_SCSU: case UCNV_BOCU1: return true;
    default: return false;
    }
}

bool CharsetDecoder::ascii_bytes_in_characters() const { return shifts() || ucnv_getMaxCharSize(icu_->from) > 1; }

void CharsetDecoder::restart_steps() {
    if (icu_->steps) ucnv_resetToUnicode(icu_->steps);
}

std::size_t CharsetDecoder::step(std::string_view bytes, bool last, char32_t& c) {
    c = 0xFFFD;
    if (bytes.empty()) return 0;
    if (!icu_->steps) {
        UErrorCode error = U_ZERO_ERROR;
        icu_->steps = ucnv_open(ucnv_getName(icu_->from, &error), &error);
        if (U_FAILURE(error) || !icu_->steps) return 1;
    }
    const char* source = bytes.data();
    UErrorCode error = U_ZERO_ERROR;
    const UChar32 got = ucnv_getNextUChar(icu_->steps, &source, bytes.data() + bytes.size(), &error);
    if (error == U_TRUNCATED_CHAR_FOUND || error == U_INDEX_OUTOFBOUNDS_ERROR) {
        ucnv_resetToUnicode(icu_->steps);
        if (!last) return 0;
        return bytes.size();
    }
    if (U_SUCCESS(error) && got >= 0) c = char32_t(got);
    // A sequence that is no character of the set is passed over as ICU passes it over.
    return std::max<std::size_t>(1, std::size_t(source - bytes.data()));
}

void CharsetDecoder::decode_text(std::string_view bytes, std::string& out) {
    ucnv_resetToUnicode(icu_->from);
    ucnv_resetFromUnicode(icu_->to);
    icu_->pivot_source = icu_->pivot_target = icu_->pivot;
    icu_->started = false;
    if (!bytes.empty()) decode(bytes, true, out);
}
CharsetDecoder::~CharsetDecoder() = default;

std::unique_ptr<CharsetDecoder> CharsetDecoder::open(std::string_view name) {
    auto icu = std::make_unique<Icu>();
    UErrorCode error = U_ZERO_ERROR;
    const std::string n(name);
    icu->from = ucnv_open(n.c_str(), &error); // an ambiguous alias (a warning) still opens one set
    if (U_FAILURE(error) || !icu->from) return nullptr;
    error = U_ZERO_ERROR;
    icu->to = ucnv_open("UTF-8", &error);
    if (U_FAILURE(error)) return nullptr;
    std::unique_ptr<CharsetDecoder> d(new CharsetDecoder(std::move(icu)));
    error = U_ZERO_ERROR;
    ucnv_setToUCallBack(d->icu_->from, count_and_substitute, &d->replaced_, nullptr, nullptr, &error);
    if (U_FAILURE(error)) return nullptr;
    return d;
}

void CharsetDecoder::decode(std::string_view bytes, bool last, std::string& out) {
    if (bytes.empty() && last) {
        // ucnv_convertEx says nothing of the bytes of a character begun in the last block when
        // flushed with no input: they are counted here.
        UErrorCode error = U_ZERO_ERROR;
        if (ucnv_toUCountPending(icu_->from, &error) > 0 && U_SUCCESS(error)) {
            ++replaced_;
            out += "\xEF\xBF\xBD";
        }
        ucnv_resetToUnicode(icu_->from);
        return;
    }
    const char* source = bytes.data();
    const char* const source_end = bytes.data() + bytes.size();
    char block[1 << 14];
    for (;;) {
        char* target = block;
        UErrorCode error = U_ZERO_ERROR;
        ucnv_convertEx(icu_->to, icu_->from, &target, block + sizeof block, &source, source_end, icu_->pivot,
                       &icu_->pivot_source, &icu_->pivot_target, icu_->pivot + std::size(icu_->pivot),
                       !icu_->started, last, &error);
        icu_->started = true;
        out.append(block, std::size_t(target - block));
        if (error == U_BUFFER_OVERFLOW_ERROR) continue;
        if (error == U_TRUNCATED_CHAR_FOUND) { // the input ends inside a character
            ++replaced_;
            out += "\xEF\xBF\xBD";
        }
        // Any other failure cannot happen with the substituting callback; the rest is passed over.
        break;
    }
}

} // namespace gounki::parser
