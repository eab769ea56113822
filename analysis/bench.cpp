#include "analysis/bench.hpp"

#include <array>
#include <chrono>
#include <ctime>

#include "analysis/engine.hpp"
#include "analysis/stones/play.hpp"

namespace gounki::analysis {

namespace {

// Middle games are positions of `gounki selfplay --depth 4` games (plies 12 to 30); the races and
// the two forks are the hand-made positions of tests/analysis_test.cpp.
constexpr std::array<std::string_view, 12> positions = {
    "rsrsrsrs/srsrsrsr/8/8/8/8/RSRSRSRS/SRSRSRSR w",
    "1s1sr1rs/s1srs1s1/2(rrr)3(rrs)1/8/2R5/3R1S2/RS(RR)S2(RR)(SS)/S1S1S2R w",
    "1s1s2rs/s1ss2s1/8/1(RRR)2(rrs)3/8/3(rr)1S2/1S4(RRR)(SS)/S1S1S3 w",
    "r1rsrsrs/(rss)1s1srs1/S3r1r1/R7/8/8/RSR2S(RR)S/SRSR2SR w",
    "1srsrsr1/s2(rs)s(rss)2/6r1/1r6/8/1r5R/1(SS)1SRS1S/2SRSRSR w",
    "r1r1rsrs/3s3r/4ss2/8/8/1(rss)1(RR)4/3S1S1S/SRS1S1SR w",
    "1s1s1s1s/4s2(rrs)/(rrr)3R3/2s5/4R1R1/5(RS)2/1SRS3S/S1SRS1S1 w",
    "1srs1s1s/s1s1s1s1/8/8/4(rr)3/5(RS)1(rrr)/RSRS(RRR)1S1/SRS1S3 w",
    "1s4r1/3r4/8/2(RR)2s2/5R2/1(rs)6/4S3/8 b",
    "8/8/s7/4R3/8/8/8/8 w",
    "3s3s/8/8/1(RR)6/8/8/8/8 w",
    "2(ss)2s1r/5R2/6(RR)1/8/8/8/8/8 w",
};

} // namespace

std::span<const std::string_view> bench_positions() { return positions; }

std::span<const std::string_view> bench_positions(GameKind kind) {
    return is_stone_game(kind) ? stone_bench_positions(kind) : bench_positions();
}

int default_bench_depth_of(GameKind kind) { return is_stone_game(kind) ? default_stone_bench_depth : default_bench_depth; }

template <class Pos>
BenchResult run_bench_over(std::span<const std::string_view> texts, int depth, std::size_t hash_mb,
                           const std::function<void(const BenchEntry&)>& on_position) {
    using Engine = EngineOf<Pos>;
    typename Engine::Options options;
    options.hash_mb = hash_mb;
    typename Engine::Searcher searcher(options);
    BenchResult total;
    const auto t0 = std::chrono::steady_clock::now();
    const std::clock_t c0 = std::clock();
    for (std::string_view text : texts) {
        const Pos pos = std::get<Pos>(Pos::from_text(text));
        SearchLimits limits;
        limits.depth = depth;
        const SearchResult r = Engine::search(searcher, pos, limits, {}, {});
        total.nodes += r.nodes;
        if (on_position) on_position({text, r});
    }
    total.cpu_ms = std::int64_t(double(std::clock() - c0) * 1000.0 / CLOCKS_PER_SEC);
    total.time_ms = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - t0).count();
    return total;
}

template BenchResult run_bench_over<Position>(std::span<const std::string_view>, int, std::size_t,
                                              const std::function<void(const BenchEntry&)>&);
template BenchResult run_bench_over<stones::StonePosition>(std::span<const std::string_view>, int, std::size_t,
                                                           const std::function<void(const BenchEntry&)>&);

BenchResult run_bench(int depth, std::size_t hash_mb, const std::function<void(const BenchEntry&)>& on_position) {
    return run_bench_over<Position>(positions, depth, hash_mb, on_position);
}

} // namespace gounki::analysis
