#include "analysis/selfplay.hpp"

#include "analysis/tactics.hpp"

namespace gounki::analysis {

std::uint64_t Random::next() {
    std::uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

std::vector<Move> random_opening(const Position& start, int plies, Random& rng) {
    std::vector<Move> out;
    Position pos = start;
    for (int i = 0; i < plies && !pos.game_over(); ++i) {
        MoveList all;
        generate_moves(pos, all);
        MoveList safe;
        for (Move m : all) {
            UndoRecord u;
            pos.do_move(m, u);
            if (!pos.game_over() && !can_exit(pos, pos.side_to_move())) safe.push(m);
            pos.undo_move(m, u);
        }
        if (safe.empty()) break;
        const Move m = safe[int(rng.below(std::uint32_t(safe.size())))];
        UndoRecord u;
        pos.do_move(m, u);
        out.push_back(m);
    }
    return out;
}

PlayedGame play_game(const Position& start, std::span<const Move> opening, const EnginePlayer& white,
                     const EnginePlayer& black, int max_plies) {
    PlayedGame game;
    game.start = start;
    Position pos = start;
    std::vector<std::uint64_t> keys;
    for (Move m : opening) {
        if (pos.game_over()) break;
        keys.push_back(pos.key());
        UndoRecord u;
        pos.do_move(m, u);
        game.plies.push_back({m, true, 0, 0});
    }
    while (!pos.game_over() && int(game.plies.size()) < max_plies) {
        const EnginePlayer& p = pos.side_to_move() == Color::white ? white : black;
        const SearchResult r = p.searcher->search(pos, p.limits, {}, keys);
        keys.push_back(pos.key());
        UndoRecord u;
        pos.do_move(r.best, u);
        game.plies.push_back({r.best, false, r.score, r.depth});
    }
    game.outcome = pos.outcome();
    game.adjudicated = !pos.game_over();
    return game;
}

std::string result_token(const PlayedGame& game) {
    switch (game.outcome) {
    case Outcome::white_wins: return "1-0";
    case Outcome::black_wins: return "0-1";
    case Outcome::none:
    case Outcome::draw: break;
    }
    return "1/2-1/2";
}

} // namespace gounki::analysis
