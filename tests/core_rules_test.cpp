// Rules core, by hand: full move lists of small positions, each derived from docs/rules.md
// section 1 and the rule sheets walk by walk (the derivation is in the comments), never copied from
// the generator's output. Every position also checks do/undo, the hash and the notation round trip
// for each of its moves. Then position text, move text, the end of the game, hand-counted perft and
// the `gounki perft` command's arguments.
#include "tests/catch.hpp"

#include "core/movegen.hpp"
#include "core/notation.hpp"
#include "core/perft.hpp"

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <set>
#include <sstream>
#include <string>
#include <vector>

using namespace gounki;

namespace {

using Texts = std::vector<std::string>;

Position pos_of(const std::string& text) {
    auto r = Position::from_text(text);
    if (auto* e = std::get_if<PositionError>(&r))
        FAIL("bad test position '" << text << "' at column " << e->column << ": " << e->message);
    return std::get<Position>(r);
}

Square sq(const char* name) {
    const Square s = parse_square(name);
    REQUIRE(s != no_square);
    return s;
}

std::set<std::string> texts_of(const Position& pos, const MoveList& list) {
    std::set<std::string> out;
    for (Move m : list) out.insert(move_to_text(pos, m));
    return out;
}

// Every move of `pos`: do_move then undo_move gives back the very same position and key, the key kept
// incrementally equals the key computed from scratch, the outcome is set exactly when the move wins,
// and the canonical text of the move resolves back to the move without warnings.
void check_every_move(Position& pos) {
    MoveList list;
    generate_moves(pos, list);
    const Position before = pos;
    const std::string text = pos.to_text();
    const std::uint64_t key = pos.key();
    const std::uint64_t occ_white = pos.occupancy(Color::white), occ_black = pos.occupancy(Color::black);
    const Color us = pos.side_to_move();
    CHECK(key == pos.compute_key());
    for (Move m : list) {
        const std::string mt = move_to_text(pos, m);
        INFO("position " << text << ", move " << mt);
        const Resolution r = resolve_move_text(pos, mt);
        CHECK(r.move == m);
        CHECK(r.warnings.empty());

        UndoRecord undo;
        pos.do_move(m, undo);
        CHECK(pos.key() == pos.compute_key());
        CHECK(pos.side_to_move() == ~us);
        const bool wins = m.ends_out() || pos.occupancy(~us) == 0;
        CHECK(pos.outcome() == (wins ? win_for(us) : Outcome::none));
        CHECK(pos.piece_count(us) <= before.piece_count(us));
        pos.undo_move(m, undo);

        CHECK(pos == before);
        CHECK(pos.key() == key);
        CHECK(pos.to_text() == text);
        CHECK(pos.occupancy(Color::white) == occ_white);
        CHECK(pos.occupancy(Color::black) == occ_black);
    }
}

void compare(const std::set<std::string>& got, const Texts& expected) {
    const std::set<std::string> want(expected.begin(), expected.end());
    REQUIRE(want.size() == expected.size()); // the expected list itself names no move twice
    Texts missing, extra;
    std::set_difference(want.begin(), want.end(), got.begin(), got.end(), std::back_inserter(missing));
    std::set_difference(got.begin(), got.end(), want.begin(), want.end(), std::back_inserter(extra));
    CHECK(missing == Texts{});
    CHECK(extra == Texts{});
}

// The full move list of the side to move, as canonical texts, plus every per-move invariant.
void expect_moves(const std::string& text, const Texts& expected) {
    INFO("position " << text);
    Position pos = pos_of(text);
    MoveList list;
    generate_moves(pos, list);
    const auto got = texts_of(pos, list);
    compare(got, expected);
    CHECK(list.size() == int(got.size())); // no move is generated twice
    CHECK(count_moves(pos) == list.size());
    check_every_move(pos);
}

// The moves of one stack only (the stack belongs to the side to move).
void expect_stack_moves(const Position& pos, const char* from, const Texts& expected) {
    INFO("position " << pos.to_text() << ", stack on " << from);
    MoveList list;
    generate_moves_from(pos, sq(from), list);
    const auto got = texts_of(pos, list);
    compare(got, expected);
    CHECK(list.size() == int(got.size()));
}

bool has_move(const Position& pos, const std::string& text) {
    MoveList list;
    generate_moves(pos, list);
    return texts_of(pos, list).count(text) == 1;
}

// Resolves `text` (which must be legal and written without marker problems) and plays it.
void play(Position& pos, const std::string& text) {
    INFO("position " << pos.to_text() << ", move " << text);
    const Resolution r = resolve_move_text(pos, text);
    REQUIRE(r.move != Move::none());
    CHECK(r.warnings.empty());
    CHECK(move_to_text(pos, r.move) == text);
    UndoRecord undo;
    pos.do_move(r.move, undo);
    CHECK(pos.key() == pos.compute_key());
}

} // namespace

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
// round parked on a8.
TEST_CASE("every stack kind has exactly the moves of docs/rules.md in the middle and on both edges, for both colours", "[core]") {
    auto [text, expected] = GENERATE(table<std::string, Texts>({
        {"8/8/8/8/3R4/8/8/7r w", {"d4-c5", "d4-e5"}},
        {"8/8/8/8/R7/8/8/7r w", {"a4-b5"}},
        {"8/8/8/8/7R/8/8/7r w", {"h4-g5"}},
        {"R7/8/8/4r3/8/8/8/8 b", {"e5-f4", "e5-d4"}},
        {"R7/8/8/7r/8/8/8/8 b", {"h5-g4"}},
        {"R7/8/8/r7/8/8/8/8 b", {"a5-b4"}},
        {"8/8/8/8/3S4/8/8/7r w", {"d4-c4", "d4-d5", "d4-e4"}},
        {"8/8/8/8/S7/8/8/7r w", {"a4-a5", "a4-b4"}},
        {"8/8/8/8/7S/8/8/7r w", {"h4-h5", "h4-g4"}},
        {"R7/8/8/4s3/8/8/8/8 b", {"e5-f5", "e5-e4", "e5-d5"}},
        {"R7/8/8/7s/8/8/8/8 b", {"h5-h4", "h5-g5"}},
        {"R7/8/8/s7/8/8/8/8 b", {"a5-a4", "a5-b5"}},
        {"8/8/8/8/3(RR)4/8/8/7r w", {"d4-c5", "d4-b6", "d4-e5", "d4-f6", "d4*c5,b6", "d4*e5,f6"}},
        {"8/8/8/8/(RR)7/8/8/7r w", {"a4-b5", "a4-c6", "a4*b5,c6"}},
        {"8/8/8/8/7(RR)/8/8/7r w", {"h4-g5", "h4-f6", "h4*g5,f6"}},
        {"R7/8/8/4(rr)3/8/8/8/8 b", {"e5-f4", "e5-g3", "e5-d4", "e5-c3", "e5*f4,g3", "e5*d4,c3"}},
        {"R7/8/8/7(rr)/8/8/8/8 b", {"h5-g4", "h5-f3", "h5*g4,f3"}},
        {"R7/8/8/(rr)7/8/8/8/8 b", {"a5-b4", "a5-c3", "a5*b4,c3"}},
        {"8/8/8/8/3(RS)4/8/8/7r w", {"d4-c5", "d4-e5", "d4-c4", "d4-d5", "d4-e4", "d4*c5,b5", "d4*c5,c6", "d4*c5,d5", "d4*e5,d5", "d4*e5,e6", "d4*e5,f5", "d4*c4,b5", "d4*c4,d5", "d4*d5,c6", "d4*d5,e6", "d4*e4,d5", "d4*e4,f5"}},
        {"8/8/8/8/(RS)7/8/8/7r w", {"a4-b5", "a4-a5", "a4-b4", "a4*b5,a5", "a4*b5,b6", "a4*b5,c5", "a4*a5,b6", "a4*b4,a5", "a4*b4,c5"}},
        {"8/8/8/8/7(RS)/8/8/7r w", {"h4-g5", "h4-h5", "h4-g4", "h4*g5,h5", "h4*g5,g6", "h4*g5,f5", "h4*h5,g6", "h4*g4,h5", "h4*g4,f5"}},
        {"R7/8/8/4(rs)3/8/8/8/8 b", {"e5-f4", "e5-d4", "e5-f5", "e5-e4", "e5-d5", "e5*f4,g4", "e5*f4,f3", "e5*f4,e4", "e5*d4,e4", "e5*d4,d3", "e5*d4,c4", "e5*f5,g4", "e5*f5,e4", "e5*e4,f3", "e5*e4,d3", "e5*d5,e4", "e5*d5,c4"}},
        {"R7/8/8/7(rs)/8/8/8/8 b", {"h5-g4", "h5-h4", "h5-g5", "h5*g4,h4", "h5*g4,g3", "h5*g4,f4", "h5*h4,g3", "h5*g5,h4", "h5*g5,f4"}},
        {"R7/8/8/(rs)7/8/8/8/8 b", {"a5-b4", "a5-a4", "a5-b5", "a5*b4,a4", "a5*b4,b3", "a5*b4,c4", "a5*a4,b3", "a5*b5,a4", "a5*b5,c4"}},
        {"8/8/8/8/3(SS)4/8/8/7r w", {"d4-c4", "d4-b4", "d4-d5", "d4-d6", "d4-e4", "d4-f4", "d4*c4,b4", "d4*d5,d6", "d4*e4,f4"}},
        {"8/8/8/8/(SS)7/8/8/7r w", {"a4-a5", "a4-a6", "a4-b4", "a4-c4", "a4*a5,a6", "a4*b4,c4"}},
        {"8/8/8/8/7(SS)/8/8/7r w", {"h4-h5", "h4-h6", "h4-g4", "h4-f4", "h4*h5,h6", "h4*g4,f4"}},
        {"R7/8/8/4(ss)3/8/8/8/8 b", {"e5-f5", "e5-g5", "e5-e4", "e5-e3", "e5-d5", "e5-c5", "e5*f5,g5", "e5*e4,e3", "e5*d5,c5"}},
        {"R7/8/8/7(ss)/8/8/8/8 b", {"h5-h4", "h5-h3", "h5-g5", "h5-f5", "h5*h4,h3", "h5*g5,f5"}},
        {"R7/8/8/(ss)7/8/8/8/8 b", {"a5-a4", "a5-a3", "a5-b5", "a5-c5", "a5*a4,a3", "a5*b5,c5"}},
        {"8/8/8/8/3(RRR)4/8/8/7r w", {"d4-c5", "d4-b6", "d4-a7", "d4-e5", "d4-f6", "d4-g7", "d4*c5,b6,a7", "d4*e5,f6,g7"}},
        {"8/8/8/8/(RRR)7/8/8/7r w", {"a4-b5", "a4-c6", "a4-d7", "a4*b5,c6,d7"}},
        {"8/8/8/8/7(RRR)/8/8/7r w", {"h4-g5", "h4-f6", "h4-e7", "h4*g5,f6,e7"}},
        {"R7/8/8/4(rrr)3/8/8/8/8 b", {"e5-f4", "e5-g3", "e5-h2", "e5-d4", "e5-c3", "e5-b2", "e5*f4,g3,h2", "e5*d4,c3,b2"}},
        {"R7/8/8/7(rrr)/8/8/8/8 b", {"h5-g4", "h5-f3", "h5-e2", "h5*g4,f3,e2"}},
        {"R7/8/8/(rrr)7/8/8/8/8 b", {"a5-b4", "a5-c3", "a5-d2", "a5*b4,c3,d2"}},
        {"8/8/8/8/3(RRS)4/8/8/7r w", {"d4-c5", "d4-b6", "d4-e5", "d4-f6", "d4-c4", "d4-d5", "d4-e4", "d4*c5,b6,a6", "d4*c5,b6,b7", "d4*c5,b6,c6", "d4*e5,f6,e6", "d4*e5,f6,f7", "d4*e5,f6,g6", "d4*c4,b5,a6", "d4*c4,d5,e6", "d4*d5,c6,b7", "d4*d5,e6,f7", "d4*e4,d5,c6", "d4*e4,f5,g6"}},
        {"8/8/8/8/(RRS)7/8/8/7r w", {"a4-b5", "a4-c6", "a4-a5", "a4-b4", "a4*b5,c6,b6", "a4*b5,c6,c7", "a4*b5,c6,d6", "a4*a5,b6,c7", "a4*b4,a5,b6", "a4*b4,c5,d6"}},
        {"8/8/8/8/7(RRS)/8/8/7r w", {"h4-g5", "h4-f6", "h4-h5", "h4-g4", "h4*g5,f6,g6", "h4*g5,f6,f7", "h4*g5,f6,e6", "h4*h5,g6,f7", "h4*g4,h5,g6", "h4*g4,f5,e6"}},
        {"R7/8/8/4(rrs)3/8/8/8/8 b", {"e5-f4", "e5-g3", "e5-d4", "e5-c3", "e5-f5", "e5-e4", "e5-d5", "e5*f4,g3,h3", "e5*f4,g3,g2", "e5*f4,g3,f3", "e5*d4,c3,d3", "e5*d4,c3,c2", "e5*d4,c3,b3", "e5*f5,g4,h3", "e5*f5,e4,d3", "e5*e4,f3,g2", "e5*e4,d3,c2", "e5*d5,e4,f3", "e5*d5,c4,b3"}},
        {"R7/8/8/7(rrs)/8/8/8/8 b", {"h5-g4", "h5-f3", "h5-h4", "h5-g5", "h5*g4,f3,g3", "h5*g4,f3,f2", "h5*g4,f3,e3", "h5*h4,g3,f2", "h5*g5,h4,g3", "h5*g5,f4,e3"}},
        {"R7/8/8/(rrs)7/8/8/8/8 b", {"a5-b4", "a5-c3", "a5-a4", "a5-b5", "a5*b4,c3,b3", "a5*b4,c3,c2", "a5*b4,c3,d3", "a5*a4,b3,c2", "a5*b5,a4,b3", "a5*b5,c4,d3"}},
        {"8/8/8/8/3(RSS)4/8/8/7r w", {"d4-c5", "d4-e5", "d4-c4", "d4-b4", "d4-d5", "d4-d6", "d4-e4", "d4-f4", "d4*c5,b5,a5", "d4*c5,c6,c7", "d4*c5,d5,e5", "d4*e5,d5,c5", "d4*e5,e6,e7", "d4*e5,f5,g5", "d4*c4,b4,a5", "d4*c4,b4,c5", "d4*d5,d6,c7", "d4*d5,d6,e7", "d4*e4,f4,e5", "d4*e4,f4,g5"}},
        {"8/8/8/8/(RSS)7/8/8/7r w", {"a4-b5", "a4-a5", "a4-a6", "a4-b4", "a4-c4", "a4*b5,a5,b5+", "a4*b5,b6,b7", "a4*b5,c5,d5", "a4*a5,a6,b7", "a4*b4,c4,b5", "a4*b4,c4,d5"}},
        {"8/8/8/8/7(RSS)/8/8/7r w", {"h4-g5", "h4-h5", "h4-h6", "h4-g4", "h4-f4", "h4*g5,h5,g5+", "h4*g5,g6,g7", "h4*g5,f5,e5", "h4*h5,h6,g7", "h4*g4,f4,g5", "h4*g4,f4,e5"}},
        {"R7/8/8/4(rss)3/8/8/8/8 b", {"e5-f4", "e5-d4", "e5-f5", "e5-g5", "e5-e4", "e5-e3", "e5-d5", "e5-c5", "e5*f4,g4,h4", "e5*f4,f3,f2", "e5*f4,e4,d4", "e5*d4,e4,f4", "e5*d4,d3,d2", "e5*d4,c4,b4", "e5*f5,g5,h4", "e5*f5,g5,f4", "e5*e4,e3,f2", "e5*e4,e3,d2", "e5*d5,c5,d4", "e5*d5,c5,b4"}},
        {"R7/8/8/7(rss)/8/8/8/8 b", {"h5-g4", "h5-h4", "h5-h3", "h5-g5", "h5-f5", "h5*g4,h4,g4+", "h5*g4,g3,g2", "h5*g4,f4,e4", "h5*h4,h3,g2", "h5*g5,f5,g4", "h5*g5,f5,e4"}},
        {"R7/8/8/(rss)7/8/8/8/8 b", {"a5-b4", "a5-a4", "a5-a3", "a5-b5", "a5-c5", "a5*b4,a4,b4+", "a5*b4,b3,b2", "a5*b4,c4,d4", "a5*a4,a3,b2", "a5*b5,c5,b4", "a5*b5,c5,d4"}},
        {"8/8/8/8/3(SSS)4/8/8/7r w", {"d4-c4", "d4-b4", "d4-a4", "d4-d5", "d4-d6", "d4-d7", "d4-e4", "d4-f4", "d4-g4", "d4*c4,b4,a4", "d4*d5,d6,d7", "d4*e4,f4,g4"}},
        {"8/8/8/8/(SSS)7/8/8/7r w", {"a4-a5", "a4-a6", "a4-a7", "a4-b4", "a4-c4", "a4-d4", "a4*a5,a6,a7", "a4*b4,c4,d4"}},
        {"8/8/8/8/7(SSS)/8/8/7r w", {"h4-h5", "h4-h6", "h4-h7", "h4-g4", "h4-f4", "h4-e4", "h4*h5,h6,h7", "h4*g4,f4,e4"}},
        {"R7/8/8/4(sss)3/8/8/8/8 b", {"e5-f5", "e5-g5", "e5-h5", "e5-e4", "e5-e3", "e5-e2", "e5-d5", "e5-c5", "e5-b5", "e5*f5,g5,h5", "e5*e4,e3,e2", "e5*d5,c5,b5"}},
        {"R7/8/8/7(sss)/8/8/8/8 b", {"h5-h4", "h5-h3", "h5-h2", "h5-g5", "h5-f5", "h5-e5", "h5*h4,h3,h2", "h5*g5,f5,e5"}},
        {"R7/8/8/(sss)7/8/8/8/8 b", {"a5-a4", "a5-a3", "a5-a2", "a5-b5", "a5-c5", "a5-d5", "a5*a4,a3,a2", "a5*b5,c5,d5"}},
    }));
    expect_moves(text, expected);
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
    expect_moves("r7/8/8/8/8/8/6(SSS)1/8 w",
                 {"g2-f2", "g2-e2", "g2-d2", "g2-g3", "g2-g4", "g2-g5", "g2-h2", "g2-g2",
                  "g2*f2,e2,d2", "g2*g3,g4,g5", "g2*h2,g2,f2"});
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
        expect_moves("r7/8/8/8/8/8/6(SSS)R/8 w",
                     {"g2-f2", "g2-e2", "g2-d2", "g2-g3", "g2-g4", "g2-g5", "g2*f2,e2,d2", "g2*g3,g4,g5",
                      "g2*h2+,g2,f2", "h2-g3"});
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
                     {"g2-f2", "g2-e2", "g2-g3", "g2-g4", "g2*f2,e2", "g2*g3,g4", "g2*h2+,g2", "h2-g3", "h2-f4",
                      "h2*g3,f4"});
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
    Position pos = pos_of("r7/8/8/8/8/8/6(SS)1/8 w");
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
                 {"d4-c5+", "d4*c5+,b6", "d4*e5+,f6", "c5-b5", "c5-c6", "c5-d5", "e5-d6", "e5-c7", "e5-f6", "e5-g7",
                  "e5*d6,c7", "e5*f6,g7"});
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
    Position pos = pos_of(text);
    CHECK(has_move(pos, "d4-d5+") == legal);
    if (legal) {
        play(pos, "d4-d5+");
        CHECK(pos.to_text() == "8/8/8/3" + result + "4/8/8/8/7r b");
    }
}

TEST_CASE("a capture removes the whole enemy stack, whatever its size", "[core]") {
    // A white S on d4 takes d5 (forward). Black keeps a round on h8, so the game goes on.
    auto [target, size] = GENERATE(table<std::string, int>({
        {"r", 1}, {"s", 1}, {"(rs)", 2}, {"(ss)", 2}, {"(rr)", 2}, {"(rrs)", 3}, {"(rss)", 3}, {"(sss)", 3}, {"(rrr)", 3},
    }));
    const std::string text = "7r/8/8/3" + target + "4/3S4/8/8/8 w";
    INFO(text);
    Position pos = pos_of(text);
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
    expect_moves("8/8/3(sss)4/8/1(rs)1(SS)r3/8/8/8 w",
                 {"d4-c4", "d4xb4", "d4-d5", "d4xd6", "d4xe4"});
}

TEST_CASE("a deployment is refused when its second kind meets an enemy stack", "[core]") {
    // RS d4 with a black square on c6: the RS list of d4 without d4*c5,c6 (round c5, square forward
    // onto c6) and d4*d5,c6 (square d5, round up-left onto c6); the movements never reach c6.
    expect_moves("8/8/2s5/8/3(RS)4/8/8/8 w",
                 {"d4-c5", "d4-e5", "d4-c4", "d4-d5", "d4-e4", "d4*c5,b5", "d4*c5,d5", "d4*e5,d5", "d4*e5,e6",
                  "d4*e5,f5", "d4*c4,b5", "d4*c4,d5", "d4*d5,e6", "d4*e4,d5", "d4*e4,f5"});
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
        expect_moves("8/8/8/8/4r3/5r2/5(SS)2/8 w",
                     {"f2-e2", "f2-d2", "f2xf3", "f2-g2", "f2-h2", "f2*e2,d2", "f2*g2,h2"});
        Position pos = pos_of("8/8/8/8/4r3/5r2/5(SS)2/8 w");
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
        expect_moves("8/3(SSS)4/8/8/8/8/8/7r w",
                     {"d7-c7", "d7-b7", "d7-a7", "d7-d8", "d7-Out", "d7-e7", "d7-f7", "d7-g7", "d7*c7,b7,a7",
                      "d7*d8,out", "d7*e7,f7,g7"});
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
                     {"c7-b8", "c7-d8", "c7-b7", "c7-c8", "c7-d7", "c7-Out", "c7*b8,out", "c7*d8,out",
                      "c7*b7,a8,out", "c7*b7,c8,out", "c7*c8,out", "c7*d7,c8,out", "c7*d7,e8,out"});
    }
    SECTION("Black's round-round-square on f2 (the c7 case through the centre)") {
        expect_moves("R7/8/8/8/8/8/5(rrs)2/8 b",
                     {"f2-g1", "f2-e1", "f2-g2", "f2-f1", "f2-e2", "f2-Out", "f2*g1,out", "f2*e1,out",
                      "f2*g2,h1,out", "f2*g2,f1,out", "f2*f1,out", "f2*e2,f1,out", "f2*e2,d1,out"});
    }
    SECTION("a double round on c7 with an enemy on b8: the left walk captures, the right one exits") {
        expect_moves("1s6/2(RR)5/8/8/8/8/8/8 w", {"c7xb8", "c7-d8", "c7-Out", "c7*d8,out"});
    }
    SECTION("a double round on c6 hemmed in by enemies cannot exit") {
        // Up-left b7 and up-right d7 are both captures; the deployments are both refused.
        expect_moves("8/1s1s4/2(RR)5/8/8/8/8/8 w", {"c6xb7", "c6xd7"});
    }
    SECTION("a black square on a1 exits, written a1-Out") {
        expect_moves("8/8/8/8/8/8/8/s6R b", {"a1-Out", "a1-b1"});
    }
}

// ---------------------------------------------------------------------------------------------
// 1.5: deployments.

TEST_CASE("deployments onto own stacks count the pieces placed earlier in the same deployment", "[core]") {
    SECTION("the French sheet's a3*b4,a4,b4+ on an empty board") {
        // RSS a3: round b4; squares a4 a5 / b3 c3. Round first then squares from b4: left a4 then back
        // onto b4 (joining the round: b4+), forward b5 b6, right c4 d4. Squares first: a4,a5 then the
        // round b6; b3,c3 then b4 or d4.
        expect_moves("8/8/8/8/8/(RSS)7/8/7r w",
                     {"a3-b4", "a3-a4", "a3-a5", "a3-b3", "a3-c3", "a3*b4,a4,b4+", "a3*b4,b5,b6", "a3*b4,c4,d4",
                      "a3*a4,a5,b6", "a3*b3,c3,b4", "a3*b3,c3,d4"});
        Position pos = pos_of("8/8/8/8/8/(RSS)7/8/7r w");
        play(pos, "a3*b4,a4,b4+");
        CHECK(pos.to_text() == "8/8/8/8/S(RS)6/8/8/7r b");
    }
    SECTION("an own square on b4: up to three on b4, the round and the returning square included") {
        // Movement onto b4 by the round: 3+1 = 4, illegal. The deployment puts the round on b4 (2),
        // then a4, then the second square back onto b4 (3): legal.
        // S b4: a4, b5, c4.
        expect_moves("8/8/8/8/1S6/(RSS)7/8/7r w",
                     {"a3-a4", "a3-a5", "a3-b3", "a3-c3", "a3*b4+,a4,b4+", "a3*b4+,b5,b6", "a3*b4+,c4,d4",
                      "a3*a4,a5,b6", "a3*b3,c3,b4+", "a3*b3,c3,d4", "b4-a4", "b4-b5", "b4-c4"});
        Position pos = pos_of("8/8/8/8/1S6/(RSS)7/8/7r w");
        play(pos, "a3*b4+,a4,b4+");
        CHECK(pos.to_text() == "8/8/8/8/S(RSS)6/8/8/7r b");
    }
    SECTION("an own double square on b4: the returning square would make a fourth piece, refused") {
        // The round joins b4 (3 pieces); the square going left then back onto b4 is refused. Forward
        // and right are fine. SS b4 passes b4-b4 through a4 (empty) and has its usual walks.
        expect_moves("8/8/8/8/1(SS)6/(RSS)7/8/7r w",
                     {"a3-a4", "a3-a5", "a3-b3", "a3-c3", "a3*b4+,b5,b6", "a3*b4+,c4,d4", "a3*a4,a5,b6",
                      "a3*b3,c3,b4+", "a3*b3,c3,d4", "b4-a4", "b4-b4", "b4-b5", "b4-b6", "b4-c4", "b4-d4",
                      "b4*a4,b4", "b4*b5,b6", "b4*c4,d4"});
    }
    SECTION("a triple round deploys one piece onto an own double square but not onto a triple") {
        // RRR b2 with SS on a3: the movement up-left would make 5 (stop); the deployment a3+,b4,c5.
        // SS a3: forward a4 a5, right b3 c3 (left leaves sideways at once), and the two deployments.
        expect_moves("r7/8/8/8/8/(SS)7/1(RRR)6/8 w",
                     {"b2-c3", "b2-d4", "b2-e5", "b2*a3+,b4,c5", "b2*c3,d4,e5", "a3-a4", "a3-a5", "a3-b3", "a3-c3",
                      "a3*a4,a5", "a3*b3,c3"});
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
                     {"c5-b6", "c5-d6", "c5-b5", "c5-a5", "c5-c6", "c5-c7", "c5-d5", "c5-e5", "c5*b6,a6,b6+",
                      "c5*b6,b7,b8", "c5*b6,c6,d6", "c5*d6,c6,b6", "c5*d6,d7,d8", "c5*d6,e6,f6", "c5*b5,a5,b6",
                      "c5*c6,c7,b8", "c5*c6,c7,d8", "c5*d5,e5,d6", "c5*d5,e5,f6"});
    }
    SECTION("RRS on a6") {
        // Rounds (range 2) up-right only: b7 c8; square a7 or b6. Rounds first then the square from c8:
        // b8, out, d8. Square a7 then rounds b8, out. Square b6 then rounds a7, b8 (bounce) or c7 d8.
        expect_moves("8/8/(RRS)7/8/8/8/8/7r w",
                     {"a6-b7", "a6-c8", "a6-a7", "a6-b6", "a6*b7,c8,b8", "a6*b7,c8,out", "a6*b7,c8,d8",
                      "a6*a7,b8,out", "a6*b6,a7,b8", "a6*b6,c7,d8"});
        Position pos = pos_of("8/8/(RRS)7/8/8/8/8/7r w");
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
                     {"b4-a3", "b4-b2", "b4-c3", "b4-d2", "b4-a4", "b4-b3", "b4-c4", "b4*a3,b2,a2", "b4*a3,b2,b1",
                      "b4*a3,b2,c2", "b4*c3,d2,c2", "b4*c3,d2,d1", "b4*c3,d2,e2", "b4*a4,b3,c2", "b4*b3,a2,b1",
                      "b4*b3,c2,d1", "b4*c4,b3,a2", "b4*c4,d3,e2"});
    }
    SECTION("g4 (the b4 case mirrored)") {
        expect_moves("R7/8/8/8/6(rrs)1/8/8/8 b",
                     {"g4-h3", "g4-g2", "g4-f3", "g4-e2", "g4-h4", "g4-g3", "g4-f4", "g4*h3,g2,h2", "g4*h3,g2,g1",
                      "g4*h3,g2,f2", "g4*f3,e2,f2", "g4*f3,e2,e1", "g4*f3,e2,d2", "g4*h4,g3,f2", "g4*g3,h2,g1",
                      "g4*g3,f2,e1", "g4*f4,g3,h2", "g4*f4,e3,d2"});
    }
}

TEST_CASE("the French sheet's winning deployment b4*a3,b2,a2 attacks a1 from a2 and b2", "[core]") {
    Position pos = pos_of("8/8/8/8/1(rrs)6/8/8/S7 b");
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
    Position pos = pos_of("8/8/3(rrs)4/8/4(RRS)3/8/8/8 w");
    play(pos, "e4-d4");
    play(pos, "d6-f4"); // rounds down-right: e5, f4
    pos.set_side_to_move(Color::black);
    // RRS f4: rounds e3 d2 / g3 h2, square e4 f3 g4; rounds first then the square from d2 (c2 d1 e2)
    // or h2 (g2 h1: the walk towards file i leaves sideways at once); square first: e4 then d3,c2 or
    // f3,g2; f3 then e2,d1 or g2,h1; g4 then f3,e2 or h3,g2 (bounce).
    expect_stack_moves(pos, "f4",
                       {"f4-e3", "f4-d2", "f4-g3", "f4-h2", "f4-e4", "f4-f3", "f4-g4", "f4*e3,d2,c2", "f4*e3,d2,d1",
                        "f4*e3,d2,e2", "f4*g3,h2,g2", "f4*g3,h2,h1", "f4*e4,d3,c2", "f4*e4,f3,g2", "f4*f3,e2,d1",
                        "f4*f3,g2,h1", "f4*g4,f3,e2", "f4*g4,h3,g2"});
}

TEST_CASE("the French sheet's sacrifice: b5xb7, b8xb7, a5-a6, then a6*a7,b8,out wins", "[core]") {
    // White: RRS b5 and a5. Black: a round on b7, a square on b8, and the RRS on g4 threatening
    // g4*f3,e2,e1 then e1-Out.
    Position pos = pos_of("1s6/1r6/8/(RRS)(RRS)6/6(rrs)1/8/8/8 w");
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
    expect_moves(text, {"g2-f3", "g2-e4", "g2-h3", "g2xg4", "g2-f2", "g2-g3", "g2-h2", "g2*f3,e4,d4", "g2*f3,e4,e5+",
                        "g2*f3,e4,f4", "g2*f2,e3,d4", "g2*f2,g3,h4", "g2*g3,f4,e5+", "g2*g3,h4,g5+", "g2*h2,g3,f4",
                        "g5-f5", "g5-g6", "g5xh5", "e5-d6", "e5-f6"});
    Position pos = pos_of(text);
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
    Position pos = pos_of("8/8/8/4(rs)3/3R4/8/8/8 w");
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
    Position pos = pos_of("8/8/8/8/8/8/1r6/2S5 b");
    play(pos, "b2xc1");
    CHECK(pos.outcome() == Outcome::black_wins);
    CHECK(count_moves(pos) == 0);
}

TEST_CASE("an exit ends the game and no move follows", "[core]") {
    SECTION("a single round on c8") {
        expect_moves("2R5/8/8/8/8/8/8/7r w", {"c8-Out"});
        Position pos = pos_of("2R5/8/8/8/8/8/8/7r w");
        play(pos, "c8-Out");
        CHECK(pos.outcome() == Outcome::white_wins);
        CHECK(count_moves(pos) == 0);
        CHECK(resolve_move_text(pos, "h1-g2").failure == ResolveFailure::game_over);
    }
    SECTION("a single round on a8 (its only walk is up-right)") {
        expect_moves("R7/8/8/8/8/8/8/7r w", {"a8-Out"});
    }
    SECTION("a deployment whose second kind leaves") {
        Position pos = pos_of("4(RS)3/8/8/8/8/8/8/7r w");
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
    const Position pos = pos_of(text);
    CHECK(pos.outcome() == outcome);
    CHECK(count_moves(pos) == 0);
    CHECK(pos.key() == pos.compute_key());
}

// ---------------------------------------------------------------------------------------------
// Move text.

TEST_CASE("move text may hold spaces and any case of out", "[core]") {
    SECTION("b2- b4") {
        const Position pos = pos_of("r7/8/8/8/8/8/1(SS)6/8 w");
        const Resolution r = resolve_move_text(pos, "b2- b4");
        REQUIRE(r.move != Move::none());
        CHECK(r.warnings.empty());
        CHECK(move_to_text(pos, r.move) == "b2-b4");
        CHECK(resolve_move_text(pos, "  b2 -b4 ").move == r.move);
    }
    SECTION("a6 * a7, b8, OUT") {
        const Position pos = pos_of("8/8/(RRS)7/8/8/8/8/7r w");
        const Resolution r = resolve_move_text(pos, "a6 * a7, b8, OUT");
        REQUIRE(r.move != Move::none());
        CHECK(r.warnings.empty());
        CHECK(move_to_text(pos, r.move) == "a6*a7,b8,out");
        CHECK(r.move.ends_out());
        CHECK(resolve_move_text(pos, "a6*a7,b8,Out").move == r.move);
    }
    SECTION("a1-Out in any case") {
        const Position pos = pos_of("8/8/8/8/8/8/8/s6R b");
        const Move exit = resolve_move_text(pos, "a1-Out").move;
        REQUIRE(exit != Move::none());
        CHECK(exit.type() == MoveType::exit);
        for (const char* t : {"a1-out", "a1-OUT", "a1 - oUt", "A1-Out"}) {
            INFO(t);
            CHECK(resolve_move_text(pos, t).move == exit);
        }
    }
}

TEST_CASE("markers that disagree with the position give warnings, and the move is still found", "[core]") {
    auto [text, written, canonical, warning] = GENERATE(table<std::string, std::string, std::string, MarkerWarning>({
        // SS b2: b4 is empty.
        {"r7/8/8/8/8/8/1(SS)6/8 w", "b2-b4+", "b2-b4", MarkerWarning::plus_without_join},
        {"r7/8/8/8/8/8/1(SS)6/8 w", "b2xb4", "b2-b4", MarkerWarning::x_without_capture},
        // R d4 takes the black round on e5.
        {"8/8/8/4r3/3R4/8/8/8 w", "d4-e5", "d4xe5", MarkerWarning::dash_on_capture},
        // From the start, a1 joins a2.
        {"rsrsrsrs/srsrsrsr/8/8/8/8/RSRSRSRS/SRSRSRSR w", "a1-a2", "a1-a2+", MarkerWarning::join_without_plus},
        // The last square of a3*b4,a4,b4+ joins the round placed first.
        {"8/8/8/8/8/(RSS)7/8/7r w", "a3*b4,a4,b4", "a3*b4,a4,b4+", MarkerWarning::join_without_plus},
        {"8/8/8/8/8/(RSS)7/8/7r w", "a3*b4+,a4,b4+", "a3*b4,a4,b4+", MarkerWarning::plus_without_join},
        // The pass joins nothing: its own square is empty once the stack has left.
        {"r7/8/8/8/8/8/6(SS)1/8 w", "g2-g2+", "g2-g2", MarkerWarning::plus_without_join},
        // The exit of the whole stack written as a deployment.
        {"4(RS)3/8/8/8/8/8/8/7r w", "e8*out", "e8-Out", MarkerWarning::deploy_exit_as_deploy},
    }));
    INFO(written);
    const Position pos = pos_of(text);
    const Resolution r = resolve_move_text(pos, written);
    REQUIRE(r.move != Move::none());
    CHECK(move_to_text(pos, r.move) == canonical);
    CHECK(r.warnings == std::vector<MarkerWarning>{warning});
    CHECK_FALSE(marker_warning_text(warning).empty());
}

TEST_CASE("an illegal move fails and lists the legal moves of its stack", "[core]") {
    // SS b2 (range 2): b5 is out of reach; its moves are the pass-through-a2 list.
    const Position pos = pos_of("r7/8/8/8/8/8/1(SS)6/8 w");
    for (const char* t : {"b2-b5", "b2-c3", "b2*b3", "b2*b3,b4,b5", "b2*b3,b4,out", "b2-Out"}) {
        INFO(t);
        const Resolution r = resolve_move_text(pos, t);
        CHECK(r.move == Move::none());
        CHECK(r.failure == ResolveFailure::illegal);
        CHECK_FALSE(r.message.empty());
        compare(texts_of(pos, r.stack_moves),
                {"b2-a2", "b2-b2", "b2-b3", "b2-b4", "b2-c2", "b2-d2", "b2*a2,b2", "b2*b3,b4", "b2*c2,d2"});
    }
}

TEST_CASE("move text naming an empty square or an enemy stack fails with the right reason", "[core]") {
    const Position pos = pos_of("8/8/8/4r3/3R4/8/8/8 w");
    const Resolution empty = resolve_move_text(pos, "c3-c4");
    CHECK(empty.move == Move::none());
    CHECK(empty.failure == ResolveFailure::no_stack);
    CHECK(empty.message.find("c3") != std::string::npos);
    const Resolution enemy = resolve_move_text(pos, "e5-d4");
    CHECK(enemy.move == Move::none());
    CHECK(enemy.failure == ResolveFailure::enemy_stack);
    CHECK(enemy.message.find("e5") != std::string::npos);
}

TEST_CASE("unreadable move text fails without a move", "[core]") {
    const Position pos = pos_of("r7/8/8/8/8/8/1(SS)6/8 w");
    for (const char* t : {"", "b2", "b2-", "b2-b9", "i2-b3", "b2+b3", "b2-b3-b4", "b2*a2,b2,c2,d2", "b2-b3 x", "zz"}) {
        INFO("'" << t << "'");
        const Resolution r = resolve_move_text(pos, t);
        CHECK(r.move == Move::none());
        CHECK_FALSE(r.message.empty());
    }
}

// ---------------------------------------------------------------------------------------------
// 1.7: position text.

TEST_CASE("position text round-trips in canonical form", "[core]") {
    auto text = GENERATE(as<std::string>{}, "rsrsrsrs/srsrsrsr/8/8/8/8/RSRSRSRS/SRSRSRSR w",
                         "(rrr)(rss)(sss)5/8/8/8/8/8/8/(RR)(SS)(RS)5 b", "8/8/8/8/3(RRS)4/8/8/7r w",
                         "1s6/1r6/8/(RRS)(RRS)6/6(rrs)1/8/8/8 w", "7r/R7/8/8/8/8/8/8 b");
    INFO(text);
    const Position pos = pos_of(text);
    CHECK(pos.to_text() == text);
    CHECK(pos.key() == pos.compute_key());
    if (text.rfind("rsrsrsrs/", 0) == 0) CHECK(pos == Position::start());
}

TEST_CASE("any letter order in parentheses is accepted and printed rounds first", "[core]") {
    auto [text, canonical] = GENERATE(table<std::string, std::string>({
        {"8/8/8/8/3(SRR)4/8/8/7r w", "8/8/8/8/3(RRS)4/8/8/7r w"},
        {"8/8/8/8/3(RSR)4/8/8/7r w", "8/8/8/8/3(RRS)4/8/8/7r w"},
        {"8/8/8/8/3(SR)4/8/8/7r w", "8/8/8/8/3(RS)4/8/8/7r w"},
        {"8/8/8/8/3(SSR)4/8/8/7r w", "8/8/8/8/3(RSS)4/8/8/7r w"},
        {"(ssr)(sr)6/8/8/8/8/8/8/7R b", "(rss)(rs)6/8/8/8/8/8/8/7R b"},
    }));
    const Position pos = pos_of(text);
    CHECK(pos.to_text() == canonical);
    CHECK(pos == pos_of(canonical));
    CHECK(pos.key() == pos_of(canonical).key());
}

TEST_CASE("bad position text is rejected with the column of the fault", "[core]") {
    auto [text, column, words] = GENERATE(table<std::string, int, std::string>({
        // Nine files: the ninth piece of rank 8; a digit that overflows the rank.
        {"RSRSRSRSR/8/8/8/8/8/8/7r w", 8, "rank 8"},
        {"4R4/8/8/8/8/8/8/7r w", 2, "rank 8"},
        {"8/8/8/8/8/8/8/8R w", 15, "rank 1"},
        // Too few files: where the rank ends.
        {"7/8/8/8/8/8/8/7r w", 1, "rank 8"},
        {"8/8/8/8/8/8/8/6r w", 16, "rank 1"},
        // Mixed colours: the first letter of the other colour.
        {"(Rr)7/8/8/8/8/8/8/8 w", 2, "mixes"},
        // Four pieces: the fourth letter.
        {"(RRSS)7/8/8/8/8/8/8/7r w", 4, "more than 3"},
        // Too many of one kind: the stack that brings the ninth, and its square.
        {"RRRRRRRR/R7/8/8/8/8/8/7r w", 9, "more than 8 rounds (at a7)"},
        {"R7/8/8/8/8/8/s7/ssssssss w", 23, "more than 8 squares (at h1)"},
        {"(RRR)(RRR)(RRR)5/8/8/8/8/8/8/7r w", 10, "more than 8 rounds (at c8)"},
        // Unknown letters and digits.
        {"8/8/8/3K4/8/8/8/7r w", 7, "'K'"},
        {"8/8/8/3x4/8/8/8/7r w", 7, "'x'"},
        {"9/8/8/8/8/8/8/7r w", 0, "'9'"},
        {"08/8/8/8/8/8/8/7r w", 0, "'0'"},
        // The side to move: missing, or not w/b.
        {"8/8/8/8/8/8/8/7r", 16, "side"},
        {"8/8/8/8/8/8/8/7r ", 17, "side"},
        {"8/8/8/8/8/8/8/7r x", 17, "'x'"},
        // Seven and nine ranks.
        {"8/8/8/8/8/8/7r w", 14, "8 ranks"},
        {"8/8/8/8/8/8/8/8/7r w", 15, "more than 8 ranks"},
        // Parentheses: unclosed at the end of the text, or cut by the space before the side.
        {"8/8/8/8/8/8/8/(RR", 14, "unclosed"},
        {"8/8/8/8/8/8/8/(RR w", 17, "a space"},
        {"(R)7/8/8/8/8/8/8/7r w", 0, "single piece"},
        {"()8/8/8/8/8/8/8/7r w", 0, "empty"},
        // Anything after the side, and an empty board.
        {"8/8/8/8/8/8/8/7r w x", 19, "after"},
        {"8/8/8/8/8/8/8/8 w", 0, "empty"},
        {"", 0, ""},
    }));
    INFO("'" << text << "'");
    const auto r = Position::from_text(text);
    REQUIRE(std::holds_alternative<PositionError>(r));
    const PositionError& e = std::get<PositionError>(r);
    CHECK(e.column == column);
    CHECK_FALSE(e.message.empty());
    CHECK(e.message.find(words) != std::string::npos);
}

TEST_CASE("position text never crashes the parser: every prefix and every one-letter change", "[core]") {
    const std::string good = "(rrs)s1r(sr)3/8/8/3(RSS)4/8/8/8/R6(SS) w";
    REQUIRE(std::holds_alternative<Position>(Position::from_text(good)));
    const std::string alphabet = "RSrs()/ 012389wbx\t";
    auto check_one = [](const std::string& text) {
        const auto r = Position::from_text(text);
        if (const auto* e = std::get_if<PositionError>(&r)) {
            CHECK(e->column >= 0);
            CHECK(e->column <= int(text.size()));
        } else {
            CHECK(std::get<Position>(r).key() == std::get<Position>(r).compute_key());
        }
    };
    for (std::size_t n = 0; n <= good.size(); ++n) check_one(good.substr(0, n));
    for (std::size_t i = 0; i < good.size(); ++i)
        for (char c : alphabet) {
            std::string t = good;
            t[i] = c;
            check_one(t);
        }
}

// ---------------------------------------------------------------------------------------------
// perft on positions small enough to count by hand.

TEST_CASE("perft on hand-counted positions", "[core][perft]") {
    auto [text, depth, expected] = GENERATE(table<std::string, int, std::uint64_t>({
        // White RR a1 against a black S h8. White: b2, c3, or the deployment b2,c3 (3). Black: g8 or h7
        // (the right walk leaves sideways at once), whatever White did (6). Then White: RR b2 has a3, b4
        // (bounce), c3, d4 and two deployments (6); RR c3 has b4 a5 d4 e5 and two deployments (6); the
        // two rounds b2 and c3 have b2-a3, b2-c3+, c3-b4, c3-d4 (4): 2 * (6 + 6 + 4) = 32.
        {"7s/8/8/8/8/8/8/(RR)7 w", 1, 3},
        {"7s/8/8/8/8/8/8/(RR)7 w", 2, 6},
        {"7s/8/8/8/8/8/8/(RR)7 w", 3, 32},
        // White R d4 against a black r e5. White: c5, or take e5 (the game ends). Black's r e5: d4, f4.
        // Then White's round on c5: b6, d6.
        {"8/8/8/4r3/3R4/8/8/8 w", 1, 2},
        {"8/8/8/4r3/3R4/8/8/8 w", 2, 2},
        {"8/8/8/4r3/3R4/8/8/8 w", 3, 4},
        // Black r b2 against a white S h8. Black: a1, c1. White: g8, or h8-Out (the game ends). Black:
        // from a1 only the exit (down-right leaves; down-left does not exist), from c1 one exit.
        {"7S/8/8/8/8/8/1r6/8 b", 1, 2},
        {"7S/8/8/8/8/8/1r6/8 b", 2, 4},
        {"7S/8/8/8/8/8/1r6/8 b", 3, 2},
    }));
    INFO(text << " depth " << depth);
    Position pos = pos_of(text);
    const Position before = pos;
    CHECK(perft(pos, depth) == expected);
    CHECK(perft(pos, depth, PerftMode::checked) == expected);
    CHECK(pos == before);
}

// ---------------------------------------------------------------------------------------------
// `gounki perft`: arguments.

namespace {

struct CliResult {
    int status = -1;
    std::string out;
    std::string err;
};

std::string slurp(const std::filesystem::path& p) {
    std::ifstream in(p);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

// Runs the built `gounki` with `args` (already quoted for the shell).
CliResult run_cli(const std::string& args) {
    static int serial = 0;
    const auto dir = std::filesystem::temp_directory_path();
    const std::string stem = "gounki_core_rules_test_" + std::to_string(::getpid()) + "_" + std::to_string(++serial);
    const auto out_path = dir / (stem + ".out"), err_path = dir / (stem + ".err");
    const std::string cmd = std::string("'") + GOUNKI_CLI + "' " + args + " >'" + out_path.string() + "' 2>'" +
                            err_path.string() + "'";
    const int raw = std::system(cmd.c_str());
    CliResult r;
    r.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
    r.out = slurp(out_path);
    r.err = slurp(err_path);
    std::filesystem::remove(out_path);
    std::filesystem::remove(err_path);
    return r;
}

std::vector<std::string> lines_of(const std::string& text) {
    std::vector<std::string> lines;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) lines.push_back(line);
    return lines;
}

} // namespace

TEST_CASE("gounki perft rejects bad arguments with status 2 and says what is wrong", "[core][cli]") {
    auto [args, words] = GENERATE(table<std::string, std::string>({
        {"perft", "DEPTH"},
        {"perft abc", "abc"},
        {"perft 2x", "2x"},
        {"perft -- -1", "-1"},
        {"perft -1", "1"}, // a leading dash reads as an option: "Unknown option '1'"
        {"perft 1 2", "DEPTH"},
        {"perft --position '8/8/8/8/8/8/8/8R w' 1", "rank 1"},
        {"perft --position '(Rr)7/8/8/8/8/8/8/8 w' 1", "mixes"},
        {"perft --position 'x' 1", "position"},
        {"perft --position", "position"},
    }));
    INFO("gounki " << args);
    const CliResult r = run_cli(args);
    CHECK(r.status == 2);
    CHECK(r.out.empty());
    CHECK(r.err.find(words) != std::string::npos);
}

TEST_CASE("gounki perft prints the count on its last line", "[core][cli]") {
    SECTION("from the start") {
        const CliResult r = run_cli("perft 2");
        CHECK(r.status == 0);
        const auto lines = lines_of(r.out);
        REQUIRE_FALSE(lines.empty());
        CHECK(lines.back() == "1296");
    }
    SECTION("from a given position") {
        const CliResult r = run_cli("perft --position '7s/8/8/8/8/8/8/(RR)7 w' 3");
        CHECK(r.status == 0);
        const auto lines = lines_of(r.out);
        REQUIRE_FALSE(lines.empty());
        CHECK(lines.back() == "32");
    }
    SECTION("--divide 1: one line per move of the start, then the total") {
        const CliResult r = run_cli("perft --divide 1");
        CHECK(r.status == 0);
        const auto lines = lines_of(r.out);
        REQUIRE(lines.size() == 37);
        std::set<std::string> moves;
        for (std::size_t i = 0; i + 1 < lines.size(); ++i) {
            INFO(lines[i]);
            const auto space = lines[i].find(' ');
            REQUIRE(space != std::string::npos);
            CHECK(lines[i].substr(space) == " 1");
            moves.insert(lines[i].substr(0, space));
        }
        CHECK(moves.size() == 36);
        CHECK(moves.count("b2-b3") == 1); // b2 holds a square, g2 a round
        CHECK(moves.count("g2-h3") == 1);
        CHECK(lines.back() == "36");
    }
}
