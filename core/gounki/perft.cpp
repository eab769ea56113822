#include "core/gounki/perft.hpp"

#include "core/gounki/movegen.hpp"
#include "core/gounki/notation.hpp"

namespace gounki {

namespace {

std::uint64_t perft_fast(Position& pos, int depth) {
    if (depth == 1) return std::uint64_t(count_moves(pos));
    MoveList moves;
    generate_moves(pos, moves);
    std::uint64_t nodes = 0;
    UndoRecord undo;
    for (Move m : moves) {
        pos.do_move_unhashed(m, undo);
        nodes += perft_fast(pos, depth - 1);
        pos.undo_move(m, undo);
    }
    return nodes;
}

std::uint64_t perft_checked(Position& pos, int depth) {
    if (pos.key() != pos.compute_key())
        throw PerftInvariantError{"incremental hash differs from the hash computed from scratch at " + pos.to_text()};
    if (depth == 0) return 1;
    MoveList moves;
    generate_moves(pos, moves);
    if (count_moves(pos) != moves.size())
        throw PerftInvariantError{"count_moves differs from generate_moves at " + pos.to_text()};
    std::uint64_t nodes = 0;
    for (Move m : moves) {
        const Position before = pos;
        UndoRecord undo;
        pos.do_move(m, undo);
        nodes += perft_checked(pos, depth - 1);
        pos.undo_move(m, undo);
        if (!(pos == before) || pos.key() != before.key() || pos.occupancy(Color::white) != before.occupancy(Color::white) ||
            pos.occupancy(Color::black) != before.occupancy(Color::black))
            throw PerftInvariantError{"undo of " + move_to_text(before, m) + " did not restore " + before.to_text()};
    }
    return nodes;
}

} // namespace

std::uint64_t perft(Position& pos, int depth, PerftMode mode) {
    if (depth <= 0) return 1;
    return mode == PerftMode::checked ? perft_checked(pos, depth) : perft_fast(pos, depth);
}

std::vector<PerftDivideEntry> perft_divide(Position& pos, int depth, PerftMode mode) {
    std::vector<PerftDivideEntry> out;
    if (depth <= 0) return out;
    MoveList moves;
    generate_moves(pos, moves);
    UndoRecord undo;
    for (Move m : moves) {
        pos.do_move(m, undo);
        out.push_back({m, perft(pos, depth - 1, mode)});
        pos.undo_move(m, undo);
    }
    return out;
}

} // namespace gounki
