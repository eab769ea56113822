#pragma once
// Stored judgements: what `gounki analyze` found for a game with given settings, kept so that a
// report can be written without searching again and an interrupted analysis resumes where it
// stopped (a game already judged with the same settings is skipped).

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "analysis/judge.hpp"
#include "db/sqlite.hpp"

namespace gounki::db {

// Migration 2 of the schema (see schema.sql's conventions): the analysis tables.
extern const char analysis_schema_sql_v2[];
// Migration 5: the external engine (name and version from its ABOUT) of a settings row.
extern const char analysis_engine_sql_v5[];

struct StoredJudgement {
    std::int64_t game_id = 0;
    std::string settings; // the settings text the analysis ran with (analysis_settings_text)
    std::string created; // UTC, 'YYYY-MM-DD HH:MM:SS'
    std::string engine; // the external engine's name and version; empty for gounki's own engine
    analysis::GameJudgement judgement;
};

// A stable text naming everything that changes a judgement: engine limits, curve, thresholds.
// Two runs with the same text give the same verdicts (the search is deterministic for node and
// depth limits).
std::string analysis_settings_text(const analysis::JudgeSettings& s);
// The same for an external engine: "engine='NAME' command='CMD' time=MS curve=... inaccuracy=...".
// " nodes=N" follows the time when a node budget (INFO max_node) was given.
std::string engine_settings_text(const std::string& engine, const std::string& command, int turn_ms, std::uint64_t max_node,
                                 const analysis::JudgeSettings& s);

class AnalysisStore {
public:
    explicit AnalysisStore(Database& db) : db_(db) {}

    bool has(std::int64_t game_id, const std::string& settings);
    // Replaces any judgement of the game with the same settings, in one statement. `engine`: the
    // external engine's name (empty for gounki's own). False, and nothing stored, when the game is
    // not in the database (deleted while it was judged).
    bool save(std::int64_t game_id, const std::string& settings, const analysis::GameJudgement& j,
              const std::string& engine = {});
    // The judgement with these settings, or with an empty `settings` the newest one of the game.
    std::optional<StoredJudgement> load(std::int64_t game_id, const std::string& settings = {});

private:
    Database& db_;
};

// The per-ply BLOB of the analyses table; empty optional when it is malformed. Plies an external
// engine could not grade (PlyJudgement::scored false) follow the side summaries as a count and
// their indexes; a judgement where every ply is graded has no such trailer. A judgement with book
// plies (verdict book) always has that trailer (its count may then be 0), followed by each side's
// number of book moves. The side summaries hold the graded verdicts' counts only.
std::vector<std::uint8_t> encode_judgement(const analysis::GameJudgement& j);
std::optional<analysis::GameJudgement> decode_judgement(std::span<const std::uint8_t> blob);

} // namespace gounki::db
