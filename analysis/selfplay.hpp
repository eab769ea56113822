#pragma once
// Engine games: a few random plies for variety, then two searchers play until the game ends.
// Used by `gounki selfplay` (records for samples and for fitting the judge's curve) and
// `gounki match` (strength of one setting against another).

#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include "analysis/engine.hpp"

namespace gounki::analysis {

// A small deterministic generator (splitmix64): the same seed gives the same games on every
// platform, which std::uniform_int_distribution does not promise.
class Random {
public:
    explicit Random(std::uint64_t seed) : state_(seed) {}
    std::uint64_t next();
    // Uniform in [0, n), n > 0.
    std::uint32_t below(std::uint32_t n) { return std::uint32_t((next() >> 32) * n >> 32); }

private:
    std::uint64_t state_;
};

// `plies` random legal moves from `start`, avoiding moves that end the game or let the opponent
// leave the board at once. Fewer when the game would end anyway.
std::vector<Move> random_opening(const Position& start, int plies, Random& rng);

struct PlayedPly {
    Move move;
    bool from_opening = false; // a random ply, not chosen by a search
    Score score = 0; // search score from the mover (engine plies only)
    int depth = 0;
};

// An engine game of any family (Pos: Position or stones::StonePosition).
template <class Pos>
struct PlayedGameOf {
    Pos start;
    std::vector<PlayedPly> plies;
    Outcome outcome = Outcome::none; // a draw also for a full board
    bool adjudicated = false; // stopped at the ply cap with no winner: scored as a draw
};
using PlayedGame = PlayedGameOf<Position>;
using PlayedStoneGame = PlayedGameOf<stones::StonePosition>;

template <class Pos>
struct PlayerOf {
    typename EngineOf<Pos>::Searcher* searcher = nullptr;
    SearchLimits limits;
};
using EnginePlayer = PlayerOf<Position>;
using StonePlayer = PlayerOf<stones::StonePosition>;

// Plays `opening` from `start`, then lets the players move in turn (each search gets the game's
// earlier positions, so Gounki repetitions score as draws) until the game ends or `max_plies` is
// reached. Instantiated for Position and stones::StonePosition.
template <class Pos>
PlayedGameOf<Pos> play_game(const Pos& start, std::span<const Move> opening, const PlayerOf<Pos>& white,
                            const PlayerOf<Pos>& black, int max_plies = 400);

// "1-0", "0-1", or "1/2-1/2" (a draw, a full board, or an adjudicated game).
std::string result_token(Outcome outcome);
template <class Pos>
std::string result_token(const PlayedGameOf<Pos>& game) {
    return result_token(game.outcome);
}

} // namespace gounki::analysis
