#pragma once
// Engine games and the bench for the stone games (Gomoku, Ninuki): the counterparts of
// selfplay.hpp and bench.hpp, with the stone engine (stones_search.hpp).

#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/bench.hpp"
#include "analysis/judge.hpp"
#include "analysis/selfplay.hpp"
#include "analysis/stones_search.hpp"

namespace gounki::analysis {

// `plies` random legal moves from `start`: the centre on an empty board, then points within two of
// a stone, never one that ends the game or makes a five (one that end-game capture leaves pending).
std::vector<Move> random_stone_opening(const stones::StonePosition& start, int plies, Random& rng);

struct PlayedStoneGame {
    stones::StonePosition start;
    std::vector<PlayedPly> plies;
    Outcome outcome = Outcome::none; // draw for a full board
    bool adjudicated = false;        // stopped at the ply cap with no winner: scored as a draw
};

struct StonePlayer {
    StoneSearcher* searcher = nullptr;
    SearchLimits limits;
};

PlayedStoneGame play_stone_game(const stones::StonePosition& start, std::span<const Move> opening,
                                const StonePlayer& white, const StonePlayer& black, int max_plies = 400);

// "1-0", "0-1", or "1/2-1/2" (a full board, or adjudicated).
std::string result_token(Outcome outcome);

// The bench of a stone game: fixed middle-game positions (from engine games) searched to a fixed depth.
std::span<const std::string_view> stone_bench_positions(GameKind kind);
constexpr int default_stone_bench_depth = 4;
BenchResult run_stone_bench(GameKind kind, int depth, std::size_t hash_mb = 16,
                            const std::function<void(const BenchEntry&)>& on_position = {});

// The judging benchmark: a fixed 19x19 Ninuki engine game of 59 plies (placements), judged with
// `settings` by judge_stone_game; times as in BenchResult.
std::span<const std::string_view> judge_bench_moves();
struct JudgeBenchResult {
    int plies = 0;
    std::uint64_t nodes = 0;
    std::int64_t time_ms = 0;
    std::int64_t cpu_ms = 0;
    int counts[2][6] = {}; // verdict counts by side (index(Color)) and Verdict
};
JudgeBenchResult run_judge_bench(const JudgeSettings& settings);

} // namespace gounki::analysis
