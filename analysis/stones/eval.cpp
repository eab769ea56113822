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

// Per cell code (0 empty, 1 black, 2 white, 3 off) the table digit for a black and a white stone.
constexpr std::uint8_t digit_black[4] = {0, 1, 2, 2};
constexpr std::uint8_t digit_white[4] = {0, 2, 1, 2};
constexpr int pow3[9] = {1, 3, 9, 27, 81, 243, 729, 2187, 6561};

} // namespace

LineThreat line_threat(const std::array<std::uint8_t, 8>& cells) {
    Line9 l{};
    for (int i = 0; i < 4; ++i) l[std::size_t(i)] = cells[std::size_t(i)];
    l[4] = 1;
    for (int i = 4; i < 8; ++i) l[std::size_t(i + 1)] = cells[std::size_t(i)];
    return LineThreat(table().level[std::size_t(index_of(l))]);
}

void ThreatBoard::reset(const stones::StonePosition& pos) {
    size_ = pos.size();
    cells_.fill(3);
    near_.fill(0);
    for (int r = 0; r < size_; ++r)
        for (int f = 0; f < size_; ++f) cells_[std::size_t(cell_of(stones::make_point(f, r)))] = 0;
    for (int p = 0; p < stones::point_count; ++p) {
        const stones::Stone s = pos.at(p);
        if (s != stones::Stone::empty) place(p, s == stones::Stone::black ? Color::black : Color::white);
    }
    (void)table(); // built once, before any search
}

void ThreatBoard::place(int point, Color c) {
    cells_[std::size_t(cell_of(point))] = c == Color::black ? 1 : 2;
    const int f0 = stones::point_file(point), r0 = stones::point_rank(point);
    for (int r = std::max(0, r0 - 2); r <= std::min(size_ - 1, r0 + 2); ++r)
        for (int f = std::max(0, f0 - 2); f <= std::min(size_ - 1, f0 + 2); ++f) ++near_[std::size_t(stones::make_point(f, r))];
}

void ThreatBoard::remove(int point) {
    cells_[std::size_t(cell_of(point))] = 0;
    const int f0 = stones::point_file(point), r0 = stones::point_rank(point);
    for (int r = std::max(0, r0 - 2); r <= std::min(size_ - 1, r0 + 2); ++r)
        for (int f = std::max(0, f0 - 2); f <= std::min(size_ - 1, f0 + 2); ++f) --near_[std::size_t(stones::make_point(f, r))];
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

int ThreatBoard::capture_pairs(int point, Color c) const {
    const std::uint8_t own = c == Color::black ? 1 : 2, enemy = c == Color::black ? 2 : 1;
    const int at = cell_of(point);
    int n = 0;
    for (int step : dirs)
        for (int s : {step, -step})
            if (cells_[std::size_t(at + s)] == enemy && cells_[std::size_t(at + 2 * s)] == enemy &&
                cells_[std::size_t(at + 3 * s)] == own)
                ++n;
    return n;
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
