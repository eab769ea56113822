#pragma once
// How a move is judged: the verdicts the judge gives (analysis/judge.hpp) and reports mark
// (report/report_model.hpp), one enumeration for both. Stored in the database by value
// (db/analysis_store.cpp): append only.

#include <cstdint>

namespace gounki {

enum class Verdict : std::uint8_t {
    best, // the engine's move, or a move no worse by the curve than the thresholds
    inaccuracy,
    mistake,
    blunder,
    missed_win, // a win was proven before the move, and after it the win is gone
    allows_loss, // after the move the opponent has a proven win; the best move had none against it
    book, // an opening move of the collection's own tree (JudgeSettings::book_plies): not searched
};

} // namespace gounki
