#pragma once
// What the stone games (Gomoku, Ninuki) add to the drivers of selfplay.hpp and bench.hpp: their
// random openings, their bench positions and the judging benchmark.

#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/bench.hpp"
#include "analysis/judge.hpp"
#include "analysis/selfplay.hpp"
#include "analysis/stones/search.hpp"

namespace gounki::analysis {

// `plies` random legal moves from `start`: the centre on an empty board, then points within two of
// a stone, never one that ends the game or makes a five (one that end-game capture leaves pending).
std::vector<Move> random_opening(const stones::StonePosition& start, int plies, Random& rng);

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
    int counts[2][verdict_count] = {}; // verdict counts by side (index(Color)) and Verdict
};
JudgeBenchResult run_judge_bench(const JudgeSettings& settings);

} // namespace gounki::analysis
