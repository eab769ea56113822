// Rules core, by hand: full move lists of small positions, each derived from docs/rules.md
// section 1 and the rule sheets walk by walk (the derivation is in the comments), never copied from
// the generator's output. Every position also checks do/undo, the hash and the notation round trip
// for each of its moves (tests/support.hpp, expect_moves). This file: every stack kind, bounces,
// passes, merges, captures, exits; core_sheets_test.cpp: deployments, the rule sheets' examples and
// the end of the game; core_text_test.cpp: position and move text, hand-counted perft and the
// `gounki perft` command.
#include "tests/catch.hpp"
#include "tests/support.hpp"

#include "core/gounki/movegen.hpp"
#include "core/gounki/notation.hpp"

using namespace gounki;
using namespace gounki::test;

// ---------------------------------------------------------------------------------------------
// 1.3 and 1.5: every stack kind, in the middle and on both edges, for both colours.
//
// White lists were derived on d4 (middle) and a4 (edge) with a black round parked on h1, out of every
// walk. Directions for White: rounds up-left/up-right, squares left/forward/right.
//  - R d4: c5 e5.  S d4: c4 d5 e4.
//  - RR d4: c5 b6 / e5 f6; deployments: both rounds one direction: c5,b6 and e5,f6.
//  - RS d4: round c5 e5, square c4 d5 e4; rounds first: from c5 the square goes b5 c6 d5, from e5
//    d5 e6 f5; square first: from c4 the round goes b5 d5, from d5 c6 e6, from e4 d5 f5 (5 + 12).
//  - SS d4: c4 b4 / d5 d6 / e4 f4, deployments along the same three walks.
//  - RRR d4: c5 b6 a7 / e5 f6 g7 and the two three-piece deployments.
//  - RRS d4: rounds up to 2 (c5 b6 e5 f6), square 1 (c4 d5 e4); rounds first then the square from
//    b6 (a6 b7 c6) or f6 (e6 f7 g6); the square first then two rounds one way (c4: b5,a6 / d5,e6;
//    d5: c6,b7 / e6,f7; e4: d5,c6 / f5,g6): 7 + 12.
//  - RSS d4: round 1 (c5 e5), squares 2 (c4 b4 d5 d6 e4 f4); the round then two squares from c5
//    (b5,a5 c6,c7 d5,e5) or e5 (d5,c5 e6,e7 f5,g5); two squares then the round from b4 (a5 c5),
//    d6 (c7 e7), f4 (e5 g5): 8 + 12.
//  - SSS d4: three walks of 3 squares, and three deployments along them.
// On a4 the up-left round walk and the left square walk do not exist (1.2 Decision: their first
// step leaves the board sideways), but walks starting elsewhere may bounce on file a:
//  - RS a4: square a5 then the round from a5 only goes b6; square b4 then a5 or c5.
//  - RRS a4: square b4 then rounds a5,b6 (bounce) or c5,d6.
//  - RSS a4: round b5 then squares left a5 and back onto b5 (bounce), joining the round: b5+.
// The h4 lists are the a4 lists mirrored (a<->h, b<->g, ...). Black moves towards rank 1: its lists
// are the White lists mirrored through the centre (d4 -> e5, a4 -> h5, h4 -> a5), with a white
// round parked on a8. The test derives those four lists from the two written by hand.
namespace {

// `text` with every square name in it (a move, a list of squares) mirrored: files a<->h when `files`,
// ranks 1<->8 when `ranks`.
std::string mirrored(std::string text, bool files, bool ranks) {
    for (std::size_t i = 0; i + 1 < text.size(); ++i)
        if (text[i] >= 'a' && text[i] <= 'h' && text[i + 1] >= '1' && text[i + 1] <= '8') {
            if (files) text[i] = char('a' + 'h' - text[i]);
            if (ranks) text[i + 1] = char('1' + '8' - text[i + 1]);
        }
    return text;
}

// The position of one stack (`pieces` as written in a position, upper case) on `square`, owned by
// `side`, the other side's lone round parked out of its way (h1 for Black, a8 for White).
std::string one_stack(const std::string& pieces, const std::string& square, Color side) {
    const bool white = side == Color::white;
    std::string stack;
    for (char c : pieces) stack += white ? c : char(std::tolower(c));
    if (stack.size() > 1) stack = "(" + stack + ")";
    const auto row = [](int file, const std::string& piece) {
        return (file > 0 ? std::to_string(file) : "") + piece + (file < 7 ? std::to_string(7 - file) : "");
    };
    std::string text;
    for (char rank = '8'; rank >= '1'; --rank) {
        if (rank == square[1]) text += row(square[0] - 'a', stack);
        else if (rank == '8' && !white) text += row(0, "R");
        else if (rank == '1' && white) text += row(7, "r");
        else text += "8";
        text += rank > '1' ? "/" : (white ? " w" : " b");
    }
    return text;
}

Texts mirrored(const Texts& moves, bool files, bool ranks) {
    Texts out;
    for (const std::string& m : moves) out.push_back(mirrored(m, files, ranks));
    return out;
}

} // namespace

TEST_CASE("every stack kind has exactly the moves of docs/rules.md in the middle and on both edges, for both colours", "[core]") {
    // White's moves on d4 (middle) and on a4 (edge), by hand.
    auto [pieces, middle, edge] = GENERATE(table<std::string, Texts, Texts>({
        {"R", {"d4-c5", "d4-e5"}, {"a4-b5"}},
        {"S", {"d4-c4", "d4-d5", "d4-e4"}, {"a4-a5", "a4-b4"}},
        {"RR", {"d4-c5", "d4-b6", "d4-e5", "d4-f6", "d4*c5,b6", "d4*e5,f6"}, {"a4-b5", "a4-c6", "a4*b5,c6"}},
        {"RS",
         {"d4-c5", "d4-e5", "d4-c4", "d4-d5", "d4-e4", "d4*c5,b5", "d4*c5,c6", "d4*c5,d5", "d4*e5,d5", "d4*e5,e6", "d4*e5,f5",
          "d4*c4,b5", "d4*c4,d5", "d4*d5,c6", "d4*d5,e6", "d4*e4,d5", "d4*e4,f5"},
         {"a4-b5", "a4-a5", "a4-b4", "a4*b5,a5", "a4*b5,b6", "a4*b5,c5", "a4*a5,b6", "a4*b4,a5", "a4*b4,c5"}},
        {"SS",
         {"d4-c4", "d4-b4", "d4-d5", "d4-d6", "d4-e4", "d4-f4", "d4*c4,b4", "d4*d5,d6", "d4*e4,f4"},
         {"a4-a5", "a4-a6", "a4-b4", "a4-c4", "a4*a5,a6", "a4*b4,c4"}},
        {"RRR",
         {"d4-c5", "d4-b6", "d4-a7", "d4-e5", "d4-f6", "d4-g7", "d4*c5,b6,a7", "d4*e5,f6,g7"},
         {"a4-b5", "a4-c6", "a4-d7", "a4*b5,c6,d7"}},
        {"RRS",
         {"d4-c5", "d4-b6", "d4-e5", "d4-f6", "d4-c4", "d4-d5", "d4-e4", "d4*c5,b6,a6", "d4*c5,b6,b7", "d4*c5,b6,c6",
          "d4*e5,f6,e6", "d4*e5,f6,f7", "d4*e5,f6,g6", "d4*c4,b5,a6", "d4*c4,d5,e6", "d4*d5,c6,b7", "d4*d5,e6,f7", "d4*e4,d5,c6",
          "d4*e4,f5,g6"},
         {"a4-b5", "a4-c6", "a4-a5", "a4-b4", "a4*b5,c6,b6", "a4*b5,c6,c7", "a4*b5,c6,d6", "a4*a5,b6,c7", "a4*b4,a5,b6",
          "a4*b4,c5,d6"}},
        {"RSS",
         {"d4-c5",       "d4-e5",       "d4-c4",       "d4-b4",       "d4-d5",       "d4-d6",       "d4-e4",
          "d4-f4",       "d4*c5,b5,a5", "d4*c5,c6,c7", "d4*c5,d5,e5", "d4*e5,d5,c5", "d4*e5,e6,e7", "d4*e5,f5,g5",
          "d4*c4,b4,a5", "d4*c4,b4,c5", "d4*d5,d6,c7", "d4*d5,d6,e7", "d4*e4,f4,e5", "d4*e4,f4,g5"},
         {"a4-b5", "a4-a5", "a4-a6", "a4-b4", "a4-c4", "a4*b5,a5,b5+", "a4*b5,b6,b7", "a4*b5,c5,d5", "a4*a5,a6,b7", "a4*b4,c4,b5",
          "a4*b4,c4,d5"}},
        {"SSS",
         {"d4-c4", "d4-b4", "d4-a4", "d4-d5", "d4-d6", "d4-d7", "d4-e4", "d4-f4", "d4-g4", "d4*c4,b4,a4", "d4*d5,d6,d7",
          "d4*e4,f4,g4"},
         {"a4-a5", "a4-a6", "a4-a7", "a4-b4", "a4-c4", "a4-d4", "a4*a5,a6,a7", "a4*b4,c4,d4"}},
    }));
    const Texts other_edge = mirrored(edge, true, false);
    for (const auto& [square, moves] : {std::pair{"d4", middle}, {"a4", edge}, {"h4", other_edge}}) {
        expect_moves(one_stack(pieces, square, Color::white), moves);
        expect_moves(one_stack(pieces, mirrored(square, true, true), Color::black), mirrored(moves, true, true));
    }
}

// ---------------------------------------------------------------------------------------------
// 1.2: bounces.

TEST_CASE("a triple round on b2 going left bounces: a3, b4, c5", "[core]") {
    // Up-left: a3, then file -1 mirrors to b4, then c5. Up-right: c3, d4, e5.
    expect_moves("r7/8/8/8/8/8/1(RRR)6/8 w",
                 {"b2-a3", "b2-b4", "b2-c5", "b2-c3", "b2-d4", "b2-e5", "b2*a3,b4,c5", "b2*c3,d4,e5"});
}

TEST_CASE("a triple square on g2 going right bounces h2, g2, f2 and f2 is one move", "[core]") {
    // Left f2 e2 d2, forward g3 g4 g5, right h2 then back to g2 (its own square counts as empty: a pass)
    // then f2, which the left walk reaches too: one move. The deployment along the right walk puts a
    // piece back on g2, which is empty once the stack is lifted (no '+').
    expect_moves(
        "r7/8/8/8/8/8/6(SSS)1/8 w",
        {"g2-f2", "g2-e2", "g2-d2", "g2-g3", "g2-g4", "g2-g5", "g2-h2", "g2-g2", "g2*f2,e2,d2", "g2*g3,g4,g5", "g2*h2,g2,f2"});
}

TEST_CASE("a triple square reaches a square by two walks: legal if either walk is", "[core]") {
    SECTION("an enemy on h2 stops the right walk but f2 stays reachable to the left") {
        // Right: h2 is captured and the walk ends; no pass, and the right deployment is refused.
        expect_moves("8/8/8/8/8/8/6(SSS)r/8 w",
                     {"g2-f2", "g2-e2", "g2-d2", "g2-g3", "g2-g4", "g2-g5", "g2xh2", "g2*f2,e2,d2", "g2*g3,g4,g5"});
    }
    SECTION("an own round on h2 cannot be joined (4 pieces) but f2 stays reachable") {
        // The right deployment puts one square on h2 (2 pieces), one on g2, one on f2. The round on
        // h2 moves up-left to g3 only (its up-right walk leaves sideways at once).
        expect_moves(
            "r7/8/8/8/8/8/6(SSS)R/8 w",
            {"g2-f2", "g2-e2", "g2-d2", "g2-g3", "g2-g4", "g2-g5", "g2*f2,e2,d2", "g2*g3,g4,g5", "g2*h2+,g2,f2", "h2-g3"});
    }
}

// ---------------------------------------------------------------------------------------------
// 1.3: the pass.

TEST_CASE("a double square on g2 may pass g2-g2 through an empty h2, and not through an occupied one", "[core]") {
    SECTION("h2 empty") {
        expect_moves("r7/8/8/8/8/8/6(SS)1/8 w",
                     {"g2-f2", "g2-e2", "g2-g3", "g2-g4", "g2-h2", "g2-g2", "g2*f2,e2", "g2*g3,g4", "g2*h2,g2"});
    }
    SECTION("an enemy round on h2 (the English sheet's figure): capture, no pass, no deployment right") {
        expect_moves("8/8/8/8/8/8/6(SS)r/8 w", {"g2-f2", "g2-e2", "g2-g3", "g2-g4", "g2xh2", "g2*f2,e2", "g2*g3,g4"});
    }
    SECTION("an own round on h2: join it (3 pieces), no pass; the deployment goes h2+, g2") {
        expect_moves("r7/8/8/8/8/8/6(SS)R/8 w",
                     {"g2-f2", "g2-e2", "g2-g3", "g2-g4", "g2-h2+", "g2*f2,e2", "g2*g3,g4", "g2*h2+,g2", "h2-g3"});
    }
    SECTION("an own double round on h2: joining would make 4, so neither that nor the pass") {
        // RR h2: up-left g3, f4 (up-right leaves sideways at once), and the deployment g3,f4.
        expect_moves("r7/8/8/8/8/8/6(SS)(RR)/8 w",
                     {"g2-f2", "g2-e2", "g2-g3", "g2-g4", "g2*f2,e2", "g2*g3,g4", "g2*h2+,g2", "h2-g3", "h2-f4", "h2*g3,f4"});
    }
    SECTION("the pass on file a: a double square on b2") {
        // Left a2 then back onto b2; forward b3 b4; right c2 d2.
        expect_moves("r7/8/8/8/8/8/1(SS)6/8 w",
                     {"b2-a2", "b2-b2", "b2-b3", "b2-b4", "b2-c2", "b2-d2", "b2*a2,b2", "b2*b3,b4", "b2*c2,d2"});
    }
    SECTION("Black passes too: a double square on g7") {
        expect_moves("8/6(ss)1/8/8/8/8/8/R7 b",
                     {"g7-f7", "g7-e7", "g7-g6", "g7-g5", "g7-h7", "g7-g7", "g7*f7,e7", "g7*g6,g5", "g7*h7,g7"});
    }
}

TEST_CASE("the pass leaves the board as it was and gives the move to the opponent", "[core]") {
    Position pos = position_of("r7/8/8/8/8/8/6(SS)1/8 w");
    play(pos, "g2-g2");
    CHECK(pos.to_text() == "r7/8/8/8/8/8/6(SS)1/8 b");
}

// ---------------------------------------------------------------------------------------------
// 1.3: merging, captures, no jumping.

TEST_CASE("movements merge into own stacks up to three pieces and stop there", "[core]") {
    // RR d4: up-left c5 holds an own S (2+1 = 3: join, the walk ends); up-right e5 holds an own RR
    // (2+2 = 4: illegal, the walk ends). Deployments put one piece on each: c5+ then b6, e5+ then f6.
    // S c5: b5, c6, d5. RR e5: d6 c7 / f6 g7 and its two deployments.
    expect_moves("8/8/8/2S1(RR)3/3(RR)4/8/8/7r w",
                 {"d4-c5+", "d4*c5+,b6", "d4*e5+,f6", "c5-b5", "c5-c6", "c5-d5", "e5-d6", "e5-c7", "e5-f6", "e5-g7", "e5*d6,c7",
                  "e5*f6,g7"});
}

TEST_CASE("a movement onto an own stack is legal exactly when the result has at most three pieces", "[core]") {
    // The mover on d4 steps straight forward onto d5 (a square step).
    auto [text, legal, result] = GENERATE(table<std::string, bool, std::string>({
        {"8/8/8/3S4/3S4/8/8/7r w", true, "(SS)"},
        {"8/8/8/3(SS)4/3S4/8/8/7r w", true, "(SSS)"},
        {"8/8/8/3(RR)4/3S4/8/8/7r w", true, "(RRS)"},
        {"8/8/8/3(RS)4/3S4/8/8/7r w", true, "(RSS)"},
        {"8/8/8/3R4/3(RS)4/8/8/7r w", true, "(RRS)"},
        {"8/8/8/3S4/3(SS)4/8/8/7r w", true, "(SSS)"},
        {"8/8/8/3(SSS)4/3S4/8/8/7r w", false, ""},
        {"8/8/8/3(RS)4/3(SS)4/8/8/7r w", false, ""},
        {"8/8/8/3R4/3(RSS)4/8/8/7r w", false, ""},
        {"8/8/8/3(RR)4/3(RRS)4/8/8/7r w", false, ""},
    }));
    INFO(text);
    Position pos = position_of(text);
    CHECK(has_move(pos, "d4-d5+") == legal);
    if (legal) {
        play(pos, "d4-d5+");
        CHECK(pos.to_text() == "8/8/8/3" + result + "4/8/8/8/7r b");
    }
}

TEST_CASE("a capture removes the whole enemy stack, whatever its size", "[core]") {
    // A white S on d4 takes d5 (forward). Black keeps a round on h8, so the game goes on.
    auto [target, size] = GENERATE(table<std::string, int>({
        {"r", 1},
        {"s", 1},
        {"(rs)", 2},
        {"(ss)", 2},
        {"(rr)", 2},
        {"(rrs)", 3},
        {"(rss)", 3},
        {"(sss)", 3},
        {"(rrr)", 3},
    }));
    const std::string text = "7r/8/8/3" + target + "4/3S4/8/8/8 w";
    INFO(text);
    Position pos = position_of(text);
    CHECK(pos.piece_count(Color::black) == 1 + size);
    expect_stack_moves(pos, "d4", {"d4-c4", "d4xd5", "d4-e4"});
    play(pos, "d4xd5");
    CHECK(pos.to_text() == "7r/8/8/3S4/8/8/8/8 b");
    CHECK(pos.piece_count(Color::black) == 1);
    CHECK(pos.outcome() == Outcome::none);
}

TEST_CASE("captures end a walk and deployments refuse enemy stacks on the way", "[core]") {
    // SS d4: left c4 then b4 (black RS: captured, the walk ends); forward d5 then d6 (black SSS:
    // captured); right e4 (black r: captured at once). Every deployment walk meets an enemy: none.
    expect_moves("8/8/3(sss)4/8/1(rs)1(SS)r3/8/8/8 w", {"d4-c4", "d4xb4", "d4-d5", "d4xd6", "d4xe4"});
}

TEST_CASE("a deployment is refused when its second kind meets an enemy stack", "[core]") {
    // RS d4 with a black square on c6: the RS list of d4 without d4*c5,c6 (round c5, square forward
    // onto c6) and d4*d5,c6 (square d5, round up-left onto c6); the movements never reach c6.
    expect_moves("8/8/2s5/8/3(RS)4/8/8/8 w",
                 {"d4-c5", "d4-e5", "d4-c4", "d4-d5", "d4-e4", "d4*c5,b5", "d4*c5,d5", "d4*e5,d5", "d4*e5,e6", "d4*e5,f5",
                  "d4*c4,b5", "d4*c4,d5", "d4*d5,e6", "d4*e4,d5", "d4*e4,f5"});
}

TEST_CASE("no stack jumps over another", "[core]") {
    SECTION("a triple round on c2 blocked right by an enemy and left by a full join") {
        // Up-right: d3 holds a black square: captured, the walk ends (no e4, f5). Up-left: b3, then a4
        // holds an own S (3+1 = 4: illegal, the walk ends, no b5). The left deployment places one round
        // on a4 (2 pieces) and goes on to b5; the right one meets the enemy on d3.
        // S a4: forward a5, right b4.
        expect_moves("8/8/8/8/S7/3s4/2(RRR)5/8 w", {"c2-b3", "c2xd3", "c2*b3,a4+,b5", "a4-a5", "a4-b4"});
    }
    SECTION("the English sheet: the double square on f2 can't reach f4 over the black round on f3") {
        // f2 SS: left e2 d2, forward f3 (captured, the walk ends), right g2 h2; never g3 (no turning).
        expect_moves("8/8/8/8/4r3/5r2/5(SS)2/8 w", {"f2-e2", "f2-d2", "f2xf3", "f2-g2", "f2-h2", "f2*e2,d2", "f2*g2,h2"});
        Position pos = position_of("8/8/8/8/4r3/5r2/5(SS)2/8 w");
        play(pos, "f2xf3");
        // ... and the black round on e4 takes it back (down-right), or goes down-left to d3.
        expect_moves(pos.to_text(), {"e4-d3", "e4xf3"});
    }
    SECTION("the English sheet: a piece on h5 stops the triple round on f3 from bouncing to g6") {
        // Nothing on h5: up-right g4, h5, then the bounce to g6; up-left e4 d5 c6.
        expect_moves("r7/8/8/8/8/5(RRR)2/8/8 w",
                     {"f3-g4", "f3-h5", "f3-g6", "f3-e4", "f3-d5", "f3-c6", "f3*g4,h5,g6", "f3*e4,d5,c6"});
        // An own square on h5: joining makes 4, so the walk stops at g4; the deployment may still put
        // one round on h5 and bounce on to g6. S h5: left g5, forward h6.
        expect_moves("r7/8/8/7S/8/5(RRR)2/8/8 w",
                     {"f3-g4", "f3-e4", "f3-d5", "f3-c6", "f3*g4,h5+,g6", "f3*e4,d5,c6", "h5-g5", "h5-h6"});
    }
}

// ---------------------------------------------------------------------------------------------
// 1.4: exits.

TEST_CASE("exits are one move per stack, with range to spare, by movement and by deployment", "[core]") {
    SECTION("a triple round on c7: both diagonals leave after one square") {
        // Up-left b8 then a9 (leaving past rank 8 wins over a bounce); up-right d8 then d9.
        expect_moves("8/2(RRR)5/8/8/8/8/8/7r w", {"c7-b8", "c7-d8", "c7-Out", "c7*b8,out", "c7*d8,out"});
    }
    SECTION("a triple square on d7: forward d8 then out") {
        expect_moves(
            "8/3(SSS)4/8/8/8/8/8/7r w",
            {"d7-c7", "d7-b7", "d7-a7", "d7-d8", "d7-Out", "d7-e7", "d7-f7", "d7-g7", "d7*c7,b7,a7", "d7*d8,out", "d7*e7,f7,g7"});
    }
    SECTION("a triple square on d8: forward leaves at once; that deployment is the exit itself") {
        expect_moves("3(SSS)4/8/8/8/8/8/8/7r w",
                     {"d8-Out", "d8-c8", "d8-b8", "d8-a8", "d8-e8", "d8-f8", "d8-g8", "d8*c8,b8,a8", "d8*e8,f8,g8"});
    }
    SECTION("a round-square on e8: every first step but sideways leaves") {
        // Rounds first: the round leaves at once (= e8-Out). Square first: d8 or f8, then the round
        // leaves whichever diagonal it takes: one move each.
        expect_moves("4(RS)3/8/8/8/8/8/8/7r w", {"e8-Out", "e8-d8", "e8-f8", "e8*d8,out", "e8*f8,out"});
    }
    SECTION("a round-round-square on c7") {
        // Movements: rounds b8 then out, d8 then out (one exit); square b7, c8, d7.
        // Rounds first: b8,out and d8,out (the square is never placed).
        // Square first: b7 then a8,out (no bounce past rank 8) or c8,out; c8 then out at once (both
        // diagonals: one move); d7 then c8,out or e8,out.
        expect_moves("8/2(RRS)5/8/8/8/8/8/7r w",
                     {"c7-b8", "c7-d8", "c7-b7", "c7-c8", "c7-d7", "c7-Out", "c7*b8,out", "c7*d8,out", "c7*b7,a8,out",
                      "c7*b7,c8,out", "c7*c8,out", "c7*d7,c8,out", "c7*d7,e8,out"});
    }
    SECTION("Black's round-round-square on f2 (the c7 case through the centre)") {
        expect_moves("R7/8/8/8/8/8/5(rrs)2/8 b",
                     {"f2-g1", "f2-e1", "f2-g2", "f2-f1", "f2-e2", "f2-Out", "f2*g1,out", "f2*e1,out", "f2*g2,h1,out",
                      "f2*g2,f1,out", "f2*f1,out", "f2*e2,f1,out", "f2*e2,d1,out"});
    }
    SECTION("a double round on c7 with an enemy on b8: the left walk captures, the right one exits") {
        expect_moves("1s6/2(RR)5/8/8/8/8/8/8 w", {"c7xb8", "c7-d8", "c7-Out", "c7*d8,out"});
    }
    SECTION("a double round on c6 hemmed in by enemies cannot exit") {
        // Up-left b7 and up-right d7 are both captures; the deployments are both refused.
        expect_moves("8/1s1s4/2(RR)5/8/8/8/8/8 w", {"c6xb7", "c6xd7"});
    }
    SECTION("a black square on a1 exits, written a1-Out") { expect_moves("8/8/8/8/8/8/8/s6R b", {"a1-Out", "a1-b1"}); }
}
