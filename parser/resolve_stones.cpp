#include "parser/resolver.hpp"

namespace gounki::parser::resolve_detail {

Move Resolver::resolve_stone(const ast::Move& m, const LineState& st, bool main) {
    if (!st.pos.stone) { // a point alone in a Gounki game
        report_move(Severity::error, "bad-move", m, st,
                    "a point alone is a Gomoku or Ninuki move; a Gounki move names a stack and where it goes "
                    "(e.g. c2-d3); for a stone game, add a [Game \"Gomoku\"] or [Game \"Ninuki\"] tag");
        return Move::none();
    }
    const stones::StonePosition& pos = st.pos.s;
    if (!m.is_placement() || m.form) {
        report_move(Severity::error, "bad-move", m, st,
                    cat("a ", game_kind_name(out_.kind), " move is a point such as h8, not a Gounki move"));
        return Move::none();
    }
    const int size = pos.size();
    if (m.place_file >= size || m.place_rank >= size) {
        report_move(Severity::error, "illegal-move", m, st,
                    cat("the point is off the ", std::to_string(size), "x", std::to_string(size), " board (",
                        files_and_ranks(size), ")"));
        return Move::none();
    }
    const Move move = Move::placement(stones::make_point(m.place_file, m.place_rank));
    const stones::PlaceError e = pos.check(move);
    if (e == stones::PlaceError::none) return move;
    if (e == stones::PlaceError::game_over) {
        std::string how = "the game is already over";
        if (main && end_ply_ >= 0)
            how += pos.outcome() == Outcome::draw
                ? cat(" (drawn after ", end_text_, ")")
                : cat(" (", pos.outcome() == Outcome::white_wins ? "White" : "Black", " won with ", end_text_, ")");
        report_move(Severity::error, "move-after-end", m, st, how + "; no move can follow");
        return Move::none();
    }
    std::string message(stones::place_error_text(e));
    if (e == stones::PlaceError::occupied)
        message = cat("the point is occupied by a ", pos.at(move.point()) == stones::Stone::black ? "black" : "white", " stone");
    report_move(Severity::error, "illegal-move", m, st, message);
    return Move::none();
}

} // namespace gounki::parser::resolve_detail
