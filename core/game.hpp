#pragma once
// The games gounki knows, in one table: the one place that knows their names, families, board
// sizes, who moves first and what the colours are called. Everything that reads a game's name (a
// Game tag, a position text, a --game option, a search filter) goes through parse_game_kind; a new
// rule set is a new row here plus its rules code (docs/rules.md).

#include <algorithm>
#include <array>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "core/types.hpp"

namespace gounki {

// How a game is played, which decides the position type and the engines: Gounki's stacks on an
// 8x8 board (core/gounki/position.hpp), or stones placed on points (core/stones/position.hpp).
enum class Family : std::uint8_t { gounki, stones };

struct GameInfo {
    GameKind kind;
    std::string_view name; // as written in Game tags, position texts and messages
    std::string_view id; // as typed in options: the name in lower case
    std::array<std::string_view, 3> aliases; // other names read in Game tags (lower case; empty: none)
    Family family;
    std::array<int, 3> sizes; // the board sizes it is played on (0: none), default first
    Color first_mover;
    std::string_view description; // one line for --help texts and the rules document
    int default_size() const { return sizes[0]; }
    int largest_size() const { return std::max({sizes[0], sizes[1], sizes[2]}); }
    bool has_size(int n) const { return n > 0 && (sizes[0] == n || sizes[1] == n || sizes[2] == n); }
};

// Every game, in GameKind order.
std::span<const GameInfo> games();
const GameInfo& game_info(GameKind kind);

inline std::string_view game_kind_name(GameKind kind) { return game_info(kind).name; }
inline Family family_of(GameKind kind) { return game_info(kind).family; }
inline bool is_stone_game(GameKind kind) { return family_of(kind) == Family::stones; }
// The colour that makes a game's first move: White in Gounki and Pente, Black in Gomoku, Ninuki and Renju.
inline Color first_mover(GameKind kind) { return game_info(kind).first_mover; }

// A game's name as people write it: the name or an alias, in any case, blanks around it ignored,
// '-' and '_' read as blanks ("Gomoku", "gomoku ninuki", "NINUKI-RENJU"). nullopt otherwise.
std::optional<GameKind> parse_game_kind(std::string_view text);
// The same for one family only (nullopt for a game of another family).
std::optional<GameKind> parse_game_kind(std::string_view text, Family family);
// "15, 19 or 20": the board sizes of `kind`, smallest first, for messages.
std::string sizes_text(GameKind kind);
// "gounki, gomoku or ninuki": the ids of the games of `family` (every game without one), for
// messages and --help texts.
std::string game_ids_text(std::optional<Family> family = std::nullopt);

} // namespace gounki
