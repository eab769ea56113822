#pragma once
// A stored game's start, whatever its kind: it comes from the start_position column (empty for
// Gounki's standard start; a stone game always stores its start, which names its board size and
// rule options). Its replay goes forward with AnyPosition::play.

#include <cstdint>
#include <string>
#include <string_view>

#include "core/any_position.hpp"
#include "db/codec.hpp"

namespace gounki::db {

// The start of a stored game of `kind`. Throws DbError when the text does not read (a damaged
// database) or names another game.
AnyPosition stored_start(GameKind kind, std::string_view start_text);

// The start_position text a game is stored with: empty for Gounki's standard start, else the text.
std::string start_text_of(const AnyPosition& start);

// The key under which `pos` is indexed (index_key: the kind is part of it).
inline std::uint64_t index_key(const AnyPosition& pos) { return index_key(pos.kind(), pos.key()); }

} // namespace gounki::db
