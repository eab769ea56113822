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
    const bool more = read_more_text();
    convert_line_ends();
    return more;
}

void SgfReader::convert_line_ends() {
    lone_cr_to_lf(buf_.data(), std::min(lf_from_, buf_.size()), buf_.size(), cr_pending_);
    lf_from_ = buf_.size();
}

bool SgfReader::read_more_text() {
    if (eof_ || !in_) return false;
    if (pos_ > 0 && pos_ >= buf_.size() / 2) { // keep the buffer to the unread part
        buf_.erase(0, pos_);
        scan_from_ -= std::min(scan_from_, pos_);
        lf_from_ -= std::min(lf_from_, pos_);
        pos_ = 0;
    }
    const std::size_t n = read_block();
    if (n == 0) {
        if (pending_) pending_.reset(); // ASCII to the end: nothing to decode
        if (!charset_) return false;
        const std::size_t before = buf_.size();
        charset_->decode({}, true, buf_); // a character left incomplete at the end
        warn_replaced();
        return buf_.size() > before;
    }
    if (charset_) {
        charset_->decode({block_.get(), n}, false, buf_);
    } else {
        buf_.append(block_.get(), n);
        if (pending_) settle_charset();
    }
    return true;
}

void SgfReader::warn_replaced() {
    if (charset_->replaced())
        file_error("bad-charset", charset_->replaced_message(charset_name_, "CA names it"), Severity::warning);
}

SgfReader::~SgfReader() = default;

namespace {

bool is_upper(char c) { return c >= 'A' && c <= 'Z'; }
bool is_letter(char c) { return is_upper(c) || (c >= 'a' && c <= 'z'); }

// The value of CA in the root node of the first game tree of `text`, if the node holds one: the
// first '(' followed by ';' (blanks between) opens the tree, and the node's properties are read up
// to the next node or tree. A value ends at its first ']' that no ASCII backslash escapes (in
// Shift_JIS the second byte of a character may be a backslash). Identifiers are FF[4]'s upper-case
// letters (FF[3]'s lower-case ones are passed over), blanks may stand before a value.
std::optional<std::string_view> root_ca(std::string_view text) {
    std::size_t i = 0;
    for (;; ++i) {
        i = text.find('(', i);
        if (i == std::string_view::npos) return std::nullopt;
        std::size_t k = i + 1;
        while (k < text.size() && is_blank(text[k])) ++k;
        if (k < text.size() && text[k] == ';') {
            i = k + 1;
            break;
        }
    }
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
            if (end == std::string_view::npos) return std::nullopt;
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
    return std::nullopt;
}

} // namespace

void SgfReader::choose_charset() {
    const std::optional<std::string_view> ca = root_ca(std::string_view(buf_).substr(pos_));
    if (!ca || ca->size() > 64) return;
    const std::string name(trim(*ca));
    const std::string l = lower(name);
    if (name.empty() || l == "utf-8" || l == "utf8" || l == "us-ascii" || l == "ascii") return;
    std::unique_ptr<CharsetDecoder> decoder = CharsetDecoder::open(name);
    if (!decoder) {
        file_error("unknown-charset", "CA[" + name + "] names a character set gounki does not know; read as UTF-8 (Windows-1252 where it is not)",
                   Severity::warning);
        return;
    }
    if (!decoder->ascii_compatible()) {
        file_error("bad-charset",
                   "CA[" + name + "] cannot be the file's character set: the file writes its properties (CA among them) in one byte a "
                   "character; read as UTF-8 (Windows-1252 where it is not)",
                   Severity::warning);
        return;
    }
    charset_name_ = name;
    pending_ = std::move(decoder);
    scan_from_ = pos_;
    settle_charset();
}

void SgfReader::settle_charset() {
    // ASCII text reads the same in UTF-8 and in the named set: nothing is decided before the first
    // byte that is not ASCII (or ESC, which starts ISO-2022's shifts).
    std::size_t i = scan_from_;
    while (i < buf_.size() && static_cast<unsigned char>(buf_[i]) < 0x80 && buf_[i] != '\x1B') ++i;
    scan_from_ = i;
    if (i == buf_.size()) return;
    // Programs write CA[GB2312] over UTF-8 text: text that reads as UTF-8 is UTF-8, whatever CA
    // says (no multi-byte set's text reads as UTF-8 for long). It is judged on a few hundred bytes
    // at least, or the rest of the file; a character cut at the end of what was read may be whole.
    while (!eof_ && buf_.size() - i < 512) {
        const std::size_t n = read_block();
        if (n) buf_.append(block_.get(), n);
    }
    const std::string_view rest = std::string_view(buf_).substr(i);
    std::size_t bad = 0;
    if (buf_[i] != '\x1B' && (eof_ ? valid_utf8(rest, bad) : valid_utf8_prefix(rest))) {
        pending_.reset();
        return;
    }
    charset_ = std::move(pending_);
    const std::string raw(rest);
    buf_.resize(i);
    lf_from_ = std::min(lf_from_, i);
    cr_pending_ = false; // the text from i is converted anew
    charset_->decode(raw, eof_, buf_);
    if (eof_) warn_replaced();
}

void SgfReader::advance(std::size_t from, std::size_t to, bool utf8) {
    // Columns count characters as the text is read: UTF-8 ones, or one a byte where the text is not
    // UTF-8 (read as Windows-1252, next()).
    for (std::size_t i = from; i < to; ++i) {
        const auto c = static_cast<unsigned char>(buf_[i]);
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
        if (buf_.compare(0, 3, "\xEF\xBB\xBF") == 0) pos_ = 3; // UTF-8, whatever CA says
        else choose_charset();
        convert_line_ends();
    }
    if (!to_game_tree()) return false;
    const std::size_t k = tree_end();
    const std::string_view raw(buf_.data() + pos_, k - pos_);
    std::string converted;
    std::string_view chunk = raw;
    std::size_t bad = 0;
    const bool utf8 = valid_utf8(raw, bad);
    if (!utf8) {
        cp1252_to_utf8(raw, converted);
        chunk = converted;
        if (!warned_encoding_) {
            warned_encoding_ = true;
            file_error("not-utf8", "the file is not UTF-8; read as Windows-1252", Severity::warning);
        }
    }
    sgf::read_game(chunk, line_, column_, name_, ++number_, game);
    advance(pos_, k, utf8);
    pos_ = k;
    return true;
}

bool SgfReader::to_game_tree() {
    // To the next '(' that opens a node: anything else before it is reported and passed over.
    std::size_t junk = std::string::npos;
    int junk_line = 0, junk_column = 0;
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
        advance(pos_, pos_ + 1, static_cast<unsigned char>(buf_[pos_]) < 0x80);
        ++pos_;
    }
    if (junk != std::string::npos) {
        file_error("syntax", "text outside any game tree is ignored (an SGF game starts with \"(;\")", Severity::error, junk_line,
                   junk_column);
    }
    return pos_ < buf_.size();
}

std::size_t SgfReader::tree_end() {
    // To the ')' that closes the first '(', outside property values (or the end of the input).
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
        const char c = buf_[k++];
        if (in_value) {
            if (escaped) escaped = false;
            else if (c == '\\') escaped = true;
            else if (c == ']') in_value = false;
        } else if (c == '[') {
            in_value = true;
        } else if (c == '(') {
            ++depth;
        } else if (c == ')') {
            done = --depth == 0;
        }
    }
    return k;
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
