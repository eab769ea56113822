#pragma once
// The brain side of the Gomocup ("Piskvork") protocol: gounki's stone engine as a Gomoku brain
// that managers and GUIs drive through standard input and output (README "gounki pbrain";
// the decisions the protocol leaves to a brain: docs/rules.md section 5).
//
// A PbrainSession is a protocol Session (session.hpp): one command line at a time in, the answers
// through a sink; run_pbrain connects it to streams.
//
// Commands (any case; a line may end in CR): START n, RECTSTART w,h, RESTART, BEGIN, TURN x,y,
// BOARD (then lines x,y,who up to DONE), INFO key value, TAKEBACK x,y, PLAY x,y, ABOUT, END,
// SWAP2BOARD (its board is read up to DONE and refused). Coordinates count from 0, x from the
// left and y from the top (core/stones/points.hpp: point_from_top_left).
//
// Answers: OK, a move "x,y", the ABOUT line, `ERROR message` (a malformed line, an illegal move:
// occupied, off the board, forbidden to Renju's Black, also as a BOARD's stone in the order of its
// lines; a size or rule gounki does not play, the game already over; the position is left as it
// was), `UNKNOWN message` (a command the
// protocol does not have). While thinking: one `MESSAGE depth D seldepth S eval E nodes N time MS
// pv x,y ...` per completed iteration, E from the brain's side: evaluation units, or `winN` /
// `lossN` for a proven result N plies away. INFO answers nothing: an unsupported rule is reported
// by the ERROR of the next command that asks for a move, a value that cannot be used (not a number,
// negative) by a MESSAGE before that command's answer; a negative time_left (the match's time run
// out) plays at once, a time or size with a fraction is rounded.

#include <cstdint>
#include <iosfwd>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/gounki/search.hpp"
#include "core/stones/position.hpp"
#include "protocol/session.hpp"

namespace gounki::analysis {
class StoneSearcher;
}

namespace gounki::protocol {

// The engine's limits for one move from what INFO said (times in ms; -1: not said).
struct TurnClock {
    std::int64_t timeout_turn = -1; // 0: play as fast as possible
    std::int64_t timeout_match = -1; // 0: no limit for the match
    std::int64_t time_left = -1; // what remains of the match
    std::int64_t max_node = -1; // INFO max_node (an extension some managers send): a node budget
};
// Without a time: the node budget of `gounki best`. timeout_turn 0: a small node budget
// (fast_turn_nodes). Otherwise a time: timeout_turn, at most a twentieth of time_left when the
// match has a limit, less a safety margin (a tenth, at least 30 ms; at least 1 ms in all). A
// max_node above 0 is the node budget in every case (with the time as a cap when one is given).
analysis::SearchLimits turn_limits(const TurnClock& clock);
constexpr std::uint64_t fast_turn_nodes = 20'000;

// The options' hash_mb is the transposition table's size unless INFO max_memory asks for less.
class PbrainSession : public Session {
public:
    explicit PbrainSession(EngineOptions options = {});
    ~PbrainSession() override;

    using Session::handle;
    // Handles one line of input; the answers (and MESSAGE lines while thinking) go to `out`.
    void handle(std::string_view line, const Sink& out) override;
    // END was read: the driver stops reading and exits 0.
    bool ended() const override { return ended_; }

private:
    enum class Owner : std::uint8_t { none, own, opponent };
    struct BoardInput { // between BOARD (or SWAP2BOARD) and DONE
        bool swap2 = false;
        std::vector<std::pair<int, Owner>> stones;
        std::vector<std::string> texts; // each stone's line as given
        std::string error; // the first bad line's complaint
        int line = 0;
    };

    void dispatch(std::string_view word, std::string_view args, const Sink& out);
    void start(int size, const Sink& out);
    void turn(std::string_view args, const Sink& out);
    void begin(const Sink& out);
    void info(std::string_view args, const Sink& out);
    // The MESSAGE lines about INFO values passed over, said before the answer of a command that
    // asks for a move (the protocol: a brain waits for such a command to tell of a problem).
    void tell_notes(const Sink& out);
    void takeback(std::string_view args, const Sink& out);
    void play_given(std::string_view args, const Sink& out);
    void board_line(std::string_view line, const Sink& out);
    void board_done(const Sink& out);
    // The first stone of a BOARD the rules did not allow when it came (a Renju BOARD lists the
    // stones in the order they were played: a black stone on a point then forbidden), as an error
    // naming its line; nothing when every stone was allowed. board_ holds the BOARD's stones.
    std::optional<std::string> refused_board_stone(const BoardInput& in) const;
    void read_captures(std::string_view value);

    // The point of "x,y" on the board, or an error message naming `what`.
    std::optional<std::string> read_point(std::string_view text, std::string_view what, int& point) const;
    // Why no move can be asked for now (no board, an unsupported rule), or nothing.
    std::optional<std::string> cannot_play() const;
    // The point a TURN or PLAY (`command`) names, placed for `who`; -1 after saying why it cannot be.
    int place_given(std::string_view args, const char* command, Owner who, const Sink& out);
    // The position before `who` puts a stone on the empty `point`, `who`'s colour to move.
    stones::StonePosition mover_position(int point, Owner who);
    // A stone of `who` on `point`, and the pairs it captures taken off (games with captures).
    void place(int point, Owner who);
    // The rules played: INFO captures' game, else Gomoku or Renju by INFO rule, on the START size.
    stones::Rules rules() const;
    // The brain's colour, told by how many stones each side has played (docs/rules.md section 5).
    Color own_colour() const;
    stones::StonePosition position() const; // the brain to move
    stones::StonePosition position(Color mine) const;
    // Searches, places the brain's stone and answers its point (or ERROR).
    void think_and_play(const Sink& out);
    std::string coords(int point) const;
    std::string board_text() const; // "15x15 board (x and y from 0 to 14)"

    EngineOptions options_;
    int size_ = 0; // 0 until START
    int rule_ = 0; // INFO rule's bitmask
    // INFO captures (an extension: README "gounki pbrain"): Ninuki or Pente with their options; the
    // stones the brain and the opponent have captured (INFO captured_by_brain / captured_by_opponent
    // set them for a BOARD; moves add to them); for each stone of order_, the points it emptied.
    std::optional<stones::Rules> capture_rules_;
    std::string capture_rules_error_; // a bad INFO captures value, told when a move is asked for
    int captured_by_own_ = 0, captured_by_opponent_ = 0;
    std::vector<std::vector<int>> emptied_;
    TurnClock clock_;
    std::int64_t max_memory_ = 0;
    std::vector<Owner> board_; // by point
    std::vector<int> order_; // the stones' points in the order they came
    std::optional<BoardInput> board_input_;
    std::unique_ptr<analysis::StoneSearcher> searcher_;
    std::size_t searcher_hash_mb_ = 0;
    std::vector<std::string> notes_; // MESSAGE lines for tell_notes
    bool ended_ = false;
};

// Reads commands from `in` up to END or the end of the input, answering on `out` (run_session).
void run_pbrain(std::istream& in, std::ostream& out, EngineOptions options = {});

} // namespace gounki::protocol
