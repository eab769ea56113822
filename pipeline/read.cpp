#include "pipeline/read.hpp"

#include <cerrno>
#include <cstring>
#include <sstream>

#include "parser/reader.hpp"
#include "parser/splitter.hpp"

namespace gounki::pipeline {

std::string peek_head(std::istream& input) {
    std::string head = read_head(input);
    input.clear();
    input.seekg(0);
    return head;
}

namespace read_detail {

namespace {
constexpr std::size_t fall_back_bytes = parser::RecordReader::default_max_game_bytes + (std::size_t(1) << 20);
} // namespace

parser::Diagnostic io_error(const std::string& path, std::string message) {
    parser::Diagnostic d;
    d.code = "io-error";
    d.file = path;
    d.message = std::move(message);
    return d;
}

std::unique_ptr<Opened> open_input(const std::string& path, parser::Diagnostic& error) {
    auto o = std::make_unique<Opened>();
    if (path == "-") {
        o->standard_input = peek_standard_input();
        o->head = o->standard_input.head;
        o->stream = o->standard_input.stream.get();
        return o;
    }
    o->file.open(path, std::ios::binary);
    const int err = errno;
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec)) {
        error = io_error(path, "cannot read the file: it is a directory");
        return nullptr;
    }
    if (!o->file) {
        error = io_error(path, std::string("cannot read the file: ") + std::strerror(err ? err : ENOENT));
        return nullptr;
    }
    o->head = peek_head(o->file);
    o->stream = &o->file;
    return o;
}

// The splitter runs over a buffer of the input that grows by 1 MiB reads; what was handed out is
// dropped once it passes 4 MiB. Lines are counted here so that every place still names the file's
// line.
struct BlockSource::State {
    explicit State(std::istream& input) : in(input) {}
    std::istream& in;
    std::string buf;
    parser::GameSplitter splitter;
    std::size_t begin = 0, last_cut = 0;
    std::uint64_t bytes = 0;
    int line = 1;
    bool eof = false, done = false, started = false, failed = false, fell_back = false;

    void read_more() {
        if (begin > (std::size_t(4) << 20)) {
            buf.erase(0, begin);
            splitter.shift(begin);
            last_cut -= begin;
            begin = 0;
        }
        constexpr std::size_t block = std::size_t(1) << 20;
        const std::size_t old = buf.size();
        buf.resize(old + block);
        in.read(buf.data() + old, std::streamsize(block));
        const auto n = std::size_t(in.gcount());
        buf.resize(old + n);
        bytes += n;
        if (in.bad()) failed = true;
        if (n < block) eof = true;
        if (!started && (buf.size() >= 3 || eof)) {
            started = true;
            if (buf.size() >= 3 && std::memcmp(buf.data(), "\xEF\xBB\xBF", 3) == 0) { // a UTF-8 byte order mark
                begin = last_cut = 3;
                splitter.start_chunk(3);
            }
        }
    }
    bool emit(std::size_t end, std::string& text, int& first_line) {
        text.assign(buf, begin, end - begin);
        first_line = line;
        line += int(std::count(text.begin(), text.end(), '\n'));
        begin = end;
        return !text.empty() || !done;
    }
};

BlockSource::BlockSource(std::istream& in) : s_(std::make_unique<State>(in)) {}
BlockSource::~BlockSource() = default;
bool BlockSource::failed() const { return s_->failed; }
bool BlockSource::fell_back() const { return s_->fell_back; }

std::string BlockSource::take_rest(int& first_line) {
    State& s = *s_;
    first_line = s.line;
    std::string rest = s.buf.substr(s.begin);
    std::string().swap(s.buf); // its memory too
    s.begin = 0;
    return rest;
}
std::uint64_t BlockSource::bytes_read() const { return s_->bytes; }

bool BlockSource::next(std::string& text, int& first_line, std::size_t target) {
    State& s = *s_;
    for (;;) {
        std::size_t cut = 0;
        const auto scan = s.splitter.scan(s.buf.data(), s.buf.size(), s.eof, cut);
        if (scan == parser::GameSplitter::Scan::need_more) {
            if (s.last_cut > s.begin && s.last_cut - s.begin >= target) return s.emit(s.last_cut, text, first_line);
            if (s.last_cut > s.begin && s.buf.size() - s.last_cut > fall_back_bytes) return s.emit(s.last_cut, text, first_line);
            if (s.buf.size() - s.begin > fall_back_bytes) { // no line-start cut in sight: take_rest()
                s.fell_back = true;
                return false;
            }
            s.read_more();
            continue;
        }
        if (scan == parser::GameSplitter::Scan::end) {
            if (s.done) return false;
            s.done = true;
            return s.emit(s.buf.size(), text, first_line);
        }
        s.splitter.start_chunk(cut);
        // Blocks start at a line start, so columns on their first line stay right.
        if (cut == 0 || s.buf[cut - 1] == '\n') s.last_cut = cut;
        if (s.last_cut > s.begin && s.last_cut - s.begin >= target) return s.emit(s.last_cut, text, first_line);
    }
}

void read_block(const std::string& text, const std::string& name, int first_line, Notation notation,
                const std::function<void(std::vector<parser::Diagnostic>&&, parser::GameRecord&)>& each,
                std::vector<parser::Diagnostic>& after) {
    std::istringstream in(text);
    read_games(in, name, first_line, notation, each, after);
}

bool read_games(std::istream& in, const std::string& name, int first_line, Notation notation,
                const std::function<void(std::vector<parser::Diagnostic>&&, parser::GameRecord&)>& each,
                std::vector<parser::Diagnostic>& after) {
    parser::RecordReader reader(in, name);
    reader.set_notation(notation);
    parser::GameRecord record;
    const int shift = first_line - 1;
    auto move_down = [shift](std::vector<parser::Diagnostic>& list) {
        for (parser::Diagnostic& d : list)
            if (d.line > 0) d.line += shift;
    };
    while (reader.next(record)) {
        record.line += shift;
        move_down(record.diagnostics);
        std::vector<parser::Diagnostic> before = reader.take_file_diagnostics();
        move_down(before);
        each(std::move(before), record);
    }
    after = reader.take_file_diagnostics();
    move_down(after);
    return !reader.io_failed();
}

} // namespace read_detail
} // namespace gounki::pipeline
