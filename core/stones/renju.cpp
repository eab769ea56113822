#include "core/stones/renju.hpp"

#include <array>
#include <utility>

#include "core/stones/position.hpp"

namespace gounki::stones {

namespace {

// A padded board of Black's stones: no bounds checks, since every look along a line stops at a
// blocked cell (a white stone, or the pad around the board) before leaving the array.
constexpr int pad = 6;
constexpr int width = max_size + 2 * pad;
constexpr std::array<int, 4> dirs = {1, width, width + 1, width - 1};
constexpr std::uint8_t empty = 0, black = 1, blocked = 2;

struct Board {
    std::array<std::uint8_t, std::size_t(width* width)> cells;
    std::uint8_t& operator[](int c) { return cells[std::size_t(c)]; }
    std::uint8_t operator[](int c) const { return cells[std::size_t(c)]; }
};

int cell_of(int point) { return (point_rank(point) + pad) * width + point_file(point) + pad; }

// The black stones in a row through the black `c` along `d`.
int run(const Board& b, int c, int d) {
    int n = 1;
    for (int x = c + d; b[x] == black; x += d) ++n;
    for (int x = c - d; b[x] == black; x -= d) ++n;
    return n;
}

// Black stones within four points of `c` along `d`, either way (a quick bound: a four needs three,
// a three two).
int neighbours(const Board& b, int c, int d) {
    int n = 0;
    for (int k = 1; k <= 4; ++k) n += (b[c + k * d] == black) + (b[c - k * d] == black);
    return n;
}

// The points (as offsets from `c`, -4..4) where one more black stone makes an exact five through
// the black `c` along `d`. `c` is in no five yet, so such a five holds the new stone too.
struct FivePoints {
    std::array<int, 8> at{};
    int n = 0;
};
FivePoints five_points(Board& b, int c, int d) {
    FivePoints out;
    for (int k = -4; k <= 4; ++k) {
        const int e = c + k * d;
        if (k == 0 || b[e] != empty) continue;
        b[e] = black;
        if (run(b, c, d) == 5) out.at[std::size_t(out.n++)] = k;
        b[e] = empty;
    }
    return out;
}

// Two five points five apart are the two ends of one straight four (`_XXXX_`): the same four stones.
int straight_pairs(const FivePoints& f) {
    int n = 0;
    for (int i = 0; i < f.n; ++i)
        for (int j = i + 1; j < f.n; ++j) n += f.at[std::size_t(j)] - f.at[std::size_t(i)] == 5;
    return n;
}

// The fours through the black `c` along `d`: a straight four counts once, `X_XXX_X` twice.
int fours(Board& b, int c, int d) {
    const FivePoints f = five_points(b, c, d);
    return f.n - straight_pairs(f);
}

Forbidden judge(Board& b, int c, int depth);

// Whether Black may play the empty `c`: the judgement with the stone placed, then taken back.
Forbidden forbidden_at(Board& b, int c, int depth) {
    b[c] = black;
    const Forbidden f = judge(b, c, depth);
    b[c] = empty;
    return f;
}

// Whether the black `c`, in no four along `d`, makes a three there: an empty point of the line
// where one more stone makes a straight four through `c` (and so through that point), and that
// point is not forbidden to Black.
bool three(Board& b, int c, int d, int depth) {
    for (int k = -4; k <= 4; ++k) {
        const int e = c + k * d;
        if (k == 0 || b[e] != empty) continue;
        b[e] = black;
        const bool straight = straight_pairs(five_points(b, c, d)) > 0;
        b[e] = empty;
        if (straight && forbidden_at(b, e, depth + 1) == Forbidden::none) return true;
    }
    return false;
}

// The black stone just placed on `c`: an exact five first (it wins), then overline, double-four,
// double-three.
Forbidden judge(Board& b, int c, int depth) {
    bool overline = false;
    for (int d : dirs) {
        const int r = run(b, c, d);
        if (r == 5) return Forbidden::none;
        overline |= r > 5;
    }
    if (overline) return Forbidden::overline;
    std::array<int, 4> near{};
    std::array<bool, 4> four{};
    int four_count = 0;
    for (std::size_t i = 0; i < dirs.size(); ++i) {
        near[i] = neighbours(b, c, dirs[i]);
        if (near[i] < 3) continue;
        const int n = fours(b, c, dirs[i]);
        four[i] = n > 0;
        four_count += n;
    }
    if (four_count >= 2) return Forbidden::double_four;
    if (depth >= renju_depth_limit) return Forbidden::none;
    int candidates = 0;
    for (std::size_t i = 0; i < dirs.size(); ++i) candidates += near[i] >= 2 && !four[i];
    if (candidates < 2) return Forbidden::none;
    int threes = 0;
    for (std::size_t i = 0; i < dirs.size(); ++i)
        if (near[i] >= 2 && !four[i] && three(b, c, dirs[i], depth) && ++threes == 2) return Forbidden::double_three;
    return Forbidden::none;
}

// Whether the lines through the empty `point` hold enough black stones for a forbidden shape: an
// overline or a four needs three others within four points on one line, a double-three two on each
// of two lines (judge's own bounds). Most points of a game fail it, and skip the board's copy.
bool may_be_forbidden(const StonePosition& pos, int point) {
    const int f0 = point_file(point), r0 = point_rank(point);
    int lines_of_two = 0;
    for (const auto& [df, dr] : {std::pair{1, 0}, std::pair{0, 1}, std::pair{1, 1}, std::pair{1, -1}}) {
        int n = 0;
        for (int k = -4; k <= 4; ++k)
            n += k != 0 && pos.on_board(f0 + k * df, r0 + k * dr) && pos.at(make_point(f0 + k * df, r0 + k * dr)) == Stone::black;
        if (n >= 3) return true;
        lines_of_two += n >= 2;
    }
    return lines_of_two >= 2;
}

} // namespace

Forbidden renju_forbidden(const StonePosition& pos, int point) {
    if (!pos.on_board(point) || pos.at(point) != Stone::empty || !may_be_forbidden(pos, point)) return Forbidden::none;
    Board b;
    b.cells.fill(blocked);
    for (int r = 0; r < pos.size(); ++r)
        for (int f = 0; f < pos.size(); ++f) {
            const Stone s = pos.at(make_point(f, r));
            b[cell_of(make_point(f, r))] = s == Stone::empty ? empty : s == Stone::black ? black : blocked;
        }
    return forbidden_at(b, cell_of(point), 0);
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

} // namespace gounki::stones
