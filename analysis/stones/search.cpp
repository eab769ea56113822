#include "analysis/stones/search.hpp"

#include <algorithm>
#include <bit>
#include <chrono>

namespace gounki::analysis {

namespace {

constexpr int order_tt = 1 << 30;
constexpr int order_killer = 1 << 16; // above quiet moves, below fours and blocks of fours

bool captures_matter(const stones::StonePosition& pos) { return pos.rules().captures(); }

// The point worth counted in the evaluation's sums: winning points are judged separately.
int capped(int v) { return std::min(v, 600); }

Score terminal_score(const stones::StonePosition& pos, int ply) {
    if (pos.outcome() == Outcome::draw) return score_draw;
    return pos.outcome() == win_for(pos.side_to_move()) ? win_at(ply) : loss_at(ply);
}

} // namespace

StoneSearcher::StoneSearcher(const StoneSearchOptions& options)
    : options_(options), tt_(options.hash_mb), vcf_cache_(std::size_t(1) << 16), vct_cache_(std::size_t(1) << 14), plies_(max_ply + 2), undo_(max_ply + 2),
      pv_(max_ply + 2) {
    for (PlyData& pd : plies_) pd.index.fill(-1);
}

void StoneSearcher::check_limits() {
    if (search_limit_reached(limits_, nodes_, start_ns_, stop_requested_)) stopped_ = true;
}

void StoneSearcher::play(int point, int ply) {
    const Color mover = pos_.side_to_move();
    stones::StoneUndo& u = undo_[std::size_t(ply)];
    pos_.play(Move::placement(point), u);
    board_.push_place(point, mover);
    for (int i = 0; i < u.captured_count; ++i) board_.remove(u.captured[std::size_t(i)]);
    ++nodes_;
    if (ply + 1 > seldepth_) seldepth_ = ply + 1;
    check_limits();
}

void StoneSearcher::unplay(int ply) {
    const stones::StoneUndo& u = undo_[std::size_t(ply)];
    pos_.undo(u);
    const Color mover = pos_.side_to_move();
    for (int i = 0; i < u.captured_count; ++i) board_.place(u.captured[std::size_t(i)], ~mover);
    board_.pop_place(u.point);
}

void StoneSearcher::update_pv(int ply, Move m) {
    auto& row = pv_[std::size_t(ply)];
    const auto& next = pv_[std::size_t(ply + 1)];
    row[std::size_t(ply)] = m;
    const int len = std::max(pv_len_[std::size_t(ply + 1)], ply + 1);
    for (int i = ply + 1; i < len; ++i) row[std::size_t(i)] = next[std::size_t(i)];
    pv_len_[std::size_t(ply)] = len;
}

void StoneSearcher::set_rules() {
    const stones::Rules& r = pos_.rules();
    every_point_legal_ = !r.tournament_rule && !r.forbidden_for(Color::black) && !r.forbidden_for(Color::white) &&
        !(r.captures() && r.no_double_three);
    plain_rules_ = !r.captures() && r.overline_wins(Color::black) && r.overline_wins(Color::white);
    tactical_rules_ = r.captures() && r.overline_wins(Color::black) && r.overline_wins(Color::white);
}

bool StoneSearcher::legal_by_rules(int point, const Candidate& c) const {
    const stones::Rules& r = pos_.rules();
    if (pos_.breaks_tournament_rule(point)) return false; // legal in a record, but never played
    // Renju's Black: a forbidden point may hide in any line (an overline reads as no threat at all
    // once analyse() corrected it); an exact five is never forbidden.
    if (r.forbidden_for(pos_.side_to_move())) return c.us.five || pos_.is_legal(Move::placement(point));
    if (!r.captures() || !r.no_double_three || c.caps_us > 0) return true;
    // A free three is always at least a closed three by the pattern table: fewer than two such
    // lines cannot be a double three, and the exact rule is asked only otherwise.
    int threes = 0;
    for (LineThreat t : c.lines_us) threes += t >= LineThreat::closed_three && t != LineThreat::five;
    if (threes < 2) return true;
    return pos_.is_legal(Move::placement(point));
}

void StoneSearcher::analyse(int ply, bool fours_only) {
    PlyData& pd = plies_[std::size_t(ply)];
    const Color us = pos_.side_to_move(), them = ~us;
    int count = 0;
    auto add_state = [&](int p, const ThreatBoard::CellState& s) {
        Candidate& c = pd.cands[std::size_t(count)];
        c.point = std::int16_t(p);
        c.caps_us = c.caps_them = 0;
        c.lines_us = ThreatBoard::lines_of(s, us);
        c.us = s.worth[std::size_t(index(us))];
        c.them = s.worth[std::size_t(index(them))];
        ++count;
    };
    auto add = [&](int p) { add_state(p, board_.state(p)); };
    const int n = pos_.size();
    if (fours_only) {
        board_.for_each_four_point_state(add_state);
    } else if (pos_.stone_count() == 0) {
        add(stones::make_point(n / 2, n / 2));
    } else {
        board_.for_each_candidate_state(add_state);
        if (count == 0)
            for (int r = 0; r < n; ++r)
                for (int f = 0; f < n; ++f)
                    if (board_.cell(stones::make_point(f, r)) == 0) add(stones::make_point(f, r));
    }
    pd.count = count;
    pd.partial = false;
    total(pd);
}

// The totals over the candidates. The flags of all the worths are or-ed together and read as a
// PointWorth at the end (its value then means nothing).
struct StoneSearcher::Totals {
    int count = 0, sum_us = 0, sum_them = 0, max_us = 0, max_them = 0, caps_us = 0, caps_them = 0;
    std::uint32_t any_us = 0, any_them = 0;
    void add(PointWorth us, PointWorth them) {
        const int vu = us.value, vt = them.value;
        ++count;
        sum_us += capped(vu);
        sum_them += capped(vt);
        max_us = std::max(max_us, vu);
        max_them = std::max(max_them, vt);
        any_us |= std::bit_cast<std::uint32_t>(us);
        any_them |= std::bit_cast<std::uint32_t>(them);
    }
    void store(PlyData& pd) const {
        const PointWorth flags_us = std::bit_cast<PointWorth>(any_us), flags_them = std::bit_cast<PointWorth>(any_them);
        pd.sum_us = sum_us;
        pd.sum_them = sum_them;
        pd.max_us = max_us;
        pd.max_them = max_them;
        pd.caps_us = caps_us;
        pd.caps_them = caps_them;
        pd.fives_us = flags_us.five;
        pd.fives_them = flags_them.five;
        pd.fours_us = flags_us.fours;
        pd.fours_them = flags_them.fours;
    }
};

void StoneSearcher::total(PlyData& pd) const {
    const Color us = pos_.side_to_move(), them = ~us;
    const stones::Rules& rules = pos_.rules();
    const bool caps = rules.captures();
    const bool overline_wins = rules.overline_wins(Color::black) && rules.overline_wins(Color::white);
    const std::span<Candidate> cands(pd.cands.data(), std::size_t(pd.count));
    Totals totals;
    if (caps || !overline_wins)
        for (Candidate& c : cands) {
            // Gomoku standard, Renju's Black: a "five" of the pattern table may be an overline.
            if (!overline_wins && (c.us.five || c.them.five)) correct_overlines(c);
            if (!caps) continue;
            const std::array<int, 2> pairs = board_.capture_pairs(c.point);
            c.caps_us = std::int8_t(pairs[std::size_t(index(us))]);
            c.caps_them = std::int8_t(pairs[std::size_t(index(them))]);
            totals.caps_us += c.caps_us;
            totals.caps_them += c.caps_them;
        }
    for (const Candidate& c : cands) totals.add(c.us, c.them);
    totals.store(pd);
}

void StoneSearcher::analyse_leaf(int ply) {
    if (tactical_rules_) return analyse_tactical(ply);
    if (!plain_rules_ || !every_point_legal_ || pos_.stone_count() == 0) return analyse(ply);
    const Color us = pos_.side_to_move(), them = ~us;
    Totals totals;
    board_.for_each_candidate_state([&](int, const ThreatBoard::CellState& s) {
        totals.add(s.worth[std::size_t(index(us))], s.worth[std::size_t(index(them))]);
    });
    if (totals.count == 0) return analyse(ply); // every point near a stone taken: all empty points
    analyse(ply, true);
    totals.store(plies_[std::size_t(ply)]);
}

void StoneSearcher::analyse_tactical(int ply, bool all_totals) {
    if (!tactical_rules_ || pos_.stone_count() == 0) return analyse(ply);
    PlyData& pd = plies_[std::size_t(ply)];
    const Color us = pos_.side_to_move(), them = ~us;
    Totals totals;
    int count = 0;
    const std::size_t iu = std::size_t(index(us)), it = std::size_t(index(them));
    board_.for_each_candidate_caps([&](int p, const ThreatBoard::CellState& s, const std::array<std::uint8_t, 2>& pairs) {
        // A four or a five for either side (the worths' flags: no overline to correct), or a capture.
        const bool listed = ThreatBoard::four_or_five(s) || (pairs[0] | pairs[1]) != 0;
        if (!listed && !all_totals) {
            ++totals.count;
            return;
        }
        const PointWorth wu = s.worth[iu], wt = s.worth[it];
        const int cu = pairs[iu], ct = pairs[it];
        totals.add(wu, wt);
        totals.caps_us += cu;
        totals.caps_them += ct;
        if (!listed) return;
        Candidate& c = pd.cands[std::size_t(count++)];
        c.point = std::int16_t(p);
        c.caps_us = std::int8_t(cu);
        c.caps_them = std::int8_t(ct);
        c.lines_us = ThreatBoard::lines_of(s, us);
        c.us = wu;
        c.them = wt;
    });
    if (totals.count == 0) return analyse(ply); // every point near a stone taken: all empty points
    pd.count = count;
    pd.partial = true;
    totals.store(pd);
}

void StoneSearcher::analyse_prover(int ply) {
    if (pos_.rules().captures()) analyse_tactical(ply, false);
    else analyse(ply, true);
}

void StoneSearcher::order_by_worth(const PlyData& pd, std::vector<int>& list) {
    // Insertion sort: stable, and the provers' lists are short (no allocation, as stable_sort's).
    auto worth = [&](int i) { return pd.cands[std::size_t(i)].us.value + pd.cands[std::size_t(i)].them.value; };
    for (std::size_t i = 1; i < list.size(); ++i) {
        const int x = list[i], w = worth(x);
        std::size_t j = i;
        for (; j > 0 && worth(list[j - 1]) < w; --j) list[j] = list[j - 1];
        list[j] = x;
    }
}

bool StoneSearcher::opponent_vcf(int ply) {
    if (ply + 1 >= max_ply - options_.vcf_plies - 2 || (pos_.rules().captures() && pos_.pending_five())) return false;
    const Color us = pos_.side_to_move();
    pos_.set_side_to_move(~us); // we pass
    analyse(ply + 1);
    const int v = vcf_root(options_.vcf_plies, ply + 1, options_.threat_nodes);
    pos_.set_side_to_move(us);
    return v > 0;
}

void StoneSearcher::correct_overlines(Candidate& c) const {
    const Color us = pos_.side_to_move();
    const stones::Rules& rules = pos_.rules();
    for (Color c6 : {us, ~us}) {
        ThreatBoard::Lines t = board_.lines(c.point, c6);
        bool changed = false;
        for (LineThreat& l : t)
            if (l == LineThreat::five && !rules.overline_wins(c6) && !pos_.five_through(c.point, c6)) {
                l = LineThreat::none;
                changed = true;
            }
        if (!changed) continue;
        const PointWorth w = point_worth(t, !rules.double_three_forbidden(c6));
        if (c6 == us) {
            c.lines_us = t;
            c.us = w;
        } else {
            c.them = w;
        }
    }
}

int StoneSearcher::win_now(const PlyData& pd, int ply) {
    const Color us = pos_.side_to_move();
    const bool caps = captures_matter(pos_);
    if (!pd.fives_us && !pd.caps_us) return -1;
    for (int i = 0; i < pd.count && !stopped_; ++i) {
        const Candidate& c = pd.cands[std::size_t(i)];
        const bool tenth = caps && c.caps_us > 0 && pos_.captured(us) + 2 * c.caps_us >= 10;
        if (!c.us.five && !tenth) continue;
        // Gomoku: a five wins, nothing to check (the candidate's five is exact where it must be).
        if (!caps && !pos_.pending_five()) return c.point;
        if (!pos_.is_legal(Move::placement(c.point))) continue;
        play(c.point, ply);
        const bool won = pos_.outcome() == win_for(us);
        unplay(ply);
        if (won && !stopped_) return c.point;
    }
    return -1;
}

bool StoneSearcher::forced_replies(const PlyData& pd, std::vector<int>& out) {
    out.clear();
    const Color us = pos_.side_to_move(), them = ~us;
    const stones::Rules& rules = pos_.rules();
    // The opponent's breakable five still stands: only a capture can save the game.
    if (pos_.pending_five() == them) {
        for (int i = 0; i < pd.count; ++i)
            if (pd.cands[std::size_t(i)].caps_us > 0) out.push_back(pd.cands[std::size_t(i)].point);
        return true;
    }
    if (!rules.captures()) {
        if (!pd.fives_them) return false;
        for (int i = 0; i < pd.count; ++i)
            if (pd.cands[std::size_t(i)].them.five) out.push_back(pd.cands[std::size_t(i)].point);
        return !out.empty();
    }
    if (rules.endgame_capture && (pos_.captured(us) >= 8 || pos_.pending_five())) return false;
    std::vector<int> fives;
    bool tenth = false;
    for (int i = 0; i < pd.count; ++i) {
        const Candidate& c = pd.cands[std::size_t(i)];
        if (c.them.five && (!rules.endgame_capture || opponent_wins_with(c.point))) fives.push_back(c.point);
        if (c.caps_them > 0 && pos_.captured(them) + 2 * c.caps_them >= 10) {
            tenth = true;
            out.push_back(c.point); // taking the point of the threatened capture saves the pair
        }
    }
    if (fives.empty() && !tenth) return false;
    for (int f : fives) {
        out.push_back(f);
        if (rules.endgame_capture) add_flank_points(f, them, out);
    }
    for (int i = 0; i < pd.count; ++i)
        if (pd.cands[std::size_t(i)].caps_us > 0) out.push_back(pd.cands[std::size_t(i)].point);
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return true;
}

Score StoneSearcher::evaluate(const PlyData& pd) const {
    const Color us = pos_.side_to_move(), them = ~us;
    const int sum_us = pd.sum_us, sum_them = pd.sum_them, max_us = pd.max_us, max_them = pd.max_them;
    const int threats_us = pd.caps_us, exposed_us = pd.caps_them;
    // The side to move plays its best point first: a winning one (open four to come, four-three)
    // is nearly decisive, the opponent's counts half since it can be answered now.
    int e = (sum_us - sum_them) / 3;
    e += max_us >= worth_four_three ? 1500 : std::min(max_us, 600);
    e -= max_them >= worth_four_three ? 700 : std::min(max_them, 600) / 2;
    if (pos_.rules().captures()) {
        const StoneEvalWeights& w = options_.eval;
        e += w.capture_pair[std::min(pos_.captured(us) / 2, 4)] - w.capture_pair[std::min(pos_.captured(them) / 2, 4)];
        e += w.capture_threat * std::min(threats_us, 4) - w.capture_exposed * std::min(exposed_us, 4);
    }
    return std::clamp(e, -score_heuristic_max, score_heuristic_max);
}

// One function on purpose, as Searcher::negamax (gounki/search.cpp): the node's steps (table probe,
// threats and forced replies, move loop, table store) share many locals on the hot path.
Score StoneSearcher::negamax(int depth, Score alpha, Score beta, int ply, bool pv_node) {
    pv_len_[std::size_t(ply)] = ply;
    if (stopped_) return 0;
    if (pos_.game_over()) return terminal_score(pos_, ply);
    const Score alpha_in = alpha;
    if (!pv_node) {
        // Mate distance pruning: the side to move cannot win sooner than with this move, nor lose
        // sooner than after the opponent's next one.
        alpha = std::max(alpha, loss_at(ply + 1));
        beta = std::min(beta, win_at(ply + 1));
        if (alpha >= beta) return alpha;
    }

    const std::uint64_t key = pos_.key();
    TTHit hit;
    int tt_point = -1;
    if (tt_.probe(key, hit)) {
        if (hit.move) tt_point = hit.move.point();
        if (!pv_node && hit.depth >= std::max(depth, 0)) {
            const Score s = score_from_tt(hit.score, ply);
            if (hit.bound == Bound::exact || (hit.bound == Bound::lower && s >= beta) ||
                (hit.bound == Bound::upper && s <= alpha))
                return s;
        }
    }

    if (depth <= 0) analyse_leaf(ply);
    else analyse(ply);
    PlyData& pd = plies_[std::size_t(ply)];
    if (const int w = win_now(pd, ply); w >= 0) {
        pv_[std::size_t(ply)][std::size_t(ply)] = Move::placement(w);
        pv_len_[std::size_t(ply)] = ply + 1;
        return win_at(ply + 1);
    }
    if (ply >= max_ply - 2 * options_.vcf_plies - 4) return evaluate(pd);

    std::vector<int>& forced_list = pd.forced;
    const bool forced = forced_replies(pd, forced_list);
    if (!forced && depth <= 0) {
        Score s = evaluate(pd);
        int v = vcf_root(options_.vcf_plies, ply, options_.vcf_nodes);
        if (v < 0 && options_.vct_nodes && !stopped_) v = vct_root(options_.vct_plies, ply, options_.vct_nodes);
        if (stopped_) return 0;
        if (v > 0) s = win_at(ply + v);
        else if (options_.threat_penalty && pd.fours_them && !stopped_ && opponent_vcf(ply)) s -= options_.threat_penalty;
        if (v <= 0) pv_len_[std::size_t(ply)] = ply;
        tt_.store(key, v > 0 ? pv_[std::size_t(ply)][std::size_t(ply)] : Move::none(), score_to_tt(s, ply), 0, Bound::exact);
        return s;
    }

    // A forced node at a leaf listed in part: its moves are ordered from the whole list (the forced
    // replies, read from the tactical candidates, are the same).
    if (pd.partial) analyse(ply);
    // The moves, with their ordering scores.
    const Color us = pos_.side_to_move();
    pd.move_count = 0;
    auto push = [&](int p, int ci) { // ci: p's candidate, -1 for none
        int sc = 0;
        if (ci >= 0) {
            const Candidate& c = pd.cands[std::size_t(ci)];
            if (!legal(p, c)) return;
            sc = c.us.value + c.them.value * 7 / 8 + 150 * c.caps_us + 60 * c.caps_them;
            if (c.caps_us && pos_.captured(us) + 2 * c.caps_us >= 8) sc += 400;
        } else if (!pos_.is_legal(Move::placement(p))) {
            return;
        }
        if (ply == 0 && p == first_point_) sc = order_tt + 1;
        else if (p == tt_point) sc = order_tt;
        else if (p == killers_[std::size_t(ply)][0]) sc += order_killer + 1;
        else if (p == killers_[std::size_t(ply)][1]) sc += order_killer;
        pd.moves[std::size_t(pd.move_count)] = p;
        pd.scores[std::size_t(pd.move_count)] = sc;
        ++pd.move_count;
    };
    if (forced) {
        for (int i = 0; i < pd.count; ++i) pd.index[std::size_t(pd.cands[std::size_t(i)].point)] = std::int16_t(i);
        for (int p : forced_list) push(p, candidate_of(pd, p));
        // Nothing stops the threat: any move loses; one is searched to give the loss its distance.
        if (pd.move_count == 0)
            for (int i = 0; i < pd.count && pd.move_count == 0; ++i) push(pd.cands[std::size_t(i)].point, i);
    } else {
        for (int i = 0; i < pd.count; ++i) push(pd.cands[std::size_t(i)].point, i);
    }
    if (pd.move_count == 0) return score_draw; // no legal move at all (the core calls it a draw)
    // Best first, equal scores in the order pushed (determinism): the score, the place reversed and
    // the point as one key for each move, sorted.
    const std::span<std::int64_t> keys(pd.keys.data(), std::size_t(pd.move_count));
    for (int i = 0; i < pd.move_count; ++i)
        keys[std::size_t(i)] = std::int64_t(pd.scores[std::size_t(i)]) * (std::int64_t(1) << 32) + std::int64_t(0xffff - i) * 65536 +
            pd.moves[std::size_t(i)];
    std::sort(keys.begin(), keys.end(), std::greater<>());
    for (int i = 0; i < pd.move_count; ++i) {
        pd.moves[std::size_t(i)] = int(keys[std::size_t(i)] & 0xffff);
        pd.scores[std::size_t(i)] = int(keys[std::size_t(i)] >> 32);
    }

    // Forced replies cost no depth: a sequence of fours is followed to its end.
    const int child_depth = forced ? std::max(depth, 0) : depth - 1;
    Score best = -score_infinite;
    int best_point = -1;
    for (int i = 0; i < pd.move_count; ++i) {
        const int p = pd.moves[std::size_t(i)];
        const int sc = pd.scores[std::size_t(i)];
        play(p, ply);
        int r = 0;
        if (!forced && depth >= 3 && i >= 3 && sc < 45 && !is_proven(alpha) && !is_proven(beta))
            r = (depth >= 5 && i >= 10) ? 2 : 1;
        Score s;
        if (i == 0) {
            s = -negamax(child_depth, -beta, -alpha, ply + 1, pv_node);
        } else {
            s = -negamax(child_depth - r, -alpha - 1, -alpha, ply + 1, false);
            if (s > alpha && r > 0) s = -negamax(child_depth, -alpha - 1, -alpha, ply + 1, false);
            if (s > alpha && s < beta && pv_node) s = -negamax(child_depth, -beta, -alpha, ply + 1, true);
        }
        unplay(ply);
        if (stopped_) return 0;
        if (ply == 0 && i == 0 && p == first_point_) {
            first_score_ = s;
            first_scored_ = true;
        }
        if (s > best) {
            best = s;
            best_point = p;
            if (ply == 0) root_best_ = p;
            if (s > alpha) {
                alpha = s;
                update_pv(ply, Move::placement(p));
                if (s >= beta) {
                    if (killers_[std::size_t(ply)][0] != p) {
                        killers_[std::size_t(ply)][1] = killers_[std::size_t(ply)][0];
                        killers_[std::size_t(ply)][0] = p;
                    }
                    break;
                }
            }
        }
    }
    const Bound bound = best >= beta ? Bound::lower : best > alpha_in ? Bound::exact : Bound::upper;
    tt_.store(key, Move::placement(best_point), score_to_tt(best, ply), std::max(depth, 0), bound);
    return best;
}

// ---------------------------------------------------------------------------------------------

bool StoneSearcher::root_vct(SearchResult& result) {
    if (!vct_allowed()) return false;
    analyse(0);
    if (win_now(plies_[0], 0) >= 0 || pos_.stone_count() == 0) return false; // the search finds these at once
    const std::uint64_t budget = limits_.nodes ? std::max<std::uint64_t>(limits_.nodes / options_.root_vct_share, 1)
                                               : std::uint64_t(options_.root_vct_nodes);
    const int v = vct_root(options_.vct_plies, 0, budget);
    if (v <= 0 || stopped_) return false;
    result.score = win_at(v);
    result.win_in = win_in(result.score);
    result.pv.assign(pv_[0].begin(), pv_[0].begin() + pv_len_[0]);
    result.best = result.pv.front();
    result.depth = 1;
    set_counters(result, seldepth_, nodes_, start_ns_);
    return true;
}

void StoneSearcher::forget() {
    tt_.new_search();
    std::fill(vcf_cache_.begin(), vcf_cache_.end(), VcfEntry{});
    std::fill(vct_cache_.begin(), vct_cache_.end(), VcfEntry{});
}

SearchResult StoneSearcher::search(const stones::StonePosition& root, const SearchLimits& limits, const InfoCallback& on_info) {
    struct FirstReset { // put_first holds for one search
        int& point;
        ~FirstReset() { point = -1; }
    } first_reset{first_point_};
    pos_ = root;
    set_rules();
    board_.reset(root);
    limits_ = limits;
    nodes_ = 0;
    vcf_nodes_ = 0;
    if (!keep_table_) forget();
    seldepth_ = 0;
    stopped_ = false;
    stop_requested_.store(false, std::memory_order_relaxed);
    start_ns_ = steady_now_ns();
    for (auto& k : killers_) k = {-1, -1};

    SearchResult result;
    if (root.game_over()) {
        result.score = terminal_score(root, 0);
        result.win_in = win_in(result.score);
        return result;
    }
    if (options_.root_vct_share && !limits.depth && first_point_ < 0 && root_vct(result)) {
        if (on_info) on_info(search_info(result)); // reported as an iteration
        return result;
    }
    for (int depth = 1; depth <= max_search_depth; ++depth) {
        if (limits.depth && depth > limits.depth) break;
        root_best_ = -1;
        first_scored_ = false;
        const Score s = negamax(depth, -score_infinite, score_infinite, 0, true);
        if (stopped_) {
            result.stopped = true;
            if (!result.best) {
                // Not even the first iteration finished: the best move seen so far, else the first.
                int p = root_best_;
                if (p < 0) {
                    analyse(0);
                    for (int i = 0; i < plies_[0].count && p < 0; ++i)
                        if (legal(plies_[0].cands[std::size_t(i)].point, plies_[0].cands[std::size_t(i)]))
                            p = plies_[0].cands[std::size_t(i)].point;
                }
                if (p >= 0) {
                    result.best = Move::placement(p);
                    result.pv = {result.best};
                }
            }
            break;
        }
        result.score = s;
        result.win_in = win_in(s);
        result.depth = depth;
        result.pv.assign(pv_[0].begin(), pv_[0].begin() + pv_len_[0]);
        result.best = result.pv.empty() ? Move::none() : result.pv.front();
        set_counters(result, seldepth_, nodes_, start_ns_);
        result.first_score = first_score_;
        result.first_scored = first_scored_;
        if (on_info) on_info(search_info(result));
        if (stop_requested_.load(std::memory_order_relaxed)) break;
        // A proven result from an iteration at least as deep as its distance is final.
        if (is_proven(s) && std::abs(win_in(s)) <= depth) break;
    }
    set_counters(result, seldepth_, nodes_, start_ns_);
    return result;
}

} // namespace gounki::analysis
