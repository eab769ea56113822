#pragma once
// The games of record files as a start and a move list, for commands that play or judge them
// rather than store them (`bench --agreement`, `match --openings`).

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/any_position.hpp"

namespace gounki::cli {

struct RecordGame {
    AnyPosition start;
    std::vector<Move> moves; // the main line
    std::string where; // "file:line", for messages
};

// The games of `files` (record files of any format) by game; `only`: that game alone; at most
// `limit` of each (0: all). False after printing every error when a file or a game does not read
// (a broken game is no input to measure or play from): the caller says what it leaves undone.
bool read_record_games(const std::vector<std::string>& files, std::optional<GameKind> only, long long limit,
                       std::map<GameKind, std::vector<RecordGame>>& out);

} // namespace gounki::cli
