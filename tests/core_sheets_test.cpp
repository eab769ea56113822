// Rules core, by hand (see core_rules_test.cpp): deployments onto own stacks, the French and English
// rule sheets' examples, docs/rules.md's record, and the end of the game.
#include "tests/catch.hpp"
#include "tests/support.hpp"

#include "core/gounki/movegen.hpp"
#include "core/gounki/notation.hpp"

using namespace gounki;
using namespace gounki::test;

namespace {

// The text of `position` after `move`, played with test::play's checks.
std::string text_after(const std::string& position, const std::string& move) {
    Position pos = position_of(position);
    play(pos, move);
    return pos.to_text();
}

} // namespace

// ---------------------------------------------------------------------------------------------
// 1.5: deployments.

TEST_CASE("deployments onto own stacks count the pieces placed earlier in the same deployment", "[core]") {
    SECTION("the French sheet's a3*b4,a4,b4+ on an empty board") {
        // RSS a3: round b4; squares a4 a5 / b3 c3. Round first then squares from b4: left a4 then back
        // onto b4 (joining the round: b4+), forward b5 b6, right c4 d4. Squares first: a4,a5 then the
        // round b6; b3,c3 then b4 or d4.
        expect_moves("8/8/8/8/8/(RSS)7/8/7r w",
                     {"a3-b4", "a3-a4", "a3-a5", "a3-b3", "a3-c3", "a3*b4,a4,b4+", "a3*b4,b5,b6", "a3*b4,c4,d4", "a3*a4,a5,b6",
                      "a3*b3,c3,b4", "a3*b3,c3,d4"});
        CHECK(text_after("8/8/8/8/8/(RSS)7/8/7r w", "a3*b4,a4,b4+") == "8/8/8/8/S(RS)6/8/8/7r b");
    }
    SECTION("an own square on b4: up to three on b4, the round and the returning square included") {
        // Movement onto b4 by the round: 3+1 = 4, illegal. The deployment puts the round on b4 (2),
        // then a4, then the second square back onto b4 (3): legal.
        // S b4: a4, b5, c4.
        expect_moves("8/8/8/8/1S6/(RSS)7/8/7r w",
                     {"a3-a4", "a3-a5", "a3-b3", "a3-c3", "a3*b4+,a4,b4+", "a3*b4+,b5,b6", "a3*b4+,c4,d4", "a3*a4,a5,b6",
                      "a3*b3,c3,b4+", "a3*b3,c3,d4", "b4-a4", "b4-b5", "b4-c4"});
        CHECK(text_after("8/8/8/8/1S6/(RSS)7/8/7r w", "a3*b4+,a4,b4+") == "8/8/8/8/S(RSS)6/8/8/7r b");
    }
    SECTION("an own double square on b4: the returning square would make a fourth piece, refused") {
        // The round joins b4 (3 pieces); the square going left then back onto b4 is refused. Forward
        // and right are fine. SS b4 passes b4-b4 through a4 (empty) and has its usual walks.
        expect_moves("8/8/8/8/1(SS)6/(RSS)7/8/7r w",
                     {"a3-a4", "a3-a5", "a3-b3", "a3-c3", "a3*b4+,b5,b6", "a3*b4+,c4,d4", "a3*a4,a5,b6", "a3*b3,c3,b4+",
                      "a3*b3,c3,d4", "b4-a4", "b4-b4", "b4-b5", "b4-b6", "b4-c4", "b4-d4", "b4*a4,b4", "b4*b5,b6", "b4*c4,d4"});
    }
    SECTION("a triple round deploys one piece onto an own double square but not onto a triple") {
        // RRR b2 with SS on a3: the movement up-left would make 5 (stop); the deployment a3+,b4,c5.
        // SS a3: forward a4 a5, right b3 c3 (left leaves sideways at once), and the two deployments.
        expect_moves("r7/8/8/8/8/(SS)7/1(RRR)6/8 w",
                     {"b2-c3", "b2-d4", "b2-e5", "b2*a3+,b4,c5", "b2*c3,d4,e5", "a3-a4", "a3-a5", "a3-b3", "a3-c3", "a3*a4,a5",
                      "a3*b3,c3"});
        // With SSS on a3 the left deployment is refused too. SSS a3: forward a4 a5 a6, right b3 c3 d3.
        expect_moves("r7/8/8/8/8/(SSS)7/1(RRR)6/8 w",
                     {"b2-c3", "b2-d4", "b2-e5", "b2*c3,d4,e5", "a3-a4", "a3-a5", "a3-a6", "a3-b3", "a3-c3", "a3-d3",
                      "a3*a4,a5,a6", "a3*b3,c3,d3"});
    }
}

TEST_CASE("the French sheet's deployments c5*d5,e5,f6 and a6*a7,b8,out", "[core]") {
    SECTION("RSS on c5") {
        // Round b6 d6; squares b5 a5 / c6 c7 / d5 e5. Round first: from b6 the squares go a6 and back
        // onto b6 (b6+), b7 b8, c6 d6; from d6: c6 b6, d7 d8, e6 f6. Squares first: b5,a5 then b6;
        // c6,c7 then b8 or d8; d5,e5 then d6 or f6.
        expect_moves("8/8/8/2(RSS)5/8/8/8/7r w",
                     {"c5-b6", "c5-d6", "c5-b5", "c5-a5", "c5-c6", "c5-c7", "c5-d5", "c5-e5", "c5*b6,a6,b6+", "c5*b6,b7,b8",
                      "c5*b6,c6,d6", "c5*d6,c6,b6", "c5*d6,d7,d8", "c5*d6,e6,f6", "c5*b5,a5,b6", "c5*c6,c7,b8", "c5*c6,c7,d8",
                      "c5*d5,e5,d6", "c5*d5,e5,f6"});
    }
    SECTION("RRS on a6") {
        // Rounds (range 2) up-right only: b7 c8; square a7 or b6. Rounds first then the square from c8:
        // b8, out, d8. Square a7 then rounds b8, out. Square b6 then rounds a7, b8 (bounce) or c7 d8.
        expect_moves("8/8/(RRS)7/8/8/8/8/7r w",
                     {"a6-b7", "a6-c8", "a6-a7", "a6-b6", "a6*b7,c8,b8", "a6*b7,c8,out", "a6*b7,c8,d8", "a6*a7,b8,out",
                      "a6*b6,a7,b8", "a6*b6,c7,d8"});
        Position pos = position_of("8/8/(RRS)7/8/8/8/8/7r w");
        play(pos, "a6*a7,b8,out");
        CHECK(pos.outcome() == Outcome::white_wins);
    }
}

TEST_CASE("Black's round-round-square deployments b4*a3,b2,a2 and g4*f3,e2,e1", "[core]") {
    SECTION("b4") {
        // Rounds down-left a3 then b2 (bounce), down-right c3 d2; square a4 b3 c4. Rounds first then the
        // square from b2 (a2 b1 c2) or d2 (c2 d1 e2). Square first: a4 then b3,c2 (the down-left walk
        // from a4 does not exist); b3 then a2,b1 (bounce) or c2,d1; c4 then b3,a2 or d3,e2.
        expect_moves("8/8/8/8/1(rrs)6/8/8/7R b",
                     {"b4-a3", "b4-b2", "b4-c3", "b4-d2", "b4-a4", "b4-b3", "b4-c4", "b4*a3,b2,a2", "b4*a3,b2,b1", "b4*a3,b2,c2",
                      "b4*c3,d2,c2", "b4*c3,d2,d1", "b4*c3,d2,e2", "b4*a4,b3,c2", "b4*b3,a2,b1", "b4*b3,c2,d1", "b4*c4,b3,a2",
                      "b4*c4,d3,e2"});
    }
    SECTION("g4 (the b4 case mirrored)") {
        expect_moves("R7/8/8/8/6(rrs)1/8/8/8 b",
                     {"g4-h3", "g4-g2", "g4-f3", "g4-e2", "g4-h4", "g4-g3", "g4-f4", "g4*h3,g2,h2", "g4*h3,g2,g1", "g4*h3,g2,f2",
                      "g4*f3,e2,f2", "g4*f3,e2,e1", "g4*f3,e2,d2", "g4*h4,g3,f2", "g4*g3,h2,g1", "g4*g3,f2,e1", "g4*f4,g3,h2",
                      "g4*f4,e3,d2"});
    }
}

TEST_CASE("the French sheet's winning deployment b4*a3,b2,a2 attacks a1 from a2 and b2", "[core]") {
    Position pos = position_of("8/8/8/8/1(rrs)6/8/8/S7 b");
    play(pos, "b4*a3,b2,a2");
    CHECK(pos.to_text() == "8/8/8/8/8/r7/sr6/S7 w");
    // White's square on a1: forward takes a2, or right to b1.
    expect_moves(pos.to_text(), {"a1xa2", "a1-b1"});
    // Black threatens a1 with the square on a2 (forward) and the round on b2 (down-left).
    pos.set_side_to_move(Color::black);
    CHECK(has_move(pos, "a2xa1"));
    CHECK(has_move(pos, "b2xa1"));
}

TEST_CASE("the French sheet's fork: d6 to f4 threatens d2 and h2", "[core]") {
    // White's RRS has just gone from e4 to d4 (square left), out of reach of f4.
    Position pos = position_of("8/8/3(rrs)4/8/4(RRS)3/8/8/8 w");
    play(pos, "e4-d4");
    play(pos, "d6-f4"); // rounds down-right: e5, f4
    pos.set_side_to_move(Color::black);
    // RRS f4: rounds e3 d2 / g3 h2, square e4 f3 g4; rounds first then the square from d2 (c2 d1 e2)
    // or h2 (g2 h1: the walk towards file i leaves sideways at once); square first: e4 then d3,c2 or
    // f3,g2; f3 then e2,d1 or g2,h1; g4 then f3,e2 or h3,g2 (bounce).
    expect_stack_moves(pos, "f4",
                       {"f4-e3", "f4-d2", "f4-g3", "f4-h2", "f4-e4", "f4-f3", "f4-g4", "f4*e3,d2,c2", "f4*e3,d2,d1",
                        "f4*e3,d2,e2", "f4*g3,h2,g2", "f4*g3,h2,h1", "f4*e4,d3,c2", "f4*e4,f3,g2", "f4*f3,e2,d1", "f4*f3,g2,h1",
                        "f4*g4,f3,e2", "f4*g4,h3,g2"});
}

TEST_CASE("the French sheet's sacrifice: b5xb7, b8xb7, a5-a6, then a6*a7,b8,out wins", "[core]") {
    // White: RRS b5 and a5. Black: a round on b7, a square on b8, and the RRS on g4 threatening
    // g4*f3,e2,e1 then e1-Out.
    Position pos = position_of("1s6/1r6/8/(RRS)(RRS)6/6(rrs)1/8/8/8 w");
    play(pos, "b5xb7"); // rounds up-left: a6, then the bounce onto b7
    play(pos, "b8xb7"); // the square goes forward
    play(pos, "a5-a6"); // the square goes forward, the whole stack with it
    play(pos, "g4*f3,e2,e1");
    {
        Position black_to_move = pos;
        black_to_move.set_side_to_move(Color::black);
        CHECK(has_move(black_to_move, "e1-Out")); // the threat White must outrun
    }
    play(pos, "a6*a7,b8,out");
    CHECK(pos.outcome() == Outcome::white_wins);
    MoveList list;
    generate_moves(pos, list);
    CHECK(list.empty());
}

TEST_CASE("the French sheet's race: g2 deploys g3, f4, e5 to build a double round threatening c7 and g7", "[core]") {
    // White: S g5, RRS g2, R e5. Black: rounds h5 and g4, squares c7 and g7.
    // RRS g2: rounds f3 e4 / h3 then the bounce onto g4 (black: captured); square f2 g3 h2.
    //   Rounds first: f3,e4 then the square d4, e5+ (own round) or f4; the right walk meets g4: refused.
    //   Square first: f2 then e3,d4 or g3,h4; g3 then f4,e5+ or h4,g5+ (bounce onto the own S);
    //   h2 then g3,f4 only.
    // S g5: f5, g6, and h5 (captured). R e5: d6, f6.
    const std::string text = "8/2s3s1/8/4R1Sr/6r1/8/6(RRS)1/8 w";
    expect_moves(text,
                 {"g2-f3",       "g2-e4",        "g2-h3",       "g2xg4",       "g2-f2",       "g2-g3",        "g2-h2",
                  "g2*f3,e4,d4", "g2*f3,e4,e5+", "g2*f3,e4,f4", "g2*f2,e3,d4", "g2*f2,g3,h4", "g2*g3,f4,e5+", "g2*g3,h4,g5+",
                  "g2*h2,g3,f4", "g5-f5",        "g5-g6",       "g5xh5",       "e5-d6",       "e5-f6"});
    Position pos = position_of(text);
    play(pos, "g2*g3,f4,e5+");
    CHECK(pos.to_text() == "8/2s3s1/8/4(RR)1Sr/5Rr1/6S1/8/8 b");
    pos.set_side_to_move(Color::white);
    // RR e5: d6 then c7 (captured), f6 then g7 (captured); both deployments meet an enemy.
    expect_stack_moves(pos, "e5", {"e5-d6", "e5xc7", "e5-f6", "e5xg7"});
}

// ---------------------------------------------------------------------------------------------
// The rule sheets' single-piece examples and docs/rules.md's record.

TEST_CASE("the English sheet's single pieces: c2 round, d7 black round, d3 square, f7 black square", "[core]") {
    expect_moves("8/3r1s2/8/8/8/8/2R5/8 w", {"c2-b3", "c2-d3"});
    expect_moves("8/3r1s2/8/8/8/8/2R5/8 b", {"d7-c6", "d7-e6", "f7-e7", "f7-f6", "f7-g7"});
    expect_moves("8/3r1s2/8/8/8/3S4/8/8 w", {"d3-c3", "d3-d4", "d3-e3"});
    // f7xe7: the black square takes sideways.
    expect_moves("8/4Rs2/8/8/8/8/8/8 b", {"f7xe7", "f7-f6", "f7-g7"});
}

TEST_CASE("the English sheet: the black double round on d7 cannot reach d5 in one move", "[core]") {
    expect_moves("8/3(rr)4/8/8/8/8/5(SS)2/8 b", {"d7-c6", "d7-b5", "d7-e6", "d7-f5", "d7*c6,b5", "d7*e6,f5"});
}

TEST_CASE("docs/rules.md's record plays from the start with every marker right", "[core]") {
    Position pos = Position::start();
    CHECK(has_move(pos, "a1-a2+"));
    for (const char* mv : {"c2-d3", "f7-e6", "b2-c2", "e7-e6+", "d2-c2+", "c7-c6", "c2*c3,c4"}) play(pos, mv);
    CHECK(pos.to_text() == "rsrsrsrs/sr1r2sr/2s1(rs)3/8/2S5/2SR4/R3RSRS/SRSRSRSR b");
}

// ---------------------------------------------------------------------------------------------
// 1.6: the end of the game.

TEST_CASE("capturing the last enemy piece ends the game", "[core]") {
    Position pos = position_of("8/8/8/4(rs)3/3R4/8/8/8 w");
    expect_moves(pos.to_text(), {"d4-c5", "d4xe5"});
    play(pos, "d4xe5");
    CHECK(pos.outcome() == Outcome::white_wins);
    CHECK(pos.game_over());
    MoveList list;
    generate_moves(pos, list);
    CHECK(list.empty());
    CHECK(count_moves(pos) == 0);
    const Resolution r = resolve_move_text(pos, "e5-e4");
    CHECK(r.move == Move::none());
    CHECK(r.failure == ResolveFailure::game_over);
    CHECK_FALSE(r.message.empty());
}

TEST_CASE("Black capturing White's last piece wins for Black", "[core]") {
    Position pos = position_of("8/8/8/8/8/8/1r6/2S5 b");
    play(pos, "b2xc1");
    CHECK(pos.outcome() == Outcome::black_wins);
    CHECK(count_moves(pos) == 0);
}

TEST_CASE("an exit ends the game and no move follows", "[core]") {
    SECTION("a single round on c8") {
        expect_moves("2R5/8/8/8/8/8/8/7r w", {"c8-Out"});
        Position pos = position_of("2R5/8/8/8/8/8/8/7r w");
        play(pos, "c8-Out");
        CHECK(pos.outcome() == Outcome::white_wins);
        CHECK(count_moves(pos) == 0);
        CHECK(resolve_move_text(pos, "h1-g2").failure == ResolveFailure::game_over);
    }
    SECTION("a single round on a8 (its only walk is up-right)") { expect_moves("R7/8/8/8/8/8/8/7r w", {"a8-Out"}); }
    SECTION("a deployment whose second kind leaves") {
        Position pos = position_of("4(RS)3/8/8/8/8/8/8/7r w");
        play(pos, "e8*d8,out");
        CHECK(pos.outcome() == Outcome::white_wins);
        CHECK(count_moves(pos) == 0);
    }
}

TEST_CASE("a position where one side has no piece is already over", "[core]") {
    auto [text, outcome] = GENERATE(table<std::string, Outcome>({
        {"8/8/8/8/8/8/8/R7 b", Outcome::white_wins},
        {"8/8/8/8/8/8/8/R7 w", Outcome::white_wins},
        {"r7/8/8/8/8/8/8/8 w", Outcome::black_wins},
    }));
    const Position pos = position_of(text);
    CHECK(pos.outcome() == outcome);
    CHECK(count_moves(pos) == 0);
    CHECK(pos.key() == pos.compute_key());
}
