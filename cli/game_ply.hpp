#pragma once
// A stored game's board at any ply, for `show ID --ply N` and `board --game ID --ply N`.

#include <QCommandLineParser>

#include <optional>
#include <string>

#include "cli/command.hpp"
#include "core/any_position.hpp"
#include "db/game_db.hpp"

namespace gounki::cli {

// A stored game replayed to one ply.
struct GamePly {
    AnyPosition position; // after `ply` plies
    int ply = 0; // 0: the start
    int plies = 0; // the game's length
    Move last; // the move that led there (none at ply 0)
    std::string last_text; // "12... c2-d3" (empty at ply 0)
    std::string heading; // game_ply_heading, when the caller sets it
};

// --ply N|end (`end` the default: after the last move).
void add_ply_option(QCommandLineParser& p);
// The game replayed to --ply; nullopt after printing a usage error (a malformed value, or past the
// game's end: the message names its length).
std::optional<GamePly> read_game_ply(const Command& cmd, const QCommandLineParser& p, const db::StoredGame& game);

// "game 12, ply 7 of 57, after 4. c2-d3; White to move" (or "the game is over: ...").
std::string game_ply_heading(const db::StoredGame& game, const GamePly& at);

} // namespace gounki::cli
