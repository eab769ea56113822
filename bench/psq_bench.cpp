// psq_bench: throughput of reading Piskvork PSQ files (parse + replay + checks) on one thread.
//
//   psq_bench [--games N] [--seed S] [--opening K] [--write DIR]
//
// Generates N random Gomoku games on 15x15 (std::mt19937 with seed S; each stone uniform among the
// empty points of the 7x7 square around the centre while there are any, then of the whole board,
// played to a five or a full board), the first K stones of each (default 5) an opening with time 0,
// each written as a PSQ file in memory in Gomocup's shape (header, moves, two engines, -1, a result
// line). Then reads every file back with PsqReader and prints games/s and MB/s. --write also saves
// the files in DIR (1.psq, 2.psq, ...), for `gounki validate --stats DIR`.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "bench/args.hpp"
#include "bench/read_clock.hpp"
#include "core/stones/position.hpp"
#include "parser/psq/psq.hpp"

using namespace gounki;
using namespace gounki::parser;

namespace {

GameRecord random_game(std::mt19937& rng, int number, int opening) {
    GameRecord g;
    g.kind = GameKind::gomoku;
    g.start = stones::StonePosition(stones::Rules::defaults(GameKind::gomoku));
    stones::StonePosition pos = g.start.as_stones();
    stones::StoneUndo undo;
    std::vector<Move> near;
    while (!pos.game_over()) {
        near.clear();
        for (int f = 4; f <= 10; ++f)
            for (int r = 4; r <= 10; ++r)
                if (pos.at(stones::make_point(f, r)) == stones::Stone::empty)
                    near.push_back(Move::placement(stones::make_point(f, r)));
        const std::vector<Move> all = near.empty() ? pos.legal_moves() : near;
        const Move m = all[rng() % all.size()];
        pos.play(m, undo);
        g.main.plies.emplace_back(m);
    }
    g.result = std::string(outcome_text(pos.outcome()));
    g.tags = {{"Event", "Freestyle15_" + std::to_string(1 + number % 2)},
              {"Black", "ENGINE" + std::to_string(number % 40) + ".zip"},
              {"White", "ENGINE" + std::to_string((number + 7) % 40) + ".zip"},
              {"OpeningStones", std::to_string(opening)}};
    return g;
}

} // namespace

int main(int argc, char** argv) {
    int games = 100000, opening = 5;
    unsigned seed = 1;
    std::string write_dir;
    for (bench::Args a(argc, argv); a.next();)
        if (!a.value("--games", games) && !a.value("--seed", seed) && !a.value("--opening", opening) &&
            !a.value("--write", write_dir))
            return bench::Args::usage("psq_bench [--games N] [--seed S] [--opening K] [--write DIR]");
    std::mt19937 rng(seed);
    std::vector<std::string> files;
    std::size_t bytes = 0;
    long plies = 0;
    for (int i = 0; i < games; ++i) {
        const GameRecord g = random_game(rng, i, opening);
        plies += long(g.main.plies.size());
        files.push_back(write_psq(g));
        bytes += files.back().size();
    }
    std::printf("generated %d random games, %.1f plies per game, %.1f MB\n", games, double(plies) / games, bytes / 1e6);
    if (!write_dir.empty()) {
        std::filesystem::create_directories(write_dir);
        for (std::size_t i = 0; i < files.size(); ++i)
            std::ofstream(std::filesystem::path(write_dir) / (std::to_string(i + 1) + ".psq"), std::ios::binary) << files[i];
        std::printf("written to %s\n", write_dir.c_str());
    }
    GameRecord g;
    bench::ReadClock clock;
    for (const std::string& text : files) {
        std::istringstream in(text);
        PsqReader reader(in, "bench.psq");
        while (reader.next(g)) clock.count(g);
    }
    clock.report("read", double(bytes));
    return clock.valid == clock.read ? 0 : 1;
}
