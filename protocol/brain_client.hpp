#pragma once
// The manager side of the Gomocup ("Piskvork") protocol: gounki drives an external brain (any
// Gomoku engine that speaks the protocol) as a child process, asks it for moves and reads its
// evaluations (README "Judging with an external engine").
//
// The child runs `CMD ARGS` through /bin/sh in its own process group, standard input and output
// connected to gounki by pipes (its standard error is gounki's). Commands sent: START n, INFO
// timeout_turn / timeout_match / time_left / max_memory / rule (and max_node when a node budget is
// given: an extension of the protocol that brains which do not know it pass over), BOARD ... DONE
// and BEGIN (each after RESTART and the INFO lines again when the brain's board holds stones; START
// only once per board size, or in RESTART's place for a brain that does not answer it OK), TURN
// x,y, ABOUT and END. Coordinates count from 0, x from the left and y from the top.
//
// Lines read (ended by LF, CR LF or CR; empty lines passed over; a line over a MiB cut there, its
// rest dropped): a move "x,y"; `SUGGEST x,y` (the move, confirmed by sending PLAY x,y, whose answer
// is then read as the move); `MESSAGE text` (depth, eval and pv read leniently: parse_brain_message);
// `DEBUG text`; `ERROR text` and `UNKNOWN text` (a failure); `OK`. After each move gounki sends ABOUT
// and reads up to its answer: a move line before it (the brain answered twice) or any other line
// but MESSAGE and DEBUG is a failure, as is a line still unread when the next position is asked
// for; MESSAGE and DEBUG lines then are dropped. A brain that exits, says nothing
// within the time for a move plus a grace, answers something else, or answers an occupied,
// off-board or illegal point (a Renju-forbidden point for Black) is killed and a BrainError says
// what happened, naming the engine.
//
// Not thread-safe: one BrainClient per thread (each with its own child process).

#include <algorithm>
#include <chrono>
#include <memory>
#include <cstdint>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/score.hpp"
#include "core/stones/position.hpp"

namespace gounki::protocol {

// A brain failed (hung, crashed, answered garbage or an illegal move); the brain was killed.
struct BrainError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// What one MESSAGE line says about the search, as far as it says it.
struct BrainInfo {
    int depth = 0; // 0: not said
    // The evaluation for the brain's side: heuristic units, or a proven result (analysis/score.hpp)
    // for "winN" / "lossN" / "+MN" / "-MN".
    std::optional<analysis::Score> eval;
    std::vector<std::pair<int, int>> pv; // x,y points after "pv"
};

// Reads a MESSAGE line's text (without "MESSAGE"): words "depth N" (or "depth N-M"), "eval V" /
// "ev V" / "score V" (V a whole number, winN, lossN, +MN or -MN), "pv x,y x,y ...", in any case,
// with '|', ':' or '=' allowed between and after words. Nothing when it names no depth and no eval.
std::optional<BrainInfo> parse_brain_message(std::string_view text);

// The INFO rule of a stone game: 0 freestyle Gomoku, 1 standard (exactly five), 4 Renju; nothing
// for games with captures (Ninuki, Pente), which the protocol's brains do not play.
std::optional<int> gomocup_rule(const stones::Rules& rules);
// The value of INFO captures (gounki's extension, README "gounki pbrain") for a game with captures:
// the game's name and its rule words, separated by commas ("ninuki,no-endgame-capture"); nothing
// for the games without.
std::optional<std::string> captures_info(const stones::Rules& rules);

struct BrainSettings {
    std::string command; // run through /bin/sh -c
    int turn_ms = 1000; // INFO timeout_turn
    std::uint64_t max_node = 0; // INFO max_node when above 0 (an extension: brains that know it search so many nodes)
    std::int64_t max_memory = std::int64_t(256) << 20; // INFO max_memory, bytes
    int start_timeout_ms = 30'000; // for START and ABOUT (a brain may load its network first)
    // How long past timeout_turn a brain may take to answer before it counts as hung.
    int grace_ms() const { return std::max(1000, turn_ms / 2); }
};

// The brain's move and what its MESSAGE lines said while it thought.
struct BrainAnswer {
    int point = stones::no_point;
    int x = 0, y = 0;
    std::optional<analysis::Score> eval; // the last MESSAGE that had one
    int depth = 0;
    std::vector<int> pv; // points; starts with the brain's move when the brain said so
    // MESSAGE and DEBUG lines as read: the last max_messages, each cut after max_message_chars
    // characters; messages_dropped counts the earlier ones.
    std::vector<std::string> messages;
    std::size_t messages_dropped = 0;
    static constexpr std::size_t max_messages = 32, max_message_chars = 256;
};

class BrainProcess;

// Kills the process groups of every brain still running (SIGKILL), so that no brain outlives
// gounki: for a process that ends without its destructors (a second interrupt, _Exit); it also
// runs at exit. Async-signal-safe.
void kill_all_brains() noexcept;

class BrainClient {
public:
    // Starts the brain and asks it ABOUT (its name and version); throws BrainError.
    explicit BrainClient(BrainSettings settings);
    ~BrainClient(); // END, then the process is killed if it has not exited
    BrainClient(const BrainClient&) = delete;
    BrainClient& operator=(const BrainClient&) = delete;

    const BrainSettings& settings() const { return settings_; }
    // "NAME VERSION" from ABOUT; the command's first word when the brain does not say.
    const std::string& name() const { return name_; }
    const std::string& about() const { return about_; } // the ABOUT line as read

    // Sends START (when the size changed or none was sent yet) and the INFO keys for `rules`. A
    // game with captures needs a brain whose ABOUT line lists it (captures="ninuki,pente", as gounki
    // pbrain's does); BrainError otherwise.
    void new_game(const stones::Rules& rules);
    bool plays_captures(GameKind kind) const;
    // The brain's move in `pos` given as a board (BOARD ... DONE, or BEGIN on an empty board; after
    // RESTART when the brain's board holds stones):
    // `order` lists the stones in the order they were played (empty: board order). The brain's
    // own stones are those of the side to move. Throws BrainError on a failure or an illegal answer.
    BrainAnswer think(const stones::StonePosition& pos, std::span<const int> order = {});
    // The opponent played `point`: TURN x,y and the brain's answer (the brain keeps the game).
    BrainAnswer turn(const stones::StonePosition& after_opponent, int point);
    // The brain moves first on an empty board: BEGIN.
    BrainAnswer begin(const stones::StonePosition& empty);
    // After the last request of a game: a line waiting unread (but MESSAGE and DEBUG) is a failure,
    // as before a request. (Each answer was checked as it came: check_answered_once.)
    void settle();

private:
    [[noreturn]] void fail(const std::string& what);
    // The next line; a failure when the brain stops or says nothing up to `deadline` (`timeout_ms`
    // being the whole wait, for the message).
    std::string read_line_until(std::chrono::steady_clock::time_point deadline, int timeout_ms, std::string_view waiting_for);
    // " (it wrote 'TEXT' with no line end after it)" when the brain's last output has no line end.
    std::string unended() const;
    // The brain's answer to `after` (START, RESTART), MESSAGE and DEBUG lines passed over.
    std::string answer_to(std::string_view after);
    void expect_ok(std::string_view after);
    BrainAnswer read_move(const stones::StonePosition& pos, std::string_view after);
    static void keep_message(BrainAnswer& answer, std::string_view line);
    // After the brain answered `command` with its move: ABOUT, read up to its answer. A brain reads
    // its input in order, so a move line before that answer is one it gave unasked (it answered
    // twice, and its next answer would be taken for the next position's), any other line but
    // MESSAGE and DEBUG one it should not have written: BrainError, at the position it came after.
    void check_answered_once(std::string_view command);
    // RESTART (START for a brain that does not know it) when the brain's board holds stones,
    // before BEGIN or BOARD, then every INFO line.
    void clear_board(int size);
    // START, then every INFO line.
    void start_board(int size);
    // Every INFO line: the settings', rule_ and captures_line_.
    void send_info();
    // Before `command` asks for a move: MESSAGE and DEBUG lines still waiting are dropped, any other
    // line is a failure (the brain answered twice).
    void refuse_waiting_lines(std::string_view command);

    BrainSettings settings_;
    std::unique_ptr<BrainProcess> process_;
    std::string name_, about_;
    std::string captures_; // ABOUT's captures="...", in lower case: the games with captures it plays
    int size_ = 0; // of the last START
    int rule_ = -1; // the INFO rule sent (-1: none yet)
    std::string captures_line_; // the last INFO captures sent (empty: none ever, the brain had no game with captures)
    bool board_used_ = false; // stones were given or played since the last START or RESTART
    bool restart_known_ = true; // false once the brain answered RESTART with anything but OK
};

} // namespace gounki::protocol
