#pragma once
// Between the record parser's GameRecord and the database's games: what the importer stores of a
// record (tags, start, the main line, result, status, diagnostics) and the record a stored game
// gives back for show and export. Comments, NAGs and variations live in the record text kept with
// the game (GameInput::annotated) and come back from it.

#include "db/game_db.hpp"
#include "parser/record.hpp"

namespace gounki::db {

GameInput game_input(const parser::GameRecord& record);
GameInput game_input(parser::GameRecord&& record);
parser::GameRecord game_record(const StoredGame& game);
// A generated game as a record (dbbench and tests write collections with the parser's writer).
parser::GameRecord game_record(const GameInput& game);

} // namespace gounki::db
