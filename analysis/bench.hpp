#pragma once
// bench: fixed positions searched to a fixed depth. The total node count is a signature of the
// search: it changes when (and only when) the search or evaluation changes.

#include <cstdint>
#include <functional>
#include <span>
#include <string_view>

#include "analysis/search.hpp"

namespace gounki::analysis {

// The bench positions (docs/rules.md 1.7 format): the start, middle games from engine games, races.
std::span<const std::string_view> bench_positions();

constexpr int default_bench_depth = 7;

struct BenchEntry {
    std::string_view position;
    SearchResult result;
};

struct BenchResult {
    std::uint64_t nodes = 0;
    std::int64_t time_ms = 0; // wall clock
    std::int64_t cpu_ms = 0;  // processor time of this process (the search is single-threaded)
};

// Searches every bench position to `depth` with a fresh table of `hash_mb`; `on_position` (if
// given) sees each result as it comes.
BenchResult run_bench(int depth, std::size_t hash_mb = 16,
                      const std::function<void(const BenchEntry&)>& on_position = {});

} // namespace gounki::analysis
