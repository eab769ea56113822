#pragma once
// Threat knowledge of the stone games (Gomoku, Ninuki) for the engine: what a stone placed on an
// empty point makes in each of the four lines through it, pair captures, and the static evaluation.
//
// The line patterns come from one table of 3^8 entries: the eight points around the placed stone
// along a line (four each side), each own, empty or blocked (enemy stone or off the board). Points
// farther than four away never matter to a five or a four through the placed stone; for threes they
// are taken as blocked, which can only understate a three at the very end of such a window.
//
// ThreatBoard mirrors a StonePosition's stones on a padded board (no bounds checks) and counts for
// every point the stones within two points (Chebyshev distance): candidate moves are the empty
// points near stones. The engine keeps it in step with the position move by move.
//
// It keeps the threats up to date incrementally: for every cell and direction, the table indexes
// of its eight neighbours along that line for both colours (packed in one word, so that a stone
// placed or removed updates both with one add), and for every empty point the resulting line
// threats (a byte per direction: a nibble per colour) and the PointWorth per colour. Placing or
// removing a stone changes only the 32 cells within four along its four lines (one digit of one
// index each), so only those are looked up again, and only the cells whose threats changed get a
// new worth; the candidate points (empty, a stone within two) are a bit set kept the same way.

#include <array>
#include <cstdint>
#include <vector>

#include "analysis/score.hpp"
#include "core/stones/position.hpp"

namespace gounki::analysis {

// What a stone placed on a point makes in one line, weakest first.
enum class LineThreat : std::uint8_t {
    none,
    one, // can still grow into a five in this line
    closed_two, // one more stone makes a closed three
    open_two, // one more stone makes an open three
    closed_three, // one more stone makes a four
    open_three, // one more stone makes an open four
    four, // one point left to make a five
    open_four, // two or more points make a five: the opponent cannot block both
    five, // five or more in a row
};
constexpr int line_threat_count = 9;

// The threat of a stone of ours placed at the centre of a line of nine points, `cells` listing the
// other eight from one end (offsets -4..-1, then +1..+4): 0 empty, 1 ours, 2 blocked.
LineThreat line_threat(const std::array<std::uint8_t, 8>& cells);

// The worth of a point for a colour, from its four line threats (move ordering and evaluation):
// a five is worth win_value, an open four or two fours four_four_value, a four with an open three
// four_three_value; `double_three_allowed` false values a double three as one three (Ninuki forbids it).
// Four bytes (the engine copies and compares many): the value is under 2^27.
struct PointWorth {
    int value : 28 = 0;
    bool five : 1 = false;
    bool fours : 1 = false; // makes at least one four (or open four)
    bool winning : 1 = false; // open four, double four or four-three: wins unless answered by force
    bool operator==(const PointWorth&) const = default;
};
static_assert(sizeof(PointWorth) == 4);
PointWorth point_worth(const std::array<LineThreat, 4>& lines, bool double_three_allowed);

class ThreatBoard {
public:
    static constexpr int pad = 5;
    static constexpr int width = stones::max_size + 2 * pad;
    static constexpr int cell_count = width * width;
    // The four line directions on the padded board: across, up, diagonal, anti-diagonal.
    static constexpr std::array<int, 4> dirs = {1, width, width + 1, width - 1};
    using Lines = std::array<LineThreat, 4>;

    ThreatBoard() = default;
    explicit ThreatBoard(const stones::StonePosition& pos) { reset(pos); }
    // The stones of `pos`, and its rules' double-three rule for the point worths.
    void reset(const stones::StonePosition& pos);

    // Cell codes: 0 empty, 1 black, 2 white, 3 off the board.
    static int cell_of(int point) { return cell_of_point[std::size_t(point)]; }
    std::uint8_t cell(int point) const { return cells_[std::size_t(cell_of(point))]; }
    int size() const { return size_; }
    // Stones within two points of `point`.
    int near(int point) const { return near_[std::size_t(cell_of(point))]; }

    void place(int point, Color c);
    void remove(int point);
    // A stone placed and taken back last in, first out (the search): push_place is place() that
    // also saves what the stone changes, and pop_place(point) takes the last such stone back by
    // restoring it, a copy instead of the updates of remove(). Between the two, other stones may be
    // placed and removed (captures) as long as the board is the same again at pop_place.
    void push_place(int point, Color c);
    void pop_place(int point);

    // What is kept of an empty point: its threats (byte d: direction d, white's in the low nibble),
    // the worth table's keys (sum of threat * 9^direction; white's in the low half) and the worths
    // by colour index.
    struct CellState {
        std::uint32_t threats;
        std::uint32_t keys;
        std::array<PointWorth, 2> worth;
    };
    // The threats of a stone of `c` per direction, from a state.
    static Lines lines_of(const CellState& s, Color c) {
        const std::uint32_t t = (s.threats >> (4 * index(c))) & 0x0f0f0f0fu;
        Lines out;
        static_assert(sizeof(Lines) == sizeof t);
        __builtin_memcpy(&out, &t, sizeof t); // byte d is direction d's threat (little-endian)
        return out;
    }
    // Whether either colour makes a four or a five (open four included) in some line, from a state:
    // a threat nibble of 6 or more; adding 2 to each (at most 10: no carry) sets its top bit exactly then.
    static bool four_or_five(const CellState& s) { return ((s.threats + 0x22222222u) & 0x88888888u) != 0; }
    // The cached threats of a stone of `c` on the empty `point`, per direction, and their worth.
    const CellState& state(int point) const { return info_[std::size_t(cell_of(point))].state; }
    Lines lines(int point, Color c) const { return lines_of(state(point), c); }
    const PointWorth& worth(int point, Color c) const { return info_[std::size_t(cell_of(point))].state.worth[std::size_t(index(c))]; }

    // The empty points with a stone within two, in point order: calls f(point, state) for each.
    template <class F>
    void for_each_candidate_state(F&& f) const { each_bit(candidates_, f); }
    // The same, f(point).
    template <class F>
    void for_each_candidate(F&& f) const { each_bit(candidates_, [&](int p, const CellState&) { f(p); }); }
    // The same with the point's capture counts (capture_pairs), f(point, state, pairs).
    template <class F>
    void for_each_candidate_caps(F&& f) const {
        for (std::size_t w = 0; w < candidates_.size(); ++w)
            for (std::uint64_t bits = candidates_[w]; bits; bits &= bits - 1) {
                const std::size_t cell = w * 64 + std::size_t(__builtin_ctzll(bits));
                f(int(point_of_cell[cell]), info_[cell].state, caps_[cell]);
            }
    }
    // The empty points where either colour makes a four or a five (all of them candidates: a four
    // holds three stones besides the point within its five), in point order: f(point, state).
    template <class F>
    void for_each_four_point_state(F&& f) const { each_bit(fours_, f); }
    template <class F>
    void for_each_four_point(F&& f) const { each_bit(fours_, [&](int p, const CellState&) { f(p); }); }

    // The threats computed from scratch (the reference the cache is checked against):
    // out[index(colour)][direction].
    void threats(int point, std::array<std::array<LineThreat, 4>, 2>& out) const;
    // The pairs a stone placed on the empty `point` would capture (Ninuki, Pente), 0..8, by colour
    // index: kept up to date with the stones where the rules have captures (0 otherwise).
    std::array<int, 2> capture_pairs(int point) const {
        const auto& n = caps_[std::size_t(cell_of(point))];
        return {n[0], n[1]};
    }

private:
    using Bits = std::array<std::uint64_t, (std::size_t(cell_count) + 63) / 64>; // a bit per cell
    // f(point, state) for the cells of the set bits, in cell order (so in point order).
    template <class F>
    void each_bit(const Bits& set, F&& f) const {
        for (std::size_t w = 0; w < set.size(); ++w)
            for (std::uint64_t bits = set[w]; bits; bits &= bits - 1) {
                const std::size_t cell = w * 64 + std::size_t(__builtin_ctzll(bits));
                f(int(point_of_cell[cell]), info_[cell].state);
            }
    }
    void update_near(int cell, int delta);
    // The capture counts that read `cell`, holding a stone of `code` (1 black, 2 white), change by
    // `delta`: placing a stone adds the pairs it completes, removing one takes them off (an empty
    // cell completes none).
    void update_caps(int cell, std::uint8_t code, int delta);
    // One digit of the line indexes of the 32 cells within four of `cell` changes by `sign`, and
    // the threats of those that are empty with it.
    void update_lines(int cell, std::uint8_t code, int sign);
    template <int D> // update_lines along direction D (worth tables of white and black)
    void update_line(int cell, std::uint32_t unit, const PointWorth* white, const PointWorth* black);
    // The threats, keys and worths of the empty `cell` from its line indexes.
    void refresh(int cell);

    std::array<std::uint8_t, std::size_t(cell_count)> cells_{};
    // What the engine keeps of a cell, in one place (32 bytes): per direction the table indexes of
    // the line through it for both colours (white's in the low 16 bits, black's in the high: colour
    // indexes 0 and 1), and its CellState, up to date while the cell is empty.
    struct alignas(32) CellInfo {
        std::array<std::uint32_t, 4> index;
        CellState state;
    };
    static_assert(sizeof(CellInfo) == 32);
    std::array<CellInfo, std::size_t(cell_count)> info_{};
    // Cells in point order (rank, then file) as points are: the candidate bits read in cell order
    // give the points in point order.
    static constexpr auto cell_of_point = [] {
        std::array<std::int16_t, stones::point_count> t{};
        for (int p = 0; p < stones::point_count; ++p)
            t[std::size_t(p)] = std::int16_t((stones::point_rank(p) + pad) * width + stones::point_file(p) + pad);
        return t;
    }();
    static constexpr auto point_of_cell = [] {
        std::array<std::int16_t, std::size_t(cell_count)> t{};
        for (int p = 0; p < stones::point_count; ++p)
            t[std::size_t((stones::point_rank(p) + pad) * width + stones::point_file(p) + pad)] = std::int16_t(p);
        return t;
    }();
    std::array<std::uint8_t, std::size_t(cell_count)> near_{}; // by cell
    // By cell, the pairs a stone there would capture, by the taker's colour index: a pair of one
    // colour (a stone one and two steps away) closed by the other's stone three steps away, in
    // each of the 8 directions. Counted for every cell (stones and padding too; only the empty
    // ones are read), so each count depends on the stones alone, whatever the order of changes.
    std::array<std::array<std::uint8_t, 2>, std::size_t(cell_count)> caps_{};
    bool captures_ = false; // the rules have captures: caps_ kept
    Bits candidates_{};
    Bits fours_{}; // for_each_four_point
    Bits occupied_{}; // stones and the cells off the board
    // place()'s part of update_near: adds one to the near counts of the 5x5 square around `cell`
    // (a row of five at once) and makes its empty cells candidates (a row's bits at once).
    void add_near(int cell);
    void update_four_bit(int cell);
    // What push_place saved: the states of the 32 cells within four along the lines (in the order
    // of update_lines), the four-point bits and the candidate bits.
    struct Saved {
        std::array<CellState, 32> cells;
        Bits fours;
        Bits candidates;
    };
    std::vector<Saved> saved_;
    std::size_t saved_count_ = 0;
    std::array<bool, 2> double_three_allowed_{true, true};
    int size_ = 15;
};

constexpr int worth_five = 100000;
constexpr int worth_four_four = 20000;
constexpr int worth_four_three = 8000;

// Weights of the evaluation (StoneSearcher::evaluate in stones/search.cpp), in points where one pair
// captured in Ninuki is worth a few hundred.
struct StoneEvalWeights {
    int capture_pair[6] = {0, 50, 120, 230, 420, 0}; // by pairs taken so far (5 pairs = won)
    int capture_threat = 35; // per pair the side to move can take now
    int capture_exposed = 25; // per pair of ours the opponent can take on its move
};

} // namespace gounki::analysis
