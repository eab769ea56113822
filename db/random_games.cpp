#include "db/random_games.hpp"

#include <cstdio>

#include "core/gounki/movegen.hpp"

namespace gounki::db {

GameInput random_game(std::mt19937_64& rng, const RandomGameOptions& options, std::int64_t number) {
    GameInput g;
    Position pos = Position::start();
    MoveList list;
    UndoRecord undo;
    for (int ply = 0; ply < options.max_plies && !pos.game_over(); ++ply) {
        list.clear();
        generate_moves(pos, list);
        if (list.empty()) break;
        const Move m = list[int(rng() % std::uint64_t(list.size()))];
        pos.do_move(m, undo);
        g.moves.push_back(m);
    }
    if (pos.outcome() == Outcome::white_wins) g.result = ResultCode::white_wins;
    else if (pos.outcome() == Outcome::black_wins) g.result = ResultCode::black_wins;
    else g.result = ResultCode(rng() % 4); // a resignation, an agreed draw, or unfinished

    const auto pick = [&](int n) { return 1 + int(rng() % std::uint64_t(std::max(n, 1))); };
    const int white = pick(options.players);
    int black = pick(options.players);
    if (black == white) black = white % std::max(options.players, 1) + 1;
    char date[16];
    std::snprintf(date, sizeof date, "%04d.%02d.%02d", 2000 + int(rng() % 26), 1 + int(rng() % 12), 1 + int(rng() % 28));
    g.tags = {{"Event", "Event " + std::to_string(pick(options.events))},
              {"Site", "Generated"},
              {"Date", date},
              {"Round", std::to_string(number)},
              {"White", "Player " + std::to_string(white)},
              {"Black", "Player " + std::to_string(black)},
              {"Result", std::string(result_text(g.result))}};
    return g;
}

} // namespace gounki::db
