#include "core/gounki/movegen.hpp"

#include <algorithm>
#include <bit>

#include "core/gounki/deploy.hpp"
#include "core/gounki/tables.hpp"

namespace gounki {

bool MoveList::contains(Move m) const { return std::find(begin(), end(), m) != end(); }

namespace {

// Walks every move of the stack on `from` and reports them to `sink`, each exactly once:
//   sink.movements(from, destinations)  a bitboard of the movement destinations,
//   sink.exit(from)                     at most once per stack (all exiting walks are one move),
//   sink.deployment(from, Deploy, out)  once per distinct sequence of placed squares.
template <class Sink, bool Deployments = true>
inline void walk_stack(const Position& pos, Square from, Sink& sink) {
    const Color us = pos.side_to_move();
    const Stack st = pos.at(from);
    const std::uint64_t own = pos.occupancy(us) & ~square_bb(from); // the origin counts as empty
    const std::uint64_t enemy = pos.occupancy(~us);
    const int range[2] = {st.rounds(), st.squares()};

    std::uint64_t dests = 0;
    bool exits = false;
    for (int k = 0; k < 2; ++k) {
        const PieceKind kind = PieceKind(k);
        for (int dir = 0; dir < direction_count(kind) && range[k]; ++dir) {
            for (int i = 0; i < range[k]; ++i) {
                const std::int8_t t = walk_step(us, kind, dir, from, i);
                if (t == step_none) break;
                if (t == step_out) {
                    exits = true;
                    break;
                }
                const std::uint64_t bb = square_bb(t);
                if (enemy & bb) {
                    dests |= bb;
                    break;
                }
                if (own & bb) {
                    if (pos.at(t).size() + st.size() <= 3) dests |= bb;
                    break;
                }
                dests |= bb;
            }
        }
    }
    sink.movements(from, dests);
    if (exits) sink.exit(from); // a deployment whose first step leaves the board is this move too

    if constexpr (!Deployments) return;
    if (st.size() < 2) return;
    for_each_deployment(pos, us, from, st, [&](const Deploy& d, bool out) {
        if (d.placed > 0) sink.deployment(from, d, out); // nothing laid: the exit, reported above
        return false;
    });
}

struct ListSink {
    MoveList& list;
    void movements(Square from, std::uint64_t dests) {
        for (; dests; dests &= dests - 1) list.push(Move::movement(from, std::countr_zero(dests)));
    }
    void exit(Square from) { list.push(Move::exit(from)); }
    void deployment(Square from, const Deploy& d, bool out) {
        list.push(Move::deployment(from, d.squares, d.placed, d.round_mask, out));
    }
};

struct TargetSink {
    MovementTargets& out;
    void movements(Square, std::uint64_t dests) { out.destinations = dests; }
    void exit(Square) { out.exits = true; }
    void deployment(Square, const Deploy&, bool) {}
};

struct CountSink {
    int count = 0;
    void movements(Square, std::uint64_t dests) { count += std::popcount(dests); }
    void exit(Square) { ++count; }
    void deployment(Square, const Deploy&, bool) { ++count; }
};

} // namespace

void generate_moves_from(const Position& pos, Square from, MoveList& out) {
    if (pos.game_over()) return;
    ListSink sink{out};
    walk_stack(pos, from, sink);
}

MovementTargets movement_targets(const Position& pos, Square from) {
    MovementTargets t;
    if (pos.game_over()) return t;
    TargetSink sink{t};
    walk_stack<TargetSink, false>(pos, from, sink);
    return t;
}

bool movement_reaches(const Position& pos, Square from, Square to) {
    if (pos.game_over() || !is_square(to)) return false;
    const Color us = pos.side_to_move();
    const Stack st = pos.at(from);
    if (st.is_empty() || st.color() != us) return false;
    const std::uint64_t occupied = (pos.occupancy(us) | pos.occupancy(~us)) & ~square_bb(from); // origin: empty
    const int range[2] = {st.rounds(), st.squares()};
    // Bits dir * max_steps + step of the steps within a range of 0, 1, 2, 3.
    static constexpr unsigned within[4] = {0, 0x49, 0xDB, 0x1FF};
    for (int k = 0; k < 2; ++k) {
        const PieceKind kind = PieceKind(k);
        for (unsigned bits = walks_reaching(us, kind, from, to) & within[range[k]]; bits; bits &= bits - 1) {
            const int b = std::countr_zero(bits);
            const int dir = b / max_steps, step = b % max_steps;
            bool clear = true; // the walk passes only empty squares before `to`
            for (int i = 0; i < step && clear; ++i) clear = !(occupied & square_bb(walk_step(us, kind, dir, from, i)));
            if (!clear) continue;
            if (!(occupied & square_bb(to))) return true;
            const Stack there = pos.at(to);
            if (there.color() != us || there.size() + st.size() <= 3) return true; // a capture, or a join
        }
    }
    return false;
}

Move find_deployment(const Position& pos, Square from, const Square* squares, int placed, bool out) {
    if (pos.game_over() || placed < 1 || placed > 3) return Move::none();
    const Color us = pos.side_to_move();
    const Stack st = pos.at(from);
    if (st.is_empty() || st.color() != us || st.size() < 2) return Move::none();
    const int range[2] = {st.rounds(), st.squares()};
    auto same = [&](const Deploy& d, int from_piece) {
        for (int i = from_piece; i < d.placed; ++i)
            if (i >= placed || d.squares[i] != squares[i]) return false;
        return true;
    };
    // The walk_stack order, keeping only the walks that follow the written squares.
    for (const auto [k1, k2] : deploy_orders) {
        const int n1 = range[int(k1)], n2 = range[int(k2)];
        if (n1 == 0) continue;
        for (int d1 = 0; d1 < direction_count(k1); ++d1) {
            if (walk_step(us, k1, d1, from, 0) != squares[0]) continue;
            Deploy first;
            const Lay r1 = lay(pos, us, from, k1, d1, from, n1, first);
            if (r1 == Lay::illegal || !same(first, 0)) continue;
            if (r1 == Lay::out || n2 == 0) {
                if (first.placed == placed && (r1 == Lay::out) == out)
                    return Move::deployment(from, first.squares, first.placed, first.round_mask, out);
                continue;
            }
            const Square last = first.squares[first.placed - 1];
            for (int d2 = 0; d2 < direction_count(k2); ++d2) {
                const std::int8_t t = walk_step(us, k2, d2, last, 0);
                // The second kind's first step: onto the next written square, or off the board
                // when the written move ends there.
                if (first.placed < placed ? t != squares[first.placed] : !(out && t == step_out)) continue;
                Deploy both = first;
                const Lay r2 = lay(pos, us, from, k2, d2, last, n2, both);
                if (r2 == Lay::illegal || both.placed != placed || (r2 == Lay::out) != out || !same(both, first.placed)) continue;
                return Move::deployment(from, both.squares, both.placed, both.round_mask, out);
            }
        }
    }
    return Move::none();
}

void generate_moves(const Position& pos, MoveList& out) {
    if (pos.game_over()) return;
    ListSink sink{out};
    for (std::uint64_t b = pos.occupancy(pos.side_to_move()); b; b &= b - 1) walk_stack(pos, std::countr_zero(b), sink);
}

namespace {

constexpr std::uint64_t file_a = 0x0101010101010101ull;
constexpr std::uint64_t file_h = file_a << 7;
constexpr std::uint64_t rank_1 = 0xFFull;
constexpr std::uint64_t rank_8 = rank_1 << 56;

// Single pieces move one step and cannot bounce (a first step never bounces), so all of them are
// counted at once with shifts, one shift per direction and kind: each shifted bit is one move of
// one piece. A step is legal onto any square but an own full stack; a step past the last rank is
// the piece's exit (the shift drops it) and counts once.
int count_single_moves(const Position& pos, Color us, std::uint64_t& singles) {
    const std::uint64_t rounds = pos.stacks_of(Stack(us, 1, 0));
    const std::uint64_t squares = pos.stacks_of(Stack(us, 0, 1));
    singles = rounds | squares;
    std::uint64_t full = 0;
    for (int r = 0; r <= 3; ++r) full |= pos.stacks_of(Stack(us, r, 3 - r));
    const std::uint64_t allowed = ~full;
    const bool white = us == Color::white;
    const std::uint64_t round_left = white ? (rounds & ~file_a) << 7 : (rounds & ~file_a) >> 9;
    const std::uint64_t round_right = white ? (rounds & ~file_h) << 9 : (rounds & ~file_h) >> 7;
    const std::uint64_t square_ahead = white ? squares << 8 : squares >> 8;
    const std::uint64_t square_left = (squares & ~file_a) >> 1;
    const std::uint64_t square_right = (squares & ~file_h) << 1;
    const std::uint64_t exits = singles & (white ? rank_8 : rank_1);
    return std::popcount(round_left & allowed) + std::popcount(round_right & allowed) + std::popcount(square_ahead & allowed) +
        std::popcount(square_left & allowed) + std::popcount(square_right & allowed) + std::popcount(exits);
}

} // namespace

// The moves of a stack of two pieces, counted without building them. Same rules as walk_stack,
// simpler because of the size: a walk has at most 2 steps, no two walks of a 2-stack reach one
// square, and the two pieces of a deployment always land on different squares.
//   full:     own stacks of 3 (no piece may be added), plus the enemy (deployments never capture)
//   own_big:  own stacks of 2 or 3 (a 2-stack cannot join them)
int count_double(Color us, Square from, Stack st, std::uint64_t occupied, std::uint64_t no_place, std::uint64_t own_big) {
    const int range[2] = {st.rounds(), st.squares()};
    const std::uint64_t origin = square_bb(from);
    occupied &= ~origin; // the origin counts as empty once the stack has left it
    int count = 0;
    bool exits = false;
    for (int k = 0; k < 2; ++k) {
        const PieceKind kind = PieceKind(k);
        if (!range[k]) continue;
        for (int dir = 0; dir < direction_count(kind); ++dir) {
            const std::int8_t t1 = walk_step(us, kind, dir, from, 0);
            if (t1 == step_none) continue;
            if (t1 == step_out) {
                exits = true;
                continue;
            }
            const std::uint64_t b1 = square_bb(t1);
            // Movement: one step, or two when the stack holds two of this kind.
            if (!(own_big & b1)) ++count;
            if (range[k] == 2 && !(occupied & b1)) {
                const std::int8_t t2 = walk_step(us, kind, dir, from, 1);
                if (t2 == step_out) exits = true;
                else if (!(own_big & square_bb(t2) & ~origin) || t2 == from) ++count;
            }
            // Deployment starting with a piece of this kind on t1.
            if (no_place & b1) continue;
            if (range[k] == 2) {
                const std::int8_t t2 = walk_step(us, kind, dir, from, 1);
                count += t2 == step_out || t2 == from || !(no_place & square_bb(t2));
                continue;
            }
            const PieceKind other = PieceKind(k ^ 1);
            bool out = false;
            for (int d2 = 0; d2 < direction_count(other); ++d2) {
                const std::int8_t t2 = walk_step(us, other, d2, t1, 0);
                if (t2 == step_none) continue;
                if (t2 == step_out) {
                    out = true;
                    continue;
                }
                count += t2 == from || !(no_place & square_bb(t2));
            }
            count += out;
        }
    }
    return count + exits;
}

int count_moves(const Position& pos) {
    if (pos.game_over()) return 0;
    const Color us = pos.side_to_move();
    std::uint64_t singles = 0;
    CountSink sink;
    sink.count = count_single_moves(pos, us, singles);
    std::uint64_t full = 0, doubles = 0;
    for (int r = 0; r <= 3; ++r) full |= pos.stacks_of(Stack(us, r, 3 - r));
    for (int r = 0; r <= 2; ++r) doubles |= pos.stacks_of(Stack(us, r, 2 - r));
    const std::uint64_t enemy = pos.occupancy(~us);
    for (std::uint64_t b = doubles; b; b &= b - 1) {
        const Square from = std::countr_zero(b);
        sink.count += count_double(us, from, pos.at(from), pos.occupancy(), enemy | full, full | doubles);
    }
    for (std::uint64_t b = full; b; b &= b - 1) walk_stack(pos, std::countr_zero(b), sink);
    return sink.count;
}

} // namespace gounki
