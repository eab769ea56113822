// Partial positions of the stone games (db/pattern/stones.hpp): the syntax and its errors, what
// matches which position, the canonical text, and when reachable() gives up on a game.
//
// Points are named by test::P (tests/support.hpp, `P("h8")`), not by stones::parse_point, so a bug there
// cannot hide one here. Expected results come from the syntax in the header comment.
#include "tests/catch.hpp"
#include "tests/support.hpp"

#include <sstream>
#include <string>
#include <tuple>
#include <variant>
#include <vector>

#include "core/stones/position.hpp"
#include "core/stones/symmetry.hpp"
#include "db/pattern/stones.hpp"

using namespace gounki;
using namespace gounki::db;
using namespace gounki::test;
using stones::Stone;
using stones::StonePosition;

namespace {

StonePosition empty_board(GameKind kind, int size) {
    stones::Rules r = stones::Rules::defaults(kind);
    r.size = size;
    return StonePosition(r);
}

StonePosition with_stones(GameKind kind, int size, const std::vector<std::string>& black, const std::vector<std::string>& white) {
    StonePosition pos = empty_board(kind, size);
    for (const auto& b : black) pos.put(P(b), Stone::black);
    for (const auto& w : white) pos.put(P(w), Stone::white);
    return pos;
}

StonePattern pattern(const std::string& text) {
    auto p = StonePattern::parse(text);
    if (auto* e = std::get_if<PatternError>(&p)) FAIL("pattern '" << text << "': column " << e->column << ": " << e->message);
    return std::get<StonePattern>(p);
}

// The third word of a position's text: its board.
std::string board_of(const StonePosition& pos) {
    std::istringstream in(pos.to_text());
    std::string kind, size, board;
    in >> kind >> size >> board;
    return board;
}

// A board text of `size` ranks, each an empty run, with rank `rank` (1 = bottom) replaced.
std::string board_text(int size, int rank = 0, const std::string& rank_text = "") {
    std::string t;
    for (int r = size; r >= 1; --r) {
        t += r == rank ? rank_text : std::to_string(size);
        if (r > 1) t += '/';
    }
    return t;
}

} // namespace

TEST_CASE("stone pattern errors say what went wrong and at which column", "[db]") {
    const std::string board15 = board_text(15);
    const std::string short_top = board_text(15, 15, "14");
    const std::string long_top = board_text(15, 15, "15x");
    const std::string bad_cell = board_text(15, 15, "7z7");
    const std::string short_bottom = board_text(15, 1, "14");
    const std::string zero_run = board_text(15, 15, "0x14");
    const std::pair<std::string, int> errors[] = {
        {"", 0},
        {"   ", 0},
        {"Chess h8=x", 0},
        {"Gounki", 0},
        {"h8=x", 0}, // the game word is required
        {"Gomoku h8=q", 10}, // unknown cell
        {"Ninuki t8=x", 7}, // no file t (Gomoku has one, on 20x20)
        {"Gomoku u8=x", 7},
        {"Ninuki h20=x", 7}, // no rank 20 (Gomoku has one, on 20x20)
        {"Gomoku h21=x", 7},
        {"Gomoku h8", 9}, // no '='
        {"Gomoku h8=", 10}, // no cell
        {"Gomoku h8=xo", 11}, // text after the cell
        {"Gomoku h8=3", 10}, // runs only in a board
        {"Gomoku 15/15/15", 7}, // 3 ranks
        {"Gomoku " + short_top, 9}, // the '/' after a rank of 14 cells
        {"Gomoku " + long_top, 9}, // the 16th cell
        {"Gomoku " + bad_cell, 8}, // 'z'
        {"Gomoku " + zero_run, 7}, // a run of 0
        {"Gomoku " + short_bottom, int(7 + board15.size())}, // the end of the board
        {"Gomoku " + board_text(15, 15, "16"), 7}, // a run past the rank's end
        {"Gomoku p16=x " + board15, 7}, // off the 15x15 board given after it
        {"Gomoku " + board15 + " " + board15, int(8 + board15.size())}, // a second board
        {"Gomoku Bc>=2", 7}, // no captures in Gomoku
        {"Ninuki Bc>>2", 10}, // ">" then no number
        {"Ninuki Bc", 9},
        {"Ninuki Bc>=", 11},
        {"Ninuki Bc>=401", 11}, // counts go up to 400 (20x20)
        {"Ninuki Bc>=4x", 12},
        {"Ninuki Ws=-1", 10},
        {"Gomoku b w", 9}, // two different sides
        {"Gomoku hello", 7},
        {"Gomoku; h8=x;;zz", 14},
        // Two terms on one point that ask different things: no position has both.
        {"Gomoku h8=o h8=x", 12},
        {"Gomoku h8=x i9=o h8=.", 17},
        {"Gomoku h8=* h8=x", 12},
        {"Gomoku h8=x h8=?", 12}, // as in Gounki patterns: a term never takes back another
    };
    for (const auto& [text, column] : errors) {
        INFO("'" << text << "'");
        auto p = StonePattern::parse(text);
        REQUIRE(std::holds_alternative<PatternError>(p));
        INFO(std::get<PatternError>(p).message);
        CHECK(std::get<PatternError>(p).column == column);
        CHECK_FALSE(std::get<PatternError>(p).message.empty());
    }
    const auto twice = StonePattern::parse("Gomoku h8=x i9=o H8=O");
    REQUIRE(std::holds_alternative<PatternError>(twice));
    CHECK(std::get<PatternError>(twice).message == "h8 is given twice, as x and as o: no position has both");
}

TEST_CASE("a position's board text is a pattern for that exact board", "[db]") {
    // Built by play, so the side to move and the stone count are the game's own.
    StonePosition pos = empty_board(GameKind::gomoku, 15);
    stones::StoneUndo undo;
    for (const char* p : {"h8", "i9", "g7", "a1", "o15"}) pos.play(M(p), undo);
    REQUIRE(pos.side_to_move() == Color::white);
    const std::string board = board_of(pos);

    const StonePattern exact = pattern("Gomoku " + board);
    CHECK(exact.kind() == GameKind::gomoku);
    REQUIRE(exact.size() == 15);
    CHECK(exact.matches(pos));
    CHECK(exact.text() == "Gomoku " + board);
    CHECK(pattern("gomoku " + board + " w").matches(pos));
    CHECK_FALSE(pattern("Gomoku " + board + " b").matches(pos));
    // The same board read by from_text matches too.
    auto again = StonePosition::from_text(pos.to_text());
    REQUIRE(std::holds_alternative<StonePosition>(again));
    CHECK(exact.matches(std::get<StonePosition>(again)));

    // One more stone, one stone fewer, one stone of the other colour: no match.
    StonePosition more = pos;
    more.put(P("b2"), Stone::white);
    CHECK_FALSE(exact.matches(more));
    StonePosition fewer = pos;
    fewer.put(P("o15"), Stone::empty);
    CHECK_FALSE(exact.matches(fewer));
    StonePosition swapped = pos;
    swapped.put(P("i9"), Stone::black);
    CHECK_FALSE(exact.matches(swapped));
    // The same stones set up by hand match (the pattern says nothing of the side), unless the
    // pattern names the side; in the other game or on the other size they do not match.
    const StonePosition same = with_stones(GameKind::gomoku, 15, {"h8", "g7", "o15"}, {"i9", "a1"});
    REQUIRE(same.side_to_move() == Color::black);
    CHECK(exact.matches(same));
    CHECK_FALSE(pattern("Gomoku " + board + " w").matches(same));
    CHECK_FALSE(pattern("Ninuki " + board).matches(pos));
    CHECK_FALSE(exact.matches(with_stones(GameKind::ninuki, 15, {"h8", "g7", "o15"}, {"i9", "a1"})));
    CHECK_FALSE(exact.matches(with_stones(GameKind::gomoku, 19, {"h8", "g7", "o15"}, {"i9", "a1"})));
}

TEST_CASE("stone pattern point terms, wildcards and the side to move", "[db]") {
    const StonePosition pos = with_stones(GameKind::gomoku, 15, {"h8", "j10"}, {"i9"}); // Black to move
    // Each pattern, and whether it matches `pos`.
    const std::pair<const char*, bool> cases[] = {
        {"Gomoku", true},
        {"Gomoku h8=x", true},
        {"Gomoku h8=o", false},
        {"Gomoku h8=.", false},
        {"Gomoku h8=*", true},
        {"Gomoku h8=?", true},
        {"Gomoku i9=o", true},
        {"Gomoku i9=x", false},
        {"Gomoku i9=*", true},
        {"Gomoku a1=.", true},
        {"Gomoku a1=*", false},
        {"Gomoku a1=?", true},
        {"Gomoku a1=x", false},
        {"Gomoku H8=X I9=O j10=x", true},
        {"Gomoku h8=x i9=o j10=o", false},
        {"Gomoku b", true},
        {"Gomoku w", false},
        {"Gomoku h8=x; w", false},
        {"Gomoku b b", true},
        {"Ninuki h8=x", false}, // another game
        // A term given twice alike is one term.
        {"Gomoku h8=x h8=x", true},
        {"Gomoku h8=o H8=O", false},
        // A board of wildcards: '?' anything, '*' any stone.
        {"Gomoku 15/15/15/15/15/9*5/8o6/7x7/15/15/15/15/15/15/15", true},
        {"Gomoku 15/15/15/15/15/9*5/8*6/7*7/15/15/15/15/15/15/15", true},
        {"Gomoku 15/15/15/15/15/9*5/8*6/7*7/15/15/15/15/15/15/14*", false},
        {"Gomoku ???????????????"
         "/15/15/15/15/9x5/8?6/7?7/15/15/15/15/15/15/15",
         true},
        {"Gomoku ???????????????"
         "/15/15/15/15/9x5/8?6/7?7/15/15/15/15/15/15/15 w",
         false},
        {"Gomoku ???????????????"
         "/15/15/15/15/9.5/8?6/7?7/15/15/15/15/15/15/15",
         false},
        {"Gomoku ???????????????"
         "/15/15/15/15/9x5/8?6/7?7/15/15/15/15/15/15/?.?.?.?.?.?.?.?",
         true},
        // The board first, then a point term that replaces one of its cells.
        {"Gomoku 15/15/15/15/15/9x5/8o6/7x7/15/15/15/15/15/15/15 h8=.", false},
        {"Gomoku 15/15/15/15/15/9x5/8o6/7.7/15/15/15/15/15/15/15 h8=x", true},
        // A point term first, then the board, which says h8 is empty: the term goes over the board
        // wherever it stands, as in the pattern above with the two in the other order.
        {"Gomoku h8=x 15/15/15/15/15/9x5/8o6/7.7/15/15/15/15/15/15/15", true},
        {"Gomoku h8=. 15/15/15/15/15/9x5/8o6/7x7/15/15/15/15/15/15/15", false},
        {"Gomoku i9=o h8=x 15/15/15/15/15/9x5/8.6/7.7/15/15/15/15/15/15/15 j10=x", true},
    };
    for (const auto& [text, matches] : cases) {
        INFO(text);
        CHECK(pattern(text).matches(pos) == matches);
    }
}

TEST_CASE("stone pattern counts: captured stones and stones on the board", "[db]") {
    StonePosition pos = with_stones(GameKind::ninuki, 19, {"a1", "b1", "c1"}, {"s19", "r19"});
    pos.set_captured(Color::black, 4);
    pos.set_captured(Color::white, 2);
    struct Case {
        const char* text;
        bool matches;
    };
    const Case cases[] = {
        {"Ninuki Bc=4", true},        {"Ninuki Bc>=4", true},        {"Ninuki Bc>4", false},     {"Ninuki Bc<4", false},
        {"Ninuki Bc<=4", true},       {"Ninuki Bc=2", false},        {"Ninuki Wc=2", true},      {"Ninuki Wc=4", false},
        {"Ninuki Bs=3", true},        {"Ninuki Bs>3", false},        {"Ninuki Ws=2", true},      {"Ninuki Ws<2", false},
        {"Ninuki Ws>=2 Bs<=3", true}, {"Ninuki Ws>=2 Bs<=2", false}, {"ninuki bc=4 WC=2", true}, {"Ninuki Bs>=4", false},
    };
    for (const auto& [text, matches] : cases) {
        INFO(text);
        CHECK(pattern(text).matches(pos) == matches);
    }
    const StonePosition gomoku = with_stones(GameKind::gomoku, 15, {"a1"}, {"b2", "c3"});
    CHECK(pattern("Gomoku Bs=1 Ws=2").matches(gomoku));
    CHECK_FALSE(pattern("Gomoku Bs=2").matches(gomoku));
    CHECK_FALSE(pattern("Gomoku Ws>=3").matches(gomoku));
}

TEST_CASE("stone pattern canonical text reads back as the same pattern", "[db]") {
    const std::pair<const char*, const char*> cases[] = {
        {"gomoku", "Gomoku"},
        {"GOMOKU; H8=X  ;i9=o b bs>=2", "Gomoku i9=o h8=x b Bs>=2"},
        {"Ninuki a1=. s19=* w Bc<=4 wc>1 Ws=3", "Ninuki s19=* a1=. w Bc<=4 Wc>1 Ws=3"},
        {"Gomoku h8=? h8=?", "Gomoku"}, // a point that may hold anything is no constraint
        {"Gomoku 15/15/15/15/15/15/15/7x7/15/15/15/15/15/15/15", "Gomoku 15/15/15/15/15/15/15/7x7/15/15/15/15/15/15/15"},
        {"Gomoku 15/15/15/15/15/15/15/.......X......./15/15/15/15/15/15/15 b",
         "Gomoku 15/15/15/15/15/15/15/7x7/15/15/15/15/15/15/15 b"},
        {"Gomoku 15/15/15/15/15/15/15/3?3*7/15/15/15/15/15/15/15 h8=o a1=x",
         "Gomoku 15/15/15/15/15/15/15/3?3o7/15/15/15/15/15/15/x14"},
    };
    const std::vector<StonePosition> positions = {
        with_stones(GameKind::gomoku, 15, {"h8"}, {"i9"}),
        with_stones(GameKind::gomoku, 19, {"h8", "a1"}, {"i9", "d8"}),
        with_stones(GameKind::ninuki, 19, {"s19"}, {"a2", "b2", "c2"}),
    };
    for (const auto& [text, canonical] : cases) {
        INFO(text);
        const StonePattern p = pattern(text);
        CHECK(p.text() == canonical);
        const StonePattern again = pattern(p.text());
        CHECK(again.text() == p.text());
        CHECK(again.kind() == p.kind());
        CHECK(again.size() == p.size());
        for (const StonePosition& pos : positions) CHECK(again.matches(pos) == p.matches(pos));
    }
    // A 19x19 board round trips with its size.
    const StonePattern big = pattern("Ninuki " + board_text(19, 10, "9x9"));
    CHECK(big.size() == 19);
    CHECK(big.text() == "Ninuki " + board_text(19, 10, "9x9"));
    CHECK(pattern(big.text()).size() == 19);
}

TEST_CASE("stone patterns: a board's size must be the position's, a pattern without one fits both", "[db]") {
    const StonePosition small = with_stones(GameKind::gomoku, 15, {"a1"}, {});
    const StonePosition big = with_stones(GameKind::gomoku, 19, {"a1"}, {});
    const StonePattern board15 = pattern("Gomoku " + board_text(15, 1, "x14"));
    const StonePattern board19 = pattern("Gomoku " + board_text(19, 1, "x18"));
    // Each board fits positions of its own size only, and no later position of the other size.
    for (const auto& [board, own, other] : {std::tuple{&board15, &small, &big}, std::tuple{&board19, &big, &small}}) {
        CHECK(board->matches(*own));
        CHECK_FALSE(board->matches(*other));
        CHECK_FALSE(board->reachable(*other));
    }

    const StonePattern free = pattern("Gomoku a1=x");
    CHECK_FALSE(free.size().has_value());
    CHECK(free.matches(small));
    CHECK(free.matches(big));
    // Off the 15x15 board: never a stone, never empty, but '?' is anything.
    for (const char* text : {"Gomoku a1=x s19=.", "Gomoku a1=x p1=.", "Gomoku a1=x a16=*", "Gomoku a1=x s19=o"}) {
        INFO(text);
        CHECK_FALSE(pattern(text).matches(small));
        CHECK_FALSE(pattern(text).reachable(small));
    }
    CHECK(pattern("Gomoku a1=x s19=.").matches(big));
    CHECK(pattern("Gomoku a1=x o15=.").matches(small));
    CHECK(pattern("Gomoku a1=x s19=?").matches(small));
    // Point names follow the board: p16 is no point of a 15x15 board, but is of a 19x19 one.
    CHECK(pattern("Gomoku p16=. " + board_text(19)).size() == 19);
}

// search --pattern --symmetric: the pattern turned by each of the board's symmetries about the
// centre of the position's board (core/stones/symmetry.hpp).
TEST_CASE("stone patterns turned and mirrored about the board's centre", "[db]") {
    // h8 black, i9 white, j9 black: turned by a half turn about h8 it is h8, g7, f7.
    const StonePattern shape = pattern("Gomoku h8=x i9=o j9=x");
    const StonePosition half_turn = with_stones(GameKind::gomoku, 15, {"h8", "f7"}, {"g7"});
    CHECK_FALSE(shape.matches(half_turn));
    CHECK(shape.matches(half_turn, 2));
    for (int s : {1, 3, 4, 5, 6, 7}) CHECK_FALSE(shape.matches(half_turn, s));
    // A quarter turn anticlockwise takes i9 (one right, one up) to g9 (one left, one up).
    CHECK(shape.matches(with_stones(GameKind::gomoku, 15, {"h8", "g10"}, {"g9"}), 1));
    // Every image of a position matches under the symmetry that made it, on either board size, the
    // centre being the board's (h8 on 15x15, k10 on 19x19); the side and counts hold in all.
    for (const int size : {15, 19}) {
        const StonePosition pos = with_stones(GameKind::gomoku, size, {"h8", "j9", "c3"}, {"i9", "p4"});
        for (int s = 0; s < stones::symmetry_count; ++s) {
            INFO("size " << size << ", symmetry " << s);
            const StonePosition image = stones::transformed(pos, s);
            CHECK(shape.matches(image, s));
            CHECK(pattern("Gomoku h8=x i9=o j9=x Bs=3 Ws=2 b").matches(image, s)); // Black to move
            CHECK_FALSE(pattern("Gomoku h8=x i9=o j9=x w").matches(image, s));
            CHECK(shape.reachable(image, s));
        }
    }
    // In Gomoku a stone of the other colour where the pattern's turned image needs one gives up for good.
    const StonePattern renju_shape = pattern("Renju h8=x h9=o i9=x");
    stones::Rules renju = stones::Rules::defaults(GameKind::renju);
    StonePosition blocked(renju);
    blocked.put(P("h8"), Stone::black);
    blocked.put(P("h7"), Stone::black); // where a half turn puts White's h9
    CHECK_FALSE(renju_shape.reachable(blocked, 2));
    CHECK(renju_shape.reachable(blocked, 0));
}

TEST_CASE("stone patterns give up on a game only when no later position can match", "[db]") {
    SECTION("Ninuki: captured counts only go up; stones come and go") {
        // b1 x, c1 d1 o: Black on e1 takes the pair c1 d1.
        StonePosition pos = with_stones(GameKind::ninuki, 19, {"b1", "s19"}, {"c1", "d1", "s18"});
        const StonePattern at_most_0 = pattern("Ninuki Bc<=0");
        const StonePattern below_2 = pattern("Ninuki Bc<2");
        const StonePattern exactly_2 = pattern("Ninuki Bc=2");
        const StonePattern at_least_2 = pattern("Ninuki Bc>=2");
        const StonePattern white_2 = pattern("Ninuki Wc<=0");
        CHECK(at_most_0.prunes());
        CHECK(below_2.prunes());
        CHECK(exactly_2.prunes());
        CHECK(white_2.prunes());
        CHECK_FALSE(at_least_2.prunes());
        for (const StonePattern* p : {&at_most_0, &below_2, &exactly_2, &at_least_2, &white_2}) CHECK(p->reachable(pos));

        stones::StoneUndo undo;
        REQUIRE(pos.is_legal(M("e1")));
        pos.play(M("e1"), undo);
        REQUIRE(pos.captured(Color::black) == 2);
        REQUIRE(pos.at(P("c1")) == Stone::empty);
        CHECK_FALSE(at_most_0.reachable(pos));
        CHECK_FALSE(below_2.reachable(pos));
        CHECK(exactly_2.reachable(pos));
        CHECK(exactly_2.matches(pos));
        CHECK(at_least_2.reachable(pos));
        CHECK(white_2.reachable(pos));
        pos.set_captured(Color::black, 4);
        CHECK_FALSE(exactly_2.reachable(pos));
        CHECK(at_least_2.reachable(pos));

        // Stones on the board go down through captures, and points empty again: no pruning on them.
        for (const char* text : {"Ninuki Bs<=1", "Ninuki Ws<1", "Ninuki c1=o", "Ninuki e1=.", "Ninuki b1=o"}) {
            INFO(text);
            CHECK_FALSE(pattern(text).prunes());
            CHECK(pattern(text).reachable(pos));
        }
    }
    SECTION("Gomoku: stones never leave the board") {
        const StonePosition pos = with_stones(GameKind::gomoku, 15, {"h8", "a1"}, {"i9"});
        struct Case {
            const char* text;
            bool prunes, reachable;
        };
        const Case cases[] = {
            {"Gomoku h8=.", true, false},  {"Gomoku h8=o", true, false}, {"Gomoku h8=x", true, true},
            {"Gomoku i9=x", true, false},  {"Gomoku b2=.", true, true},  {"Gomoku b2=o", true, true},
            {"Gomoku h8=*", false, true},  {"Gomoku b2=*", false, true}, {"Gomoku b", false, true},
            {"Gomoku Bs<=1", true, false}, {"Gomoku Bs<=2", true, true}, {"Gomoku Ws<1", true, false},
            {"Gomoku Ws=1", true, true},   {"Gomoku Bs=1", true, false}, {"Gomoku Bs>=5", false, true},
        };
        for (const Case& c : cases) {
            INFO(c.text);
            const StonePattern p = pattern(c.text);
            CHECK(p.prunes() == c.prunes);
            CHECK(p.reachable(pos) == c.reachable);
        }
        // Another game is never reachable.
        CHECK_FALSE(pattern("Ninuki Bc<=2").reachable(pos));
    }
}
