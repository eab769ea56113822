#pragma once
// A UCI-style text protocol for the Gounki engine (README "gounki uci"), so that a Gounki GUI or
// another engine's author can drive gounki's search the way chess programs drive theirs.
//
// A UciSession reads one command line at a time and answers through a sink, one line per call (no
// line ends); run_uci connects it to streams. Nothing here needs a process, so tests drive it
// in-process.
//
// Commands (words separated by blanks; a line may end in CR; empty lines are passed over):
//   uci                        `id name gounki VERSION`, `id author ...`, `option name Hash ...`, `uciok`
//   isready                    `readyok`
//   setoption name Hash value N   the transposition table in MiB (1 to 65536)
//   ucinewgame                 the start position, a fresh engine
//   position startpos [moves M ...] | position fen TEXT [moves M ...]
//                              TEXT: the position text of docs/rules.md 1.7 (it may hold blanks);
//                              moves in any notation gounki reads (canonical: `c2-d3`, `f7xe7`,
//                              `c5*d5,e5,f6`, `a1-Out`; markers `x` and `+` optional)
//   go [depth N] [nodes N] [movetime MS] [wtime MS] [btime MS] [winc MS] [binc MS] [movestogo N]
//                              `info depth D seldepth S score cp X|mate N nodes N nps N time MS pv ...`
//                              per completed iteration, then `bestmove M` (`bestmove (none)` when
//                              the game is over); no limit at all: the node budget of `gounki best`
//   stop                       accepted (go is synchronous: it has returned before stop is read)
//   quit                       the driver stops reading
// Every bad line is answered `info string error: ...` naming the command and what is wrong; a
// `position` with a bad text or an illegal move leaves the last good position in place.

#include <cstdint>
#include <functional>
#include <iosfwd>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/gounki/search.hpp"
#include "core/gounki/position.hpp"

namespace gounki::protocol {

struct UciOptions {
    std::string version = "0"; // `id name gounki VERSION`
    std::size_t hash_mb = 16;
};

// The clock part of a `go` command (ms; -1: not given).
struct UciClock {
    std::int64_t time_left = -1; // wtime or btime, the side to move's
    std::int64_t increment = 0; // winc or binc
    std::int64_t moves_to_go = 0; // 0: not given
};
// The time for one move: time_left / (movestogo, or 20 when not given) + increment / 2, never more
// than what is left, less a safety margin of a tenth (at least 30 ms); at least 1 ms.
int uci_move_time(const UciClock& clock);

class UciSession {
public:
    using Sink = std::function<void(std::string_view line)>;

    explicit UciSession(UciOptions options = {});
    ~UciSession();
    UciSession(const UciSession&) = delete;
    UciSession& operator=(const UciSession&) = delete;

    void handle(std::string_view line, const Sink& out);
    std::vector<std::string> handle(std::string_view line); // the answers returned (tests)
    bool quit() const { return quit_; }
    // The current position (after the moves of the last good `position` command).
    const Position& position() const { return position_; }

private:
    void dispatch(std::string_view word, std::string_view args, const Sink& out);
    void set_position(std::string_view args, const Sink& out);
    void set_option(std::string_view args, const Sink& out);
    void go(std::string_view args, const Sink& out);

    UciOptions options_;
    Position position_;
    std::vector<std::uint64_t> history_; // keys of the positions before position_, oldest first
    std::unique_ptr<analysis::Searcher> searcher_;
    bool quit_ = false;
};

// Reads commands from `in` up to `quit` or the end of the input, answering on `out` (flushed after
// every line).
void run_uci(std::istream& in, std::ostream& out, UciOptions options = {});

} // namespace gounki::protocol
