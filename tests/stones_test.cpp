// Stone games (Gomoku, Gomoku Ninuki), by hand: every expected result below is derived from
// docs/rules.md section 2 (the derivation is in the comments), never copied from the
// implementation's output. This file: point names, rules tags, Gomoku's fives, Ninuki's captures and
// fives; stones_threes_test.cpp: free threes, the double-three rule, position text and random games;
// sgf_test.cpp: the SGF reader.
//
// Points are named by test::P (tests/support.hpp, `P("j10")`: file letter a..s with no letter
// skipped, rank from the bottom), not by stones::parse_point, so a bug there cannot hide another one.
#include "tests/catch.hpp"
#include "tests/support.hpp"

#include <array>
#include <string>

#include "core/stones/position.hpp"
#include "core/stones/symmetry.hpp"

using namespace gounki;
using namespace gounki::stones;
using namespace gounki::test;

namespace {

// Black plays `point` beside the white stones `a` and `b`, and nothing is captured.
void expect_no_capture(StonePosition& pos, const std::string& point, const std::string& a, const std::string& b) {
    std::array<std::int16_t, 16> out{};
    CHECK(pos.captures_at(P(point), Color::black, out) == 0);
    play(pos, point);
    CHECK(pos.at(P(a)) == Stone::white);
    CHECK(pos.at(P(b)) == Stone::white);
    CHECK(pos.captured(Color::black) == 0);
}

} // namespace

// ---------------------------------------------------------------------------------------------
// Points and rules tags

TEST_CASE("point names: a1 is 0, s19 is stored as 360, the same name on every board size", "[stones]") {
    CHECK(point_name(0) == "a1");
    CHECK(point_name(make_point(7, 7)) == "h8"); // centre of 15x15
    CHECK(point_name(make_point(9, 9)) == "j10"); // centre of 19x19: i is not skipped
    CHECK(point_name(make_point(8, 0)) == "i1");
    CHECK(point_name(make_point(14, 14)) == "o15");
    CHECK(point_name(make_point(18, 18)) == "s19");
    CHECK(stored_point(make_point(18, 18)) == 360); // as files numbered it before 20x20 boards
    CHECK(parse_point("h8", 15) == make_point(7, 7));
    CHECK(parse_point("H8", 15) == make_point(7, 7));
    CHECK(parse_point("j10", 19) == make_point(9, 9));
    CHECK(parse_point("o15", 15) == make_point(14, 14));
    CHECK(parse_point("s19", 19) == make_point(18, 18));
    // Off a 15x15 board, on a 19x19 one.
    CHECK(parse_point("p1", 15) == no_point);
    CHECK(parse_point("a16", 15) == no_point);
    CHECK(parse_point("p1", 19) == make_point(15, 0));
    CHECK(parse_point("a16", 19) == make_point(0, 15));
    for (const char* bad : {"", "a", "a0", "t1", "a20", "1a", "aa1", "h8x", "h-8", " h8"}) {
        INFO("'" << bad << "'");
        CHECK(parse_point(bad, 19) == no_point);
    }
    for (int size : {15, 19})
        for (int rank = 0; rank < size; ++rank)
            for (int file = 0; file < size; ++file) {
                const int p = make_point(file, rank);
                CHECK(parse_point(point_name(p), size) == p);
                CHECK(P(point_name(p)) == p);
            }
}

TEST_CASE("rules defaults, Size and Rules tags", "[stones]") {
    CHECK(Rules::defaults(GameKind::gomoku) == gomoku(15));
    CHECK(Rules::defaults(GameKind::ninuki) == ninuki(19));
    CHECK(StonePosition().rules() == gomoku(15));
    CHECK_FALSE(gomoku().captures());
    CHECK(ninuki().captures());

    Rules r = gomoku();
    CHECK_FALSE(apply_size_tag(r, "19").has_value());
    CHECK(r.size == 19);
    CHECK_FALSE(apply_size_tag(r, "15").has_value());
    CHECK(r.size == 15);
    for (const char* bad : {"17", "", "x", "9", "20"}) {
        Rules t = ninuki();
        INFO("'" << bad << "'");
        CHECK(apply_size_tag(t, bad).has_value());
    }

    // Each option alone, both, words in any case separated by spaces or commas.
    CHECK(ninuki_with("no-endgame-capture") == [] {
        Rules t = ninuki();
        t.endgame_capture = false;
        return t;
    }());
    CHECK(ninuki_with("allow-double-three") == [] {
        Rules t = ninuki();
        t.no_double_three = false;
        return t;
    }());
    Rules simple = ninuki();
    simple.endgame_capture = simple.no_double_three = false;
    CHECK(ninuki_with("simple") == simple);
    CHECK(ninuki_with("No-Endgame-Capture, allow-double-three") == simple);
    CHECK(ninuki_with("allow-double-three no-endgame-capture") == simple);
    CHECK(ninuki_with("standard") == ninuki());
    CHECK(ninuki_with("full") == ninuki());

    Rules t = ninuki();
    CHECK(apply_rules_tag(t, "no-captures").has_value());
    Rules g = gomoku();
    CHECK(apply_rules_tag(g, "allow-double-three").has_value());

    // The writer's text reads back to the same rules; empty for the defaults.
    CHECK(rules_tag_text(ninuki()).empty());
    for (bool ec : {false, true})
        for (bool ndt : {false, true}) {
            Rules w = ninuki();
            w.endgame_capture = ec;
            w.no_double_three = ndt;
            const std::string text = rules_tag_text(w);
            if (ec && ndt) continue;
            Rules back = ninuki();
            INFO("'" << text << "'");
            CHECK_FALSE(apply_rules_tag(back, text).has_value());
            CHECK(back == w);
        }
}

// ---------------------------------------------------------------------------------------------
// Gomoku (docs/rules.md 2.1)

TEST_CASE("Gomoku: five in a row wins, in every direction", "[stones]") {
    struct Case {
        std::vector<const char*> four;
        const char* last;
    };
    const Case cases[] = {
        {{"d8", "e8", "f8", "g8"}, "h8"}, // horizontal, completed at the end
        {{"h4", "h5", "h7", "h8"}, "h6"}, // vertical, completed in the middle
        {{"a1", "b2", "c3", "d4"}, "e5"}, // diagonal from the corner
        {{"o1", "n2", "m3", "l4"}, "k5"}, // anti-diagonal from the other corner
    };
    for (const Case& c : cases) {
        StonePosition pos(gomoku());
        for (const char* b : c.four) pos.put(P(b), Stone::black);
        pos.put(P("a15"), Stone::white); // stones of both colours, Black to move
        pos.put(P("c15"), Stone::white);
        pos.put(P("e15"), Stone::white);
        pos.put(P("g15"), Stone::white);
        pos.set_side_to_move(Color::black);
        INFO(c.last);
        play(pos, c.last);
        CHECK(pos.outcome() == Outcome::black_wins);
        CHECK(pos.has_five(Color::black));
        CHECK(pos.five_through(P(c.last), Color::black));
        CHECK(pos.legal_moves().empty());
        CHECK(pos.check(M("h1")) == PlaceError::game_over);
    }
}

TEST_CASE("Gomoku: an overline of six wins; four does not", "[stones]") {
    // x x x _ x x on rank 8: filling the gap makes six.
    StonePosition pos = setup(gomoku(), {"c8", "d8", "e8", "g8", "h8"}, {"c9", "d9", "e9", "g9", "h9"});
    play(pos, "f8");
    CHECK(pos.outcome() == Outcome::black_wins);
    CHECK(pos.has_five(Color::black));

    // A four is not a win.
    StonePosition four = setup(gomoku(), {"d8", "e8", "f8"}, {"d9", "e9", "f9"});
    play(four, "g8");
    CHECK(four.outcome() == Outcome::none);
    CHECK_FALSE(four.has_five(Color::black));
}

TEST_CASE("Gomoku: White's overline wins too", "[stones]") {
    StonePosition pos = setup(gomoku(), {"c8", "d8", "e8", "g8", "a1"}, {"c9", "d9", "e9", "g9", "h9"}, Color::white);
    play(pos, "f9"); // c9..h9: six white stones
    CHECK(pos.outcome() == Outcome::white_wins);
}

TEST_CASE("Gomoku: 15x15 by default, 19x19 by the Size tag; off-board and occupied points", "[stones]") {
    StonePosition small(gomoku());
    CHECK(small.size() == 15);
    CHECK(small.check(M("o15")) == PlaceError::none);
    CHECK(small.check(M("a1")) == PlaceError::none);
    CHECK(small.check(M("p1")) == PlaceError::off_board);
    CHECK(small.check(M("a16")) == PlaceError::off_board);
    CHECK(small.check(M("s19")) == PlaceError::off_board);
    CHECK(small.check(M("t1")) == PlaceError::off_board);
    CHECK(small.check(Move::placement(stones::point_count)) == PlaceError::off_board);
    CHECK(small.check(Move::placement(511)) == PlaceError::off_board);
    CHECK(small.legal_moves().size() == 225);

    Rules r = gomoku();
    REQUIRE_FALSE(apply_size_tag(r, "19").has_value());
    StonePosition big(r);
    CHECK(big.size() == 19);
    CHECK(big.check(M("s19")) == PlaceError::none);
    CHECK(big.check(M("p1")) == PlaceError::none);
    CHECK(big.check(M("t1")) == PlaceError::off_board); // the 20th file
    CHECK(big.check(M("a20")) == PlaceError::off_board);
    CHECK(big.legal_moves().size() == 361);

    play(small, "h8");
    CHECK(small.at(P("h8")) == Stone::black);
    CHECK(small.side_to_move() == Color::white);
    CHECK(small.check(M("h8")) == PlaceError::occupied);
    CHECK_FALSE(in_legal_moves(small, "h8"));
    CHECK(small.legal_moves().size() == 224);
    CHECK_FALSE(place_error_text(PlaceError::occupied).empty());
    CHECK_FALSE(place_error_text(PlaceError::off_board).empty());
    CHECK_FALSE(place_error_text(PlaceError::double_three).empty());
}

TEST_CASE("Gomoku: no captures, and no double-three rule", "[stones]") {
    // x o o _ : in Ninuki Black at j10 would take k10 l10; in Gomoku nothing happens.
    StonePosition pos = setup(gomoku(), {"m10", "j12", "j11", "h10"}, {"k10", "l10", "a1", "b1"});
    expect_no_capture(pos, "j10", "k10", "l10");

    // A real double-three (free threes k10.. and j11..) is legal in Gomoku.
    StonePosition dt = setup(gomoku(), {"k8", "l8", "j9", "j10"}, {"a1", "b1", "c1", "d1"});
    CHECK(dt.check(M("j8")) == PlaceError::none);
}

TEST_CASE("Gomoku: a full board with no line is a draw", "[stones]") {
    // Stone (f, r) is black when (f + 2r) mod 4 < 2: runs along a rank are 2 long, along a file 1,
    // along the diagonals at most 2 (the step adds 3 or 1 mod 4). 113 black, 112 white; h8 (black in
    // the pattern) left empty, Black to move fills the board without a line.
    const std::string text = "Gomoku 15 xxooxxooxxooxxo/ooxxooxxooxxoox/xxooxxooxxooxxo/ooxxooxxooxxoox/xxooxxooxxooxxo/"
                             "ooxxooxxooxxoox/xxooxxooxxooxxo/ooxxoox1ooxxoox/xxooxxooxxooxxo/ooxxooxxooxxoox/xxooxxooxxooxxo/"
                             "ooxxooxxooxxoox/xxooxxooxxooxxo/ooxxooxxooxxoox/xxooxxooxxooxxo b";
    StonePosition pos = stone_position_of(text);
    CHECK(pos.stone_count() == 224);
    CHECK(pos.outcome() == Outcome::none);
    CHECK(pos.legal_moves() == std::vector<Move>{M("h8")});
    play(pos, "h8");
    CHECK(pos.stone_count() == 225);
    CHECK(pos.outcome() == Outcome::draw);
    CHECK(pos.legal_moves().empty());
}

// ---------------------------------------------------------------------------------------------
// Ninuki captures (docs/rules.md 2.2, Capture)

TEST_CASE("Ninuki: one stone captures several pairs at once", "[stones]") {
    // Black plays j10: east k10 l10 closed by m10; north j11 j12 closed by j13; south-west i9 h8
    // closed by g7. A white pair with nothing behind it (north-east k11 l12, m13 empty) stays, and so
    // does a white three (west: i10 h10 g10 then f10 black: three stones, not exactly two).
    StonePosition pos =
        setup(ninuki(), {"m10", "j13", "g7", "f10"}, {"k10", "l10", "j11", "j12", "i9", "h8", "k11", "l12", "i10", "h10", "g10"});
    std::array<std::int16_t, 16> out{};
    const int n = pos.captures_at(P("j10"), Color::black, out);
    CHECK(n == 6);
    std::set<int> taken(out.begin(), out.begin() + std::max(0, std::min(n, 16)));
    CHECK(taken == std::set<int>{P("k10"), P("l10"), P("j11"), P("j12"), P("i9"), P("h8")});
    play(pos, "j10");
    for (const char* p : {"k10", "l10", "j11", "j12", "i9", "h8"}) {
        INFO(p);
        CHECK(pos.at(P(p)) == Stone::empty);
    }
    for (const char* p : {"k11", "l12", "i10", "h10", "g10"}) {
        INFO(p);
        CHECK(pos.at(P(p)) == Stone::white);
    }
    CHECK(pos.captured(Color::black) == 6);
    CHECK(pos.captured(Color::white) == 0);
    CHECK(pos.stone_count() == 5 + 5);
    CHECK(pos.outcome() == Outcome::none);
    CHECK(pos.side_to_move() == Color::white);
    // Freed points can be played again, by either side.
    CHECK(pos.check(M("k10")) == PlaceError::none);
    play(pos, "k10");
    CHECK(pos.at(P("k10")) == Stone::white);
}

TEST_CASE("Ninuki: a stone placed between two enemy stones is safe", "[stones]") {
    // f10 x, g10 o, i10 x: White plays h10, completing x o o x herself: nothing is taken.
    StonePosition pos = setup(ninuki(), {"f10", "i10", "a1"}, {"g10", "b1"}, Color::white);
    play(pos, "h10");
    CHECK(pos.at(P("g10")) == Stone::white);
    CHECK(pos.at(P("h10")) == Stone::white);
    CHECK(pos.captured(Color::black) == 0);
    CHECK(pos.captured(Color::white) == 0);
    // And Black's next stone elsewhere does not take it either: only the stone just placed captures.
    play(pos, "c3");
    CHECK(pos.at(P("g10")) == Stone::white);
    CHECK(pos.at(P("h10")) == Stone::white);
}

TEST_CASE("Ninuki: only the placed stone captures, and only exactly two stones", "[stones]") {
    // Black j10 next to a white pair k10 l10 with m10 empty: no capture; later Black m10 takes it.
    StonePosition pos = setup(ninuki(), {"a1"}, {"k10", "l10", "s1"});
    play(pos, "j10");
    CHECK(pos.at(P("k10")) == Stone::white);
    play(pos, "s19");
    play(pos, "m10");
    CHECK(pos.at(P("k10")) == Stone::empty);
    CHECK(pos.at(P("l10")) == Stone::empty);
    CHECK(pos.captured(Color::black) == 2);
    // One white stone alone is never taken (x o x).
    StonePosition one = setup(ninuki(), {"c3"}, {"d3", "s1"});
    play(one, "e3");
    CHECK(one.at(P("d3")) == Stone::white);
}

TEST_CASE("Ninuki: captures follow lines and never wrap across the edge", "[stones]") {
    SECTION("19x19: the point numbering would wrap s5 -> a6, and s4 -> a6 on the diagonal") {
        // Black q5 with white r5 s5 and a black stone on a6 (q5 + 3 in the numbering): no capture.
        StonePosition pos = setup(ninuki(), {"a6", "b8", "r6", "h1"}, {"r5", "s5", "s6", "a7", "a4", "s3"});
        expect_no_capture(pos, "q5", "r5", "s5");
        std::array<std::int16_t, 16> out{};
        // Black r4: north-east s5 (white), then "a7" in the numbering (r4 + 40), then b8 (r4 + 60)
        // black: the line leaves the board after s5, so nothing is taken.
        play(pos, "c1");
        CHECK(pos.captures_at(P("r4"), Color::black, out) == 0);
        // Black b7: west a7 (white) then, in the numbering, s6 (b7 - 2, white) and r6 (b7 - 3, black);
        // the line leaves the board after a7. South-west a6 is black. Nothing.
        CHECK(pos.captures_at(P("b7"), Color::black, out) == 0);
    }
    SECTION("19x19: along the edges and into the corners, captures do happen") {
        // a1 takes a2 a3 (a4 black), b1 c1 (d1 black), b2 c3 (d4 black).
        StonePosition pos = setup(ninuki(), {"a4", "d1", "d4", "k10"}, {"a2", "a3", "b1", "c1", "b2", "c3"});
        play(pos, "a1");
        CHECK(pos.captured(Color::black) == 6);
        // s19 takes s18 s17 (s16 black) and r18 q17 (p16 black).
        StonePosition top = setup(ninuki(), {"s16", "p16", "k10"}, {"s18", "s17", "r18", "q17", "a1"});
        play(top, "s19");
        CHECK(top.captured(Color::black) == 4);
        CHECK(top.at(P("s18")) == Stone::empty);
        CHECK(top.at(P("q17")) == Stone::empty);
    }
    SECTION("15x15: the corner o15 captures along the edge; p and 16 are off the board") {
        StonePosition pos = setup(ninuki(15), {"o12", "l12", "a1"}, {"o14", "o13", "n14", "m13", "b1"});
        play(pos, "o15");
        CHECK(pos.captured(Color::black) == 4);
        CHECK(pos.at(P("o14")) == Stone::empty);
        CHECK(pos.at(P("n14")) == Stone::empty);
        CHECK(pos.check(M("p15")) == PlaceError::off_board);
        CHECK(pos.check(M("o16")) == PlaceError::off_board);
        // Black n5 beside white o5: the next points east (p5, q5) are off the board: nothing taken.
        StonePosition edge = setup(ninuki(15), {"a1"}, {"o5", "o6", "b1"});
        std::array<std::int16_t, 16> out{};
        CHECK(edge.captures_at(P("n5"), Color::black, out) == 0);
        CHECK(edge.captures_at(P("o4"), Color::black, out) == 0); // o5 o6 then o7 empty
    }
}

TEST_CASE("Ninuki: ten captured stones win at once, whatever the options", "[stones]") {
    for (const char* tag : {"standard", "simple"}) {
        INFO(tag);
        // Black has 8; j10 takes k10 l10 (m10 black): 10.
        StonePosition pos = setup(ninuki_with(tag), {"m10", "a1"}, {"k10", "l10", "b1"}, Color::black, 8, 0);
        play(pos, "j10");
        CHECK(pos.captured(Color::black) == 10);
        CHECK(pos.outcome() == Outcome::black_wins);
        CHECK(pos.legal_moves().empty());
    }
    // More than ten also wins: 8 + 4.
    StonePosition pos = setup(ninuki(), {"m10", "j13", "a1"}, {"k10", "l10", "j11", "j12", "b1"}, Color::black, 8);
    play(pos, "j10");
    CHECK(pos.captured(Color::black) == 12);
    CHECK(pos.outcome() == Outcome::black_wins);
}

// ---------------------------------------------------------------------------------------------
// Ninuki fives and the end-game capture (docs/rules.md 2.2, End-game capture, Decision)

TEST_CASE("Ninuki: a five that cannot be broken wins at once", "[stones]") {
    // j10 k10 l10 m10 + n10. Black's only stones are that line: no pair of black stones lies outside
    // it, and inside it every two stones have black on at least one side, so no capture exists.
    StonePosition pos = setup(ninuki(), {"j10", "k10", "l10", "m10"}, {"a1", "c1", "e1", "g1"});
    play(pos, "n10");
    CHECK(pos.outcome() == Outcome::black_wins);
    CHECK_FALSE(pos.pending_five().has_value());
    CHECK(pos.legal_moves().empty());
}

TEST_CASE("Ninuki: a five broken by a capture; pending five decided after the opponent's move", "[stones]") {
    // Black j10 k10 l10 m10 and k11; White k12. Black n10 makes j10..n10. White k9 would take k10 k11
    // (k12 white) and leave j10 l10 m10 n10: no five. So the five is pending, not a win.
    StonePosition pos = setup(ninuki(), {"j10", "k10", "l10", "m10", "k11"}, {"k12", "a1", "c1", "e1"});
    play(pos, "n10");
    CHECK(pos.outcome() == Outcome::none);
    REQUIRE(pos.pending_five().has_value());
    CHECK(*pos.pending_five() == Color::black);
    CHECK(pos.has_five(Color::black));
    CHECK(pos.side_to_move() == Color::white);
    CHECK_FALSE(pos.legal_moves().empty());
    // The pending state is part of the text and of equality.
    CHECK(pos.to_text().find("pending-black") != std::string::npos);
    CHECK(stone_position_of(pos.to_text()) == pos);

    SECTION("White breaks it: play goes on") {
        play(pos, "k9");
        CHECK(pos.at(P("k10")) == Stone::empty);
        CHECK(pos.at(P("k11")) == Stone::empty);
        CHECK(pos.captured(Color::white) == 2);
        CHECK_FALSE(pos.has_five(Color::black));
        CHECK(pos.outcome() == Outcome::none);
        CHECK_FALSE(pos.pending_five().has_value());
        CHECK(pos.side_to_move() == Color::black);
        // Black refills k10: a five again, now unbreakable (k11 is gone) - wins.
        play(pos, "k10");
        CHECK(pos.outcome() == Outcome::black_wins);
    }
    SECTION("White plays elsewhere: Black wins after White's move") {
        play(pos, "s19");
        CHECK(pos.outcome() == Outcome::black_wins);
        CHECK(pos.legal_moves().empty());
    }
    SECTION("White plays next to the line without breaking it: Black still wins") {
        play(pos, "n11");
        CHECK(pos.outcome() == Outcome::black_wins);
    }
}

TEST_CASE("Ninuki: White making her own five while Black's pending five stands loses", "[stones]") {
    // As above, plus White c5 d5 e5 f5: White's g5 makes a five, but Black's five stood first and
    // still stands when Black is to move again (docs/rules.md: "the mover wins").
    StonePosition pos = setup(ninuki(), {"j10", "k10", "l10", "m10", "k11", "c7"}, {"k12", "c5", "d5", "e5", "f5"});
    play(pos, "n10");
    REQUIRE(pos.pending_five() == std::optional<Color>(Color::black));
    play(pos, "g5");
    CHECK(pos.outcome() == Outcome::black_wins);
}

TEST_CASE("Ninuki: a six whose end pair is captured leaves five and still wins", "[stones]") {
    // Black j10 k10 l10 _ n10 o10 and j11; White j12. Black m10 makes six j10..o10. White's only
    // capture is j9 (takes j10 j11, j12 white), which leaves k10..o10: five. (j11 k10 are a diagonal
    // pair, but neither i12 nor l9 holds a white stone.) No reply breaks the line: Black wins at once.
    StonePosition pos = setup(ninuki(), {"j10", "k10", "l10", "n10", "o10", "j11"}, {"j12", "a1", "c1", "e1"});
    play(pos, "m10");
    CHECK(pos.outcome() == Outcome::black_wins);

    // The same once the capture happened (set up with the pending state off): k10..o10 is five.
    StonePosition after = setup(ninuki(), {"k10", "l10", "m10", "n10", "o10"}, {"j12", "j9", "a1"});
    CHECK(after.has_five(Color::black));
}

TEST_CASE("Ninuki: a capture bringing the opponent to ten beats a five", "[stones]") {
    // White has 8 captured. Black n10 makes j10..n10, which no capture breaks, but White e3 takes the
    // black pair c3 d3 (b3 white): her tenth stone. So the five is pending, and White's e3 wins.
    StonePosition pos = setup(ninuki(), {"j10", "k10", "l10", "m10", "c3", "d3"}, {"b3", "a19", "c19"}, Color::black, 0, 8);
    play(pos, "n10");
    CHECK(pos.outcome() == Outcome::none);
    CHECK(pos.pending_five() == std::optional<Color>(Color::black));
    SECTION("White takes her tenth stone: White wins, Black's five still stands") {
        play(pos, "e3");
        CHECK(pos.captured(Color::white) == 10);
        CHECK(pos.has_five(Color::black));
        CHECK(pos.outcome() == Outcome::white_wins);
    }
    SECTION("White does not: Black wins") {
        play(pos, "s1");
        CHECK(pos.outcome() == Outcome::black_wins);
    }
}

TEST_CASE("Ninuki: the no-endgame-capture option makes a breakable five win at once", "[stones]") {
    for (const char* tag : {"no-endgame-capture", "simple"}) {
        INFO(tag);
        StonePosition pos = setup(ninuki_with(tag), {"j10", "k10", "l10", "m10", "k11"}, {"k12", "a1", "c1", "e1"});
        play(pos, "n10");
        CHECK(pos.outcome() == Outcome::black_wins);
        CHECK_FALSE(pos.pending_five().has_value());
    }
}

TEST_CASE("image_keys gives the key of each of a position's eight images, without building them", "[stones]") {
    // Boards of odd and even size (20x20: the centre between points), captured stones, either side.
    for (const int size : {15, 19, 20}) {
        StonePosition pos = setup(ninuki(size), {"a1", "c2", "h8", "k12"}, {"b1", "d7"}, Color::white, 2, 4);
        const auto keys = image_keys(pos);
        for (int s = 0; s < symmetry_count; ++s) {
            INFO("size " << size << ", symmetry " << s);
            const StonePosition image = transformed(pos, s);
            CHECK(keys[std::size_t(s)] == image.key());
            CHECK(image.key() == image.compute_key());
        }
        CHECK(keys[0] == pos.key());
        CHECK(keys[1] != keys[0]);
        CHECK(symmetry_name(0) == "as it is");
        CHECK(symmetry_name(2) == "turned a half");
    }
}
