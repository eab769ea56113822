#include "analysis/stones/play.hpp"

#include <array>
#include <chrono>
#include <ctime>

#include "analysis/judge.hpp"

namespace gounki::analysis {

namespace {

bool near_stone(const stones::StonePosition& pos, int p) {
    const int f0 = stones::point_file(p), r0 = stones::point_rank(p);
    for (int r = r0 - 2; r <= r0 + 2; ++r)
        for (int f = f0 - 2; f <= f0 + 2; ++f)
            if (pos.on_board(f, r) && pos.at(stones::make_point(f, r)) != stones::Stone::empty) return true;
    return false;
}

// Middle games of `gounki selfplay --game gomoku|ninuki --games 6 --nodes 20000 --seed 5` games
// (plies 12 to 24; the Ninuki ones with captures already made), and the empty board.
constexpr std::array<std::string_view, 4> gomoku_positions = {
    "Gomoku 15 15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 b",
    "Gomoku 15 15/15/15/15/15/7ox6/7x7/4xoxx7/5ooxo6/6o8/15/15/15/15/15 b",
    "Gomoku 15 15/15/15/15/15/15/5xxo7/5xoxo6/3o1o3o5/4xx9/15/15/15/15/15 b",
    "Gomoku 15 15/15/15/15/9x5/6x1o6/5xxo7/5xoxo6/2xooooxoo5/4xx4o4/11x3/15/15/15/15 b",
};
constexpr std::array<std::string_view, 4> ninuki_positions = {
    "Ninuki 19 19/19/19/19/19/19/19/8oxxxox5/8x10/8ox9/8oxo8/8o10/8o10/19/19/19/19/19/19 b 0 0",
    "Ninuki 19 19/19/19/19/19/19/19/19/5o4o8/4o2o1x9/3x3ox10/6ox11/6x12/5o13/19/19/19/19/19 b 0 2",
    "Ninuki 19 19/19/19/19/19/19/10o8/7ooxxxox5/8x10/7xo10/6x2xo8/5o2oo9/8o1x8/8x10/19/19/19/19/19 b 2 2",
    "Ninuki 19 19/19/19/19/19/10x8/10o8/6x3o8/7x1xo8/8ox9/3x3ox1o8/6ox11/5xx12/5o13/19/19/19/19/19 b 4 2",
};

// A 59-ply engine game (`gounki selfplay --game ninuki --games 10 --nodes 10000 --seed 11 --random-plies 12`,
// game 7, won by Black): the longest of about 200 such games; engine games seldom reach 60 plies.
constexpr std::array<std::string_view, 59> judge_game_moves = {
    "j10", "i12", "g11", "f13", "g12", "j9",  "j11", "l7",  "k5",  "l10", "m5",  "k14", "g13", "g10", "l5",
    "h11", "j13", "e8",  "f9",  "k8",  "i10", "j5",  "k12", "j12", "n5",  "o5",  "g14", "g15", "i14", "l11",
    "j15", "l9",  "l8",  "h13", "j11", "l13", "g8",  "h9",  "m12", "k9",  "i9",  "l13", "l12", "h13", "k11",
    "i11", "i12", "i8",  "h7",  "k16", "i14", "k10", "i9",  "h11", "k14", "g10", "e10", "i10", "j11"};

} // namespace

std::vector<Move> random_opening(const stones::StonePosition& start, int plies, Random& rng) {
    std::vector<Move> out;
    stones::StonePosition pos = start;
    for (int i = 0; i < plies && !pos.game_over(); ++i) {
        std::vector<Move> choices;
        if (pos.stone_count() == 0) {
            choices.push_back(Move::placement(stones::make_point(pos.size() / 2, pos.size() / 2)));
        } else {
            for (Move m : pos.legal_moves()) {
                if (!near_stone(pos, m.point()) || pos.breaks_tournament_rule(m.point())) continue;
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

std::span<const std::string_view> stone_bench_positions(GameKind kind) {
    // A game with captures and no positions of its own (Pente) takes Ninuki's, under its rules (cmd_bench).
    if (stones::Rules::defaults(kind).captures()) return ninuki_positions;
    return gomoku_positions;
}

BenchResult run_stone_bench(GameKind kind, int depth, std::size_t hash_mb,
                            const std::function<void(const BenchEntry&)>& on_position) {
    return run_bench_over<stones::StonePosition>(stone_bench_positions(kind), depth, hash_mb, on_position);
}

std::span<const std::string_view> judge_bench_moves() { return judge_game_moves; }

JudgeBenchResult run_judge_bench(const JudgeSettings& settings) {
    const stones::StonePosition start(stones::Rules::defaults(GameKind::ninuki));
    std::vector<Move> moves;
    for (std::string_view m : judge_game_moves) moves.push_back(Move::placement(stones::parse_point(m, start.size())));
    JudgeBenchResult out;
    const auto t0 = std::chrono::steady_clock::now();
    const std::clock_t c0 = std::clock();
    const GameJudgement g = judge_stone_game(start, moves, settings);
    out.cpu_ms = std::int64_t(double(std::clock() - c0) * 1000.0 / CLOCKS_PER_SEC);
    out.time_ms = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - t0).count();
    out.plies = int(g.plies.size());
    out.nodes = g.nodes;
    for (int c = 0; c < 2; ++c)
        for (int v = 0; v < verdict_count; ++v) out.counts[c][v] = g.sides[c].counts[v];
    return out;
}

} // namespace gounki::analysis
