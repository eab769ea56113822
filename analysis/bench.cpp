#include "analysis/bench.hpp"

#include <array>
#include <chrono>

namespace gounki::analysis {

namespace {

constexpr std::array<std::string_view, 1> positions = {
    "rsrsrsrs/srsrsrsr/8/8/8/8/RSRSRSRS/SRSRSRSR w",
};

} // namespace

std::span<const std::string_view> bench_positions() { return positions; }

BenchResult run_bench(int depth, std::size_t hash_mb, const std::function<void(const BenchEntry&)>& on_position) {
    SearchOptions options;
    options.hash_mb = hash_mb;
    Searcher searcher(options);
    BenchResult total;
    const auto t0 = std::chrono::steady_clock::now();
    for (std::string_view text : positions) {
        const Position pos = std::get<Position>(Position::from_text(text));
        SearchLimits limits;
        limits.depth = depth;
        const SearchResult r = searcher.search(pos, limits);
        total.nodes += r.nodes;
        if (on_position) on_position({text, r});
    }
    total.time_ms =
        std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - t0).count();
    return total;
}

} // namespace gounki::analysis
