#pragma once
// Filling a report model from what the other libraries hand over: a game record (parser/, any
// game) and its judgement (analysis/judge.hpp, whatever the game). Plain data in, plain data out.

#include <string>
#include <vector>

#include "analysis/judge.hpp"
#include "report/report_model.hpp"
#include "parser/record.hpp"

namespace gounki::report {

Verdict report_verdict(analysis::Verdict v);
// The engine's centi-pieces as pieces, with the proven result.
ScoreView score_view(analysis::Score s, int win_in);

// One judged ply as the report shows it; the texts of the best move and of the engine's line
// (starting with it) are the caller's, as only the caller has the position to write them.
Judgement judgement_of(const analysis::PlyJudgement& pj, std::string best_move, std::vector<std::string> best_line);

// A game of a report from a record of any game: tags, the main line with the position before each
// ply (Gounki: Position texts and canonical moves; Gomoku and Ninuki: StonePosition texts and point
// names), and, when `judgement` is given, each ply's judgement (a ply whose judged move is not the
// one played keeps none) and the sides' accuracy. The id is left for the caller.
GameReport game_report(const parser::GameRecord& record, const analysis::GameJudgement* judgement = nullptr);

} // namespace gounki::report
