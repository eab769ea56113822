#pragma once
// A UCI-style text protocol for the Gounki engine (README "gounki uci"), so that a Gounki GUI or
// another engine's author can drive gounki's search the way chess programs drive theirs.
//
// A UciSession is a protocol Session (session.hpp): one command line at a time in, the answers
// through a sink; run_uci connects it to streams.
//
// Commands (words separated by blanks; a line may end in CR; empty lines are passed over):
//   uci                        `id name gounki VERSION`, `id author ...`, `option name Hash ...`, `uciok`
//   isready                    `readyok`
//   setoption name Hash value N   the transposition table in MiB (1 to 65536, and at most half the
//                              machine's memory: analysis/tt.hpp max_table_megabytes)
//   ucinewgame                 the start position, a fresh engine
//   position startpos [moves M ...] | position fen TEXT [moves M ...]
//                              TEXT: the position text of docs/rules.md 1.7 (it may hold blanks);
//                              moves in any notation gounki reads (canonical: `c2-d3`, `f7xe7`,
//                              `c5*d5,e5,f6`, `a1-Out`; markers `x` and `+` optional)
//   go [depth N] [nodes N] [movetime MS] [wtime MS] [btime MS] [winc MS] [binc MS] [movestogo N]
//      [infinite]              searches on a thread of its own while commands are still read:
//                              `info depth D seldepth S score cp X|mate N nodes N nps N time MS pv ...`
//                              per completed iteration, then `bestmove M` (`bestmove (none)` when
//                              the game is over); no limit at all: the node budget of `gounki best`;
//                              `infinite`: no limit, and no bestmove before `stop` (a finished
//                              game's `bestmove (none)` too)
//   stop                       ends the search: its bestmove comes at once
//   quit                       ends the search (its bestmove still comes) and the driver stops reading
// While a search runs, `isready` is answered at once and `stop` and `quit` are obeyed; a `go` is
// refused at once (`info string error: go: a search is running ...`), the running search going on;
// `position`, `ucinewgame` and `setoption` wait for a search with limits to end (so a script of
// commands runs in order), and are refused during `go infinite` (send stop first).
// Every bad line is answered `info string error: ...` naming the command and what is wrong; a
// `position` with a bad text or an illegal move leaves the last good position in place.

#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <thread>
#include <iosfwd>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/gounki/search.hpp"
#include "core/gounki/position.hpp"
#include "protocol/session.hpp"

namespace gounki::protocol {

// The clock part of a `go` command (ms; -1: not given).
struct UciClock {
    std::int64_t time_left = -1; // wtime or btime, the side to move's
    std::int64_t increment = 0; // winc or binc
    std::int64_t moves_to_go = 0; // 0: not given
};
// The time for one move: time_left / (movestogo, or 20 when not given) + increment / 2, never more
// than what is left, less a safety margin of a tenth (at least 30 ms); at least 1 ms.
int uci_move_time(const UciClock& clock);

class UciSession : public Session {
public:
    explicit UciSession(EngineOptions options = {});
    ~UciSession() override;

    // Handles one line. A search started by `go` writes to (a copy of) `out` from its own thread; the
    // session's writes to it are serialised by a lock. With the answers returned (tests), a search
    // that `go` starts is waited for (wait()).
    using Session::handle;
    void handle(std::string_view line, const Sink& out) override;
    // `quit` was read.
    bool ended() const override { return quit_; }
    bool searching() const;
    // Waits for the running search to end by its limits (an infinite one is stopped), bestmove written.
    void wait() override;
    // The current position (after the moves of the last good `position` command).
    const Position& position() const { return position_; }

private:
    // `out` writes under the session's lock; `unlocked` is the caller's sink (for the search thread).
    void dispatch(std::string_view word, std::string_view args, const Sink& out, const Sink& unlocked);
    void set_position(std::string_view args, const Sink& out);
    void set_option(std::string_view args, const Sink& out);
    void go(std::string_view args, const Sink& out, const Sink& unlocked);
    // Ends the running search and waits for its thread; `quiet`: no bestmove (the session's end).
    void stop_search(bool quiet);
    // Whether `word` must wait for the running search: `go` is refused during any search; the
    // others wait for one with limits and are refused during `go infinite` (true: the refusal was said).
    bool busy(std::string_view word, const Sink& out);

    EngineOptions options_;
    Position position_;
    std::vector<std::uint64_t> history_; // keys of the positions before position_, oldest first
    std::unique_ptr<analysis::Searcher> searcher_;
    bool quit_ = false;

    std::thread search_;
    mutable std::mutex mutex_; // guards the fields below and every write to a sink
    std::condition_variable changed_; // a stop asked for; a search thread done
    bool searching_ = false, infinite_ = false, stop_ = false, quiet_ = false;
};

// Reads commands from `in` up to `quit` or the end of the input, answering on `out` (run_session).
void run_uci(std::istream& in, std::ostream& out, EngineOptions options = {});

} // namespace gounki::protocol
