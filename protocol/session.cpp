#include "protocol/session.hpp"

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

std::string shown_input(std::string_view text) {
    static const char hex[] = "0123456789abcdef";
    std::string out;
    for (const char c : text.substr(0, max_shown_input)) {
        const auto u = static_cast<unsigned char>(c);
        if (u >= 0x20 && u < 0x7f) {
            out += c;
        } else {
            out += "\\x";
            out += hex[u >> 4];
            out += hex[u & 15];
        }
    }
    return text.size() > max_shown_input ? out + "..." : out;
}

std::string quoted_input(std::string_view text) { return "'" + shown_input(text) + "'"; }

void run_session(Session& session, std::istream& in, std::ostream& out) {
    const Session::Sink sink = [&out](std::string_view line) { out << line << '\n' << std::flush; };
    std::string line;
    while (!session.ended() && std::getline(in, line)) session.handle(line, sink);
    if (!session.ended()) session.wait(); // the end of the input: a search started last still answers
}

} // namespace gounki::protocol
