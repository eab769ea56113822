// Stone games (Gomoku, Gomoku Ninuki), by hand: every expected result below is derived from
// docs/rules.md section 2 (the derivation is in the comments), never copied from the
// implementation's output. Then the position text, undo and the key on random games, and the SGF
// reader (parser/sgf.hpp).
//
// Points are named by a helper of this file (`P("j10")`: file letter a..s with no letter skipped,
// rank from the bottom), not by stones::parse_point, so a bug there cannot hide another one.
#include "tests/catch.hpp"

#include "core/stones.hpp"
#include "parser/sgf.hpp"
#include "tests/support.hpp"

#include <algorithm>
#include <array>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <optional>
#include <random>
#include <sstream>
#include <set>
#include <string>
#include <variant>
#include <vector>

using namespace gounki;
using namespace gounki::stones;

namespace {

int P(const std::string& name) {
    const int file = name.at(0) - 'a';
    const int rank = std::stoi(name.substr(1)) - 1;
    return rank * 19 + file;
}

Move M(const std::string& name) { return Move::placement(P(name)); }

Rules gomoku(int size = 15) {
    Rules r;
    r.kind = GameKind::gomoku;
    r.size = size;
    return r;
}

// Full Ninuki: both options on.
Rules ninuki(int size = 19) {
    Rules r;
    r.kind = GameKind::ninuki;
    r.size = size;
    r.endgame_capture = true;
    r.no_double_three = true;
    return r;
}

Rules ninuki_with(const char* rules_tag, int size = 19) {
    Rules r = ninuki(size);
    const auto err = apply_rules_tag(r, rules_tag);
    INFO("Rules tag '" << rules_tag << "'");
    REQUIRE_FALSE(err.has_value());
    return r;
}

StonePosition setup(const Rules& rules, std::initializer_list<const char*> black,
                    std::initializer_list<const char*> white, Color side = Color::black, int black_captured = 0,
                    int white_captured = 0) {
    StonePosition pos(rules);
    for (const char* b : black) pos.put(P(b), Stone::black);
    for (const char* w : white) pos.put(P(w), Stone::white);
    pos.set_side_to_move(side);
    pos.set_captured(Color::black, black_captured);
    pos.set_captured(Color::white, white_captured);
    REQUIRE(pos.key() == pos.compute_key());
    REQUIRE_FALSE(pos.game_over());
    return pos;
}

// Plays a move that must be legal; checks the key kept in step and that undo gives the position back.
void play(StonePosition& pos, const std::string& name) {
    INFO("move " << name << " in " << pos.to_text());
    const Move m = M(name);
    REQUIRE(pos.check(m) == PlaceError::none);
    const StonePosition before = pos;
    StoneUndo u;
    pos.play(m, u);
    CHECK(pos.key() == pos.compute_key());
    StonePosition back = pos;
    back.undo(u);
    CHECK(back == before);
    CHECK(back.key() == before.key());
}

StonePosition from_text_ok(const std::string& text) {
    auto r = StonePosition::from_text(text);
    if (auto* e = std::get_if<PositionError>(&r))
        FAIL("bad test position '" << text << "' at column " << e->column << ": " << e->message);
    return std::get<StonePosition>(r);
}

bool in_legal_moves(const StonePosition& pos, const std::string& name) {
    const auto moves = pos.legal_moves();
    return std::find(moves.begin(), moves.end(), M(name)) != moves.end();
}

} // namespace

// ---------------------------------------------------------------------------------------------
// Points and rules tags

TEST_CASE("point names: a1 is 0, s19 is 360, the same name on both board sizes", "[stones]") {
    CHECK(point_name(0) == "a1");
    CHECK(point_name(make_point(7, 7)) == "h8");   // centre of 15x15
    CHECK(point_name(make_point(9, 9)) == "j10");  // centre of 19x19: i is not skipped
    CHECK(point_name(make_point(8, 0)) == "i1");
    CHECK(point_name(make_point(14, 14)) == "o15");
    CHECK(point_name(360) == "s19");
    CHECK(parse_point("h8", 15) == make_point(7, 7));
    CHECK(parse_point("H8", 15) == make_point(7, 7));
    CHECK(parse_point("j10", 19) == make_point(9, 9));
    CHECK(parse_point("o15", 15) == make_point(14, 14));
    CHECK(parse_point("s19", 19) == 360);
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
    CHECK(ninuki_with("no-endgame-capture") == [] { Rules t = ninuki(); t.endgame_capture = false; return t; }());
    CHECK(ninuki_with("allow-double-three") == [] { Rules t = ninuki(); t.no_double_three = false; return t; }());
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
        {{"d8", "e8", "f8", "g8"}, "h8"},    // horizontal, completed at the end
        {{"h4", "h5", "h7", "h8"}, "h6"},    // vertical, completed in the middle
        {{"a1", "b2", "c3", "d4"}, "e5"},    // diagonal from the corner
        {{"o1", "n2", "m3", "l4"}, "k5"},    // anti-diagonal from the other corner
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
    StonePosition pos = setup(gomoku(), {"c8", "d8", "e8", "g8", "a1"}, {"c9", "d9", "e9", "g9", "h9"},
                              Color::white);
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
    CHECK(small.check(Move::placement(361)) == PlaceError::off_board);
    CHECK(small.check(Move::placement(511)) == PlaceError::off_board);
    CHECK(small.legal_moves().size() == 225);

    Rules r = gomoku();
    REQUIRE_FALSE(apply_size_tag(r, "19").has_value());
    StonePosition big(r);
    CHECK(big.size() == 19);
    CHECK(big.check(M("s19")) == PlaceError::none);
    CHECK(big.check(M("p1")) == PlaceError::none);
    CHECK(big.check(Move::placement(361)) == PlaceError::off_board);
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
    std::array<std::int16_t, 16> out{};
    CHECK(pos.captures_at(P("j10"), Color::black, out) == 0);
    play(pos, "j10");
    CHECK(pos.at(P("k10")) == Stone::white);
    CHECK(pos.at(P("l10")) == Stone::white);
    CHECK(pos.captured(Color::black) == 0);

    // A real double-three (free threes k10.. and j11..) is legal in Gomoku.
    StonePosition dt = setup(gomoku(), {"k8", "l8", "j9", "j10"}, {"a1", "b1", "c1", "d1"});
    CHECK(dt.check(M("j8")) == PlaceError::none);
}

TEST_CASE("Gomoku: a full board with no line is a draw", "[stones]") {
    // Stone (f, r) is black when (f + 2r) mod 4 < 2: runs along a rank are 2 long, along a file 1,
    // along the diagonals at most 2 (the step adds 3 or 1 mod 4). 113 black, 112 white; h8 (black in
    // the pattern) left empty, Black to move fills the board without a line.
    const std::string text =
        "Gomoku 15 xxooxxooxxooxxo/ooxxooxxooxxoox/xxooxxooxxooxxo/ooxxooxxooxxoox/xxooxxooxxooxxo/"
        "ooxxooxxooxxoox/xxooxxooxxooxxo/ooxxoox1ooxxoox/xxooxxooxxooxxo/ooxxooxxooxxoox/xxooxxooxxooxxo/"
        "ooxxooxxooxxoox/xxooxxooxxooxxo/ooxxooxxooxxoox/xxooxxooxxooxxo b";
    StonePosition pos = from_text_ok(text);
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
    StonePosition pos = setup(ninuki(), {"m10", "j13", "g7", "f10"},
                              {"k10", "l10", "j11", "j12", "i9", "h8", "k11", "l12", "i10", "h10", "g10"});
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
        std::array<std::int16_t, 16> out{};
        CHECK(pos.captures_at(P("q5"), Color::black, out) == 0);
        play(pos, "q5");
        CHECK(pos.at(P("r5")) == Stone::white);
        CHECK(pos.at(P("s5")) == Stone::white);
        CHECK(pos.captured(Color::black) == 0);
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
    CHECK(from_text_ok(pos.to_text()) == pos);

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
    StonePosition pos =
        setup(ninuki(), {"j10", "k10", "l10", "m10", "c3", "d3"}, {"b3", "a19", "c19"}, Color::black, 0, 8);
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

// ---------------------------------------------------------------------------------------------
// Free threes and the double-three rule (docs/rules.md 2.2, No double-three, Decision)

namespace {

// `pattern` laid along direction (df, dr) from `origin`: 'X' black, 'O' white, '_' empty, '*' the
// black stone to place (counted by free_threes_at). A '|' before the first cell means the pattern
// starts on the board's edge (the cell before it is off the board).
struct Laid {
    StonePosition pos;
    int placed = no_point;
};

Laid lay(const std::string& pattern, int df, int dr, int file, int rank, int size = 19) {
    Laid out{StonePosition(ninuki(size)), no_point};
    int f = file, r = rank;
    for (char c : pattern) {
        if (c == '|') continue;
        REQUIRE(out.pos.on_board(f, r));
        const int p = make_point(f, r);
        if (c == 'X') out.pos.put(p, Stone::black);
        if (c == 'O') out.pos.put(p, Stone::white);
        if (c == '*') out.placed = p;
        f += df;
        r += dr;
    }
    REQUIRE(out.placed != no_point);
    return out;
}

} // namespace

TEST_CASE("free threes in all four directions, and patterns that are not free", "[stones]") {
    auto [pattern, expected] = GENERATE(table<std::string, int>({
        // _XXX_ with room on one side at least: free (windows _XXX__ or __XXX_).
        {"__XX*__", 1},
        {"__*XX__", 1},
        {"__X*X__", 1},
        {"_XX*__", 1},   // exactly _XXX__
        {"__XX*_", 1},   // exactly __XXX_
        {"O_XX*__", 1},  // blocked two away on one side, two free on the other: _XXX__ still fits
        // Split threes: _X_XX_ and _XX_X_, placed stone anywhere in them.
        {"_*_XX_", 1},
        {"_X_*X_", 1},
        {"_X_X*_", 1},
        {"_*X_X_", 1},
        {"_XX_*_", 1},
        {"O_XX_*_O", 1}, // the window _XX_X_ is inside the two white stones
        // Not free.
        {"O_X*X_O", 0},  // O_XXX_O: the rule's own example
        {"OX*X__", 0},   // blocked at one end
        {"__X*XO", 0},
        {"O_XX*_O", 0},  // O_XXX_O again, placed at the end
        {"O_X_*X_O_", 1}, // _X_XX_ fits between the whites
        {"OX_*X_", 0},   // X_XX with white before
        {"_X_X_*_", 0},  // X_X_X is not a three
        {"_XX*X_", 0},   // a four is not a three
        {"__*__X__X__", 0},
        {"_X__*X_", 0},  // X__XX: a gap of two
    }));
    const int directions[4][2] = {{1, 0}, {0, 1}, {1, 1}, {1, -1}};
    for (const auto& d : directions) {
        INFO(pattern << " direction " << d[0] << "," << d[1]);
        const int rank = d[1] < 0 ? 14 : 3; // room for 11 cells either way on 19x19
        Laid l = lay(pattern, d[0], d[1], 3, rank);
        CHECK(l.pos.free_threes_at(l.placed, Color::black) == expected);
        // The same pattern in White's colours counts for White, and not for Black.
        Laid w = lay(pattern, d[0], d[1], 3, rank);
        StonePosition swapped(ninuki());
        for (int p = 0; p < point_count; ++p) {
            if (!swapped.on_board(p)) continue;
            const Stone s = w.pos.at(p);
            swapped.put(p, s == Stone::black ? Stone::white : s == Stone::white ? Stone::black : Stone::empty);
        }
        CHECK(swapped.free_threes_at(w.placed, Color::white) == expected);
    }
}

TEST_CASE("free threes on the board's edge: every empty cell must be on the board", "[stones]") {
    // |_XXX_O along rank 1 from a1: the only six-cell window is _XXX_O: not free.
    CHECK(lay("|_X*X_O", 1, 0, 0, 0).pos.free_threes_at(P("c1"), Color::black) == 0);
    // |_XXX__: free.
    CHECK(lay("|_X*X__", 1, 0, 0, 0).pos.free_threes_at(P("c1"), Color::black) == 1);
    // |XXX___: no empty before the three.
    CHECK(lay("|X*X___", 1, 0, 0, 0).pos.free_threes_at(P("b1"), Color::black) == 0);
    // At the top of 15x15 (files along rank 15): n15 o15 edge. __XXX| : no room.
    CHECK(lay("__X*X", 1, 0, 10, 14, 15).pos.free_threes_at(P("n15"), Color::black) == 0);
    // The same cells on 19x19 (p15 q15 empty): free.
    CHECK(lay("__X*X", 1, 0, 10, 14, 19).pos.free_threes_at(P("n15"), Color::black) == 1);
}

TEST_CASE("a double-three is forbidden, for both players", "[stones]") {
    // k10 l10 and j11 j12: j10 makes j10 k10 l10 (i10 m10 h10 n10 empty) and j10 j11 j12 (j9 j13 j8
    // j14 empty): two free threes through j10.
    StonePosition pos = setup(ninuki(), {"k10", "l10", "j11", "j12"}, {"a1", "c1", "e1", "g1"});
    CHECK(pos.free_threes_at(P("j10"), Color::black) == 2);
    CHECK(pos.check(M("j10")) == PlaceError::double_three);
    CHECK_FALSE(pos.is_legal(M("j10")));
    CHECK_FALSE(in_legal_moves(pos, "j10"));
    // The rule sheet: with a white stone at m10 the horizontal three is blocked, j10 is allowed.
    StonePosition blocked = setup(ninuki(), {"k10", "l10", "j11", "j12"}, {"m10", "c1", "e1", "g1"});
    CHECK(blocked.free_threes_at(P("j10"), Color::black) == 1);
    CHECK(blocked.check(M("j10")) == PlaceError::none);
    // The same shape in White's colours, White to move.
    StonePosition white = setup(ninuki(), {"a1", "c1", "e1", "g1", "s19"}, {"k10", "l10", "j11", "j12"}, Color::white);
    CHECK(white.check(M("j10")) == PlaceError::double_three);
    // A three that does not contain the placed stone does not count: j10 with k10 l10 free and a
    // separate free three c3 d3 e3 elsewhere makes one free three through j10.
    StonePosition apart = setup(ninuki(), {"k10", "l10", "c3", "d3", "e3"}, {"a19", "c19"});
    CHECK(apart.check(M("j10")) == PlaceError::none);
    CHECK(apart.free_threes_at(P("j10"), Color::black) == 1);
}

TEST_CASE("a double-three is allowed when the stone captures", "[stones]") {
    // The double-three at j10 as above, plus white k9 l8 with black m7 on the south-east diagonal:
    // j10 takes k9 l8. A capturing placement is never forbidden.
    StonePosition pos = setup(ninuki(), {"k10", "l10", "j11", "j12", "m7"}, {"k9", "l8", "a1", "c1"});
    CHECK(pos.check(M("j10")) == PlaceError::none);
    CHECK(in_legal_moves(pos, "j10"));
    play(pos, "j10");
    CHECK(pos.captured(Color::black) == 2);
    CHECK(pos.at(P("k9")) == Stone::empty);
}

TEST_CASE("a double-three is allowed when the stone wins at once", "[stones]") {
    // The double-three at j10, plus f6 g7 h8 i9: j10 also ends the diagonal five f6..j10. No white
    // stone flanks any black pair (the only white stones are in the corners), so the five cannot be
    // broken: it wins at once, and the placement is legal.
    StonePosition pos = setup(ninuki(), {"k10", "l10", "j11", "j12", "f6", "g7", "h8", "i9"}, {"a1", "s1", "a19", "s19"});
    CHECK(pos.check(M("j10")) == PlaceError::none);
    play(pos, "j10");
    CHECK(pos.outcome() == Outcome::black_wins);
}

TEST_CASE("a double-three making a five that can be broken is still forbidden", "[stones]") {
    // As above, plus black h9 with white h10 above it: White h7 would take h8 h9 and break the five,
    // so j10 does not win at once (end-game capture) and stays a forbidden double-three (the white h10
    // does not block j10 k10 l10: i10 m10 n10 are empty). Without end-game capture the five wins at
    // once, and the double-three is allowed.
    const auto black = {"k10", "l10", "j11", "j12", "f6", "g7", "h8", "i9", "h9"};
    const auto white = {"h10", "s1", "a19", "s19"};
    StonePosition pos = setup(ninuki(), black, white);
    CHECK(pos.free_threes_at(P("j10"), Color::black) == 2);
    CHECK(pos.check(M("j10")) == PlaceError::double_three);
    StonePosition no_ec = setup(ninuki_with("no-endgame-capture"), black, white);
    CHECK(no_ec.check(M("j10")) == PlaceError::none);
    play(no_ec, "j10");
    CHECK(no_ec.outcome() == Outcome::black_wins);
}

TEST_CASE("the allow-double-three option lifts the rule", "[stones]") {
    for (const char* tag : {"allow-double-three", "simple"}) {
        INFO(tag);
        StonePosition pos = setup(ninuki_with(tag), {"k10", "l10", "j11", "j12"}, {"a1", "c1", "e1", "g1"});
        CHECK(pos.check(M("j10")) == PlaceError::none);
        CHECK(in_legal_moves(pos, "j10"));
    }
    // no-endgame-capture alone keeps it.
    StonePosition pos = setup(ninuki_with("no-endgame-capture"), {"k10", "l10", "j11", "j12"}, {"a1", "c1", "e1", "g1"});
    CHECK(pos.check(M("j10")) == PlaceError::double_three);
}

// ---------------------------------------------------------------------------------------------
// Position text

TEST_CASE("stone position text: reading, writing, round trip", "[stones]") {
    const std::string g = "Gomoku 15 15/15/15/15/15/15/15/7x7/15/15/15/15/15/15/15 w";
    StonePosition pos = from_text_ok(g);
    CHECK(pos.rules() == gomoku(15));
    CHECK(pos.at(P("h8")) == Stone::black);
    CHECK(pos.stone_count() == 1);
    CHECK(pos.side_to_move() == Color::white);
    CHECK(pos.to_text() == g);
    CHECK(pos.key() == pos.compute_key());
    CHECK(is_stone_position_text(g));
    CHECK(is_stone_position_text("Ninuki 19 19/19/19/19/19/19/19/19/19/19/19/19/19/19/19/19/19/19/19 b"));
    CHECK_FALSE(is_stone_position_text("rsrsrsrs/srsrsrsr/8/8/8/8/RSRSRSRS/SRSRSRSR w"));
    // Any case for the kind.
    CHECK(from_text_ok("gomoku 15 15/15/15/15/15/15/15/7x7/15/15/15/15/15/15/15 w") == pos);

    // Ninuki 19: j10 black, o10 white, Black has taken 2, end-game capture off.
    std::string n = "Ninuki 19 ";
    for (int r = 19; r >= 1; --r) n += std::string(r == 10 ? "9x4o4" : "19") + (r > 1 ? "/" : "");
    n += " b 2 0 no-endgame-capture";
    StonePosition nin = from_text_ok(n);
    CHECK(nin.rules() == ninuki_with("no-endgame-capture"));
    CHECK(nin.at(P("j10")) == Stone::black);
    CHECK(nin.at(P("o10")) == Stone::white);
    CHECK(nin.captured(Color::black) == 2);
    CHECK(nin.captured(Color::white) == 0);
    CHECK(nin.side_to_move() == Color::black);
    CHECK(from_text_ok(nin.to_text()) == nin);
    CHECK(from_text_ok(nin.to_text()).to_text() == nin.to_text());

    // Ninuki on 15x15, simple rules: the options survive the round trip.
    StonePosition small(ninuki_with("simple", 15));
    CHECK(from_text_ok(small.to_text()) == small);
    // An empty 19x19 Gomoku.
    Rules big = gomoku(19);
    CHECK(from_text_ok(StonePosition(big).to_text()) == StonePosition(big));
}

TEST_CASE("bad stone position text is rejected with the 0-based column of the fault", "[stones]") {
    const std::string e15 = "15/15/15/15/15/15/15/15/15/15/15/15/15/15/15";
    // Index of the last rank's first character in "Gomoku 15 " + e15: 10 + 14 * 3 = 52.
    auto [text, column] = GENERATE_COPY(table<std::string, int>({
        {"Chess 15 " + e15 + " b", 0},                          // unknown kind
        {"Gomoku 17 " + e15 + " b", 7},                         // size
        {"Gomoku 15 " + e15.substr(0, e15.size() - 2) + "1q13 b", 53}, // bad letter
        {"Gomoku 15 " + e15.substr(0, e15.size() - 2) + "15x b", 54},  // a 16th point in rank 1
        {"Gomoku 15 " + e15 + " z", 55},                        // side
        {"Gomoku 15 " + e15.substr(0, e15.size() - 3) + " b", 51}, // 14 ranks: where the board ends
    }));
    INFO("'" << text << "'");
    const auto r = StonePosition::from_text(text);
    REQUIRE(std::holds_alternative<PositionError>(r));
    CHECK(std::get<PositionError>(r).column == column);
    CHECK_FALSE(std::get<PositionError>(r).message.empty());
}

TEST_CASE("stone position text never crashes the parser", "[stones]") {
    const std::string good = "Ninuki 15 15/15/15/15/15/15/15/7x7/15/15/3o11/15/15/15/15 w 2 4 simple";
    REQUIRE(std::holds_alternative<StonePosition>(StonePosition::from_text(good)));
    const std::string alphabet = "xo/ 0123456789bwGNk-z";
    auto check_one = [](const std::string& text) {
        const auto r = StonePosition::from_text(text);
        if (const auto* e = std::get_if<PositionError>(&r)) {
            CHECK(e->column >= 0);
            CHECK(e->column <= int(text.size()));
        } else {
            CHECK(std::get<StonePosition>(r).key() == std::get<StonePosition>(r).compute_key());
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
// Random games: play, text, undo

TEST_CASE("random games: key kept in step, text round trip, undo restores everything", "[stones]") {
    std::mt19937 rng(20240501);
    int captures_seen = 0, wins_seen = 0, pending_seen = 0;
    const Rules variants[] = {gomoku(15), gomoku(19), ninuki(19), ninuki_with("simple", 15),
                              ninuki_with("no-endgame-capture"), ninuki_with("allow-double-three", 15)};
    for (const Rules& rules : variants) {
        for (int game = 0; game < 12; ++game) {
            StonePosition pos(rules);
            std::vector<StonePosition> before;
            std::vector<StoneUndo> undos;
            while (!pos.game_over() && undos.size() < 160) {
                const std::vector<Move> moves = pos.legal_moves();
                REQUIRE_FALSE(moves.empty());
                // Prefer a 7x7 box in the middle: crowded boards make captures and lines.
                std::vector<Move> near;
                const int c = rules.size / 2;
                for (Move m : moves)
                    if (std::abs(point_file(m.point()) - c) <= 3 && std::abs(point_rank(m.point()) - c) <= 3)
                        near.push_back(m);
                const std::vector<Move>& from = near.empty() ? moves : near;
                const Move m = from[std::uniform_int_distribution<std::size_t>(0, from.size() - 1)(rng)];
                before.push_back(pos);
                undos.emplace_back();
                const int taken = pos.captured(Color::black) + pos.captured(Color::white);
                pos.play(m, undos.back());
                captures_seen += pos.captured(Color::black) + pos.captured(Color::white) > taken;
                pending_seen += pos.pending_five().has_value();
                REQUIRE(pos.key() == pos.compute_key());
                const auto back = StonePosition::from_text(pos.to_text());
                REQUIRE(std::holds_alternative<StonePosition>(back));
                CHECK(std::get<StonePosition>(back) == pos);
                CHECK(std::get<StonePosition>(back).key() == pos.key());
            }
            wins_seen += pos.game_over();
            // check() agrees with legal_moves() at the end of some games.
            if (game % 4 == 0 && !pos.game_over()) {
                const auto moves = pos.legal_moves();
                for (int p = 0; p < point_count; ++p) {
                    const bool listed = std::find(moves.begin(), moves.end(), Move::placement(p)) != moves.end();
                    CHECK(listed == (pos.check(Move::placement(p)) == PlaceError::none));
                }
            }
            while (!undos.empty()) {
                pos.undo(undos.back());
                undos.pop_back();
                REQUIRE(pos == before.back());
                REQUIRE(pos.key() == before.back().key());
                REQUIRE(pos.key() == pos.compute_key());
                before.pop_back();
            }
            CHECK(pos == StonePosition(rules));
        }
    }
    CHECK(captures_seen > 0);
    CHECK(wins_seen > 0);
    INFO("pending fives seen: " << pending_seen);
}

// ---------------------------------------------------------------------------------------------
// SGF import (parser/sgf.hpp). Coordinates by hand: SGF "hh" on 15x15 is column h, row h (8th from
// the top), so rank 15 - 7 = 8: h8. Row letter r gives rank size - (r - 'a').

namespace {

using gounki::parser::Diagnostic;
using gounki::parser::GameRecord;
using gounki::parser::GameStatus;
using gounki::parser::Line;

std::vector<std::string> names(const Line& line) {
    std::vector<std::string> out;
    for (const auto& ply : line.plies) out.push_back(point_name(ply.move.point()));
    return out;
}

using Names = std::vector<std::string>;

GameRecord one_sgf(const std::string& text) {
    const auto games = gounki::parser::read_sgf(text, "t.sgf");
    REQUIRE(games.size() == 1);
    return games.front();
}

const Diagnostic* find_code(const GameRecord& g, const std::string& code) {
    for (const Diagnostic& d : g.diagnostics)
        if (d.code == code) return &d;
    return nullptr;
}

std::string tag_of(const GameRecord& g, const char* name) {
    const std::string* v = g.tag(name);
    return v ? *v : "<none>";
}

} // namespace

TEST_CASE("SGF: a collection with variations and comments, read game by game", "[parser][sgf]") {
    const std::string path = std::string(GOUNKI_SOURCE_DIR) + "/tests/data/sgf/variations.sgf";
    gounki::parser::SgfReader reader{std::filesystem::path(path)};
    REQUIRE(reader.ok());
    GameRecord g;
    REQUIRE(reader.next(g));
    CHECK(g.kind == GameKind::gomoku);
    CHECK(g.is_stone_game());
    CHECK(g.number == 1);
    CHECK(g.line == 1);
    CHECK(g.file == path);
    CHECK(tag_of(g, "Game") == "Gomoku");
    CHECK(tag_of(g, "Event") == "Club evening");
    CHECK(tag_of(g, "Date") == "2024.05.01");
    CHECK(tag_of(g, "Black") == "Black Player");
    CHECK(tag_of(g, "White") == "White ] Player"); // the escaped bracket
    CHECK(tag_of(g, "Result") == "0-1");            // B+5
    CHECK(tag_of(g, "Size") == "15");
    CHECK(g.stone_start == StonePosition(gomoku(15)));
    CHECK(g.main.comments == std::vector<std::string>{"A short game with a variation"});
    // hh ih hg ig hf if he ie hd: h8 i8 h9 i9 h10 i10 h11 i11 h12, Black's five on the h file.
    CHECK(names(g.main) == Names{"h8", "i8", "h9", "i9", "h10", "i10", "h11", "i11", "h12"});
    REQUIRE(g.main.plies.size() == 9);
    CHECK(g.main.plies[0].comments == std::vector<std::string>{"centre"});
    CHECK(g.main.plies[3].comments == std::vector<std::string>{"blocks\non two lines"});
    CHECK(g.main.plies[8].comments == std::vector<std::string>{"five in a column: h8 to h12"});
    // The second child of the node after W[ih] replaces B[hg]: ii gg (i7 g9), then aa or oo (a15, o1).
    REQUIRE(g.main.plies[2].variations.size() == 1);
    const Line& v = g.main.plies[2].variations[0];
    CHECK(names(v) == Names{"i7", "g9", "a15"});
    CHECK(v.plies[0].comments == std::vector<std::string>{"a variation"});
    REQUIRE(v.plies[2].variations.size() == 1);
    CHECK(names(v.plies[2].variations[0]) == Names{"o1"});
    CHECK(v.plies[2].variations[0].plies[0].comments == std::vector<std::string>{"corner"});
    for (std::size_t i = 0; i < 9; ++i)
        if (i != 2) CHECK(g.main.plies[i].variations.empty());
    CHECK(g.result == "0-1");
    CHECK(g.status == GameStatus::valid);
    CHECK(g.diagnostics.empty());
    CHECK(g.final_stone_position().outcome() == Outcome::black_wins);

    REQUIRE(reader.next(g));
    CHECK(g.number == 2);
    CHECK(g.line == 16);
    CHECK(g.kind == GameKind::ninuki);
    CHECK(tag_of(g, "Game") == "Ninuki");
    CHECK(g.stone_start == StonePosition(ninuki(19)));
    // jj kk on 19x19: j10, k9.
    CHECK(names(g.main) == Names{"j10", "k9"});
    CHECK(g.result == "1-0"); // W+R: a resignation on an open board
    CHECK(g.status == GameStatus::valid);
    CHECK(g.diagnostics.empty());
    CHECK_FALSE(reader.next(g));
    CHECK(reader.take_file_diagnostics().empty());
    CHECK(reader.games_read() == 2);
}

TEST_CASE("SGF: malformed text is a syntax error at its line and column; the next game is read", "[parser][sgf]") {
    const std::string path = std::string(GOUNKI_SOURCE_DIR) + "/tests/data/sgf/malformed.sgf";
    std::vector<Diagnostic> file_diags;
    const auto games = gounki::parser::read_sgf(gounki::test::slurp(path), path, &file_diags);
    REQUIRE(games.size() == 2);
    const GameRecord& g = games[0];
    // Line 3 is ";W[ih]x": the stray x is column 7. The main line keeps the moves before it.
    const Diagnostic* d = find_code(g, "syntax");
    REQUIRE(d != nullptr);
    CHECK(d->line == 3);
    CHECK(d->column == 7);
    CHECK(d->file == path);
    CHECK(d->game == 1);
    CHECK(g.status == GameStatus::partial);
    CHECK(names(g.main) == Names{"h8", "i8"});
    CHECK(gounki::parser::format_diagnostic(*d).find(path + ":3:7:") == 0);
    // Game 2 (line 5): aa bb on 15x15 are a15 b14.
    CHECK(games[1].status == GameStatus::valid);
    CHECK(games[1].line == 5);
    CHECK(names(games[1].main) == Names{"a15", "b14"});
    CHECK(file_diags.empty());
}

TEST_CASE("SGF: other syntax errors", "[parser][sgf]") {
    auto [text, line, column] = GENERATE(table<std::string, int, int>({
        {"(;GM[4];B[hh]C[oops", 1, 15},         // a value never closed: at its '['
        {"(;GM[4];B[hh]", 1, 14},               // ')' missing: at the end
        {"(;GM[4];B[hh];W[ih]B)", 1, 21},       // a property without a value: where '[' was expected
        {"(;GM[4]\n;B[hh](;W[ih]);B[hg])", 2, 15}, // a node after a variation
        {"(;GM[4];B[hh]())", 1, 15},            // an empty game tree
    }));
    INFO(text);
    const GameRecord g = one_sgf(text);
    const Diagnostic* d = find_code(g, "syntax");
    REQUIRE(d != nullptr);
    CHECK(d->line == line);
    CHECK(d->column == column);
    CHECK(g.status != GameStatus::valid);
    CHECK(names(g.main).size() <= 2); // the moves before the fault
}

TEST_CASE("SGF: a move on an occupied point, off the board, of the wrong colour, a pass", "[parser][sgf]") {
    {
        // (;GM[4];B[hh];W[hh]): W is column 15.
        const GameRecord g = one_sgf("(;GM[4];B[hh];W[hh])");
        const Diagnostic* d = find_code(g, "illegal-move");
        REQUIRE(d != nullptr);
        CHECK(d->line == 1);
        CHECK(d->column == 15);
        CHECK(d->message.find("occupied") != std::string::npos);
        CHECK(d->message.find("h8") != std::string::npos);
        CHECK(d->move_number == 1);
        CHECK(d->side == Color::white);
        CHECK(d->written == "W[hh]");
        CHECK(g.status == GameStatus::partial);
        CHECK(names(g.main) == Names{"h8"});
    }
    {
        const GameRecord g = one_sgf("(;GM[4]SZ[15];B[hh];W[pp])");
        const Diagnostic* d = find_code(g, "illegal-move");
        REQUIRE(d != nullptr);
        CHECK(d->message.find("off the 15x15") != std::string::npos);
        CHECK(names(g.main) == Names{"h8"});
        // On 19x19 pp is p4.
        CHECK(names(one_sgf("(;GM[4]SZ[19];B[hh];W[pp])").main) == Names{"h12", "p4"});
    }
    {
        const GameRecord g = one_sgf("(;GM[4];B[hh];B[ii])");
        const Diagnostic* d = find_code(g, "illegal-move");
        REQUIRE(d != nullptr);
        CHECK(d->message.find("White is to move") != std::string::npos);
    }
    {
        const GameRecord g = one_sgf("(;GM[4];B[hh];W[])");
        const Diagnostic* d = find_code(g, "illegal-move");
        REQUIRE(d != nullptr);
        CHECK(d->message.find("pass") != std::string::npos);
    }
}

TEST_CASE("SGF: Ninuki's forbidden double-three, and RU switching the rule off", "[parser][sgf]") {
    // On 19x19 row letter r is rank 19 - (r - 'a'): kj k10, lj l10, ji j11, jh j12, jj j10;
    // as cs es gs: a1 c1 e1 g1. Black's jj makes two free threes through j10.
    const std::string moves = ";B[kj];W[as];B[lj];W[cs];B[ji];W[es];B[jh];W[gs];B[jj])";
    const GameRecord g = one_sgf("(;GM[4]SZ[19]RU[Ninuki]" + moves);
    CHECK(g.kind == GameKind::ninuki);
    const Diagnostic* d = find_code(g, "illegal-move");
    REQUIRE(d != nullptr);
    CHECK(d->message.find("double-three") != std::string::npos);
    CHECK(d->message.find("j10") != std::string::npos);
    CHECK(d->move_number == 5);
    CHECK(d->side == Color::black);
    CHECK(g.status == GameStatus::partial);
    CHECK(names(g.main) == Names{"k10", "a1", "l10", "c1", "j11", "e1", "j12", "g1"});

    const GameRecord free = one_sgf("(;GM[4]RU[Gomoku Ninuki, allow-double-three]" + moves);
    CHECK(free.kind == GameKind::ninuki);
    CHECK_FALSE(free.stone_start.rules().no_double_three);
    CHECK(free.stone_start.rules().endgame_capture);
    CHECK(tag_of(free, "Rules") == rules_tag_text(free.stone_start.rules()));
    CHECK(free.status == GameStatus::valid);
    CHECK(free.main.plies.size() == 9);
    // In Gomoku there is no such rule.
    CHECK(one_sgf("(;GM[4]SZ[19]" + moves).status == GameStatus::valid);
}

TEST_CASE("SGF: results, moves after the end, other games", "[parser][sgf]") {
    const std::string five = ";B[hh];W[ih];B[hg];W[ig];B[hf];W[if];B[he];W[ie];B[hd]";
    {
        const GameRecord g = one_sgf("(;GM[4]RE[W+5]" + five + ")");
        const Diagnostic* d = find_code(g, "result-contradicts");
        REQUIRE(d != nullptr);
        CHECK(d->column == 8);
        CHECK(g.status == GameStatus::invalid);
        CHECK(g.main.plies.size() == 9);
        CHECK(g.result == "1-0");
    }
    for (const char* re : {"B+", "B+5", "b+resign"}) CHECK(one_sgf(std::string("(;GM[4]RE[") + re + "]" + five + ")").status == GameStatus::valid);
    CHECK(one_sgf("(;GM[4]RE[0];B[hh])").result == "1/2-1/2");
    CHECK(one_sgf("(;GM[4]RE[Draw];B[hh])").result == "1/2-1/2");
    CHECK(one_sgf("(;GM[4]RE[?];B[hh])").result == "*");
    CHECK(one_sgf("(;GM[4];B[hh])").result == "*");
    CHECK(one_sgf("(;GM[4]" + five + ")").result == "0-1"); // no RE: the board decides
    {
        const GameRecord g = one_sgf("(;GM[4]RE[B+]" + five + ";W[aa])");
        const Diagnostic* d = find_code(g, "move-after-end");
        REQUIRE(d != nullptr);
        CHECK(d->message.find("Black won with 5. h12") != std::string::npos);
        CHECK(g.status == GameStatus::partial);
        CHECK(g.main.plies.size() == 9);
    }
    {
        const GameRecord g = one_sgf("(;GM[1]SZ[19]RE[B+R];B[pd];W[dp])");
        CHECK(find_code(g, "unsupported-game") != nullptr);
        CHECK(g.main.plies.empty());
        CHECK(g.status == GameStatus::partial);
        CHECK(one_sgf("(;GM[4]RU[Renju];B[hh])").status == GameStatus::partial);
    }
    {
        const GameRecord g = one_sgf("(;FF[4];B[hh])");
        const Diagnostic* d = find_code(g, "missing-game");
        REQUIRE(d != nullptr);
        CHECK(d->severity == gounki::parser::Severity::warning);
        CHECK(g.status == GameStatus::valid);
        CHECK(g.kind == GameKind::gomoku);
    }
    CHECK(find_code(one_sgf("(;GM[4]SZ[17];B[hh])"), "bad-rules") != nullptr);
}

TEST_CASE("SGF: set-up stones, first player, whitespace everywhere", "[parser][sgf]") {
    const GameRecord g = one_sgf(" \n ( ; GM [4]\r\n SZ[15] AB[hh][ii] AW [ih] PL[W]\n ; W\n[aa] C[one] [two] )\n");
    CHECK(g.status == GameStatus::valid);
    CHECK(g.stone_start.at(P("h8")) == Stone::black);
    CHECK(g.stone_start.at(P("i7")) == Stone::black);
    CHECK(g.stone_start.at(P("i8")) == Stone::white);
    CHECK(g.stone_start.side_to_move() == Color::white);
    CHECK(tag_of(g, "SetUp") == "1");
    CHECK(tag_of(g, "Position") == g.stone_start.to_text());
    CHECK(names(g.main) == Names{"a15"});
    CHECK(g.main.plies[0].comments == std::vector<std::string>{"one", "two"});
    CHECK(g.line == 2);
}

TEST_CASE("SGF: which files are read as SGF", "[parser][sgf]") {
    using gounki::parser::looks_like_sgf;
    CHECK(looks_like_sgf("games.sgf", ""));
    CHECK(looks_like_sgf("GAMES.SGF", "[Game \"Gounki\"]"));
    CHECK(looks_like_sgf("games.txt", "\n  (;GM[4]"));
    CHECK(looks_like_sgf("games.txt", "( \n ;GM[4]"));
    CHECK(looks_like_sgf("games", "\xEF\xBB\xBF(;GM[4]"));
    CHECK_FALSE(looks_like_sgf("games.gpn", "[Game \"Gomoku\"]"));
    CHECK_FALSE(looks_like_sgf("games.gpn", "(1. c2-d3)"));
    CHECK_FALSE(looks_like_sgf("games.gpn", ""));
}

TEST_CASE("SGF: text outside the game trees is reported once and passed over", "[parser][sgf]") {
    std::vector<Diagnostic> file_diags;
    const auto games = gounki::parser::read_sgf("junk (x)\n(;GM[4];B[hh])\ntrailer\n", "t.sgf", &file_diags);
    REQUIRE(games.size() == 1);
    CHECK(names(games[0].main) == Names{"h8"});
    REQUIRE(file_diags.size() == 2);
    CHECK(file_diags[0].code == "syntax");
    CHECK(file_diags[0].line == 1);
    CHECK(file_diags[0].column == 1);
    CHECK(file_diags[1].line == 3);
}

TEST_CASE("gounki validate reads SGF files: by name or by content", "[parser][sgf][cli]") {
    const std::string dir = std::string(GOUNKI_SOURCE_DIR) + "/tests/data/sgf/";
    const auto ok = gounki::test::run_gounki("validate '" + dir + "variations.sgf'");
    CHECK(ok.status == 0);
    CHECK(ok.out.find("2 games in 1 file: 2 valid, 0 invalid, 0 partial") != std::string::npos);

    const auto bad = gounki::test::run_gounki("validate '" + dir + "malformed.sgf'");
    CHECK(bad.status == 1);
    CHECK(bad.out.find(dir + "malformed.sgf:3:7: error:") != std::string::npos);
    CHECK(bad.out.find("[syntax]") != std::string::npos);
    CHECK(bad.out.find("1 valid, 0 invalid, 1 partial") != std::string::npos);

    // Another name: the text's "(;" decides.
    gounki::test::TempDir tmp("sgf");
    {
        std::ofstream f(tmp / "games.txt", std::ios::binary);
        f << "\n(;GM[4]RE[W+5];B[hh];W[ih];B[hg];W[ig];B[hf];W[if];B[he];W[ie];B[hd])\n";
    }
    const auto named = gounki::test::run_gounki("validate --json '" + (tmp / "games.txt").string() + "'");
    CHECK(named.status == 1);
    CHECK(named.out.find("\"code\":\"result-contradicts\"") != std::string::npos);
    CHECK(named.out.find("\"line\":2") != std::string::npos);
}

TEST_CASE("SGF reading never crashes: every prefix and every one-character change", "[parser][sgf]") {
    const std::string good = gounki::test::slurp(std::string(GOUNKI_SOURCE_DIR) + "/tests/data/sgf/variations.sgf");
    const std::string alphabet = "()[];\\\nBWCGMaz4";
    auto check_one = [](const std::string& text) {
        for (const GameRecord& g : gounki::parser::read_sgf(text, "t.sgf")) {
            for (const Diagnostic& d : g.diagnostics) CHECK(d.line >= 1);
            CHECK((g.status == GameStatus::valid) == (g.error_count() == 0 && g.status != GameStatus::partial));
        }
    };
    for (std::size_t n = 0; n <= good.size(); ++n) check_one(good.substr(0, n));
    for (std::size_t i = 0; i < good.size(); i += 3)
        for (char c : alphabet) {
            std::string t = good;
            t[i] = c;
            check_one(t);
        }
}
