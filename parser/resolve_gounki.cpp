#include <algorithm>
#include <climits>

#include "parser/resolver.hpp"

namespace gounki::parser::resolve_detail {

namespace {

// The comparable core of a move's text: lower case, no blanks, no `+`, `x` read as `-`.
std::string normalize_move(std::string_view s) {
    std::string out;
    for (char c : s) {
        if (c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '+') continue;
        if (c >= 'A' && c <= 'Z') c = char(c | 0x20);
        if (c == 'x') c = '-';
        out += c;
    }
    return out;
}

// Edit distance with adjacent transpositions (optimal string alignment), capped texts only.
int edit_distance(std::string_view a, std::string_view b) {
    if (a.size() > 40 || b.size() > 40) return INT_MAX;
    int d[41][41];
    for (std::size_t i = 0; i <= a.size(); ++i) d[i][0] = int(i);
    for (std::size_t j = 0; j <= b.size(); ++j) d[0][j] = int(j);
    for (std::size_t i = 1; i <= a.size(); ++i)
        for (std::size_t j = 1; j <= b.size(); ++j) {
            const int cost = a[i - 1] != b[j - 1];
            d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost});
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
        }
    return d[a.size()][b.size()];
}

} // namespace

std::string nearest_move(const Position& pos, std::string_view written, const MoveList& candidates) {
    const std::string w = normalize_move(written);
    std::string best;
    int best_d = INT_MAX, ties = 0;
    for (Move m : candidates) {
        const std::string text = move_to_text(pos, m);
        const int d = edit_distance(w, normalize_move(text));
        if (d < best_d) {
            best_d = d;
            best = text;
            ties = 1;
        } else if (d == best_d) {
            ++ties;
        }
    }
    if (best_d <= 1 && ties == 1) return best;
    // Same squares, another order: compare the sorted target lists.
    const std::size_t star = w.find('*');
    if (star == std::string::npos) return {};
    auto squares_of = [](std::string_view t) {
        std::vector<std::string> parts;
        std::size_t i = t.find('*') + 1;
        while (i < t.size()) {
            std::size_t j = t.find(',', i);
            if (j == std::string_view::npos) j = t.size();
            parts.emplace_back(t.substr(i, j - i));
            i = j + 1;
        }
        std::sort(parts.begin(), parts.end());
        return parts;
    };
    const auto ws = squares_of(w);
    std::string found;
    int matches = 0;
    for (Move m : candidates) {
        if (m.type() != MoveType::deployment) continue;
        const std::string text = move_to_text(pos, m);
        const std::string n = normalize_move(text);
        if (n.substr(0, n.find('*')) == w.substr(0, star) && squares_of(n) == ws) {
            found = text;
            ++matches;
        }
    }
    return matches == 1 ? found : std::string();
}

std::string join_moves(const std::vector<std::string>& moves) {
    std::string out;
    for (std::size_t i = 0; i < moves.size(); ++i) {
        if (i) out += i + 1 == moves.size() ? " or " : ", ";
        out += moves[i];
    }
    return out;
}

namespace {

// Do the written capture and join markers say what `m` does in `pos`?
bool markers_canonical(const Position& pos, const MoveSpec& spec, Move m) {
    switch (m.type()) {
    case MoveType::exit: return spec.separator == MoveSeparator::dash;
    case MoveType::movement: {
        const Stack there = pos.at(m.to());
        const bool capture = !there.is_empty() && there.color() != pos.side_to_move();
        const bool joins = !capture && m.to() != m.from() && !there.is_empty();
        if (spec.optional_markers) // only a marker written and wrong is a finding
            return (spec.separator != MoveSeparator::capture || capture) && (!spec.targets[0].joins || joins);
        return (spec.separator == MoveSeparator::capture) == capture && spec.targets[0].joins == joins;
    }
    case MoveType::deployment:
        for (int i = 0; i < m.placed(); ++i) {
            const Square s = m.placed_square(i);
            bool joins = s != m.from() && !pos.at(s).is_empty();
            for (int j = 0; j < i; ++j) joins |= m.placed_square(j) == s;
            if (spec.targets[i].joins ? !joins : joins && !spec.optional_markers) return false;
        }
        return spec.order == DeployOrder::unwritten || spec.order == deploy_order_of(pos, m);
    case MoveType::placement: // not a Gounki move
        break;
    }
    return false;
}

} // namespace

// The common case without core's resolve_move, which builds strings and a fresh move list on every
// call: the written squares are checked against the stack's walks (movement_targets,
// find_deployment) and the markers here, with the same meaning as core's notation.cpp. Anything
// else (no such move, a marker that disagrees, no stack of the side to move, the game over)
// returns none and goes to resolve_move, the authority, which says what is wrong. The random
// round-trip test runs both on every move.
Move quick_resolve(const Position& pos, const MoveSpec& spec) {
    if (pos.game_over() || !is_square(spec.from)) return Move::none();
    const Stack st = pos.at(spec.from);
    if (st.is_empty() || st.color() != pos.side_to_move()) return Move::none();
    if (spec.separator != MoveSeparator::deploy) { // a movement or an exit: no need to build every move
        Move m = Move::none();
        if (spec.out) {
            if (movement_targets(pos, spec.from).exits) m = Move::exit(spec.from);
        } else if (spec.target_count == 1 && movement_reaches(pos, spec.from, spec.targets[0].square)) {
            m = Move::movement(spec.from, spec.targets[0].square);
        }
        return m && markers_canonical(pos, spec, m) ? m : Move::none();
    }
    if (spec.target_count == 0) { // `*out`: the exit
        const Move m = spec.out && movement_targets(pos, spec.from).exits ? Move::exit(spec.from) : Move::none();
        return m && markers_canonical(pos, spec, m) ? m : Move::none();
    }
    Square squares[3];
    if (spec.target_count > 3) return Move::none();
    for (int i = 0; i < spec.target_count; ++i) squares[i] = spec.targets[i].square;
    const Move m = find_deployment(pos, spec.from, squares, spec.target_count, spec.out);
    return m && markers_canonical(pos, spec, m) ? m : Move::none();
}

// Core's resolve_move, the authority on what a written move names, with every diagnostic: for the
// moves quick_resolve leaves alone. Returns the move, or none after reporting why there is none.
Move Resolver::full_resolve(const ast::Move& m, const LineState& st, bool main) {
    const Position& pos = st.pos.g;
    Resolution r = resolve_move(pos, m.spec);
    if (r.move) {
        for (MarkerWarning w : r.warnings)
            report_move(Severity::warning, marker_warning_code(w), m, st,
                        std::string(marker_warning_text(w)) + " (canonical: " + move_to_text(pos, r.move) + ")");
        return r.move;
    }
    if (r.failure == ResolveFailure::game_over) {
        std::string how = "the game is already over";
        if (main && end_ply_ >= 0)
            how += " (" + std::string(pos.outcome() == Outcome::white_wins ? "White" : "Black") + " won with " + end_text_ + ")";
        report_move(Severity::error, "move-after-end", m, st, how + "; no move can follow");
        return Move::none();
    }
    MoveList candidates = r.stack_moves;
    if (candidates.empty()) generate_moves(pos, candidates);
    std::string message = r.message;
    std::vector<std::string> legal;
    for (Move lm : r.stack_moves) legal.push_back(move_to_text(pos, lm));
    if (!legal.empty()) message += "; the stack on " + square_name(m.spec.from) + " can play " + join_moves(legal);
    else if (r.failure == ResolveFailure::illegal) message += "; the stack on " + square_name(m.spec.from) + " has no legal move";
    const std::string near = nearest_move(pos, src_.slice(m.offset, m.length), candidates);
    if (!near.empty()) message += "; did you mean " + near + "?";
    Diagnostic& d = report_move(Severity::error, "illegal-move", m, st, message);
    d.legal_moves = std::move(legal);
    d.suggestion = near;
    return Move::none();
}

const ast::Move* move_at(const std::vector<ast::Element>& elements, std::size_t k) {
    if (k >= elements.size() || elements[k].get().which() != 1) return nullptr;
    return &boost::get<ast::Move>(elements[k].get());
}

bool is_board_square(const ast::Move& m) { return m.is_placement() && m.place_file < 8 && m.place_rank < 8; }
Square square_of(const ast::Move& m) { return make_square(m.place_file, m.place_rank); }

// What a game's moves say of their notation: LC4's forms, else the official site's loose squares.
Notation detect_notation(const std::vector<ast::Element>& elements) {
    constexpr std::uint8_t lc4_forms =
        ast::Move::point_exit | ast::Move::plus_deploy | ast::Move::dashed_targets | ast::Move::hash_out;
    bool official = false;
    for (const ast::Element& e : elements) {
        if (e.get().which() != 1) continue;
        const ast::Move& m = boost::get<ast::Move>(e.get());
        if (m.form & lc4_forms) return Notation::lc4;
        official |= m.is_placement() || m.is_lone_out();
    }
    return official ? Notation::official : Notation::wikipedia;
}

// Longer than 80 lines: one walk over the pieces of a written move, whose steps (origin, separator,
// squares, join marks, the last step out) share the running state and the reasons to fail.
Resolver::Group Resolver::group(const std::vector<ast::Element>& elements, std::size_t& i, const LineState& st, ast::Move& out) {
    const ast::Move& m = boost::get<ast::Move>(elements[i].get());
    const Position& pos = st.pos.g;
    auto extend = [&](const ast::Move& piece) { out.length = piece.offset + piece.length - out.offset; };
    auto fail = [&](const ast::Move& at, std::string message) {
        report_move(Severity::error, "bad-move", at, st, std::move(message));
        return Group::failed;
    };
    if (m.is_lone_out()) return fail(m, "OUT alone: no square before it says which stack leaves the board");
    if (notation_ == Notation::wikipedia) return Group::none; // squares alone are reported as they stand
    out = m;
    out.spec.optional_markers = true;
    if (m.is_placement()) {
        if (!is_board_square(m) || (m.form & ast::Move::point_exit)) return Group::none;
        const Square first = square_of(m);
        const Stack there = pos.at(first);
        if ((there.is_empty() || there.color() != pos.side_to_move()) && !pos.game_over()) {
            // `[<from> <sep>] <to>`: a square that holds none of the mover's stacks is where a move
            // goes, its origin left out. Named by the only movement that lands there.
            MoveList moves;
            generate_moves(pos, moves);
            std::vector<Move> landing;
            for (Move mv : moves)
                if (mv.type() == MoveType::movement && mv.to() == first) landing.push_back(mv);
            if (landing.size() == 1) {
                out.place_file = out.place_rank = -1;
                out.form = 0;
                out.spec.from = landing[0].from();
                out.spec.separator = MoveSeparator::dash;
                out.spec.targets[0] = WrittenTarget{first, bool(m.form & ast::Move::point_join)};
                out.spec.target_count = 1;
                return Group::grouped;
            }
            std::vector<std::string> texts;
            for (Move mv : landing) texts.push_back(move_to_text(pos, mv));
            if (landing.empty())
                return fail(m,
                            "no stack of " + color_name(pos.side_to_move()) + " on " + square_name(first) +
                                ", and none can move there");
            Diagnostic& d =
                report_move(Severity::error, "ambiguous-move", m, st,
                            "a square alone names a move by where it goes, but " + std::to_string(landing.size()) +
                                " stacks can go to " + square_name(first) + " (" + join_moves(texts) + "); write the origin");
            d.legal_moves = std::move(texts);
            return Group::failed;
        }
        if (m.form & ast::Move::point_join)
            return fail(m, "'+' after the square a stack leaves from; '+' marks the square where it joins a stack");
        const ast::Move* to = move_at(elements, i + 1);
        if (!to || !(to->is_lone_out() || is_board_square(*to)) || (to->form & ast::Move::point_exit))
            return fail(m,
                        "a square alone; a move names the stack's square and where it goes (c2 d3, b1 x c2, "
                        "d4 * d5 d6, a1 OUT)");
        out.place_file = out.place_rank = -1;
        out.form = 0;
        out.spec.from = square_of(m);
        out.spec.separator = MoveSeparator::dash;
        if (to->is_lone_out()) {
            out.spec.out = true;
        } else {
            out.spec.targets[0] = WrittenTarget{square_of(*to), bool(to->form & ast::Move::point_join)};
            out.spec.target_count = 1;
        }
        extend(*to);
        ++i;
        return Group::grouped;
    }
    if (m.spec.separator != MoveSeparator::deploy) return Group::grouped;
    if (m.form & ast::Move::plus_deploy) out.spec.order = DeployOrder::squares_first;
    else if (notation_ == Notation::lc4 && m.spec.target_count > 0) out.spec.order = DeployOrder::rounds_first;
    // `b2 * c3 c4 c5`: the squares after the first are elements of their own; the stack's size says
    // how many belong to the deployment.
    const Stack stack = pos.at(m.spec.from);
    const int pieces = stack.is_empty() ? 0 : stack.size();
    while (!out.spec.out && out.spec.target_count < std::min(pieces, 3)) {
        const ast::Move* next = move_at(elements, i + 1);
        if (!next || !(next->is_lone_out() || is_board_square(*next))) break;
        if (next->is_lone_out()) {
            out.spec.out = true;
        } else {
            out.spec.targets[out.spec.target_count++] = WrittenTarget{square_of(*next), bool(next->form & ast::Move::point_join)};
            out.spec.out = next->form & ast::Move::point_exit;
        }
        extend(*next);
        ++i;
    }
    return Group::grouped;
}

Move Resolver::resolve_exit_from(const ast::Move& m, const LineState& st, bool main) {
    const Position& pos = st.pos.g;
    const Square from = square_of(m);
    ast::Move exit = m; // the same move as `g8-Out`, for the errors of full_resolve
    exit.place_file = exit.place_rank = -1;
    exit.spec = MoveSpec{};
    exit.spec.from = from;
    exit.spec.out = true;
    exit.spec.optional_markers = true;
    const Stack st_from = pos.at(from);
    if (pos.game_over() || st_from.is_empty() || st_from.color() != pos.side_to_move()) return full_resolve(exit, st, main);
    MoveList moves;
    generate_moves_from(pos, from, moves);
    Move whole = Move::none();
    std::vector<Move> ways;
    for (Move mv : moves) {
        if (mv.type() == MoveType::exit) whole = mv;
        if (mv.type() == MoveType::exit || (mv.type() == MoveType::deployment && mv.ends_out())) ways.push_back(mv);
    }
    if (ways.empty()) return full_resolve(exit, st, main);
    if (ways.size() == 1) return ways[0];
    std::vector<std::string> texts;
    for (Move mv : ways) texts.push_back(move_to_text(pos, mv));
    if (whole) {
        Diagnostic& d =
            report_move(Severity::warning, "ambiguous-exit", m, st,
                        "the stack can leave the board in " + std::to_string(ways.size()) + " ways (" + join_moves(texts) +
                            "); read as " + move_to_text(pos, whole) + ", the whole stack leaving");
        d.legal_moves = texts;
        return whole;
    }
    Diagnostic& d = report_move(Severity::error, "ambiguous-move", m, st,
                                "the stack can leave the board in " + std::to_string(ways.size()) + " ways (" +
                                    join_moves(texts) + "); write the deployment's squares");
    d.legal_moves = std::move(texts);
    return Move::none();
}

} // namespace gounki::parser::resolve_detail
