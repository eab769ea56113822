#pragma once
// What every reading benchmark counts and prints: games read, valid and their moves, timed by the
// wall clock and by the process's processor time (the fairer figure for one thread on a shared
// machine).
#include <chrono>
#include <cstdio>
#include <ctime>

#include "parser/record.hpp"

namespace gounki::bench {

class ReadClock {
public:
    ReadClock() : c0_(std::clock()), t0_(std::chrono::steady_clock::now()) {}
    void count(const parser::GameRecord& g) {
        ++read;
        valid += g.status == parser::GameStatus::valid;
        moves += long(g.main.plies.size());
    }
    // "read N games (V valid, M moves), X MB", then the wall and processor rates.
    void report(const char* what, double bytes) const {
        const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0_).count();
        const double cpu = double(std::clock() - c0_) / CLOCKS_PER_SEC;
        std::printf("%s %ld games (%ld valid, %ld moves), %.1f MB\n", what, read, valid, moves, bytes / 1e6);
        std::printf("wall %.3f s: %.0f games/s, %.1f MB/s\n", s, double(read) / s, bytes / 1e6 / s);
        std::printf("cpu  %.3f s: %.0f games/s, %.1f MB/s\n", cpu, double(read) / cpu, bytes / 1e6 / cpu);
    }
    long read = 0, valid = 0, moves = 0;

private:
    std::clock_t c0_;
    std::chrono::steady_clock::time_point t0_;
};

} // namespace gounki::bench
