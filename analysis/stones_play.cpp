#include "analysis/stones_play.hpp"

#include <array>
#include <chrono>
#include <ctime>

namespace gounki::analysis {

namespace {

bool near_stone(const stones::StonePosition& pos, int p) {
    const int f0 = stones::point_file(p), r0 = stones::point_rank(p);
    for (int r = r0 - 2; r <= r0 + 2; ++r)
        for (int f = f0 - 2; f <= f0 + 2; ++f)
            if (pos.on_board(f, r) && pos.at(stones::make_point(f, r)) != stones::Stone::empty) return true;
    return false;
}

// Middle games of `gounki selfplay --game gomoku|ninuki --depth 3` games (plies 12 to 30).
constexpr std::array<std::string_view, 4> gomoku_positions = {
    "Gomoku 15 15/15/15/15/15/15/15/7x7/15/15/15/15/15/15/15 w",
    "Gomoku 15 15/15/15/15/15/15/6o8/7xx6/6xo7/15/15/15/15/15/15 w",
    "Gomoku 15 15/15/15/15/5o9/6x8/5oxo7/5xxxo6/7o7/15/15/15/15/15/15 b",
    "Gomoku 15 15/15/15/8o6/2oxxxxox6/5o3x5/10x4/11o3/15/15/15/15/15/15/15 b",
};
constexpr std::array<std::string_view, 4> ninuki_positions = {
    "Ninuki 19 19/19/19/19/19/19/19/19/9ox8/9xo8/7x11/19/19/19/19/19/19/19/19 w 0 0",
    "Ninuki 19 19/19/19/19/19/19/19/8o10/8xx9/8ox9/7xo10/19/19/19/19/19/19/19/19 b 0 0",
    "Ninuki 19 19/19/19/19/19/19/7o11/6xx11/7xo10/6xo11/8x10/9o9/19/19/19/19/19/19/19 w 2 0",
    "Ninuki 19 19/19/19/19/19/19/19/6o1x10/7xo10/6xxo10/6o1o10/5x13/19/19/19/19/19/19/19 b 0 2",
};

} // namespace

std::vector<Move> random_stone_opening(const stones::StonePosition& start, int plies, Random& rng) {
    std::vector<Move> out;
    stones::StonePosition pos = start;
    for (int i = 0; i < plies && !pos.game_over(); ++i) {
        std::vector<Move> choices;
        if (pos.stone_count() == 0) {
            choices.push_back(Move::placement(stones::make_point(pos.size() / 2, pos.size() / 2)));
        } else {
            for (Move m : pos.legal_moves()) {
                if (!near_stone(pos, m.point())) continue;
                stones::StoneUndo u;
                pos.play(m, u);
                const bool quiet = !pos.game_over() && !pos.pending_five();
                pos.undo(u);
                if (quiet) choices.push_back(m);
            }
        }
        if (choices.empty()) break;
        const Move m = choices[rng.below(std::uint32_t(choices.size()))];
        stones::StoneUndo u;
        pos.play(m, u);
        out.push_back(m);
    }
    return out;
}

PlayedStoneGame play_stone_game(const stones::StonePosition& start, std::span<const Move> opening,
                                const StonePlayer& white, const StonePlayer& black, int max_plies) {
    PlayedStoneGame game{start, {}, Outcome::none, false};
    stones::StonePosition pos = start;
    for (Move m : opening) {
        if (pos.game_over()) break;
        stones::StoneUndo u;
        pos.play(m, u);
        game.plies.push_back({m, true, 0, 0});
    }
    while (!pos.game_over() && int(game.plies.size()) < max_plies) {
        const StonePlayer& p = pos.side_to_move() == Color::white ? white : black;
        const SearchResult r = p.searcher->search(pos, p.limits);
        if (!r.best) break;
        stones::StoneUndo u;
        pos.play(r.best, u);
        game.plies.push_back({r.best, false, r.score, r.depth});
    }
    game.outcome = pos.outcome();
    game.adjudicated = !pos.game_over();
    return game;
}

std::string result_token(Outcome outcome) {
    switch (outcome) {
    case Outcome::white_wins: return "1-0";
    case Outcome::black_wins: return "0-1";
    case Outcome::none:
    case Outcome::draw: break;
    }
    return "1/2-1/2";
}

std::span<const std::string_view> stone_bench_positions(GameKind kind) {
    if (kind == GameKind::ninuki) return ninuki_positions;
    return gomoku_positions;
}

BenchResult run_stone_bench(GameKind kind, int depth, std::size_t hash_mb,
                            const std::function<void(const BenchEntry&)>& on_position) {
    StoneSearchOptions options;
    options.hash_mb = hash_mb;
    StoneSearcher searcher(options);
    BenchResult total;
    const auto t0 = std::chrono::steady_clock::now();
    const std::clock_t c0 = std::clock();
    for (std::string_view text : stone_bench_positions(kind)) {
        const stones::StonePosition pos = std::get<stones::StonePosition>(stones::StonePosition::from_text(text));
        SearchLimits limits;
        limits.depth = depth;
        const SearchResult r = searcher.search(pos, limits);
        total.nodes += r.nodes;
        if (on_position) on_position({text, r});
    }
    total.cpu_ms = std::int64_t(double(std::clock() - c0) * 1000.0 / CLOCKS_PER_SEC);
    total.time_ms =
        std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - t0).count();
    return total;
}

} // namespace gounki::analysis
