#pragma once
// Reading record inputs in file order, for every command that reads record files (`validate`,
// `import`, an upload): each file (or "-", standard input) is opened, refused when binary, its
// format told (parser/formats.hpp); GPN text is cut into blocks of whole games (the parser's own
// splitter finds where games end) that are parsed on Qt's thread pool, the other formats are read
// game by game. The caller gets every diagnostic and every game in file order, with lines and game
// numbers of the whole file, exactly as one reader going through the file would give them.

#include <QFuture>
#include <QThreadPool>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>
#include <cstdint>
#include <deque>
#include <filesystem>
#include <fstream>
#include <functional>
#include <istream>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/gounki/notation.hpp"
#include "parser/formats.hpp"
#include "parser/record.hpp"
#include "pipeline/input.hpp"

namespace gounki::pipeline {

struct ReadRequest {
    std::vector<std::string> files; // record files of any format; "-" reads standard input
    std::optional<parser::RecordFormat> format; // every file read in this format; else told per file
    parser::ReadOptions options; // the GPN notation, a RenLib library as a tree
    int threads = 0; // GPN blocks parsed at once: 0 for one per core, 1 for the calling thread alone
};

// What the caller hears, in file order, on the calling thread; `prepare` runs on pool threads
// (what a game becomes there: the part of the work that parallelises). Any may be left empty but
// `prepare` and `game`.
template <typename Item>
struct ReadEvents {
    std::function<Item(parser::GameRecord&&)> prepare;
    std::function<void(Item&&)> game;                           // after the game's diagnostics
    std::function<void(const parser::Diagnostic&)> diagnostic; // of the files and of the games
    std::function<void(std::uint64_t bytes)> progress;         // after each block or game: bytes read
};

struct ReadResult {
    std::int64_t games = 0;
    std::uint64_t bytes = 0;
    bool io_errors = false; // a file could not be opened or read (the others were still read)
};

namespace read_detail {

// One opened input: a file, or standard input again after its first bytes; `head` its first bytes.
struct Opened {
    std::ifstream file;
    PeekedInput standard_input;
    std::string head;
    std::istream* stream = nullptr;
};
// Opens `path` ("-": standard input); on failure, null and the diagnostic in `error`.
std::unique_ptr<Opened> open_input(const std::string& path, parser::Diagnostic& error);

// A GPN stream cut into blocks of whole games of about `target` bytes, each starting at a line start.
class BlockSource {
public:
    explicit BlockSource(std::istream& in);
    ~BlockSource();
    BlockSource(const BlockSource&) = delete;
    BlockSource& operator=(const BlockSource&) = delete;
    // The next block and the line it starts on; false when the input is done.
    bool next(std::string& text, int& first_line, std::size_t target);
    bool failed() const;
    std::uint64_t bytes_read() const;

private:
    struct State;
    std::unique_ptr<State> s_;
};

// A game of a block as read there: the file's diagnostics that came before it, its own, and what
// `prepare` made of it. Lines are the file's; game numbers the block's.
template <typename Item>
struct BlockGame {
    std::vector<parser::Diagnostic> before, diagnostics;
    Item item;
};
template <typename Item>
struct Block {
    std::vector<BlockGame<Item>> games;
    std::vector<parser::Diagnostic> after; // the file's diagnostics after the last game
    std::size_t bytes = 0;
};

// Reads one block with its own reader: each record and the file diagnostics before it, lines moved
// down to the file's (the block starts on `first_line`).
void read_block(const std::string& text, const std::string& name, int first_line, Notation notation,
                const std::function<void(std::vector<parser::Diagnostic>&&, parser::GameRecord&)>& each,
                std::vector<parser::Diagnostic>& after);

parser::Diagnostic io_error(const std::string& path, std::string message);

// One reading: the events, the request and the running counts.
template <typename Item>
class Run {
public:
    Run(const ReadRequest& request, const ReadEvents<Item>& events) : request_(request), events_(events) {}

    ReadResult files() {
        for (const std::string& path : request_.files) {
            parser::Diagnostic error;
            const std::unique_ptr<Opened> opened = open_input(path, error);
            if (!opened) {
                diagnostic(error);
                result_.io_errors = true;
                continue;
            }
            records(*opened->stream, opened->head, path, path == "-" ? std::string() : path);
        }
        return result_;
    }

    // One seekable stream named `name` (an upload held in memory).
    ReadResult stream(std::istream& input, const std::string& name, const std::string& head) {
        records(input, head, name, name);
        return result_;
    }

private:
    void diagnostic(const parser::Diagnostic& d) {
        if (events_.diagnostic) events_.diagnostic(d);
    }
    void progress() {
        if (events_.progress) events_.progress(result_.bytes);
    }

    // The records of `input`, whose first bytes are `head`; `file_name` tells the format by its
    // extension when the content does not.
    void records(std::istream& input, const std::string& head, const std::string& path, const std::string& file_name) {
        if (const std::string why = parser::not_a_record_file(head); !why.empty()) {
            diagnostic(parser::file_diagnostic("binary-file", path, why));
            result_.io_errors = true;
            return;
        }
        const parser::RecordFormat format = parser::format_of(std::filesystem::path(file_name), head, request_.format);
        const std::int64_t games_before = result_.games;
        const int threads = request_.threads > 0 ? request_.threads : QThreadPool::globalInstance()->maxThreadCount();
        if (format == parser::RecordFormat::gpn && threads > 1) gpn(input, path, threads);
        else source(*parser::open_source(format, input, path, request_.options));
        if (result_.games == games_before) diagnostic(parser::no_game_found(path));
    }

    // Game by game, in order (every format; GPN on one thread).
    void source(parser::GameSource& reader) {
        parser::GameRecord record;
        const std::uint64_t bytes_before = result_.bytes;
        while (reader.next(record)) {
            for (const parser::Diagnostic& d : reader.take_file_diagnostics()) diagnostic(d);
            for (const parser::Diagnostic& d : record.diagnostics) diagnostic(d);
            events_.game(events_.prepare(std::move(record)));
            ++result_.games;
            result_.bytes = bytes_before + reader.bytes_read();
            progress();
        }
        for (const parser::Diagnostic& d : reader.take_file_diagnostics()) diagnostic(d);
        result_.bytes = bytes_before + reader.bytes_read();
        if (reader.io_failed()) result_.io_errors = true;
    }

    // GPN: blocks of about 256 KiB parsed on the pool, at most two per thread in flight. A file is
    // told it is not UTF-8 once, as one reader tells it.
    void gpn(std::istream& input, const std::string& path, int threads) {
        QThreadPool& pool = *QThreadPool::globalInstance();
        constexpr std::size_t block_bytes = std::size_t(256) << 10;
        const std::size_t in_flight = std::size_t(2 * threads);
        const Notation notation = request_.options.notation;
        BlockSource source(input);
        std::deque<QFuture<Block<Item>>> pending;
        const std::uint64_t bytes_before = result_.bytes;
        std::int64_t games_in_file = 0;
        bool warned_encoding = false;
        auto file_diagnostics = [&](const std::vector<parser::Diagnostic>& list) {
            for (const parser::Diagnostic& d : list)
                if (d.code != "not-utf8" || !std::exchange(warned_encoding, true)) diagnostic(d);
        };
        auto consume = [&] {
            Block<Item> block = pending.front().takeResult();
            pending.pop_front();
            for (BlockGame<Item>& g : block.games) {
                file_diagnostics(g.before);
                for (parser::Diagnostic& d : g.diagnostics) {
                    if (d.game) d.game += int(games_in_file);
                    diagnostic(d);
                }
                events_.game(std::move(g.item));
            }
            file_diagnostics(block.after);
            games_in_file += std::int64_t(block.games.size());
            result_.games += std::int64_t(block.games.size());
            result_.bytes += block.bytes;
            progress();
        };
        std::string text;
        int first_line = 1;
        // Blocks still parsing when the caller's callbacks throw (a lost database connection) are
        // waited for before the exception leaves: they hold nothing of this frame (`prepare` copied).
        struct Drain {
            std::deque<QFuture<Block<Item>>>& pending;
            ~Drain() {
                for (auto& f : pending) f.waitForFinished();
            }
        } drain{pending};
        while (source.next(text, first_line, block_bytes)) {
            pending.push_back(QtConcurrent::run(&pool, [text = std::move(text), path, first_line, notation,
                                                         prepare = events_.prepare] {
                Block<Item> block;
                block.bytes = text.size();
                read_block(text, path, first_line, notation,
                           [&](std::vector<parser::Diagnostic>&& before, parser::GameRecord& record) {
                               BlockGame<Item> g;
                               g.before = std::move(before);
                               g.diagnostics = record.diagnostics;
                               g.item = prepare(std::move(record));
                               block.games.push_back(std::move(g));
                           },
                           block.after);
                return block;
            }));
            text.clear();
            while (pending.size() >= in_flight) consume();
        }
        while (!pending.empty()) consume();
        result_.bytes = bytes_before + source.bytes_read(); // with a byte order mark the blocks leave out
        if (source.failed()) {
            diagnostic(io_error(path, "read error after " + std::to_string(source.bytes_read()) + " bytes"));
            result_.io_errors = true;
        }
    }

    const ReadRequest& request_;
    const ReadEvents<Item>& events_;
    ReadResult result_;
};

} // namespace read_detail

// Reads every file of `request`, in order.
template <typename Item>
ReadResult read_files(const ReadRequest& request, const ReadEvents<Item>& events) {
    return read_detail::Run<Item>(request, events).files();
}

// Reads one seekable stream (an upload held in memory) as if it were a file called `name`: its
// games and diagnostics carry that name, and its extension tells the format when the content does
// not. `request.files` is not read.
std::string peek_head(std::istream& input); // its first bytes, the stream rewound
template <typename Item>
ReadResult read_stream(std::istream& input, const std::string& name, const ReadRequest& request,
                       const ReadEvents<Item>& events) {
    const std::string head = peek_head(input);
    return read_detail::Run<Item>(request, events).stream(input, name, head);
}

} // namespace gounki::pipeline
