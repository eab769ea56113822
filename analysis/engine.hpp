#pragma once
// What the drivers written once for every family of games (engine games, the bench, the judge)
// need of a family's engine: one traits specialisation per position type, chosen at compile time,
// so the search loops stay free of run-time branches on the game. A command picks the family once
// (AnyPosition::visit) and runs the driver for it.

#include <cstdint>
#include <span>

#include "analysis/gounki/search.hpp"
#include "analysis/stones/search.hpp"
#include "core/gounki/movegen.hpp"
#include "core/gounki/position.hpp"
#include "core/stones/position.hpp"

namespace gounki::analysis {

template <class Pos>
struct EngineOf;

template <>
struct EngineOf<Position> {
    using Searcher = analysis::Searcher;
    using Options = SearchOptions;
    using Undo = UndoRecord;
    static void play(Position& pos, Move m, Undo& undo) { pos.do_move(m, undo); }
    static bool is_legal(const Position& pos, Move m) {
        MoveList legal;
        generate_moves(pos, legal);
        return legal.contains(m);
    }
    // `history`: the keys of the game's earlier positions (a repetition scores as a draw).
    static SearchResult search(Searcher& searcher, const Position& pos, const SearchLimits& limits,
                               const Searcher::InfoCallback& on_info, std::span<const std::uint64_t> history) {
        return searcher.search(pos, limits, on_info, history);
    }
};

template <>
struct EngineOf<stones::StonePosition> {
    using Searcher = StoneSearcher;
    using Options = StoneSearchOptions;
    using Undo = stones::StoneUndo;
    static void play(stones::StonePosition& pos, Move m, Undo& undo) { pos.play(m, undo); }
    static bool is_legal(const stones::StonePosition& pos, Move m) { return pos.is_legal(m); }
    // The stone games have no repetition rule: the search needs no history.
    static SearchResult search(Searcher& searcher, const stones::StonePosition& pos, const SearchLimits& limits,
                               const Searcher::InfoCallback& on_info, std::span<const std::uint64_t>) {
        return searcher.search(pos, limits, on_info);
    }
};

} // namespace gounki::analysis
