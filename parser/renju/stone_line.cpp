#include "parser/renju/stone_line.hpp"

#include "parser/five_rules.hpp"

#include <functional>

namespace gounki::parser {

Diagnostic& add_line_diagnostic(GameRecord& game, Severity severity, std::string code, const StoneLineMove& where,
                                std::string message) {
    Diagnostic d;
    d.severity = severity;
    d.code = std::move(code);
    d.file = game.file;
    d.game = game.number;
    d.line = where.line;
    d.column = where.column;
    if (where.byte >= 0) message += " (at byte " + std::to_string(where.byte) + ")";
    d.message = std::move(message);
    game.diagnostics.push_back(std::move(d));
    return game.diagnostics.back();
}

bool play_stone_move(GameRecord& game, Line& line, const StoneLineMove& m, stones::StonePosition& pos, int ply,
                     LineEnd end) {
    const Color side = pos.side_to_move();
    auto say = [&](Severity severity, std::string_view code, const std::string& why) {
        Diagnostic& d = add_line_diagnostic(game, severity, std::string(code), m,
                                            std::to_string(ply / 2 + 1) + (side == Color::black ? ". " : "... ") +
                                                m.written + ": " + why);
        d.move_number = ply / 2 + 1;
        d.side = side;
        d.written = m.written;
        return std::ref(d);
    };
    auto fail = [&](std::string_view code, const std::string& why) {
        say(Severity::error, code, why);
        return false;
    };
    if (m.point == stones::no_point) return fail("illegal-move", m.why);
    // The point's name only for a message (made for every move, it would cost more than the check).
    const auto name = [&] { return stones::point_name(m.point); };
    if (pos.game_over()) {
        const std::string at = name();
        return fail("move-after-end", "(" + at + ") " + stones::game_over_text(pos));
    }
    if (!pos.on_board(m.point)) return fail("illegal-move", name() + " is off the board");
    if (const stones::PlaceError e = pos.check(Move::placement(m.point)); e != stones::PlaceError::none) {
        if (e == stones::PlaceError::occupied) return fail("illegal-move", stones::occupied_text(pos, m.point));
        std::string why = m.written == name() ? std::string() : name() + ": ";
        why.append(stones::place_error_text(e));
        if (const auto foul = end != LineEnd::no ? foul_ending(pos, m.point, e, m.written) : std::nullopt) {
            if (end == LineEnd::last_white_won) { // Black lost by the foul: the game ends before it, whole
                say(Severity::warning, "foul", foul->warning).get().left_out = true;
                std::vector<std::string>& comments = line.plies.empty() ? line.comments : line.plies.back().comments;
                comments.push_back(foul->comment);
                comments.insert(comments.end(), m.comments.begin(), m.comments.end());
                return true;
            }
            why += foul_result_hint();
        }
        return fail("illegal-move", why);
    }
    if (const std::string breach = opening_rule_breach(game, pos, m.point); !breach.empty())
        say(Severity::warning, "opening-rule", breach);
    stones::StoneUndo undo;
    pos.play(Move::placement(m.point), undo);
    Ply& p = line.plies.emplace_back(Move::placement(m.point), m.written);
    p.comments = m.comments;
    return true;
}

bool replay_stone_line(GameRecord& game, const std::vector<StoneLineMove>& moves, stones::StonePosition& pos,
                       std::string_view stated) {
    pos = game.start.as_stones();
    game.main.plies.reserve(game.main.plies.size() + moves.size());
    int ply = 0;
    for (const StoneLineMove& m : moves) {
        const LineEnd end = &m != &moves.back() ? LineEnd::no : stated == "1-0" ? LineEnd::last_white_won : LineEnd::last;
        if (!play_stone_move(game, game.main, m, pos, ply++, end)) return false;
    }
    return true;
}

void settle_stone_result(GameRecord& game, const stones::StonePosition& pos, const std::string& stated,
                         const StoneLineMove& where) {
    const std::string board = pos.game_over() ? std::string(outcome_text(pos.outcome())) : "*";
    game.result = stated == "*" ? board : stated;
    if (stated != "*" && pos.game_over() && stated != board) {
        const std::string what = pos.outcome() == Outcome::draw
            ? "the board is full and the game drawn"
            : std::string(pos.outcome() == Outcome::black_wins ? "Black" : "White") + " made five";
        add_line_diagnostic(game, Severity::error, "result-contradicts", where,
                            "the result is " + stated + " but " + what + " (" + board + ")");
    }
}

} // namespace gounki::parser
