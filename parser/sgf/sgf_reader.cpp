// SGF import (sgf.hpp), the reader: cuts a collection into game trees, each read by
// sgf::read_game (sgf.cpp).

#include <algorithm>
#include <istream>
#include <optional>
#include <sstream>
#include <utility>

#include "parser/encoding.hpp"
#include "core/text.hpp"
#include "parser/sgf/sgf.hpp"
#include "parser/sgf/sgf_tree.hpp"

namespace gounki::parser {

using sgf::is_blank;

// ---------------------------------------------------------------------------------------------
// The reader: splits the collection into game trees.

std::size_t SgfReader::read_block() {
    if (!block_) block_ = std::make_unique<char[]>(block_size);
    in_->read(block_.get(), block_size);
    const std::streamsize n = in_->gcount();
    if (in_->bad()) io_error("error reading " + name_);
    if (n <= 0) {
        eof_ = true;
        return 0;
    }
    bytes_read_ += std::uint64_t(n);
    return std::size_t(n);
}

bool SgfReader::read_more() {
    if (eof_ || !in_) return false;
    if (pos_ > 0 && pos_ >= buf_.size() / 2) { // keep the buffer to the unread part
        buf_.erase(0, pos_);
        pos_ = 0;
    }
    const std::size_t n = read_block();
    if (n == 0) return false;
    const std::size_t from = buf_.size();
    buf_.append(block_.get(), n);
    lone_cr_to_lf(buf_.data(), from, buf_.size(), cr_pending_);
    return true;
}

void SgfReader::warn_replaced() {
    if (std::exchange(warned_replaced_, true)) return;
    for (const Charset& c : charsets_)
        if (c.decoder && c.decoder->replaced())
            file_error("bad-charset", c.decoder->replaced_message(c.name, "CA names it"), Severity::warning);
}

SgfReader::~SgfReader() = default;

namespace {

bool is_upper(char c) { return c >= 'A' && c <= 'Z'; }
bool is_letter(char c) { return is_upper(c) || (c >= 'a' && c <= 'z'); }

// The value of CA in the root node of the game tree that `text` starts with ("(;"), if the node
// holds one; `complete` false when the text ends before the node does. The node's properties are
// read up to the next node or tree. A value ends at its first ']' that no ASCII backslash escapes
// (in Shift_JIS the second byte of a character may be a backslash). Identifiers are FF[4]'s
// upper-case letters (FF[3]'s lower-case ones are passed over), blanks may stand before a value.
std::optional<std::string_view> root_ca(std::string_view text, bool& complete) {
    complete = true;
    std::size_t i = text.find(';');
    if (i == std::string_view::npos) return std::nullopt;
    ++i;
    std::string ident;
    bool in_ident = false;
    while (i < text.size()) {
        const char c = text[i];
        if (c == ';' || c == '(' || c == ')') return std::nullopt;
        if (c == '[') {
            std::size_t end = text.find(']', i + 1);
            // `\]` is an escaped bracket after an ASCII byte; after a byte >= 0x80, the `\` may be
            // the second byte of a Shift_JIS character, and the bracket ends the value.
            while (end != std::string_view::npos && end >= i + 2 && text[end - 1] == '\\' &&
                   static_cast<unsigned char>(text[end - 2]) < 0x80 && text[end - 2] != '\\')
                end = text.find(']', end + 1);
            if (end == std::string_view::npos) break;
            if (ident == "CA") return text.substr(i + 1, end - i - 1);
            in_ident = false;
            i = end + 1;
            continue;
        }
        if (is_letter(c)) {
            if (!in_ident) ident.clear();
            in_ident = true;
            if (is_upper(c)) ident += c;
        } else {
            in_ident = false;
        }
        ++i;
    }
    complete = false;
    return std::nullopt;
}

} // namespace

CharsetDecoder* SgfReader::tree_charset() {
    if (bom_) return nullptr;
    bool complete = false;
    std::optional<std::string_view> ca;
    for (;;) {
        ca = root_ca(std::string_view(buf_).substr(pos_), complete);
        // (read_more may move the unread part to the buffer's start: pos_ follows it.)
        if (complete || buf_.size() - pos_ > (1 << 20) || !read_more()) break; // a root node of a megabyte: no CA looked for further
    }
    if (!ca || ca->size() > 64) return nullptr;
    const std::string name(trim(*ca));
    const std::string key = lower(name);
    if (name.empty() || key == "utf-8" || key == "utf8" || key == "us-ascii" || key == "ascii") return nullptr;
    for (Charset& c : charsets_)
        if (c.key == key) return c.decoder.get();
    Charset& c = charsets_.emplace_back(Charset{key, name, CharsetDecoder::open(name)});
    if (!c.decoder) {
        file_error("unknown-charset", "CA[" + name + "] names a character set gounki does not know; read as UTF-8 (Windows-1252 where it is not)",
                   Severity::warning);
    } else if (!c.decoder->ascii_compatible()) {
        file_error("bad-charset",
                   "CA[" + name + "] cannot be the game's character set: the file writes its properties (CA among them) in one byte a "
                   "character; read as UTF-8 (Windows-1252 where it is not)",
                   Severity::warning);
        c.decoder.reset();
    }
    return c.decoder.get();
}

void SgfReader::advance(std::string_view text, bool utf8) {
    // Columns count characters as the text is read: UTF-8 ones, or one a byte where the text is not
    // UTF-8 (read as Windows-1252, next()).
    for (const char ch : text) {
        const auto c = static_cast<unsigned char>(ch);
        if (c == '\n') {
            ++line_;
            column_ = 1;
        } else if ((!utf8 || (c & 0xC0) != 0x80) && c != '\r') {
            ++column_;
        }
    }
}

bool SgfReader::next(GameRecord& game) {
    if (!in_) return false;
    if (!started_) {
        started_ = true;
        while (buf_.size() < 3 && read_more()) {}
        if (buf_.compare(0, 3, "\xEF\xBB\xBF") == 0) pos_ = 3, bom_ = true; // UTF-8, whatever CA says
    }
    if (!to_game_tree()) {
        warn_replaced();
        return false;
    }
    // Each game tree in the set its root's CA names (SGF: CA is a root property of each game), but
    // one that reads as UTF-8 is UTF-8 whatever CA says (programs write CA[GB2312] over UTF-8).
    CharsetDecoder* set = tree_charset();
    std::size_t k = tree_end(nullptr);
    std::size_t bad = 0;
    const auto reads_as_utf8 = [&](std::string_view text) {
        return valid_utf8(text, bad) && (!set || !set->shifts() || text.find('\x1B') == std::string_view::npos);
    };
    std::string converted;
    std::string_view chunk(buf_.data() + pos_, k - pos_);
    charset_name_.clear();
    if (set && !reads_as_utf8(chunk)) {
        if (set->ascii_bytes_in_characters()) {
            k = tree_end(set);
            chunk = std::string_view(buf_.data() + pos_, k - pos_);
        }
        set->decode_text(chunk, converted);
        for (const Charset& c : charsets_)
            if (c.decoder.get() == set) charset_name_ = c.name;
        chunk = converted;
    } else if (!valid_utf8(chunk, bad)) {
        cp1252_to_utf8(chunk, converted);
        chunk = converted;
        if (!warned_encoding_) {
            warned_encoding_ = true;
            file_error("not-utf8", "the file is not UTF-8; read as Windows-1252", Severity::warning);
        }
    }
    sgf::read_game(chunk, line_, column_, name_, ++number_, game);
    advance(chunk, true);
    pos_ = k;
    return true;
}

bool SgfReader::to_game_tree() {
    // To the next '(' that opens a node: anything else before it is reported and passed over.
    std::size_t junk = std::string::npos;
    int junk_line = 0, junk_column = 0;
    // Whether the passed-over text holds a property ("B[", "GM[": capitals then '['), as a game
    // whose "(;" is damaged would: then a game may be lost, not only a mail header or a signature.
    bool property = false, after_capital = false;
    for (;;) {
        if (pos_ >= buf_.size() && !read_more()) break;
        const char c = buf_[pos_];
        if (c == '(') {
            // Look past blanks for ';' ("(;"): a '(' in junk text is not a game.
            std::size_t k = pos_ + 1;
            for (;;) {
                if (k >= buf_.size()) {
                    const std::size_t before = pos_;
                    if (!read_more()) break;
                    k -= before - pos_; // the buffer may have been compacted
                    continue;
                }
                if (!is_blank(buf_[k])) break;
                ++k;
            }
            if (k >= buf_.size() || buf_[k] == ';' || junk == std::string::npos) break;
        }
        if (!is_blank(c) && junk == std::string::npos) {
            junk = pos_;
            junk_line = line_;
            junk_column = column_;
        }
        property = property || (after_capital && c == '[');
        after_capital = c >= 'A' && c <= 'Z';
        advance(std::string_view(buf_).substr(pos_, 1), static_cast<unsigned char>(buf_[pos_]) < 0x80);
        ++pos_;
    }
    const bool at_end = pos_ >= buf_.size();
    if (junk != std::string::npos && at_end && number_ == 0) {
        file_error("syntax", "no SGF game tree in the file, only text (an SGF game starts with \"(;\")", Severity::error,
                   junk_line, junk_column);
    } else if (junk != std::string::npos && property) {
        file_error("syntax", "text outside any game tree holds a property and is ignored: a game may be lost (an SGF game starts with \"(;\")",
                   Severity::error, junk_line, junk_column);
    } else if (junk != std::string::npos) {
        file_error("text-outside-game", "text outside any game tree is passed over (an SGF game starts with \"(;\")",
                   Severity::warning, junk_line, junk_column);
    }
    return !at_end;
}

std::size_t SgfReader::tree_end(CharsetDecoder* set) {
    // To the ')' that closes the first '(', outside property values (or the end of the input). In
    // values, the characters of `set` are stepped over whole when their bytes may be ASCII's.
    const bool stepped = set && set->ascii_bytes_in_characters();
    const bool shifts = stepped && set->shifts();
    std::size_t k = pos_;
    int depth = 0;
    bool in_value = false, escaped = false, done = false;
    while (!done) {
        if (k >= buf_.size()) {
            const std::size_t before = pos_;
            if (!read_more()) break;
            k -= before - pos_;
            continue;
        }
        char c = buf_[k];
        std::size_t length = 1;
        if (in_value && stepped && (shifts || static_cast<unsigned char>(c) >= 0x80)) {
            char32_t cp = 0;
            length = set->step(std::string_view(buf_).substr(k), eof_, cp);
            if (length == 0) { // a character cut by the end of what was read
                const std::size_t before = pos_;
                if (!read_more()) eof_ = true;
                k -= before - pos_;
                continue;
            }
            c = cp < 0x80 ? char(cp) : '\x80';
        }
        k += length;
        if (in_value) {
            if (escaped) escaped = false;
            else if (c == '\\') escaped = true;
            else if (c == ']') in_value = false;
        } else if (c == '[') {
            in_value = true;
            if (stepped) set->restart_steps();
        } else if (c == '(') {
            ++depth;
        } else if (c == ')') {
            done = --depth == 0;
        }
    }
    return std::min(k, buf_.size());
}

std::vector<GameRecord> read_sgf(std::string_view text, const std::string& name, std::vector<Diagnostic>* file_diagnostics) {
    std::istringstream in{std::string(text)};
    SgfReader reader(in, name);
    return read_all(reader, file_diagnostics);
}

bool looks_like_sgf(const std::filesystem::path& name, std::string_view head) {
    return lower(name.extension().string()) == ".sgf" || claims_sgf(head);
}

bool claims_sgf(std::string_view head) {
    if (head.substr(0, 3) == "\xEF\xBB\xBF") head.remove_prefix(3);
    std::size_t i = 0;
    while (i < head.size() && is_blank(head[i])) ++i;
    if (i >= head.size() || head[i] != '(') return false;
    ++i;
    while (i < head.size() && is_blank(head[i])) ++i;
    return i < head.size() && head[i] == ';';
}

} // namespace gounki::parser
