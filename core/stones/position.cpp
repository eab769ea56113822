#include "core/stones/position.hpp"
#include "core/text.hpp"

#include <algorithm>
#include <bitset>
#include <charconv>
#include <cstdlib>

#include "core/stones/renju.hpp"
#include "core/stones/symmetry.hpp"

namespace gounki::stones {

namespace {

// The four line directions (file step, rank step); captures also use their opposites.
constexpr int line_dirs[4][2] = {{1, 0}, {0, 1}, {1, 1}, {1, -1}};

constexpr std::uint64_t splitmix(std::uint64_t& state) {
    std::uint64_t z = (state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

constexpr int max_captured_key = 32;
constexpr int legacy_points = legacy_size * legacy_size;
constexpr int kinds = 8; // room for GameKind values to come

// The random numbers of the position keys. The values that existed before 20x20 boards and new
// games come out of the generator in the same order as then (the stones of the 361 points of the
// 19x19 corner by their stored number, captured counts, side, pending fives, the first three
// game kinds, 19x19, the two Ninuki options), so every key of a 15x15 or 19x19 Gomoku or Ninuki
// position is what it was; the newer ones are drawn after them.
struct Zobrist {
    std::uint64_t stone[point_count][2]{}; // by point (not by stored number)
    std::uint64_t captured[2][max_captured_key]{};
    std::uint64_t side = 0; // White to move
    std::uint64_t pending[3]{};
    std::uint64_t kind[kinds]{};
    std::uint64_t size19 = 0, size20 = 0;
    std::uint64_t option[8]{}; // by row of rule_options(), when the option differs from the game's default

    constexpr Zobrist() {
        std::uint64_t s = 0x5EED0F57011E5ull;
        for (int i = 0; i < legacy_points; ++i)
            for (auto& v : stone[point_from_stored(i)]) v = splitmix(s);
        for (auto& c : captured)
            for (auto& v : c) v = splitmix(s);
        side = splitmix(s);
        for (auto& v : pending) v = splitmix(s);
        for (int k = 0; k < 3; ++k) kind[k] = splitmix(s);
        size19 = splitmix(s);
        option[0] = splitmix(s); // end-game capture off (Ninuki)
        option[1] = splitmix(s); // double-threes allowed (Ninuki)
        // Drawn after everything above, so that nothing above moves.
        for (int i = legacy_points; i < point_count; ++i)
            for (auto& v : stone[point_from_stored(i)]) v = splitmix(s);
        for (int k = 3; k < kinds; ++k) kind[k] = splitmix(s);
        size20 = splitmix(s);
        for (int o = 2; o < 8; ++o) option[o] = splitmix(s);
        pending[0] = 0;
        captured[0][0] = captured[1][0] = 0;
    }
};

constexpr Zobrist zobrist{};

std::uint64_t rules_key(const Rules& r) {
    std::uint64_t k = zobrist.kind[int(r.kind)];
    if (r.size == 19) k ^= zobrist.size19;
    if (r.size == 20) k ^= zobrist.size20;
    const Rules base = Rules::defaults(r.kind);
    const auto options = rule_options();
    for (std::size_t o = 0; o < options.size(); ++o) {
        const RuleOption& opt = options[o];
        if (opt.in_key && opt.accepted(r.kind) && r.*(opt.field) != base.*(opt.field)) k ^= zobrist.option[o];
    }
    return k;
}

std::uint64_t captured_key(int by, int count) {
    return zobrist.captured[by][count < max_captured_key ? count : max_captured_key - 1];
}

} // namespace

std::string_view place_error_text(PlaceError e) {
    switch (e) {
    case PlaceError::none: return "legal";
    case PlaceError::off_board: return "the point is off the board";
    case PlaceError::occupied: return "the point is occupied";
    case PlaceError::double_three: return "the stone makes two free threes at once (double-three, forbidden)";
    case PlaceError::game_over: return "the game has already ended";
    case PlaceError::double_four: return "the stone makes two fours at once (double-four, forbidden)";
    case PlaceError::overline: return "the stone makes six or more in a row (overline, forbidden)";
    }
    return "?";
}

std::string occupied_text(const StonePosition& pos, int point) {
    return "the point " + point_name(point) + " is occupied by a " + (pos.at(point) == Stone::black ? "black" : "white") +
        " stone";
}

std::string game_over_text(const StonePosition& pos) {
    return "the game is already over: " +
        (pos.outcome() == Outcome::draw ? std::string("the board is full")
                                        : std::string(pos.outcome() == Outcome::black_wins ? "Black" : "White") + " made five");
}

// ---------------------------------------------------------------------------------------------

// An empty board, the first mover to move, nothing captured: the key is the rules' part and the side
// (records and resolvers make one per game, so no 361-point loop here).
StonePosition::StonePosition(Rules rules) : rules_(rules) {
    key_ = rules_key(rules_);
    set_side_to_move(first_mover(rules_.kind));
}

std::optional<Color> StonePosition::pending_five() const {
    if (pending_ == 0) return std::nullopt;
    return Color(pending_ - 1);
}

std::uint64_t StonePosition::compute_key() const {
    std::uint64_t k = rules_key(rules_);
    for (int p = 0; p < point_count; ++p)
        if (board_[std::size_t(p)] != Stone::empty) k ^= zobrist.stone[p][board_[std::size_t(p)] == Stone::white ? 1 : 0];
    if (side_ == Color::white) k ^= zobrist.side;
    k ^= captured_key(0, captured_[0]) ^ captured_key(1, captured_[1]);
    k ^= zobrist.pending[pending_];
    return k;
}

std::uint64_t stone_key(int point, Stone stone) { return zobrist.stone[point][stone == Stone::white ? 1 : 0]; }

void StonePosition::set(int p, Stone s) {
    const Stone old = board_[std::size_t(p)];
    if (old != Stone::empty) {
        key_ ^= zobrist.stone[p][old == Stone::white ? 1 : 0];
        --stones_;
        black_stones_ -= old == Stone::black;
    }
    if (s != Stone::empty) {
        key_ ^= zobrist.stone[p][s == Stone::white ? 1 : 0];
        ++stones_;
        black_stones_ += s == Stone::black;
    }
    board_[std::size_t(p)] = s;
}

void StonePosition::put(int point, Stone s) { set(point, s); }

void StonePosition::set_side_to_move(Color c) {
    if (c != side_) key_ ^= zobrist.side;
    side_ = c;
}

void StonePosition::set_captured(Color by, int count) {
    key_ ^= captured_key(index(by), captured_[index(by)]) ^ captured_key(index(by), count);
    captured_[index(by)] = count;
}

bool StonePosition::five_through(int point, Color c) const {
    const Stone s = stone_of(c);
    const bool overline_wins = rules_.overline_wins(c);
    const int f0 = point_file(point), r0 = point_rank(point), last = size() - 1;
    const int right = last - f0, up = last - r0, left = f0, down = r0; // the room each way
    // The stones of `c` in a row from the point along `step`, at most `room` of them (the board's edge).
    auto count = [&](int step, int room) {
        int n = 0;
        while (n < room && at(point + (n + 1) * step) == s) ++n;
        return n;
    };
    auto five = [&](int step, int room, int back_room) {
        const int run = 1 + count(step, room) + count(-step, back_room);
        return run == 5 || (run > 5 && overline_wins);
    };
    // The four lines (line_dirs' order): across, up, diagonal, anti-diagonal.
    return five(1, right, left) || five(stride, up, down) || five(stride + 1, std::min(right, up), std::min(left, down)) ||
        five(1 - stride, std::min(right, down), std::min(left, up));
}

template <class F>
void StonePosition::for_each_stone(Stone s, F&& f) const {
    // Eight points a word: a byte of the word xor s's byte is zero exactly at s's points, and the
    // exact zero-byte test marks them by their top bit (no borrow between bytes).
    static_assert(point_count % 8 == 0);
    constexpr std::uint64_t low7 = 0x7f7f7f7f7f7f7f7full;
    const std::uint64_t pattern = 0x0101010101010101ull * std::uint64_t(s);
    for (int w = 0; w < point_count; w += 8) {
        std::uint64_t v;
        __builtin_memcpy(&v, board_.data() + w, 8);
        v ^= pattern;
        for (std::uint64_t hits = ~(((v & low7) + low7) | v | low7); hits; hits &= hits - 1) {
            const int p = w + __builtin_ctzll(hits) / 8;
            if (on_board(p)) f(p);
        }
    }
}

bool StonePosition::has_five(Color c) const {
    const Stone s = stone_of(c);
    const bool overline_wins = rules_.overline_wins(c);
    const int last = size() - 1;
    bool found = false;
    for_each_stone(s, [&](int p) {
        if (found) return;
        const int f = point_file(p), r = point_rank(p);
        // The four lines (line_dirs' order): the step, the room ahead and behind (the board's edge).
        const int lines[4][3] = {{1, last - f, f},
                                 {stride, last - r, r},
                                 {stride + 1, std::min(last - f, last - r), std::min(f, r)},
                                 {1 - stride, std::min(last - f, r), std::min(f, last - r)}};
        for (const auto& [step, ahead, behind] : lines) {
            if (behind > 0 && at(p - step) == s) continue; // counted from the first stone of its run
            int run = 1;
            while (run <= ahead && at(p + run * step) == s) ++run;
            if (run == 5 || (run > 5 && overline_wins)) found = true;
        }
    });
    return found;
}

int StonePosition::captures_at(int point, Color c, std::array<std::int16_t, 16>& out) const {
    if (!rules_.captures()) return 0;
    const Stone own = stone_of(c), enemy = stone_of(~c);
    const int f0 = point_file(point), r0 = point_rank(point);
    int n = 0;
    for (const auto& d : line_dirs)
        for (int sign = -1; sign <= 1; sign += 2) {
            const int df = sign * d[0], dr = sign * d[1];
            if (!on_board(f0 + 3 * df, r0 + 3 * dr)) continue;
            const int a = make_point(f0 + df, r0 + dr), b = make_point(f0 + 2 * df, r0 + 2 * dr);
            if (at(a) == enemy && at(b) == enemy && at(make_point(f0 + 3 * df, r0 + 3 * dr)) == own) {
                out[std::size_t(n++)] = std::int16_t(a);
                out[std::size_t(n++)] = std::int16_t(b);
            }
        }
    return n;
}

int StonePosition::free_threes_at(int point, Color c) const {
    // Windows of six points: '_' empty on the board, 'X' a stone of c (the new one included), as
    // the bits of c's stones in the window (first point the lowest bit): _XXX__, __XXX_, _X_XX_,
    // _XX_X_. Every other point of a window must be empty.
    auto free_three = [](unsigned x) { return x == 0x0e || x == 0x1c || x == 0x1a || x == 0x16; };
    const Stone own = stone_of(c), enemy = stone_of(~c);
    const int f0 = point_file(point), r0 = point_rank(point), last = size() - 1;
    // The four lines (line_dirs' order): the step, the room ahead and behind (the board's edge).
    const int lines[4][3] = {{1, last - f0, f0},
                             {stride, last - r0, r0},
                             {stride + 1, std::min(last - f0, last - r0), std::min(f0, r0)},
                             {1 - stride, std::min(last - f0, r0), std::min(f0, last - r0)}};
    int count = 0;
    for (const auto& [step, ahead, behind] : lines) {
        // Bit 5 + i for the point i steps along the line (-5..5): c's stones, and the points that
        // are c's or empty (enemy stones and points off the board are neither).
        unsigned mine = 1u << 5, open = 1u << 5;
        for (int i = 1; i <= std::min(ahead, 5); ++i) {
            const Stone s = at(point + i * step);
            mine |= unsigned(s == own) << (5 + i);
            open |= unsigned(s != enemy) << (5 + i);
        }
        for (int i = 1; i <= std::min(behind, 5); ++i) {
            const Stone s = at(point - i * step);
            mine |= unsigned(s == own) << (5 - i);
            open |= unsigned(s != enemy) << (5 - i);
        }
        bool found = false;
        for (int start = 0; start <= 5 && !found; ++start) // the window of bits start..start+5 holds bit 5
            found = ((open >> start) & 0x3f) == 0x3f && free_three((mine >> start) & 0x3f);
        count += found;
    }
    return count;
}

bool StonePosition::five_breakable(Color mover) const {
    if (!rules_.captures()) return false;
    const Color opp = ~mover;
    const Stone own = stone_of(mover), theirs = stone_of(opp);
    // The points where the opponent captures: two of the mover's stones between the opponent's
    // stone and an empty point, found from the opponent's stones (far fewer than the empty points).
    std::bitset<point_count> seen;
    std::array<std::int16_t, point_count> points;
    int count = 0;
    const int last = size() - 1;
    // The 8 directions: the step and the room to the board's edge that way.
    static constexpr int steps[8] = {1, -1, stride, -stride, stride + 1, -stride - 1, 1 - stride, stride - 1};
    for_each_stone(theirs, [&](int p) {
        const int f = point_file(p), r = point_rank(p);
        const int room[8] = {
            last - f, f, last - r, r, std::min(last - f, last - r), std::min(f, r), std::min(last - f, r), std::min(f, last - r)};
        for (int k = 0; k < 8; ++k) {
            const int step = steps[k], q = p + 3 * step;
            if (room[k] < 3 || at(p + step) != own || at(p + 2 * step) != own || at(q) != Stone::empty ||
                seen.test(std::size_t(q)))
                continue;
            seen.set(std::size_t(q));
            points[std::size_t(count++)] = std::int16_t(q);
        }
    });
    if (count == 0) return false;
    if (captured_[index(opp)] >= 8) return true; // any capture takes two stones or more: the tenth
    // Each capture tried on one copy of the board, its stones put back after the look (in any
    // order: the answer is whether one capture breaks every five or reaches ten).
    StonePosition after = *this;
    std::array<std::int16_t, 16> taken;
    for (int i = 0; i < count; ++i) {
        const int n = captures_at(points[std::size_t(i)], opp, taken);
        if (captured_[index(opp)] + n >= 10) return true;
        for (int k = 0; k < n; ++k) after.board_[std::size_t(taken[std::size_t(k)])] = Stone::empty;
        const bool five_stands = after.has_five(mover);
        for (int k = 0; k < n; ++k) after.board_[std::size_t(taken[std::size_t(k)])] = own;
        if (!five_stands) return true;
    }
    return false;
}

Outcome StonePosition::decide(Color mover, int point, bool) {
    const Color opp = ~mover;
    const std::uint8_t old_pending = pending_;
    auto set_pending = [&](std::uint8_t v) {
        key_ ^= zobrist.pending[pending_] ^ zobrist.pending[v];
        pending_ = v;
    };
    if (rules_.captures() && captured_[index(mover)] >= 10) {
        set_pending(0);
        return win_for(mover);
    }
    if (old_pending == 1 + index(opp)) {
        set_pending(0);
        if (has_five(opp)) return win_for(opp); // the opponent's five stood through this move
    }
    if (five_through(point, mover)) {
        if (rules_.captures() && rules_.endgame_capture && five_breakable(mover)) {
            set_pending(std::uint8_t(1 + index(mover)));
            return Outcome::none;
        }
        return win_for(mover);
    }
    if (stones_ == size() * size()) return Outcome::draw;
    return Outcome::none;
}

bool StonePosition::wins_at_once(int p) const {
    // Only for a placement that captures nothing (a capture is never a forbidden double-three).
    StonePosition after = *this;
    after.board_[std::size_t(p)] = stone_of(side_);
    if (pending_ == 1 + index(~side_) && after.has_five(~side_)) return false; // the opponent's five wins first
    if (!after.five_through(p, side_)) return false;
    return !(rules_.captures() && rules_.endgame_capture && after.five_breakable(side_));
}

PlaceError StonePosition::check(Move move) const {
    if (game_over()) return PlaceError::game_over;
    if (move.type() != MoveType::placement || !on_board(move.point())) return PlaceError::off_board;
    const int p = move.point();
    if (at(p) != Stone::empty) return PlaceError::occupied;
    if (rules_.captures() && rules_.no_double_three) {
        std::array<std::int16_t, 16> taken;
        if (captures_at(p, side_, taken) > 0) return PlaceError::none;
        if (free_threes_at(p, side_) >= 2 && !wins_at_once(p)) return PlaceError::double_three;
    }
    if (rules_.forbidden_for(side_)) {
        constexpr PlaceError errors[] = {PlaceError::none, PlaceError::double_three, PlaceError::double_four,
                                         PlaceError::overline};
        return errors[std::size_t(renju_forbidden(*this, p))];
    }
    return PlaceError::none;
}

bool StonePosition::breaks_tournament_rule(int point) const {
    if (!rules_.tournament_rule || side_ != first_mover(rules_.kind) || captured_[0] + captured_[1] != 0) return false;
    const int centre = size() / 2;
    const int distance = std::max(std::abs(point_file(point) - centre), std::abs(point_rank(point) - centre));
    if (stones_ == 0) return distance != 0;
    return stones_ == 2 && distance < 3;
}

std::string_view StonePosition::tournament_rule_text() const {
    return stones_ == 0 ? "the first stone is not on the centre, as the tournament rule says; played all the same"
                        : "the first player's second stone is less than three points from the centre (the tournament "
                          "rule); played all the same";
}

std::vector<Move> StonePosition::legal_moves() const {
    std::vector<Move> out;
    if (game_over()) return out;
    for (int r = 0; r < size(); ++r)
        for (int f = 0; f < size(); ++f) {
            const Move m = Move::placement(make_point(f, r));
            if (check(m) == PlaceError::none) out.push_back(m);
        }
    return out;
}

void StonePosition::play(Move move, StoneUndo& undo) {
    const int p = move.point();
    const Color mover = side_;
    undo.point = p;
    undo.key = key_;
    undo.outcome = outcome_;
    undo.pending = pending_;
    undo.captured_count = captures_at(p, mover, undo.captured);
    set(p, stone_of(mover));
    for (int i = 0; i < undo.captured_count; ++i) set(undo.captured[std::size_t(i)], Stone::empty);
    if (undo.captured_count) set_captured(mover, captured_[index(mover)] + undo.captured_count);
    set_side_to_move(~mover);
    outcome_ = decide(mover, p, undo.captured_count > 0);
    // No legal move left (every empty point forbidden): the game is drawn.
    if (outcome_ == Outcome::none && rules_.double_three_forbidden(side_) && stones_ < size() * size() &&
        !surely_has_allowed_point()) {
        bool any = false;
        for (int r = 0; r < size() && !any; ++r)
            for (int f = 0; f < size() && !any; ++f) any = check(Move::placement(make_point(f, r))) == PlaceError::none;
        if (!any) outcome_ = Outcome::draw;
    }
}

bool StonePosition::surely_has_allowed_point() const {
    // A forbidden point (a double-three, a double-four, an overline) has at least four stones of
    // the side to move within four points of it along its lines: two on each of two lines, or
    // three or more on one. A stone lies within four points of at most 32 points (8 on each of its
    // 4 lines), so at most 8 points per stone are forbidden; more empty points than that leave one
    // allowed, with no point examined.
    const int own = side_ == Color::black ? black_stones_ : stones_ - black_stones_;
    return size() * size() - stones_ > 8 * own;
}

void StonePosition::undo(const StoneUndo& u) {
    const Color mover = ~side_;
    side_ = mover;
    board_[std::size_t(u.point)] = Stone::empty;
    --stones_;
    for (int i = 0; i < u.captured_count; ++i) board_[std::size_t(u.captured[std::size_t(i)])] = stone_of(~mover);
    stones_ += u.captured_count;
    black_stones_ += mover == Color::black ? -1 : u.captured_count;
    captured_[index(mover)] -= u.captured_count;
    key_ = u.key;
    outcome_ = u.outcome;
    pending_ = u.pending;
}

void StonePosition::update_outcome() {
    outcome_ = Outcome::none;
    const Color just_moved = ~side_;
    for (Color c : {just_moved, side_})
        if (rules_.captures() && captured_[index(c)] >= 10) {
            outcome_ = win_for(c);
            return;
        }
    if (pending_ != 0) {
        const Color owner = Color(pending_ - 1);
        if (owner != side_) return; // the opponent is to move and may break it
        key_ ^= zobrist.pending[pending_] ^ zobrist.pending[0];
        pending_ = 0;
        if (has_five(owner)) {
            outcome_ = win_for(owner); // it stood through a move
            return;
        }
    }
    if (has_five(side_)) {
        outcome_ = win_for(side_);
        return;
    }
    if (has_five(just_moved)) {
        if (rules_.captures() && rules_.endgame_capture && five_breakable(just_moved)) {
            key_ ^= zobrist.pending[pending_] ^ zobrist.pending[1 + index(just_moved)];
            pending_ = std::uint8_t(1 + index(just_moved));
        } else {
            outcome_ = win_for(just_moved);
        }
        return;
    }
    if (stones_ == size() * size()) outcome_ = Outcome::draw;
}

StonePosition StonePosition::transplanted(const StonePosition& pos, const Rules& rules) {
    StonePosition out(rules);
    const int shift = (rules.size - pos.size()) / 2;
    for (int r = 0; r < pos.size(); ++r)
        for (int f = 0; f < pos.size(); ++f) {
            const Stone s = pos.at(make_point(f, r));
            if (s != Stone::empty && out.on_board(f + shift, r + shift)) out.set(make_point(f + shift, r + shift), s);
        }
    out.set_side_to_move(pos.side_to_move());
    if (rules.captures())
        for (Color c : {Color::black, Color::white}) out.set_captured(c, pos.captured(c));
    out.update_outcome();
    return out;
}

} // namespace gounki::stones
