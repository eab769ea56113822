#pragma once
// The deployment rule in one place (docs/rules.md 1.5): how the pieces of one kind of a lifted
// stack are laid one per step along a walk. Move generation and the engine's exit test use it.

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

} // namespace gounki
