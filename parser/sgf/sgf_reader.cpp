// SGF import (sgf.hpp), the reader: cuts a collection into game trees, each read by
// sgf::read_game (sgf.cpp).

#include <algorithm>
#include <istream>
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

bool SgfReader::read_more() {
    if (eof_ || !in_) return false;
    if (pos_ > 0 && pos_ >= buf_.size() / 2) { // keep the buffer to the unread part
        buf_.erase(0, pos_);
        pos_ = 0;
    }
    char block[1 << 16];
    in_->read(block, sizeof block);
    const std::streamsize n = in_->gcount();
    if (in_->bad()) io_error("error reading " + name_);
    if (n <= 0) {
        eof_ = true;
        if (!charset_) return false;
        const std::size_t before = buf_.size();
        charset_->decode({}, true, buf_); // a character left incomplete at the end
        if (charset_->replaced())
            file_error("bad-charset",
                       std::to_string(charset_->replaced()) + " byte sequence" + (charset_->replaced() == 1 ? " is" : "s are") +
                           " no " + charset_name_ + " text (CA names it); read as U+FFFD",
                       Severity::warning);
        return buf_.size() > before;
    }
    bytes_read_ += std::uint64_t(n);
    if (charset_) charset_->decode({block, std::size_t(n)}, false, buf_);
    else buf_.append(block, std::size_t(n));
    return true;
}

SgfReader::~SgfReader() = default;

void SgfReader::choose_charset() {
    // CA[...] as a property of the first block: at its start, or after ';', ']' or a blank.
    std::size_t at = 0;
    for (;; ++at) {
        at = buf_.find("CA[", at);
        if (at == std::string::npos) return;
        if (at == pos_ || is_blank(buf_[at - 1]) || buf_[at - 1] == ';' || buf_[at - 1] == ']') break;
    }
    const std::size_t end = buf_.find(']', at + 3);
    if (end == std::string::npos || end - at > 64) return;
    const std::string name(trim(std::string_view(buf_).substr(at + 3, end - at - 3)));
    const std::string l = lower(name);
    if (name.empty() || l == "utf-8" || l == "utf8" || l == "us-ascii" || l == "ascii") return;
    // Programs that write CA[GB2312] over UTF-8 text exist: text that reads as UTF-8 and is not
    // all ASCII is UTF-8, whatever CA says (no multi-byte set's text reads as UTF-8 for long).
    const std::string_view head = std::string_view(buf_).substr(pos_);
    std::size_t bad = 0;
    const bool more = buf_.size() >= (1u << 16); // a whole block: its last character may be cut
    const bool utf8 = valid_utf8(head, bad) || (more && bad + 4 > head.size());
    const bool ascii = std::all_of(head.begin(), head.end(), [](char c) { return static_cast<unsigned char>(c) < 0x80; });
    if (utf8 && !ascii) return;
    charset_ = CharsetDecoder::open(name);
    if (!charset_) {
        file_error("unknown-charset", "CA[" + name + "] names a character set gounki does not know; read as UTF-8 (Windows-1252 where it is not)",
                   Severity::warning);
        return;
    }
    charset_name_ = name;
    const std::string raw = buf_.substr(pos_);
    buf_.resize(pos_);
    charset_->decode(raw, eof_, buf_);
}

void SgfReader::advance(std::size_t from, std::size_t to) {
    for (std::size_t i = from; i < to; ++i) {
        const auto c = static_cast<unsigned char>(buf_[i]);
        if (c == '\n') {
            ++line_;
            column_ = 1;
        } else if ((c & 0xC0) != 0x80 && c != '\r') {
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
    }
    if (!to_game_tree()) return false;
    const std::size_t k = tree_end();
    const std::string_view raw(buf_.data() + pos_, k - pos_);
    std::string converted;
    std::string_view chunk = raw;
    std::size_t bad = 0;
    if (!valid_utf8(raw, bad)) {
        cp1252_to_utf8(raw, converted);
        chunk = converted;
        if (!warned_encoding_) {
            warned_encoding_ = true;
            file_error("not-utf8", "the file is not UTF-8; read as Windows-1252", Severity::warning);
        }
    }
    sgf::read_game(chunk, line_, column_, name_, ++number_, game);
    advance(pos_, k);
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
        advance(pos_, pos_ + 1);
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
