#include "analysis/gounki/eval.hpp"

#include <algorithm>
#include <bit>

#include "analysis/gounki/tactics.hpp"
#include "core/gounki/tables.hpp"

namespace gounki::analysis {

namespace {

// The squares the stack on `s` reaches with its first step forward (diagonals for rounds, straight
// for squares): where it has to go next to keep racing.
std::uint64_t next_squares(Color c, Square s, Stack st) {
    std::uint64_t out = 0;
    if (st.rounds())
        for (int dir = 0; dir < 2; ++dir) {
            const std::int8_t t = walk_step(c, PieceKind::round, dir, s, 0);
            if (t < 64) out |= square_bb(t);
        }
    if (st.squares()) {
        const std::int8_t t = walk_step(c, PieceKind::square, 1, s, 0);
        if (t < 64) out |= square_bb(t);
    }
    return out;
}

// The nine stack kinds of one colour.
constexpr int kinds[9][2] = {{1, 0}, {0, 1}, {2, 0}, {1, 1}, {0, 2}, {3, 0}, {2, 1}, {1, 2}, {0, 3}};

} // namespace

Evaluator::Evaluator(const EvalWeights& w) : w_(w) {
    for (int ci = 0; ci < 2; ++ci)
        for (const auto& k : kinds) {
            const int r = k[0], q = k[1];
            const Stack st(Color(ci), r, q);
            const int range = std::max(r, q);
            for (Square s = 0; s < 64; ++s) {
                const int moves = moves_to_exit(exit_distance(Color(ci), s), r + q, range);
                const int worth = (r + q) * w.piece + (range == 2 ? w.range2 : range == 3 ? w.range3 : 0) + w.advance[moves];
                worth_[st.code()][s] = ci == 0 ? worth : -worth;
                moves_[st.code()][s] = std::uint8_t(moves);
            }
        }
}

int Evaluator::base(const Position& pos) const {
    int sum = 0;
    for (std::uint64_t b = pos.occupancy(); b; b &= b - 1) {
        const Square s = std::countr_zero(b);
        sum += worth_[pos.at(s).code()][s];
    }
    return sum;
}

int Evaluator::base_delta(const Position& after, const UndoRecord& undo) const {
    // A square may be recorded twice (a pass: g2-g2 saves g2 as origin and as target); its first
    // record holds what stood there before the move.
    int d = 0;
    for (int i = 0; i < undo.count; ++i) {
        const Square s = undo.squares[i];
        bool seen = false;
        for (int j = 0; j < i; ++j) seen |= undo.squares[j] == s;
        if (!seen) d += worth_[after.at(s).code()][s] - worth_[undo.before[i].code()][s];
    }
    return d;
}

Score Evaluator::evaluate(const Position& pos, int base, std::uint64_t* attacked_out) const {
    const Color us = pos.side_to_move();
    const std::uint64_t attacked[2] = {attacked_squares(pos, Color::white), attacked_squares(pos, Color::black)};
    if (attacked_out) {
        attacked_out[0] = attacked[0];
        attacked_out[1] = attacked[1];
    }
    int white_minus_black = base;
    int best_moves[2] = {9, 9};
    for (int ci = 0; ci < 2; ++ci) {
        const Color c = Color(ci);
        const int sign = ci == 0 ? 1 : -1;
        const std::uint64_t hanging = pos.occupancy(c) & attacked[ci ^ 1];
        // Stacks the opponent can take lose part of their worth; more if the opponent moves next.
        const int hang_pct = c == us ? w_.hanging_our_move : w_.hanging_their_move;
        for (std::uint64_t b = hanging; b; b &= b - 1) {
            const Square s = std::countr_zero(b);
            int penalty = sign * worth_[pos.at(s).code()][s] * hang_pct / 100;
            if (attacked[ci] & square_bb(s)) penalty = penalty * w_.defended / 100;
            white_minus_black -= sign * penalty;
        }
        // The fastest safe stack: per kind, the most advanced one.
        Square runner = no_square;
        for (const auto& k : kinds) {
            const Stack st(c, k[0], k[1]);
            const std::uint64_t bb = pos.stacks_of(st) & ~hanging;
            if (!bb) continue;
            const Square s = c == Color::white ? 63 - std::countl_zero(bb) : std::countr_zero(bb);
            if (moves_[st.code()][s] < best_moves[ci]) {
                best_moves[ci] = moves_[st.code()][s];
                runner = s;
            }
        }
        if (runner != no_square) {
            const std::uint64_t next = next_squares(c, runner, pos.at(runner));
            if (next && (next & ~attacked[ci ^ 1]) == 0) white_minus_black -= sign * w_.contested;
        }
    }
    Score s = (us == Color::white ? white_minus_black : -white_minus_black) + w_.tempo;
    // The race: moving first, we win a race of equal length.
    const int me = index(us), them = index(~us);
    const int lead = best_moves[them] - best_moves[me];
    const int race = std::clamp(lead >= 0 ? lead + 1 : lead, -3, 3);
    const int closest = std::min(best_moves[me], best_moves[them]);
    s += closest <= 4 ? race * w_.runner : race * w_.runner / 2;
    return std::clamp(s, -score_heuristic_max + 1, score_heuristic_max - 1);
}

Score evaluate(const Position& pos, const EvalWeights& w) { return Evaluator(w)(pos); }

} // namespace gounki::analysis
