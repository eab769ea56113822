#pragma once
// The time left of a judging run over a mixed collection (gounki analyze's progress line).

#include <cstdint>
#include <optional>
#include <vector>

#include "analysis/judge.hpp"

namespace gounki::analysis {

// The time left of a run whose units are of a few kinds that cost differently (analyze: the plies
// of each game kind, a Ninuki ply costing about two Gounki or Gomoku ones). The work left weighs each
// kind's units left by that kind's measured cost so far (busy seconds per unit, summed over the
// threads); a kind not measured yet costs a measured kind's cost times the ratio of their prior
// costs. So the estimate does not jump when a collection turns from one kind to another. No clock
// inside: the caller says how long the run has taken.
class WorkEstimate {
public:
    // The prior cost of a unit of each kind (seconds; only their ratios matter once anything is measured).
    explicit WorkEstimate(std::vector<double> prior_cost);
    // `units` more of kind `kind` to do.
    void add(int kind, std::uint64_t units);
    // `units` of kind `kind` done in `busy_seconds` of one thread's time.
    void done(int kind, std::uint64_t units, double busy_seconds);
    // The share of the work done, 0..1 (by the prior costs while nothing is measured).
    double fraction() const;
    // The seconds left when the run has taken `elapsed` seconds so far; nothing until some work is measured.
    std::optional<double> seconds_left(double elapsed) const;

private:
    double work_left() const; // in busy seconds (prior seconds while nothing is measured)

    struct Kind {
        double prior = 1;
        std::uint64_t total = 0, done = 0;
        double busy = 0;
    };
    std::vector<Kind> kinds_;
};

// The prior cost of judging one ply of a game of `kind` with these settings, in seconds, before any
// is measured: at the default budgets (30,000 nodes a Gounki position, 10,000 a stone-game one, and
// four times that for a graded verdict's second look) the processor time a ply took, per game kind
// (analysis/README.md, "What a ply costs": about 13 ms Gounki, 10 ms Gomoku, 14 ms Renju, 23 ms
// Ninuki, 16 ms Pente; the board size changes it little), in
// proportion to a node budget; with a depth limit, those of the default budgets. `engine_ms`: an
// external engine's time per position (stone games), 0 for none. Only the ratios of the kinds
// matter once a game is judged.
double prior_ply_seconds(const JudgeSettings& settings, GameKind kind, int engine_ms = 0);

// The prior costs of every game kind (GameKind's values as WorkEstimate's kinds): Gounki's with
// `gounki`, the stone games' with `stones`.
std::vector<double> prior_ply_costs(const JudgeSettings& gounki, const JudgeSettings& stones, int engine_ms = 0);

} // namespace gounki::analysis
