#include "pipeline/import.hpp"

#include <QFuture>
#include <QThreadPool>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <deque>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <utility>

#include "db/record_bridge.hpp"
#include "parser/formats.hpp"
#include "parser/reader.hpp"
#include "parser/splitter.hpp"
#include "pipeline/input.hpp"

namespace gounki::pipeline {

namespace {

// Parsing runs on Qt's thread pool: a file is cut into blocks of whole games (the parser's own
// splitter finds where games end), each block is read by its own RecordReader, and the results
// are stored in file order. Lines are counted here so that every place still names the file's line.
class ChunkSource {
public:
    explicit ChunkSource(std::istream& in) : in_(in) {}

    // The next block of whole games of about `target` bytes (less at the end of the input), and
    // the line it starts on. False when the input is done.
    bool next(std::string& text, int& first_line, std::size_t target) {
        for (;;) {
            std::size_t cut = 0;
            const auto s = splitter_.scan(buf_.data(), buf_.size(), eof_, cut);
            if (s == parser::GameSplitter::Scan::need_more) {
                if (last_cut_ > begin_ && last_cut_ - begin_ >= target) return emit(last_cut_, text, first_line);
                read_more();
                continue;
            }
            if (s == parser::GameSplitter::Scan::end) {
                if (done_) return false;
                done_ = true;
                return emit(buf_.size(), text, first_line);
            }
            splitter_.start_chunk(cut);
            // Blocks start at a line start, so columns on their first line stay right.
            if (cut == 0 || buf_[cut - 1] == '\n') last_cut_ = cut;
            if (last_cut_ > begin_ && last_cut_ - begin_ >= target) return emit(last_cut_, text, first_line);
        }
    }
    bool failed() const { return failed_; }
    std::uint64_t bytes_read() const { return bytes_; }

private:
    void read_more() {
        if (begin_ > (std::size_t(4) << 20)) { // drop what was handed out
            buf_.erase(0, begin_);
            splitter_.shift(begin_);
            last_cut_ -= begin_;
            begin_ = 0;
        }
        constexpr std::size_t block = std::size_t(1) << 20;
        const std::size_t old = buf_.size();
        buf_.resize(old + block);
        in_.read(buf_.data() + old, std::streamsize(block));
        const auto n = std::size_t(in_.gcount());
        buf_.resize(old + n);
        bytes_ += n;
        if (in_.bad()) failed_ = true;
        if (n < block) eof_ = true;
        if (!started_ && (buf_.size() >= 3 || eof_)) {
            started_ = true;
            if (buf_.size() >= 3 && std::memcmp(buf_.data(), "\xEF\xBB\xBF", 3) == 0) { // a UTF-8 byte order mark
                begin_ = last_cut_ = 3;
                splitter_.start_chunk(3);
            }
        }
    }
    bool emit(std::size_t end, std::string& text, int& first_line) {
        text.assign(buf_, begin_, end - begin_);
        first_line = line_;
        line_ += int(std::count(text.begin(), text.end(), '\n'));
        begin_ = end;
        return !text.empty() || !done_;
    }

    std::istream& in_;
    std::string buf_;
    parser::GameSplitter splitter_;
    std::size_t begin_ = 0, last_cut_ = 0;
    std::uint64_t bytes_ = 0;
    int line_ = 1;
    bool eof_ = false, done_ = false, started_ = false, failed_ = false;
};

struct ParsedGame {
    db::GameInput input;
    std::vector<parser::Diagnostic> diagnostics;
};

struct ParsedChunk {
    std::vector<ParsedGame> games;
    std::vector<parser::Diagnostic> file_diagnostics;
    std::size_t bytes = 0;
};

ParsedChunk parse_chunk(const std::string& text, const std::string& name, int first_line, Notation notation) {
    ParsedChunk out;
    out.bytes = text.size();
    std::istringstream in(text);
    parser::RecordReader reader(in, name);
    reader.set_notation(notation);
    parser::GameRecord record;
    const int shift = first_line - 1;
    auto move_down = [shift](parser::Diagnostic& d) {
        if (d.line > 0) d.line += shift;
    };
    while (reader.next(record)) {
        record.line += shift;
        for (parser::Diagnostic& d : record.diagnostics) move_down(d);
        ParsedGame g;
        g.diagnostics = record.diagnostics;
        g.input = db::game_input(std::move(record));
        out.games.push_back(std::move(g));
    }
    out.file_diagnostics = reader.take_file_diagnostics();
    for (parser::Diagnostic& d : out.file_diagnostics) move_down(d);
    return out;
}

parser::Diagnostic io_error(const std::string& path, std::string message) {
    parser::Diagnostic d;
    d.code = "io-error";
    d.file = path;
    d.message = std::move(message);
    return d;
}

// One import: the importer, the callbacks and the running counts.
class Run {
public:
    Run(db::GameDatabase& database, const ImportRequest& request, const ImportEvents& events)
        : request_(request), events_(events), importer_(database, options(request), events.report) {}

    ImportResult all() {
        for (const std::string& path : request_.files) file(path);
        importer_.finish();
        return {importer_.stats(), io_errors_};
    }

    // One stream named `name` (the name its games and diagnostics carry).
    ImportResult one(std::istream& input, const std::string& name) {
        const std::string head = read_head(input);
        input.clear();
        input.seekg(0);
        records(input, head, name, name);
        importer_.finish();
        return {importer_.stats(), io_errors_};
    }

private:
    static db::ImportOptions options(const ImportRequest& request) {
        db::ImportOptions o = request.options;
        // A record takes 400-600 bytes for 40 plies: a low guess of the games coming, for deferring
        // the lookup indexes when they outnumber the stored ones.
        if (o.expected_games == 0) o.expected_games = std::int64_t(input_bytes(request.files) / 600);
        return o;
    }

    void diagnostic(const parser::Diagnostic& d) {
        if (events_.diagnostic) events_.diagnostic(d);
    }
    void progress() {
        if (events_.progress) events_.progress(importer_.stats().added, bytes_done_);
    }

    void file(const std::string& path) {
        std::ifstream file;
        if (path != "-") {
            file.open(path, std::ios::binary);
            std::error_code ec;
            if (!file || std::filesystem::is_directory(path, ec)) {
                std::string message = std::string("cannot read the file: ") + (ec ? ec.message() : std::strerror(errno));
                if (std::filesystem::is_directory(path, ec)) message = "cannot read the file: it is a directory";
                diagnostic(io_error(path, std::move(message)));
                io_errors_ = true;
                return;
            }
        }
        PeekedInput standard_input;
        std::string head;
        if (path == "-") {
            standard_input = peek_standard_input();
            head = standard_input.head;
        } else {
            head = read_head(file);
            file.clear();
            file.seekg(0);
        }
        std::istream& input = path == "-" ? *standard_input.stream : static_cast<std::istream&>(file);
        records(input, head, path, path == "-" ? std::string() : path);
    }

    // The records of `input`, whose first bytes are `head`; `file_name` tells the format by its
    // extension when the content does not.
    void records(std::istream& input, const std::string& head, const std::string& path, const std::string& file_name) {
        if (const std::string why = parser::not_a_record_file(head); !why.empty()) {
            diagnostic(parser::file_diagnostic("binary-file", path, why));
            io_errors_ = true;
            return;
        }
        const parser::RecordFormat format = parser::format_of(std::filesystem::path(file_name), head, request_.format);
        const std::int64_t games_before = games_read_;
        if (format == parser::RecordFormat::gpn) gpn(input, path);
        else source(*parser::open_source(format, input, path, parser::ReadOptions{request_.notation, request_.renlib_tree}));
        if (games_read_ == games_before) diagnostic(parser::no_game_found(path));
    }

    // Every format but GPN (parser/formats.hpp): game by game, in order.
    void source(parser::GameSource& reader) {
        parser::GameRecord record;
        const std::uint64_t bytes_before = bytes_done_;
        while (reader.next(record)) {
            for (const parser::Diagnostic& d : reader.take_file_diagnostics()) diagnostic(d);
            for (const parser::Diagnostic& d : record.diagnostics) diagnostic(d);
            importer_.add(db::game_input(std::move(record)));
            ++games_read_;
            bytes_done_ = bytes_before + reader.bytes_read();
            progress();
        }
        for (const parser::Diagnostic& d : reader.take_file_diagnostics()) diagnostic(d);
        bytes_done_ = bytes_before + reader.bytes_read();
        if (reader.io_failed()) io_errors_ = true;
    }

    // GPN: blocks of about 256 KiB parsed on the pool, at most two per thread in flight.
    void gpn(std::istream& input, const std::string& path) {
        QThreadPool& pool = *QThreadPool::globalInstance();
        constexpr std::size_t block_bytes = std::size_t(256) << 10;
        const std::size_t in_flight = std::size_t(std::max(2, 2 * pool.maxThreadCount()));
        const Notation notation = request_.notation;
        ChunkSource source(input);
        std::deque<QFuture<ParsedChunk>> pending;
        int games_before = 0;
        bool warned_encoding = false;
        auto consume = [&] {
            ParsedChunk chunk = pending.front().takeResult();
            pending.pop_front();
            for (parser::Diagnostic& d : chunk.file_diagnostics) {
                if (d.code == "not-utf8" && std::exchange(warned_encoding, true)) continue; // once per file
                diagnostic(d);
            }
            for (ParsedGame& g : chunk.games) {
                for (parser::Diagnostic& d : g.diagnostics) {
                    if (d.game) d.game += games_before;
                    diagnostic(d);
                }
                importer_.add(std::move(g.input));
            }
            games_before += int(chunk.games.size());
            games_read_ += std::int64_t(chunk.games.size());
            bytes_done_ += chunk.bytes;
            progress();
        };
        std::string text;
        int first_line = 1;
        while (source.next(text, first_line, block_bytes)) {
            pending.push_back(QtConcurrent::run(&pool, [text = std::move(text), path, first_line, notation] {
                return parse_chunk(text, path, first_line, notation);
            }));
            text.clear();
            while (pending.size() >= in_flight) consume();
        }
        while (!pending.empty()) consume();
        if (source.failed()) {
            diagnostic(io_error(path, "read error after " + std::to_string(source.bytes_read()) + " bytes"));
            io_errors_ = true;
        }
    }

    const ImportRequest& request_;
    const ImportEvents& events_;
    db::Importer importer_;
    std::uint64_t bytes_done_ = 0;
    std::int64_t games_read_ = 0; // every file's games so far, to tell a file with none
    bool io_errors_ = false;
};

} // namespace

std::uint64_t input_bytes(const std::vector<std::string>& files) {
    std::uint64_t total = 0;
    for (const std::string& f : files) {
        std::error_code ec;
        const auto size = std::filesystem::file_size(f, ec);
        if (!ec) total += size;
    }
    return total;
}

ImportResult import_files(db::GameDatabase& database, const ImportRequest& request, const ImportEvents& events) {
    return Run(database, request, events).all();
}

ImportResult import_stream(db::GameDatabase& database, std::istream& input, const std::string& name,
                           const ImportRequest& request, const ImportEvents& events) {
    return Run(database, request, events).one(input, name);
}

} // namespace gounki::pipeline
