#pragma once
// What gounki's text protocols share (pbrain.hpp: the Gomocup brain protocol for the stone games;
// uci.hpp: a UCI-style protocol for Gounki): a session reads one command line at a time and answers
// through a sink, one line per call (no line ends). Nothing in a session reads or writes a stream,
// so tests drive a whole game without a process; run_session connects one to streams.

#include <cstddef>
#include <functional>
#include <iosfwd>
#include <string>
#include <string_view>
#include <vector>

namespace gounki::protocol {

// How a command sets up the engine behind a protocol.
struct EngineOptions {
    std::string version = "0"; // the version the engine names (pbrain's ABOUT, uci's `id name`)
    std::size_t hash_mb = 16; // the transposition table in MiB
};

class Session {
public:
    using Sink = std::function<void(std::string_view line)>;

    Session() = default;
    virtual ~Session() = default;
    Session(const Session&) = delete;
    Session& operator=(const Session&) = delete;

    // Handles one line of input; the answers go to `out`.
    virtual void handle(std::string_view line, const Sink& out) = 0;
    // The same, the answers returned once they have all come (wait()): for tests.
    std::vector<std::string> handle(std::string_view line);
    // The input said to end (pbrain's END, uci's quit): the driver stops reading.
    virtual bool ended() const = 0;
    // Waits for the answers still to come (the best move of a search that runs on its own).
    virtual void wait() {}
};

// Another program's text as an answer or an error message names it (a manager's or GUI's input
// line, a brain's output): its first `most` bytes ("..." after them), each byte that is not part
// of a printable character (a control byte, a byte that is not UTF-8) written \xNN, so that the
// message stays one line of bounded length and valid UTF-8, free of control bytes, whatever the
// text held (a CR or LF echoed would end an answer, and what followed
// would be read as another). quoted_text puts it between single quotes.
constexpr std::size_t max_shown_input = 200;
std::string shown_text(std::string_view text, std::size_t most = max_shown_input);
std::string quoted_text(std::string_view text, std::size_t most = max_shown_input);

// Hands `session` the lines of `in` until it has ended or the input does, then waits for what it
// still answers; every answer is written on `out` as a line and flushed.
void run_session(Session& session, std::istream& in, std::ostream& out);

} // namespace gounki::protocol
