#pragma once
// The search: iterative deepening, principal variation search (negamax alpha-beta), a
// transposition table, a quiescence search that resolves exit threats and captures.
//
// It never prints. Progress goes through a callback with a plain struct, once per completed
// iteration. For a given position, history and depth or node limit the result and the node count
// are always the same (the transposition table, killers and history are emptied per search); a
// time limit makes it depend on the machine.
//
// A Searcher is not shared between threads: give each thread its own (judge_game makes one per
// call). stop() is the only member that may be called from another thread.

#include <atomic>
#include <cstdint>
#include <functional>
#include <span>
#include <vector>

#include "analysis/gounki/eval.hpp"
#include "analysis/score.hpp"
#include "analysis/tt.hpp"
#include "core/gounki/movegen.hpp"

namespace gounki::analysis {

// What ends a search; 0 means "no limit of this kind". With none set the search goes to
// max_search_depth (or until a proven result is final).
struct SearchLimits {
    int depth = 0;
    std::uint64_t nodes = 0;
    int time_ms = 0;
};

constexpr int max_search_depth = 64;

// The engines' clock: a steady time in nanoseconds.
std::int64_t steady_now_ns();

// Whether a search that has entered `nodes` positions since `start_ns` must stop: its node budget
// is spent, or (looked at every 1024 nodes) a stop was requested or its time is up. One rule for
// both engines.
inline bool search_limit_reached(const SearchLimits& limits, std::uint64_t nodes, std::int64_t start_ns,
                                 const std::atomic<bool>& stop_requested) {
    if (limits.nodes && nodes >= limits.nodes) return true;
    if ((nodes & 1023) != 0) return false;
    return stop_requested.load(std::memory_order_relaxed) ||
        (limits.time_ms && steady_now_ns() - start_ns >= std::int64_t(limits.time_ms) * 1000000);
}

// The engine's default setting (`gounki best` without a limit, `gounki match`'s default player):
// a node budget, so that it is deterministic and takes about the same time everywhere.
constexpr std::uint64_t default_search_nodes = 1'000'000;
inline SearchLimits default_search_limits() {
    SearchLimits l;
    l.nodes = default_search_nodes;
    return l;
}

// One line of progress: sent after every completed iteration.
struct SearchInfo {
    int depth = 0;
    int seldepth = 0; // deepest ply reached, quiescence included
    Score score = 0; // from the side to move at the root
    int win_in = 0; // see score.hpp; 0 when nothing is proven
    std::uint64_t nodes = 0; // positions entered so far (root included)
    std::int64_t time_ms = 0;
    std::vector<Move> pv;
    Score first_score = 0; // with a move put first (Searcher::put_first): its score...
    bool first_scored = false; // ...when it was searched in the last completed iteration
};

struct SearchResult {
    Move best = Move::none(); // none only when the game is over at the root
    Score score = 0;
    int win_in = 0;
    int depth = 0; // the last completed iteration
    int seldepth = 0;
    std::uint64_t nodes = 0;
    std::int64_t time_ms = 0;
    std::vector<Move> pv; // starts with `best`
    bool stopped = false; // a limit cut an iteration short
    // With a move put first (Searcher::put_first): its exact score from the last completed
    // iteration, searched to the same depth as the best move (first_scored false when it was not
    // searched: not a legal move, or the search ended before it).
    Score first_score = 0;
    bool first_scored = false;
};

// A search's counters so far, written into its result alike by both engines: the deepest ply
// reached, the positions entered, and the milliseconds since `start_ns`.
inline void set_counters(SearchResult& r, int seldepth, std::uint64_t nodes, std::int64_t start_ns) {
    r.seldepth = seldepth;
    r.nodes = nodes;
    r.time_ms = (steady_now_ns() - start_ns) / 1000000;
}

// What an iteration reports: the result so far.
inline SearchInfo search_info(const SearchResult& r) {
    return {r.depth, r.seldepth, r.score, r.win_in, r.nodes, r.time_ms, r.pv, r.first_score, r.first_scored};
}

struct SearchOptions {
    std::size_t hash_mb = 16;
    EvalWeights eval{};
    // Pruning near the leaves (0 turns each off), in evaluation units per ply of remaining depth:
    // quiet moves are skipped when the static evaluation plus this margin cannot reach alpha...
    int futility_margin = 0;
    // ...and a node is cut when the static evaluation minus this margin is still above beta.
    int reverse_futility_margin = 0;
};

class Searcher {
public:
    using InfoCallback = std::function<void(const SearchInfo&)>;

    explicit Searcher(const SearchOptions& options = SearchOptions{});

    // Searches `root`. `history` holds the keys of the positions of the game before `root`
    // (oldest first) so that repeating one of them also scores as a draw; it may be empty.
    SearchResult search(const Position& root, const SearchLimits& limits, const InfoCallback& on_info = {},
                        std::span<const std::uint64_t> history = {});

    // The transposition table's size (less than hash_mb asked for when the machine could not give it).
    std::size_t table_bytes() const { return tt_.size_bytes(); }
    // Asks a running search to stop as soon as possible (safe from another thread). Asked from the
    // info callback, it ends the search after the iteration just reported (deterministic).
    void stop() { stop_requested_.store(true, std::memory_order_relaxed); }

    // Judging a game (judge.hpp): with keep_table(true) a search starts from what the searches
    // before it stored (the positions of one game share their lines) instead of an empty table;
    // forget() empties it. Results then depend on the searches made since the last forget().
    void keep_table(bool keep) { keep_table_ = keep; }
    void forget() { tt_.new_search(); }
    // The next search (only) searches `m` first at the root in every iteration, with the full
    // window, and reports its score (SearchResult::first_score).
    void put_first(Move m) { first_move_ = m; }

    const SearchOptions& options() const { return options_; }

private:
    // search()'s steps: the state of a new search, and the root's moves in first-iteration order.
    void start_search(const Position& root, const SearchLimits& limits, std::span<const std::uint64_t> history);
    void order_root_moves();
    Score search_root(int depth, Score alpha, Score beta);
    Score negamax(int depth, Score alpha, Score beta, int ply, bool pv_node);
    Score qsearch(Score alpha, Score beta, int ply, int qdepth);

    // Plays `m` at `ply`; `will_probe`: the child will look up the table (worth a prefetch).
    void make(Move m, int ply, bool will_probe);
    void unmake(Move m, int ply);
    bool is_repetition(int ply) const;
    void update_pv(int ply, Move m);
    Score exit_now(int ply, bool record_pv);
    void check_limits();
    int move_order_score(Move m, Move tt_move, int ply) const;
    bool tt_move_is_legal(Move m) const;
    void update_quiet_stats(Move best, int ply, int depth, const Move* tried, int tried_count);

    SearchOptions options_;
    Evaluator eval_;
    TranspositionTable tt_;
    Position pos_;
    SearchLimits limits_;
    std::uint64_t nodes_ = 0;
    int seldepth_ = 0;
    int root_depth_ = 0;
    bool stopped_ = false;
    std::atomic<bool> stop_requested_{false};
    std::int64_t start_ns_ = 0;

    // Keys of the game before the root, then of the search path: path_keys_[root_index_ + ply].
    std::vector<std::uint64_t> path_keys_;
    int root_index_ = 0;
    // Plies since the last irreversible move, per ply; the game history counts as reversible.
    int reversible_[max_ply + 1] = {};
    // The evaluator's base (sum of stack worths) per ply, kept up to date by make().
    int base_[max_ply + 1] = {};
    UndoRecord undo_[max_ply + 1];

    // Per-ply scratch space, allocated once: no MoveList is built (and zeroed) per node.
    struct PlyMoves {
        MoveList generated;
        Move list[MoveList::capacity];
        int scores[MoveList::capacity];
        Move quiets[MoveList::capacity];
    };
    std::vector<PlyMoves> ply_moves_;

    Move pv_[max_ply + 1][max_ply + 1];
    int pv_len_[max_ply + 1] = {};
    Move killers_[max_ply + 1][2];
    int history_[2][64][64] = {};

    MoveList root_moves_;
    bool keep_table_ = false;
    Move first_move_ = Move::none();
    Score first_score_ = 0; // the score of first_move_ in the current iteration
    bool first_scored_ = false;
};

} // namespace gounki::analysis
