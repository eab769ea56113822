// Stone games by hand (see stones_test.cpp): free threes and the double-three rule, the position
// text, and random games (the key, the text round trip, undo).
#include "tests/catch.hpp"
#include "tests/support.hpp"

#include <algorithm>
#include <array>
#include <random>
#include <set>
#include <string>
#include <variant>

#include "core/stones/position.hpp"

using namespace gounki;
using namespace gounki::stones;
using namespace gounki::test;

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
        {"_XX*__", 1}, // exactly _XXX__
        {"__XX*_", 1}, // exactly __XXX_
        {"O_XX*__", 1}, // blocked two away on one side, two free on the other: _XXX__ still fits
        // Split threes: _X_XX_ and _XX_X_, placed stone anywhere in them.
        {"_*_XX_", 1},
        {"_X_*X_", 1},
        {"_X_X*_", 1},
        {"_*X_X_", 1},
        {"_XX_*_", 1},
        {"O_XX_*_O", 1}, // the window _XX_X_ is inside the two white stones
        // Not free.
        {"O_X*X_O", 0}, // O_XXX_O: the rule's own example
        {"OX*X__", 0}, // blocked at one end
        {"__X*XO", 0},
        {"O_XX*_O", 0}, // O_XXX_O again, placed at the end
        {"O_X_*X_O_", 1}, // _X_XX_ fits between the whites
        {"OX_*X_", 0}, // X_XX with white before
        {"_X_X_*_", 0}, // X_X_X is not a three
        {"_XX*X_", 0}, // a four is not a three
        {"__*__X__X__", 0},
        {"_X__*X_", 0}, // X__XX: a gap of two
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
    StonePosition pos = stone_position_of(g);
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
    CHECK(stone_position_of("gomoku 15 15/15/15/15/15/15/15/7x7/15/15/15/15/15/15/15 w") == pos);

    // Ninuki 19: j10 black, o10 white, Black has taken 2, end-game capture off.
    std::string n = "Ninuki 19 ";
    for (int r = 19; r >= 1; --r) n += std::string(r == 10 ? "9x4o4" : "19") + (r > 1 ? "/" : "");
    n += " b 2 0 no-endgame-capture";
    StonePosition nin = stone_position_of(n);
    CHECK(nin.rules() == ninuki_with("no-endgame-capture"));
    CHECK(nin.at(P("j10")) == Stone::black);
    CHECK(nin.at(P("o10")) == Stone::white);
    CHECK(nin.captured(Color::black) == 2);
    CHECK(nin.captured(Color::white) == 0);
    CHECK(nin.side_to_move() == Color::black);
    CHECK(stone_position_of(nin.to_text()) == nin);
    CHECK(stone_position_of(nin.to_text()).to_text() == nin.to_text());

    // Ninuki on 15x15, simple rules: the options survive the round trip.
    StonePosition small(ninuki_with("simple", 15));
    CHECK(stone_position_of(small.to_text()) == small);
    // An empty 19x19 Gomoku.
    Rules big = gomoku(19);
    CHECK(stone_position_of(StonePosition(big).to_text()) == StonePosition(big));
}

TEST_CASE("bad stone position text is rejected with the 0-based column of the fault", "[stones]") {
    const std::string e15 = "15/15/15/15/15/15/15/15/15/15/15/15/15/15/15";
    // Index of the last rank's first character in "Gomoku 15 " + e15: 10 + 14 * 3 = 52.
    auto [text, column] = GENERATE_COPY(table<std::string, int>({
        {"Chess 15 " + e15 + " b", 0}, // unknown kind
        {"Gomoku 17 " + e15 + " b", 7}, // size
        {"Gomoku 15 " + e15.substr(0, e15.size() - 2) + "1q13 b", 53}, // bad letter
        {"Gomoku 15 " + e15.substr(0, e15.size() - 2) + "15x b", 54}, // a 16th point in rank 1
        {"Gomoku 15 " + e15 + " z", 55}, // side
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
    check_text_never_crashes<StonePosition>(good, "xo/ 0123456789bwGNk-z");
}

// ---------------------------------------------------------------------------------------------
// Random games: play, text, undo

TEST_CASE("random games: key kept in step, text round trip, undo restores everything", "[stones]") {
    std::mt19937 rng(20240501);
    int captures_seen = 0, wins_seen = 0, pending_seen = 0;
    const Rules variants[] = {gomoku(15),
                              gomoku(19),
                              ninuki(19),
                              ninuki_with("simple", 15),
                              ninuki_with("no-endgame-capture"),
                              ninuki_with("allow-double-three", 15)};
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
                    if (std::abs(point_file(m.point()) - c) <= 3 && std::abs(point_rank(m.point()) - c) <= 3) near.push_back(m);
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
// The rules' quick readings (free threes as bit masks, fives from the stones eight points a word)
// against plain ones read point by point, on random boards crowded enough for both to occur.

namespace {

// Free threes containing `point` for `c`, by the rules document's four windows of six points.
int plain_free_threes(const StonePosition& pos, int point, Color c) {
    static constexpr const char* patterns[] = {"_XXX__", "__XXX_", "_X_XX_", "_XX_X_"};
    const int f0 = point_file(point), r0 = point_rank(point);
    int count = 0;
    for (const auto& d : {std::array{1, 0}, std::array{0, 1}, std::array{1, 1}, std::array{1, -1}}) {
        std::string cells;
        for (int i = -5; i <= 5; ++i) {
            const int f = f0 + i * d[0], r = r0 + i * d[1];
            const Stone s = pos.on_board(f, r) ? pos.at(make_point(f, r)) : Stone::white;
            cells += i == 0 || s == stone_of(c) ? 'X' : s == Stone::empty ? '_' : '#';
        }
        bool found = false;
        for (int start = 0; start <= 5; ++start)
            for (const char* pat : patterns) found = found || cells.compare(std::size_t(start), 6, pat) == 0;
        count += found;
    }
    return count;
}

// Whether `c` has a run of exactly five, or more where overlines win, anywhere.
bool plain_five(const StonePosition& pos, Color c) {
    for (int p = 0; p < point_count; ++p)
        for (const auto& d : {std::array{1, 0}, std::array{0, 1}, std::array{1, 1}, std::array{1, -1}}) {
            auto own = [&](int k) {
                const int f = point_file(p) + k * d[0], r = point_rank(p) + k * d[1];
                return pos.on_board(f, r) && pos.at(make_point(f, r)) == stone_of(c);
            };
            if (!own(0) || own(-1)) continue;
            int run = 1;
            while (own(run)) ++run;
            if (run == 5 || (run > 5 && pos.rules().overline_wins(c))) return true;
        }
    return false;
}

} // namespace

TEST_CASE("free threes and fives: the rules' quick readings agree with plain ones on random boards", "[stones]") {
    const GameKind kind = GENERATE(GameKind::ninuki, GameKind::gomoku, GameKind::pente);
    std::mt19937 rng(29);
    int threes = 0, fives = 0;
    for (int board = 0; board < 60; ++board) {
        StonePosition pos(Rules::defaults(kind));
        const int lo = pos.size() / 2 - 5; // stones in the 11x11 square of the centre, up to 128 put
        for (int i = 0; i < 10 + 2 * board; ++i) // fives and blocked lines come with the crowd
            pos.put(make_point(lo + int(rng() % 11), lo + int(rng() % 11)), rng() % 2 ? Stone::black : Stone::white);
        for (Color c : {Color::black, Color::white}) {
            INFO("board " << board << ": " << pos.to_text());
            REQUIRE(pos.has_five(c) == plain_five(pos, c));
            fives += pos.has_five(c);
            for (int p = 0; p < point_count; ++p) {
                if (!pos.on_board(p) || pos.at(p) != Stone::empty) continue;
                REQUIRE(pos.free_threes_at(p, c) == plain_free_threes(pos, p, c));
                threes += pos.free_threes_at(p, c);
            }
        }
    }
    INFO(fives << " fives, " << threes << " free threes");
    CHECK(fives > 10);
    CHECK(threes > 1000);
}
