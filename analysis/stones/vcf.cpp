// The stone engine's threat-space prover: victory by continuous fours (VCF), used at the leaves
// of the search and by StoneSearcher::find_vcf, and the tests of the fives a defender must answer
// (its defender's and the search's forced replies). Split from search.cpp, whose searcher it
// belongs to.
#include <algorithm>

#include "analysis/stones/search.hpp"

namespace gounki::analysis {

// ---------------------------------------------------------------------------------------------
// Victory by continuous fours. Both functions return the plies from their node to the win (0: the
// game is already won by the attacker there) or -1.

int StoneSearcher::vcf_root(int max_plies, int ply, std::uint64_t budget) {
    const PlyData& pd = plies_[std::size_t(ply)];
    if (!pd.fours_us) return -1;
    vcf_budget_end_ = budget ? nodes_ + budget : ~std::uint64_t(0);
    // One pass with the whole ply budget (most attempts fail, and fail once); when it succeeds,
    // shorter budgets are tried so that the distance is the shortest.
    vcf_out_of_budget_ = false;
    int best = vcf_attack(max_plies, ply, true);
    if (best <= 3) return best;
    std::array<Move, max_ply + 1> line;
    int line_len = pv_len_[std::size_t(ply)];
    std::copy(pv_[std::size_t(ply)].begin() + ply, pv_[std::size_t(ply)].begin() + line_len, line.begin() + ply);
    for (int plies = 3; plies < best; plies += 2) {
        vcf_out_of_budget_ = false;
        const int r = vcf_attack(plies, ply, true);
        if (r > 0) return r;
        if (stopped_ || vcf_out_of_budget_ || !vcf_deeper_) break;
    }
    std::copy(line.begin() + ply, line.begin() + line_len, pv_[std::size_t(ply)].begin() + ply);
    pv_len_[std::size_t(ply)] = line_len;
    return best;
}

int StoneSearcher::enter_attack(std::vector<VcfEntry>& cache, int plies, int ply, bool fours) {
    if (nodes_ >= vcf_budget_end_) {
        vcf_out_of_budget_ = true;
        return -1;
    }
    if (pos_.game_over()) return pos_.outcome() == win_for(pos_.side_to_move()) ? 0 : -1;
    const VcfEntry& e = cache[pos_.key() & (cache.size() - 1)];
    if (e.key == pos_.key() && e.plies >= plies) {
        vcf_deeper_ = vcf_deeper_ || e.cut; // the VCT prover's entries are never cut
        return -1;
    }
    if (fours) analyse_prover(ply);
    else analyse(ply);
    if (const int w = win_now(plies_[std::size_t(ply)], ply); w >= 0) {
        pv_[std::size_t(ply)][std::size_t(ply)] = Move::placement(w);
        pv_len_[std::size_t(ply)] = ply + 1;
        return 1;
    }
    return go_on;
}

int StoneSearcher::vcf_attack(int plies, int ply, bool analysed) {
    pv_len_[std::size_t(ply)] = ply;
    if (stopped_) return -1;
    if (!analysed) {
        if (const int r = enter_attack(vcf_cache_, plies, ply, true); r != go_on) return r;
    } else {
        vcf_deeper_ = false;
    }
    PlyData& pd = plies_[std::size_t(ply)];
    if (stopped_) return -1;
    if (plies < 3) {
        vcf_deeper_ = vcf_deeper_ || pd.fours_us;
        return -1;
    }
    if (!pd.fours_us) return -1; // no four to play (nothing worth remembering either)
    const Color us = pos_.side_to_move(), them = ~us;
    const bool caps = pos_.rules().captures();
    if (caps && pos_.pending_five()) return -1;
    int defender_fives = 0, block = -1;
    for (int i = 0; i < pd.count; ++i) {
        const Candidate& c = pd.cands[std::size_t(i)];
        if (c.them.five) {
            ++defender_fives;
            block = i;
        }
        if (caps && c.caps_them > 0 && pos_.captured(them) + 2 * c.caps_them >= 10) return -1;
    }
    if (defender_fives >= 2) return -1;

    // The attacker's fours, winning ones (open fours, double fours) first.
    std::vector<int>& list = pd.forced;
    list.clear();
    auto consider = [&](int i) {
        const Candidate& c = pd.cands[std::size_t(i)];
        if (c.us.fours && legal(c.point, c)) list.push_back(i);
    };
    if (block >= 0) consider(block);
    else
        for (int i = 0; i < pd.count; ++i) consider(i);
    order_by_worth(pd, list);
    for (int i : list) { // children use the PlyData of their own ply: `list` stays as it is
        const int p = pd.cands[std::size_t(i)].point;
        play(p, ply);
        ++vcf_nodes_;
        const int r = vcf_defend(plies - 1, ply + 1);
        unplay(ply);
        if (r >= 0) {
            update_pv(ply, Move::placement(p));
            return r + 1;
        }
        if (stopped_ || vcf_out_of_budget_) return -1;
    }
    if (!analysed) {
        VcfEntry& e = vcf_cache_[pos_.key() & (vcf_cache_.size() - 1)];
        e.key = pos_.key();
        e.plies = std::uint8_t(plies);
        e.cut = vcf_deeper_;
    }
    return -1;
}

int StoneSearcher::enter_defence(int ply) {
    pv_len_[std::size_t(ply)] = ply;
    if (stopped_) return -1;
    if (pos_.game_over()) return pos_.outcome() == win_for(~pos_.side_to_move()) ? 0 : -1;
    if (nodes_ >= vcf_budget_end_) {
        vcf_out_of_budget_ = true;
        return -1;
    }
    return go_on;
}

void StoneSearcher::attacker_fives(const PlyData& pd, std::vector<int>& out) {
    out.clear();
    for (int i = 0; i < pd.count; ++i)
        if (pd.cands[std::size_t(i)].them.five) out.push_back(pd.cands[std::size_t(i)].point);
}

int StoneSearcher::vcf_defend(int plies, int ply) {
    if (const int r = enter_defence(ply); r != go_on) return r;
    analyse_prover(ply);
    PlyData& pd = plies_[std::size_t(ply)];
    if (win_now(pd, ply) >= 0) return -1;
    const Color us = pos_.side_to_move();
    const stones::Rules& rules = pos_.rules();
    std::vector<int>& defences = pd.forced;
    attacker_fives(pd, defences);
    if (defences.empty() || plies < 2) return -1; // the attacker's move was no four after all
    if (rules.captures()) {
        // Blocks first (they refute most attacks), then captures, then the flanks of the five's pairs.
        const std::size_t blocks = defences.size();
        for (int i = 0; i < pd.count; ++i)
            if (pd.cands[std::size_t(i)].caps_us > 0) defences.push_back(pd.cands[std::size_t(i)].point);
        if (rules.endgame_capture) {
            if (pos_.captured(us) >= 8 || pos_.pending_five()) return -1;
            for (std::size_t k = 0; k < blocks; ++k) {
                const int f = defences[k];
                if (!opponent_wins_with(f)) return -1; // a breakable five: not a threat this prover follows
                add_flank_points(f, ~us, defences);
            }
        }
        // Drop repeats, keeping the first place of each point.
        std::size_t kept = 0;
        for (std::size_t k = 0; k < defences.size(); ++k) {
            const int p = defences[k];
            if (std::find(defences.begin(), defences.begin() + std::ptrdiff_t(kept), p) ==
                defences.begin() + std::ptrdiff_t(kept))
                defences[kept++] = p;
        }
        defences.resize(kept);
    }
    int longest = -1;
    bool any = false;
    for (int p : defences) {
        if (!pos_.is_legal(Move::placement(p))) continue;
        any = true;
        if (stopped_) return -1;
        play(p, ply);
        ++vcf_nodes_;
        const int r = vcf_attack(plies - 1, ply + 1, false);
        unplay(ply);
        if (r < 0) return -1;
        if (r + 1 > longest) {
            longest = r + 1;
            update_pv(ply, Move::placement(p));
        }
    }
    // No block may be played (each one forbidden to the defender: Renju's Black): without captures,
    // nothing else stops the five, which follows whatever the defender plays.
    if (!any && !rules.captures()) return 2;
    return any ? longest : -1;
}

// ---------------------------------------------------------------------------------------------
// The fives a defender must answer (the VCF prover's defender, the search's forced replies).

bool StoneSearcher::opponent_wins_with(int point) {
    if (pos_.pending_five()) return false;
    stones::StonePosition copy = pos_;
    copy.set_side_to_move(~pos_.side_to_move());
    const Move m = Move::placement(point);
    if (!copy.is_legal(m)) return false;
    stones::StoneUndo u;
    copy.play(m, u);
    return copy.outcome() == win_for(~pos_.side_to_move());
}

void StoneSearcher::add_flank_points(int point, Color owner, std::vector<int>& out) const {
    // After `owner` plays `point`, its fives there hold `point` and owner's stones in line with it.
    // A defender's stone can make such a five breakable only by flanking a pair of those stones
    // whose two ends are both empty now (one end ours already would be a capture now, or a five
    // the pass test finds breakable): it then takes the pair from the other end after the five.
    const std::uint8_t own = owner == Color::black ? 1 : 2;
    const int n = pos_.size();
    static constexpr int df[8] = {1, 0, 1, 1, -1, 0, -1, -1}, dr[8] = {0, 1, 1, -1, 0, -1, -1, 1};
    auto owned = [&](int f, int r) {
        if (f < 0 || r < 0 || f >= n || r >= n) return false;
        const int q = stones::make_point(f, r);
        return q == point || board_.cell(q) == own;
    };
    auto empty = [&](int f, int r) {
        if (f < 0 || r < 0 || f >= n || r >= n) return false;
        const int q = stones::make_point(f, r);
        return q != point && board_.cell(q) == 0;
    };
    const int f0 = stones::point_file(point), r0 = stones::point_rank(point);
    auto flanks_of = [&](int f, int r) {
        for (int d = 0; d < 8; ++d) {
            const int f1 = f + df[d], r1 = r + dr[d];
            if (!owned(f1, r1)) continue;
            const int fa = f - df[d], ra = r - dr[d], fb = f1 + df[d], rb = r1 + dr[d];
            if (empty(fa, ra) && empty(fb, rb)) {
                out.push_back(stones::make_point(fa, ra));
                out.push_back(stones::make_point(fb, rb));
            }
        }
    };
    flanks_of(f0, r0);
    for (int d = 0; d < 4; ++d)
        for (int sign = -1; sign <= 1; sign += 2)
            for (int k = 1; k <= 4; ++k) {
                const int f = f0 + sign * k * df[d], r = r0 + sign * k * dr[d];
                if (!owned(f, r)) break;
                flanks_of(f, r);
            }
}

VcfResult StoneSearcher::find_vcf(const stones::StonePosition& pos, int max_plies, std::uint64_t max_nodes) {
    return prove(pos, max_plies, max_nodes, false);
}

VcfResult StoneSearcher::prove(const stones::StonePosition& pos, int max_plies, std::uint64_t max_nodes, bool threes) {
    pos_ = pos;
    set_rules();
    board_.reset(pos);
    limits_ = SearchLimits{};
    nodes_ = 0;
    vcf_nodes_ = 0;
    std::fill(vcf_cache_.begin(), vcf_cache_.end(), VcfEntry{});
    if (threes) std::fill(vct_cache_.begin(), vct_cache_.end(), VcfEntry{});
    stopped_ = false;
    stop_requested_.store(false, std::memory_order_relaxed);
    start_ns_ = steady_now_ns();
    VcfResult out;
    if (pos.game_over()) return out;
    analyse(0);
    int r = -1;
    if (const int w = win_now(plies_[0], 0); w >= 0) {
        r = 1;
        pv_[0][0] = Move::placement(w);
        pv_len_[0] = 1;
    } else {
        r = threes ? vct_root(max_plies, 0, max_nodes) : vcf_root(max_plies, 0, max_nodes);
    }
    out.nodes = nodes_;
    if (r > 0) {
        out.found = true;
        out.plies = r;
        out.line.assign(pv_[0].begin(), pv_[0].begin() + pv_len_[0]);
    }
    return out;
}

} // namespace gounki::analysis
