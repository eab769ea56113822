#include "core/any_position.hpp"

#include "core/gounki/movegen.hpp"

namespace gounki {

namespace {
template <class... F>
struct Overloaded : F... {
    using F::operator()...;
};
template <class... F>
Overloaded(F...) -> Overloaded<F...>;

std::string_view trimmed(std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r' || s.back() == '\n')) s.remove_suffix(1);
    return s;
}
} // namespace

AnyPosition AnyPosition::start(GameKind kind) {
    if (family_of(kind) == Family::gounki) return Position::start();
    return stones::StonePosition(stones::Rules::defaults(kind));
}

std::variant<AnyPosition, PositionError> AnyPosition::from_text(std::string_view text) {
    const std::string_view t = trimmed(text);
    if (t == "start") return AnyPosition(Position::start());
    if (const auto kind = parse_game_kind(t)) return start(*kind);
    if (stones::is_stone_position_text(t)) {
        auto parsed = stones::StonePosition::from_text(text);
        if (auto* e = std::get_if<PositionError>(&parsed)) return std::move(*e);
        return AnyPosition(std::get<stones::StonePosition>(parsed));
    }
    auto parsed = Position::from_text(text);
    if (auto* e = std::get_if<PositionError>(&parsed)) return std::move(*e);
    return AnyPosition(std::get<Position>(parsed));
}

GameKind AnyPosition::kind() const {
    return visit(Overloaded{[](const Position&) { return GameKind::gounki; },
                            [](const stones::StonePosition& p) { return p.rules().kind; }});
}

std::uint64_t AnyPosition::key() const {
    return visit([](const auto& p) { return p.key(); });
}

Color AnyPosition::side_to_move() const {
    return visit([](const auto& p) { return p.side_to_move(); });
}

Outcome AnyPosition::outcome() const {
    return visit([](const auto& p) { return p.outcome(); });
}

std::string AnyPosition::to_text() const {
    return visit([](const auto& p) { return p.to_text(); });
}

std::string AnyPosition::move_text(Move m, Notation notation) const {
    return visit(Overloaded{[&](const Position& p) { return move_to_text(p, m, notation); },
                            [&](const stones::StonePosition&) { return stones::point_name(m.point()); }});
}

std::variant<Move, std::string> AnyPosition::parse_move(std::string_view text) const {
    return visit(Overloaded{
        [&](const Position& p) -> std::variant<Move, std::string> {
            Resolution r = resolve_move_text(p, text);
            if (!r.move) return std::move(r.message);
            return r.move;
        },
        [&](const stones::StonePosition& p) -> std::variant<Move, std::string> {
            const int point = stones::parse_point(trimmed(text), p.size());
            if (point == stones::no_point) {
                const std::string n = std::to_string(p.size());
                std::string message(1, '\'');
                message.append(text).append("' is not a point of the ").append(n).append("x").append(n).append(" board");
                return message;
            }
            const stones::PlaceError e = p.check(Move::placement(point));
            if (e != stones::PlaceError::none)
                return stones::point_name(point) + " cannot be played: " + std::string(stones::place_error_text(e));
            return Move::placement(point);
        }});
}

bool AnyPosition::is_legal(Move m) const {
    return visit(Overloaded{[&](const Position& p) {
                                MoveList list;
                                generate_moves(p, list);
                                return list.contains(m);
                            },
                            [&](const stones::StonePosition& p) { return p.is_legal(m); }});
}

std::vector<Move> AnyPosition::legal_moves() const {
    return visit(Overloaded{[](const Position& p) {
                                MoveList list;
                                generate_moves(p, list);
                                return std::vector<Move>(list.begin(), list.end());
                            },
                            [](const stones::StonePosition& p) { return p.legal_moves(); }});
}

void AnyPosition::play(Move m) {
    visit(Overloaded{[&](Position& p) {
                         UndoRecord undo;
                         p.do_move(m, undo);
                     },
                     [&](stones::StonePosition& p) {
                         stones::StoneUndo undo;
                         p.play(m, undo);
                     }});
}

bool AnyPosition::operator==(const AnyPosition& other) const { return v_ == other.v_; }

} // namespace gounki
