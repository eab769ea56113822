#include "analysis/selfplay.hpp"

#include "analysis/gounki/tactics.hpp"

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

template <class Pos>
PlayedGameOf<Pos> play_game(const Pos& start, std::span<const Move> opening, const PlayerOf<Pos>& white,
                            const PlayerOf<Pos>& black, int max_plies) {
    using Engine = EngineOf<Pos>;
    PlayedGameOf<Pos> game{start, {}, Outcome::none, false};
    Pos pos = start;
    std::vector<std::uint64_t> keys;
    for (Move m : opening) {
        if (pos.game_over()) break;
        keys.push_back(pos.key());
        typename Engine::Undo u;
        Engine::play(pos, m, u);
        game.plies.push_back({m, true, 0, 0});
    }
    while (!pos.game_over() && int(game.plies.size()) < max_plies) {
        const PlayerOf<Pos>& p = pos.side_to_move() == Color::white ? white : black;
        const SearchResult r = Engine::search(*p.searcher, pos, p.limits, {}, keys);
        if (!r.best) break;
        keys.push_back(pos.key());
        typename Engine::Undo u;
        Engine::play(pos, r.best, u);
        game.plies.push_back({r.best, false, r.score, r.depth});
    }
    game.outcome = pos.outcome();
    game.adjudicated = !pos.game_over();
    return game;
}

template PlayedGame play_game(const Position&, std::span<const Move>, const EnginePlayer&, const EnginePlayer&, int);
template PlayedStoneGame play_game(const stones::StonePosition&, std::span<const Move>, const StonePlayer&, const StonePlayer&,
                                   int);

std::string result_token(Outcome outcome) {
    return std::string(outcome_text(outcome == Outcome::none ? Outcome::draw : outcome));
}

} // namespace gounki::analysis
