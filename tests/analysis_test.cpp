// Analysis engine: proven wins and losses with their distance on hand-made positions, defences,
// repetition, determinism, the tactical helpers against move generation, the curve fit, self-play,
// the bench signature and the commands (judging: judge_test.cpp).
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
#include "analysis/gounki/search.hpp"
#include "analysis/selfplay.hpp"
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

    // From the openings of a record file: one pair an opening, each game from its plies.
    const std::string opening = source_path("samples/games/01-deployment-out.gpn").string();
    const CliRun from = run_gounki_args({"match", "--a-depth", "1", "--b-depth", "1", "--max-plies", "40", "--openings",
                                         opening, "--opening-plies", "5", "-o", (dir / "o.gpn").string()});
    INFO(from.out << from.err);
    REQUIRE(from.status == 0);
    CHECK(contains(from.out, "2 games: A won"));
    parser::RecordReader source(opening), played(dir / "o.gpn");
    parser::GameRecord first;
    REQUIRE(source.next(first));
    for (parser::GameRecord g; played.next(g);) {
        REQUIRE(g.main.plies.size() > 5);
        for (std::size_t k = 0; k < 5; ++k) CHECK(g.main.plies[k].move == first.main.plies[k].move);
    }
    check_error("match --openings " + shell_quoted(source_path("samples/games/10-gomoku.gpn")), 2,
                "holds Gomoku games; the match plays Gounki");

    check_error("match --a-depth 2 --a-nodes 500", 2, "give --a-depth or --a-nodes, not both");
    check_error("match --games 2 --b-eval no_such_weight=3", 2, "unknown evaluation weight 'no_such_weight'");
}
