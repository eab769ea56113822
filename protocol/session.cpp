#include "protocol/session.hpp"

#include <algorithm>
#include <istream>
#include <memory>
#include <ostream>

namespace gounki::protocol {

std::vector<std::string> Session::handle(std::string_view line) {
    // Shared with the copies of the sink that a search thread holds, which may write after handle
    // returns; that thread has ended once wait() returns.
    auto lines = std::make_shared<std::vector<std::string>>();
    handle(line, [lines](std::string_view l) { lines->emplace_back(l); });
    wait();
    return *lines;
}

namespace {

// The length of the UTF-8 sequence of a printable character at the start of `s` (none for a
// control character, C1 ones included, or bytes that are not UTF-8).
std::size_t printable_sequence(std::string_view s) {
    const auto byte = [&](std::size_t i) { return static_cast<unsigned char>(s[i]); };
    const unsigned char b = byte(0);
    if (b < 0x80) return b >= 0x20 && b < 0x7f ? 1 : 0;
    const std::size_t n = b >= 0xc2 && b <= 0xdf ? 2 : b >= 0xe0 && b <= 0xef ? 3 : b >= 0xf0 && b <= 0xf4 ? 4 : 0;
    if (n == 0 || s.size() < n) return 0;
    for (std::size_t i = 1; i < n; ++i)
        if ((byte(i) & 0xc0) != 0x80) return 0;
    const unsigned char second = byte(1);
    if ((b == 0xe0 && second < 0xa0) || (b == 0xed && second > 0x9f) || (b == 0xf0 && second < 0x90) ||
        (b == 0xf4 && second > 0x8f) || (b == 0xc2 && second < 0xa0)) // overlong, surrogate, beyond U+10FFFF, C1
        return 0;
    return n;
}

} // namespace

std::string shown_text(std::string_view text, std::size_t most) {
    static const char hex[] = "0123456789abcdef";
    std::string out;
    std::size_t i = 0;
    while (i < text.size()) {
        const std::size_t n = printable_sequence(text.substr(i));
        if (i + std::max<std::size_t>(n, 1) > most) break;
        if (n) {
            out.append(text.substr(i, n));
            i += n;
        } else {
            const auto u = static_cast<unsigned char>(text[i++]);
            out += "\\x";
            out += hex[u >> 4];
            out += hex[u & 15];
        }
    }
    return i < text.size() ? out + "..." : out;
}

std::string quoted_text(std::string_view text, std::size_t most) { return "'" + shown_text(text, most) + "'"; }

void run_session(Session& session, std::istream& in, std::ostream& out) {
    const Session::Sink sink = [&out](std::string_view line) { out << line << '\n' << std::flush; };
    std::string line;
    while (!session.ended() && std::getline(in, line)) session.handle(line, sink);
    if (!session.ended()) session.wait(); // the end of the input: a search started last still answers
}

} // namespace gounki::protocol
