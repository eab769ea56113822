// gounki import [--db PATH] [--keep-duplicates] [--reject-broken] [--json] FILE...
#include <QElapsedTimer>
#include <QFuture>
#include <QJsonDocument>
#include <QThreadPool>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <deque>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <unistd.h>

#include "cli/db_options.hpp"
#include "cli/input.hpp"
#include "db/import.hpp"
#include "db/record_bridge.hpp"
#include "parser/reader.hpp"
#include "parser/sgf.hpp"
#include "parser/splitter.hpp"

namespace gounki::cli {

void describe_import(QCommandLineParser& p) {
    add_db_option(p);
    p.addOption({"keep-duplicates", "Store games that duplicate a stored one (same players, result and moves); they are still reported."});
    p.addOption({"reject-broken", "Do not store broken games (illegal moves, contradicting results...); by default they are stored "
                                  "as partial or invalid with their diagnostics."});
    p.addOption({"batch", "Games per transaction (default 50000).", "N", "50000"});
    p.addOption({"json", "Print JSON lines: one per noteworthy game or file problem, then a summary."});
    add_notation_option(p, true);
    p.addPositionalArgument(
        "FILE", "Record files to import: GPN (docs/rules.md 1.8), or SGF of Gomoku/Ninuki (*.sgf, or opening with \"(;\"); - reads standard input.",
        "FILE...");
}

namespace {

// The progress line on a terminal: games, games/s, ETA from the bytes read.
class Progress {
public:
    explicit Progress(std::uint64_t total_bytes) : enabled_(::isatty(STDERR_FILENO) == 1), total_(total_bytes) { timer_.start(); }

    void update(std::int64_t games, std::uint64_t bytes, bool force = false) {
        if (!enabled_) return;
        const qint64 now = timer_.elapsed();
        if (!force && now - last_ < 200) return;
        last_ = now;
        const double seconds = double(now) / 1000.0;
        const double rate = seconds > 0 ? double(games) / seconds : 0;
        const double fraction = total_ ? std::min(1.0, double(bytes) / double(total_)) : 0;
        const int width = 24, filled = int(fraction * width);
        std::string bar(std::size_t(width + 2), ' ');
        bar.front() = '[';
        bar.back() = ']';
        std::fill_n(bar.begin() + 1, filled, '=');
        char line[200];
        if (fraction > 0.01 && fraction < 1) {
            const int eta = int(seconds * (1 - fraction) / fraction);
            std::snprintf(line, sizeof line, "\r%s %3d%%  %lld games  %.0f games/s  ETA %d:%02d\033[K", bar.c_str(), int(fraction * 100),
                          static_cast<long long>(games), rate, eta / 60, eta % 60);
        } else {
            std::snprintf(line, sizeof line, "\r%s %3d%%  %lld games  %.0f games/s\033[K", bar.c_str(), int(fraction * 100),
                          static_cast<long long>(games), rate);
        }
        print_err(line);
        shown_ = true;
    }
    // Clears the line before other output.
    void clear() {
        if (shown_) print_err("\r\033[K");
        shown_ = false;
    }

private:
    bool enabled_;
    std::uint64_t total_;
    QElapsedTimer timer_;
    qint64 last_ = -1000;
    bool shown_ = false;
};

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

QJsonObject report_json(const db::ImportReport& r) {
    QJsonObject o{{"type", "game"},
                  {"file", QString::fromStdString(r.source_file)},
                  {"line", r.source_line},
                  {"action", QString::fromStdString(std::string(db::import_action_name(r.action)))}};
    if (r.game_id) o["id"] = qint64(r.game_id);
    if (r.action == db::ImportAction::stored) o["status"] = QString::fromStdString(std::string(db::status_name(r.status)));
    if (r.other_id) o[r.action == db::ImportAction::already_imported ? "stored_as" : "duplicate_of"] = qint64(r.other_id);
    const auto ids = [&o](const char* name, const std::vector<std::int64_t>& v) {
        QJsonArray a;
        for (auto id : v) a.append(qint64(id));
        if (!a.isEmpty()) o[name] = a;
    };
    ids("prefix_of", r.prefix_of);
    ids("has_prefix", r.has_prefix);
    ids("same_moves", r.same_moves);
    if (!r.reason.empty()) o["reason"] = QString::fromStdString(r.reason);
    if (r.diagnostics) o["diagnostics"] = r.diagnostics;
    return o;
}

std::string report_text(const db::ImportReport& r) {
    std::string t = r.source_file + ":" + std::to_string(r.source_line) + ": ";
    auto ids = [](const std::vector<std::int64_t>& v) {
        std::string s;
        for (auto id : v) s += (s.empty() ? "" : ", ") + std::to_string(id);
        return s;
    };
    switch (r.action) {
    case db::ImportAction::stored:
        t += "stored as game " + std::to_string(r.game_id);
        if (r.status != db::GameStatus::valid) t += " (" + std::string(db::status_name(r.status)) + ")";
        if (r.other_id) t += ", a duplicate of game " + std::to_string(r.other_id);
        if (!r.prefix_of.empty()) t += "; its moves are a prefix of game " + ids(r.prefix_of);
        if (!r.has_prefix.empty()) t += "; the moves of game " + ids(r.has_prefix) + " are a prefix of its moves";
        if (!r.same_moves.empty()) t += "; game " + ids(r.same_moves) + " has the same moves";
        break;
    case db::ImportAction::duplicate: t += "duplicate of game " + std::to_string(r.other_id) + ", skipped"; break;
    case db::ImportAction::already_imported: t += "already imported as game " + std::to_string(r.other_id); break;
    case db::ImportAction::rejected: t += "rejected: " + r.reason; break;
    }
    return t + "\n";
}

void print_json(const QJsonObject& o) { print_out(QJsonDocument(o).toJson(QJsonDocument::Compact).toStdString() + "\n"); }

QJsonObject diagnostic_json(const parser::Diagnostic& d) {
    return QJsonObject{{"type", "diagnostic"},
                       {"severity", QString::fromStdString(std::string(parser::severity_name(d.severity)))},
                       {"code", QString::fromStdString(d.code)},
                       {"file", QString::fromStdString(d.file)},
                       {"line", d.line},
                       {"column", d.column},
                       {"message", QString::fromStdString(d.message)}};
}

} // namespace

int run_import(const QCommandLineParser& p) {
    const Command& self = *find_command("import");
    const QStringList files = p.positionalArguments();
    if (files.isEmpty()) return usage_error(self, "expected at least one FILE to import");
    bool ok = false;
    const int batch = p.value("batch").toInt(&ok);
    if (!ok || batch < 1) return usage_error(self, "--batch takes a whole number from 1");
    const bool json = p.isSet("json");
    Notation notation = Notation::automatic;
    if (!read_notation(self, p, true, notation)) return exit_usage;

    std::uint64_t total_bytes = 0;
    for (const QString& f : files) {
        std::error_code ec;
        const auto size = std::filesystem::file_size(f.toStdString(), ec);
        if (!ec) total_bytes += size;
    }

    auto database = open_database(self, p, db::Access::read_write);
    if (!database) return exit_usage;

    bool io_errors = false;
    std::int64_t findings = 0;
    Progress progress(json ? 0 : total_bytes);
    QElapsedTimer timer;
    timer.start();
    db::ImportOptions options;
    options.keep_duplicates = p.isSet("keep-duplicates");
    options.reject_broken = p.isSet("reject-broken");
    options.batch_games = std::size_t(batch);
    // A record takes 400-600 bytes for 40 plies: a low guess of the games coming, for deferring
    // the lookup indexes when they outnumber the stored ones.
    options.expected_games = std::int64_t(total_bytes / 600);
    try {
        db::Importer importer(*database, options, [&](const db::ImportReport& r) {
            if (!r.noteworthy()) return;
            if (r.action != db::ImportAction::already_imported) ++findings;
            progress.clear();
            if (json) print_json(report_json(r));
            else print_out(report_text(r));
        });
        std::uint64_t bytes_done = 0;
        auto print_diagnostic = [&](const parser::Diagnostic& d) {
            progress.clear();
            if (json) print_json(diagnostic_json(d));
            else print_err(parser::format_diagnostic(d) + "\n");
        };
        QThreadPool& pool = *QThreadPool::globalInstance();
        constexpr std::size_t block_bytes = std::size_t(256) << 10;
        const std::size_t in_flight = std::size_t(std::max(2, 2 * pool.maxThreadCount()));
        for (const QString& f : files) {
            const std::string path = f.toStdString();
            std::ifstream file;
            if (path != "-") {
                file.open(path, std::ios::binary);
                std::error_code ec;
                if (!file || std::filesystem::is_directory(path, ec)) {
                    parser::Diagnostic d;
                    d.code = "io-error";
                    d.file = path;
                    d.message = std::string("cannot read the file: ") + (ec ? ec.message() : std::strerror(errno));
                    if (std::filesystem::is_directory(path, ec)) d.message = "cannot read the file: it is a directory";
                    print_diagnostic(d);
                    io_errors = true;
                    continue;
                }
            }
            // SGF (what Gomoku programs and servers export, parser/sgf.hpp): game by game, in order.
            PeekedInput standard_input;
            std::string head;
            if (path == "-") {
                standard_input = peek_standard_input();
                head = standard_input.head;
            } else {
                head.resize(256);
                file.read(head.data(), std::streamsize(head.size()));
                head.resize(std::size_t(std::max<std::streamsize>(file.gcount(), 0)));
                file.clear();
                file.seekg(0);
            }
            std::istream& input = path == "-" ? *standard_input.stream : static_cast<std::istream&>(file);
            {
                if (parser::looks_like_sgf(path == "-" ? std::filesystem::path() : std::filesystem::path(path), head)) {
                    parser::SgfReader sgf(input, path);
                    parser::GameRecord record;
                    const std::uint64_t bytes_before = bytes_done;
                    while (sgf.next(record)) {
                        for (const parser::Diagnostic& d : sgf.take_file_diagnostics()) print_diagnostic(d);
                        for (const parser::Diagnostic& d : record.diagnostics) print_diagnostic(d);
                        importer.add(db::game_input(std::move(record)));
                        bytes_done = bytes_before + sgf.bytes_read();
                        progress.update(importer.stats().added, bytes_done);
                    }
                    for (const parser::Diagnostic& d : sgf.take_file_diagnostics()) print_diagnostic(d);
                    if (sgf.io_failed()) io_errors = true;
                    continue;
                }
            }
            ChunkSource source(input);
            std::deque<QFuture<ParsedChunk>> pending;
            int games_before = 0;
            bool warned_encoding = false;
            auto consume = [&] {
                ParsedChunk chunk = pending.front().takeResult();
                pending.pop_front();
                for (parser::Diagnostic& d : chunk.file_diagnostics) {
                    if (d.code == "not-utf8" && std::exchange(warned_encoding, true)) continue; // once per file
                    print_diagnostic(d);
                }
                for (ParsedGame& g : chunk.games) {
                    for (parser::Diagnostic& d : g.diagnostics) {
                        if (d.game) d.game += games_before;
                        print_diagnostic(d);
                    }
                    importer.add(std::move(g.input));
                }
                games_before += int(chunk.games.size());
                bytes_done += chunk.bytes;
                progress.update(importer.stats().added, bytes_done);
            };
            std::string text;
            int first_line = 1;
            while (source.next(text, first_line, block_bytes)) {
                pending.push_back(QtConcurrent::run(&pool, [text = std::move(text), path, first_line, notation] {
                    return parse_chunk(text, path == "-" ? std::string("-") : path, first_line, notation);
                }));
                text.clear();
                while (pending.size() >= in_flight) consume();
            }
            while (!pending.empty()) consume();
            if (source.failed()) {
                parser::Diagnostic d;
                d.code = "io-error";
                d.file = path;
                d.message = "read error after " + std::to_string(source.bytes_read()) + " bytes";
                print_diagnostic(d);
                io_errors = true;
            }
        }
        importer.finish();
        progress.update(importer.stats().added, total_bytes, true);
        progress.clear();

        const db::ImportStats& s = importer.stats();
        const double seconds = double(timer.nsecsElapsed()) / 1e9;
        if (json) {
            print_json(QJsonObject{{"type", "summary"},
                                   {"database", QString::fromStdString(db_path(p))},
                                   {"read", qint64(s.added)},
                                   {"stored", qint64(s.stored)},
                                   {"broken", qint64(s.broken)},
                                   {"duplicates", qint64(s.duplicates)},
                                   {"already_imported", qint64(s.already_imported)},
                                   {"rejected", qint64(s.rejected)},
                                   {"prefix_flagged", qint64(s.prefix_flagged)},
                                   {"seconds", seconds},
                                   {"phases_s", import_phases_json(s)},
                                   {"io_errors", io_errors}});
        } else {
            char line[320];
            std::snprintf(line, sizeof line,
                          " read: %lld stored (%lld broken), %lld duplicates, %lld already imported, %lld rejected, "
                          "%lld flagged as prefixes; %.2f s, %.0f games/s\n",
                          static_cast<long long>(s.stored), static_cast<long long>(s.broken),
                          static_cast<long long>(s.duplicates), static_cast<long long>(s.already_imported),
                          static_cast<long long>(s.rejected), static_cast<long long>(s.prefix_flagged), seconds,
                          seconds > 0 ? double(s.added) / seconds : 0.0);
            print_info(counted(s.added, "game") + line);
        }
    } catch (const std::exception& e) {
        progress.clear();
        return database_error(self, e);
    }
    if (io_errors) return exit_usage;
    return findings ? exit_findings : exit_ok;
}

} // namespace gounki::cli
