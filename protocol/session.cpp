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

void run_session(Session& session, std::istream& in, std::ostream& out) {
    const Session::Sink sink = [&out](std::string_view line) { out << line << '\n' << std::flush; };
    std::string line;
    while (!session.ended() && std::getline(in, line)) session.handle(line, sink);
    if (!session.ended()) session.wait(); // the end of the input: a search started last still answers
}

} // namespace gounki::protocol
