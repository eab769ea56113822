// Analysis engine: proven wins and losses with their distance on hand-made positions, defences,
// repetition, determinism, the tactical helpers against move generation, the judge's verdicts, the
// curve fit, the bench signature and the commands.
//
// Every expected result below is argued in the comment above it from the rules (docs/rules.md 1); the
// positions are small so that the argument is short. Reminders: White moves up, Black down; a piece
// on the opponent's last rank always leaves the board with its next move (a step past the last
// rank takes precedence over a bounce); a single piece moves one step; a stack of n pieces reaches
// n ranks by deployment; rounds step diagonally, squares straight ahead or sideways; capturing ends
// a movement; deployments never capture.
#include "tests/catch.hpp"
#include "tests/support.hpp"

#include <bit>
#include <cmath>
#include <random>
#include <regex>
#include <set>
#include <sstream>

#include "analysis/bench.hpp"
#include "analysis/curve.hpp"
#include "analysis/judge.hpp"
#include "analysis/gounki/search.hpp"
#include "analysis/selfplay.hpp"
#include "analysis/work_estimate.hpp"
#include "db/analysis_store.hpp"
#include "analysis/gounki/tactics.hpp"
#include "core/any_position.hpp"
#include "core/gounki/notation.hpp"
#include "parser/reader.hpp"

using namespace gounki;
using namespace gounki::analysis;
using namespace gounki::test;

namespace {

SearchResult search_depth(const std::string& text, int depth) {
    Searcher s;
    SearchLimits l;
    l.depth = depth;
    return s.search(position_of(text), l);
}

// Searches `position` to `depth`: the result must be a win in `win_in` plies (negative: a loss in
// as many), with `best` as its first move unless `best` is empty.
SearchResult expect_win_in(const std::string& position, int depth, int win_in, const std::string& best = "") {
    INFO(position << " to depth " << depth);
    const SearchResult r = search_depth(position, depth);
    CHECK(r.win_in == win_in);
    if (!best.empty()) CHECK(move_to_text(position_of(position), r.best) == best);
    return r;
}

// Searches `p` (White to move) to depth 5 after a game that has seen the same board with Black to
// move: the position White's pass g1-g1 brings back.
SearchResult search_after_pass(const Position& p) {
    Position after_pass = p;
    after_pass.set_side_to_move(Color::black);
    const std::vector<std::uint64_t> history = {after_pass.key()};
    Searcher s;
    SearchLimits l;
    l.depth = 5;
    return s.search(p, l, {}, history);
}

} // namespace

// ---------------------------------------------------------------------------------------------
// Proven wins and losses

// White's square on e8 stands on Black's last rank: it leaves the board now. Black's round on a1
// would do the same on its move, but White moves first. With Black to move it is the mirror image.
TEST_CASE("a piece on the last rank wins in 1 for the side to move", "[analysis]") {
    CHECK(is_proven_win(expect_win_in("4S3/8/8/8/8/8/8/r7 w", 4, 1, "e8-Out").score));
    expect_win_in("4S3/8/8/8/8/8/8/r7 b", 4, 1, "a1-Out");
}

// White's double round on d6 is 3 ranks from leaving: too far for one move (a stack of 2 reaches
// 2 ranks). Any move of it to rank 7 or 8 (d6-c7, d6-e7, d6-b8, d6-f8) threatens to leave next
// move, and Black's single square on a4 can neither reach those squares nor leave itself (4 ranks
// from its goal). So White wins with its second move: ply 3.
TEST_CASE("exit race: a double round three ranks out wins in 3", "[analysis]") {
    const SearchResult r = expect_win_in("8/8/3(RR)4/8/s7/8/8/8 w", 8, 3);
    CHECK(r.score == win_at(3));
    REQUIRE(r.pv.size() == 3);
}

// Single round against single round, each 3 ranks from leaving (White's e6 needs e6-d7/f7, then
// rank 8, then out; Black's d3 needs rank 2, rank 1, out). Their paths never meet (White's is on
// ranks 7-8, Black's on ranks 1-2). Whoever moves first leaves first, with its third move: ply 5.
TEST_CASE("exit race won by one tempo: win in 5 for whoever moves first", "[analysis]") {
    expect_win_in("8/8/4R3/8/8/3r4/8/8 w", 8, 5);
    expect_win_in("8/8/4R3/8/8/3r4/8/8 b", 8, 5);
}

// White's round on e5 needs 4 moves (ranks 6, 7, 8, out); Black's square on a6 needs 6. Black's
// square moves down or sideways and can never reach White's path above rank 5. Win in 7.
TEST_CASE("exit race: win in 7", "[analysis]") { expect_win_in("8/8/s7/4R3/8/8/8/8 w", 10, 7); }

// Black's round on d3 needs 3 moves, White's round on e5 needs 4, and neither can touch the other
// (White's only piece moves up, away from Black's path on ranks 1-2). Black leaves with its third
// move, ply 6 counted from White's move: White loses in 6 whatever it does.
TEST_CASE("a forced loss is reported with its distance, negative", "[analysis]") {
    const SearchResult r = expect_win_in("8/8/8/4R3/8/3r4/8/8 w", 9, -6);
    CHECK(r.score == loss_at(6));
    CHECK(is_proven_loss(r.score));
}

// The fork by a double round using a bounce: White's RR on b5 goes left, a6, and bounces off the
// a-file to b7. From b7 it threatens to leave by a8 (then past rank 8) and by c8, and the only
// black pieces, squares on d8 and h8, can neither take b7 (a black square takes straight down or
// sideways) nor cover both a8 and c8 (d8 reaches c8 only). So b5-b7 wins in 3.
// No other move does: the RR is 4 ranks out, so nothing wins at once; b5-d7 (via c6) is taken by
// d8 going down (White then has no piece: a loss); b5-a6, b5-c6 and both deployments
// (b5*a6,b7 and b5*c6,d7) leave no stack that can leave the board next move (single rounds on
// rank 7 need two moves, the RR on a6/c6 is 3 ranks out), and Black's two squares cannot all be
// taken in one move.
TEST_CASE("fork by a double round using a bounce: b5-b7 wins in 3", "[analysis]") {
    expect_win_in("3s3s/8/8/1(RR)6/8/8/8/8 w", 8, 3, "b5-b7");
}

// A deployment that attacks two exit squares at once. White: R f7, RR g6. Black: ss c8, s f8, r h8.
// g6*f7+,e8 lays a round on f7 (joining the R: now RR) and one on e8. Two threats: the round on e8
// leaves next move whatever happens, and the RR on f7 leaves by g8 (f7-g8, then out). Black's only
// pieces that can act are f8 (takes e8 sideways, or f7 straight down, or blocks g8) and h8 (a round:
// goes down to g7 only); one move stops one threat, never both: White wins in 3.
// Single threats are all parried: g6-f7+ (RRR on f7) is taken by f8 going down; g6-h7 (RR on h7,
// its only way out is g8) is blocked by f8-g8; g6-g8 (h7 then a bounce) and f7-e8 / f7-g8 land on
// rank 8 next to f8, which takes them sideways; g6*h7,g8 leaves one threat, g8, taken by f8.
TEST_CASE("a deployment that attacks two exit squares at once wins in 3", "[analysis]") {
    expect_win_in("2(ss)2s1r/5R2/6(RR)1/8/8/8/8/8 w", 8, 3, "g6*f7+,e8");
}

// Looks like a win in 3 but is not: White's round on e7 would go to d8 or f8 and leave next move,
// but Black's square on e8 takes d8 or f8 sideways and takes e7 itself straight down. White's
// other piece, a square on a1, is 8 ranks out; Black's square is 8 ranks from its goal too, and
// after taking the round it must still take the square on a1 to win by capture: nothing is
// decided within 8 plies for either side.
TEST_CASE("no win is claimed where a defence exists", "[analysis]") {
    const SearchResult r = expect_win_in("4s3/4R3/8/8/8/8/8/S7 w", 8, 0);
    CHECK_FALSE(is_proven(r.score));
}

// ---------------------------------------------------------------------------------------------
// Repetition, determinism, limits, progress

// White, with one double square against Black's six pieces (SSS on a8, RRR on c8), is far behind:
// every move but one leaves it losing. The exception is the pass g1-g1 (g1 to h1, bouncing back to
// g1), which brings back the position before Black's last move, a position the game has already
// seen: the search scores that repetition as a draw, 0, better than anything else White has.
TEST_CASE("a repetition of a position of the game is a draw, taken when losing", "[analysis]") {
    const Position p = position_of("(sss)1(rrr)5/8/8/8/8/8/8/6(SS)1 w");
    const SearchResult r = search_after_pass(p);
    CHECK(move_to_text(p, r.best) == "g1-g1");
    CHECK(r.score == 0);
    CHECK(r.win_in == 0);
    // Without the history the pass is nothing special and White is simply worse.
    Searcher s;
    SearchLimits l;
    l.depth = 5;
    CHECK(s.search(p, l).score < 0);
}

// The same with the material the other way round: White, far ahead, does not settle for the draw.
TEST_CASE("the side that is ahead avoids the repetition", "[analysis]") {
    const Position p = position_of("7s/8/8/8/8/8/8/(SSS)1(RRR)3(SS)1 w");
    const SearchResult r = search_after_pass(p);
    CHECK(move_to_text(p, r.best) != "g1-g1");
    CHECK(r.score > 0);
}

TEST_CASE("the same depth gives the same move and node count, twice and with a fresh searcher", "[analysis]") {
    const Position p = position_of("1s1s1s1s/4s2(rrs)/(rrr)3R3/2s5/4R1R1/5(RS)2/1SRS3S/S1SRS1S1 w");
    SearchLimits l;
    l.depth = 5;
    Searcher a;
    const SearchResult r1 = a.search(p, l);
    const SearchResult r2 = a.search(p, l);
    Searcher b;
    const SearchResult r3 = b.search(p, l);
    CHECK(r1.nodes == r2.nodes);
    CHECK(r1.nodes == r3.nodes);
    CHECK(r1.best == r2.best);
    CHECK(r1.best == r3.best);
    CHECK(r1.score == r3.score);
    CHECK(r1.pv == r3.pv);
}

TEST_CASE("a node limit stops the search deterministically", "[analysis]") {
    const Position p = Position::start();
    SearchLimits l;
    l.nodes = 20000;
    Searcher a, b;
    const SearchResult r1 = a.search(p, l);
    const SearchResult r2 = b.search(p, l);
    CHECK(r1.stopped);
    CHECK(r1.nodes >= 20000);
    CHECK(r1.nodes < 20000 + 5); // stops within the move that crossed the limit
    CHECK(r1.nodes == r2.nodes);
    CHECK(r1.best == r2.best);
    MoveList legal;
    generate_moves(p, legal);
    CHECK(legal.contains(r1.best));
}

TEST_CASE("the search reports every iteration through its callback", "[analysis]") {
    const Position p = Position::start();
    std::vector<SearchInfo> infos;
    Searcher s;
    SearchLimits l;
    l.depth = 4;
    const SearchResult r = s.search(p, l, [&](const SearchInfo& i) { infos.push_back(i); });
    REQUIRE(infos.size() == 4);
    for (std::size_t i = 0; i < infos.size(); ++i) {
        CHECK(infos[i].depth == int(i) + 1);
        CHECK_FALSE(infos[i].pv.empty());
        if (i) CHECK(infos[i].nodes > infos[i - 1].nodes);
    }
    CHECK(infos.back().pv == r.pv);
    CHECK(infos.back().score == r.score);
    CHECK(r.pv.front() == r.best);
}

TEST_CASE("a search of a finished game returns no move and the loss", "[analysis]") {
    Position p = position_of("4S3/8/8/8/8/8/8/r7 w");
    UndoRecord u;
    p.do_move(move_of(p, "e8-Out"), u);
    REQUIRE(p.game_over());
    Searcher s;
    const SearchResult r = s.search(p, SearchLimits{3, 0, 0});
    CHECK_FALSE(r.best);
    CHECK(is_proven_loss(r.score));
}

TEST_CASE("proven scores convert to distances and back through the table", "[analysis]") {
    CHECK(win_in(win_at(1)) == 1);
    CHECK(win_in(win_at(7)) == 7);
    CHECK(win_in(loss_at(2)) == -2);
    CHECK(win_in(350) == 0);
    CHECK(win_in(-score_heuristic_max + 1) == 0);
    // A win 5 plies below a node that is 3 plies below the root: 2 plies from that node.
    CHECK(score_from_tt(score_to_tt(win_at(5), 3), 3) == win_at(5));
    CHECK(score_to_tt(win_at(5), 3) == win_at(2));
    CHECK(score_from_tt(score_to_tt(loss_at(6), 2), 4) == loss_at(8));
}

// ---------------------------------------------------------------------------------------------
// The tactical helpers agree with move generation, on every position of random games

TEST_CASE("exit detection, captures and attacked squares agree with the move generator", "[analysis]") {
    Random rng(12345);
    int positions = 0;
    for (int game = 0; game < 60; ++game) {
        Position pos = Position::start();
        for (int ply = 0; ply < 200 && !pos.game_over(); ++ply) {
            for (Color c : {Color::white, Color::black}) {
                Position as_c = pos;
                as_c.set_side_to_move(c);
                MoveList moves;
                generate_moves(as_c, moves);
                bool exits = false;
                std::uint64_t capture_targets = 0, empty_targets = 0, exiting = 0;
                for (Move m : moves) {
                    if (m.ends_out()) {
                        exits = true;
                        exiting |= square_bb(m.from());
                    }
                    if (m.type() == MoveType::movement) {
                        if (pos.occupancy(~c) & square_bb(m.to())) capture_targets |= square_bb(m.to());
                        else if (pos.at(m.to()).is_empty()) empty_targets |= square_bb(m.to());
                    }
                }
                INFO(pos.to_text() << " as " << (c == Color::white ? "White" : "Black"));
                REQUIRE(can_exit(pos, c) == exits);
                REQUIRE(exiting_stacks(pos, c) == exiting);
                const std::uint64_t att = attacked_squares(pos, c);
                REQUIRE((att & pos.occupancy(~c)) == capture_targets);
                REQUIRE((att & ~pos.occupancy()) == empty_targets);
                if (c == pos.side_to_move()) {
                    MoveList caps;
                    generate_captures(pos, caps);
                    std::set<std::uint32_t> a, b;
                    for (Move m : caps) a.insert(m.raw());
                    for (Move m : moves)
                        if (is_capture(pos, m)) b.insert(m.raw());
                    REQUIRE(a == b);
                }
            }
            ++positions;
            MoveList moves;
            generate_moves(pos, moves);
            const Move m = moves[int(rng.below(std::uint32_t(moves.size())))];
            // Irreversible = a capture, an exit or a piece moving forward: check the last one by
            // the pieces' ranks.
            int before = 0, after = 0;
            for (std::uint64_t b = pos.occupancy(); b; b &= b - 1) {
                const Square s = std::countr_zero(b);
                before += pos.at(s).size() * (pos.at(s).color() == Color::white ? rank_of(s) : 7 - rank_of(s));
            }
            const bool irreversible = is_irreversible(pos, m);
            const int pieces = pos.piece_count(Color::white) + pos.piece_count(Color::black);
            UndoRecord u;
            pos.do_move(m, u);
            for (std::uint64_t b = pos.occupancy(); b; b &= b - 1) {
                const Square s = std::countr_zero(b);
                after += pos.at(s).size() * (pos.at(s).color() == Color::white ? rank_of(s) : 7 - rank_of(s));
            }
            const bool changed =
                pos.game_over() || after != before || pos.piece_count(Color::white) + pos.piece_count(Color::black) != pieces;
            REQUIRE(irreversible == changed);
        }
    }
    CHECK(positions > 1000);
}

TEST_CASE("the evaluator's running base equals the base computed from scratch", "[analysis]") {
    const Evaluator ev;
    Random rng(99);
    for (int game = 0; game < 20; ++game) {
        Position pos = Position::start();
        int base = ev.base(pos);
        for (int ply = 0; ply < 120 && !pos.game_over(); ++ply) {
            MoveList moves;
            generate_moves(pos, moves);
            const Move m = moves[int(rng.below(std::uint32_t(moves.size())))];
            UndoRecord u;
            pos.do_move(m, u);
            base += ev.base_delta(pos, u);
            REQUIRE(base == ev.base(pos));
            const Score s = ev(pos);
            REQUIRE(std::abs(s) < score_heuristic_max);
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Judging games

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
    // The prior: a stone ply costs more than a Gounki ply at the default budgets and at equal ones.
    CHECK(prior_ply_seconds(stone_judge_defaults(), true) > 2 * prior_ply_seconds(judge_defaults(), false));
    JudgeSettings same = judge_defaults();
    CHECK(prior_ply_seconds(same, true) > prior_ply_seconds(same, false));
    CHECK(prior_ply_seconds(same, true, 1000) == Approx(1.0)); // an external engine's time per move
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
        std::smatch m;
        REQUIRE(std::regex_search(r.out, m, std::regex(R"(2 games, (\d+) plies)")));
        const long plies = std::stol(m[1]);
        REQUIRE(std::regex_search(r.out, m, std::regex(R"(same verdict ([0-9.]+)% \((\d+)\))")));
        const double share = std::stod(m[1]);
        const long same = std::stol(m[2]);
        CHECK(share >= 0.0);
        CHECK(share <= 100.0);
        CHECK(share == Approx(100.0 * double(same) / double(plies)).margin(0.05));
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
}

// ---------------------------------------------------------------------------------------------
// The curve

TEST_CASE("expected result: proven scores are certain, 0 is even, the curve is monotone", "[analysis]") {
    CHECK(expected_result(win_at(9)) == 1.0);
    CHECK(expected_result(loss_at(2)) == 0.0);
    CHECK(expected_result(0) == Approx(0.5));
    CHECK(expected_result(100) > expected_result(50));
    CHECK(expected_result(-100) == Approx(1 - expected_result(100)));
}

// Samples drawn from a logistic curve of scale 150: for each score, results split in the curve's
// proportion (the maximum-likelihood fit of such data is that scale exactly, up to rounding).
TEST_CASE("the curve fit recovers the scale of logistic data", "[analysis]") {
    std::vector<CurveSample> samples;
    for (int s = -600; s <= 600; s += 25) {
        const double p = 1 / (1 + std::exp(-s / 150.0));
        const int wins = int(std::lround(p * 1000));
        for (int i = 0; i < 1000; ++i) samples.push_back({s, i < wins ? 1.0 : 0.0});
    }
    samples.push_back({win_at(3), 1.0}); // proven: left out
    const CurveFit fit = fit_curve_scale(samples);
    CHECK(fit.scale == Approx(150).epsilon(0.01));
    CHECK(fit.samples == int(samples.size()) - 1);
    CHECK(fit.log_loss < fit.base_log_loss);
}

// ---------------------------------------------------------------------------------------------
// Self-play, bench, commands

TEST_CASE("self-play: random openings are legal and safe, games end or are adjudicated", "[analysis]") {
    Random rng(7);
    const std::vector<Move> opening = random_opening(Position::start(), 6, rng);
    CHECK(opening.size() == 6);
    Searcher w, b;
    const PlayedGame g = play_game(Position::start(), opening, {&w, SearchLimits{2, 0, 0}}, {&b, SearchLimits{2, 0, 0}}, 120);
    REQUIRE(g.plies.size() >= 6);
    Position pos = g.start;
    for (std::size_t i = 0; i < g.plies.size(); ++i) {
        CHECK(g.plies[i].from_opening == (i < 6));
        MoveList legal;
        generate_moves(pos, legal);
        REQUIRE(legal.contains(g.plies[i].move));
        UndoRecord u;
        pos.do_move(g.plies[i].move, u);
    }
    CHECK(pos.outcome() == g.outcome);
    CHECK(g.adjudicated == !pos.game_over());
    CHECK((g.adjudicated ? result_token(g) == "1/2-1/2" : result_token(g) != "1/2-1/2"));
}

// The bench signature at depth 4 (the command's default depth is deeper). This number changes
// whenever the search or the evaluation changes; update it deliberately, with the reason in the
// commit message.
TEST_CASE("bench node count signature", "[analysis]") {
    const BenchResult r = run_bench(4);
    CHECK(r.nodes == 119883);
}

TEST_CASE("gounki best prints the move, score, pv and win_in", "[analysis]") {
    const CliRun fork = run_gounki("best --position '3s3s/8/8/1(RR)6/8/8/8/8 w' --depth 6 --json");
    CHECK(fork.status == 0);
    CHECK(fork.out.find("\"move\":\"b5-b7\"") != std::string::npos);
    CHECK(fork.out.find("\"win_in\":3") != std::string::npos);
    CHECK(fork.out.find("\"pv\":[\"b5-b7\"") != std::string::npos);
    CHECK(fork.out.find("\"score\":" + std::to_string(win_at(3))) != std::string::npos);

    const CliRun start = run_gounki("best --depth 3 --json");
    CHECK(start.status == 0);
    CHECK(start.out.find("\"win_in\":null") != std::string::npos);

    const CliRun text = run_gounki("best --position '8/8/8/4R3/8/3r4/8/8 w' --depth 8");
    CHECK(text.status == 0);
    CHECK(text.out.find("win_in -6") != std::string::npos);
    CHECK(text.out.find("score loss in 6") != std::string::npos);

    CHECK(run_gounki("best --depth 3 --nodes 5").status == 2);
    CHECK(run_gounki("best --position 'x w'").status == 2);
}

TEST_CASE("gounki selfplay writes records and gounki bench prints its signature", "[analysis]") {
    const TempDir dir("selfplay");
    const CliRun sp = run_gounki("selfplay --games 2 --depth 1 --seed 3 --max-plies 60 -o " + shell_quoted(dir / "g.gpn"));
    CHECK(sp.status == 0);
    const std::string text = slurp(dir / "g.gpn");
    CHECK(text.find("[Game \"Gounki\"]") != std::string::npos);
    CHECK(text.find("[White \"gounki depth 1\"]") != std::string::npos);
    CHECK(text.find("1. ") != std::string::npos);
    CHECK(count_of(text, "[Result \"") == 2);

    const CliRun bench = run_gounki("bench --depth 4 --json");
    CHECK(bench.status == 0);
    CHECK(bench.out.find("\"nodes\":" + std::to_string(run_bench(4).nodes)) != std::string::npos);
}

TEST_CASE("gounki match plays pairs of games from one opening with the colours swapped, and refuses bad settings",
          "[analysis]") {
    const TempDir dir("match");
    const CliRun m = run_gounki("match --games 4 --a-depth 1 --b-depth 2 --seed 5 --max-plies 80 --json -o " +
                                shell_quoted(dir / "m.gpn"));
    REQUIRE(m.status == 0);
    CHECK(contains(m.out, "\"a\":\"gounki depth 1\",\"b\":\"gounki depth 2\",\"games\":4"));
    const int a_wins = std::stoi(between(m.out, "\"a_wins\":", ",")), b_wins = std::stoi(between(m.out, "\"b_wins\":", ","));
    const int draws = std::stoi(between(m.out, "\"draws\":", ","));
    CHECK(a_wins + b_wins + draws == 4);

    parser::RecordReader reader(dir / "m.gpn");
    std::vector<parser::GameRecord> games;
    for (parser::GameRecord g; reader.next(g);) games.push_back(g);
    REQUIRE(games.size() == 4);
    int a_scored = 0;
    for (std::size_t i = 0; i < games.size(); ++i) {
        const parser::GameRecord& g = games[i];
        INFO("game " << i + 1);
        CHECK(g.diagnostics.empty());
        const bool a_white = i % 2 == 0; // A plays White in the first game of each pair
        CHECK(*g.tag("White") == (a_white ? "gounki depth 1" : "gounki depth 2"));
        CHECK(*g.tag("Black") == (a_white ? "gounki depth 2" : "gounki depth 1"));
        CHECK(*g.tag("Round") == std::to_string(i + 1));
        if (*g.tag("Result") == (a_white ? "1-0" : "0-1")) ++a_scored;
        REQUIRE(g.main.plies.size() >= 4);
    }
    CHECK(a_scored == a_wins);
    for (std::size_t pair = 0; pair < 2; ++pair) // both games of a pair open with the same 4 random plies
        for (std::size_t k = 0; k < 4; ++k)
            CHECK(games[2 * pair].main.plies[k].move == games[2 * pair + 1].main.plies[k].move);

    const CliRun both = run_gounki("match --a-depth 2 --a-nodes 500");
    CHECK(both.status == 2);
    CHECK(contains(both.err, "give --a-depth or --a-nodes, not both"));
    const CliRun weight = run_gounki("match --games 2 --b-eval no_such_weight=3");
    CHECK(weight.status == 2);
    CHECK(contains(weight.err, "unknown evaluation weight 'no_such_weight'"));
}
