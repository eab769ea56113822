#pragma once
// The deployment rule in one place (docs/rules.md 1.5): how the pieces of one kind of a lifted
// stack are laid one per step along a walk, and every deployment of a stack. Move generation and
// the engine's exit test use it.

#include "core/gounki/position.hpp"
#include "core/gounki/tables.hpp"

namespace gounki {

// The result of laying the pieces of one kind along a walk during a deployment.
enum class Lay { placed, out, illegal };

struct Deploy {
    Square squares[3];
    unsigned round_mask = 0;
    int placed = 0;
};

// Places `count` pieces of `kind` one per step along the walk from `start` in `dir` (docs/rules.md 1.5).
// The lifted stack's own square counts as empty; pieces placed earlier count towards the limit of 3.
inline Lay lay(const Position& pos, Color us, Square origin, PieceKind kind, int dir, Square start, int count, Deploy& d) {
    for (int i = 0; i < count; ++i) {
        const std::int8_t t = walk_step(us, kind, dir, start, i);
        if (t == step_none) return Lay::illegal;
        if (t == step_out) return Lay::out;
        int size = 0;
        if (t != origin) {
            const Stack there = pos.at(t);
            if (!there.is_empty()) {
                if (there.color() != us) return Lay::illegal; // deployments never capture
                size = there.size();
            }
        }
        for (int j = 0; j < d.placed; ++j) size += d.squares[j] == t;
        if (size >= 3) return Lay::illegal;
        d.squares[d.placed] = t;
        if (kind == PieceKind::round) d.round_mask |= 1u << d.placed;
        ++d.placed;
    }
    return Lay::placed;
}

// Every deployment of the stack `st` of `us` lifted from `from` (docs/rules.md 1.5): `f(d, out)`
// for each distinct sequence of laid squares `d`, `out` when its walk then leaves the board (every
// second walk that leaves at once is the same move: passed once). A first walk that leaves before
// laying anything is passed too (d.placed 0): it is the exit of the whole stack, a move generator
// reports it with the movements. Stops when `f` returns true, and says whether it did.
template <class F>
inline bool for_each_deployment(const Position& pos, Color us, Square from, Stack st, F&& f) {
    const int range[2] = {st.rounds(), st.squares()};
    for (const auto [k1, k2] : deploy_orders) {
        const int n1 = range[int(k1)], n2 = range[int(k2)];
        if (n1 == 0) continue;
        for (int d1 = 0; d1 < direction_count(k1); ++d1) {
            Deploy first;
            const Lay r1 = lay(pos, us, from, k1, d1, from, n1, first);
            if (r1 == Lay::illegal) continue;
            if (r1 == Lay::out || n2 == 0) {
                if (f(first, r1 == Lay::out)) return true;
                continue;
            }
            bool out_passed = false;
            const Square last = first.squares[first.placed - 1];
            for (int d2 = 0; d2 < direction_count(k2); ++d2) {
                Deploy both = first;
                const Lay r2 = lay(pos, us, from, k2, d2, last, n2, both);
                if (r2 == Lay::illegal) continue;
                if (r2 == Lay::out && both.placed == first.placed) {
                    if (out_passed) continue;
                    out_passed = true;
                }
                if (f(both, r2 == Lay::out)) return true;
            }
        }
    }
    return false;
}

} // namespace gounki
