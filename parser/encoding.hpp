#pragma once
// Text encodings of record files: UTF-8 (with or without a byte order mark) is the norm; a file that
// is not valid UTF-8 is taken as Windows-1252 (a superset of Latin-1 for printable text) and
// converted, so names like "Müller" typed on old systems come out right.

#include <cstddef>
#include <string>
#include <string_view>

namespace gounki::parser {

// True when `text` is well-formed UTF-8 (no overlong forms, surrogates or code points past
// U+10FFFF). Otherwise `bad` is the offset of the first byte that breaks it.
bool valid_utf8(std::string_view text, std::size_t& bad);

// Appends the UTF-8 form of Windows-1252 `text` to `out`. The five bytes that code page leaves
// undefined (0x81 0x8D 0x8F 0x90 0x9D) map to the C1 controls of the same value, as Latin-1 does.
void cp1252_to_utf8(std::string_view text, std::string& out);

// Appends the UTF-8 form of code point `c` to `out`.
void append_utf8(char32_t c, std::string& out);
// The code point of the UTF-8 sequence at the start of `text` and its length in bytes; a byte that
// starts no sequence counts as itself, one byte long.
char32_t first_code_point(std::string_view text, std::size_t& length);

// Characters (not bytes) in UTF-8 `text`: a column counts characters, so that an accented name
// before a move does not push the reported column to the right.
std::size_t utf8_length(std::string_view text);

} // namespace gounki::parser
