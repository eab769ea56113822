#pragma once
// Reading record files: telling SGF from GPN by their first bytes, also on standard input.

#include <algorithm>
#include <fstream>
#include <iostream>
#include <memory>
#include <istream>
#include <streambuf>
#include <string>

namespace gounki::cli {

// Standard input as one stream again after its first bytes were read to tell SGF from GPN.
class PrefixedInput : public std::streambuf {
public:
    PrefixedInput(std::string prefix, std::istream& rest) : prefix_(std::move(prefix)), rest_(rest) {
        setg(prefix_.data(), prefix_.data(), prefix_.data() + prefix_.size());
    }

protected:
    int_type underflow() override {
        if (gptr() < egptr()) return traits_type::to_int_type(*gptr());
        rest_.read(block_, sizeof block_);
        const std::streamsize n = rest_.gcount();
        if (n <= 0) return traits_type::eof();
        setg(block_, block_, block_ + n);
        return traits_type::to_int_type(*gptr());
    }

private:
    std::string prefix_;
    std::istream& rest_;
    char block_[1 << 16];
};

// Standard input after its first bytes were read into `head`: `stream` still yields them.
struct PeekedInput {
    std::string head;
    std::unique_ptr<PrefixedInput> buffer;
    std::unique_ptr<std::istream> stream;
};

inline PeekedInput peek_standard_input(std::size_t bytes = 256) {
    PeekedInput in;
    in.head.resize(bytes);
    std::cin.read(in.head.data(), std::streamsize(in.head.size()));
    in.head.resize(std::size_t(std::max<std::streamsize>(std::cin.gcount(), 0)));
    std::cin.clear(std::cin.rdstate() & std::ios::badbit);
    in.buffer = std::make_unique<PrefixedInput>(in.head, std::cin);
    in.stream = std::make_unique<std::istream>(in.buffer.get());
    return in;
}

// The first bytes of a file (empty when it cannot be read: the reader reports that).
inline std::string head_of(const std::string& path) {
    std::ifstream f(path, std::ios::binary);
    std::string head(256, '\0');
    f.read(head.data(), std::streamsize(head.size()));
    head.resize(std::size_t(std::max<std::streamsize>(f.gcount(), 0)));
    return head;
}

} // namespace gounki::cli
