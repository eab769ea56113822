#include "pipeline/archive.hpp"

#include "parser/encoding.hpp"
#include "parser/formats.hpp"
#include "pipeline/input.hpp"

#include <archive.h>
#include <archive_entry.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <ios>
#include <sstream>
#include <streambuf>
#include <string_view>
#include <utility>

namespace gounki::pipeline {

namespace {

// The current member's bytes, read from libarchive as the reader asks for them. Where the data is
// damaged they end: the reader reads the games before, the caller reports the damage (failed()).
class MemberBuffer : public std::streambuf {
public:
    void start(archive* a) {
        a_ = a;
        failed_ = false;
        setg(block_, block_, block_);
    }
    bool failed() const { return failed_; }
    bool over_limit() const { return over_limit_; }
    // Counts `bytes` against the limit (a member's header); false past it.
    bool charge(std::uint64_t bytes) {
        *unpacked_ += bytes;
        if (limit_ && *unpacked_ > limit_) over_limit_ = true;
        return !over_limit_;
    }
    void limit(std::uint64_t bytes, std::uint64_t* counter) {
        limit_ = bytes;
        if (counter) unpacked_ = counter;
    }
    // Reads the rest of the member, counted against the limit (false: the limit is passed).
    bool drain() {
        while (a_ && !over_limit_) {
            setg(block_, block_, block_);
            if (underflow() == traits_type::eof()) break;
        }
        return !over_limit_;
    }

protected:
    int_type underflow() override {
        if (gptr() < egptr()) return traits_type::to_int_type(*gptr());
        if (!a_) return traits_type::eof();
        if (limit_ && *unpacked_ > limit_) {
            a_ = nullptr;
            failed_ = over_limit_ = true;
            return traits_type::eof();
        }
        const la_ssize_t n = archive_read_data(a_, block_, sizeof block_);
        if (n < 0) {
            a_ = nullptr;
            failed_ = true;
            return traits_type::eof();
        }
        if (n == 0) {
            a_ = nullptr;
            return traits_type::eof();
        }
        *unpacked_ += std::uint64_t(n);
        setg(block_, block_, block_ + n);
        return traits_type::to_int_type(*gptr());
    }

private:
    archive* a_ = nullptr;
    bool failed_ = false, over_limit_ = false;
    std::uint64_t limit_ = 0, own_ = 0;
    std::uint64_t* unpacked_ = &own_; // bytes of every member so far (of every archive sharing the count)
    char block_[1 << 16];
};

// A member's name as UTF-8: bytes that are no UTF-8 (a name in the archiving system's own code page)
// written as \xNN, so that messages and the database hold text.
std::string shown_name(std::string_view name) {
    std::string out;
    std::size_t bad = 0;
    while (!parser::valid_utf8(name, bad)) {
        out.append(name.substr(0, bad));
        char escape[8];
        std::snprintf(escape, sizeof escape, "\\x%02x", unsigned(static_cast<unsigned char>(name[bad])));
        out += escape;
        name.remove_prefix(bad + 1);
    }
    out.append(name);
    return out;
}

constexpr std::uint64_t member_cost = 1024;

} // namespace

struct Archive::State {
    State(std::istream& input, bool can_seek, bool compressed) :
        in(input), seekable(can_seek), compressed_hint(compressed), member_stream(&member) {}

    // zip and 7z keep their directory at the end, and libarchive reads some of their members only
    // from there: from a pipe or inside another archive, such a file is read from memory when it
    // holds at most `most` bytes, else as a stream after the bytes read.
    void hold(std::size_t most) {
        std::string held;
        char buffer[1 << 16];
        while (held.size() <= most && (in.read(buffer, sizeof buffer) || in.gcount() > 0))
            held.append(buffer, std::size_t(in.gcount()));
        if (held.size() <= most && !in.bad()) {
            held_whole = std::make_unique<std::istringstream>(std::move(held));
            source = held_whole.get();
            seekable = true;
        } else {
            held_start = std::make_unique<PrefixedInput>(std::move(held), in);
            held_rest = std::make_unique<std::istream>(held_start.get());
            source = held_rest.get();
        }
    }
    ~State() {
        if (a) archive_read_free(a);
    }
    std::istream& in;
    std::istream* source = &in; // what libarchive reads: `in`, or what hold() made of it
    std::unique_ptr<std::istringstream> held_whole;
    std::unique_ptr<PrefixedInput> held_start;
    std::unique_ptr<std::istream> held_rest;
    bool seekable, compressed_hint;
    std::uint64_t limit = 0;
    archive* a = nullptr;
    bool opened = false, failed_open = false, first = true, recognised = false;
    std::string open_error;
    char block[1 << 16];
    MemberBuffer member;
    std::istream member_stream;

    static la_ssize_t read(archive* a, void* self, const void** buffer) {
        State& s = *static_cast<State*>(self);
        std::istream& in = *s.source;
        in.read(s.block, sizeof s.block);
        const std::streamsize n = in.gcount();
        if (in.bad()) {
            archive_set_error(a, EIO, "read error");
            return -1;
        }
        *buffer = s.block;
        return la_ssize_t(n);
    }
    static la_int64_t seek(archive*, void* self, la_int64_t offset, int whence) {
        std::istream& in = *static_cast<State*>(self)->source;
        in.clear(in.rdstate() & std::ios::badbit);
        const auto dir = whence == SEEK_SET ? std::ios::beg : whence == SEEK_CUR ? std::ios::cur : std::ios::end;
        in.seekg(std::streamoff(offset), dir);
        const std::streampos at = in.tellg();
        return !in || at == std::streampos(-1) ? ARCHIVE_FATAL : la_int64_t(at);
    }
    static la_int64_t skip(archive*, void* self, la_int64_t request) {
        State& s = *static_cast<State*>(self);
        if (!s.seekable) return 0; // libarchive reads over it
        std::istream& in = *s.source;
        const std::streampos from = in.tellg();
        in.seekg(std::streamoff(request), std::ios::cur);
        const std::streampos to = in.tellg();
        if (!in || to == std::streampos(-1)) {
            in.clear(in.rdstate() & std::ios::badbit);
            in.seekg(from);
            return 0;
        }
        return la_int64_t(to - from);
    }

    bool open() {
        a = archive_read_new();
        archive_read_support_filter_all(a);
        // A compressed stream holds a tar, a cpio or one file: the other formats' tests could take
        // text for one of theirs (a line of text for an mtree listing).
        if (compressed_hint) {
            archive_read_support_format_tar(a);
            archive_read_support_format_cpio(a);
            archive_read_support_format_empty(a); // a compressed empty file (raw bids on a byte at least)
        } else {
            archive_read_support_format_all(a);
        }
        archive_read_support_format_raw(a); // a single compressed file (raw bids last)
        archive_read_set_callback_data(a, this);
        archive_read_set_read_callback(a, read);
        archive_read_set_skip_callback(a, skip);
        if (seekable) archive_read_set_seek_callback(a, seek);
        opened = archive_read_open1(a) == ARCHIVE_OK;
        if (!opened) open_error = error();
        return opened;
    }
    std::string error() const {
        const char* e = a ? archive_error_string(a) : nullptr;
        std::string text = e ? e : "";
        while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
        return text;
    }
};

Archive::Archive(std::istream& in, bool seekable, std::string_view kind, std::uint64_t limit, std::uint64_t* counter)
    : s_(std::make_unique<State>(in, seekable, parser::is_compression(kind))) {
    s_->limit = limit;
    s_->member.limit(limit, counter);
    if (!seekable && (kind == "zip" || kind == "7z")) {
        std::size_t most = std::size_t(128) << 20;
        if (limit) most = std::min<std::size_t>(most, limit);
        s_->hold(most);
    }
}
Archive::~Archive() = default;

Archive::Next Archive::next(Member& member) {
    State& s = *s_;
    const bool first = std::exchange(s.first, false);
    if (first && !s.open()) return Next::failed;
    if (!s.opened) return Next::failed;
    // Under a limit, what the reader left of a member is read (and counted) here, not skipped by
    // libarchive, which would unpack it uncounted.
    if (s.limit && !s.member.drain()) return Next::failed;
    s.member.start(nullptr);
    s.member_stream.clear();
    archive_entry* entry = nullptr;
    const int r = archive_read_next_header(s.a, &entry);
    if (first) {
        // Raw data with no compression is no archive: libarchive's raw format takes anything.
        const int format = archive_format(s.a);
        const bool compressed = archive_filter_code(s.a, 0) != ARCHIVE_FILTER_NONE;
        s.recognised = compressed || (format != 0 && format != ARCHIVE_FORMAT_RAW);
    }
    if (r == ARCHIVE_EOF) return Next::end;
    if (r < ARCHIVE_WARN) return Next::failed;
    // A member costs at least what a tar header takes, its data or not: an archive of a million
    // empty members is no way past the limit.
    if (s.limit && !s.member.charge(member_cost)) return Next::failed;
    member = Member{};
    member.single = archive_format(s.a) == ARCHIVE_FORMAT_RAW;
    if (!member.single) {
        const char* path = archive_entry_pathname_utf8(entry);
        if (!path) path = archive_entry_pathname(entry);
        member.path = shown_name(path ? path : "");
        while (member.path.starts_with("./")) member.path.erase(0, 2);
        while (member.path.starts_with('/')) member.path.erase(0, 1);
        member.regular = archive_entry_filetype(entry) == AE_IFREG;
    }
    s.member.start(s.a);
    return Next::member;
}

bool Archive::recognised() const { return s_->recognised; }

std::uint64_t Archive::input_bytes() const {
    const State& s = *s_;
    if (!s.a || !s.opened) return 0;
    const la_int64_t n = archive_filter_bytes(s.a, -1);
    return n > 0 ? std::uint64_t(n) : 0;
}

std::istream& Archive::data() { return s_->member_stream; }

bool Archive::member_failed() const { return s_->member.failed(); }

std::string Archive::error() const {
    if (s_->member.over_limit())
        return "more than " + std::to_string(s_->limit >> 20) + " MiB unpacked, the limit here; the rest is not read";
    if (!s_->open_error.empty()) return s_->open_error;
    return s_->error();
}

} // namespace gounki::pipeline
