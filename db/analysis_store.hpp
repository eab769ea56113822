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

struct StoredJudgement {
    std::int64_t game_id = 0;
    std::string settings; // the settings text the analysis ran with (analysis_settings_text)
    std::string created; // UTC, 'YYYY-MM-DD HH:MM:SS'
    analysis::GameJudgement judgement;
};

// A stable text naming everything that changes a judgement: engine limits, curve, thresholds.
// Two runs with the same text give the same verdicts (the search is deterministic for node and
// depth limits).
std::string analysis_settings_text(const analysis::JudgeSettings& s);

class AnalysisStore {
public:
    explicit AnalysisStore(Database& db) : db_(db) {}

    bool has(std::int64_t game_id, const std::string& settings);
    // Replaces any judgement of the game with the same settings, in one statement.
    void save(std::int64_t game_id, const std::string& settings, const analysis::GameJudgement& j);
    // The judgement with these settings, or with an empty `settings` the newest one of the game.
    std::optional<StoredJudgement> load(std::int64_t game_id, const std::string& settings = {});

private:
    Database& db_;
};

// The per-ply BLOB of the analyses table; empty optional when it is malformed.
std::vector<std::uint8_t> encode_judgement(const analysis::GameJudgement& j);
std::optional<analysis::GameJudgement> decode_judgement(std::span<const std::uint8_t> blob);

} // namespace gounki::db
