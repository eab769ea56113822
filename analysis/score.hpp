#pragma once
// Search scores: heuristic values and proven results in one int, never confused.
//
// Scores are from the side to move. A proven result is a "mate-like" score that carries its
// distance in plies counted from the root of the search:
//   win_at(p)  = score_win - p   the root side wins, its winning move being ply p (p odd);
//   loss_at(p) = -score_win + p  the root side loses, the opponent's winning move being ply p.
// Heuristic scores stay strictly inside (-score_proven, score_proven); evaluation clamps to
// score_heuristic_max so that no sum of terms can ever reach the proven range.

#include <cstdint>

namespace gounki::analysis {

using Score = int;

constexpr int max_ply = 128;
constexpr Score score_win = 32000;
constexpr Score score_infinite = 32001;
constexpr Score score_draw = 0;
constexpr Score score_proven = score_win - 2 * max_ply; // |s| >= this: a proven result
constexpr Score score_heuristic_max = 20000;

constexpr Score win_at(int ply) { return score_win - ply; }
constexpr Score loss_at(int ply) { return -score_win + ply; }
constexpr bool is_proven_win(Score s) { return s >= score_proven; }
constexpr bool is_proven_loss(Score s) { return s <= -score_proven; }
constexpr bool is_proven(Score s) { return is_proven_win(s) || is_proven_loss(s); }

// The distance of a proven result in plies: 1 = the side to move wins with this move, 3 = with
// its second move, -2 = loses to the opponent's reply. 0 when the score is heuristic.
constexpr int win_in(Score s) {
    if (is_proven_win(s)) return score_win - s;
    if (is_proven_loss(s)) return -(score_win + s);
    return 0;
}

// A proven score seen from a node `ply` plies below the root, converted to be relative to that
// node (for the transposition table) and back.
constexpr Score score_to_tt(Score s, int ply) { return is_proven_win(s) ? s + ply : is_proven_loss(s) ? s - ply : s; }
constexpr Score score_from_tt(Score s, int ply) { return is_proven_win(s) ? s - ply : is_proven_loss(s) ? s + ply : s; }

} // namespace gounki::analysis
