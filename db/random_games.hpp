#pragma once
// Random legal games from core, for benchmarks and tests: each move uniform among the legal ones,
// tags drawn from small pools so that filters have something to find. Deterministic per seed.

#include <cstdint>
#include <random>

#include "db/game_db.hpp"

namespace gounki::db {

struct RandomGameOptions {
    int max_plies = 40; // a game stops here unless it ended before
    int players = 1000; // "Player 1" .. "Player N"
    int events = 50; // "Event 1" .. "Event N"
};

// Game `number` of a generated collection (its number goes into the Round tag).
GameInput random_game(std::mt19937_64& rng, const RandomGameOptions& options, std::int64_t number);

} // namespace gounki::db
