#include "parser/reader.hpp"

#include <algorithm>
#include <cstring>
#include <istream>
#include <sstream>

#include "parser/encoding.hpp"
#include "parser/resolve.hpp"

namespace gounki::parser {

namespace {

constexpr std::size_t block_size = 64 * 1024;

bool only_blanks(std::string_view s) {
    for (char c : s)
        if (!(c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v')) return false;
    return true;
}

} // namespace

bool RecordReader::read_more() {
    if (eof_ || !in_) return false;
    if (begin_ > 0) { // keep only the unfinished chunk
        std::memmove(buf_.data(), buf_.data() + begin_, end_ - begin_);
        splitter_.shift(begin_);
        base_ += begin_;
        end_ -= begin_;
        begin_ = 0;
    }
    if (buf_.size() < end_ + block_size) buf_.resize(end_ + block_size);
    in_->read(buf_.data() + end_, std::streamsize(block_size));
    const auto n = std::size_t(in_->gcount());
    if (in_->bad()) io_error("read error after " + std::to_string(bytes_read_ + n) + " bytes", line_, column_);
    end_ += n;
    bytes_read_ += n;
    if (n < block_size) eof_ = true;
    lone_cr_to_lf(buf_.data(), end_ - n, end_, cr_pending_);
    if (!started_ && (end_ >= 3 || eof_)) {
        started_ = true;
        if (end_ >= 3 && std::memcmp(buf_.data(), "\xEF\xBB\xBF", 3) == 0) {
            begin_ = 3;
            splitter_.start_chunk(3);
        }
    }
    return n > 0;
}

void RecordReader::advance_place(std::string_view text) {
    const std::size_t nl = text.rfind('\n');
    std::string_view tail = text;
    if (nl != std::string_view::npos) {
        int lines = 0;
        for (const char c : text) lines += c == '\n'; // a plain loop: the compiler vectorises it
        line_ += lines;
        column_ = 1;
        tail = text.substr(nl + 1);
    }
    column_ += int(utf8_length(tail)) - int(std::count(tail.begin(), tail.end(), '\r'));
}

namespace {

// PGN's escape: a line that starts with `%` (in its first column; `line_start`: the text starts
// one) is passed over, unless it stands in a `{` comment or a tag value. Its bytes become blanks in
// a copy (`out`), so offsets, lines and columns stay those of the text as written. False, and
// `out` untouched, when there is none.
bool blank_escape_lines(std::string_view text, bool line_start, std::string& out) {
    if (!(line_start && !text.empty() && text[0] == '%') && text.find("\n%") == std::string_view::npos) return false;
    bool any = false;
    char in = 0; // '{' in a comment, '"' in a tag value, ';' in a line comment
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (in == '{') {
            if (c == '}') in = 0;
        } else if (in == '"') {
            if (c == '\\') ++i;
            else if (c == '"' || c == '\n') in = 0;
        } else if (in == ';') {
            if (c == '\n') in = 0;
        } else if (c == '{' || c == '"' || c == ';') {
            in = c;
        } else if (c == '%' && (i > 0 ? text[i - 1] == '\n' : line_start)) {
            if (!any) out.assign(text);
            any = true;
            for (; i < text.size() && text[i] != '\n'; ++i) out[i] = ' ';
        }
    }
    return any;
}

bool blank_or_line_end(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v'; }

} // namespace

std::size_t RecordReader::block_end() const {
    // The last line start q after begin_ where a tag pair line follows a line whose last token is a
    // result (blank lines between). The splitter cuts exactly there, whatever state it is in:
    //   - normal state: a result at depth 0 ends the game before the next token, and anything else
    //     is movetext, after which a line starting with `[` ends the game;
    //   - inside a `{` comment: a tag pair line ends it (tag_line_starts);
    //   - a `;` comment or a tag pair on that line could hide the result: such lines are passed.
    // Candidates are found from the end by their '[' (memrchr), the line end before it checked then:
    // text without tag pairs (HTML tables) is passed over at memory speed.
    const char* b = buf_.data();
    const std::string_view all(b, end_);
    std::size_t q = end_; // candidates start before q
    while (q > begin_ + 1) {
        const void* found = memrchr(b + begin_ + 1, '[', q - (begin_ + 1));
        if (!found) break;
        const std::size_t start = std::size_t(static_cast<const char*>(found) - b);
        q = start;
        const std::size_t nl = start - 1;
        if (b[nl] != '\n' || !tag_line_starts(b + start, b + end_)) continue;
        std::size_t e = nl; // back to the last byte of the previous line with anything on it
        while (e > begin_ && blank_or_line_end(b[e])) --e;
        if (blank_or_line_end(b[e]) || e == begin_) continue;
        std::size_t line = e;
        while (line > begin_ && b[line - 1] != '\n') --line;
        const std::string_view text(b + line, e + 1 - line);
        if (text.find_first_of(";[") != std::string_view::npos) continue;
        std::size_t token = e + 1;
        while (token > line && !blank_or_line_end(b[token - 1])) --token;
        const std::string_view last = all.substr(token, e + 1 - token);
        if (last == "1-0" || last == "0-1" || last == "1/2-1/2" || last == "*") return start;
    }
    return begin_;
}

bool RecordReader::block_agrees(std::string_view text) const {
    // The grammar ends a game where the splitter cuts, and goes on where it does not, except in a
    // few layouts. Where every game of the block
    //   - ends with a result (so it has no '[' or tag pair line inside its movetext),
    //   - but the first, starts with '[' at the start of a line (where the splitter cuts after the
    //     result before it, whatever its variation depth),
    //   - has nothing between its tag pairs and header comments but blanks (the grammar skips a
    //     lone '.' or '|' there; the splitter takes it for movetext and cuts at the next tag pair),
    //   - has no header comment left open (the grammar reads on into the tag pairs after it),
    //   - has each tag pair on one line,
    // both read the same games.
    for (std::size_t i = 0; i < syntax_.games.size(); ++i) {
        const ast::Game& g = syntax_.games[i];
        if (g.result.value == ast::Result::none) return false;
        if (i > 0 && (g.offset == 0 || text[g.offset - 1] != '\n' || text[g.offset] != '[')) return false;
        std::uint32_t at = g.offset; // end of the header so far
        auto gap_is_blank = [&](std::uint32_t next) {
            for (std::uint32_t k = at; k < next; ++k)
                if (!blank_or_line_end(text[k])) return false;
            return true;
        };
        std::size_t t = 0, c = 0;
        while (t < g.tags.size() || c < g.header_comments.size()) {
            const bool tag =
                c == g.header_comments.size() || (t < g.tags.size() && g.tags[t].offset < g.header_comments[c].offset);
            const ast::Located& item =
                tag ? static_cast<const ast::Located&>(g.tags[t++]) : static_cast<const ast::Located&>(g.header_comments[c]);
            if (!tag && !g.header_comments[c++].closed) return false;
            if (tag && text.substr(item.offset, item.length).find('\n') != std::string_view::npos)
                return false; // the grammar reads a tag pair across lines; the splitter ends it at the line end
            if (!gap_is_blank(item.offset)) return false;
            at = item.offset + item.length;
        }
    }
    return true;
}

RecordReader::Block RecordReader::load_block() {
    if (block_bytes_ == 0 || oversized_ || splitter_.position() != begin_ || base_ + begin_ < no_block_until_) return Block::none;
    while (!eof_ && end_ - begin_ < block_bytes_)
        if (!read_more() && !eof_) return Block::none;
    if (end_ - begin_ < block_bytes_ && !eof_) return Block::none;
    const std::size_t q = eof_ ? end_ : block_end();
    if (q == begin_ || q - begin_ > max_game_bytes_) {
        // Game by game through what is in hand, rather than searching it again for every game.
        no_block_until_ = base_ + end_;
        return Block::none;
    }
    const std::string_view raw(buf_.data() + begin_, q - begin_);
    std::size_t bad = 0;
    if (!valid_utf8(raw, bad)) { // converted game by game, as the splitter cuts them
        no_block_until_ = base_ + q;
        return Block::none;
    }
    syntax_.clear();
    next_game_ = 0;
    text_ = raw;
    notes_.clear();
    if (may_need_web_text_pass(raw) && normalize_web_text(raw, web_, notes_)) text_ = web_;
    if (blank_escape_lines(text_, column_ == 1, escaped_)) text_ = escaped_;
    if (!only_blanks(text_)) {
        parse_chunk(text_, syntax_);
        if (!syntax_.errors.empty() || !block_agrees(text_)) { // read again game by game
            syntax_.clear();
            no_block_until_ = base_ + q;
            return Block::none;
        }
    }
    chunk_line_ = line_;
    chunk_column_ = column_;
    set_source(raw);
    advance_place(raw);
    begin_ = q;
    splitter_.start_chunk(q);
    return syntax_.games.empty() ? Block::empty : Block::games;
}

bool RecordReader::load_chunk() {
    if (!in_) return false;
    syntax_.clear();
    next_game_ = 0;
    oversized_ = false;
    for (;;) {
        switch (load_block()) {
        case Block::games: return true;
        case Block::empty:
            if (eof_ && begin_ == end_) return false;
            continue;
        case Block::none: break;
        }
        std::size_t cut = 0;
        const GameSplitter::Scan s = splitter_.scan(buf_.data(), end_, eof_, cut);
        if (s == GameSplitter::Scan::need_more) {
            if (end_ - begin_ >= max_game_bytes_) {
                // Too large to hold: drop what was scanned, keep scanning for the game's end.
                if (!oversized_) {
                    oversized_ = true;
                    oversized_text_ = false;
                    chunk_line_ = line_;
                    chunk_column_ = column_;
                }
                const std::size_t drop = splitter_.position();
                const std::string_view scanned(buf_.data() + begin_, drop - begin_);
                oversized_text_ |= !only_blanks(scanned);
                advance_place(scanned);
                begin_ = drop;
            }
            if (!read_more() && !eof_) return false;
            continue;
        }
        const std::string_view raw(buf_.data() + begin_, cut - begin_);
        if (!oversized_ && raw.size() > max_game_bytes_) { // found whole, but still too large
            oversized_ = true;
            oversized_text_ = false;
            chunk_line_ = line_;
            chunk_column_ = column_;
        }
        if (oversized_) {
            oversized_text_ |= !only_blanks(raw);
            advance_place(raw);
            begin_ = cut;
            splitter_.start_chunk(cut);
            if (oversized_text_) return true;
            oversized_ = false; // blank lines only, however many: no game
            continue;
        }
        chunk_line_ = line_;
        chunk_column_ = column_;
        std::size_t bad = 0;
        if (valid_utf8(raw, bad)) {
            text_ = raw;
        } else {
            if (!warned_encoding_) {
                warned_encoding_ = true;
                const std::string_view prefix = raw.substr(0, bad);
                const std::size_t nl = prefix.rfind('\n');
                int l = chunk_line_, c = chunk_column_;
                for (char ch : prefix) l += ch == '\n';
                if (nl != std::string_view::npos) c = 1;
                c += int(utf8_length(nl == std::string_view::npos ? prefix : prefix.substr(nl + 1)));
                file_error("not-utf8",
                           "the file is not valid UTF-8 (first bad byte here); read as Windows-1252/Latin-1 and "
                           "converted",
                           Severity::warning, l, c);
            }
            chunk_.clear();
            cp1252_to_utf8(raw, chunk_);
            text_ = chunk_;
        }
        const std::string_view written = text_;
        notes_.clear();
        if (may_need_web_text_pass(written) && normalize_web_text(written, web_, notes_)) text_ = web_;
        if (blank_escape_lines(text_, chunk_column_ == 1, escaped_)) text_ = escaped_;
        set_source(written);
        advance_place(written);
        begin_ = cut;
        splitter_.start_chunk(cut);
        if (!only_blanks(text_)) {
            parse_chunk(text_, syntax_);
            if (!syntax_.games.empty()) return true;
            report_open_comment(text_);
        }
        if (s == GameSplitter::Scan::end) return false;
    }
}

void RecordReader::report_open_comment(std::string_view text) {
    // A chunk with no game: a `{` comment the splitter ended at a line that looks like a tag pair
    // (its `}`, if any, comes later, in the next game). Its text is not read: said, at its `{`.
    for (std::size_t open = text.find('{'); open != std::string_view::npos;) {
        const std::size_t close = text.find('}', open + 1);
        if (close == std::string_view::npos) {
            const SourceMap::Place at = source_.locate(std::uint32_t(open));
            file_error("unterminated-comment",
                       "comment '{' is not closed before the tag pairs of the next game: its text is not read", Severity::error,
                       at.line, at.column);
            return;
        }
        open = text.find('{', close + 1);
    }
}

void RecordReader::set_source(std::string_view written) {
    source_ = text_.data() == written.data() ? SourceMap(text_, chunk_line_, chunk_column_)
                                             : SourceMap(text_, chunk_line_, chunk_column_, written);
}

void RecordReader::add_web_notes(const ast::Game& g, GameRecord& game) const {
    const std::size_t i = std::size_t(&g - syntax_.games.data());
    const std::uint32_t from = i == 0 ? 0 : g.offset;
    const std::uint32_t to = i + 1 < syntax_.games.size() ? syntax_.games[i + 1].offset : UINT32_MAX;
    struct Kind {
        const WebTextNote* first;
        int count;
    };
    std::vector<Kind> kinds;
    // Notes come in the order of the text: only this game's are looked at.
    auto first = std::lower_bound(notes_.begin(), notes_.end(), from,
                                  [](const WebTextNote& n, std::uint32_t at) { return n.offset < at; });
    for (auto it = first; it != notes_.end() && it->offset < to; ++it) {
        const WebTextNote& n = *it;
        // An entity is HTML's own way of writing a character: worth a word only when that character
        // is read as another (a dash as '-'), not for &eacute;, &amp; or &nbsp;.
        if (n.entity) {
            std::string itself;
            append_utf8(n.code_point, itself);
            if (n.code_point == 0xA0 || n.read_as() == itself) continue;
        }
        auto k = std::find_if(kinds.begin(), kinds.end(), [&](const Kind& x) {
            return x.first->code_point == n.code_point && x.first->read_as() == n.read_as();
        });
        if (k == kinds.end()) kinds.push_back({&n, 1});
        else ++k->count;
    }
    if (kinds.empty()) return;
    for (const Kind& k : kinds) {
        const WebTextNote& n = *k.first;
        std::string what = describe_code_point(n.code_point);
        if (n.entity) what = "an HTML entity for " + what;
        const std::string_view read_as = n.read_as();
        const std::string as = read_as.empty() ? "removed"
            : read_as == " "                   ? "read as a space"
                                               : "read as '" + std::string(read_as) + "'";
        std::string message = what + " " + as;
        if (k.count > 1) message += " (" + std::to_string(k.count) + " times in this game)";
        add_diagnostic(game, source_, name_, game.number, Severity::warning, "typographic", n.offset, std::move(message));
    }
    std::stable_sort(game.diagnostics.begin(), game.diagnostics.end(), [](const Diagnostic& a, const Diagnostic& b) {
        return a.line != b.line ? a.line < b.line : a.column < b.column;
    });
}

const ast::Game* RecordReader::take_game(std::vector<ast::SyntaxError>& errors) {
    errors.clear();
    const std::size_t i = next_game_++;
    const ast::Game& g = syntax_.games[i];
    const std::uint32_t from = i == 0 ? 0 : g.offset;
    const std::uint32_t to = i + 1 < syntax_.games.size() ? syntax_.games[i + 1].offset : UINT32_MAX;
    for (const ast::SyntaxError& e : syntax_.errors)
        if (e.offset >= from && e.offset < to) errors.push_back(e);
    ++number_;
    return &g;
}

bool RecordReader::next(GameRecord& game) {
    while (!oversized_ && next_game_ >= syntax_.games.size())
        if (!load_chunk()) return false;
    if (oversized_) {
        oversized_ = false;
        game.clear();
        game.file = name_;
        game.number = ++number_;
        game.line = chunk_line_;
        game.column = chunk_column_;
        game.status = GameStatus::partial;
        Diagnostic d;
        d.code = "game-too-large";
        d.message = "this game is larger than " + std::to_string(max_game_bytes_) + " bytes; it is not read";
        d.file = name_;
        d.line = chunk_line_;
        d.column = chunk_column_;
        d.game = game.number;
        game.diagnostics.push_back(std::move(d));
        return true;
    }
    const ast::Game* g = take_game(game_errors_);
    resolve_game(*g, source_, game_errors_, name_, number_, game, notation_);
    if (!notes_.empty()) add_web_notes(*g, game);
    return true;
}

bool RecordReader::skip(GameRecord* header) {
    while (!oversized_ && next_game_ >= syntax_.games.size())
        if (!load_chunk()) return false;
    if (oversized_) {
        oversized_ = false;
        ++number_;
        if (header) {
            header->clear();
            header->file = name_;
            header->number = number_;
            header->line = chunk_line_;
        }
        return true;
    }
    const ast::Game* g = take_game(game_errors_);
    if (header) read_game_header(*g, source_, name_, number_, *header);
    return true;
}

std::vector<GameRecord> read_records(std::string_view text, const std::string& name, std::vector<Diagnostic>* file_diagnostics) {
    std::istringstream in{std::string(text)};
    RecordReader reader(in, name);
    return read_all(reader, file_diagnostics);
}

} // namespace gounki::parser
