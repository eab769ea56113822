// Judging games: the verdicts of the Gounki and stone judges on hand-made games (each argued in the
// comment above it from the rules, docs/rules.md 1), book plies, the time-left estimate, the
// backward method's guarantees (a best move never below the move played, determinism) and the
// agreement measure of `gounki bench --agreement`.

#include "tests/catch.hpp"
#include "tests/support.hpp"

#include <cstdio>
#include <random>
#include <set>
#include <sstream>

#include "analysis/curve.hpp"
#include "analysis/judge.hpp"
#include "analysis/gounki/search.hpp"
#include "analysis/stones/search.hpp"
#include "analysis/work_estimate.hpp"
#include "core/any_position.hpp"
#include "core/game.hpp"
#include "core/gounki/notation.hpp"
#include "db/analysis_store.hpp"
#include "parser/reader.hpp"

using namespace gounki;
using namespace gounki::analysis;
using namespace gounki::test;


namespace {

JudgeSettings test_judge_settings() {
    JudgeSettings s;
    s.limits.depth = 6; // proves every result below (distances up to 6 plies) quickly
    s.hash_mb = 4;
    return s;
}

} // namespace

// White: RR b7, S h2. Black: s b8, r e2. White to move can leave at once (b7-a8-out or b7-c8-out).
// Ply 0, White plays h2-g2 instead: now Black takes the RR (b8xb7, straight down) and its round on
// e2 goes to d1 or f1 and out; White's square on g2 cannot touch a piece on rank 1 or 2 in time.
// So the win is not just slower, it is gone (Black wins in 5): missed-win.
// Ply 1, Black plays e2-d1 instead of taking b7 (a missed win of its own), and White leaves: 1-0.
TEST_CASE("judge: the winner's missed forced win is a missed-win on that ply", "[analysis]") {
    const Position start = position_of("1s6/1(RR)6/8/8/8/8/4r2S/8 w");
    const std::vector<Move> moves = line_of({"h2-g2", "e2-d1", "b7-Out"}, start);
    const GameJudgement j = judge_game(start, moves, test_judge_settings());
    REQUIRE(j.plies.size() == 3);
    CHECK(j.illegal_ply == -1);

    CHECK(j.plies[0].verdict == Verdict::missed_win);
    CHECK(j.plies[0].best_win_in == 1);
    CHECK(j.plies[0].played_win_in == -6); // Black then wins with its third move
    CHECK(j.plies[0].best.ends_out());

    CHECK(j.plies[1].side == Color::black);
    CHECK(j.plies[1].verdict == Verdict::missed_win);
    CHECK(j.plies[1].best_win_in == 5);
    CHECK(j.plies[1].played_win_in == -2);

    CHECK(j.plies[2].verdict == Verdict::best);
    CHECK(j.plies[2].best_win_in == 1);

    const SideSummary& white = j.sides[index(Color::white)];
    CHECK(white.moves == 2);
    CHECK(white.counts[int(Verdict::missed_win)] == 1);
    CHECK(white.counts[int(Verdict::best)] == 1);
    CHECK(white.accuracy < 60.0); // one move of two threw away a certain win
    CHECK(j.sides[index(Color::black)].counts[int(Verdict::missed_win)] == 1);
}

// White: R e7, S a1. Black: squares a8, e8, h8; Black to move. Black's e8 guards everything White's
// round needs: it takes e7 straight down, and d8 or f8 sideways. Taking the round now (e8xe7) is
// safe, and after it nothing is near either goal (White's square is 8 ranks out, Black's nearest 7):
// no result within the judge's horizon. Ply 0, Black plays e8-d8 instead: f8 is no longer guarded
// (d8 reaches c8, e8 and d7; h8 reaches g8), so e7-f8 and then out: White wins in 3, Black loses
// in 4. A walk into a forced loss that the best move avoided: allows-loss.
// Then e7-f8 (best), any Black move (all lose: no verdict beyond best), f8-Out.
TEST_CASE("judge: a move that walks into a forced loss gets allows-loss", "[analysis]") {
    const Position start = position_of("s3s2s/4R3/8/8/8/8/8/S7 b");
    const std::vector<Move> moves = line_of({"e8-d8", "e7-f8", "a8-b8", "f8-Out"}, start);
    const GameJudgement j = judge_game(start, moves, test_judge_settings());
    REQUIRE(j.plies.size() == 4);

    CHECK(j.plies[0].side == Color::black);
    CHECK(j.plies[0].verdict == Verdict::allows_loss);
    CHECK(j.plies[0].best_win_in == 0);
    CHECK(j.plies[0].played_win_in == -4);
    CHECK(move_to_text(start, j.plies[0].best) == "e8xe7");

    CHECK(j.plies[1].verdict == Verdict::best);
    CHECK(j.plies[1].played_win_in == 3);
    CHECK(j.plies[2].verdict == Verdict::best); // lost whatever Black plays
    CHECK(j.plies[2].best_win_in == -2);
    CHECK(j.plies[3].verdict == Verdict::best);

    CHECK(j.sides[index(Color::black)].counts[int(Verdict::allows_loss)] == 1);
    CHECK(j.sides[index(Color::white)].counts[int(Verdict::best)] == 2);
    CHECK(j.sides[index(Color::white)].accuracy == Approx(100.0));
}

TEST_CASE("judge: an illegal move stops the judgement at its ply", "[analysis]") {
    const Position start = Position::start();
    std::vector<Move> moves = line_of({"c2-d3"}, start);
    moves.push_back(Move::movement(make_square(0, 0), make_square(0, 4))); // a1-a5: not a move
    JudgeSettings s = test_judge_settings();
    s.limits.depth = 2;
    const GameJudgement j = judge_game(start, moves, s);
    CHECK(j.illegal_ply == 1);
    CHECK(j.plies.size() == 1);
}

// Book plies (JudgeSettings::book_plies) are not searched: the judgement of the game from the first
// ply after the book is the same as without it, and the book plies count in no side's summary. The
// same game stored and read back keeps its book plies and each side's count of them; a stone game
// (Black moves first) counts its book moves on the right sides.
TEST_CASE("judge: book plies are not searched and count in no summary; stored, they read back whole", "[analysis][book]") {
    const Position start = position_of("s3s2s/4R3/8/8/8/8/8/S7 b");
    const std::vector<Move> moves = line_of({"e8-d8", "e7-f8", "a8-b8", "f8-Out"}, start);
    JudgeSettings s = test_judge_settings();
    const GameJudgement whole = judge_game(start, moves, s);
    s.book_plies = 2;
    int reported = 0;
    const GameJudgement booked = judge_game(start, moves, s, [&](const PlyJudgement&) { ++reported; });
    CHECK(reported == 4); // the progress hears of book plies too
    REQUIRE(booked.plies.size() == 4);
    for (int i : {0, 1}) {
        CHECK(booked.plies[std::size_t(i)].verdict == Verdict::book);
        CHECK(booked.plies[std::size_t(i)].played == moves[std::size_t(i)]);
        CHECK(!booked.plies[std::size_t(i)].best);
    }
    for (int i : {2, 3}) {
        CHECK(booked.plies[std::size_t(i)].verdict == whole.plies[std::size_t(i)].verdict);
        CHECK(booked.plies[std::size_t(i)].played_score == whole.plies[std::size_t(i)].played_score);
    }
    CHECK(booked.nodes < whole.nodes);
    // Ply 0 (Black's allows-loss) is book now: Black has no graded move left but its b8 at ply 2.
    const SideSummary& black = booked.sides[index(Color::black)];
    CHECK(black.moves == 1);
    CHECK(black.counts[int(Verdict::book)] == 1);
    CHECK(black.counts[int(Verdict::allows_loss)] == 0);
    CHECK(black.accuracy == Approx(100.0));
    CHECK(booked.sides[index(Color::white)].moves == 1);
    CHECK(booked.sides[index(Color::white)].counts[int(Verdict::book)] == 1);
    // A book longer than the game: nothing searched at all.
    s.book_plies = 10;
    const GameJudgement all_book = judge_game(start, moves, s);
    CHECK(all_book.nodes == 0);
    CHECK(all_book.sides[0].moves + all_book.sides[1].moves == 0);

    // Stored and read back: the same plies and counts.
    const auto back = gounki::db::decode_judgement(gounki::db::encode_judgement(booked));
    REQUIRE(back);
    for (std::size_t i = 0; i < 4; ++i) CHECK(back->plies[i].verdict == booked.plies[i].verdict);
    for (int c = 0; c < 2; ++c)
        for (int v = 0; v < verdict_count; ++v) CHECK(back->sides[c].counts[v] == booked.sides[c].counts[v]);
    // A judgement without book plies is stored as before book moves existed (no trailer).
    const auto plain = gounki::db::encode_judgement(whole);
    REQUIRE(gounki::db::decode_judgement(plain));
    // Book plies without their per-side counts do not read.
    auto cut = gounki::db::encode_judgement(booked);
    cut.resize(cut.size() - 2);
    CHECK(!gounki::db::decode_judgement(cut));

    // Gomoku: Black's h8 and White's h9 are book; Black's third move counts as Black's.
    stones::StonePosition empty(stones::Rules::defaults(GameKind::gomoku));
    const std::vector<Move> stone_moves = {test::M("h8"), test::M("h9"), test::M("i9")};
    JudgeSettings ss = stone_judge_defaults();
    ss.limits.nodes = 500;
    ss.book_plies = 3;
    const GameJudgement stone = judge_stone_game(empty, stone_moves, ss);
    const auto stone_back = gounki::db::decode_judgement(gounki::db::encode_judgement(stone));
    REQUIRE(stone_back);
    CHECK(stone_back->sides[index(Color::black)].counts[int(Verdict::book)] == 2);
    CHECK(stone_back->sides[index(Color::white)].counts[int(Verdict::book)] == 1);
}

// The time left over a mixed collection, driven by a made-up clock: 20 Gounki games of 40 plies
// (0.012 s a ply), then 20 stone games of 30 plies (0.090 s a ply, where the prior guessed 0.060),
// judged on one thread and then on two.
TEST_CASE("the time-left estimate weighs plies by game kind and does not jump when the collection turns", "[analysis][eta]") {
    const double gounki_cost = 0.012, stone_cost = 0.090;
    for (int threads : {1, 2}) {
        INFO(threads << " threads");
        WorkEstimate e({0.012, 0.060});
        for (int g = 0; g < 20; ++g) e.add(0, 40);
        for (int g = 0; g < 20; ++g) e.add(1, 30);
        CHECK(!e.seconds_left(1.0)); // nothing measured yet
        CHECK(e.fraction() == Approx(0.0));
        double busy = 0;
        std::vector<double> estimates, truths;
        for (int g = 0; g < 40; ++g) {
            const bool stone = g >= 20;
            const double cost = (stone ? stone_cost * 30 : gounki_cost * 40);
            e.done(stone ? 1 : 0, stone ? 30 : 40, cost);
            busy += cost;
            const double truth =
                (g < 20 ? (19 - g) * gounki_cost * 40 + 20 * stone_cost * 30 : (39 - g) * stone_cost * 30) / threads;
            const auto left = e.seconds_left(busy / threads);
            REQUIRE(left);
            estimates.push_back(*left);
            truths.push_back(truth);
        }
        // Before any stone game: the stone plies weighed by the prior ratio (5 Gounki plies each).
        CHECK(estimates[0] == Approx((19 * 40 * gounki_cost + 20 * 30 * gounki_cost * 5) / threads));
        // From the first stone game on, their measured cost: exact.
        for (int g = 20; g < 40; ++g) CHECK(estimates[std::size_t(g)] == Approx(truths[std::size_t(g)]).margin(1e-9));
        // The turn from Gounki to stone games moves the estimate by the prior's error only (0.060
        // against 0.090), where counting games would have said 1/5 of the truth.
        CHECK(estimates[19] / truths[19] == Approx(0.060 / 0.090));
        const double by_games = (busy - 20 * stone_cost * 30) / threads; // 20 games done, 20 left
        CHECK(by_games / truths[19] < 0.2);
        CHECK(estimates[20] / estimates[19] < 1.6);
        CHECK(e.fraction() == Approx(1.0));
    }
}

// The priors are the processor time a ply took at the default budgets (analysis/README.md,
// "Judging a game"), per game kind; a run over Gounki then Gomoku games that cost what the priors
// say keeps its estimate through the turn, and one whose Gomoku plies cost otherwise learns their
// cost from the first Gomoku game judged.
TEST_CASE("the time-left estimate's priors are the measured cost of a ply of each game kind", "[analysis][eta]") {
    const JudgeSettings gounki = judge_defaults(), stones = stone_judge_defaults();
    CHECK(prior_ply_seconds(gounki, GameKind::gounki) == Approx(0.013));
    CHECK(prior_ply_seconds(stones, GameKind::gomoku) == Approx(0.010));
    CHECK(prior_ply_seconds(stones, GameKind::renju) == Approx(0.014));
    CHECK(prior_ply_seconds(stones, GameKind::ninuki) == Approx(0.023));
    CHECK(prior_ply_seconds(stones, GameKind::pente) == Approx(0.016));
    // In proportion to a node budget; a depth limit takes the default budget's.
    JudgeSettings twice = stones;
    twice.limits.nodes *= 2;
    CHECK(prior_ply_seconds(twice, GameKind::gomoku) == Approx(0.020));
    JudgeSettings deep = gounki;
    deep.limits = {};
    deep.limits.depth = 6;
    CHECK(prior_ply_seconds(deep, GameKind::gounki) == Approx(0.013));
    CHECK(prior_ply_seconds(stones, GameKind::ninuki, 1000) == Approx(1.0)); // an external engine's time per move
    // One prior per game kind, by GameKind's value: the estimate's kinds.
    const std::vector<double> priors = prior_ply_costs(gounki, stones);
    REQUIRE(priors.size() == 5);
    for (GameKind k : {GameKind::gounki, GameKind::gomoku, GameKind::ninuki, GameKind::pente, GameKind::renju})
        CHECK(priors[std::size_t(k)] == Approx(prior_ply_seconds(is_stone_game(k) ? stones : gounki, k)));

    // 10 Gounki games of 40 plies, then 10 Gomoku games of 30 plies, then 10 Ninuki games of 30.
    const auto run = [&](double gomoku_cost) {
        WorkEstimate e(priors);
        const int kinds[] = {int(GameKind::gounki), int(GameKind::gomoku), int(GameKind::ninuki)};
        const double cost[] = {priors[0], gomoku_cost, priors[std::size_t(GameKind::ninuki)]};
        const std::uint64_t plies[] = {40, 30, 30};
        for (int g = 0; g < 30; ++g) e.add(kinds[g / 10], plies[g / 10]);
        double busy = 0;
        std::vector<double> left;
        for (int g = 0; g < 30; ++g) {
            e.done(kinds[g / 10], plies[g / 10], cost[g / 10] * double(plies[g / 10]));
            busy += cost[g / 10] * double(plies[g / 10]);
            left.push_back(*e.seconds_left(busy));
        }
        return left;
    };
    // At the priors' costs: the truth from the first game on, through both turns.
    const std::vector<double> even = run(0.010);
    for (int g = 0; g < 30; ++g) {
        double truth = 0;
        for (int k = g + 1; k < 30; ++k) truth += k < 10 ? 40 * 0.013 : k < 20 ? 30 * 0.010 : 30 * 0.023;
        CHECK(even[std::size_t(g)] == Approx(truth).margin(1e-9));
    }
    // Gomoku plies at twice the prior: from the first Gomoku game on, the Gomoku plies left at
    // their measured cost and the Ninuki plies at the prior ratio to the measured kinds' together.
    const std::vector<double> slow = run(0.020);
    const double measured = 10 * 40 * 0.013 + 30 * 0.020, prior_done = 10 * 40 * 0.013 + 30 * 0.010;
    CHECK(slow[10] == Approx(9 * 30 * 0.020 + 10 * 30 * 0.023 * measured / prior_done));
    CHECK(slow[19] == Approx(10 * 30 * 0.023 * (10 * 40 * 0.013 + 10 * 30 * 0.020) / (10 * 40 * 0.013 + 10 * 30 * 0.010)));
    CHECK(slow[20] == Approx(9 * 30 * 0.023));
}

TEST_CASE("judge: the verdict rules", "[analysis]") {
    const JudgeSettings s;
    // A slower win is still a win.
    CHECK(classify_move(win_at(1), win_at(5), false, s) == Verdict::best);
    CHECK(classify_move(win_at(3), 200, false, s) == Verdict::missed_win);
    CHECK(classify_move(win_at(3), loss_at(4), false, s) == Verdict::missed_win);
    CHECK(classify_move(50, loss_at(4), false, s) == Verdict::allows_loss);
    // Lost anyway: losing faster is no exact verdict, and the curve says nothing either.
    CHECK(classify_move(loss_at(8), loss_at(2), false, s) == Verdict::best);
    // Playing the best move is never a mistake, whatever the scores say.
    CHECK(classify_move(win_at(3), 0, true, s) == Verdict::best);
    // Graded verdicts follow the drop in expected result.
    const double scale = default_curve_scale;
    auto score_for = [&](double e) { return Score(std::lround(-scale * std::log(1 / e - 1))); };
    CHECK(classify_move(0, score_for(0.48), false, s) == Verdict::best);
    CHECK(classify_move(0, score_for(0.44), false, s) == Verdict::inaccuracy);
    CHECK(classify_move(0, score_for(0.38), false, s) == Verdict::mistake);
    CHECK(classify_move(0, score_for(0.25), false, s) == Verdict::blunder);
    JudgeSettings strict = s;
    strict.blunder = 0.05;
    CHECK(classify_move(0, score_for(0.44), false, strict) == Verdict::blunder);
    CHECK(move_accuracy(0.7, 0.7) == Approx(100.0).margin(1e-3));
    CHECK(move_accuracy(0.7, 0.5) < move_accuracy(0.7, 0.6));
}

namespace {

// A game of random legal moves (many mistakes to judge), `plies` long or to its end.
std::vector<Move> random_gounki_game(unsigned seed, int plies) {
    std::mt19937 rng(seed);
    Position pos = Position::start();
    std::vector<Move> moves;
    for (int i = 0; i < plies && !pos.game_over(); ++i) {
        MoveList legal;
        generate_moves(pos, legal);
        if (legal.empty()) break;
        const Move m = legal[int(rng() % unsigned(legal.size()))];
        UndoRecord u;
        pos.do_move(m, u);
        moves.push_back(m);
    }
    return moves;
}

// Random stones within three points of the centre of a Gomoku board, `plies` long or to the end.
std::vector<Move> random_stone_game(const stones::StonePosition& start, unsigned seed, int plies) {
    std::mt19937 rng(seed);
    stones::StonePosition pos = start;
    std::vector<Move> moves;
    const int c = pos.size() / 2;
    for (int i = 0; i < plies && !pos.game_over(); ++i) {
        Move m = Move::none();
        for (int tries = 0; tries < 100 && !m; ++tries) {
            const Move t = Move::placement(stones::make_point(c - 3 + int(rng() % 7), c - 3 + int(rng() % 7)));
            if (pos.is_legal(t)) m = t;
        }
        if (!m) break;
        stones::StoneUndo u;
        pos.play(m, u);
        moves.push_back(m);
    }
    return moves;
}

void check_best_not_below_played(const GameJudgement& j) {
    for (const PlyJudgement& p : j.plies) {
        INFO("ply " << p.ply);
        CHECK(p.best_score >= p.played_score);
        if (p.played == p.best) CHECK(p.verdict == Verdict::best);
    }
}

void check_same(const GameJudgement& a, const GameJudgement& b) {
    REQUIRE(a.plies.size() == b.plies.size());
    CHECK(a.nodes == b.nodes);
    for (std::size_t i = 0; i < a.plies.size(); ++i) {
        INFO("ply " << i);
        CHECK(a.plies[i].best == b.plies[i].best);
        CHECK(a.plies[i].best_score == b.plies[i].best_score);
        CHECK(a.plies[i].played_score == b.plies[i].played_score);
        CHECK(a.plies[i].verdict == b.plies[i].verdict);
    }
}

} // namespace

TEST_CASE("judge: from the last ply back, a best move never scores below the move played, and judging is "
          "deterministic",
          "[analysis]") {
    JudgeSettings s = judge_defaults();
    s.limits.nodes = 4000;
    s.hash_mb = 4;
    s.stable_iterations = 2;
    s.stop_min_depth = 3;
    SearchOptions options;
    options.hash_mb = 4;
    Searcher reused(options);
    int graded = 0;
    for (unsigned seed : {1u, 2u, 3u}) {
        const std::vector<Move> moves = random_gounki_game(seed, 24);
        const GameJudgement j = judge_game(Position::start(), moves, s);
        REQUIRE(j.plies.size() == moves.size());
        check_best_not_below_played(j);
        for (const PlyJudgement& p : j.plies) graded += p.verdict != Verdict::best;
        // The same again, and with a searcher that judged other games before: the same verdicts.
        check_same(j, judge_game(Position::start(), moves, s));
        check_same(j, judge_game(reused, Position::start(), moves, s));
    }
    CHECK(graded > 0); // random moves are found out
}

TEST_CASE("judge: stone games judged backwards, best never below played, deterministic", "[analysis]") {
    const stones::StonePosition start = *AnyPosition::start(GameKind::gomoku).stones();
    JudgeSettings s = stone_judge_defaults();
    s.limits.nodes = 1500;
    s.hash_mb = 4;
    StoneSearchOptions options;
    options.hash_mb = 4;
    StoneSearcher reused(options);
    for (unsigned seed : {4u, 5u}) {
        const std::vector<Move> moves = random_stone_game(start, seed, 20);
        const GameJudgement j = judge_stone_game(start, moves, s);
        REQUIRE(j.plies.size() == moves.size());
        check_best_not_below_played(j);
        check_same(j, judge_stone_game(start, moves, s));
        check_same(j, judge_stone_game(reused, start, moves, s));
    }
}

TEST_CASE("bench --agreement: a share computed from the plies of both runs", "[analysis][cli]") {
    for (const char* game : {"gounki", "gomoku"}) {
        INFO(game);
        const std::string file = std::string(GOUNKI_SOURCE_DIR) + "/samples/selfplay/" +
            (std::string(game) == "gounki" ? "selfplay-1000.gpn" : "gomoku-200.gpn");
        const CliRun r = run_gounki("bench --agreement --games 2 --nodes 1000 --factor 3 --threads 2 --game " +
                                    std::string(game) + " " + file);
        REQUIRE(r.status == 0);
        long plies = 0, same = 0;
        double share = -1;
        const std::size_t games_at = r.out.find("2 games, "), share_at = r.out.find("same verdict ");
        REQUIRE(games_at != std::string::npos);
        REQUIRE(share_at != std::string::npos);
        REQUIRE(std::sscanf(r.out.c_str() + games_at, "2 games, %ld plies", &plies) == 1);
        REQUIRE(std::sscanf(r.out.c_str() + share_at, "same verdict %lf%% (%ld)", &share, &same) == 2);
        CHECK(share >= 0.0);
        CHECK(share <= 100.0);
        CHECK(share == Approx(100.0 * double(same) / double(plies)).margin(0.05));
        // The same verdicts apart for the settled plies and the others: the two parts make the whole.
        long settled_same = 0, settled = 0, rest_same = 0, rest = 0;
        const std::size_t settled_at = r.out.find("same verdict, settled plies "),
                          rest_at = r.out.find("same verdict, plies whose budget ran out ");
        REQUIRE(settled_at != std::string::npos);
        REQUIRE(rest_at != std::string::npos);
        REQUIRE(std::sscanf(r.out.c_str() + settled_at, "same verdict, settled plies %lf%% (%ld of %ld)", &share, &settled_same,
                            &settled) == 3);
        CHECK(share == Approx(settled ? 100.0 * double(settled_same) / double(settled) : 0.0).margin(0.05));
        REQUIRE(std::sscanf(r.out.c_str() + rest_at, "same verdict, plies whose budget ran out %lf%% (%ld of %ld)", &share,
                            &rest_same, &rest) == 3);
        CHECK(share == Approx(rest ? 100.0 * double(rest_same) / double(rest) : 0.0).margin(0.05));
        CHECK(settled + rest == plies);
        CHECK(settled_same + rest_same == same);
        // The plies searched again (graded at first, by default with four times the budget), and
        // none without the second look.
        long again_same = 0, again = 0;
        const std::size_t again_at = r.out.find("same verdict, plies searched again with x4 ");
        REQUIRE(again_at != std::string::npos);
        REQUIRE(std::sscanf(r.out.c_str() + again_at, "same verdict, plies searched again with x4 %lf%% (%ld of %ld)", &share,
                            &again_same, &again) == 3);
        CHECK(again > 0);
        CHECK(again < plies);
        CHECK(again_same <= same);
        const CliRun once =
            run_gounki("bench --agreement --games 2 --nodes 1000 --factor 3 --threads 2 --confirm 1 --json --game " +
                       std::string(game) + " " + file);
        REQUIRE(once.status == 0);
        CHECK(contains(once.out, "\"searched_again\":0,"));
        CHECK(contains(once.out, "\"confirm\":1,"));
        CHECK_FALSE(contains(once.out, "\"steady\"")); // only with --steady
        CHECK_FALSE(contains(r.out, "reference holding"));
        // --steady: a third run at twice the reference's budget; the same first two runs.
        const CliRun steady = run_gounki("bench --agreement --games 2 --nodes 1000 --factor 3 --threads 2 --steady --game " +
                                         std::string(game) + " " + file);
        REQUIRE(steady.status == 0);
        CHECK(steady.out.substr(0, steady.out.find("\nsame verdict, plies searched")) ==
              r.out.substr(0, r.out.find("\nsame verdict, plies searched")));
        long holding = 0, holding_plies = 0, holding_same = 0, holding_of = 0;
        const std::size_t holding_at = steady.out.find("reference holding at x6 "),
                          holding_same_at = steady.out.find("same verdict, plies whose reference holds ");
        REQUIRE(holding_at != std::string::npos);
        REQUIRE(holding_same_at != std::string::npos);
        REQUIRE(std::sscanf(steady.out.c_str() + holding_at, "reference holding at x6 %lf%% (%ld of %ld)", &share, &holding,
                            &holding_plies) == 3);
        CHECK(holding_plies == plies);
        CHECK(holding <= plies);
        CHECK(holding > 0);
        REQUIRE(std::sscanf(steady.out.c_str() + holding_same_at, "same verdict, plies whose reference holds %lf%% (%ld of %ld)",
                            &share, &holding_same, &holding_of) == 3);
        CHECK(holding_of == holding);
        CHECK(holding_same <= holding);
        CHECK(holding_same <= same);
        CHECK(holding_same >= same - (plies - holding)); // at most the plies not holding are lost
        // The confusion counts hold every ply once, the equal verdicts on their diagonal.
        long total = 0, diagonal = 0;
        std::istringstream rows(r.out.substr(r.out.find("verdicts (rows")));
        std::string line;
        std::getline(rows, line);
        for (int v = 0; v < verdict_count && std::getline(rows, line); ++v) {
            std::istringstream cells(line);
            std::string name;
            cells >> name;
            CHECK(name == verdict_name(Verdict(v)));
            long n = 0;
            for (int c = 0; cells >> n; ++c) {
                total += n;
                if (c == v) diagonal += n;
            }
        }
        CHECK(total == plies);
        CHECK(diagonal == same);
    }
    CHECK(run_gounki("bench --agreement").status == 2);
    CHECK(run_gounki("bench --agreement --factor 1 x.gpn").status == 2);
    CHECK(run_gounki("bench --agreement --confirm 0 x.gpn").status == 2);
}

TEST_CASE("judge: Gounki's early stop ends searches before the budget without changing what a judgement "
          "is; the settings text names it",
          "[analysis]") {
    const JudgeSettings defaults = judge_defaults();
    CHECK(defaults.stable_iterations == 2);
    CHECK(defaults.stop_min_depth == 4);
    JudgeSettings s = defaults;
    s.limits.nodes = 20'000;
    s.hash_mb = 4;
    JudgeSettings full = s;
    full.stable_iterations = 0;
    const std::vector<Move> moves = random_gounki_game(7, 16);
    const GameJudgement early = judge_game(Position::start(), moves, s);
    const GameJudgement whole = judge_game(Position::start(), moves, full);
    REQUIRE(early.plies.size() == moves.size());
    REQUIRE(whole.plies.size() == moves.size());
    INFO("nodes with the early stop " << early.nodes << ", without " << whole.nodes);
    CHECK(early.nodes < whole.nodes);
    check_best_not_below_played(early);
    check_same(early, judge_game(Position::start(), moves, s));

    // A ply is settled when the early stop ended its search, or its score was proven: without the
    // early stop only proven plies are, with it some whose scores are not proven too.
    int settled_unproven = 0;
    for (const PlyJudgement& p : early.plies)
        settled_unproven += p.settled && !is_proven(p.best_score) && !is_proven(p.played_score);
    for (const PlyJudgement& p : whole.plies)
        if (p.settled) CHECK((is_proven(p.best_score) || is_proven(p.played_score)));
    CHECK(settled_unproven > 0);

    // The agreement counts the settled plies of the first judgement apart.
    GameJudgement a, b;
    const Verdict va[] = {Verdict::best, Verdict::mistake, Verdict::blunder, Verdict::best};
    const Verdict vb[] = {Verdict::best, Verdict::blunder, Verdict::blunder, Verdict::inaccuracy};
    const bool settled[] = {true, true, false, false};
    for (int i = 0; i < 4; ++i) {
        a.plies.emplace_back().verdict = va[i];
        a.plies.back().settled = settled[i];
        b.plies.emplace_back().verdict = vb[i];
        b.plies.back().settled = !settled[i]; // the reference's own are not counted
    }
    JudgeAgreement agreement;
    agreement.add(a, b);
    CHECK(agreement.plies == 4);
    CHECK(agreement.same_verdict == 2);
    CHECK(agreement.settled == 2);
    CHECK(agreement.settled_same == 1);
    CHECK(agreement.steady == 0); // no third judgement: nothing counted
    // With the reference's doubling as a third judgement: the plies whose reference verdict holds
    // there (the first, second and fourth), and of those the ones the first judgement agrees on (the
    // first; the third agrees too, but its reference does not hold).
    GameJudgement b2;
    for (const Verdict v : {Verdict::best, Verdict::blunder, Verdict::mistake, Verdict::inaccuracy})
        b2.plies.emplace_back().verdict = v;
    JudgeAgreement steady;
    steady.add(a, b, &b2);
    CHECK(steady.same_verdict == 2);
    CHECK(steady.steady == 3);
    CHECK(steady.steady_same == 1);

    // Stored judgements are keyed by the settings text: another stop is another text.
    const std::string text = db::analysis_settings_text(defaults);
    CHECK(text.find(" confirm=4") != std::string::npos);
    CHECK(text.find(" stop=2/4") != std::string::npos);
    CHECK(db::analysis_settings_text(stone_judge_defaults()).find(" stop=2/4") != std::string::npos);
    CHECK(db::analysis_settings_text(full) != db::analysis_settings_text(s));
}

namespace {

bool graded(Verdict v) { return v == Verdict::inaccuracy || v == Verdict::mistake || v == Verdict::blunder; }

// A judgement with the second look at graded verdicts against one without it (`plain`, the same
// settings with confirm_factor 1): plies judged before the first ply searched again (from the last
// back) are judged alike; that ply's verdict without the second look was graded; a ply not searched
// again has a verdict that would not have been.
void check_second_look(const GameJudgement& with, const GameJudgement& plain) {
    REQUIRE(with.plies.size() == plain.plies.size());
    int first_again = -1; // the last ply of the game searched again: the first one judged so
    for (const PlyJudgement& p : with.plies) {
        if (p.searched_again) first_again = p.ply;
        if (!p.searched_again) CHECK_FALSE(graded(p.verdict));
    }
    for (const PlyJudgement& p : plain.plies) CHECK_FALSE(p.searched_again);
    for (std::size_t i = std::size_t(first_again + 1); i < with.plies.size(); ++i) {
        INFO("ply " << i);
        CHECK(with.plies[i].verdict == plain.plies[i].verdict);
        CHECK(with.plies[i].best == plain.plies[i].best);
        CHECK(with.plies[i].best_score == plain.plies[i].best_score);
        CHECK_FALSE(graded(plain.plies[i].verdict));
    }
    if (first_again >= 0) {
        CHECK(graded(plain.plies[std::size_t(first_again)].verdict));
        CHECK(with.nodes > plain.nodes);
    }
}

} // namespace

TEST_CASE("judge: a graded verdict is searched again with confirm_factor times the budget, which gives the verdict; "
          "the settings text names it",
          "[analysis]") {
    CHECK(judge_defaults().confirm_factor == 4);
    CHECK(stone_judge_defaults().confirm_factor == 4);
    int searched_again = 0, changed = 0;
    SECTION("Gounki") {
        JudgeSettings s = judge_defaults();
        s.limits.nodes = 3000;
        s.hash_mb = 4;
        JudgeSettings plain = s;
        plain.confirm_factor = 1;
        for (unsigned seed : {1u, 2u, 3u, 7u}) {
            const std::vector<Move> moves = random_gounki_game(seed, 24);
            const GameJudgement with = judge_game(Position::start(), moves, s);
            const GameJudgement without = judge_game(Position::start(), moves, plain);
            check_second_look(with, without);
            check_best_not_below_played(with);
            check_same(with, judge_game(Position::start(), moves, s));
            for (std::size_t i = 0; i < with.plies.size(); ++i) {
                searched_again += with.plies[i].searched_again;
                changed += with.plies[i].searched_again && with.plies[i].verdict != without.plies[i].verdict;
            }
        }
        // A depth limit alone is not searched again.
        JudgeSettings depth_only = test_judge_settings();
        depth_only.limits.depth = 3;
        for (const PlyJudgement& p : judge_game(Position::start(), random_gounki_game(1, 24), depth_only).plies)
            CHECK_FALSE(p.searched_again);
        CHECK(db::analysis_settings_text(s) != db::analysis_settings_text(plain));
        CHECK(db::analysis_settings_text(plain).find(" confirm=0") != std::string::npos);
    }
    SECTION("Gomoku") {
        const stones::StonePosition start = *AnyPosition::start(GameKind::gomoku).stones();
        JudgeSettings s = stone_judge_defaults();
        s.limits.nodes = 1500;
        s.hash_mb = 4;
        JudgeSettings plain = s;
        plain.confirm_factor = 0;
        for (unsigned seed : {4u, 5u, 6u}) {
            const std::vector<Move> moves = random_stone_game(start, seed, 20);
            const GameJudgement with = judge_stone_game(start, moves, s);
            const GameJudgement without = judge_stone_game(start, moves, plain);
            check_second_look(with, without);
            check_best_not_below_played(with);
            check_same(with, judge_stone_game(start, moves, s));
            for (std::size_t i = 0; i < with.plies.size(); ++i) {
                searched_again += with.plies[i].searched_again;
                changed += with.plies[i].searched_again && with.plies[i].verdict != without.plies[i].verdict;
            }
        }
    }
    // Random moves are found out, and the second look overturns some of the first verdicts.
    CHECK(searched_again > 0);
    CHECK(changed > 0);
}
