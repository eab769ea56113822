#include "db/replay.hpp"

#include "core/notation.hpp"
#include "db/sqlite.hpp"

namespace gounki::db {

Replay::Replay(GameKind kind, std::string_view start_text) : kind_(kind) {
    auto damaged = [&](const std::string& why) {
        return DbError(0, "the database is damaged: a stored start position does not read ('" + std::string(start_text) +
                              "'): " + why);
    };
    if (kind == GameKind::gounki) {
        if (start_text.empty()) return;
        auto parsed = Position::from_text(start_text);
        if (auto* e = std::get_if<PositionError>(&parsed)) throw damaged(e->message);
        gounki_ = std::get<Position>(parsed);
        return;
    }
    if (start_text.empty()) { // not written by this version; the defaults of the kind
        stone_ = stones::StonePosition(stones::Rules::defaults(kind));
        return;
    }
    auto parsed = stones::StonePosition::from_text(start_text);
    if (auto* e = std::get_if<PositionError>(&parsed)) throw damaged(e->message);
    stone_ = std::get<stones::StonePosition>(parsed);
    if (stone_.rules().kind != kind) throw damaged("it is not a " + std::string(game_kind_name(kind)) + " position");
}

std::string Replay::move_text(Move m) const {
    return is_stone() ? stones::point_name(m.point()) : move_to_text(gounki_, m);
}

std::string start_text_of(const Position& start) {
    static const Position standard = Position::start();
    return start == standard ? std::string() : start.to_text();
}

std::string start_text_of(const stones::StonePosition& start) { return start.to_text(); }

} // namespace gounki::db
