#pragma once
// Precomputed walks and hash keys. Built at compile time: no global state is mutated at run time.

#include <array>
#include <cstdint>

#include "core/types.hpp"

namespace gounki {

enum class PieceKind : std::uint8_t { round = 0, square = 1 };

// One target of a walk step: a square 0..63, `step_out` when the step leaves the board past the
// opponent's last rank, `step_none` when the walk does not exist (its first step would leave the
// board sideways, docs/rules.md 1.2 Decision).
constexpr std::int8_t step_out = 64;
constexpr std::int8_t step_none = 65;
constexpr int max_steps = 3;
constexpr int max_directions = 3;

// Directions per kind: rounds go diagonally left or right (2), squares left, forward, right (3).
constexpr int direction_count(PieceKind k) { return k == PieceKind::round ? 2 : 3; }

// The two orders of a deployment's pieces (docs/rules.md 1.5): rounds first, then squares; or squares
// first, then rounds. Move generation lists deployments in this order.
struct DeployOrder {
    PieceKind first, second;
};
constexpr DeployOrder deploy_orders[2] = {{PieceKind::round, PieceKind::square}, {PieceKind::square, PieceKind::round}};

namespace detail {

struct WalkTable {
    // [colour][kind][direction][from][step]
    std::int8_t step[2][2][max_directions][64][max_steps] = {};
};

constexpr WalkTable make_walks() {
    WalkTable t{};
    for (int c = 0; c < 2; ++c)
        for (int k = 0; k < 2; ++k)
            for (int d = 0; d < max_directions; ++d)
                for (int s = 0; s < 64; ++s) {
                    int df = 0, dr = 0;
                    const int fwd = c == 0 ? 1 : -1;
                    if (k == 0) {
                        if (d == 2) {
                            for (auto& x : t.step[c][k][d][s]) x = step_none;
                            continue;
                        }
                        df = d == 0 ? -1 : 1;
                        dr = fwd;
                    } else {
                        df = d == 0 ? -1 : d == 2 ? 1 : 0;
                        dr = d == 1 ? fwd : 0;
                    }
                    int f = s & 7, r = s >> 3;
                    bool done = false;
                    for (int i = 0; i < max_steps; ++i) {
                        if (done) {
                            t.step[c][k][d][s][i] = step_out;
                            continue;
                        }
                        int nf = f + df, nr = r + dr;
                        if (nr < 0 || nr > 7) { // leaving past the last rank wins over a bounce
                            t.step[c][k][d][s][i] = step_out;
                            done = true;
                            continue;
                        }
                        if (nf < 0 || nf > 7) {
                            if (i == 0) { // the mirror walk already exists: this one does not
                                for (auto& x : t.step[c][k][d][s]) x = step_none;
                                break;
                            }
                            nf = nf < 0 ? -nf : 14 - nf;
                            df = -df;
                        }
                        f = nf;
                        r = nr;
                        t.step[c][k][d][s][i] = std::int8_t(r * 8 + f);
                    }
                }
    return t;
}

// Which walks of a piece reach a square: bit dir * max_steps + step of [colour][kind][from][to] is set
// when step `step` of the walk in direction `dir` from `from` lands on `to`. Built from WalkTable.
struct ReachTable {
    std::uint16_t bits[2][2][64][64] = {};
};

constexpr ReachTable make_reach(const WalkTable& w) {
    ReachTable t{};
    for (int c = 0; c < 2; ++c)
        for (int k = 0; k < 2; ++k)
            for (int d = 0; d < max_directions; ++d)
                for (int s = 0; s < 64; ++s)
                    for (int i = 0; i < max_steps; ++i) {
                        const std::int8_t to = w.step[c][k][d][s][i];
                        if (to < 64) t.bits[c][k][s][to] |= std::uint16_t(1u << (d * max_steps + i));
                    }
    return t;
}

constexpr std::uint64_t splitmix64(std::uint64_t& state) {
    std::uint64_t z = (state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

struct ZobristTable {
    std::uint64_t square[64][stack_codes] = {};
    std::uint64_t black_to_move = 0;
    std::uint64_t outcome[3] = {};
};

constexpr ZobristTable make_zobrist() {
    ZobristTable z{};
    std::uint64_t state = 0x676F756E6B69ull; // "gounki"
    for (int s = 0; s < 64; ++s)
        for (int c = 1; c < stack_codes; ++c) z.square[s][c] = splitmix64(state);
    z.black_to_move = splitmix64(state);
    z.outcome[1] = splitmix64(state);
    z.outcome[2] = splitmix64(state);
    return z;
}

inline constexpr WalkTable walks = make_walks();
inline constexpr ReachTable reach = make_reach(walks);
inline constexpr ZobristTable zobrist = make_zobrist();

} // namespace detail

// The `step`-th square (0-based) of the walk of a `kind` piece of colour `c` from `from` in
// direction `dir`.
constexpr std::int8_t walk_step(Color c, PieceKind kind, int dir, Square from, int step) {
    return detail::walks.step[index(c)][int(kind)][dir][from][step];
}

// The walks (bit dir * max_steps + step) of a `kind` piece of colour `c` from `from` that land on `to`.
constexpr unsigned walks_reaching(Color c, PieceKind kind, Square from, Square to) {
    return detail::reach.bits[index(c)][int(kind)][from][to];
}

constexpr std::uint64_t zobrist_square(Square s, Stack st) { return detail::zobrist.square[s][st.code()]; }
constexpr std::uint64_t zobrist_black_to_move() { return detail::zobrist.black_to_move; }
constexpr std::uint64_t zobrist_outcome(Outcome o) { return detail::zobrist.outcome[int(o)]; }

} // namespace gounki
