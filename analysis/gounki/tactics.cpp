#include "analysis/gounki/tactics.hpp"

#include <bit>

#include "core/gounki/deploy.hpp"

namespace gounki::analysis {

namespace {

// Whether the walk of `steps` steps leaves the board with every square before the exit empty.
inline bool walk_exits(Color c, PieceKind kind, int dir, Square from, int steps, std::uint64_t occ) {
    for (int i = 0; i < steps; ++i) {
        const std::int8_t t = walk_step(c, kind, dir, from, i);
        if (t == step_none) return false;
        if (t == step_out) return true;
        if (occ & square_bb(t)) return false;
    }
    return false;
}

bool deployment_exits(const Position& pos, Color c, Square from, Stack st) {
    return for_each_deployment(pos, c, from, st, [](const Deploy&, bool out) { return out; });
}

} // namespace

bool stack_can_exit(const Position& pos, Color c, Square from) {
    const Stack st = pos.at(from);
    const int d = exit_distance(c, from);
    if (d > st.size()) return false;
    const std::uint64_t occ = pos.occupancy() & ~square_bb(from);
    if (st.rounds() >= d &&
        (walk_exits(c, PieceKind::round, 0, from, d, occ) || walk_exits(c, PieceKind::round, 1, from, d, occ)))
        return true;
    if (st.squares() >= d && walk_exits(c, PieceKind::square, 1, from, d, occ)) return true;
    return st.size() >= 2 && deployment_exits(pos, c, from, st);
}

std::uint64_t exiting_stacks(const Position& pos, Color c) {
    std::uint64_t out = 0;
    for (std::uint64_t b = pos.occupancy(c) & exit_zone(c); b; b &= b - 1) {
        const Square s = std::countr_zero(b);
        if (stack_can_exit(pos, c, s)) out |= square_bb(s);
    }
    return out;
}

bool can_exit(const Position& pos, Color c) {
    for (std::uint64_t b = pos.occupancy(c) & exit_zone(c); b; b &= b - 1)
        if (stack_can_exit(pos, c, std::countr_zero(b))) return true;
    return false;
}

Move find_exit_move(const Position& pos) {
    for (std::uint64_t b = exiting_stacks(pos, pos.side_to_move()); b; b &= b - 1) {
        MoveList moves;
        generate_moves_from(pos, std::countr_zero(b), moves);
        for (Move m : moves)
            if (m.ends_out()) return m;
    }
    return Move::none();
}

std::uint64_t attacked_squares(const Position& pos, Color c) {
    constexpr std::uint64_t file_a = 0x0101010101010101ull, file_h = file_a << 7;
    // One-step walks never bounce and are never blocked: plain shifts over all stacks at once.
    const std::uint64_t r1 = pos.stacks_of(Stack(c, 1, 0)) | pos.stacks_of(Stack(c, 1, 1)) | pos.stacks_of(Stack(c, 1, 2));
    const std::uint64_t s1 = pos.stacks_of(Stack(c, 0, 1)) | pos.stacks_of(Stack(c, 1, 1)) | pos.stacks_of(Stack(c, 2, 1));
    std::uint64_t att = ((s1 & ~file_a) >> 1) | ((s1 & ~file_h) << 1);
    if (c == Color::white) att |= ((r1 & ~file_a) << 7) | ((r1 & ~file_h) << 9) | (s1 << 8);
    else att |= ((r1 & ~file_a) >> 9) | ((r1 & ~file_h) >> 7) | (s1 >> 8);

    // Longer walks: step by step through the tables (few stacks have them).
    const std::uint64_t occ = pos.occupancy();
    auto walk = [&](std::uint64_t stacks, PieceKind kind, int range) {
        for (; stacks; stacks &= stacks - 1) {
            const Square from = std::countr_zero(stacks);
            const std::uint64_t o = occ & ~square_bb(from);
            for (int dir = 0; dir < direction_count(kind); ++dir)
                for (int i = 0; i < range; ++i) {
                    const std::int8_t t = walk_step(c, kind, dir, from, i);
                    if (t == step_none || t == step_out) break;
                    att |= square_bb(t);
                    if (o & square_bb(t)) break;
                }
        }
    };
    walk(pos.stacks_of(Stack(c, 2, 0)) | pos.stacks_of(Stack(c, 2, 1)), PieceKind::round, 2);
    walk(pos.stacks_of(Stack(c, 3, 0)), PieceKind::round, 3);
    walk(pos.stacks_of(Stack(c, 0, 2)) | pos.stacks_of(Stack(c, 1, 2)), PieceKind::square, 2);
    walk(pos.stacks_of(Stack(c, 0, 3)), PieceKind::square, 3);
    return att;
}

void generate_captures(const Position& pos, MoveList& out) {
    if (pos.game_over()) return;
    const Color us = pos.side_to_move();
    const std::uint64_t enemy = pos.occupancy(~us);
    const std::uint64_t occ = pos.occupancy();
    for (std::uint64_t b = pos.occupancy(us); b; b &= b - 1) {
        const Square from = std::countr_zero(b);
        const Stack st = pos.at(from);
        const std::uint64_t o = occ & ~square_bb(from);
        const int range[2] = {st.rounds(), st.squares()};
        std::uint64_t targets = 0;
        for (int k = 0; k < 2; ++k) {
            if (!range[k]) continue;
            const PieceKind kind = PieceKind(k);
            for (int dir = 0; dir < direction_count(kind); ++dir)
                for (int i = 0; i < range[k]; ++i) {
                    const std::int8_t t = walk_step(us, kind, dir, from, i);
                    if (t == step_none || t == step_out) break;
                    if (o & square_bb(t)) {
                        targets |= enemy & square_bb(t);
                        break;
                    }
                }
        }
        for (; targets; targets &= targets - 1) out.push(Move::movement(from, std::countr_zero(targets)));
    }
}

bool is_irreversible(const Position& pos, Move m) {
    switch (m.type()) {
    case MoveType::exit: return true;
    case MoveType::movement: return rank_of(m.to()) != rank_of(m.from()) || is_capture(pos, m);
    case MoveType::deployment:
        if (m.ends_out()) return true;
        for (int i = 0; i < m.placed(); ++i)
            if (rank_of(m.placed_square(i)) != rank_of(m.from())) return true;
        return false;
    case MoveType::placement: return true;
    }
    return true;
}

} // namespace gounki::analysis
