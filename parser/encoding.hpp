#pragma once
// Text encodings of record files: UTF-8 (with or without a byte order mark) is the norm; a file that
// is not valid UTF-8 is taken as Windows-1252 (a superset of Latin-1 for printable text) and
// converted, so names like "Müller" typed on old systems come out right.

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>

namespace gounki::parser {

// True when `text` is well-formed UTF-8 (no overlong forms, surrogates or code points past
// U+10FFFF). Otherwise `bad` is the offset of the first byte that breaks it.
bool valid_utf8(std::string_view text, std::size_t& bad);

// True when `text` is well-formed UTF-8 but for its last character, which may be cut short (a
// block of a longer input: the character's other bytes come with the next block).
bool valid_utf8_prefix(std::string_view text);

// Appends the UTF-8 form of Windows-1252 `text` to `out`. The five bytes that code page leaves
// undefined (0x81 0x8D 0x8F 0x90 0x9D) map to the C1 controls of the same value, as Latin-1 does.
void cp1252_to_utf8(std::string_view text, std::string& out);

// Appends `text` to `out` as UTF-8: its well-formed UTF-8 characters as they are, every other byte
// read as Windows-1252 (a file that is UTF-8 but for a few bytes typed elsewhere). Unless `last`, a
// character cut short at the end of `text` is not converted but left in `rest`, to go before the
// next block; `rest` is empty otherwise. Returns the offset in `text` of the first byte read as
// Windows-1252, or npos when there is none.
std::size_t utf8_else_cp1252(std::string_view text, bool last, std::string& out, std::string& rest);

// A character set that a file names (SGF's CA: GB2312, GBK, Big5, Shift_JIS, EUC-KR, windows-1250,
// KOI8-R...) decoded to UTF-8 by ICU, block by block: a character cut between two blocks comes out
// whole, and a byte sequence that is no character of the set is U+FFFD, counted.
class CharsetDecoder {
public:
    // The decoder of the set called `name` (ICU's names and aliases, any case); null when ICU
    // knows no such set.
    static std::unique_ptr<CharsetDecoder> open(std::string_view name);
    ~CharsetDecoder();
    CharsetDecoder(const CharsetDecoder&) = delete;
    CharsetDecoder& operator=(const CharsetDecoder&) = delete;

    // Appends the UTF-8 form of `bytes` to `out`; `last` with the input's last block (or with no
    // bytes at its end), so that a character left incomplete there is counted as replaced.
    void decode(std::string_view bytes, bool last, std::string& out);
    // How many byte sequences were no character of the set (each became U+FFFD).
    std::size_t replaced() const { return replaced_; }
    // "3 byte sequences are no GB2312 text (CA names it); read as U+FFFD": `set` as named, `why` why
    // it was read in that set.
    std::string replaced_message(std::string_view set, std::string_view why) const;
    // Whether ASCII text is one byte a character in the set, as it is in every set but UTF-16 and
    // UTF-32 (and their kin): a file whose properties read as ASCII bytes can be in no other.
    bool ascii_compatible() const;

    // Decodes `bytes` whole (one text on its own: `decode` with `last`, from the set's initial state).
    void decode_text(std::string_view bytes, std::string& out);
    // Stepping over a text character by character (to find where an SGF value ends, when a
    // character's second byte may be ']' or a backslash): whether a character's bytes may be ASCII
    // bytes that are no ASCII character (the second byte of Shift_JIS, GBK, Big5; ISO-2022's
    // shifted text); whether the set has shift states (ISO-2022, HZ: even ASCII bytes must be
    // stepped over); and the first character of `bytes` (`c`) and its length in bytes (with any
    // shift before it), from the state the last step left (restart_steps: the initial state). 0
    // when `bytes` ends inside it, unless `last`.
    bool ascii_bytes_in_characters() const;
    bool shifts() const;
    void restart_steps();
    std::size_t step(std::string_view bytes, bool last, char32_t& c);

private:
    struct Icu;
    explicit CharsetDecoder(std::unique_ptr<Icu> icu);
    std::unique_ptr<Icu> icu_;
    std::size_t replaced_ = 0;
};

// Old Mac files end their lines with a lone CR: each becomes LF in text[from, size) (one byte for
// one, so offsets stay and lines count as they are read). A CR before LF stays. A CR that ends the
// text so far becomes LF at once (`pending` then); if the next call's text starts with LF, that LF
// becomes CR, which readers count as neither a line end nor a column.
void lone_cr_to_lf(char* text, std::size_t from, std::size_t size, bool& pending);

// Appends the UTF-8 form of code point `c` to `out`.
void append_utf8(char32_t c, std::string& out);
// The code point of the UTF-8 sequence at the start of `text` and its length in bytes; a byte that
// starts no sequence counts as itself, one byte long.
char32_t first_code_point(std::string_view text, std::size_t& length);

// Characters (not bytes) in UTF-8 `text`: a column counts characters, so that an accented name
// before a move does not push the reported column to the right.
std::size_t utf8_length(std::string_view text);

} // namespace gounki::parser
