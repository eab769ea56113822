#pragma once
// Judging a stone game with an external Gomocup brain (brain_client.hpp) instead of gounki's own
// stone engine: the same verdicts (analysis/judge.hpp) from the brain's moves and evaluations.
//
// Method: the brain is given every position of the game as a board (BOARD ... DONE) and answers
// its move; the last evaluation its MESSAGE lines printed is the position's score for the side to
// move. The played move's score is the negated score of the position after it (the next ply's
// query), as the built-in judge does. When the played move is the brain's move it scores as the
// best move; when it scores above the brain's move, it is the best move and its score the best
// score (as in the built-in judge: a best move never scores below the move played). When the brain printed no evaluation for the position before the move or after it,
// the ply is not graded (PlyJudgement::scored false): the judgement says only which move the
// brain prefers.

#include <span>

#include "analysis/judge.hpp"
#include "protocol/brain_client.hpp"

namespace gounki::protocol {

// Judges `moves` played from `start` (Gomoku freestyle or standard, Renju). A brain failure throws
// BrainError naming the engine and the ply; nothing of the game's judgement is returned then.
analysis::GameJudgement judge_with_brain(BrainClient& brain, const stones::StonePosition& start, std::span<const Move> moves,
                                         const analysis::JudgeSettings& settings);

} // namespace gounki::protocol
