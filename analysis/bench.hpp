#pragma once
// bench: fixed positions searched to a fixed depth. The total node count is a signature of the
// search: it changes when (and only when) the search or evaluation changes.

#include <cstdint>
#include <functional>
#include <span>
#include <string_view>

#include "analysis/gounki/search.hpp"

namespace gounki::analysis {

// The bench positions (docs/rules.md 1.7 format): the start, middle games from engine games, races.
std::span<const std::string_view> bench_positions();

constexpr int default_bench_depth = 7;

// The bench positions of any game (Gounki's above, the stone games' in stones/play.hpp) and the
// depth `gounki bench` searches them to by default.
std::span<const std::string_view> bench_positions(GameKind kind);
int default_bench_depth_of(GameKind kind);

struct BenchEntry {
    std::string_view position;
    SearchResult result;
};

struct BenchResult {
    std::uint64_t nodes = 0;
    std::int64_t time_ms = 0; // wall clock
    std::int64_t cpu_ms = 0; // processor time of this process (the search is single-threaded)
};

// Searches every bench position to `depth` with a fresh table of `hash_mb`; `on_position` (if
// given) sees each result as it comes.
BenchResult run_bench(int depth, std::size_t hash_mb = 16, const std::function<void(const BenchEntry&)>& on_position = {});

// The same over `positions`, texts of Pos (Position or stones::StonePosition), with the family's
// engine (analysis/engine.hpp): the one bench loop of every game.
template <class Pos>
BenchResult run_bench_over(std::span<const std::string_view> positions, int depth, std::size_t hash_mb,
                           const std::function<void(const BenchEntry&)>& on_position);

} // namespace gounki::analysis
