// The rule sets added to Gomoku (docs/rules.md 2.1): standard (exactly five wins) and the 20x20
// board. Every expected result is derived by hand from the rules in the comment above it.
#include "tests/catch.hpp"
#include "tests/support.hpp"

#include <fstream>
#include <set>

#include "analysis/stones/search.hpp"
#include "core/stones/position.hpp"

using namespace gounki;
using namespace gounki::stones;
using namespace gounki::test;

namespace {

Rules standard(int size = 15) {
    Rules r = gomoku(size);
    r.exact_five = true;
    return r;
}

analysis::SearchResult best(const StonePosition& pos, int depth) {
    analysis::StoneSearcher s;
    analysis::SearchLimits l;
    l.depth = depth;
    return s.search(pos, l);
}

// White's stones far from everything, none two in a line.
const std::initializer_list<const char*> scattered = {"n14", "l15", "o12", "m11"};

} // namespace

// ---------------------------------------------------------------------------------------------
// Gomoku standard

TEST_CASE("Gomoku standard: exactly five wins, six or more in a row does not (and is allowed)", "[stones]") {
    // Black a8 b8 c8 d8 f8: e8 fills the gap, a8..f8 is six in a row.
    for (bool exact : {false, true}) {
        INFO("standard " << exact);
        StonePosition pos = setup(exact ? standard() : gomoku(), {"a8", "b8", "c8", "d8", "f8"}, scattered);
        CHECK(pos.is_legal(M("e8")));
        play(pos, "e8");
        CHECK(pos.outcome() == (exact ? Outcome::none : Outcome::black_wins));
    }
    // a8 b8 c8 d8 and e8: exactly five wins under both rules.
    StonePosition five = setup(standard(), {"a8", "b8", "c8", "d8"}, scattered);
    play(five, "e8");
    CHECK(five.outcome() == Outcome::black_wins);
    // f8 makes six along row 8 (b8..g8) and exactly five along file f (f4..f8): the five wins.
    StonePosition both = setup(standard(), {"b8", "c8", "d8", "e8", "g8", "f4", "f5", "f6", "f7"}, scattered);
    play(both, "f8");
    CHECK(both.outcome() == Outcome::black_wins);
    // White is bound by the same rule: six does not win, five does.
    StonePosition white = setup(standard(), {"n14", "l15", "o12", "m11", "b2"}, {"a3", "b3", "c3", "d3", "f3"}, Color::white);
    play(white, "e3");
    CHECK(white.outcome() == Outcome::none);
    StonePosition white5 = setup(standard(), {"n14", "l15", "o12", "m11"}, {"a3", "b3", "c3", "d3"}, Color::white);
    play(white5, "e3");
    CHECK(white5.outcome() == Outcome::white_wins);
    // A position read with an overline standing is not over under standard rules.
    const StonePosition read = stone_position_of("Gomoku 15 15/15/15/15/15/15/15/xxxxxx9/15/15/15/15/15/ooo12/15 w standard");
    CHECK_FALSE(read.game_over());
    CHECK(stone_position_of("Gomoku 15 15/15/15/15/15/15/15/xxxxxx9/15/15/15/15/15/ooo12/15 w").outcome() == Outcome::black_wins);
}

TEST_CASE("Gomoku standard: the Rules tag word, the position text and the key", "[stones]") {
    Rules r = gomoku();
    REQUIRE_FALSE(apply_rules_tag(r, "standard").has_value());
    CHECK(r == standard());
    CHECK(rules_tag_text(r) == "standard");
    REQUIRE_FALSE(apply_rules_tag(r, "freestyle").has_value());
    CHECK(r == gomoku());
    // The same stones under the two rule sets: different texts and keys (never one index entry).
    const StonePosition a = setup(gomoku(), {"h8"}, {"i9"});
    const StonePosition b = setup(standard(), {"h8"}, {"i9"});
    CHECK(a.key() != b.key());
    CHECK(b.to_text() == "Gomoku 15 15/15/15/15/15/15/8o6/7x7/15/15/15/15/15/15/15 b standard");
    CHECK(stone_position_of(b.to_text()) == b);
    CHECK(stone_position_of(a.to_text()) == a);
    // Ninuki has no such option.
    Rules n = ninuki();
    CHECK(apply_rules_tag(n, "freestyle").value_or("") == "rule option \"freestyle\" applies to Gomoku only (not to Ninuki)");
}

TEST_CASE("Gomoku standard: the engine wins with the exact five, not with the overline", "[stones][engine]") {
    // Black to move: e8 would make six (a8..f8), h5 makes h1..h5, exactly five.
    const StonePosition pos = setup(standard(), {"a8", "b8", "c8", "d8", "f8", "h1", "h2", "h3", "h4"}, scattered);
    const analysis::SearchResult r = best(pos, 2);
    CHECK(point_name(r.best.point()) == "h5");
    CHECK(r.win_in == 1);
    // With only the overline, no win in one is claimed; freestyle takes it.
    const StonePosition only = setup(standard(), {"a8", "b8", "c8", "d8", "f8"}, scattered);
    CHECK(best(only, 2).win_in != 1);
    const StonePosition free = setup(gomoku(), {"a8", "b8", "c8", "d8", "f8"}, scattered);
    const analysis::SearchResult f = best(free, 2);
    CHECK(point_name(f.best.point()) == "e8");
    CHECK(f.win_in == 1);
}

// ---------------------------------------------------------------------------------------------
// 20x20

TEST_CASE("20x20: points a1 to t20, each stored number once, the old numbers kept", "[stones]") {
    CHECK(parse_point("t20", 20) == make_point(19, 19));
    CHECK(point_name(make_point(19, 19)) == "t20");
    CHECK(parse_point("t1", 20) == make_point(19, 0));
    CHECK(parse_point("t20", 19) == no_point);
    CHECK(parse_point("u1", 20) == no_point);
    CHECK(parse_point("a21", 20) == no_point);
    std::set<int> stored;
    for (int r = 0; r < 20; ++r)
        for (int f = 0; f < 20; ++f) {
            const int p = make_point(f, r);
            const int s = stored_point(p);
            CHECK(point_from_stored(s) == p);
            if (f < 19 && r < 19) CHECK(s == r * 19 + f); // the numbering of files written before
            stored.insert(s);
        }
    CHECK(stored.size() == 400);
    CHECK(*stored.rbegin() == 399);
}

TEST_CASE("20x20: Gomoku is played on it, Ninuki is not; a five along the last file wins", "[stones]") {
    Rules r = gomoku();
    REQUIRE_FALSE(apply_size_tag(r, "20").has_value());
    CHECK(r.size == 20);
    Rules n = ninuki();
    CHECK(apply_size_tag(n, "20").value_or("") == "board size \"20\" is not supported (15 or 19)");
    StonePosition pos = setup(gomoku(20), {"t16", "t17", "t18", "t19"}, {"a1", "b1", "c1", "d2"});
    CHECK(pos.legal_moves().size() == 400 - 8);
    CHECK(pos.check(M("t20")) == PlaceError::none);
    play(pos, "t20");
    CHECK(pos.outcome() == Outcome::black_wins);
    const std::string text = pos.to_text();
    CHECK(text.rfind("Gomoku 20 19x/19x/19x/19x/19x/", 0) == 0);
    CHECK(stone_position_of(text) == pos);
    // The same stones on a 19x19 board: another key.
    CHECK(setup(gomoku(20), {"a1"}, {}, Color::white).key() != setup(gomoku(19), {"a1"}, {}, Color::white).key());
}

TEST_CASE("20x20: the engine finds the five on the board's last file", "[stones][engine]") {
    // Black t16..t19, White t15 below them: t20 is the one point that makes five.
    const StonePosition pos = setup(gomoku(20), {"t16", "t17", "t18", "t19"}, {"t15", "o5", "p5", "q5"});
    const analysis::SearchResult r = best(pos, 2);
    CHECK(point_name(r.best.point()) == "t20");
    CHECK(r.win_in == 1);
}
