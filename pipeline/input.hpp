#pragma once
// Reading inputs: the first bytes of a stream (to tell its record format), standard input as one stream
// again after those bytes were read, and a whole file. Everything reads through std::istream.

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <fstream>
#include <ios>
#include <iostream>
#include <istream>
#include <memory>
#include <streambuf>
#include <string>

namespace gounki::pipeline {

// Up to `bytes` first bytes of `in`; end of input is not a failure (only badbit stays set).
inline std::string read_head(std::istream& in, std::size_t bytes = 256) {
    std::string head(bytes, '\0');
    in.read(head.data(), std::streamsize(head.size()));
    head.resize(std::size_t(std::max<std::streamsize>(in.gcount(), 0)));
    in.clear(in.rdstate() & std::ios::badbit);
    return head;
}

// Standard input (or an archive's member) as one stream again after its first bytes were read to
// tell its record format.
class PrefixedInput : public std::streambuf {
public:
    PrefixedInput(std::string prefix, std::istream& rest) : prefix_(std::move(prefix)), rest_(rest) {
        setg(prefix_.data(), prefix_.data(), prefix_.data() + prefix_.size());
    }

protected:
    int_type underflow() override {
        if (gptr() < egptr()) return traits_type::to_int_type(*gptr());
        if (!prefix_read_) { // read: its memory is given back
            std::string().swap(prefix_);
            prefix_read_ = true;
        }
        rest_.read(block_, sizeof block_);
        const std::streamsize n = rest_.gcount();
        taken_ += std::uint64_t(std::max<std::streamsize>(n, 0));
        // A read error of the stream below is this stream's too (std::istream makes it its badbit).
        if (n <= 0 && rest_.bad()) throw std::ios_base::failure("read error");
        if (n <= 0) return traits_type::eof();
        setg(block_, block_, block_ + n);
        return traits_type::to_int_type(*gptr());
    }

public:
    // The bytes read from the stream below (the prefix not counted).
    std::uint64_t taken() const { return taken_; }

private:
    std::string prefix_;
    std::istream& rest_;
    std::uint64_t taken_ = 0;
    bool prefix_read_ = false;
    char block_[1 << 16];
};

// A stream that cannot be rewound (standard input, an archive's member) after its first bytes were
// read into `head`: `stream` still yields them.
struct PeekedInput {
    std::string head;
    std::unique_ptr<PrefixedInput> buffer;
    std::unique_ptr<std::istream> stream;
};

inline PeekedInput peek_input(std::istream& from, std::size_t bytes = 256) {
    PeekedInput in;
    in.head = read_head(from, bytes);
    in.buffer = std::make_unique<PrefixedInput>(in.head, from);
    in.stream = std::make_unique<std::istream>(in.buffer.get());
    return in;
}

inline PeekedInput peek_standard_input(std::size_t bytes = 256) { return peek_input(std::cin, bytes); }

// The first bytes of a file (empty when it cannot be read: the reader reports that).
inline std::string head_of(const std::string& path) {
    std::ifstream f(path, std::ios::binary);
    return read_head(f);
}

// Appends the whole file `path` to `out`; 0, or the errno of the failure (opening or reading).
inline int read_whole_file(const char* path, std::string& out) {
    std::ifstream f(path, std::ios::binary);
    if (!f) return errno ? errno : ENOENT;
    char buffer[4096];
    while (f.read(buffer, sizeof buffer) || f.gcount() > 0) out.append(buffer, std::size_t(f.gcount()));
    if (f.bad()) return errno ? errno : EIO;
    return 0;
}

} // namespace gounki::pipeline
