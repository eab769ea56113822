#include "parser/reader.hpp"

#include <algorithm>
#include <cstring>
#include <fstream>
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

RecordReader::RecordReader(const std::filesystem::path& path) : name_(path.string()) {
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec)) {
        file_error("io-error", "cannot read a directory as a record file", Severity::error, 0, 0);
        io_failed_ = true;
        return;
    }
    auto f = std::make_unique<std::ifstream>(path, std::ios::binary);
    if (!*f) {
        file_error("io-error", "cannot open the file: " + std::string(std::strerror(errno)), Severity::error, 0, 0);
        io_failed_ = true;
        return;
    }
    owned_ = std::move(f);
    in_ = owned_.get();
}

RecordReader::RecordReader(std::istream& in, std::string name) : in_(&in), name_(std::move(name)) {}

RecordReader::~RecordReader() = default;

void RecordReader::file_error(std::string code, std::string message, Severity sev, int line, int column) {
    Diagnostic d;
    d.severity = sev;
    d.code = std::move(code);
    d.message = std::move(message);
    d.file = name_;
    d.line = line;
    d.column = column;
    file_diagnostics_.push_back(std::move(d));
}

std::vector<Diagnostic> RecordReader::take_file_diagnostics() {
    std::vector<Diagnostic> out;
    out.swap(file_diagnostics_);
    return out;
}

bool RecordReader::read_more() {
    if (eof_ || !in_) return false;
    if (begin_ > 0) { // keep only the unfinished chunk
        std::memmove(buf_.data(), buf_.data() + begin_, end_ - begin_);
        splitter_.shift(begin_);
        end_ -= begin_;
        begin_ = 0;
    }
    if (buf_.size() < end_ + block_size) buf_.resize(end_ + block_size);
    in_->read(buf_.data() + end_, std::streamsize(block_size));
    const auto n = std::size_t(in_->gcount());
    if (in_->bad()) {
        io_failed_ = true;
        file_error("io-error", "read error after " + std::to_string(bytes_read_ + n) + " bytes", Severity::error,
                   line_, column_);
    }
    end_ += n;
    bytes_read_ += n;
    if (n < block_size) eof_ = true;
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
        line_ += int(std::count(text.begin(), text.end(), '\n'));
        column_ = 1;
        tail = text.substr(nl + 1);
    }
    column_ += int(utf8_length(tail)) - int(std::count(tail.begin(), tail.end(), '\r'));
}

bool RecordReader::load_chunk() {
    if (!in_) return false;
    syntax_.clear();
    next_game_ = 0;
    oversized_ = false;
    for (;;) {
        std::size_t cut = 0;
        const GameSplitter::Scan s = splitter_.scan(buf_.data(), end_, eof_, cut);
        if (s == GameSplitter::Scan::need_more) {
            if (end_ - begin_ >= max_game_bytes_) {
                // Too large to hold: drop what was scanned, keep scanning for the game's end.
                if (!oversized_) {
                    oversized_ = true;
                    chunk_line_ = line_;
                    chunk_column_ = column_;
                }
                const std::size_t drop = splitter_.position();
                advance_place(std::string_view(buf_.data() + begin_, drop - begin_));
                begin_ = drop;
            }
            if (!read_more() && !eof_) return false;
            continue;
        }
        const std::string_view raw(buf_.data() + begin_, cut - begin_);
        if (!oversized_ && raw.size() > max_game_bytes_) { // found whole, but still too large
            oversized_ = true;
            chunk_line_ = line_;
            chunk_column_ = column_;
        }
        if (oversized_) {
            advance_place(raw);
            begin_ = cut;
            splitter_.start_chunk(cut);
            return true;
        }
        chunk_line_ = line_;
        chunk_column_ = column_;
        std::size_t bad = 0;
        if (valid_utf8(raw, bad)) {
            chunk_.assign(raw);
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
        }
        advance_place(chunk_);
        begin_ = cut;
        splitter_.start_chunk(cut);
        if (!only_blanks(chunk_)) {
            parse_chunk(chunk_, syntax_);
            if (!syntax_.games.empty()) return true;
        }
        if (s == GameSplitter::Scan::end) return false;
    }
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
    resolve_game(*g, SourceMap(chunk_, chunk_line_, chunk_column_), game_errors_, name_, number_, game);
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
    if (header) read_game_header(*g, SourceMap(chunk_, chunk_line_, chunk_column_), name_, number_, *header);
    return true;
}

std::vector<GameRecord> read_records(std::string_view text, const std::string& name,
                                     std::vector<Diagnostic>* file_diagnostics) {
    std::istringstream in{std::string(text)};
    RecordReader reader(in, name);
    std::vector<GameRecord> games;
    GameRecord g;
    while (reader.next(g)) games.push_back(std::move(g));
    if (file_diagnostics) *file_diagnostics = reader.take_file_diagnostics();
    return games;
}

} // namespace gounki::parser
