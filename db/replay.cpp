#include "db/replay.hpp"

#include "db/sqlite.hpp"

namespace gounki::db {

AnyPosition stored_start(GameKind kind, std::string_view start_text) {
    if (start_text.empty()) return AnyPosition::start(kind); // a stone game not written by this version: the defaults
    auto parsed = AnyPosition::from_text(start_text);
    const auto* error = std::get_if<PositionError>(&parsed);
    if (!error && std::get<AnyPosition>(parsed).kind() == kind) return std::get<AnyPosition>(std::move(parsed));
    throw DbError(0,
                  "the database is damaged: a stored start position does not read ('" + std::string(start_text) +
                      "'): " + (error ? error->message : "it is not a " + std::string(game_kind_name(kind)) + " position"));
}

std::string start_text_of(const AnyPosition& start) {
    static const AnyPosition standard = Position::start();
    return start == standard ? std::string() : start.to_text();
}

} // namespace gounki::db
