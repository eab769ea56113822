#pragma once
// The engine of the stone games (Gomoku, Ninuki; docs/rules.md 2): iterative deepening
// negamax alpha-beta with a transposition table, threat-ordered candidate moves, forced replies,
// and a threat-space prover (VCF: victory by continuous fours) at the leaves and on its own.
//
// Scores, limits and results are those of the Gounki engine (score.hpp, gounki/search.hpp): from the side
// to move; a proven result carries its distance in plies (win_at, loss_at, win_in). A game already
// decided at a node scores win_at(ply) or loss_at(ply) there: with Ninuki's end-game capture a five
// that the opponent could have broken wins only once the opponent's reply has been played, so such
// a win is counted at that reply's ply (an even distance).
//
// What is searched: the empty points within two points of a stone (the centre on an empty board).
// When the opponent threatens to win at once (a five, or a tenth captured stone), only the moves
// that can stop it are searched, and these forced replies cost no depth: a block of the five point,
// a capture, the point of a threatened capture; with end-game capture also the points that flank a
// pair of the five-to-be (a stone there prepares the capture that would break it). Proven
// results are exact within that candidate set; a quiet move farther than two points from every
// stone is never tried.
//
// Deterministic: for a given position and depth or node limit the result and node count are always
// the same (table and killers are emptied per search). It never prints: progress goes through a
// callback once per completed iteration. One StoneSearcher per thread; stop() may be called from
// another thread.

#include <atomic>
#include <cstdint>
#include <functional>
#include <span>
#include <vector>

#include "analysis/gounki/search.hpp"
#include "analysis/stones/eval.hpp"
#include "analysis/tt.hpp"
#include "core/stones/position.hpp"

namespace gounki::analysis {

struct StoneSearchOptions {
    std::size_t hash_mb = 16;
    // The threat-space prover at the leaves: the longest sequence of fours tried (plies, odd) and
    // the nodes one leaf may spend on it (the search's node count includes them).
    int vcf_plies = 11;
    std::uint64_t vcf_nodes = 400;
    // The second prover at the leaves where the first found nothing: victory by continuous threats
    // (fours and threes; Gomoku and Renju, not for an attacker with forbidden points), its longest
    // sequence and its nodes per leaf (0: off).
    int vct_plies = 9;
    std::uint64_t vct_nodes = 0;
    // Defence at the leaves: a quiet leaf where the opponent, moving now, would have a sequence of
    // fours (found within threat_nodes) scores threat_penalty less (0: not looked for).
    int threat_penalty = 0;
    std::uint64_t threat_nodes = 100;
    // Before a search limited by nodes or time (not depth): the VCT prover at the root, with
    // 1/root_vct_share of the node limit or root_vct_nodes under a time limit (0: not tried). A
    // win it proves is played at once. Not when a move is put first (judging: its score is wanted).
    int root_vct_share = 10;
    std::uint64_t root_vct_nodes = 20000;
    StoneEvalWeights eval{};
};

// The default node budget of `gounki best` on a stone position.
constexpr std::uint64_t default_stone_search_nodes = 500'000;

// A sequence of fours that ends in a win: `line` starts with the attacker's first move; its length
// is `plies` (odd for a five made by the attacker; even when the last five is one the defender
// could have broken by capture, which wins after the defender's reply).
struct VcfResult {
    bool found = false;
    int plies = 0;
    std::vector<Move> line;
    std::uint64_t nodes = 0;
};

class StoneSearcher {
public:
    using InfoCallback = std::function<void(const SearchInfo&)>;

    explicit StoneSearcher(const StoneSearchOptions& options = StoneSearchOptions{});
    StoneSearcher(const StoneSearcher&) = delete;
    StoneSearcher& operator=(const StoneSearcher&) = delete;

    SearchResult search(const stones::StonePosition& root, const SearchLimits& limits, const InfoCallback& on_info = {});

    // The shortest victory by continuous fours for the side to move, up to `max_plies`, spending at
    // most `max_nodes` nodes (0: no limit). Proofs are sound: the defender's every reply that could
    // matter is tried (blocks, captures, and with end-game capture the flanks of the five's pairs).
    VcfResult find_vcf(const stones::StonePosition& pos, int max_plies, std::uint64_t max_nodes = 0);

    // The shortest victory by continuous threats (fours and threes, vct.cpp) for the side to move,
    // up to `max_plies`, within `max_nodes` (0: no limit); never found where captures are played or
    // the side to move has forbidden points. Sound: every defence that could matter is tried.
    VcfResult find_vct(const stones::StonePosition& pos, int max_plies, std::uint64_t max_nodes = 0);

    // The transposition table's size (less than hash_mb asked for when the machine could not give it).
    std::size_t table_bytes() const { return tt_.size_bytes(); }
    // Asked from the info callback, stop() ends the search after the iteration just reported.
    void stop() { stop_requested_.store(true, std::memory_order_relaxed); }
    const StoneSearchOptions& options() const { return options_; }

    // As Searcher's (gounki/search.hpp): searches that keep the table (and the refuted sequences
    // of fours) of the searches before them, forget() to empty both; a move searched first at the
    // root of the next search, with its score reported.
    void keep_table(bool keep) { keep_table_ = keep; }
    void forget();
    void put_first(Move m) { first_point_ = m ? m.point() : -1; }

private:
    struct Candidate {
        std::int16_t point;
        std::int8_t caps_us, caps_them; // pairs each side would capture there
        PointWorth us, them;
        std::array<LineThreat, 4> lines_us;
    };
    struct PlyData {
        std::array<Candidate, stones::point_count> cands;
        int count = 0;
        // Point -> candidate, made by negamax for a forced node's replies; stale entries are
        // possible: read through candidate_of().
        std::array<std::int16_t, stones::point_count> index;
        std::array<int, stones::point_count> moves;
        std::array<int, stones::point_count> scores;
        std::array<std::int64_t, stones::point_count> keys; // negamax's sort
        int move_count = 0;
        std::vector<int> forced; // forced replies, or the fours/defences of a VCF node
        // Totals over the candidates, made by analyse() for the loops that would otherwise read them all.
        int sum_us, sum_them, max_us, max_them, caps_us, caps_them; // evaluate()'s sums
        int fives_us, fives_them; // whether there are points where each side makes a five (0 or 1)
        bool fours_us, fours_them; // each side can make a four
        bool partial = false; // analyse_tactical listed only the tactical candidates
    };

    Score negamax(int depth, Score alpha, Score beta, int ply, bool pv_node);
    Score evaluate(const PlyData& pd) const;
    // The candidates of the node at `ply` with their threats, and the totals. `fours_only`: only the
    // points where a side makes a four or a five (all the sequences of fours read; no captures).
    void analyse(int ply, bool fours_only = false);
    // analyse()'s second half: the overline corrections, the captures and the totals.
    struct Totals; // search.cpp
    void total(PlyData& pd) const;
    // analyse() at a node of depth 0 or less: where nothing needs correcting (no captures, no
    // overline rule, every point legal: Gomoku freestyle), the same totals over every candidate but
    // only the four points listed, all that such a node reads of the list (a win at once, the
    // forced blocks, the provers' fours); otherwise analyse(ply).
    void analyse_leaf(int ply);
    // Where the rules have captures and overlines win for both (Ninuki, Pente): the totals over every
    // candidate, but only the candidates a leaf or a prover's node reads listed (a four or a five
    // for either side, a capture for either side), in point order; `partial` set. Otherwise analyse().
    // Without `all_totals`, the sums and maxima of the worths are over the listed candidates alone
    // (the provers read none of them; the flags and the capture totals are the same either way).
    void analyse_tactical(int ply, bool all_totals = true);
    // What a node of the sequences of fours reads: the four points (no captures, the totals over
    // them alone), or analyse_tactical without all the totals.
    void analyse_prover(int ply);
    // The candidate of `point` in `pd`, -1 for none.
    static int candidate_of(const PlyData& pd, int point) {
        const int ci = pd.index[std::size_t(point)];
        return ci >= 0 && ci < pd.count && pd.cands[std::size_t(ci)].point == point ? ci : -1;
    }
    // The provers' moves (candidate indexes into pd), by the worth for both sides (us + them),
    // best first, equal ones in the order given.
    static void order_by_worth(const PlyData& pd, std::vector<int>& list);
    // A five of the pattern table that is an overline where overlines do not win reads as none.
    void correct_overlines(Candidate& c) const;
    // Moves that win at once for the side to move (a five that is not breakable, a tenth capture).
    int win_now(const PlyData& pd, int ply);
    // When the opponent threatens to win at once: the replies worth searching, in `out`; false
    // when no restriction applies (no threat, or one that cannot be narrowed soundly).
    bool forced_replies(const PlyData& pd, std::vector<int>& out);
    // Whether the opponent of the side to move, playing `point` now, would win at once.
    bool opponent_wins_with(int point);
    // The points where a defender's stone would make a five of `owner` through `point` breakable.
    void add_flank_points(int point, Color owner, std::vector<int>& out) const;

    // `analysed`: the node at `ply` was analysed and checked for wins at once by the caller.
    int vcf_attack(int plies, int ply, bool analysed);
    // The first steps of a prover's attacking node that its caller did not analyse (vcf_attack,
    // vct_attack with their refuted-sequence caches): out of node budget, a game already over, a
    // sequence refuted before with at least `plies` (a VCF entry says whether a line was cut by
    // the ply budget: vcf_deeper_), then analyse_prover(ply) (`fours`: the VCF prover) or
    // analyse(ply), and a win at once (1). Returns the node's result, or go_on.
    static constexpr int go_on = -2;
    struct VcfEntry; // below
    int enter_attack(std::vector<VcfEntry>& cache, int plies, int ply, bool fours);
    // The first steps of a prover's defending node (vcf_defend, vct_defend): stopped or out of
    // node budget (-1), a game already over (0 when the attacker won, else -1). Returns the
    // node's result, or go_on.
    int enter_defence(int ply);
    // The points where the attacker, the side not to move at `pd`, makes a five now, into `out`.
    static void attacker_fives(const PlyData& pd, std::vector<int>& out);
    int vcf_defend(int plies, int ply);
    // The shortest VCF for the side to move at `ply` (analysed), spending at most `budget` nodes.
    int vcf_root(int max_plies, int ply, std::uint64_t budget);

    // Whether the opponent of the side to move at `ply` (analysed), moving now, wins by fours.
    bool opponent_vcf(int ply);
    bool vct_allowed() const;
    bool root_vct(SearchResult& result);
    int vct_root(int max_plies, int ply, std::uint64_t budget);
    // find_vcf and find_vct: the prover of fours (`threes` false) or of fours and threes from `pos`.
    VcfResult prove(const stones::StonePosition& pos, int max_plies, std::uint64_t max_nodes, bool threes);
    int vct_attack(int plies, int ply, bool analysed);
    int vct_defend(int plies, int ply);
    int vct_threat_point(int ply);

    void play(int point, int ply);
    void unplay(int ply);
    bool legal(int point, const Candidate& c) const { return every_point_legal_ || legal_by_rules(point, c); }
    bool legal_by_rules(int point, const Candidate& c) const;
    // What legal() can answer from the rules alone, read once where pos_ is set (search, prove).
    void set_rules();
    bool every_point_legal_ = false; // no tournament rule, forbidden points or double-three rule
    bool plain_rules_ = false; // no captures, overlines win for both: analyse() corrects nothing
    bool tactical_rules_ = false; // captures, overlines win for both: analyse_tactical lists a part
    void update_pv(int ply, Move m);
    void check_limits();

    StoneSearchOptions options_;
    TranspositionTable tt_;
    stones::StonePosition pos_;
    ThreatBoard board_;
    SearchLimits limits_;
    std::uint64_t nodes_ = 0;
    std::uint64_t vcf_budget_end_ = 0; // the node count at which the current VCF call gives up
    bool vcf_out_of_budget_ = false;
    bool vcf_deeper_ = false; // some line was cut by the ply budget: a longer one may succeed
    std::uint64_t vcf_nodes_ = 0;
    int root_best_ = -1;
    int seldepth_ = 0;
    bool stopped_ = false;
    std::atomic<bool> stop_requested_{false};
    std::int64_t start_ns_ = 0;

    // Sequences of fours already refuted, by position key: the ply budget they failed with and
    // whether a line was cut by it. Emptied per search.
    struct VcfEntry {
        std::uint64_t key = 0;
        std::uint8_t plies = 0;
        bool cut = false;
    };
    std::vector<VcfEntry> vcf_cache_;
    std::vector<VcfEntry> vct_cache_; // the same for sequences of threats

    std::vector<PlyData> plies_;
    std::vector<stones::StoneUndo> undo_;
    std::vector<std::array<Move, max_ply + 1>> pv_;
    std::array<int, max_ply + 1> pv_len_{};
    std::array<std::array<int, 2>, max_ply + 2> killers_{};
    bool keep_table_ = false;
    int first_point_ = -1; // the move put first, for the current search
    Score first_score_ = 0;
    bool first_scored_ = false;
};

} // namespace gounki::analysis
