#pragma once
// Filling a report model from what the other libraries hand over: a game record (parser/, any
// game) and its judgement (analysis/judge.hpp, whatever the game). Plain data in, plain data out.

#include <string>
#include <vector>

#include "analysis/judge.hpp"
#include "report/report_model.hpp"
#include "parser/record.hpp"

namespace gounki::report {

// The engine's centi-pieces as pieces, with the proven result.
ScoreView score_view(analysis::Score s, int win_in);

// One judged ply as the report shows it: its scores, verdict, best move and the engine's line.
Judgement judgement_of(const analysis::PlyJudgement& pj);

// A game of a report from a record of any game: tags, the start position, the main line with the
// position before each ply (as far as its moves are legal), the record's comments, NAGs and
// variations, and, when `judgement` is given, each ply's judgement (a ply whose judged move is not
// the one played keeps none) and the sides' accuracy. The id is left for the caller.
GameReport game_report(const parser::GameRecord& record, const analysis::GameJudgement* judgement = nullptr);

} // namespace gounki::report
