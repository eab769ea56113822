#include "analysis/gounki/search.hpp"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <utility>

#include "analysis/gounki/tactics.hpp"

namespace gounki::analysis {

std::int64_t steady_now_ns() {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

namespace {

// Move ordering bands; within a band larger is searched first.
constexpr int order_tt = 1 << 30;
constexpr int order_capture = 1 << 28;
constexpr int order_killer = 1 << 27;
constexpr int history_max = 1 << 20;

// Picks the best-scored move among moves[i..n) and swaps it to i (lazy selection sort: most nodes
// cut off after one or two moves).
// After a few picks the node is likely an all-node that searches everything: the rest is then
// sorted once (insertion sort, stable for equal scores) instead of scanned per move.
constexpr int picks_before_sort = 4;

inline void pick_next(Move* moves, int* scores, int i, int n) {
    if (i < picks_before_sort) {
        int best = i;
        for (int j = i + 1; j < n; ++j)
            if (scores[j] > scores[best]) best = j;
        std::swap(moves[i], moves[best]);
        std::swap(scores[i], scores[best]);
    } else if (i == picks_before_sort) {
        for (int j = i + 1; j < n; ++j) {
            const Move m = moves[j];
            const int sc = scores[j];
            int k = j;
            for (; k > i && scores[k - 1] < sc; --k) {
                moves[k] = moves[k - 1];
                scores[k] = scores[k - 1];
            }
            moves[k] = m;
            scores[k] = sc;
        }
    }
}

inline int history_slot(Move m) { return m.type() == MoveType::exit ? m.from() : m.to(); }

} // namespace

Searcher::Searcher(const SearchOptions& options)
    : options_(options), eval_(options.eval), tt_(options.hash_mb), ply_moves_(max_ply + 1) {}

void Searcher::check_limits() {
    if (search_limit_reached(limits_, nodes_, start_ns_, stop_requested_)) stopped_ = true;
}

void Searcher::make(Move m, int ply, bool will_probe) {
    reversible_[ply + 1] = is_irreversible(pos_, m) ? 0 : reversible_[ply] + 1;
    pos_.do_move(m, undo_[ply]);
    if (will_probe) tt_.prefetch(pos_.key());
    base_[ply + 1] = base_[ply] + eval_.base_delta(pos_, undo_[ply]);
    path_keys_[std::size_t(root_index_ + ply + 1)] = pos_.key();
    ++nodes_;
    if (ply + 1 > seldepth_) seldepth_ = ply + 1;
    check_limits();
}

void Searcher::unmake(Move m, int ply) { pos_.undo_move(m, undo_[ply]); }

bool Searcher::is_repetition(int ply) const {
    // A position can come back only through reversible moves, and only with the same side to move.
    const int here = root_index_ + ply;
    const std::uint64_t key = path_keys_[std::size_t(here)];
    const int back = std::min(reversible_[ply], here);
    for (int k = 2; k <= back; k += 2)
        if (path_keys_[std::size_t(here - k)] == key) return true;
    return false;
}

Score Searcher::exit_now(int ply, bool record_pv) {
    // The win needs no search; on the principal variation the exit itself ends the line.
    if (record_pv) {
        pv_[ply][ply] = find_exit_move(pos_);
        pv_len_[ply] = ply + 1;
    }
    return win_at(ply + 1);
}

void Searcher::update_pv(int ply, Move m) {
    pv_[ply][ply] = m;
    for (int i = ply + 1; i < pv_len_[ply + 1]; ++i) pv_[ply][i] = pv_[ply + 1][i];
    pv_len_[ply] = std::max(pv_len_[ply + 1], ply + 1);
}

int Searcher::move_order_score(Move m, Move tt_move, int ply) const {
    if (m == tt_move) return order_tt;
    if (m.type() == MoveType::movement && (pos_.occupancy(~pos_.side_to_move()) & square_bb(m.to())))
        return order_capture + pos_.at(m.to()).size() * 64 - pos_.at(m.from()).size();
    if (m == killers_[ply][0]) return order_killer + 1;
    if (m == killers_[ply][1]) return order_killer;
    return history_[index(pos_.side_to_move())][m.from()][history_slot(m)];
}

bool Searcher::tt_move_is_legal(Move m) const {
    if (!m) return false;
    const Stack st = pos_.at(m.from());
    if (st.is_empty() || st.color() != pos_.side_to_move()) return false;
    MoveList& scratch = const_cast<Searcher*>(this)->ply_moves_[max_ply].generated;
    scratch.clear();
    generate_moves_from(pos_, m.from(), scratch);
    return scratch.contains(m);
}

void Searcher::update_quiet_stats(Move best, int ply, int depth, const Move* tried, int tried_count) {
    if (killers_[ply][0] != best) {
        killers_[ply][1] = killers_[ply][0];
        killers_[ply][0] = best;
    }
    const int c = index(pos_.side_to_move());
    const int bonus = std::min(depth * depth * 16, 4096);
    auto apply = [&](Move m, int b) {
        int& h = history_[c][m.from()][history_slot(m)];
        h += b - h * std::abs(b) / history_max;
    };
    apply(best, bonus);
    for (int i = 0; i < tried_count; ++i)
        if (tried[i] != best) apply(tried[i], -bonus);
}

Score Searcher::qsearch(Score alpha, Score beta, int ply, int qdepth) {
    pv_len_[ply] = ply;
    if (stopped_) return 0;
    if (pos_.game_over()) return loss_at(ply);
    const Color us = pos_.side_to_move();
    if (can_exit(pos_, us)) return exit_now(ply, beta - alpha > 1);
    if (ply >= max_ply - 2) return eval_.evaluate(pos_, base_[ply]);
    if (reversible_[ply] >= 2 && is_repetition(ply)) return score_draw;

    // The opponent threatens to leave the board: every move is searched, those that do not stop
    // it lose at once (one node each). When none stops it, this is a proven loss.
    const bool threatened = can_exit(pos_, ~us);
    Score best = -score_infinite;
    PlyMoves& pm = ply_moves_[ply];
    pm.generated.clear();
    if (threatened) {
        if (qdepth >= 12) return eval_.evaluate(pos_, base_[ply]);
        generate_moves(pos_, pm.generated);
    } else {
        std::uint64_t attacked[2];
        best = eval_.evaluate(pos_, base_[ply], attacked);
        if (best >= beta || qdepth >= 8) return best;
        alpha = std::max(alpha, best);
        if (attacked[index(us)] & pos_.occupancy(~us)) generate_captures(pos_, pm.generated);
    }
    const int n = pm.generated.size();
    for (int i = 0; i < n; ++i) {
        pm.list[i] = pm.generated[i];
        pm.scores[i] = move_order_score(pm.list[i], Move::none(), ply);
    }
    for (int i = 0; i < n; ++i) {
        pick_next(pm.list, pm.scores, i, n);
        const Move m = pm.list[i];
        make(m, ply, false);
        const Score s = -qsearch(-beta, -alpha, ply + 1, qdepth + 1);
        unmake(m, ply);
        if (stopped_) return 0;
        if (s > best) {
            best = s;
            if (s > alpha) {
                alpha = s;
                update_pv(ply, m);
                if (s >= beta) break;
            }
        }
    }
    return best;
}

// One function on purpose (as in most alpha-beta engines): the node's steps (table probe, pruning,
// move loop, table store) share many locals, and the hot path stays in one frame.
Score Searcher::negamax(int depth, Score alpha, Score beta, int ply, bool pv_node) {
    pv_len_[ply] = ply;
    if (stopped_) return 0;
    if (pos_.game_over()) return loss_at(ply);
    const Color us = pos_.side_to_move();
    if (is_repetition(ply)) return score_draw;
    if (can_exit(pos_, us)) return exit_now(ply, pv_node);
    if (ply >= max_ply - 2) return eval_.evaluate(pos_, base_[ply]);

    // Mate distance pruning: nothing here can beat a win found nearer the root. Not on the
    // principal variation, whose moves must all be searched to carry the line to its end.
    if (!pv_node) {
        alpha = std::max(alpha, loss_at(ply + 2));
        beta = std::min(beta, win_at(ply + 1));
        if (alpha >= beta) return alpha;
    }

    const bool threatened = can_exit(pos_, ~us);
    // Answering an exit threat is forced: it does not use up depth.
    if (threatened && ply < 2 * root_depth_ + 8) ++depth;
    if (depth <= 0) return qsearch(alpha, beta, ply, 0);

    const std::uint64_t key = pos_.key();
    TTHit hit;
    Move tt_move = Move::none();
    if (tt_.probe(key, hit)) {
        tt_move = hit.move;
        const Score s = score_from_tt(hit.score, ply);
        if (!pv_node && hit.depth >= depth &&
            (hit.bound == Bound::exact || (hit.bound == Bound::lower && s >= beta) || (hit.bound == Bound::upper && s <= alpha)))
            return s;
    }

    // Near the leaves, a quiet position far from the bounds needs no full look. Never when the
    // opponent threatens to leave, nor when a bound is a proven result.
    bool prune_quiets = false;
    if (!pv_node && !threatened && depth <= 2 && !is_proven(alpha) && !is_proven(beta) &&
        (options_.futility_margin || options_.reverse_futility_margin)) {
        const Score static_eval = eval_.evaluate(pos_, base_[ply]);
        if (options_.reverse_futility_margin && static_eval - options_.reverse_futility_margin * depth >= beta)
            return static_eval;
        prune_quiets = options_.futility_margin && static_eval + options_.futility_margin * depth <= alpha;
    }

    PlyMoves& pm = ply_moves_[ply];
    const Score alpha_orig = alpha;
    Score best = -score_infinite;
    Move best_move = Move::none();
    int quiet_count = 0;
    int searched = 0;

    // Searches one move; true on a beta cutoff.
    auto visit = [&](Move m, int order) {
        const bool quiet = !(m.type() == MoveType::movement && (pos_.occupancy(~us) & square_bb(m.to())));
        make(m, ply, depth > 1);
        if (prune_quiets && quiet && searched > 0 && !can_exit(pos_, us)) {
            unmake(m, ply);
            if (quiet) pm.quiets[quiet_count++] = m;
            return false;
        }
        Score s;
        if (searched == 0) {
            s = -negamax(depth - 1, -beta, -alpha, ply + 1, pv_node);
        } else {
            // Late quiet moves get a shallower look first, unless they threaten to exit or the
            // bounds are proven results (a shorter win must not hide behind a reduction).
            int reduction = 0;
            if (depth >= 3 && searched >= 3 && quiet && order < order_killer && !threatened && !is_proven(alpha) &&
                !can_exit(pos_, us))
                reduction = (searched >= 8 && depth >= 5) ? 2 : 1;
            s = -negamax(depth - 1 - reduction, -alpha - 1, -alpha, ply + 1, false);
            if (s > alpha && reduction) s = -negamax(depth - 1, -alpha - 1, -alpha, ply + 1, false);
            if (s > alpha && s < beta && pv_node) s = -negamax(depth - 1, -beta, -alpha, ply + 1, true);
        }
        unmake(m, ply);
        ++searched;
        if (stopped_) return true;
        if (s > best) {
            best = s;
            best_move = m;
            if (s > alpha) {
                alpha = s;
                if (pv_node) update_pv(ply, m);
                if (s >= beta) {
                    if (quiet) update_quiet_stats(m, ply, depth, pm.quiets, quiet_count);
                    return true;
                }
            }
        }
        if (quiet) pm.quiets[quiet_count++] = m;
        return false;
    };

    // The table's move first: when it cuts off, no move generation at all.
    bool cutoff = false;
    if (tt_move && tt_move_is_legal(tt_move)) cutoff = visit(tt_move, order_tt);
    else tt_move = Move::none();
    if (!cutoff) {
        pm.generated.clear();
        generate_moves(pos_, pm.generated);
        int n = 0;
        for (Move m : pm.generated) {
            if (m == tt_move) continue;
            pm.list[n] = m;
            pm.scores[n] = move_order_score(m, Move::none(), ply);
            ++n;
        }
        if (n == 0 && searched == 0) return eval_.evaluate(pos_, base_[ply]); // cannot happen: a side with a piece can move
        for (int i = 0; i < n && !cutoff; ++i) {
            pick_next(pm.list, pm.scores, i, n);
            cutoff = visit(pm.list[i], pm.scores[i]);
        }
    }
    if (stopped_) return 0;
    const Bound bound = best >= beta ? Bound::lower : best > alpha_orig ? Bound::exact : Bound::upper;
    tt_.store(key, best_move, score_to_tt(best, ply), depth, bound);
    return best;
}

Score Searcher::search_root(int depth, Score alpha, Score beta) {
    pv_len_[0] = 0;
    Score best = -score_infinite;
    const int n = root_moves_.size();
    int best_index = -1;
    for (int i = 0; i < n; ++i) {
        const Move m = root_moves_[i];
        make(m, 0, true);
        Score s;
        if (i == 0) {
            s = -negamax(depth - 1, -beta, -alpha, 1, true);
        } else {
            s = -negamax(depth - 1, -alpha - 1, -alpha, 1, false);
            if (s > alpha && s < beta) s = -negamax(depth - 1, -beta, -alpha, 1, true);
        }
        unmake(m, 0);
        if (stopped_) break;
        if (i == 0 && m == first_move_) {
            first_score_ = s;
            first_scored_ = true;
        }
        if (s > best) {
            best = s;
            best_index = i;
            if (s > alpha) {
                alpha = s;
                update_pv(0, m);
            }
        }
    }
    if (best_index > 0 && !first_move_) {
        // The best move goes first next iteration; the others keep their order.
        MoveList reordered;
        reordered.push(root_moves_[best_index]);
        for (int i = 0; i < n; ++i)
            if (i != best_index) reordered.push(root_moves_[i]);
        root_moves_ = reordered;
    }
    if (best_index < 0) return -score_infinite; // stopped before the first move finished
    return best;
}

void Searcher::start_search(const Position& root, const SearchLimits& limits, std::span<const std::uint64_t> history) {
    start_ns_ = steady_now_ns();
    pos_ = root;
    limits_ = limits;
    nodes_ = 1;
    seldepth_ = 0;
    stopped_ = false;
    stop_requested_.store(false, std::memory_order_relaxed);
    if (!keep_table_) tt_.new_search();
    std::memset(history_, 0, sizeof history_);
    for (auto& k : killers_) k[0] = k[1] = Move::none();
    path_keys_.assign(history.begin(), history.end());
    root_index_ = int(path_keys_.size());
    path_keys_.resize(path_keys_.size() + max_ply + 2);
    path_keys_[std::size_t(root_index_)] = root.key();
    reversible_[0] = root_index_;
    base_[0] = eval_.base(pos_);
}

// Root ordering for the first iteration: exits, captures, then the generator's order.
void Searcher::order_root_moves() {
    PlyMoves& pm = ply_moves_[0];
    const int n = root_moves_.size();
    for (int i = 0; i < n; ++i) {
        pm.list[i] = root_moves_[i];
        pm.scores[i] = pm.list[i].ends_out() ? order_tt : move_order_score(pm.list[i], Move::none(), 0);
    }
    root_moves_.clear();
    for (int i = 0; i < n; ++i) {
        pick_next(pm.list, pm.scores, i, n);
        root_moves_.push(pm.list[i]);
    }
}

SearchResult Searcher::search(const Position& root, const SearchLimits& limits, const InfoCallback& on_info,
                              std::span<const std::uint64_t> history) {
    const Move first = std::exchange(first_move_, Move::none());
    start_search(root, limits, history);
    SearchResult result;
    root_moves_.clear();
    generate_moves(pos_, root_moves_);
    if (root_moves_.empty()) {
        result.score = pos_.game_over() ? loss_at(0) : 0;
        result.win_in = win_in(result.score);
        return result;
    }
    order_root_moves();
    if (first && root_moves_.contains(first)) {
        // The move put first stays first; the others keep their order.
        MoveList reordered;
        reordered.push(first);
        for (Move m : root_moves_)
            if (m != first) reordered.push(m);
        root_moves_ = reordered;
        first_move_ = first;
    }
    result.best = root_moves_[0];
    result.pv = {result.best};

    const int max_depth = limits.depth > 0 ? std::min(limits.depth, max_search_depth) : max_search_depth;
    for (int depth = 1; depth <= max_depth; ++depth) {
        root_depth_ = depth;
        first_scored_ = false;
        const Score s = search_root(depth, -score_infinite, score_infinite);
        if (stopped_) {
            // A cut iteration still counts if its first move (last iteration's best) was finished:
            // any move that replaced it was searched in full. Not with a move put first, which may
            // be a worse move than last iteration's best.
            if (!first_move_ && s > -score_infinite && pv_len_[0] > 0) {
                result.best = pv_[0][0];
                result.score = s;
                result.pv.assign(pv_[0], pv_[0] + pv_len_[0]);
            }
            result.stopped = true;
            break;
        }
        result.best = pv_[0][0];
        result.score = s;
        result.depth = depth;
        result.pv.assign(pv_[0], pv_[0] + pv_len_[0]);
        result.win_in = win_in(s);
        set_counters(result, seldepth_, nodes_, start_ns_);
        result.first_score = first_score_;
        result.first_scored = first_scored_;
        if (on_info) on_info(search_info(result));
        if (stop_requested_.load(std::memory_order_relaxed)) break;
        // A proven result found by a full-width search at least as deep as its distance is final:
        // no shorter win (or longer defence) can exist.
        if (is_proven(s) && depth >= std::abs(result.win_in)) break;
        // With a time limit, an iteration that would not finish is not started.
        if (limits.time_ms && result.time_ms * 2 >= limits.time_ms) break;
    }
    first_move_ = Move::none();
    result.win_in = win_in(result.score);
    set_counters(result, seldepth_, nodes_, start_ns_);
    return result;
}

} // namespace gounki::analysis
