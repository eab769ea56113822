#pragma once
// Record text pasted from web pages and word processors, made readable by the record grammar
// without changing its byte length: every byte offset of the output is the same place in the input,
// so diagnostics found in the output give lines and columns in the original text. Every '\n' of the
// input stays a '\n' in the output (the output may have a '\n' where the input had an HTML tag that
// ends a line: <table>, <tr>, <br>).
//
// What changes (nothing inside `{...}` or `;` comments, nothing inside tag values):
//   - movetext: dashes (U+2010-U+2015, U+2212, U+FE63, U+FF0D) read as '-', the multiplication sign
//     U+00D7 as 'x'; Unicode spaces (U+00A0, U+1680, U+2000-U+200A, U+202F, U+205F, U+3000) as
//     spaces; zero-width characters, direction marks and the soft hyphen (U+200B-U+200F, U+2060,
//     U+00AD, U+FEFF except at offset 0) removed. A token (a run of non-blank bytes) is rebuilt and
//     padded with spaces at its end: "b2–b4" (7 bytes) becomes "b2-b4  ", which keeps the
//     character columns of the token.
//   - tag pair lines `[Name “value”]`: typographic quotes around the value (U+201C-U+201F,
//     U+00AB, U+00BB, U+2033, U+FF02) read as '"'; the line's tag pairs are rebuilt and padded
//     with spaces after their last ']' (what follows, a comment, stays in place). Inside guillemets
//     the spaces next to them are dropped (« Lyon » is "Lyon"); a '"' inside a value delimited by
//     typographic quotes is escaped (\") when the bytes saved leave room. A line starting with '['
//     that is not a tag pair is left as it is.
//   - comments: an open `{` comment ends before a line that looks like a tag pair, as the grammar
//     ends it; a `;` comment at the line end.
//   - HTML: when the text holds an HTML table (`<table`, `<tr`, `<td` or `<th`, any case, opening
//     or closing, outside `{...}`), only the inside of <table>...</table> counts (from the start
//     when the first table tag is </table>: a piece cut from a page; all of the text when there are
//     rows or cells but no table tag); the rest becomes spaces. Inside: <table>, <tr> and <br>
//     become a line end, <td> <th> </td> </th> a '|', inline tags (<b>, <span>, <a>...) and
//     <!-- --> inside a token are removed as if absent ("<b>b2</b>-b4" reads "b2-b4"), other tags
//     become spaces, and so does the content of <script>, <style> and <caption>; tags inside
//     comments become spaces too. Entities (&ndash; &#8211; &#x2013; &#150; &nbsp; &eacute; ...)
//     are decoded in movetext, then read like the character they stand for; unknown ones are left
//     as they are. Without a table, '<' and '&' are plain text.
// Tabs are never changed. Bytes that are not UTF-8 are kept as they are.

#include <algorithm>
#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace gounki::parser {

// One character (or entity) read as something else. Trivially copyable (a text full of dashes gives
// a note per dash): what it was read as is held in place, at most four bytes.
struct WebTextNote {
    std::uint32_t offset = 0; // byte offset in the input where it starts
    char32_t code_point = 0; // what was there (for an entity: the code point it stands for)
    std::array<char, 4> as{}; // what it was read as (read_as())
    std::uint8_t as_length = 0;
    bool entity = false; // an HTML entity (&ndash; &#8211;)

    WebTextNote() = default;
    // `read_as` is at most four bytes (longer is cut).
    WebTextNote(std::uint32_t at, char32_t cp, std::string_view read_as, bool is_entity)
        : offset(at), code_point(cp), as_length(std::uint8_t(std::min<std::size_t>(read_as.size(), 4))), entity(is_entity) {
        std::copy_n(read_as.data(), as_length, as.data());
    }
    // "-", "x", "\"", " ", "" (removed); for an entity, the UTF-8 text it was decoded to ("é", "&").
    std::string_view read_as() const { return {as.data(), as_length}; }
};

// Cheap test on the raw bytes: false when the text holds no byte >= 0x80, no '<' and no '&', and
// then normalize_web_text() would change nothing.
bool may_need_web_text_pass(std::string_view text);

// Writes into `out` a text of exactly text.size() bytes, and appends to `notes` (in the order of the
// input) one note per character or entity read as something else. HTML tags and text outside tables
// get no note. Returns true when the output differs from the input. `text` may be a view of `out`.
bool normalize_web_text(std::string_view text, std::string& out, std::vector<WebTextNote>& notes);

// What a typographic character stands for in plain text, as the web-text pass reads it: '-' for a
// dash or a minus sign, 'x' for the multiplication sign, '"' for a typographic double quote, ' ' for
// a Unicode space; 0 for any other character (and for the zero-width ones, which read as nothing).
char ascii_stand_in(char32_t c);

// A name for messages: "an en dash (U+2013)", "a non-breaking space (U+00A0)", "a multiplication
// sign (U+00D7)", "a left double quotation mark (U+201C)"..., else "the character U+XXXX".
std::string describe_code_point(char32_t c);

} // namespace gounki::parser
