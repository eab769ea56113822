#include "core/gounki/notation.hpp"
#include "core/stones/position.hpp"
#include "core/text.hpp"

#include <cctype>

namespace gounki {

namespace {

bool is_enemy(const Position& pos, Square s, Color us) {
    const Stack st = pos.at(s);
    return !st.is_empty() && st.color() != us;
}

} // namespace

std::string move_to_text(const Position& pos, Move m) {
    if (m.type() == MoveType::placement) return stones::point_name(m.point());
    const Square from = m.from();
    const Color us = pos.at(from).color();
    std::string out = square_name(from);
    switch (m.type()) {
    case MoveType::exit: out += "-Out"; break;
    case MoveType::movement: {
        const Square to = m.to();
        out += is_enemy(pos, to, us) ? 'x' : '-';
        out += square_name(to);
        if (to != from && !pos.at(to).is_empty() && !is_enemy(pos, to, us)) out += '+';
        break;
    }
    case MoveType::deployment:
        out += '*';
        for (int i = 0; i < m.placed(); ++i) {
            const Square s = m.placed_square(i);
            if (i) out += ',';
            out += square_name(s);
            bool joins = s != from && !pos.at(s).is_empty();
            for (int j = 0; j < i; ++j) joins |= m.placed_square(j) == s;
            if (joins) out += '+';
        }
        if (m.ends_out()) out += ",out";
        break;
    case MoveType::placement: // handled above
        break;
    }
    return out;
}

namespace {
constexpr Named<Notation> notation_names[] = {
    {Notation::automatic, "automatic"}, {Notation::wikipedia, "wikipedia"},
    {Notation::official, "official"},   {Notation::lc4, "lc4"},
    {Notation::wikipedia, "canonical"}, {Notation::automatic, "auto"},
};
} // namespace

std::string_view notation_name(Notation n) { return name_of(notation_names, n); }

bool parse_notation(std::string_view text, Notation& out) {
    const std::optional<Notation> n = named(notation_names, text);
    if (n) out = *n;
    return n.has_value();
}

std::string move_to_text(const Position& pos, Move m, Notation notation) {
    if (notation == Notation::automatic || notation == Notation::wikipedia || m.type() == MoveType::placement)
        return move_to_text(pos, m);
    const Square from = m.from();
    const Color us = pos.at(from).color();
    const bool lc4 = notation == Notation::lc4;
    std::string out = square_name(from);
    switch (m.type()) {
    case MoveType::exit: out += lc4 ? "#" : " OUT"; break;
    case MoveType::movement: {
        const Square to = m.to();
        // The official notation marks a capture and a join; LC4 writes every movement with '-'.
        out += lc4 ? "-" : is_enemy(pos, to, us) ? " x " : " ";
        out += square_name(to);
        if (!lc4 && to != from && !pos.at(to).is_empty() && !is_enemy(pos, to, us)) out += '+';
        break;
    }
    case MoveType::deployment:
        out += lc4 ? (deploy_order_of(pos, m) == DeployOrder::squares_first ? "+" : "*") : " *";
        for (int i = 0; i < m.placed(); ++i) {
            const Square s = m.placed_square(i);
            if (lc4 && i) out += '-';
            if (!lc4) out += ' ';
            out += square_name(s);
            bool joins = s != from && !pos.at(s).is_empty();
            for (int j = 0; j < i; ++j) joins |= m.placed_square(j) == s;
            if (joins && !lc4) out += '+';
        }
        if (m.ends_out()) out += lc4 ? "#" : " OUT";
        break;
    case MoveType::placement: // handled above
        break;
    }
    return out;
}

std::variant<MoveSpec, MoveTextError> parse_move_text(std::string_view text) {
    MoveSpec spec;
    std::size_t i = 0;
    auto skip = [&] {
        while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i]))) ++i;
    };
    auto error = [&](std::string msg) { return std::variant<MoveSpec, MoveTextError>(MoveTextError{int(i), std::move(msg)}); };
    auto square = [&]() -> Square {
        if (i + 2 > text.size()) return no_square;
        const Square s = parse_square(text.substr(i, 2));
        if (s != no_square) i += 2;
        return s;
    };
    auto out_word = [&] {
        if (i + 3 <= text.size()) {
            std::string w;
            for (std::size_t k = 0; k < 3; ++k) w += char(std::tolower(static_cast<unsigned char>(text[i + k])));
            if (w == "out") {
                i += 3;
                return true;
            }
        }
        return false;
    };
    skip();
    spec.from = square();
    if (spec.from == no_square) return error("expected the origin square (a1..h8)");
    skip();
    if (i >= text.size()) return error("expected '-', 'x' or '*' after the origin square");
    const char sep = text[i];
    if (sep == '-') spec.separator = MoveSeparator::dash;
    else if (sep == 'x' || sep == 'X') spec.separator = MoveSeparator::capture;
    else if (sep == '*') spec.separator = MoveSeparator::deploy;
    else return error("expected '-', 'x' or '*' after the origin square");
    ++i;
    const int max_targets = spec.separator == MoveSeparator::deploy ? 3 : 1;
    for (;;) {
        skip();
        if (out_word()) {
            spec.out = true;
            break;
        }
        if (spec.target_count == max_targets)
            return error(max_targets == 1 ? "expected the end of the move" : "a deployment places at most 3 pieces");
        const Square s = square();
        if (s == no_square) return error("expected a square (a1..h8) or 'out'");
        WrittenTarget& t = spec.targets[spec.target_count++];
        t.square = s;
        skip();
        if (i < text.size() && text[i] == '+') {
            t.joins = true;
            ++i;
            skip();
        }
        if (spec.separator != MoveSeparator::deploy || i >= text.size() || text[i] != ',') break;
        ++i;
    }
    skip();
    if (i < text.size()) return error("unexpected text after the move");
    return spec;
}

std::string spec_to_text(const MoveSpec& spec) {
    std::string out = square_name(spec.from);
    out += spec.separator == MoveSeparator::dash ? '-' : spec.separator == MoveSeparator::capture ? 'x' : '*';
    for (int i = 0; i < spec.target_count; ++i) {
        if (i) out += ',';
        out += square_name(spec.targets[i].square);
        if (spec.targets[i].joins) out += '+';
    }
    if (spec.out) {
        if (spec.separator == MoveSeparator::deploy) out += spec.target_count ? ",out" : "out";
        else out += "Out";
    }
    return out;
}

namespace {
struct MarkerWarningInfo {
    MarkerWarning warning;
    std::string_view code, text;
};
constexpr MarkerWarningInfo marker_warnings[] = {
    {MarkerWarning::plus_without_join, "plus-without-join", "'+' written where no stack is joined"},
    {MarkerWarning::join_without_plus, "join-without-plus", "the move joins a stack but '+' is missing"},
    {MarkerWarning::dash_on_capture, "dash-on-capture", "'-' written for a capture (write 'x')"},
    {MarkerWarning::x_without_capture, "x-without-capture", "'x' written where nothing is captured"},
    {MarkerWarning::deploy_exit_as_deploy, "deploy-exit-as-deploy",
     "the exit of the whole stack is written 'X-Out', not 'X*out'"},
    {MarkerWarning::wrong_deploy_order, "wrong-deploy-order",
     "the deployment's order marker says the other kind is placed first"},
};
const MarkerWarningInfo* marker_warning_info(MarkerWarning w) {
    for (const MarkerWarningInfo& i : marker_warnings)
        if (i.warning == w) return &i;
    return nullptr;
}
} // namespace

std::string_view marker_warning_code(MarkerWarning w) {
    const MarkerWarningInfo* i = marker_warning_info(w);
    return i ? i->code : "marker";
}

std::string_view marker_warning_text(MarkerWarning w) {
    const MarkerWarningInfo* i = marker_warning_info(w);
    return i ? i->text : "";
}

namespace {

bool spec_matches(const MoveSpec& spec, Move m) {
    if (spec.separator == MoveSeparator::deploy) {
        if (spec.target_count == 0) return spec.out && m.type() == MoveType::exit;
        if (m.type() != MoveType::deployment || m.placed() != spec.target_count) return false;
        if (bool(m.ends_out()) != spec.out) return false;
        for (int i = 0; i < spec.target_count; ++i)
            if (m.placed_square(i) != spec.targets[i].square) return false;
        return true;
    }
    if (spec.out) return m.type() == MoveType::exit;
    return m.type() == MoveType::movement && spec.target_count == 1 && m.to() == spec.targets[0].square;
}

void check_markers(const Position& pos, const MoveSpec& spec, Move m, std::vector<MarkerWarning>& w) {
    const Color us = pos.side_to_move();
    if (m.type() == MoveType::exit) {
        if (spec.separator == MoveSeparator::deploy) w.push_back(MarkerWarning::deploy_exit_as_deploy);
        else if (spec.separator == MoveSeparator::capture) w.push_back(MarkerWarning::x_without_capture);
        return;
    }
    if (m.type() == MoveType::movement) {
        const Square to = m.to();
        const bool capture = is_enemy(pos, to, us);
        const bool joins = !capture && to != m.from() && !pos.at(to).is_empty();
        const bool strict = !spec.optional_markers;
        if (capture && spec.separator == MoveSeparator::dash && strict) w.push_back(MarkerWarning::dash_on_capture);
        if (!capture && spec.separator == MoveSeparator::capture) w.push_back(MarkerWarning::x_without_capture);
        if (spec.targets[0].joins && !joins) w.push_back(MarkerWarning::plus_without_join);
        if (!spec.targets[0].joins && joins && strict) w.push_back(MarkerWarning::join_without_plus);
        return;
    }
    for (int i = 0; i < m.placed(); ++i) {
        const Square s = m.placed_square(i);
        bool joins = s != m.from() && !pos.at(s).is_empty();
        for (int j = 0; j < i; ++j) joins |= m.placed_square(j) == s;
        if (spec.targets[i].joins && !joins) w.push_back(MarkerWarning::plus_without_join);
        if (!spec.targets[i].joins && joins && !spec.optional_markers) w.push_back(MarkerWarning::join_without_plus);
    }
    if (spec.order != DeployOrder::unwritten && spec.order != deploy_order_of(pos, m))
        w.push_back(MarkerWarning::wrong_deploy_order);
}

} // namespace

DeployOrder deploy_order_of(const Position& pos, Move m) {
    if (m.type() != MoveType::deployment) return DeployOrder::unwritten;
    const Stack st = pos.at(m.from());
    if (st.rounds() == 0) return DeployOrder::squares_first;
    if (st.squares() == 0) return DeployOrder::rounds_first;
    // The first piece placed is a round when the first step is diagonal (a round step).
    const Square first = m.placed_square(0);
    return file_of(first) != file_of(m.from()) && rank_of(first) != rank_of(m.from()) ? DeployOrder::rounds_first
                                                                                      : DeployOrder::squares_first;
}

Resolution resolve_move(const Position& pos, const MoveSpec& spec) {
    Resolution r;
    const std::string written = spec_to_text(spec);
    if (pos.game_over()) {
        r.failure = ResolveFailure::game_over;
        r.message = "the game is already over; no move can follow";
        return r;
    }
    const Stack st = pos.at(spec.from);
    const std::string side = pos.side_to_move() == Color::white ? "White" : "Black";
    if (st.is_empty()) {
        r.failure = ResolveFailure::no_stack;
        r.message = "no stack on " + square_name(spec.from);
        return r;
    }
    if (st.color() != pos.side_to_move()) {
        r.failure = ResolveFailure::enemy_stack;
        r.message = "the stack on " + square_name(spec.from) + " is not " + side + "'s, and " + side + " is to move";
        return r;
    }
    generate_moves_from(pos, spec.from, r.stack_moves);
    for (Move m : r.stack_moves) {
        if (!spec_matches(spec, m)) continue;
        r.move = m;
        check_markers(pos, spec, m, r.warnings);
        r.stack_moves.clear();
        return r;
    }
    r.failure = ResolveFailure::illegal;
    r.message = written + " is not a legal move";
    return r;
}

Resolution resolve_move_text(const Position& pos, std::string_view text) {
    auto parsed = parse_move_text(text);
    if (auto* e = std::get_if<MoveTextError>(&parsed)) {
        Resolution r;
        r.failure = ResolveFailure::illegal;
        r.message =
            "cannot read move '" + std::string(text) + "' at character " + std::to_string(e->column + 1) + ": " + e->message;
        return r;
    }
    return resolve_move(pos, std::get<MoveSpec>(parsed));
}

} // namespace gounki
