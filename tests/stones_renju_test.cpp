// Renju under the RIF rules (docs/rules.md 2.5): Black wins with exactly five and may not make a
// double-three, a double-four or an overline (a three counts only when its straight four can be
// made by an allowed move); a five wins even with a forbidden shape; White is free and wins with an
// overline. Every position is made by hand, its answer derived from the rules in the comments.
#include "tests/catch.hpp"
#include "tests/support.hpp"

#include <map>
#include <random>
#include <set>
#include <vector>

#include "analysis/stones/search.hpp"
#include "core/stones/position.hpp"
#include "core/stones/renju.hpp"
#include "core/stones/renju_openings.hpp"
#include "parser/reader.hpp"
#include "parser/sgf/sgf.hpp"

using namespace gounki;
using namespace gounki::stones;
using namespace gounki::test;

namespace {

Rules renju() { return Rules::defaults(GameKind::renju); }

// ---------------------------------------------------------------------------------------------
// A reference for Renju's forbidden points, written from the words of the rules (docs/rules.md 2.5)
// with no shortcut and no table: a board of characters, every line walked cell by cell, every four
// and straight four found by trying every empty point of the line. renju_forbidden must give the
// same answer everywhere. The same depth bound: at renju_depth_limit a straight-four point counts
// as allowed unless it makes an overline or a double-four.
struct RefBoard {
    int n = 15;
    std::vector<char> cells; // '.', 'X' black, 'O' white
    explicit RefBoard(const StonePosition& pos) : n(pos.size()), cells(std::size_t(n * n), '.') {
        for (int r = 0; r < n; ++r)
            for (int f = 0; f < n; ++f)
                if (pos.at(make_point(f, r)) != Stone::empty) cell(f, r) = pos.at(make_point(f, r)) == Stone::black ? 'X' : 'O';
    }
    char at(int f, int r) const { return f < 0 || r < 0 || f >= n || r >= n ? '#' : cells[std::size_t(r * n + f)]; }
    char& cell(int f, int r) { return cells[std::size_t(r * n + f)]; }
};
constexpr int ref_dirs[4][2] = {{1, 0}, {0, 1}, {1, 1}, {1, -1}};

// The first and last step (from -n to n) of the black row through the black (f, r) along d.
std::pair<int, int> ref_row(const RefBoard& b, int f, int r, int d) {
    const int df = ref_dirs[d][0], dr = ref_dirs[d][1];
    int lo = 0, hi = 0;
    while (b.at(f + (lo - 1) * df, r + (lo - 1) * dr) == 'X') --lo;
    while (b.at(f + (hi + 1) * df, r + (hi + 1) * dr) == 'X') ++hi;
    return {lo, hi};
}
int ref_run(const RefBoard& b, int f, int r, int d) {
    const auto [lo, hi] = ref_row(b, f, r, d);
    return hi - lo + 1;
}

// The fours of line d through the black (f, r): the sets of four black stones, (f, r) among them,
// that one black stone more on an empty point of the line makes an exact five.
int ref_fours(RefBoard& b, int f, int r, int d) {
    const int df = ref_dirs[d][0], dr = ref_dirs[d][1];
    std::set<std::vector<int>> fours;
    for (int k = -b.n; k <= b.n; ++k) {
        if (b.at(f + k * df, r + k * dr) != '.') continue;
        b.cell(f + k * df, r + k * dr) = 'X';
        const auto [lo, hi] = ref_row(b, f, r, d);
        if (hi - lo + 1 == 5) {
            std::vector<int> stones;
            for (int j = lo; j <= hi; ++j)
                if (j != k) stones.push_back(j);
            fours.insert(stones);
        }
        b.cell(f + k * df, r + k * dr) = '.';
    }
    return int(fours.size());
}

// Whether line d through the black (f, r) and (f, r) + k holds a straight four with both: four
// black stones in a row, an empty point at each end, each making an exact five.
bool ref_straight_four(RefBoard& b, int f, int r, int d, int k) {
    const int df = ref_dirs[d][0], dr = ref_dirs[d][1];
    const auto [lo, hi] = ref_row(b, f, r, d);
    if (hi - lo + 1 != 4 || k < lo || k > hi) return false;
    for (const int end : {lo - 1, hi + 1}) {
        if (b.at(f + end * df, r + end * dr) != '.') return false;
        b.cell(f + end * df, r + end * dr) = 'X';
        const bool five = ref_run(b, f, r, d) == 5;
        b.cell(f + end * df, r + end * dr) = '.';
        if (!five) return false;
    }
    return true;
}

// `recursive` false: a three's straight-four point is never asked whether it is allowed.
Forbidden ref_forbidden(RefBoard& b, int f, int r, int depth, bool recursive = true);

Forbidden ref_judge(RefBoard& b, int f, int r, int depth, bool recursive) {
    for (int d = 0; d < 4; ++d)
        if (ref_run(b, f, r, d) == 5) return Forbidden::none; // a five wins, whatever else
    for (int d = 0; d < 4; ++d)
        if (ref_run(b, f, r, d) >= 6) return Forbidden::overline;
    int fours = 0;
    for (int d = 0; d < 4; ++d) fours += ref_fours(b, f, r, d);
    if (fours >= 2) return Forbidden::double_four;
    if (depth >= renju_depth_limit) return Forbidden::none;
    int threes = 0;
    for (int d = 0; d < 4; ++d) {
        if (ref_fours(b, f, r, d) > 0) continue; // a four is not a three
        const int df = ref_dirs[d][0], dr = ref_dirs[d][1];
        for (int k = -b.n; k <= b.n; ++k) {
            const int ef = f + k * df, er = r + k * dr;
            if (b.at(ef, er) != '.') continue;
            b.cell(ef, er) = 'X';
            const bool straight = ref_straight_four(b, f, r, d, k);
            b.cell(ef, er) = '.';
            if (straight && (!recursive || ref_forbidden(b, ef, er, depth + 1) == Forbidden::none)) {
                ++threes;
                break;
            }
        }
    }
    return threes >= 2 ? Forbidden::double_three : Forbidden::none;
}

Forbidden ref_forbidden(RefBoard& b, int f, int r, int depth, bool recursive) {
    if (b.at(f, r) != '.') return Forbidden::none;
    b.cell(f, r) = 'X';
    const Forbidden out = ref_judge(b, f, r, depth, recursive);
    b.cell(f, r) = '.';
    return out;
}

Forbidden reference(const StonePosition& pos, int point) {
    RefBoard b(pos);
    return ref_forbidden(b, point_file(point), point_rank(point), 0);
}

PlaceError black_at(std::initializer_list<const char*> black, std::initializer_list<const char*> white, const char* point) {
    const StonePosition pos = setup(renju(), black, white, Color::black);
    const PlaceError e = pos.check(M(point));
    // The engine's own test and the position's say the same, and so does the reference.
    CHECK((e == PlaceError::none) == (renju_forbidden(pos, P(point)) == Forbidden::none));
    CHECK(renju_forbidden(pos, P(point)) == reference(pos, P(point)));
    return e;
}

parser::GameRecord one(const std::string& text) { return only_game(parser::read_records(text)); }

} // namespace

TEST_CASE("Renju: the registry row and the rules", "[stones][renju]") {
    CHECK(parse_game_kind("RENJU") == GameKind::renju);
    CHECK(parse_game_kind("Ninuki-Renju") == GameKind::ninuki); // another game's full name
    CHECK(first_mover(GameKind::renju) == Color::black);
    CHECK(sizes_text(GameKind::renju) == "15");
    const Rules r = renju();
    CHECK(r.size == 15);
    CHECK_FALSE(r.captures());
    CHECK(r.forbidden_for(Color::black));
    CHECK_FALSE(r.forbidden_for(Color::white));
    CHECK_FALSE(r.overline_wins(Color::black));
    CHECK(r.overline_wins(Color::white));
    CHECK(r.double_three_forbidden(Color::black));
    CHECK_FALSE(r.double_three_forbidden(Color::white));
    CHECK(rules_tag_text(r).empty());
    // No other game forbids anything to Black this way.
    for (GameKind k : {GameKind::gomoku, GameKind::ninuki, GameKind::pente})
        CHECK_FALSE(Rules::defaults(k).forbidden_for(Color::black));
    Rules t = renju();
    CHECK(apply_size_tag(t, "19").has_value());
    CHECK(apply_rules_tag(t, "standard").has_value()); // Renju's fives are fixed, not an option
    const StonePosition start(r);
    CHECK(start.side_to_move() == Color::black);
    CHECK(start.to_text() == "Renju 15 15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 b");
    const auto back = StonePosition::from_text(start.to_text());
    REQUIRE(std::holds_alternative<StonePosition>(back));
    CHECK(std::get<StonePosition>(back) == start);
    CHECK(start.key() != StonePosition(Rules::defaults(GameKind::gomoku)).key());
}

TEST_CASE("Renju: a plain double-three is forbidden to Black, allowed to White", "[stones][renju]") {
    // f8 g8 [h8] across and [h8] h9 h10 up: two open threes.
    CHECK(black_at({"f8", "g8", "h9", "h10"}, {}, "h8") == PlaceError::double_three);
    CHECK(place_error_text(PlaceError::double_three).find("forbidden") != std::string_view::npos);
    // One three alone is fine; the other points near it too.
    CHECK(black_at({"f8", "g8", "a1"}, {}, "h8") == PlaceError::none);
    // White has no restriction.
    const StonePosition w = setup(renju(), {"a1", "a2", "a3", "a4"}, {"f8", "g8", "h9", "h10"}, Color::white);
    CHECK(w.check(M("h8")) == PlaceError::none);
    // A split three counts as a three: f8 _ h8 i8 (g8 makes f8-i8 a straight four) and h9 h10.
    CHECK(black_at({"f8", "i8", "h9", "h10"}, {}, "h8") == PlaceError::double_three);
}

TEST_CASE("Renju: a three blocked at one end is no three", "[stones][renju]") {
    // e8 White: f8 g8 h8 can only become a four with one five point, never a straight four.
    CHECK(black_at({"f8", "g8", "h9", "h10"}, {"e8"}, "h8") == PlaceError::none);
    // Blocked by the board's edge the same way: a8 b8 [c8] across (no room left of a8), c9 c10 up.
    CHECK(black_at({"a8", "b8", "c9", "c10"}, {}, "c8") == PlaceError::none);
    // A three with room for only a four: a white stone two points away on the other side too.
    CHECK(black_at({"f8", "g8", "h9", "h10"}, {"e8", "k8"}, "h8") == PlaceError::none);
}

TEST_CASE("Renju: a three whose straight-four point is forbidden is a false three", "[stones][renju]") {
    // h8 i8 _ k8 across: only j8 makes a straight four (h8-k8). Column j holds j5 j6 j7 and j9 j10,
    // so a black stone on j8 makes j5-j10, an overline: forbidden, and the three across is false.
    // With h9 h10 up, [h8] makes one real three only: allowed.
    const auto black = {"i8", "k8", "h9", "h10", "j5", "j6", "j7", "j9", "j10"};
    CHECK(black_at(black, {}, "h8") == PlaceError::none);
    // Without j10, j8 makes j5-j9, an exact five: never forbidden, so the three is real and [h8]
    // makes a double-three.
    CHECK(black_at({"i8", "k8", "h9", "h10", "j5", "j6", "j7", "j9"}, {}, "h8") == PlaceError::double_three);
    // The straight-four point forbidden by a double-three of its own (one level deeper): with j9 j10
    // up and k9 l10 on the diagonal, a black j8 (once h8 stands) makes a straight four across
    // (h8 i8 j8 k8) and two real threes (j8 j9 j10, j8 k9 l10): a double-three, so the three across
    // is false again and h8 is allowed.
    const auto deep = {"i8", "k8", "h9", "h10", "j9", "j10", "k9", "l10"};
    const StonePosition pos = setup(renju(), deep, {}, Color::black);
    StonePosition with_h8 = pos;
    with_h8.put(P("h8"), Stone::black);
    CHECK(renju_forbidden(with_h8, P("j8")) == Forbidden::double_three);
    CHECK(pos.check(M("h8")) == PlaceError::none);
}

TEST_CASE("Renju: double-fours, on two lines and on one", "[stones][renju]") {
    // e8 f8 g8 (d8 White) across and h5 h6 h7 (h4 White) up: two fours through h8.
    CHECK(black_at({"e8", "f8", "g8", "h5", "h6", "h7"}, {"d8", "h4"}, "h8") == PlaceError::double_four);
    CHECK(place_error_text(PlaceError::double_four).find("double-four") != std::string_view::npos);
    // A four and a three is allowed (the four-three wins in Renju).
    CHECK(black_at({"e8", "f8", "g8", "h6", "h7"}, {"d8"}, "h8") == PlaceError::none);
    // d8 _ f8 [g8] h8 _ j8: e8 makes d8-h8 and i8 makes f8-j8, two fives of different stones: two
    // fours in one line.
    CHECK(black_at({"d8", "f8", "h8", "j8"}, {}, "g8") == PlaceError::double_four);
    // The same on a diagonal: c3 _ e5 [f6] g7 _ i9.
    CHECK(black_at({"c3", "e5", "g7", "i9"}, {}, "f6") == PlaceError::double_four);
    // A four is a line that one more stone makes an exact five: b8 _ d8 e8 f8 [g8] (h8 White) becomes
    // only an overline at c8, so it is no four, and with g5 g6 g7 up (g4 White) [g8] makes one four.
    CHECK(black_at({"b8", "d8", "e8", "f8", "g5", "g6", "g7"}, {"h8", "g4"}, "g8") == PlaceError::none);
    // A straight four (e8 f8 g8 [h8], d8 and i8 empty) is one four, not two: allowed.
    CHECK(black_at({"e8", "f8", "g8"}, {}, "h8") == PlaceError::none);
    // d8 e8 _ [g8] _ i8 j8: no point makes a five (f8 and h8 make runs of four): a three, allowed.
    CHECK(black_at({"d8", "e8", "i8", "j8"}, {}, "g8") == PlaceError::none);
    // d8 e8 f8 _ [h8] _ j8 k8 l8: g8 makes d8-h8 and i8 makes h8-l8, two fours in one line.
    CHECK(black_at({"d8", "e8", "f8", "j8", "k8", "l8"}, {}, "h8") == PlaceError::double_four);
}

TEST_CASE("Renju: overlines, exact fives and fives with a forbidden shape", "[stones][renju]") {
    // c8 d8 e8 _ g8 h8: f8 makes six in a row.
    CHECK(black_at({"c8", "d8", "e8", "g8", "h8"}, {}, "f8") == PlaceError::overline);
    CHECK(place_error_text(PlaceError::overline).find("overline") != std::string_view::npos);
    // White's overline wins.
    StonePosition w = setup(renju(), {"a1", "a2", "a3", "a5", "b1", "b2"}, {"c8", "d8", "e8", "g8", "h8"}, Color::white);
    REQUIRE(w.check(M("f8")) == PlaceError::none);
    play(w, "f8");
    CHECK(w.outcome() == Outcome::white_wins);
    // Black's exact five wins.
    StonePosition b = setup(renju(), {"d8", "e8", "f8", "g8"}, {"a1", "a2", "a3", "a4"}, Color::black);
    play(b, "h8");
    CHECK(b.outcome() == Outcome::black_wins);
    // A five that also makes a double-four (h5 h6 h7 up, h4 White; e5 f6 g7 on the diagonal, d4
    // White) is not forbidden: the five wins.
    StonePosition f = setup(renju(), {"d8", "e8", "f8", "g8", "h5", "h6", "h7", "e5", "f6", "g7"},
                            {"h4", "d4", "a1", "a3", "a5", "a7", "a9", "a11", "a13", "c1"}, Color::black);
    REQUIRE(f.check(M("h8")) == PlaceError::none);
    play(f, "h8");
    CHECK(f.outcome() == Outcome::black_wins);
    // A five and an overline at once (b8-f8 across, f5-f10 up): the five wins, so not forbidden.
    CHECK(black_at({"b8", "c8", "d8", "e8", "f5", "f6", "f7", "f9", "f10"}, {}, "f8") == PlaceError::none);
}

TEST_CASE("Renju: records, SGF and the engine", "[stones][renju]") {
    // Black's fifth stone makes f8 g8 [h8] and [h8] h9 h10: an error at that move, the game partial.
    const parser::GameRecord g = one("[Game \"Renju\"]\n\n1. f8 a1 2. g8 a15 3. h9 o1 4. h10 o15 5. h8 *\n");
    const parser::Diagnostic* d = nullptr;
    for (const parser::Diagnostic& x : g.diagnostics)
        if (x.code == "illegal-move") d = &x;
    REQUIRE(d != nullptr);
    CHECK(d->message.find("double-three, forbidden") != std::string::npos);
    CHECK(d->line == 3);
    CHECK(g.status == parser::GameStatus::partial);
    CHECK(g.main.plies.size() == 8);
    // The same stones with White on h8 instead: White has no forbidden point.
    CHECK(one("[Game \"Renju\"]\n\n1. f8 h8 2. g8 a15 3. h9 o1 4. h10 *\n").status == parser::GameStatus::valid);

    // RU[renju] reads as Renju, with its opening rule kept as a tag.
    const auto sgf = parser::read_sgf("(;GM[4]SZ[15]RU[Renju, RIF];B[hh];W[ii];B[gg])", "r.sgf");
    REQUIRE(sgf.size() == 1);
    CHECK(sgf[0].kind == GameKind::renju);
    CHECK(sgf[0].status == parser::GameStatus::valid);
    REQUIRE(sgf[0].tag("OpeningRule") != nullptr);
    CHECK(*sgf[0].tag("OpeningRule") == "RIF");
    CHECK(parser::read_sgf("(;GM[4]RU[Yamaguchi];B[hh])", "y.sgf")[0].kind == GameKind::renju);
    const auto gn = parser::read_sgf("(;GM[4]GN[Renju game, Soosyrv 8];B[hh])", "g.sgf");
    CHECK(gn[0].kind == GameKind::renju);
    CHECK(*gn[0].tag("OpeningRule") == "Soosyrv-8");
    // Written back, RU names the game and the opening rule.
    CHECK(parser::write_sgf(sgf[0]).find("RU[Renju RIF]") != std::string::npos);

    // The engine never plays a forbidden point: Black to move, where h8 (a double-three) would
    // otherwise be its strongest move.
    const StonePosition pos = setup(renju(), {"f8", "g8", "h9", "h10"}, {"a1", "a15", "o1", "o15"}, Color::black);
    analysis::StoneSearcher s;
    analysis::SearchLimits l;
    l.depth = 3;
    const auto r = s.search(pos, l);
    REQUIRE(r.best != Move::none());
    CHECK(r.best != M("h8"));

    // White wins by a four whose only five point is forbidden to Black: f5 f6 f7 (f4 Black) and f9
    // leave f8, where a black stone makes c8-h8, an overline. In Gomoku the same f8 would be Black's
    // winning six, so White has no such win there.
    const auto black = {"c8", "d8", "e8", "g8", "h8", "f4"};
    const auto white = {"f5", "f6", "f7", "a15", "o15", "o1"};
    const StonePosition trap = setup(renju(), black, white, Color::white);
    analysis::StoneSearcher v;
    const analysis::VcfResult win = v.find_vcf(trap, 5);
    REQUIRE(win.found);
    CHECK(win.plies == 3);
    CHECK(win.line.front() == M("f9"));
    analysis::StoneSearcher free_searcher;
    CHECK_FALSE(free_searcher.find_vcf(setup(gomoku(), black, white, Color::white), 5).found);
    CHECK(pos.is_legal(r.best));
}

TEST_CASE("Renju: engine games never hold a forbidden black move", "[stones][renju]") {
    TempDir dir("renju-selfplay");
    const std::string file = (dir / "r.gpn").string();
    const CliRun r = run_gounki("selfplay --game renju --games 2 --depth 2 --seed 5 -o '" + file + "'");
    INFO(r.err);
    REQUIRE(r.status == 0);
    const auto games = parser::read_records(slurp(file), "r.gpn");
    REQUIRE(games.size() == 2);
    for (const parser::GameRecord& g : games) {
        CHECK(g.kind == GameKind::renju);
        CHECK(g.status == parser::GameStatus::valid); // a forbidden move would be an illegal-move error
        CHECK(g.main.plies.size() > 10);
    }
}

TEST_CASE("Renju: the forbidden points agree with the reference on random boards", "[stones][renju]") {
    // Boards crowded in a random square (5 to 11 points wide): many threes, fours, overlines and
    // threes whose straight-four point is itself forbidden. Every empty point of every board.
    std::mt19937 rng(1414);
    std::array<int, 4> seen{};
    int points = 0, false_threes = 0, mismatches = 0;
    for (int board = 0; board < 400; ++board) {
        StonePosition pos(renju());
        const int side = 5 + int(rng() % 7), f0 = int(rng() % unsigned(16 - side)), r0 = int(rng() % unsigned(16 - side));
        const int black_pct = 15 + int(rng() % 35), white_pct = int(rng() % 25);
        for (int r = r0; r < r0 + side; ++r)
            for (int f = f0; f < f0 + side; ++f) {
                const int roll = int(rng() % 100);
                if (roll < black_pct) pos.put(make_point(f, r), Stone::black);
                else if (roll < black_pct + white_pct) pos.put(make_point(f, r), Stone::white);
            }
        RefBoard ref(pos);
        int forbidden_here = 0;
        for (int r = 0; r < 15; ++r)
            for (int f = 0; f < 15; ++f) {
                const int p = make_point(f, r);
                if (pos.at(p) != Stone::empty) continue;
                ++points;
                const Forbidden want = ref_forbidden(ref, f, r, 0);
                const Forbidden got = renju_forbidden(pos, p);
                if (got != want) {
                    if (++mismatches <= 5) {
                        UNSCOPED_INFO(pos.to_text() << " at " << point_name(p) << ": " << forbidden_name(got)
                                                    << ", the reference says " << forbidden_name(want));
                    }
                }
                ++seen[std::size_t(want)];
                forbidden_here += want != Forbidden::none;
                false_threes += want == Forbidden::none && ref_forbidden(ref, f, r, 0, false) == Forbidden::double_three;
            }
        // What play() counts on to skip looking for an allowed point (StonePosition::surely_has_allowed_point):
        // at most 8 forbidden points per black stone.
        int blacks = 0;
        for (int p = 0; p < point_count; ++p) blacks += pos.at(p) == Stone::black;
        CHECK(forbidden_here <= 8 * blacks);
    }
    CHECK(mismatches == 0);
    INFO(points << " points: allowed " << seen[0] << ", double-three " << seen[1] << ", double-four " << seen[2]
                << ", overline " << seen[3] << "; false double-threes " << false_threes);
    CHECK(points > 50000);
    for (const int n : seen) CHECK(n > 200);
    CHECK(false_threes > 20); // the recursion decided some points
}

TEST_CASE("Renju: the 26 openings, named from the first three stones under every symmetry", "[stones][renju]") {
    using S = Stone;
    // By hand from the RIF diagrams: Black on h8, White on h9 (direct) or i9 (indirect).
    const auto named = [](std::initializer_list<const char*> black, std::initializer_list<const char*> white) {
        const RenjuOpening* o = renju_opening_of(setup(renju(), black, white, Color::white));
        return o ? o->label() : std::string("none");
    };
    CHECK(named({"h8", "i9"}, {"h9"}) == "Kagetsu (4D)");
    CHECK(named({"h8", "h10"}, {"h9"}) == "Kansei (1D)");
    CHECK(named({"h8", "j6"}, {"h9"}) == "Yusei (13D)");
    CHECK(named({"h8", "j8"}, {"i9"}) == "Kosei (3I)");
    CHECK(named({"h8", "f6"}, {"i9"}) == "Suisei (13I)");
    CHECK(named({"h8", "j10"}, {"i9"}) == "Chosei (1I)");
    // White left of Black and Black's second below White: turned a quarter, Kagetsu again; seen in
    // a mirror (White right), too.
    CHECK(named({"h8", "g7"}, {"g8"}) == "Kagetsu (4D)");
    CHECK(named({"h8", "i7"}, {"i8"}) == "Kagetsu (4D)");
    // Indirect, White down-left, Black's second on the far side of White's diagonal: Hogetsu (7I)
    // is (1, -1) from the centre with White at (1, 1); a half turn makes it (-1, 1) with White at
    // (-1, -1), and the mirror in that diagonal keeps White and gives (1, -1) again.
    CHECK(named({"h8", "g9"}, {"g7"}) == "Hogetsu (7I)");
    CHECK(named({"h8", "i7"}, {"g7"}) == "Hogetsu (7I)");

    // No opening: Black's first stone off the centre, White two points away, Black's second
    // three points away, a fourth stone, another game.
    CHECK(named({"i9", "j10"}, {"h8"}) == "none");
    CHECK(named({"h8", "i9"}, {"h10"}) == "none");
    CHECK(named({"h8", "k8"}, {"h9"}) == "none");
    CHECK(named({"h8", "i9"}, {"h9", "g9"}) == "none");
    CHECK(named({"h8"}, {"h9"}) == "none");
    // The stones of Kagetsu with Black to move (a set-up position) are no opening: an opening is
    // what the board shows after the third stone, White to move.
    CHECK(renju_opening_of(setup(renju(), {"h8", "i9"}, {"h9"}, Color::black)) == nullptr);
    CHECK(renju_opening_of(setup(Rules::defaults(GameKind::gomoku), {"h8", "i9"}, {"h9"}, Color::white)) == nullptr);

    // Every shape the opening rules allow (White on one of the 8 points around the centre, Black's
    // second on one of the 23 other points of the 5x5 square: 184) has exactly one name, and each
    // opening's positions are its own: four for the shapes on White's axis of symmetry, eight for
    // the others.
    const int c = 7;
    std::map<std::string, int> shapes;
    for (int wf = -1; wf <= 1; ++wf)
        for (int wr = -1; wr <= 1; ++wr) {
            if (wf == 0 && wr == 0) continue;
            for (int bf = -2; bf <= 2; ++bf)
                for (int br = -2; br <= 2; ++br) {
                    if ((bf == 0 && br == 0) || (bf == wf && br == wr)) continue;
                    StonePosition pos(renju());
                    pos.put(make_point(c, c), S::black);
                    pos.put(make_point(c + wf, c + wr), S::white);
                    pos.put(make_point(c + bf, c + br), S::black);
                    pos.set_side_to_move(Color::white);
                    const RenjuOpening* o = renju_opening_of(pos);
                    REQUIRE(o != nullptr);
                    ++shapes[std::string(o->name)];
                }
        }
    CHECK(shapes.size() == 26);
    std::size_t total = 0;
    std::set<std::uint64_t> keys;
    for (const RenjuOpening& o : renju_openings()) {
        const std::vector<StonePosition> positions = renju_opening_positions(o);
        const bool on_axis = o.direct ? o.file_offset == 0 : o.file_offset == o.rank_offset;
        INFO(o.label());
        CHECK(int(positions.size()) == (on_axis ? 4 : 8));
        CHECK(shapes[std::string(o.name)] == int(positions.size()));
        for (const StonePosition& p : positions) {
            CHECK(renju_opening_of(p) == &o);
            CHECK(p.side_to_move() == Color::white);
            keys.insert(p.key());
        }
        total += positions.size();
    }
    CHECK(total == 184);
    CHECK(keys.size() == 184);

    // Names as players write them.
    const auto found = [](std::string_view text) {
        const RenjuOpening* o = find_renju_opening(text);
        return o ? o->label() : std::string("none");
    };
    CHECK(found("Kagetsu") == "Kagetsu (4D)");
    CHECK(found("KAGETSU") == "Kagetsu (4D)");
    CHECK(found("4D") == "Kagetsu (4D)");
    CHECK(found("d4") == "Kagetsu (4D)");
    CHECK(found("i4") == "Suigetsu (4I)");
    CHECK(found("13i") == "Suisei (13I)");
    CHECK(found("花月") == "Kagetsu (4D)");
    CHECK(found("Shougetsu") == "Shogetsu (8D)");
    CHECK(found("Kyuugetsu") == "Kyugetsu (9D)");
    CHECK(found("Myoujou") == "Myojo (10I)");
    CHECK(found("Zuigetsu") == "Zuisei (11D)");
    CHECK(found("") == "none");
    CHECK(found("Kagetsu2") == "none");
    CHECK(found("14D") == "none");
    CHECK(found("0I") == "none");
    CHECK(found("4") == "none");
    // Blanks around a name (a pasted word, a form's field), the long vowels written with a macron
    // or a circumflex as romanisations do (Shōgetsu, Ryûsei); a start of two names, bytes that are
    // no name, blanks alone: none.
    CHECK(found(" Kagetsu\t") == "Kagetsu (4D)");
    CHECK(found(" 花月 ") == "Kagetsu (4D)");
    CHECK(found("Shōgetsu") == "Shogetsu (8D)");
    CHECK(found("KYŌGETSU") == "Kyogetsu (2I)");
    CHECK(found("Myōjō") == "Myojo (10I)");
    CHECK(found("Ryûsei") == "Ryusei (5I)");
    CHECK(found("Kyūgetsu") == "Kyugetsu (9D)");
    CHECK(found("Ka") == "none");
    CHECK(found("  ") == "none");
    CHECK(found("\xff\xfe") == "none");
    CHECK(found(std::string_view("Kagetsu\0", 8)) == "none");
}
