#pragma once
// Judging a game: for every ply the engine's best move and score, the played move's score and a
// verdict; per side, counts of verdicts and an accuracy figure.
//
// Thread use: judge_game touches nothing but its arguments (and the Searcher it makes, or the one
// the caller passes), so a thread pool can run one call per game in parallel.
//
// Method: every position of the game is searched once with the same limits, from the last back to
// the first, by one searcher whose table lives for the game (emptied at its start, so a judgement
// depends on the game and the settings only). The played move is searched first at the root of the
// position before it: the best move, its score and the played move's score come from that one
// search, to the same depth (the negated score of the position after the move stands in when the
// played move was not searched there). When the played move is the best move, or scores above it,
// it is the best move and its score the best score: a best move never scores below the move played.
// A ply whose verdict comes out graded (inaccuracy, mistake, blunder) is searched once more with a
// larger budget (JudgeSettings::confirm_factor), and that search gives its verdict.
// The progress callback sees the plies as they are judged: from the last back to the first.

#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include "analysis/gounki/search.hpp"
#include "core/any_position.hpp"
#include "core/stones/position.hpp"
#include "core/verdict.hpp"

namespace gounki::analysis {

using gounki::Verdict; // core/verdict.hpp
constexpr int verdict_count = 7;
// The verdicts a search gives (all but book): the ones a side's summary grades.
constexpr int graded_verdict_count = 6;

// "best", "inaccuracy", "mistake", "blunder", "missed-win", "allows-loss", "book".
std::string_view verdict_name(Verdict v);

struct JudgeSettings {
    SearchLimits limits{}; // per position; judge_defaults() fills a sensible default
    std::size_t hash_mb = 16; // when judge_game makes its own Searcher
    double curve_scale = 0; // 0: default_curve_scale (curve.hpp)
    // Drops in expected result (0..1, for the mover) from which a move gets a graded verdict.
    double inaccuracy = 0.05;
    double mistake = 0.10;
    double blunder = 0.20;
    // When the played move seems to give up a proven win, the position after it is searched again
    // this many plies deeper than the win's distance plus one, so a slower win is not mistaken for
    // a missed one (0 turns the check off).
    int verify_extra_plies = 2;
    // Book: an opening move played, from its position, in at least `book` games of the database is
    // not judged (0: no book; `gounki analyze` defaults to 5). The caller finds how many first plies
    // of a game are book and sets book_plies for that game; those plies get the verdict `book`, are
    // not searched, and count in no accuracy nor in any mistake count.
    int book = 0;
    int book_plies = 0;
    // The book counts a stone position's turns and mirror images together (the stone games'
    // default: tree --symmetric's counts, docs/rules.md 2.7); stored as " turned" after book=N.
    bool book_turned = false;
    // Early stop at a node budget (judge.cpp, EarlyStop): a position's search ends once this many
    // iterations in a row, the last at least stop_min_depth deep, agree on the best move and the
    // verdict, the drop at least stop_margin from every threshold (0 turns it off).
    // Two from depth 4, measured against a reference that searches ten times the nodes in full
    // (analysis/README.md, "Judging a game"): the agreement of three from depth 6 in 16-32% less
    // processor time (Gounki at 100,000 nodes reaches depth 5-6, where three from 6 never stopped).
    int stable_iterations = 2;
    int stop_min_depth = 4;
    double stop_margin = 0.03;
    // A second look at a graded verdict: a ply whose verdict comes out an inaccuracy, a mistake or a
    // blunder is searched again, from the same table, with this many times the node budget (and the
    // time limit), and takes the verdict of that search (0 or 1: no second search; a depth limit
    // alone is not searched again). Graded verdicts are the ones a larger budget overturns most,
    // and a second search of them alone costs far less than a larger budget everywhere
    // (analysis/README.md, "How far a verdict holds"). Stored as confirm=N in the settings text.
    int confirm_factor = 4;
};

// The settings used when none are given: a node limit per position (deterministic).
JudgeSettings judge_defaults();

struct PlyJudgement {
    int ply = 0; // 0 = the first move of the game
    Color side = Color::white;
    Move played;
    Move best;
    Score best_score = 0; // from the mover's side
    Score played_score = 0; // from the mover's side
    int best_win_in = 0; // win_in of best_score (0 when not proven)
    int played_win_in = 0;
    double expected_best = 0.5; // expected result of the mover before the move (best play)
    double expected_played = 0.5; // after the played move
    Verdict verdict = Verdict::best;
    std::vector<Move> pv; // the engine's line from the position before the move
    // False when the engine gave no evaluation to grade the move with (an external engine that
    // prints none): the scores are 0, the verdict is `best` and means only "not graded"; `best`
    // still says which move the engine prefers. Such plies count in no side's summary.
    bool scored = true;
    // The judge's search of the position before the move ended by the early stop (the verdict
    // stable over its last iterations, its drop clear of every threshold) or with a proven score;
    // false when it ran out of budget with the verdict still moving, and for external engines.
    // Such verdicts hold far better at a larger budget (`bench --agreement` counts them apart).
    // Not stored with a judgement.
    bool settled = false;
    // The verdict comes from the second search of a graded verdict (JudgeSettings::confirm_factor).
    // Not stored with a judgement.
    bool searched_again = false;
};

struct SideSummary {
    int moves = 0; // graded moves (book moves and ungraded ones not counted)
    int counts[verdict_count] = {};
    // Mean per-move accuracy in percent (100 = no expected result ever lost), see judge.cpp.
    double accuracy = 100.0;
};

struct GameJudgement {
    std::vector<PlyJudgement> plies;
    SideSummary sides[2]; // by index(Color)
    std::uint64_t nodes = 0;
    // Set when a move was not legal in its position: judging stopped before that ply.
    int illegal_ply = -1;
};

// Called after each judged ply (e.g. for a progress bar; the last ply first); may be empty.
using JudgeProgress = std::function<void(const PlyJudgement&)>;

// Judges `moves` played from `start` with a Searcher of its own.
GameJudgement judge_game(const Position& start, std::span<const Move> moves, const JudgeSettings& settings,
                         const JudgeProgress& progress = {});
// The same with the caller's Searcher (e.g. one per pool thread, reused game after game).
GameJudgement judge_game(Searcher& searcher, const Position& start, std::span<const Move> moves, const JudgeSettings& settings,
                         const JudgeProgress& progress = {});

// Stone games (Gomoku, Ninuki): the same method and verdicts with the stone engine
// (stones/search.hpp). A position whose game is already over scores loss_at(0) for its side to move
// when the last move won, win_at(0) when the side to move's five stood through that move (Ninuki's
// end-game capture), 0 for a full board. A curve_scale of 0 means default_stone_curve_scale.
class StoneSearcher;

// The node budget per position of stone_judge_defaults(), with the second look at graded verdicts
// (four times it): 20,000 nodes without that second look took more processor time and agreed less
// with ten times the budget (analysis/README.md, "How far a verdict holds").
constexpr std::uint64_t default_stone_judge_nodes = 10'000;
JudgeSettings stone_judge_defaults();

GameJudgement judge_stone_game(const stones::StonePosition& start, std::span<const Move> moves, const JudgeSettings& settings,
                               const JudgeProgress& progress = {});
GameJudgement judge_stone_game(StoneSearcher& searcher, const stones::StonePosition& start, std::span<const Move> moves,
                               const JudgeSettings& settings, const JudgeProgress& progress = {});

// How far two judgements of the same games agree, ply by ply (`gounki bench --agreement`: the
// default budget against ten times it). Plies are compared while both judgements have them.
struct JudgeAgreement {
    std::int64_t games = 0;
    std::int64_t plies = 0;
    std::int64_t same_verdict = 0;
    std::int64_t same_best = 0; // the same best move
    std::int64_t confusion[verdict_count][verdict_count] = {}; // [verdict of a][verdict of b]
    std::int64_t settled = 0; // plies whose verdict `a` settled (PlyJudgement::settled)
    std::int64_t settled_same = 0; // of those, the plies with the same verdict in both
    std::int64_t searched_again = 0; // plies of `a` searched again (PlyJudgement::searched_again)
    std::int64_t searched_again_same = 0; // of those, the plies with the same verdict in both
    // With a third judgement `b2` of the games (the reference's budget doubled: `bench --agreement
    // --steady`): the plies where b's verdict holds in b2 (a reference that a larger budget does not
    // overturn), and of those the plies where a's verdict is b's. Where b and b2 differ, one of them
    // is not the verdict an unlimited search gives, so these plies are the ones a judge can be held to.
    std::int64_t steady = 0;
    std::int64_t steady_same = 0;
    void add(const GameJudgement& a, const GameJudgement& b, const GameJudgement* b2 = nullptr);
};

// A game of either family, judged by its family's engine with a searcher of its own.
GameJudgement judge_any_game(const AnyPosition& start, std::span<const Move> moves, const JudgeSettings& settings,
                             const JudgeProgress& progress = {});

// The verdict rules on their own (for tests and for callers with their own scores): the mover's
// best and played scores, the played move being the best one or not.
Verdict classify_move(Score best_score, Score played_score, bool played_is_best, const JudgeSettings& settings);

// The score of a position's parent, from the parent's side to move, given the position's own score:
// proven results gain one ply of distance, heuristic ones change sign.
Score parent_score(Score child);

// Per-move accuracy in percent from the mover's expected results before and after the move.
double move_accuracy(double expected_best, double expected_played);

} // namespace gounki::analysis
