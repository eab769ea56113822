#include "core/stones/renju.hpp"

#include <algorithm>
#include <array>
#include <optional>

#include "core/stones/position.hpp"

namespace gounki::stones {

namespace {

// What a black stone on a point makes along one line depends only on the ten cells at offsets
// -5..-1 and 1..5 from it, each empty, black or blocked (a white stone, or off the board): a five
// or an overline through the point that reached offset 6 would already hold six stones, and a
// straight four made with one more stone lies within -5..5 as well. The ten cells are a number in
// base 3 (offset -5 the lowest digit), the line's code; a table made once holds, for every code,
// what the stone makes there (its shape).
constexpr std::uint8_t empty = 0, black = 1, blocked = 2; // also Stone's values, white as blocked
constexpr int reach = 5;
constexpr int code_count = 59049; // 3^10

// A shape: bit 0 an exact five, bit 1 an overline, bits 2-3 the fours (a straight four counts
// once, `X_XXX_X` twice), bits 4-12 the points at offsets -4..4 where one more black stone makes a
// straight four through the point (the three's points, before the recursion asks whether they are
// allowed).
using Shape = std::uint16_t;
constexpr Shape five_bit = 1, overline_bit = 2;
constexpr int fours_of(Shape s) { return (s >> 2) & 3; }
constexpr int straight_points(Shape s) { return s >> 4; }

// One line of cells -6..6 (index 0..12; the ends always blocked) for making the table.
struct Line {
    std::array<std::uint8_t, 13> cells;
    int run() const { // the black stones in a row through the middle
        int n = 1;
        for (int i = 7; cells[std::size_t(i)] == black; ++i) ++n;
        for (int i = 5; cells[std::size_t(i)] == black; --i) ++n;
        return n;
    }
    // The offsets (-4..4, as a 9-bit mask from -4) where one more black stone makes an exact five
    // through the middle, and how many fours those are.
    int five_points(int& fours) {
        int mask = 0, n = 0, pairs = 0;
        for (int k = -4; k <= 4; ++k) {
            std::uint8_t& e = cells[std::size_t(6 + k)];
            if (k == 0 || e != empty) continue;
            e = black;
            if (run() == 5) {
                mask |= 1 << (k + 4);
                ++n;
                pairs += k >= 1 && (mask >> (k - 1)) & 1; // the other end of a straight four, 5 apart
            }
            e = empty;
        }
        fours = n - pairs;
        return mask;
    }
    bool straight_four() {
        int fours = 0;
        const int mask = five_points(fours);
        for (int k = 1; k <= 4; ++k)
            if ((mask >> (k + 4)) & (mask >> (k - 1)) & 1) return true;
        return false;
    }
};

Shape shape_of(int code) {
    Line l;
    l.cells.fill(blocked);
    l.cells[6] = black;
    for (int j = 0; j < 2 * reach; ++j, code /= 3) l.cells[std::size_t(j < reach ? 1 + j : 2 + j)] = std::uint8_t(code % 3);
    const int r = l.run();
    if (r == 5) return five_bit;
    if (r > 5) return overline_bit;
    int fours = 0;
    l.five_points(fours);
    Shape s = Shape(std::min(fours, 3) << 2); // never more than 2 in a line; the field holds 3
    for (int k = -4; k <= 4; ++k) {
        std::uint8_t& e = l.cells[std::size_t(6 + k)];
        if (k == 0 || e != empty) continue;
        e = black;
        if (l.straight_four()) s |= Shape(1 << (k + 8));
        e = empty;
    }
    return s;
}

const std::array<Shape, code_count>& shapes() {
    static const auto table = [] {
        std::array<Shape, code_count> t{};
        for (int c = 0; c < code_count; ++c) t[std::size_t(c)] = shape_of(c);
        return t;
    }();
    return table;
}

// A padded board (cells as above) for the recursion: no bounds checks, since the pad around the
// board is wider than a line's reach.
constexpr int pad = reach + 1;
constexpr int width = max_size + 2 * pad;
constexpr std::array<int, 4> dirs = {1, width, width + 1, width - 1};

struct Board {
    std::array<std::uint8_t, std::size_t(width* width)> cells;
    std::uint8_t& operator[](int c) { return cells[std::size_t(c)]; }
    std::uint8_t operator[](int c) const { return cells[std::size_t(c)]; }
};

int cell_of(int point) { return (point_rank(point) + pad) * width + point_file(point) + pad; }

// The judgement of a black stone from its four lines' shapes: an exact five first (it wins), then
// overline, double-four, and double-three, where `allowed(i, k)` says whether the straight-four
// point at offset k along line i is itself allowed (the recursion).
template <class Allowed>
Forbidden verdict(const std::array<Shape, 4>& s, int depth, Allowed allowed) {
    bool overline = false;
    int fours = 0, candidates = 0;
    for (const Shape x : s) {
        if (x & five_bit) return Forbidden::none;
        overline |= (x & overline_bit) != 0;
        fours += fours_of(x);
        candidates += fours_of(x) == 0 && straight_points(x) != 0;
    }
    if (overline) return Forbidden::overline;
    if (fours >= 2) return Forbidden::double_four;
    if (depth >= renju_depth_limit || candidates < 2) return Forbidden::none;
    int threes = 0;
    for (std::size_t i = 0; i < s.size(); ++i) {
        if (fours_of(s[i]) != 0) continue;
        for (int k = -4, m = straight_points(s[i]); m != 0; ++k, m >>= 1)
            if ((m & 1) && allowed(i, k)) {
                if (++threes == 2) return Forbidden::double_three;
                break;
            }
    }
    return Forbidden::none;
}

Forbidden forbidden_at(Board& b, int c, int depth);

Forbidden judge(Board& b, int c, int depth) {
    const auto& table = shapes();
    std::array<Shape, 4> s;
    for (std::size_t i = 0; i < dirs.size(); ++i) {
        int code = 0;
        for (int k = reach; k >= 1; --k) code = code * 3 + b[c + k * dirs[i]];
        for (int k = -1; k >= -reach; --k) code = code * 3 + b[c + k * dirs[i]];
        s[i] = table[std::size_t(code)];
    }
    return verdict(s, depth, [&](std::size_t i, int k) {
        return forbidden_at(b, c + k * dirs[i], depth + 1) == Forbidden::none;
    });
}

// Whether Black may play the empty `c`: the judgement with the stone placed, then taken back.
Forbidden forbidden_at(Board& b, int c, int depth) {
    b[c] = black;
    const Forbidden f = judge(b, c, depth);
    b[c] = empty;
    return f;
}

} // namespace

Forbidden renju_forbidden(const StonePosition& pos, int point) {
    if (!pos.on_board(point) || pos.at(point) != Stone::empty) return Forbidden::none;
    // The first level reads the position itself; the padded board is made only when a
    // double-three must be settled by the recursion.
    const auto& table = shapes();
    const int f0 = point_file(point), r0 = point_rank(point), last = pos.size() - 1;
    constexpr int line_steps[4][2] = {{1, 0}, {0, 1}, {1, 1}, {-1, 1}};
    // How far the board reaches from the point along a step, up to `reach`.
    auto room = [&](int df, int dr) {
        const int by_file = df > 0 ? last - f0 : df < 0 ? f0 : reach;
        const int by_rank = dr > 0 ? last - r0 : dr < 0 ? r0 : reach;
        return std::min({by_file, by_rank, reach});
    };
    std::array<Shape, 4> s;
    for (std::size_t i = 0; i < 4; ++i) {
        const int df = line_steps[i][0], dr = line_steps[i][1], step = dr * stride + df;
        const int ahead = room(df, dr), behind = room(-df, -dr);
        int code = 0;
        for (int k = reach; k >= 1; --k) code = code * 3 + (k <= ahead ? int(pos.at(point + k * step)) : blocked);
        for (int k = 1; k <= reach; ++k) code = code * 3 + (k <= behind ? int(pos.at(point - k * step)) : blocked);
        s[i] = table[std::size_t(code)];
    }
    std::optional<Board> b;
    const int c = cell_of(point);
    return verdict(s, 0, [&](std::size_t i, int k) {
        if (!b) {
            b.emplace();
            b->cells.fill(blocked);
            for (int r = 0; r < pos.size(); ++r)
                for (int f = 0; f < pos.size(); ++f) (*b)[cell_of(make_point(f, r))] = std::uint8_t(pos.at(make_point(f, r)));
            (*b)[c] = black;
        }
        return forbidden_at(*b, c + k * dirs[i], 1) == Forbidden::none;
    });
}

std::string_view forbidden_name(Forbidden f) {
    switch (f) {
    case Forbidden::none: return "allowed";
    case Forbidden::double_three: return "double-three";
    case Forbidden::double_four: return "double-four";
    case Forbidden::overline: return "overline";
    }
    return "?";
}

std::vector<std::pair<int, Forbidden>> forbidden_points(const StonePosition& pos) {
    std::vector<std::pair<int, Forbidden>> out;
    if (!pos.rules().forbidden_for(Color::black) || pos.game_over() || pos.side_to_move() != Color::black) return out;
    for (int r = 0; r < pos.size(); ++r)
        for (int f = 0; f < pos.size(); ++f)
            if (const Forbidden why = renju_forbidden(pos, make_point(f, r)); why != Forbidden::none) out.emplace_back(make_point(f, r), why);
    return out;
}

} // namespace gounki::stones
