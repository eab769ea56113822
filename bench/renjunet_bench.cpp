// renjunet_bench: throughput of reading a RenjuNet database (XML through expat, the ids resolved,
// every game replayed by the Renju rules) on one thread.
//
//   renjunet_bench [--games N] [--seed S] [--write FILE] [--read FILE]
//
// Generates one database in memory (std::mt19937 with seed S): 500 players, 100 tournaments in 50
// cities, the RIF rule, and N random Renju games (each stone uniform among the legal points of the
// 7x7 square around the centre while there are any, then of the whole board, to a five, a full
// board or 60 stones), then reads it with RenjuNetReader and prints games/s and MB/s. --write also
// saves the database in FILE, for `gounki validate --stats FILE`; --read reads FILE instead of
// generating one (a database saved before, or renju.net's own).
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "bench/args.hpp"
#include "bench/read_clock.hpp"
#include "core/stones/position.hpp"
#include "parser/renju/renjunet.hpp"

using namespace gounki;
using namespace gounki::parser;

namespace {

// One <game> element: its attributes and the move list of a random game.
std::string random_game(std::mt19937& rng, int id) {
    stones::StonePosition pos(stones::Rules::defaults(GameKind::renju));
    stones::StoneUndo undo;
    std::string moves;
    std::vector<Move> near;
    for (int ply = 0; ply < 60 && !pos.game_over(); ++ply) {
        near.clear();
        for (const Move m : pos.legal_moves()) {
            const int f = stones::point_file(m.point()), r = stones::point_rank(m.point());
            if (f >= 4 && f <= 10 && r >= 4 && r <= 10) near.push_back(m);
        }
        const std::vector<Move> all = near.empty() ? pos.legal_moves() : near;
        if (all.empty()) break;
        const Move m = all[rng() % all.size()];
        pos.play(m, undo);
        moves += (moves.empty() ? "" : " ") + stones::point_name(m.point());
    }
    const Outcome o = pos.outcome();
    const char* bresult = o == Outcome::black_wins ? "1" : o == Outcome::white_wins ? "0" : "0.5";
    return "<game id=\"" + std::to_string(id) + "\" tournament=\"" + std::to_string(1 + rng() % 100) + "\" round=\"" +
        std::to_string(1 + rng() % 9) + "\" black=\"" + std::to_string(1 + rng() % 500) + "\" white=\"" +
        std::to_string(1 + rng() % 500) + "\" bresult=\"" + bresult + "\" rule=\"1\">\n<move>" + moves + "</move>\n</game>\n";
}

std::string database(std::mt19937& rng, int games) {
    std::string x = "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<database version=\"1.0\">\n<countries>\n";
    x += "<country id=\"1\" name=\"Estonia\" abbr=\"EST\"/>\n</countries>\n<cities>\n";
    for (int i = 1; i <= 50; ++i) x += "<city id=\"" + std::to_string(i) + "\" name=\"City " + std::to_string(i) + "\" country=\"1\"/>\n";
    x += "</cities>\n<players>\n";
    for (int i = 1; i <= 500; ++i)
        x += "<player id=\"" + std::to_string(i) + "\" name=\"Player\" surname=\"N&#246;" + std::to_string(i) + "\" country=\"1\"/>\n";
    x += "</players>\n<rules>\n<rule id=\"1\" name=\"RIF\"/>\n</rules>\n<tournaments>\n";
    for (int i = 1; i <= 100; ++i)
        x += "<tournament id=\"" + std::to_string(i) + "\" name=\"Open " + std::to_string(i) + "\" city=\"" +
            std::to_string(1 + i % 50) + "\" start=\"" + std::to_string(1990 + i % 30) + "-08-01\" rule=\"1\"/>\n";
    x += "</tournaments>\n<games>\n";
    for (int i = 1; i <= games; ++i) x += random_game(rng, i);
    return x + "</games>\n</database>\n";
}

} // namespace

int main(int argc, char** argv) {
    int games = 100000;
    unsigned seed = 1;
    std::string write_file, read_file;
    for (bench::Args a(argc, argv); a.next();)
        if (!a.value("--games", games) && !a.value("--seed", seed) && !a.value("--write", write_file) &&
            !a.value("--read", read_file))
            return bench::Args::usage("renjunet_bench [--games N] [--seed S] [--write FILE] [--read FILE]");
    std::mt19937 rng(seed);
    std::string text;
    if (read_file.empty()) {
        text = database(rng, games);
        std::printf("generated %d random games, %.1f MB\n", games, text.size() / 1e6);
    } else {
        std::ifstream f(read_file, std::ios::binary);
        std::ostringstream all;
        all << f.rdbuf();
        text = std::move(all).str();
    }
    if (!write_file.empty()) {
        std::ofstream(write_file, std::ios::binary) << text;
        std::printf("written to %s\n", write_file.c_str());
    }
    GameRecord g;
    bench::ReadClock clock;
    std::istringstream in(text);
    RenjuNetReader reader(in, "bench.rif");
    while (reader.next(g)) clock.count(g);
    clock.report("read", double(text.size()));
    return clock.valid == clock.read ? 0 : 1;
}
