// The stone engine's second threat-space prover: victory by continuous threats (VCT), fours and
// threes, for the games without captures (Gomoku, Renju) and an attacker without forbidden points
// (not Renju's Black). Used at the leaves of the search after the VCF prover and by
// StoneSearcher::find_vct.
//
// A "three" here is a move after which the attacker, moving again, would make a verified win in 3:
// a stone (w) that leaves it two or more exact five points while the defender has none. The
// defender's replies tried are then every empty point within four of w along its four lines, w
// itself, and every move that makes the defender a four or a five. Any other reply p is refuted
// by w: p lies in none of w's lines, so w's five points and their exactness stand (a defender's
// stone can only end an overline, never make one), and p gives the defender no five point, so the
// defender blocks one five point and the attacker plays the other. After a four, the defender's
// replies are its blocks, as in the VCF prover. Proofs are therefore sound.
#include <algorithm>

#include "analysis/stones/search.hpp"

namespace gounki::analysis {

namespace {
// The four lines as file and rank steps: across, up, diagonal, anti-diagonal.
constexpr int line_df[4] = {1, 0, 1, -1}, line_dr[4] = {0, 1, 1, 1};
} // namespace

bool StoneSearcher::vct_allowed() const {
    const stones::Rules& r = pos_.rules();
    return !r.captures() && !r.forbidden_for(pos_.side_to_move());
}

int StoneSearcher::vct_root(int max_plies, int ply, std::uint64_t budget) {
    if (!vct_allowed()) return -1;
    vcf_budget_end_ = budget ? nodes_ + budget : ~std::uint64_t(0);
    // As vcf_root: one pass with the whole ply budget, then shorter ones for the shortest win.
    vcf_out_of_budget_ = false;
    const int best = vct_attack(max_plies, ply, true);
    if (best <= 5) return best;
    std::array<Move, max_ply + 1> line;
    const int line_len = pv_len_[std::size_t(ply)];
    std::copy(pv_[std::size_t(ply)].begin() + ply, pv_[std::size_t(ply)].begin() + line_len, line.begin() + ply);
    for (int plies = 5; plies < best; plies += 2) {
        vcf_out_of_budget_ = false;
        if (const int r = vct_attack(plies, ply, true); r > 0) return r;
        if (stopped_ || vcf_out_of_budget_) break;
    }
    std::copy(line.begin() + ply, line.begin() + line_len, pv_[std::size_t(ply)].begin() + ply);
    pv_len_[std::size_t(ply)] = line_len;
    return best;
}

// The attacker to move. Returns the plies to the win, or -1.
int StoneSearcher::vct_attack(int plies, int ply, bool analysed) {
    pv_len_[std::size_t(ply)] = ply;
    if (stopped_) return -1;
    if (!analysed)
        if (const int r = enter_attack(vct_cache_, plies, ply, false); r != go_on) return r;
    if (plies < 3 || stopped_) return -1;
    // Fours alone first: the VCF prover, within the same budget.
    if (const int r = vcf_attack(plies, ply, true); r > 0 || stopped_ || vcf_out_of_budget_) return r;
    if (plies < 5) return -1; // a three needs the defender's reply, the open four, a block, the five
    PlyData& pd = plies_[std::size_t(ply)];
    int defender_fives = 0, block = -1;
    for (int i = 0; i < pd.count; ++i)
        if (pd.cands[std::size_t(i)].them.five) {
            ++defender_fives;
            block = i;
        }
    if (defender_fives >= 2) return -1;
    std::vector<int>& list = pd.forced;
    list.clear();
    auto consider = [&](int i) {
        const Candidate& c = pd.cands[std::size_t(i)];
        bool threat = c.us.fours;
        for (LineThreat t : c.lines_us) threat = threat || t == LineThreat::open_three;
        if (threat && legal(c.point, c)) list.push_back(i);
    };
    if (block >= 0) consider(block);
    else
        for (int i = 0; i < pd.count; ++i) consider(i);
    order_by_worth(pd, list);
    for (std::size_t k = 0; k < list.size(); ++k) { // children use their own ply's PlyData
        const int p = pd.cands[std::size_t(list[k])].point;
        play(p, ply);
        const int r = vct_defend(plies - 1, ply + 1);
        unplay(ply);
        if (r >= 0) {
            update_pv(ply, Move::placement(p));
            return r + 1;
        }
        if (stopped_ || vcf_out_of_budget_) return -1;
    }
    if (!analysed) {
        VcfEntry& e = vct_cache_[pos_.key() & (vct_cache_.size() - 1)];
        e.key = pos_.key();
        e.plies = std::uint8_t(plies);
    }
    return -1;
}

// The defender to move (analysed at `ply`): a point where the attacker, moving now, would win in
// 3 (two or more exact five points, the defender none), or -1.
int StoneSearcher::vct_threat_point(int ply) {
    const PlyData& pd = plies_[std::size_t(ply)];
    const Color defender = pos_.side_to_move(), attacker = ~defender;
    for (int i = 0; i < pd.count; ++i) {
        const Candidate& c = pd.cands[std::size_t(i)];
        if (c.them.value < worth_four_four || c.them.five) continue; // an open four or a double four, by the table
        pos_.set_side_to_move(attacker); // the defender passes
        bool ok = pos_.is_legal(Move::placement(c.point));
        if (ok) {
            play(c.point, ply);
            analyse(ply + 1);
            const PlyData& after = plies_[std::size_t(ply + 1)];
            int fives = 0;
            for (int j = 0; j < after.count && ok; ++j) {
                fives += after.cands[std::size_t(j)].them.five;
                ok = !after.cands[std::size_t(j)].us.five;
            }
            ok = ok && fives >= 2 && !pos_.game_over();
            unplay(ply);
        }
        pos_.set_side_to_move(defender);
        if (ok) return c.point;
    }
    return -1;
}

// The defender to move after the attacker's four or three. Returns the plies to the attacker's
// win, or -1.
int StoneSearcher::vct_defend(int plies, int ply) {
    if (const int r = enter_defence(ply); r != go_on) return r;
    analyse(ply);
    PlyData& pd = plies_[std::size_t(ply)];
    if (win_now(pd, ply) >= 0 || stopped_) return -1;
    std::vector<int>& replies = pd.forced;
    attacker_fives(pd, replies);
    const bool four = !replies.empty();
    if (!four) {
        if (plies < 4) return -1;
        const int w = vct_threat_point(ply);
        if (w < 0) return -1; // no threat after all
        replies.push_back(w);
        const int n = pos_.size();
        for (int d = 0; d < 4; ++d)
            for (int sign = -1; sign <= 1; sign += 2)
                for (int k = 1; k <= 4; ++k) {
                    const int f = stones::point_file(w) + sign * k * line_df[d], r = stones::point_rank(w) + sign * k * line_dr[d];
                    if (f >= 0 && r >= 0 && f < n && r < n && board_.cell(stones::make_point(f, r)) == 0)
                        replies.push_back(stones::make_point(f, r));
                }
        for (int i = 0; i < pd.count; ++i)
            if (pd.cands[std::size_t(i)].us.fours) replies.push_back(pd.cands[std::size_t(i)].point);
        std::sort(replies.begin() + 1, replies.end());
        replies.erase(std::unique(replies.begin() + 1, replies.end()), replies.end());
        replies.erase(std::remove(replies.begin() + 1, replies.end(), w), replies.end());
    } else if (plies < 2) {
        return -1;
    }
    int longest = -1;
    bool any = false;
    for (std::size_t k = 0; k < replies.size(); ++k) {
        const int p = replies[k];
        if (!pos_.is_legal(Move::placement(p))) continue;
        any = true;
        play(p, ply);
        const int r = vct_attack(plies - 1, ply + 1, false);
        unplay(ply);
        if (r < 0 || stopped_) return -1;
        if (r + 1 > longest) {
            longest = r + 1;
            update_pv(ply, Move::placement(p));
        }
    }
    // No block of the four may be played (Renju's Black): the five follows whatever is played.
    if (!any && four) return 2;
    return any ? longest : -1;
}

VcfResult StoneSearcher::find_vct(const stones::StonePosition& pos, int max_plies, std::uint64_t max_nodes) {
    return prove(pos, max_plies, max_nodes, true);
}

} // namespace gounki::analysis
