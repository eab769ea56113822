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
#include "pipeline/archive.hpp"
#include "pipeline/input.hpp"

namespace gounki::pipeline {

struct ReadRequest {
    std::vector<std::string> files; // record files of any format; "-" reads standard input
    std::optional<parser::RecordFormat> format; // every file read in this format; else told per file
    parser::ReadOptions options; // the GPN notation, a RenLib library as a tree
    int threads = 0; // GPN blocks parsed at once: 0 for one per core, 1 for the calling thread alone
    std::uint64_t max_unpacked = 0; // bytes unpacked from one archive at most (an upload's); 0: no limit
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
    std::int64_t files = 0; // the files named, an archive counted as the record files read in it
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
    // The next block and the line it starts on; false when the input is done, or when it fell back.
    bool next(std::string& text, int& first_line, std::size_t target);
    // Whether more than a reader holds of one game (RecordReader's limit and 1 MiB) passed without a
    // cut at a line start (a game too large, games sharing one line): the rest of the input is for
    // one reader game by game, which holds a bounded part of it (take_rest).
    bool fell_back() const;
    // After a fall back: the bytes held (from a line start on) and the line they start on; the rest
    // of the input follows them.
    std::string take_rest(int& first_line);
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

// The same for a stream (the rest of an input, game by game in bounded memory); false when reading
// it failed.
bool read_games(std::istream& in, const std::string& name, int first_line, Notation notation,
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
            ++result_.files;
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
        ++result_.files;
        records(input, head, name, name);
        return result_;
    }

private:
    void diagnostic(const parser::Diagnostic& d) {
        if (events_.diagnostic) events_.diagnostic(d);
    }
    // Inside an archive, the bytes of the archive read so far (as the files' sizes count them).
    void progress() {
        if (events_.progress) events_.progress(outer_ ? outer_base_ + outer_->input_bytes() : result_.bytes);
    }

    // The records of `input`, whose first bytes are `head`; `file_name` tells the format by its
    // extension when the content does not. `depth`: archives this one is inside.
    void records(std::istream& input, const std::string& head, const std::string& path, const std::string& file_name,
                 int depth = 0, const Archive* within = nullptr) {
        const parser::RecordFormat format = parser::format_of(std::filesystem::path(file_name), head, request_.format);
        const std::string why = parser::not_a_record_file(head, format);
        if (!why.empty() || !parser::archive_kind(head).empty()) return archive(input, head, path, file_name, why, depth);
        const std::int64_t games_before = result_.games;
        const int threads = request_.threads > 0 ? request_.threads : QThreadPool::globalInstance()->maxThreadCount();
        if (format == parser::RecordFormat::gpn && threads > 1) gpn(input, path, threads);
        else source(*parser::open_source(format, input, path, request_.options));
        // (A member cut short by damage is no empty file: the damage is reported.)
        if (result_.games == games_before && !(within && within->member_failed())) diagnostic(parser::no_game_found(path));
    }

    // An archive's or a compressed file's members, each read as a record file named "archive/member"
    // (a compressed file's by its own name); members whose names are no record file's are passed
    // over, as in a folder. `why`: what makes the input no text file, for the error when it is no
    // archive either.
    void archive(std::istream& input, const std::string& head, const std::string& path, const std::string& file_name,
                 const std::string& why, int depth) {
        const std::string_view kind = parser::archive_kind(head);
        const auto fail = [&](std::string code, std::string message) {
            diagnostic(parser::file_diagnostic(std::move(code), path, std::move(message)));
            result_.io_errors = true;
        };
        if (depth >= max_archive_depth)
            return fail("io-error", "an archive inside " + std::to_string(depth) + " archives: not read (at most " +
                                        std::to_string(max_archive_depth) + " deep)");
        Archive ar(input, input.tellg() != std::streampos(-1), kind, request_.max_unpacked, &unpacked_);
        Archive::Member m;
        Archive::Next next = ar.next(m);
        if (!ar.recognised()) {
            if (kind.empty()) return fail("binary-file", why);
            return fail("io-error", "the file starts as a " + std::string(kind) + " archive but cannot be read as one: " +
                                        (ar.error().empty() ? "no archive format recognised" : ar.error()));
        }
        // Zeros are an empty tar to libarchive: a binary file with no archive's mark and no member is
        // no archive.
        if (next == Archive::Next::end && kind.empty()) return fail("binary-file", why);
        std::int64_t members = 0, read = 0;
        std::string passed_over;
        const std::uint64_t bytes_before = result_.bytes;
        const bool outermost = !outer_;
        if (outermost) outer_ = &ar, outer_base_ = bytes_before;
        struct Outer { // the archive's meter ends with it, however it is left
            const Archive*& outer;
            bool own;
            ~Outer() { if (own) outer = nullptr; }
        } outer{outer_, outermost};
        for (; next == Archive::Next::member; next = ar.next(m)) {
            ++members;
            const std::string name = m.single ? path : path + "/" + m.path;
            const std::filesystem::path member_name =
                m.single ? parser::without_compression_extension(file_name) : std::filesystem::path(m.path);
            if (!m.single && (!m.regular || !(parser::has_record_extension(member_name, request_.format) ||
                                              parser::has_archive_extension(member_name, request_.format)))) {
                if (m.regular && passed_over.size() < 80) passed_over += (passed_over.empty() ? "" : ", ") + m.path;
                continue;
            }
            ++read;
            const PeekedInput member = peek_input(ar.data());
            const std::int64_t games_before = result_.games;
            records(*member.stream, member.head, name, member_name.string(), depth + 1, &ar);
            if (ar.member_failed()) {
                const std::int64_t games = result_.games - games_before;
                fail("io-error", "cannot read " + (m.single ? "the compressed data" : m.path) + " to its end: " +
                                     (ar.error().empty() ? "the archive is damaged" : ar.error()) +
                                     (games == 0 ? std::string() : "; " + std::to_string(games) + (games == 1 ? " game" : " games") +
                                                                        " read before it"));
            }
        }
        if (read > 0) result_.files += read - 1; // the archive counts as the files it holds
        result_.bytes = bytes_before + ar.input_bytes();
        if (next == Archive::Next::failed)
            fail("io-error", (members == 0 ? std::string("cannot read the archive: ")
                                           : "cannot read the archive further after " + std::to_string(members) +
                                                 (members == 1 ? " member: " : " members: ")) +
                                 (ar.error().empty() ? "it is damaged" : ar.error()));
        else if (members == 0 && parser::is_compression(kind))
            diagnostic(parser::no_game_found(path)); // a compressed empty file: an empty file
        else if (members == 0)
            fail("io-error", "the archive is empty");
        else if (read == 0)
            fail("io-error", "the archive holds no record file (" + std::to_string(members) + (members == 1 ? " member" : " members") +
                                 (passed_over.empty() ? std::string() : ": " + passed_over) + ")");
    }
    static constexpr int max_archive_depth = 4;

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
        std::uint64_t tail_bytes = 0;
        if (source.fell_back()) { // the rest game by game on this thread, in bounded memory
            PrefixedInput rest(source.take_rest(first_line), input);
            std::istream tail(&rest);
            std::vector<parser::Diagnostic> after;
            const int base = int(games_in_file); // the tail's reader numbers its games from 1
            const bool ok = read_games(tail, path, first_line, notation,
                                       [&](std::vector<parser::Diagnostic>&& before, parser::GameRecord& record) {
                                           file_diagnostics(before);
                                           for (parser::Diagnostic& d : record.diagnostics) {
                                               if (d.game) d.game += base;
                                               diagnostic(d);
                                           }
                                           record.number += base;
                                           ++games_in_file;
                                           events_.game(events_.prepare(std::move(record)));
                                           ++result_.games;
                                           result_.bytes = bytes_before + source.bytes_read() + rest.taken();
                                           progress();
                                       },
                                       after);
            file_diagnostics(after);
            if (!ok) result_.io_errors = true;
            tail_bytes = rest.taken();
        }
        result_.bytes = bytes_before + source.bytes_read() + tail_bytes; // with a byte order mark the blocks leave out
        if (source.failed()) {
            diagnostic(io_error(path, "read error after " + std::to_string(source.bytes_read()) + " bytes"));
            result_.io_errors = true;
        }
    }

    const ReadRequest& request_;
    const ReadEvents<Item>& events_;
    ReadResult result_;
    std::uint64_t unpacked_ = 0;     // bytes unpacked from archives (ReadRequest::max_unpacked)
    const Archive* outer_ = nullptr; // the outermost archive being read
    std::uint64_t outer_base_ = 0;   // result_.bytes before it
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
