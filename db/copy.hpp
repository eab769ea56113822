#pragma once
// `gounki copy`: a whole collection from one database to another, SQLite or PostgreSQL either way.

#include <cstdint>
#include <functional>
#include <string_view>

#include "db/game_db.hpp"

namespace gounki::db {

struct CopyStats {
    std::int64_t games = 0;
    std::int64_t rows = 0; // of every table
};

// Every table of the schema, in an order that puts a row's parents first.
inline constexpr const char* collection_tables[] = {"meta",       "players",         "events",    "sources",
                                                    "games",      "tags",            "diagnostics", "position_runs",
                                                    "position_blocks", "tree_stats", "analysis_settings", "analyses",
                                                    "jobs"};

// Copies every row of every table of `from` into `to`, ids included, in one transaction on `to`
// (all or nothing), reading `from` in one snapshot. `to` must hold no game. Both are at this
// build's schema version (GameDatabase sees to that). `progress` hears of each table as it is done.
CopyStats copy_collection(GameDatabase& from, GameDatabase& to,
                          const std::function<void(std::string_view table, std::int64_t rows)>& progress = {});

} // namespace gounki::db
