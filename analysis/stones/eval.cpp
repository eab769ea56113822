#include "analysis/stones/eval.hpp"

#include <algorithm>

namespace gounki::analysis {

namespace {

constexpr int table_size = 6561; // 3^8

// Cells as a line of nine with the placed stone at 4: 0 empty, 1 ours, 2 blocked.
using Line9 = std::array<std::uint8_t, 9>;

int index_of(const Line9& l) {
    int idx = 0;
    for (int i = 8; i >= 0; --i)
        if (i != 4) idx = idx * 3 + l[std::size_t(i)];
    return idx;
}

bool five_through_centre(const Line9& l) {
    int run = 1;
    for (int i = 3; i >= 0 && l[std::size_t(i)] == 1; --i) ++run;
    for (int i = 5; i <= 8 && l[std::size_t(i)] == 1; ++i) ++run;
    return run >= 5;
}

struct Table {
    std::array<std::uint8_t, table_size> level{};
    std::array<bool, table_size> done{};

    LineThreat compute(Line9 l) {
        const int idx = index_of(l);
        if (done[std::size_t(idx)]) return LineThreat(level[std::size_t(idx)]);
        LineThreat result = LineThreat::none;
        if (five_through_centre(l)) {
            result = LineThreat::five;
        } else {
            int five_points = 0;
            LineThreat best = LineThreat::none;
            for (int e = 0; e < 9; ++e) {
                if (l[std::size_t(e)] != 0) continue;
                Line9 m = l;
                m[std::size_t(e)] = 1;
                if (five_through_centre(m)) ++five_points;
                else best = std::max(best, compute(m));
            }
            if (five_points >= 2) result = LineThreat::open_four;
            else if (five_points == 1) result = LineThreat::four;
            else if (best >= LineThreat::open_four) result = LineThreat::open_three;
            else if (best == LineThreat::four) result = LineThreat::closed_three;
            else if (best == LineThreat::open_three) result = LineThreat::open_two;
            else if (best == LineThreat::closed_three) result = LineThreat::closed_two;
            else {
                // Room for a five through the centre at all?
                for (int s = 0; s <= 4 && result == LineThreat::none; ++s) {
                    bool free = true;
                    for (int i = s; i < s + 5; ++i) free = free && l[std::size_t(i)] != 2;
                    if (free) result = LineThreat::one;
                }
            }
        }
        done[std::size_t(idx)] = true;
        level[std::size_t(idx)] = std::uint8_t(result);
        return result;
    }

    Table() {
        for (int idx = 0; idx < table_size; ++idx) {
            Line9 l{};
            int x = idx;
            for (int i = 0; i < 9; ++i) {
                if (i == 4) {
                    l[4] = 1;
                    continue;
                }
                l[std::size_t(i)] = std::uint8_t(x % 3);
                x /= 3;
            }
            compute(l);
        }
    }
};

const Table& table() {
    static const Table t;
    return t;
}

// point_worth of every four line threats (index: sum of threat * 9^direction), without and with
// double threes allowed.
using WorthTable = std::array<std::array<PointWorth, 6561>, 2>;
const WorthTable& worth_table() {
    static const WorthTable w = [] {
        WorthTable out{};
        for (int dta = 0; dta < 2; ++dta)
            for (int key = 0; key < 6561; ++key) {
                std::array<LineThreat, 4> l{};
                for (int d = 0, k = key; d < 4; ++d, k /= 9) l[std::size_t(d)] = LineThreat(k % 9);
                out[std::size_t(dta)][std::size_t(key)] = point_worth(l, dta != 0);
            }
        return out;
    }();
    return w;
}

// Per cell code (0 empty, 1 black, 2 white, 3 off) the table digit for a black and a white stone.
constexpr std::uint8_t digit_black[4] = {0, 1, 2, 2};
constexpr std::uint8_t digit_white[4] = {0, 2, 1, 2};
constexpr int pow3[9] = {1, 3, 9, 27, 81, 243, 729, 2187, 6561};
constexpr int pow9[4] = {1, 9, 81, 729};

} // namespace

LineThreat line_threat(const std::array<std::uint8_t, 8>& cells) {
    Line9 l{};
    for (int i = 0; i < 4; ++i) l[std::size_t(i)] = cells[std::size_t(i)];
    l[4] = 1;
    for (int i = 4; i < 8; ++i) l[std::size_t(i + 1)] = cells[std::size_t(i)];
    return LineThreat(table().level[std::size_t(index_of(l))]);
}

void ThreatBoard::reset(const stones::StonePosition& pos) {
    table(); // built once, before any search
    size_ = pos.size();
    for (Color c : {Color::black, Color::white}) double_three_allowed_[std::size_t(index(c))] = !pos.rules().double_three_forbidden(c);
    cells_.fill(3);
    near_.fill(0);
    candidates_.fill(0);
    fours_.fill(0);
    occupied_.fill(~std::uint64_t(0));
    info_ = {};
    caps_ = {};
    captures_ = pos.rules().captures();
    saved_count_ = 0;
    for (int r = 0; r < size_; ++r)
        for (int f = 0; f < size_; ++f) {
            const int c = cell_of(stones::make_point(f, r));
            cells_[std::size_t(c)] = 0;
            occupied_[std::size_t(c >> 6)] &= ~(std::uint64_t(1) << (c & 63));
        }
    // The line indexes of the empty board (the edges blocked), then the stones one by one.
    for (int r = 0; r < size_; ++r)
        for (int f = 0; f < size_; ++f) {
            const int c = cell_of(stones::make_point(f, r));
            for (int d = 0; d < 4; ++d) {
                const int step = dirs[std::size_t(d)];
                std::uint32_t idx = 0; // off-board cells read as blocked for both colours
                for (int k = 1; k <= 4; ++k)
                    idx += (cells_[std::size_t(c - k * step)] == 3) * 2 * pow3[4 - k] +
                        (cells_[std::size_t(c + k * step)] == 3) * 2 * pow3[3 + k];
                info_[std::size_t(c)].index[std::size_t(d)] = idx | idx << 16;
            }
            refresh(c);
        }
    for (int p = 0; p < stones::point_count; ++p) {
        const stones::Stone s = pos.at(p);
        if (s != stones::Stone::empty) place(p, s == stones::Stone::black ? Color::black : Color::white);
    }
}

void ThreatBoard::refresh(int cell) {
    const Table& t = table();
    CellState& info = info_[std::size_t(cell)].state;
    info.threats = 0;
    info.keys = 0;
    for (int d = 0; d < 4; ++d) {
        const std::uint32_t idx = info_[std::size_t(cell)].index[std::size_t(d)];
        const int w = t.level[idx & 0xffff], b = t.level[idx >> 16];
        info.threats |= std::uint32_t(w | b << 4) << (8 * d);
        info.keys += std::uint32_t((w + (b << 16)) * pow9[d]);
    }
    for (int colour = 0; colour < 2; ++colour)
        info.worth[std::size_t(colour)] = worth_table()[double_three_allowed_[std::size_t(colour)]][colour ? info.keys >> 16 : info.keys & 0xffff];
}

namespace {
// The cells within four of a changed cell along direction d are at offsets[j] * step; the changed
// cell is at offset -k from the cell k steps away: digit 4-k of its index for k > 0, 3-k for k < 0.
constexpr int offsets[8] = {-4, -3, -2, -1, 1, 2, 3, 4};
constexpr std::uint32_t weights[8] = {pow3[7], pow3[6], pow3[5], pow3[4], pow3[3], pow3[2], pow3[1], pow3[0]};

// The changed cell's digit in both indexes of a cell at once: white's in the low half, black's in
// the high. Unsigned wrap-around: each half stays within 0..6560, so no carry crosses halves.
std::uint32_t digit_unit(std::uint8_t code, int sign) {
    return std::uint32_t(sign * (digit_white[code] + (digit_black[code] << 16)));
}

// A direction's threat byte (white's nibble, black's) spread to white's in the low 16 bits and
// black's in the high, as the keys are kept.
std::uint32_t spread(std::uint32_t pair) { return (pair & 15) | (pair & 0xf0) << 12; }

// A cell makes a four or a five for a colour in some line (ThreatBoard::four_or_five).
bool four_in(std::uint32_t threats) { return ThreatBoard::four_or_five(ThreatBoard::CellState{threats, 0, {}}); }
} // namespace

template <int D>
void ThreatBoard::update_line(int cell, std::uint32_t unit, const PointWorth* white, const PointWorth* black) {
    const std::uint8_t* level = table().level.data();
    constexpr int step = dirs[std::size_t(D)];
#pragma GCC unroll 8
    for (int j = 0; j < 8; ++j) {
        const int n = cell + offsets[j] * step;
        CellInfo& info = info_[std::size_t(n)];
        const std::uint32_t idx = info.index[D] += unit * weights[j];
        if (cells_[std::size_t(n)] != 0) continue; // a stone or off the board: read once emptied
        CellState& st = info.state;
        const std::uint32_t now = std::uint32_t(level[idx & 0xffff] | level[idx >> 16] << 4);
        const std::uint32_t was = (st.threats >> (8 * D)) & 0xff;
        if (now == was) continue;
        st.threats ^= (now ^ was) << (8 * D);
        // Both keys at once, as the indexes: the threats spread to 16 bits a colour.
        st.keys += (spread(now) - spread(was)) * std::uint32_t(pow9[D]);
        st.worth[0] = white[st.keys & 0xffff];
        st.worth[1] = black[st.keys >> 16];
        std::uint64_t& word = fours_[std::size_t(n >> 6)];
        word = (word & ~(std::uint64_t(1) << (n & 63))) | std::uint64_t(four_in(st.threats)) << (n & 63);
    }
}

void ThreatBoard::update_lines(int cell, std::uint8_t code, int sign) {
    const WorthTable& wt = worth_table();
    const PointWorth* white = wt[double_three_allowed_[0]].data();
    const PointWorth* black = wt[double_three_allowed_[1]].data();
    const std::uint32_t unit = digit_unit(code, sign);
    update_line<0>(cell, unit, white, black);
    update_line<1>(cell, unit, white, black);
    update_line<2>(cell, unit, white, black);
    update_line<3>(cell, unit, white, black);
}

void ThreatBoard::push_place(int point, Color c) {
    const int cell = cell_of(point);
    if (saved_count_ == saved_.size()) saved_.emplace_back();
    Saved& s = saved_[saved_count_++];
    s.fours = fours_;
    s.candidates = candidates_;
#pragma GCC unroll 4
    for (int d = 0, i = 0; d < 4; ++d)
#pragma GCC unroll 8
        for (int j = 0; j < 8; ++j, ++i) s.cells[std::size_t(i)] = info_[std::size_t(cell + offsets[j] * dirs[std::size_t(d)])].state;
    place(point, c);
}

void ThreatBoard::pop_place(int point) {
    const int cell = cell_of(point);
    const Saved& s = saved_[--saved_count_];
    const std::uint8_t code = cells_[std::size_t(cell)];
    if (captures_) update_caps(cell, code, -1); // the pairs it completed (the board as it was placed)
    const std::uint32_t unit = digit_unit(code, -1);
    cells_[std::size_t(cell)] = 0;
    // The cell's own state was never changed while it held the stone.
#pragma GCC unroll 4
    for (int d = 0, i = 0; d < 4; ++d)
#pragma GCC unroll 8
        for (int j = 0; j < 8; ++j, ++i) {
            CellInfo& info = info_[std::size_t(cell + offsets[j] * dirs[std::size_t(d)])];
            info.index[std::size_t(d)] += unit * weights[j];
            info.state = s.cells[std::size_t(i)];
        }
    fours_ = s.fours;
    candidates_ = s.candidates;
    occupied_[std::size_t(cell >> 6)] &= ~(std::uint64_t(1) << (cell & 63));
    for (int dr = -2; dr <= 2; ++dr) { // the near counts of a row of five at once (no count exceeds 25)
        std::uint8_t* row = near_.data() + cell + dr * width - 2;
        std::uint64_t v;
        __builtin_memcpy(&v, row, 8); // within the padding: the last row read ends before the array
        v -= 0x0101010101u;
        __builtin_memcpy(row, &v, 8);
    }
}

void ThreatBoard::update_near(int cell, int delta) {
    for (int dr = -2; dr <= 2; ++dr)
        for (int df = -2; df <= 2; ++df) {
            const int c = cell + dr * width + df; // within the padding: off-board cells are never candidates
            const int near = near_[std::size_t(c)] + delta;
            near_[std::size_t(c)] = std::uint8_t(near);
            const std::uint64_t bit = std::uint64_t(1) << (c & 63);
            std::uint64_t& word = candidates_[std::size_t(c >> 6)];
            word = near && cells_[std::size_t(c)] == 0 ? word | bit : word & ~bit;
        }
}

void ThreatBoard::add_near(int cell) {
    for (int dr = -2; dr <= 2; ++dr) {
        const int start = cell + dr * width - 2;
        std::uint8_t* row = near_.data() + start;
        std::uint64_t v;
        __builtin_memcpy(&v, row, 8); // within the padding: the last row read ends before the array
        v += 0x0101010101u; // five counts, none above 25: no carry
        __builtin_memcpy(row, &v, 8);
        // The row's five bits, which may reach into the next word.
        const std::size_t w = std::size_t(start >> 6);
        const int shift = start & 63;
        candidates_[w] |= (std::uint64_t(0x1f) << shift) & ~occupied_[w];
        if (shift > 59) candidates_[w + 1] |= (std::uint64_t(0x1f) >> (64 - shift)) & ~occupied_[w + 1];
    }
}

void ThreatBoard::update_four_bit(int cell) {
    const bool four = cells_[std::size_t(cell)] == 0 && four_in(info_[std::size_t(cell)].state.threats);
    const std::uint64_t bit = std::uint64_t(1) << (cell & 63);
    std::uint64_t& word = fours_[std::size_t(cell >> 6)];
    word = four ? word | bit : word & ~bit;
}

void ThreatBoard::place(int point, Color c) {
    const int cell = cell_of(point);
    const std::uint8_t code = c == Color::black ? 1 : 2;
    cells_[std::size_t(cell)] = code;
    occupied_[std::size_t(cell >> 6)] |= std::uint64_t(1) << (cell & 63);
    candidates_[std::size_t(cell >> 6)] &= ~(std::uint64_t(1) << (cell & 63));
    update_four_bit(cell);
    update_lines(cell, code, +1);
    add_near(cell);
    if (captures_) update_caps(cell, code, +1);
}

void ThreatBoard::remove(int point) {
    const int cell = cell_of(point);
    const std::uint8_t code = cells_[std::size_t(cell)];
    if (captures_) update_caps(cell, code, -1);
    cells_[std::size_t(cell)] = 0;
    occupied_[std::size_t(cell >> 6)] &= ~(std::uint64_t(1) << (cell & 63));
    update_lines(cell, code, -1);
    update_near(cell, -1);
    refresh(cell);
    update_four_bit(cell);
}

void ThreatBoard::threats(int point, std::array<std::array<LineThreat, 4>, 2>& out) const {
    const Table& t = table();
    const int c = cell_of(point);
    for (int d = 0; d < 4; ++d) {
        const int step = dirs[std::size_t(d)];
        int ib = 0, iw = 0;
        // Digits in table order: offsets -4..-1 are digits 0..3, +1..+4 digits 4..7.
        for (int k = 1; k <= 4; ++k) {
            const std::uint8_t lo = cells_[std::size_t(c - k * step)];
            const std::uint8_t hi = cells_[std::size_t(c + k * step)];
            ib += digit_black[lo] * pow3[4 - k] + digit_black[hi] * pow3[3 + k];
            iw += digit_white[lo] * pow3[4 - k] + digit_white[hi] * pow3[3 + k];
        }
        out[index(Color::black)][std::size_t(d)] = LineThreat(t.level[std::size_t(ib)]);
        out[index(Color::white)][std::size_t(d)] = LineThreat(t.level[std::size_t(iw)]);
    }
}

void ThreatBoard::update_caps(int cell, std::uint8_t code, int delta) {
    // Codes: 1 black, 2 white (3 - code the other colour); a pair of black is taken by white, whose
    // colour index is 0: a pair of `code` counts for index code - 1, a taker of `code` for 2 - code.
    const std::uint8_t other = std::uint8_t(3 - code);
    const std::uint8_t d = std::uint8_t(delta);
    const std::uint8_t* c = cells_.data();
    for (int step : dirs)
        for (int s : {step, -step}) {
            // The stone as the pair's near stone, as its far one, and as the taker's stone.
            if (c[cell + s] == code && c[cell + 2 * s] == other) caps_[std::size_t(cell - s)][code - 1u] += d;
            if (c[cell - s] == code && c[cell + s] == other) caps_[std::size_t(cell - 2 * s)][code - 1u] += d;
            if (c[cell - s] == other && c[cell - 2 * s] == other) caps_[std::size_t(cell - 3 * s)][2u - code] += d;
        }
}

PointWorth point_worth(const std::array<LineThreat, 4>& lines, bool double_three_allowed) {
    static constexpr int w[line_threat_count] = {0, 1, 4, 12, 14, 45, 60, 600, 0};
    PointWorth pw;
    int fours = 0, open_fours = 0, threes = 0, sum = 0;
    for (LineThreat t : lines) {
        if (t == LineThreat::five) pw.five = true;
        if (t == LineThreat::open_four) ++open_fours;
        if (t == LineThreat::four) ++fours;
        if (t == LineThreat::open_three) ++threes;
        sum += w[int(t)];
    }
    pw.fours = fours + open_fours > 0;
    if (pw.five) {
        pw.value = worth_five;
        pw.winning = true;
    } else if (open_fours || fours >= 2) {
        pw.value = worth_four_four + sum;
        pw.winning = true;
    } else if (fours && threes) {
        pw.value = worth_four_three + sum;
        pw.winning = true;
    } else if (threes >= 2 && double_three_allowed) {
        pw.value = 2000 + sum;
    } else {
        pw.value = sum;
    }
    return pw;
}

} // namespace gounki::analysis
